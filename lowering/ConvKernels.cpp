//===- ConvKernels.cpp - Kernel generators of the Conv family -------------===//
//
// onnx.Conv is an implicit GEMM on the tiled GEMM kernel (TiledGemm.h): for
// image n and group g, the filters of the group (Mg x Cg*kernel, the
// weights as they are stored) times the input unfolded into columns
// (Cg*kernel x output positions) is the group's output (Mg x positions),
// which is how Y stores it. The unfolded input is never materialized: the
// kernel computes each element's input position from its (channel, kernel
// offset, output position) with strides, dilations and padding baked in, and
// reads zero outside the input. Images and groups are the grid's z, so
// depthwise convolutions are a batch of thin products. Any number of
// spatial dimensions works the same way. The batch and the spatial sizes
// may be known only at run time (push constants of the GEMM's sizes, the
// output sizes host arithmetic); the weights' shape, strides, dilations and
// pads are compiled in.
//
// onnx.ConvTranspose runs one invocation per output element, which gathers
// what the scatter of the definition would add to it: for each kernel
// offset whose input position (output + pad - offset * dilation) / stride
// is whole and inside the input, the dot product over the group's input
// channels. Strides and dilations are baked in; the batch and spatial
// sizes may be known only at run time, and so then may the pads that
// output_shape or auto_pad SAME_* derive from them (push constants).
//
//===----------------------------------------------------------------------===//
#include "lowering/Glsl.h"
#include "lowering/MatMulOperands.h"
#include "lowering/TiledGemm.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/SlidingWindow.h"
#include "dialect/onnx/Tensor.h"

#include "ir/Operation.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <fmt/format.h>

#include <set>

namespace onyx::lowering {

namespace {

using gpu::Access;

/// Short, as kernels spell many literals.
std::string (&u)(int64_t) = glsl::uintLiteral;

constexpr auto product = onnx::getNumElements;

/// The body of loadB: element (k, col) of the unfolded input, k =
/// (channel, kernel offset) and col the output position; sizes known only
/// at run time are spelled through `sizes`.
std::string unfoldedInput(const ProductOperand &x, KernelSizes &sizes,
                          ArrayRef<Size> input, ArrayRef<Size> output,
                          const onnx::WindowGeometry &g) {
  LoweringContext &ctx = sizes.getContext();
  size_t rank = input.size();
  int64_t kernelSize = product(g.kernel);
  SmallVector<Size> inStrides = getStrides(ctx, input);
  std::string s = "  uint ch = k / " + u(kernelSize) + ", kr = k % " +
                  u(kernelSize) + ";\n";
  s += glsl::unflatten(g.kernel, "kr", "q");
  s += sizes.unflatten(output, "col", "o");
  std::string inside,
      offset = "xBase + ch * " + sizes.get(getNumElements(ctx, input));
  for (size_t d = 0; d < rank; ++d) {
    std::string i = (llvm::Twine("i") + llvm::Twine(d)).str();
    // Unsigned: a position in the begin padding wraps to a large value, so
    // one comparison checks both ends.
    s += "  uint " + i + " = o" + std::to_string(d) + " * " + u(g.strides[d]) +
         " + q" + std::to_string(d) + " * " + u(g.dilations[d]);
    if (g.pads[d] != 0)
      s += " - " + u(g.pads[d]);
    s += ";\n";
    // Where the sizes are static, positions that cannot leave the input
    // are not checked.
    bool inBounds = g.pads[d] == 0 && input[d].isStatic() &&
                    output[d].isStatic() &&
                    (output[d].constant - 1) * g.strides[d] +
                            (g.kernel[d] - 1) * g.dilations[d] <
                        input[d].constant;
    if (!inBounds)
      inside +=
          (inside.empty() ? "" : " && ") + i + " < " + sizes.get(input[d]);
    offset += " + " + i + " * " + sizes.get(inStrides[d]);
  }
  std::string value = loadProductOperand(x, "x", offset, false);
  if (inside.empty())
    return s + "  return " + value + ";\n";
  return s + "  return (" + inside + ") ? " + value + " : " +
         glsl::computeType(x.storedType) + "(0);\n";
}

/// The body of the direct kernel (GemmProblem::directBody) of a depthwise
/// convolution (one input channel per group) of static sizes `input` and
/// `output` (spatial): invocation i computes `run` outputs side by side
/// along the last spatial dimension for filter row `row` of its group,
/// loading each weight and each input of their windows once, where the
/// implicit GEMM copies the unfolded input (kernel-size times the input)
/// through shared memory: on a CPU device each load costs a loop over the
/// SIMD lanes and the arithmetic little. Sets the invocations per product.
std::string depthwiseBody(const ProductOperand &x, int64_t rows,
                          ArrayRef<int64_t> input, ArrayRef<int64_t> output,
                          const onnx::WindowGeometry &g, unsigned run,
                          int64_t &invocations) {
  std::string ct = glsl::computeType(x.storedType);
  size_t last = input.size() - 1;
  int64_t outLast = output[last], inLast = input[last];
  int64_t kLast = g.kernel[last], sLast = g.strides[last],
          dLast = g.dilations[last], pLast = g.pads[last];
  run = unsigned(std::min<int64_t>(run, outLast));
  int64_t runs = glsl::ceilDiv(outLast, run);
  int64_t prefix = product(output.drop_back());
  invocations = rows * prefix * runs;
  SmallVector<int64_t> inStrides = onnx::getStrides(input);
  std::string s = "  uint row = i / " + u(prefix * runs) + ", rest = i % " +
                  u(prefix * runs) + ";\n";
  s += "  uint pre = rest / " + u(runs) + ", oL = (rest % " + u(runs) + ") * " +
       u(run) + ";\n";
  s += glsl::unflatten(output.drop_back(), "pre", "o");
  int64_t kernelSize = product(g.kernel);
  for (int64_t q = 0; q < kernelSize; ++q)
    s +=
        "  " + ct + " k" + std::to_string(q) + " = loadA(row, " + u(q) + ");\n";
  for (unsigned t = 0; t < run; ++t)
    s += "  " + ct + " a" + std::to_string(t) + " = " + ct + "(0);\n";
  // Each position of the kernel but along the last dimension reads one
  // stretch of an input row, each element once.
  ArrayRef<int64_t> kernelPrefix = ArrayRef<int64_t>(g.kernel).drop_back();
  SmallVector<int64_t> kernelStrides = onnx::getStrides(kernelPrefix);
  for (int64_t qp = 0; qp < product(kernelPrefix); ++qp) {
    s += "  {\n";
    std::string inside = "true", base = "xBase";
    for (size_t d = 0; d < last; ++d) {
      int64_t q = qp / kernelStrides[d] % kernelPrefix[d];
      std::string id = fmt::format("i{}", d);
      // Unsigned: a position in the begin padding wraps to a large value.
      s += "    uint " + id + " = o" + std::to_string(d) + " * " +
           u(g.strides[d]) + " + " + u(q * g.dilations[d]) + " - " +
           u(g.pads[d]) + ";\n";
      inside += " && " + id + " < " + u(input[d]);
      base += " + " + id + " * " + u(inStrides[d]);
    }
    s += "    bool inside = " + inside + ";\n";
    s += "    uint base = " + base + ";\n";
    std::set<int64_t> offsets;
    for (unsigned t = 0; t < run; ++t)
      for (int64_t q = 0; q < kLast; ++q)
        offsets.insert(t * sLast + q * dLast);
    for (int64_t e : offsets) {
      std::string v = fmt::format("v{}", e);
      s += "    uint p" + std::to_string(e) + " = oL * " + u(sLast) + " + " +
           u(e) + " - " + u(pLast) + ";\n";
      s += "    " + ct + " " + v + " = (inside && p" + std::to_string(e) +
           " < " + u(inLast) + ") ? " +
           loadProductOperand(x, "x", "base + p" + std::to_string(e), false) +
           " : " + ct + "(0);\n";
    }
    for (unsigned t = 0; t < run; ++t)
      for (int64_t q = 0; q < kLast; ++q)
        s += "    a" + std::to_string(t) + " += k" +
             std::to_string(qp * kLast + q) + " * v" +
             std::to_string(t * sLast + q * dLast) + ";\n";
    s += "  }\n";
  }
  for (unsigned t = 0; t < run; ++t) {
    std::string col = "oL + " + u(t);
    std::string store = "storeC(row, pre * " + u(outLast) + " + " + col +
                        ", a" + std::to_string(t) + ");\n";
    s += outLast % run == 0
             ? "  " + store
             : "  if (" + col + " < " + u(outLast) + ") " + store;
  }
  return s;
}

/// Checks what the Conv and ConvTranspose kernels (`kernelName`) need of
/// `op`: float elements that kernels hold, weights of a shape known when
/// compiling, and each tensor of static shape within a binding's range.
LogicalResult checkConvTypes(Operation *op, LoweringContext &ctx,
                             StringRef kernelName) {
  auto xType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto wType = cast<RankedTensorType>(op->getOperand(1).getType());
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = xType.getElementType();
  if (!glsl::isSupported(et) || !glsl::isFloat(et))
    return ctx.emitError() << "element type " << et
                           << " is not supported by the " << kernelName
                           << " kernel";
  if (!wType.hasStaticShape())
    return ctx.emitError() << "needs the shape of its weights known when it "
                              "is compiled, got "
                           << Type(wType);
  for (RankedTensorType type : {xType, wType, yType})
    if (type.hasStaticShape() && failed(checkBindingSize(ctx, type)))
      return failure();
  return success();
}

LogicalResult generateConv(Operation *op, LoweringContext &ctx,
                           const GemmEpilogue *epilogue) {
  auto xType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto wType = cast<RankedTensorType>(op->getOperand(1).getType());
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = xType.getElementType();
  if (failed(checkConvTypes(op, ctx, "Conv")))
    return failure();
  bool hasBias =
      op->getNumOperands() > 2 && !onnx::isNoValue(op->getOperand(2));

  ArrayRef<int64_t> xShape = xType.getShape(), wShape = wType.getShape();
  ArrayRef<int64_t> kernel = wShape.drop_front(2);
  onnx::OpAttrs attrs(op);
  FailureOr<onnx::WindowGeometry> g =
      onnx::computeWindowGeometry(attrs, xShape.drop_front(2), kernel, false,
                                  [&] { return ctx.emitError(); });
  if (failed(g))
    return failure();
  // The batch and the spatial sizes may be known only at run time; the
  // kernel, strides, dilations and pads are compiled in.
  SmallVector<Size> xDims = ctx.getDims(op->getOperand(0));
  if (xDims.size() != size_t(xType.getRank()))
    return failure();
  ArrayRef<Size> input = ArrayRef<Size>(xDims).drop_front(2);
  FailureOr<SmallVector<Size>> output =
      getWindowOutputSizes(ctx, attrs, *g, input, false);
  if (failed(output))
    return failure();
  int64_t groups = attrs.getInt("group");
  int64_t filters = wShape[0], perGroup = wShape[1];
  int64_t channels = perGroup * groups, filtersPerGroup = filters / groups;
  Size inPlane = getNumElements(ctx, input),
       outPlane = getNumElements(ctx, *output);

  int64_t k = perGroup * product(kernel);
  KernelSizes sizes(ctx);
  GemmProblem p;
  p.sizes = &sizes;
  p.elementType = et;
  p.m = filtersPerGroup;
  p.k = k;
  p.n = outPlane;
  p.batch = ctx.mul(xDims[0], groups);
  if (!yType.hasStaticShape()) {
    p.resultDims = {xDims[0], Size(filters)};
    p.resultDims.append(output->begin(), output->end());
  }
  auto S = [&](Size size) { return sizes.get(size); };
  std::string ct = glsl::computeType(et);

  // A 1x1 convolution without stride or padding reads its input as the
  // matrix it already is (and, like the weights, four at a time).
  bool pointwise = llvm::all_of(kernel, [](int64_t k) { return k == 1; }) &&
                   llvm::all_of(g->strides, [](int64_t s) { return s == 1; }) &&
                   llvm::all_of(g->pads, [](int64_t q) { return q == 0; });
  bool vectors = canLoadVectors(ctx, et);
  p.aVector = vectors && k % 4 == 0;
  p.bVector =
      vectors && pointwise && outPlane.isStatic() && outPlane.constant % 4 == 0;
  // The filters are A, the (unfolded) input B, in the lowering's precision.
  if (et.isF32())
    p.productType = ctx.getProductType();
  ProductOperand xOperand = getProductOperand(ctx, op->getOperand(0), et);
  ProductOperand wOperand = getProductOperand(ctx, op->getOperand(1), et);
  p.declarations += declareProductOperand(xOperand, 0, "x", p.bVector);
  p.declarations += declareProductOperand(wOperand, 1, "w", p.aVector);
  p.globals = "uint xBase, wBase, yBase, filter0;\n";

  p.prologue = groups == 1 ? "  uint img = z, grp = 0u;\n"
                           : "  uint img = z / " + u(groups) + ", grp = z % " +
                                 u(groups) + ";\n";
  p.prologue += "  xBase = (img * " + u(channels) + " + grp * " + u(perGroup) +
                ") * " + S(inPlane) + ";\n";
  p.prologue += "  filter0 = grp * " + u(filtersPerGroup) + ";\n";
  p.prologue += "  wBase = filter0 * " + u(k) + ";\n";
  p.prologue +=
      "  yBase = (img * " + u(filters) + " + filter0) * " + S(outPlane) + ";\n";

  std::string wIndex = "wBase + row * " + u(k) + " + k";
  p.functions += ct + " loadA(uint row, uint k) { return " +
                 loadProductOperand(wOperand, "w", wIndex, p.aVector) + "; }\n";
  if (p.aVector)
    p.functions += "vec4 loadA4(uint row, uint k) { return " +
                   loadProductOperand4(wOperand, "w", wIndex) + "; }\n";
  if (pointwise) {
    std::string xIndex = "xBase + k * " + S(inPlane) + " + col";
    p.functions += ct + " loadB(uint k, uint col) { return " +
                   loadProductOperand(xOperand, "x", xIndex, p.bVector) +
                   "; }\n";
    if (p.bVector)
      p.functions += "vec4 loadB4(uint k, uint col) { return " +
                     loadProductOperand4(xOperand, "x", xIndex) + "; }\n";
  } else {
    p.functions += ct + " loadB(uint k, uint col) {\n" +
                   unfoldedInput(xOperand, sizes, input, *output, *g) + "}\n";
  }
  p.outputIndex = "yBase + row * " + S(outPlane) + " + col";
  p.outputValue = ct + " v = acc";
  if (hasBias) {
    p.outputValue += " + " + glsl::load(et, "bias", "filter0 + row");
    p.storeInputs.push_back({"bias", et, ctx.getView(op->getOperand(2))});
  }
  p.outputValue += ";";
  p.epilogue = epilogue;
  // Depthwise: one input channel per group, in more than one group; a
  // window of a few elements (a long one, such as a spectrogram's 512
  // taps over one channel, is a real product the tiled kernel suits).
  unsigned run = ctx.getTarget().getKernelChoices().depthwiseRun;
  if (run && groups > 1 && perGroup == 1 && product(kernel) <= 64 &&
      !pointwise && xType.hasStaticShape() && yType.hasStaticShape()) {
    int64_t invocations = 0;
    p.directBody =
        depthwiseBody(xOperand, filtersPerGroup, xShape.drop_front(2),
                      yType.getShape().drop_front(2), *g, run, invocations);
    p.directInvocations = invocations;
  }

  Value x = getProductOperandView(ctx, xOperand);
  Value w = getProductOperandView(ctx, wOperand);
  if (!x || !w)
    return failure();
  return dispatchGemm(ctx, "conv", p, x, w, op->getResult(0));
}

LogicalResult generatePlainConv(Operation *op, LoweringContext &ctx) {
  return generateConv(op, ctx, nullptr);
}

/// The output sizes and begin pads of a ConvTranspose over spatial sizes
/// `input`, of which `g` (computeTransposedGeometry's, for the static ones)
/// holds the kernel, strides, dilations and pads: where a size is known
/// only at run time, host arithmetic as the dialect computes it for
/// constants (output_shape or auto_pad SAME_* give the output size and the
/// pads follow; otherwise the pads give the output size, with a check of
/// the run that it is not negative).
LogicalResult getTransposedSizes(LoweringContext &ctx,
                                 const onnx::OpAttrs &attrs,
                                 const onnx::WindowGeometry &g,
                                 ArrayRef<Size> input,
                                 SmallVectorImpl<Size> &output,
                                 SmallVectorImpl<Size> &beginPads) {
  size_t rank = input.size();
  SmallVector<int64_t> outputPadding =
      attrs.getInts("output_padding").value_or(SmallVector<int64_t>(rank, 0));
  std::optional<SmallVector<int64_t>> outputShape =
      attrs.getInts("output_shape");
  if (outputShape && outputShape->size() == rank + 2)
    outputShape->erase(outputShape->begin(), outputShape->begin() + 2);
  StringRef autoPad = attrs.getString("auto_pad");
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  for (size_t d = 0; d < rank; ++d) {
    if (input[d].isStatic() && !ShapedType::isDynamic(g.output[d])) {
      output.push_back(g.output[d]);
      beginPads.push_back(g.pads[d]);
      continue;
    }
    int64_t extent = g.dilations[d] * (g.kernel[d] - 1) + 1;
    // The full output: stride * (in - 1) + output_padding + extent.
    Size full =
        ctx.arith("gpu.addi", ctx.mul(g.strides[d], ctx.sub(input[d], 1)),
                  outputPadding[d] + extent);
    if (outputShape || same) {
      Size out = outputShape ? Size((*outputShape)[d])
                             : ctx.mul(input[d], g.strides[d]);
      Size total = ctx.arith("gpu.maxi", ctx.sub(full, out), 0);
      Size half = ctx.floorDiv(total, 2);
      output.push_back(out);
      beginPads.push_back(autoPad == "SAME_UPPER" ? half
                                                  : ctx.sub(total, half));
      continue;
    }
    int64_t pads = autoPad == "VALID" ? 0 : g.pads[d] + g.pads[rank + d];
    Size out = ctx.sub(full, pads);
    if (failed(ctx.check(
            ctx.arith("gpu.lei", 0, out),
            fmt::format("pads of {} leave no output in spatial dimension {} "
                        "(of size {{0}})",
                        pads, d),
            {full})))
      return failure();
    output.push_back(out);
    beginPads.push_back(autoPad == "VALID" ? 0 : g.pads[d]);
  }
  return success();
}

LogicalResult generateConvTranspose(Operation *op, LoweringContext &ctx) {
  auto xType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto wType = cast<RankedTensorType>(op->getOperand(1).getType());
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = xType.getElementType();
  if (failed(checkConvTypes(op, ctx, "ConvTranspose")))
    return failure();
  ArrayRef<int64_t> wShape = wType.getShape();
  ArrayRef<int64_t> kernel = wShape.drop_front(2);
  onnx::OpAttrs attrs(op);
  FailureOr<onnx::WindowGeometry> g =
      onnx::computeTransposedGeometry(attrs, xType.getShape().drop_front(2),
                                      kernel, [&] { return ctx.emitError(); });
  if (failed(g))
    return failure();
  // The batch and the spatial sizes may be known only at run time; the
  // channels, kernel, strides and dilations are compiled in, and pads that
  // depend on a run-time size are push constants.
  SmallVector<Size> xDims = ctx.getDims(op->getOperand(0));
  if (xDims.size() != size_t(xType.getRank()))
    return failure();
  ArrayRef<Size> input = ArrayRef<Size>(xDims).drop_front(2);
  SmallVector<Size> output, beginPads;
  if (failed(getTransposedSizes(ctx, attrs, *g, input, output, beginPads)))
    return failure();
  int64_t groups = attrs.getInt("group");
  int64_t channels = wShape[0], perGroup = wShape[1];
  int64_t channelsPerGroup = channels / groups, filters = perGroup * groups;
  SmallVector<Size> yDims = {xDims[0], Size(filters)};
  yDims.append(output.begin(), output.end());
  Value result = ctx.allocate(yType, yDims);
  ctx.setResult(op->getResult(0), result);
  Size total = getNumElements(ctx, yDims);
  if (total.isZero())
    return success();
  bool hasBias =
      op->getNumOperands() > 2 && !onnx::isNoValue(op->getOperand(2));
  SmallVector<Value> bindings = {ctx.getView(op->getOperand(0)),
                                 ctx.getView(op->getOperand(1))};
  if (hasBias)
    bindings.push_back(ctx.getView(op->getOperand(2)));
  if (llvm::is_contained(bindings, Value()))
    return failure();
  bindings.push_back(result);

  KernelSizes sizes(ctx);
  auto S = [&](Size size) { return sizes.get(size); };
  Size inPlane = getNumElements(ctx, input),
       outPlane = getNumElements(ctx, output);
  int64_t kernelSize = product(kernel);
  size_t spatial = input.size();
  SmallVector<Size> inStrides = getStrides(ctx, input);
  std::string ct = glsl::computeType(et);

  // Per spatial dimension: the input coordinate t / stride, where t must be
  // a non-negative multiple of the stride.
  std::string coords;
  SmallVector<std::string> valid, offset;
  for (size_t d = 0; d < spatial; ++d) {
    // Static sizes stay plain int literals.
    std::string pad = beginPads[d].isStatic()
                          ? std::to_string(beginPads[d].constant)
                          : sizes.getInt(beginPads[d]);
    std::string in = input[d].isStatic() ? std::to_string(input[d].constant)
                                         : "int(" + S(input[d]) + ")";
    coords += fmt::format("    int t{0} = int(o{0}) + {1} - int(k{0}) * {2};\n",
                          d, pad, g->dilations[d]);
    if (g->strides[d] == 1) {
      coords += fmt::format("    int i{0} = t{0};\n", d);
      valid.push_back(fmt::format("i{0} >= 0 && i{0} < {1}", d, in));
    } else {
      coords += fmt::format("    int i{0} = t{0} / {1};\n", d, g->strides[d]);
      valid.push_back(fmt::format("t{0} >= 0 && t{0} % {1} == 0 && i{0} < {2}",
                                  d, g->strides[d], in));
    }
    offset.push_back(fmt::format("uint(i{0}) * {1}", d, S(inStrides[d])));
  }
  // The kernel offset's coordinates, indented into the loop.
  std::string unflattened = glsl::unflatten(kernel, "k", "k"), kernelCoords;
  for (StringRef line : llvm::split(unflattened, '\n'))
    if (!line.empty())
      kernelCoords += "  " + line.str() + "\n";

  std::string body =
      fmt::format("void main() {{\n"
                  "  uint o = gl_GlobalInvocationID.x;\n"
                  "  if (o >= {0}) return;\n"
                  "  uint n = o / {1}, m = o / {2} % {3}u;\n"
                  "  uint grp = m / {4}u, mm = m % {4}u;\n"
                  "  uint xBase = (n * {5}u + grp * {6}u) * {7};\n"
                  "  uint wBase = (grp * {6}u * {4}u + mm) * {8}u;\n",
                  S(total), S(ctx.mul(outPlane, filters)), S(outPlane), filters,
                  perGroup, channels, channelsPerGroup, S(inPlane), kernelSize);
  body += sizes.unflatten(output, fmt::format("(o % {})", S(outPlane)), "o");
  body +=
      fmt::format("  {} acc = {};\n", ct,
                  hasBias ? glsl::load(et, "bias", "m") : glsl::literal(et, 0));
  body +=
      fmt::format("  for (uint k = 0u; k < {}u; ++k) {{\n", kernelSize) +
      kernelCoords + coords + "    if (!(" + llvm::join(valid, " && ") +
      "))\n      continue;\n" + "    uint at = xBase + " +
      llvm::join(offset, " + ") + ";\n" +
      fmt::format("    for (uint c = 0u; c < {0}u; ++c)\n"
                  "      acc += {1} * {2};\n",
                  channelsPerGroup,
                  glsl::load(et, "x", fmt::format("at + c * {}", S(inPlane))),
                  glsl::load(et, "w",
                             fmt::format("wBase + c * {}u + k",
                                         perGroup * kernelSize))) +
      "  }\n  " + glsl::store(et, "y", "o", "acc") + "\n}\n";

  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec spec;
  spec.name = "conv_transpose";
  spec.workgroupSize = {wg, 1, 1};
  spec.bindings.assign(bindings.size() - 1, gpu::Access::Read);
  spec.bindings.push_back(gpu::Access::Write);
  unsigned yBinding = bindings.size() - 1;
  std::string &code = spec.glsl;
  code = glsl::header(spec.workgroupSize) + sizes.declaration() +
         glsl::buffer(0, gpu::Access::Read, et, "x") +
         glsl::buffer(1, gpu::Access::Read, et, "w");
  if (hasBias)
    code += glsl::buffer(2, gpu::Access::Read, et, "bias");
  code += glsl::buffer(yBinding, gpu::Access::Write, et, "y") + body;
  sizes.dispatch(spec, total, bindings);
  return success();
}

const KernelGenerator generators[] = {
    {"onnx.Conv", generatePlainConv, /*dynamicDims=*/true},
    {"onnx.ConvTranspose", generateConvTranspose, /*dynamicDims=*/true},
};

} // namespace

LogicalResult lowerConv(Operation *op, LoweringContext &ctx,
                        const GemmEpilogue *epilogue) {
  return generateConv(op, ctx, epilogue);
}

ArrayRef<KernelGenerator> getConvGenerators() { return generators; }

} // namespace onyx::lowering

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
// spatial dimensions works the same way.
//
//===----------------------------------------------------------------------===//
#include "lowering/Glsl.h"
#include "lowering/TiledGemm.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/SlidingWindow.h"

#include "ir/Operation.h"

#include "llvm/ADT/Twine.h"

namespace onyx::lowering {

namespace {

using gpu::Access;

/// Short, as kernels spell many literals.
std::string (&u)(int64_t) = glsl::uintLiteral;

constexpr auto product = onnx::getNumElements;

/// The body of loadB: element (k, col) of the unfolded input, k =
/// (channel, kernel offset) and col the output position.
std::string unfoldedInput(Type et, ArrayRef<int64_t> input,
                          ArrayRef<int64_t> output,
                          const onnx::WindowGeometry &g) {
  size_t rank = input.size();
  int64_t kernelSize = product(g.kernel), inPlane = product(input);
  SmallVector<int64_t> inStrides = onnx::getStrides(input);
  std::string s = "  uint ch = k / " + u(kernelSize) + ", kr = k % " +
                  u(kernelSize) + ";\n";
  s += glsl::unflatten(g.kernel, "kr", "q");
  s += glsl::unflatten(output, "col", "o");
  std::string inside, offset = "xBase + ch * " + u(inPlane);
  for (size_t d = 0; d < rank; ++d) {
    std::string i = (llvm::Twine("i") + llvm::Twine(d)).str();
    // Unsigned: a position in the begin padding wraps to a large value, so
    // one comparison checks both ends.
    s += "  uint " + i + " = o" + std::to_string(d) + " * " + u(g.strides[d]) +
         " + q" + std::to_string(d) + " * " + u(g.dilations[d]);
    if (g.pads[d] != 0)
      s += " - " + u(g.pads[d]);
    s += ";\n";
    int64_t last = (output[d] - 1) * g.strides[d] +
                   (g.kernel[d] - 1) * g.dilations[d] - g.pads[d];
    if (g.pads[d] != 0 || last >= input[d])
      inside += (inside.empty() ? "" : " && ") + i + " < " + u(input[d]);
    offset += " + " + i + " * " + u(inStrides[d]);
  }
  std::string value = glsl::load(et, "x", offset);
  if (inside.empty())
    return s + "  return " + value + ";\n";
  return s + "  return (" + inside + ") ? " + value + " : " +
         glsl::computeType(et) + "(0);\n";
}

LogicalResult generateConv(Operation *op, LoweringContext &ctx,
                           const GemmEpilogue *epilogue) {
  auto xType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto wType = cast<RankedTensorType>(op->getOperand(1).getType());
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = xType.getElementType();
  if (!glsl::isSupported(et) || !glsl::isFloat(et))
    return ctx.emitError() << "element type " << et
                           << " is not supported by the Conv kernel";
  bool hasBias =
      op->getNumOperands() > 2 && !onnx::isNoValue(op->getOperand(2));
  for (RankedTensorType type : {xType, wType, yType})
    if (failed(checkBindingSize(ctx, type)))
      return failure();

  ArrayRef<int64_t> xShape = xType.getShape(), wShape = wType.getShape();
  ArrayRef<int64_t> input = xShape.drop_front(2), kernel = wShape.drop_front(2);
  ArrayRef<int64_t> output = yType.getShape().drop_front(2);
  FailureOr<onnx::WindowGeometry> g = onnx::computeWindowGeometry(
      onnx::OpAttrs(op), input, kernel, false, [&] { return ctx.emitError(); });
  if (failed(g))
    return failure();
  int64_t groups = onnx::OpAttrs(op).getInt("group");
  int64_t channels = xShape[1], filters = wShape[0];
  int64_t perGroup = channels / groups, filtersPerGroup = filters / groups;
  int64_t inPlane = product(input), outPlane = product(output);

  int64_t k = perGroup * product(kernel);
  GemmProblem p;
  p.elementType = et;
  p.m = filtersPerGroup;
  p.k = k;
  p.n = outPlane;
  p.batch = xShape[0] * groups;
  std::string ct = glsl::computeType(et);

  // A 1x1 convolution without stride or padding reads its input as the
  // matrix it already is (and, like the weights, four at a time).
  bool pointwise = llvm::all_of(kernel, [](int64_t k) { return k == 1; }) &&
                   llvm::all_of(g->strides, [](int64_t s) { return s == 1; }) &&
                   llvm::all_of(g->pads, [](int64_t q) { return q == 0; });
  bool vectors = canLoadVectors(ctx, et);
  p.aVector = vectors && k % 4 == 0;
  p.bVector = vectors && pointwise && outPlane % 4 == 0;
  p.declarations +=
      p.bVector ? vectorBuffer(0, "x") : glsl::buffer(0, Access::Read, et, "x");
  p.declarations +=
      p.aVector ? vectorBuffer(1, "w") : glsl::buffer(1, Access::Read, et, "w");
  p.globals = "uint xBase, wBase, yBase, filter0;\n";

  p.prologue = groups == 1 ? "  uint img = z, grp = 0u;\n"
                           : "  uint img = z / " + u(groups) + ", grp = z % " +
                                 u(groups) + ";\n";
  p.prologue += "  xBase = (img * " + u(channels) + " + grp * " + u(perGroup) +
                ") * " + u(inPlane) + ";\n";
  p.prologue += "  filter0 = grp * " + u(filtersPerGroup) + ";\n";
  p.prologue += "  wBase = filter0 * " + u(k) + ";\n";
  p.prologue +=
      "  yBase = (img * " + u(filters) + " + filter0) * " + u(outPlane) + ";\n";

  std::string wIndex = "wBase + row * " + u(k) + " + k";
  p.functions += ct + " loadA(uint row, uint k) { return " +
                 (p.aVector ? vectorBufferElement("w", wIndex)
                            : glsl::load(et, "w", wIndex)) +
                 "; }\n";
  if (p.aVector)
    p.functions += "vec4 loadA4(uint row, uint k) { return w.d[(" + wIndex +
                   ") / 4u]; }\n";
  if (pointwise) {
    std::string xIndex = "xBase + k * " + u(inPlane) + " + col";
    p.functions += ct + " loadB(uint k, uint col) { return " +
                   (p.bVector ? vectorBufferElement("x", xIndex)
                              : glsl::load(et, "x", xIndex)) +
                   "; }\n";
    if (p.bVector)
      p.functions += "vec4 loadB4(uint k, uint col) { return x.d[(" + xIndex +
                     ") / 4u]; }\n";
  } else {
    p.functions += ct + " loadB(uint k, uint col) {\n" +
                   unfoldedInput(et, input, output, *g) + "}\n";
  }
  p.outputIndex = "yBase + row * " + u(outPlane) + " + col";
  p.outputValue = ct + " v = acc";
  if (hasBias) {
    p.outputValue += " + " + glsl::load(et, "bias", "filter0 + row");
    p.storeInputs.push_back({"bias", et, ctx.getView(op->getOperand(2))});
  }
  p.outputValue += ";";
  p.epilogue = epilogue;

  Value x = ctx.getView(op->getOperand(0));
  Value w = ctx.getView(op->getOperand(1));
  if (!x || !w)
    return failure();
  return dispatchGemm(ctx, "conv", p, x, w, op->getResult(0));
}

LogicalResult generatePlainConv(Operation *op, LoweringContext &ctx) {
  return generateConv(op, ctx, nullptr);
}

const KernelGenerator generators[] = {{"onnx.Conv", generatePlainConv}};

} // namespace

LogicalResult lowerConv(Operation *op, LoweringContext &ctx,
                        const GemmEpilogue *epilogue) {
  return generateConv(op, ctx, epilogue);
}

ArrayRef<KernelGenerator> getConvGenerators() { return generators; }

} // namespace onyx::lowering

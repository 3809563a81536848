//===- PoolKernels.cpp - MaxPool, AveragePool and the global pools --------===//
//
// MaxPool and AveragePool run one invocation per output element over its
// window (a few elements: no row is long enough to share), with the window
// geometry the onnx dialect resolves (SlidingWindow.h) baked in: padded
// positions never win a max and count towards an average only with
// count_include_pad, and then only inside the declared padding. MaxPool's
// Indices are flat input indices, column-major over the spatial dimensions
// with storage_order = 1. The batch, channel and spatial sizes may be known
// only at run time (push constants; the output sizes host arithmetic).
//
// The global pools are reductions of each channel's plane
// (WorkgroupReduce.h): ReduceMean and ReduceMax over the spatial dimensions.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelSizes.h"
#include "lowering/WorkgroupReduce.h"

#include "dialect/onnx/SlidingWindow.h"
#include "dialect/onnx/Tensor.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

namespace onyx::lowering {

static LogicalResult lowerPool(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  auto type = cast<RankedTensorType>(data.getType());
  Type et = type.getElementType();
  if (reportUnsupported(ctx, et))
    return failure();
  bool isMax = op->getName().getStringRef() == "onnx.MaxPool";
  onnx::OpAttrs attrs(op);
  FailureOr<onnx::WindowGeometry> g = onnx::computeWindowGeometry(
      attrs, type.getShape().drop_front(2), *attrs.getInts("kernel_shape"),
      true, [&] { return ctx.emitError(); });
  if (failed(g))
    return failure();
  // The batch, channels and spatial sizes may be known only at run time;
  // the window is compiled in.
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.size() != size_t(type.getRank()))
    return failure();
  ArrayRef<Size> inSizes = ArrayRef<Size>(dims).drop_front(2);
  FailureOr<SmallVector<Size>> outSizes = getWindowOutputSizes(
      ctx, attrs, *g, inSizes, attrs.getInt("ceil_mode") != 0);
  if (failed(outSizes))
    return failure();
  SmallVector<Size> resultDims = {dims[0], dims[1]};
  resultDims.append(outSizes->begin(), outSizes->end());

  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Value output = ctx.allocate(resultType, resultDims);
  ctx.setResult(op->getResult(0), output);
  Value indices;
  if (isMax && op->getNumResults() > 1 && !op->getResult(1).use_empty()) {
    if (reportNoInt64Indices(ctx))
      return failure();
    auto indicesType = cast<RankedTensorType>(op->getResult(1).getType());
    indices = ctx.allocate(indicesType, resultDims);
    ctx.setResult(op->getResult(1), indices);
  }
  Size total = getNumElements(ctx, resultDims);
  if (total.isZero())
    return success();
  Value input = ctx.getView(data);
  if (!input)
    return failure();

  size_t spatial = inSizes.size();
  bool includePad = !isMax && attrs.getInt("count_include_pad");
  bool columnMajor = isMax && attrs.getInt("storage_order") == 1;
  KernelSizes sizes(ctx);
  auto S = [&](Size size) { return sizes.get(size); };
  // `size + add` as a GLSL int.
  auto I = [&](Size size, int64_t add) {
    if (size.isStatic())
      return std::to_string(size.constant + add);
    return "int(" + S(size) + ")" + (add ? " + " + std::to_string(add) : "");
  };
  SmallVector<Size> rowStrides = getStrides(ctx, inSizes);
  SmallVector<Size> colStrides(spatial, Size(1));
  for (size_t d = 1; d < spatial; ++d)
    colStrides[d] = ctx.mul(colStrides[d - 1], inSizes[d - 1]);
  Size inPlane = getNumElements(ctx, inSizes),
       outPlane = getNumElements(ctx, *outSizes);
  int64_t kernelSize = onnx::getNumElements(g->kernel);

  // Per spatial dimension: the input coordinate, whether it is inside the
  // input and (for count_include_pad) inside the declared padding, and its
  // share of the row-major and column-major flat indices.
  auto scaled = [&](size_t d, Size stride) {
    return stride.isStatic() && stride.constant == 1
               ? fmt::format("uint(i{})", d)
               : fmt::format("uint(i{}) * {}", d, S(stride));
  };
  std::string window;
  SmallVector<std::string> inInput, inPadding, rowIndex, colIndex;
  for (size_t d = 0; d < spatial; ++d) {
    window += fmt::format("    int i{0} = int(q{0}) * {1} - {2} + int(k{0}) * "
                          "{3};\n",
                          d, g->strides[d], g->pads[d], g->dilations[d]);
    inInput.push_back(
        fmt::format("i{0} >= 0 && i{0} < {1}", d, I(inSizes[d], 0)));
    inPadding.push_back(fmt::format("i{0} >= {1} && i{0} < {2}", d, -g->pads[d],
                                    I(inSizes[d], g->pads[spatial + d])));
    rowIndex.push_back(scaled(d, rowStrides[d]));
    colIndex.push_back(scaled(d, colStrides[d]));
  }
  std::string rowIndexExpr = llvm::join(rowIndex, " + ");
  std::string colIndexExpr = llvm::join(colIndex, " + ");
  std::string ct = glsl::computeType(et);
  std::string body;
  if (isMax) {
    // A NaN wins over numbers, the first one found.
    std::string better = glsl::isFloat(et)
                             ? "v > best || (isnan(v) && !isnan(best))"
                             : "v > best";
    body = fmt::format(
        "    {} v = {};\n"
        "    if ({}) {{\n"
        "      best = v;\n"
        "      bestIndex = {};\n"
        "    }}\n",
        ct, glsl::load(et, "x", "plane * IN_PLANE + " + rowIndexExpr), better,
        columnMajor ? colIndexExpr : rowIndexExpr);
  } else {
    body =
        fmt::format("    sum += {};\n"
                    "    count += 1u;\n",
                    glsl::load(et, "x", "plane * IN_PLANE + " + rowIndexExpr));
  }

  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec spec;
  spec.name = isMax ? "max_pool" : "average_pool";
  spec.workgroupSize = {wg, 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  std::string &code = spec.glsl;
  code = glsl::buffer(0, gpu::Access::Read, et, "x") +
         glsl::buffer(1, gpu::Access::Write, et, "y");
  if (indices) {
    code += glsl::buffer(
        2, gpu::Access::Write,
        cast<gpu::ViewType>(indices.getType()).getElementType(), "indices");
    spec.bindings.push_back(gpu::Access::Write);
  }
  std::string totalText = S(total), outPlaneText = S(outPlane);
  std::string outCoords =
      sizes.unflatten(*outSizes, "o % " + outPlaneText, "q");
  code += (inPlane.isStatic() ? "const uint IN_PLANE = " + S(inPlane) + ";\n"
                              : "#define IN_PLANE " + S(inPlane) + "\n") +
          fmt::format("void main() {{\n"
                      "  uint o = gl_GlobalInvocationID.x;\n"
                      "  if (o >= {}) return;\n"
                      "  uint plane = o / {};\n",
                      totalText, outPlaneText) +
          outCoords +
          (isMax ? fmt::format("  {} best = {};\n  uint bestIndex = 0u;\n", ct,
                               glsl::lowest(et))
                 : fmt::format("  {} sum = {};\n  uint count = 0u;\n", ct,
                               glsl::literal(et, 0))) +
          fmt::format("  for (uint k = 0u; k < {}u; ++k) {{\n", kernelSize);
  // Indent the coordinates into the loop.
  std::string kernelCoords = glsl::unflatten(g->kernel, "k", "k");
  for (StringRef line : llvm::split(kernelCoords, '\n'))
    if (!line.empty())
      code += "  " + line.str() + "\n";
  code += window + "    if (!(" + llvm::join(inInput, " && ") + ")) {\n";
  if (includePad)
    code += "      if (" + llvm::join(inPadding, " && ") + ") count += 1u;\n";
  code += "      continue;\n    }\n" + body + "  }\n";
  if (isMax) {
    code += "  " + glsl::store(et, "y", "o", "best") + "\n";
    if (indices)
      code += "  " +
              glsl::store(IntegerType::get(ctx.getContext(), 64), "indices",
                          "o", "int64_t(plane * IN_PLANE + bestIndex)") +
              "\n";
  } else {
    code += "  " + glsl::store(et, "y", "o", "sum / " + ct + "(count)") + "\n";
  }
  code += "}\n";
  // The sizes known only at run time are all spelled now.
  code = glsl::header(spec.workgroupSize) + sizes.declaration() + code;

  SmallVector<Value> bindings = {input, output};
  if (indices)
    bindings.push_back(indices);
  sizes.dispatch(spec, total, bindings);
  return success();
}

template <ReduceKind kind>
static LogicalResult lowerGlobalPool(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
  llvm::SmallBitVector reduced(rank);
  reduced.set(2, rank);
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.size() != size_t(rank))
    return failure();
  Value output =
      ctx.allocate(cast<RankedTensorType>(op->getResult(0).getType()),
                   getReducedDims(dims, reduced, /*keepDims=*/true));
  ctx.setResult(op->getResult(0), output);
  return lowerReduction(ctx, data, reduced, kind, output);
}

static const KernelGenerator poolGenerators[] = {
    {"onnx.MaxPool", lowerPool, /*dynamicDims=*/true},
    {"onnx.AveragePool", lowerPool, /*dynamicDims=*/true},
    {"onnx.GlobalAveragePool", lowerGlobalPool<ReduceKind::Mean>,
     /*dynamicDims=*/true},
    {"onnx.GlobalMaxPool", lowerGlobalPool<ReduceKind::Max>,
     /*dynamicDims=*/true},
};

ArrayRef<KernelGenerator> getPoolGenerators() { return poolGenerators; }

} // namespace onyx::lowering

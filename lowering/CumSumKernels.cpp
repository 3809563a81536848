//===- CumSumKernels.cpp - CumSum -----------------------------------------===//
//
// One invocation per output element sums its prefix (or suffix, with
// `reverse`) along the axis. A prefix of n elements costs n reads per
// element, which is what the short axes of models (positions, token counts)
// need; long scans would want a work-efficient parallel scan.
//
// The kernel sees the axis only as two sizes: its length n and the number
// of elements after it (the stride of the axis). Where the axis is known
// only at run time (a graph input, or a shape computation), the host
// program picks both among the input's dims, so one compiled kernel serves
// every axis; so do dims known only at run time.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelSizes.h"
#include "lowering/ShapeValues.h"

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {

/// The axis of a CumSum, normalized to [0, rank): a constant, or an index
/// value of the host program with a check of the run that it is in range.
std::optional<Size> getAxis(Operation *op, LoweringContext &ctx, int64_t rank) {
  std::optional<SmallVector<Size>> axis = ctx.getShapeValue(op->getOperand(1));
  if (!axis) {
    ctx.emitError() << "operand 'axis' must be a constant or computable on "
                       "the host (from constants, shapes and arguments) to "
                       "lower the op";
    return std::nullopt;
  }
  if (axis->size() != 1) {
    ctx.emitError() << "operand 'axis' must have one element, got "
                    << uint64_t(axis->size());
    return std::nullopt;
  }
  std::optional<SmallVector<Size>> normalized =
      normalizeAxesAtRunTime(ctx, *axis, rank, "axis");
  if (!normalized)
    return std::nullopt;
  return (*normalized)[0];
}

LogicalResult lowerCumSum(Operation *op, LoweringContext &ctx) {
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  Type et = type.getElementType();
  if (!glsl::isSupported(et))
    return ctx.emitError() << "element type " << et << " is not supported";
  int64_t rank = type.getRank();
  SmallVector<Size> dims = ctx.getDims(op->getOperand(0));
  std::optional<Size> axis = getAxis(op, ctx, rank);
  if (!axis || dims.size() != size_t(rank))
    return failure();
  // The axis's length n and the elements after it: selected by the host
  // where the axis is known only at run time.
  Size n = 0, inner = 1;
  for (int64_t d = 0; d < rank; ++d) {
    n = ctx.select(ctx.arith("gpu.eqi", *axis, d), dims[d], n);
    inner =
        ctx.mul(inner, ctx.select(ctx.arith("gpu.lti", *axis, d), dims[d], 1));
  }
  Value output =
      ctx.allocate(cast<RankedTensorType>(op->getResult(0).getType()), dims);
  ctx.setResult(op->getResult(0), output);
  Size total = getNumElements(ctx, dims);
  if (total.isZero())
    return success();
  Value input = ctx.getView(op->getOperand(0));
  if (!input)
    return failure();
  onnx::OpAttrs attrs(op);
  bool exclusive = attrs.getInt("exclusive"), reverse = attrs.getInt("reverse");
  KernelSizes sizes(ctx);
  std::string count = sizes.get(total), stride = sizes.get(inner),
              length = sizes.get(n);
  // Position k of the axis; the sum covers [first, last) of it.
  std::string first = reverse ? (exclusive ? "k + 1u" : "k") : "0u";
  std::string last = reverse ? length : (exclusive ? "k" : "k + 1u");
  std::string ct = glsl::computeType(et);
  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec spec;
  spec.name = "cumsum";
  spec.workgroupSize = {wg, 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  spec.glsl =
      glsl::header(spec.workgroupSize) + sizes.declaration() +
      glsl::buffer(0, gpu::Access::Read, et, "x") +
      glsl::buffer(1, gpu::Access::Write, et, "y") +
      fmt::format("void main() {{\n"
                  "  uint o = gl_GlobalInvocationID.x;\n"
                  "  if (o >= {0}) return;\n"
                  "  uint k = o / {1} % {2};\n"
                  "  uint start = o - k * {1};\n"
                  "  {3} sum = {4};\n"
                  "  for (uint j = {5}; j < {6}; ++j)\n"
                  "    sum += {7};\n",
                  count, stride, length, ct, glsl::literal(et, 0), first, last,
                  glsl::load(et, "x", fmt::format("start + j * {}", stride))) +
      "  " + glsl::store(et, "y", "o", "sum") + "\n}\n";
  sizes.dispatch(spec, total, {input, output});
  return success();
}

const KernelGenerator generators[] = {
    {"onnx.CumSum", lowerCumSum, /*dynamicDims=*/true}};

} // namespace

ArrayRef<KernelGenerator> getCumSumGenerators() { return generators; }

} // namespace onyx::lowering

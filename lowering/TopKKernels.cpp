//===- TopKKernels.cpp - TopK with k known on the host --------------------===//
//
// TopK's k is an operand: a constant, a graph input or a shape computation,
// which the host program evaluates (LoweringContext::getShapeValue) before
// the commands are recorded, so k sizes the results and reaches the kernel
// as a push constant; no read-back. A k computed by kernels is refused.
//
// One invocation per row (an outer x inner position of the input seen along
// `axis`) selects its k best elements in order: each round takes the best
// element that comes after the previous round's in the output order (value
// first, then the lower index), which needs no scratch memory and gives
// equal values in index order, as the reference does. O(k * n) per row: for
// the k and rows of classification heads and samplers, not for sorting long
// rows.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelGenerator.h"
#include "lowering/KernelSizes.h"
#include "lowering/WorkgroupReduce.h"

#include "dialect/onnx/OpDef.h"

#include <fmt/format.h>

namespace onyx::lowering {

static LogicalResult lowerTopK(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  auto inputType = cast<RankedTensorType>(data.getType());
  Type type = inputType.getElementType();
  if (reportUnsupported(ctx, type) || reportNoInt64Indices(ctx))
    return failure();
  std::optional<SmallVector<Size>> k = ctx.getShapeValue(op->getOperand(1));
  if (!k || k->size() != 1)
    return ctx.emitError()
           << "needs operand 'K' known on the host (a constant, an input or "
              "a shape computation), not computed by kernels";
  Size count = (*k)[0];
  onnx::OpAttrs attrs(op);
  int64_t rank = inputType.getRank();
  int64_t axis = attrs.getInt("axis");
  if (axis < 0)
    axis += rank;
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.empty())
    return failure();
  Size n = dims[axis];
  if (failed(ctx.check(ctx.arith("gpu.lei", Size(0), count),
                       "operand 'K' is {0}, a negative count", {count})) ||
      failed(ctx.check(ctx.arith("gpu.lei", count, n),
                       "operand 'K' is {0}, larger than the dimension it "
                       "selects from ({1})",
                       {count, n})))
    return failure();

  SmallVector<Size> outDims(dims);
  outDims[axis] = count;
  auto valuesType = cast<RankedTensorType>(op->getResult(0).getType());
  auto indicesType = cast<RankedTensorType>(op->getResult(1).getType());
  Value values = ctx.allocate(valuesType, outDims);
  Value indices = ctx.allocate(indicesType, outDims);
  ctx.setResult(op->getResult(0), values);
  ctx.setResult(op->getResult(1), indices);
  Size inner = getNumElements(ctx, ArrayRef<Size>(dims).drop_front(axis + 1));
  Size rows = ctx.mul(
      getNumElements(ctx, ArrayRef<Size>(dims).take_front(axis)), inner);
  // Nothing to select, or no row to select in.
  if (count.isZero() || rows.isZero())
    return success();
  Value input = ctx.getView(data);
  if (!input)
    return failure();

  KernelSizes sizes(ctx);
  std::string numRows = sizes.get(rows), length = sizes.get(n),
              innerSize = sizes.get(inner), k0 = sizes.get(count);
  std::string ct = glsl::computeType(type);
  bool largest = attrs.getInt("largest");
  KernelSpec spec;
  spec.name = "topk";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write, gpu::Access::Write};
  spec.glsl =
      glsl::header(spec.workgroupSize) +
      glsl::buffer(0, gpu::Access::Read, type, "x") +
      glsl::buffer(1, gpu::Access::Write, type, "v") +
      glsl::buffer(2, gpu::Access::Write, indicesType.getElementType(), "ix") +
      sizes.declaration() +
      fmt::format("const uint NONE = 0xffffffffu;\n"
                  "// Whether (a, ai) comes before (b, bi) in the output.\n"
                  "bool before({0} a, uint ai, {0} b, uint bi) {{\n"
                  "  return a {1} b || (a == b && ai < bi);\n"
                  "}}\n"
                  "void main() {{\n"
                  "  uint row = gl_GlobalInvocationID.x;\n"
                  "  if (row >= {2}) return;\n"
                  "  uint o = row / {3}, i = row % {3};\n"
                  "  uint base = o * {4} * {3} + i;\n"
                  "  {0} previous = {0}(0);\n"
                  "  uint previousIndex = NONE;\n"
                  "  for (uint j = 0u; j < {5}; ++j) {{\n"
                  "    {0} best = {0}(0);\n"
                  "    uint bestIndex = NONE;\n"
                  "    for (uint t = 0u; t < {4}; ++t) {{\n"
                  "      {0} value = {6};\n"
                  "      if (previousIndex != NONE &&\n"
                  "          !before(previous, previousIndex, value, t))\n"
                  "        continue;\n"
                  "      if (bestIndex == NONE || before(value, t, best, "
                  "bestIndex)) {{\n"
                  "        best = value;\n"
                  "        bestIndex = t;\n"
                  "      }}\n"
                  "    }}\n"
                  "    uint at = (o * {5} + j) * {3} + i;\n"
                  "    {7}\n"
                  "    {8}\n"
                  "    previous = best;\n"
                  "    previousIndex = bestIndex;\n"
                  "  }}\n"
                  "}}\n",
                  ct, largest ? ">" : "<", numRows, innerSize, length, k0,
                  glsl::load(type, "x", "base + t * " + innerSize),
                  glsl::store(type, "v", "at", "best"),
                  glsl::store(indicesType.getElementType(), "ix", "at",
                              "int64_t(bestIndex)"));
  sizes.dispatch(spec, rows, {input, values, indices});
  return success();
}

static const KernelGenerator topKGenerators[] = {
    {"onnx.TopK", lowerTopK, /*dynamicDims=*/true},
};

ArrayRef<KernelGenerator> getTopKGenerators() { return topKGenerators; }

} // namespace onyx::lowering

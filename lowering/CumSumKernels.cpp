//===- CumSumKernels.cpp - CumSum -----------------------------------------===//
//
// One invocation per output element sums its prefix (or suffix, with
// `reverse`) along the axis, which must be a constant here: the sizes and
// strides are baked in. A prefix of n elements costs n reads per element,
// which is what the short axes of models (positions, token counts) need;
// long scans would want a work-efficient parallel scan.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelGenerator.h"

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {

LogicalResult lowerCumSum(Operation *op, LoweringContext &ctx) {
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  Type et = type.getElementType();
  if (!glsl::isSupported(et))
    return ctx.emitError() << "element type " << et << " is not supported";
  std::optional<SmallVector<int64_t>> axisValue =
      onnx::getConstantInts(op->getOperand(1));
  if (!axisValue || axisValue->size() != 1)
    return ctx.emitError() << "needs a constant axis on Vulkan";
  int64_t rank = type.getRank(), axis = (*axisValue)[0];
  if (axis < 0)
    axis += rank;
  Value output = ctx.allocate(type);
  ctx.setResult(op->getResult(0), output);
  int64_t total = type.getNumElements();
  if (total == 0)
    return success();
  Value input = ctx.getView(op->getOperand(0));
  if (!input)
    return failure();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t n = shape[axis];
  int64_t inner = onnx::getNumElements(shape.drop_front(axis + 1));
  onnx::OpAttrs attrs(op);
  bool exclusive = attrs.getInt("exclusive"), reverse = attrs.getInt("reverse");
  // Position k of the axis; the sum covers [first, last) of it.
  std::string first = reverse ? (exclusive ? "k + 1u" : "k") : "0u";
  std::string last =
      reverse ? fmt::format("{}u", n) : (exclusive ? "k" : "k + 1u");
  std::string ct = glsl::computeType(et);
  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec spec;
  spec.name = "cumsum";
  spec.workgroupSize = {wg, 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  spec.glsl =
      glsl::header(spec.workgroupSize) +
      glsl::buffer(0, gpu::Access::Read, et, "x") +
      glsl::buffer(1, gpu::Access::Write, et, "y") +
      fmt::format("void main() {{\n"
                  "  uint o = gl_GlobalInvocationID.x;\n"
                  "  if (o >= {0}u) return;\n"
                  "  uint k = o / {1}u % {2}u;\n"
                  "  uint start = o - k * {1}u;\n"
                  "  {3} sum = {4};\n"
                  "  for (uint j = {5}; j < {6}; ++j)\n"
                  "    sum += {7};\n",
                  total, inner, n, ct, glsl::literal(et, 0), first, last,
                  glsl::load(et, "x", fmt::format("start + j * {}u", inner))) +
      "  " + glsl::store(et, "y", "o", "sum") + "\n}\n";
  ctx.dispatch(ctx.getOrCreateKernel(spec), {glsl::ceilDiv(total, wg), 1, 1},
               {input, output});
  return success();
}

const KernelGenerator generators[] = {{"onnx.CumSum", lowerCumSum}};

} // namespace

ArrayRef<KernelGenerator> getCumSumGenerators() { return generators; }

} // namespace onyx::lowering

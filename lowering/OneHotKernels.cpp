//===- OneHotKernels.cpp - OneHot -----------------------------------------===//
//
// One invocation per output element compares its position on the new axis
// with its index (negative ones counted from depth, as the reference does)
// and copies the on or off value. depth must be known when lowering: it is
// the size of a dimension of the result.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelGenerator.h"

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {

LogicalResult lowerOneHot(Operation *op, LoweringContext &ctx) {
  auto indicesType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto valuesType = cast<RankedTensorType>(op->getOperand(2).getType());
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Type it = indicesType.getElementType(), et = valuesType.getElementType();
  for (Type t : {it, et})
    if (!glsl::isSupported(t))
      return ctx.emitError() << "element type " << t << " is not supported";
  int64_t rank = yType.getRank(), axis = onnx::OpAttrs(op).getInt("axis");
  if (axis < 0)
    axis += rank;
  Value output = ctx.allocate(yType);
  ctx.setResult(op->getResult(0), output);
  int64_t total = yType.getNumElements();
  if (total == 0)
    return success();
  Value indices = ctx.getView(op->getOperand(0));
  Value values = ctx.getView(op->getOperand(2));
  if (!indices || !values)
    return failure();
  int64_t depth = yType.getShape()[axis];
  int64_t inner = onnx::getNumElements(indicesType.getShape().drop_front(axis));
  // The index as a 64-bit integer where the target has them, truncated
  // towards zero like the reference's.
  bool wide = ctx.getTarget().features.contains(gpu::Feature::Int64);
  std::string intType = wide ? "int64_t" : "int";
  std::string index = fmt::format(
      "{}({})", intType,
      glsl::load(it, "ind", "a * " + std::to_string(inner) + "u + b"));
  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec spec;
  spec.name = "one_hot";
  spec.workgroupSize = {wg, 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Read, gpu::Access::Write};
  spec.glsl =
      glsl::header(spec.workgroupSize) +
      glsl::buffer(0, gpu::Access::Read, it, "ind") +
      glsl::buffer(1, gpu::Access::Read, et, "v") +
      glsl::buffer(2, gpu::Access::Write, et, "y") +
      fmt::format("void main() {{\n"
                  "  uint o = gl_GlobalInvocationID.x;\n"
                  "  if (o >= {0}u) return;\n"
                  "  uint a = o / {1}u, k = o / {2}u % {3}u, b = o % {2}u;\n"
                  "  {4} index = {5};\n"
                  "  if (index < {4}(0)) index += {4}({3});\n",
                  total, depth * inner, inner, depth, intType, index) +
      "  " +
      glsl::store(et, "y", "o",
                  fmt::format("index == {}(k) ? {} : {}", intType,
                              glsl::load(et, "v", "1u"),
                              glsl::load(et, "v", "0u"))) +
      "\n}\n";
  ctx.dispatch(ctx.getOrCreateKernel(spec), {glsl::ceilDiv(total, wg), 1, 1},
               {indices, values, output});
  return success();
}

const KernelGenerator generators[] = {{"onnx.OneHot", lowerOneHot}};

} // namespace

ArrayRef<KernelGenerator> getOneHotGenerators() { return generators; }

} // namespace onyx::lowering

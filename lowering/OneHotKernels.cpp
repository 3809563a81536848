//===- OneHotKernels.cpp - OneHot -----------------------------------------===//
//
// One invocation per output element compares its position on the new axis
// with its index (negative ones counted from depth, as the reference does)
// and copies the on or off value. depth is the size of the new dimension:
// a constant, or a value of the host program (an integer shape value, or a
// float graph input truncated as the reference truncates it) that sizes the
// result and reaches the kernel as a push constant, with a check of the run
// that it is positive. The indices' dims may be known only at run time too.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelSizes.h"

#include "dialect/gpu/HostOps.h"
#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {

/// OneHot's depth as a size: the result's static dim, or an index value of
/// the host program read from the depth operand. nullopt after an error.
std::optional<Size> getDepth(Operation *op, LoweringContext &ctx,
                             int64_t staticDepth) {
  if (!ShapedType::isDynamic(staticDepth))
    return Size(staticDepth);
  Value operand = op->getOperand(1);
  Size depth;
  auto type = cast<RankedTensorType>(operand.getType());
  if (std::optional<SmallVector<Size>> value = ctx.getShapeValue(operand)) {
    depth = (*value)[0];
  } else if (isa<FloatType>(type.getElementType()) &&
             isa<BlockArgument>(operand) && type.hasStaticShape() &&
             type.getNumElements() == 1) {
    // A float depth is truncated toward zero, as the reference does.
    depth = ctx.getBuilder()
                .create<gpu::ExtractOp>(ctx.getLoc(), operand, 0)
                ->getResult(0);
  } else {
    ctx.emitError() << "operand 'depth' must be a constant, a graph input or "
                       "computable on the host (from constants, shapes and "
                       "arguments) to lower the op";
    return std::nullopt;
  }
  if (failed(ctx.check(ctx.arith("gpu.lei", 1, depth),
                       "operand 'depth' is {0}, not positive", {depth})))
    return std::nullopt;
  return depth;
}

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
  SmallVector<Size> indexDims = ctx.getDims(op->getOperand(0));
  std::optional<Size> depth = getDepth(op, ctx, yType.getShape()[axis]);
  if (!depth || indexDims.size() != size_t(rank - 1))
    return failure();
  SmallVector<Size> dims(indexDims);
  dims.insert(dims.begin() + axis, *depth);
  Value output = ctx.allocate(yType, dims);
  ctx.setResult(op->getResult(0), output);
  Size total = getNumElements(ctx, dims);
  if (total.isZero())
    return success();
  Value indices = ctx.getView(op->getOperand(0));
  Value values = ctx.getView(op->getOperand(2));
  if (!indices || !values)
    return failure();
  KernelSizes sizes(ctx);
  Size inner = getNumElements(ctx, ArrayRef<Size>(indexDims).drop_front(axis));
  std::string count = sizes.get(total),
              span = sizes.get(ctx.mul(*depth, inner)),
              innerSize = sizes.get(inner), depthSize = sizes.get(*depth);
  // The index as a 64-bit integer where the target has them, truncated
  // towards zero like the reference's.
  bool wide = ctx.getTarget().features.contains(gpu::Feature::Int64);
  std::string intType = wide ? "int64_t" : "int";
  std::string index = fmt::format(
      "{}({})", intType, glsl::load(it, "ind", "a * " + innerSize + " + b"));
  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec spec;
  spec.name = "one_hot";
  spec.workgroupSize = {wg, 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Read, gpu::Access::Write};
  spec.glsl =
      glsl::header(spec.workgroupSize) + sizes.declaration() +
      glsl::buffer(0, gpu::Access::Read, it, "ind") +
      glsl::buffer(1, gpu::Access::Read, et, "v") +
      glsl::buffer(2, gpu::Access::Write, et, "y") +
      fmt::format("void main() {{\n"
                  "  uint o = gl_GlobalInvocationID.x;\n"
                  "  if (o >= {0}) return;\n"
                  "  uint a = o / {1}, k = o / {2} % {3}, b = o % {2};\n"
                  "  {4} index = {5};\n"
                  "  if (index < {4}(0)) index += {4}({3});\n",
                  count, span, innerSize, depthSize, intType, index) +
      "  " +
      glsl::store(et, "y", "o",
                  fmt::format("index == {}(k) ? {} : {}", intType,
                              glsl::load(et, "v", "1u"),
                              glsl::load(et, "v", "0u"))) +
      "\n}\n";
  sizes.dispatch(spec, total, {indices, values, output});
  return success();
}

const KernelGenerator generators[] = {
    {"onnx.OneHot", lowerOneHot, /*dynamicDims=*/true}};

} // namespace

ArrayRef<KernelGenerator> getOneHotGenerators() { return generators; }

} // namespace onyx::lowering

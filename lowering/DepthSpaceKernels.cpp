//===- DepthSpaceKernels.cpp - DepthToSpace and SpaceToDepth --------------===//
//
// One invocation per output element copies the input element that
// onnx::sourceOf (dialect/onnx/DepthSpace.h) names, with the same
// arithmetic spelled in GLSL: the block size is baked in, and the sizes are
// literals or, where known only at run time, push constants (a dimension
// that must divide by the block is checked by the run).
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelSizes.h"

#include "dialect/onnx/DepthSpace.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {

LogicalResult lowerDepthSpace(Operation *op, LoweringContext &ctx) {
  auto xType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = xType.getElementType();
  if (!glsl::isSupported(et))
    return ctx.emitError() << "element type " << et << " is not supported";
  SmallVector<Size> is = ctx.getDims(op->getOperand(0));
  if (is.size() != 4)
    return failure();
  int64_t b = onnx::OpAttrs(op).getInt("blocksize");
  onnx::DepthSpaceKind kind = onnx::getDepthSpaceKind(op);
  bool toDepth = kind == onnx::DepthSpaceKind::SpaceToDepth;
  // The output's dims; a dim known only at run time that must divide is
  // checked by the run, as inference checks a static one.
  SmallVector<Size> os(is);
  auto divide = [&](unsigned d, int64_t divisor, StringRef what) {
    Size dim = is[d];
    if (!dim.isStatic() &&
        failed(ctx.check(
            ctx.arith("gpu.eqi", ctx.arith("gpu.remi", dim, divisor), 0),
            fmt::format("operand 'input' has {{0}} {}, not a "
                        "multiple of {}",
                        what.str(), divisor),
            {dim})))
      return failure();
    os[d] = ctx.floorDiv(dim, divisor);
    return success();
  };
  if (toDepth) {
    os[1] = ctx.mul(is[1], b * b);
    if (failed(divide(2, b, "rows")) || failed(divide(3, b, "columns")))
      return failure();
  } else {
    if (failed(divide(1, b * b, "channels")))
      return failure();
    os[2] = ctx.mul(is[2], b);
    os[3] = ctx.mul(is[3], b);
  }
  Value output = ctx.allocate(yType, os);
  ctx.setResult(op->getResult(0), output);
  Size total = getNumElements(ctx, os);
  if (total.isZero())
    return success();
  Value input = ctx.getView(op->getOperand(0));
  if (!input)
    return failure();
  KernelSizes sizes(ctx);
  auto S = [&](Size size) { return sizes.get(size); };
  // The input channel, row and column of output (c, y, x): sourceOf's.
  std::string source;
  switch (kind) {
  case onnx::DepthSpaceKind::DepthToSpaceDCR:
    source = fmt::format("  uint sc = (o2 % {0}u * {0}u + o3 % {0}u) * {1} + "
                         "o1, sy = o2 / {0}u, sx = o3 / {0}u;\n",
                         b, S(os[1]));
    break;
  case onnx::DepthSpaceKind::DepthToSpaceCRD:
    source =
        fmt::format("  uint sc = o1 * {1}u + o2 % {0}u * {0}u + o3 % {0}u, "
                    "sy = o2 / {0}u, sx = o3 / {0}u;\n",
                    b, b * b);
    break;
  case onnx::DepthSpaceKind::SpaceToDepth:
    source = fmt::format("  uint block = o1 / {1};\n"
                         "  uint sc = o1 % {1}, sy = o2 * {0}u + block / {0}u, "
                         "sx = o3 * {0}u + block % {0}u;\n",
                         b, S(is[1]));
    break;
  }
  // The push constants in a set order (the last first), not in the
  // compiler's order of evaluating a call's arguments.
  std::string columns = S(is[3]), rows = S(is[2]), channels = S(is[1]);
  std::string index = fmt::format("((o0 * {} + sc) * {} + sy) * {} + sx",
                                  channels, rows, columns);
  std::string count = S(total), coordinates = sizes.unflatten(os, "o", "o");
  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec spec;
  spec.name = toDepth ? "space_to_depth" : "depth_to_space";
  spec.workgroupSize = {wg, 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() +
              glsl::buffer(0, gpu::Access::Read, et, "x") +
              glsl::buffer(1, gpu::Access::Write, et, "y") +
              fmt::format("void main() {{\n"
                          "  uint o = gl_GlobalInvocationID.x;\n"
                          "  if (o >= {}) return;\n",
                          count) +
              coordinates + source + "  " +
              glsl::store(et, "y", "o", glsl::load(et, "x", index)) + "\n}\n";
  sizes.dispatch(spec, total, {input, output});
  return success();
}

const KernelGenerator generators[] = {
    {"onnx.DepthToSpace", lowerDepthSpace, /*dynamicDims=*/true},
    {"onnx.SpaceToDepth", lowerDepthSpace, /*dynamicDims=*/true},
};

} // namespace

ArrayRef<KernelGenerator> getDepthSpaceGenerators() { return generators; }

} // namespace onyx::lowering

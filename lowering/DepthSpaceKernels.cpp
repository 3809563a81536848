//===- DepthSpaceKernels.cpp - DepthToSpace and SpaceToDepth --------------===//
//
// One invocation per output element copies the input element that
// onnx::sourceOf (dialect/onnx/DepthSpace.h) names, with the same
// arithmetic spelled in GLSL and every size baked in.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelGenerator.h"

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
  Value output = ctx.allocate(yType);
  ctx.setResult(op->getResult(0), output);
  int64_t total = yType.getNumElements();
  if (total == 0)
    return success();
  Value input = ctx.getView(op->getOperand(0));
  if (!input)
    return failure();
  ArrayRef<int64_t> is = xType.getShape();
  int64_t b = onnx::OpAttrs(op).getInt("blocksize");
  // The input channel, row and column of output (c, y, x): sourceOf's.
  std::string source;
  switch (onnx::getDepthSpaceKind(op)) {
  case onnx::DepthSpaceKind::DepthToSpaceDCR:
    source = fmt::format("  uint sc = (o2 % {0}u * {0}u + o3 % {0}u) * {1}u + "
                         "o1, sy = o2 / {0}u, sx = o3 / {0}u;\n",
                         b, is[1] / (b * b));
    break;
  case onnx::DepthSpaceKind::DepthToSpaceCRD:
    source =
        fmt::format("  uint sc = o1 * {1}u + o2 % {0}u * {0}u + o3 % {0}u, "
                    "sy = o2 / {0}u, sx = o3 / {0}u;\n",
                    b, b * b);
    break;
  case onnx::DepthSpaceKind::SpaceToDepth:
    source =
        fmt::format("  uint block = o1 / {1}u;\n"
                    "  uint sc = o1 % {1}u, sy = o2 * {0}u + block / {0}u, "
                    "sx = o3 * {0}u + block % {0}u;\n",
                    b, is[1]);
    break;
  }
  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec spec;
  spec.name =
      onnx::isOp(op, "onnx.SpaceToDepth") ? "space_to_depth" : "depth_to_space";
  spec.workgroupSize = {wg, 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  spec.glsl = glsl::header(spec.workgroupSize) +
              glsl::buffer(0, gpu::Access::Read, et, "x") +
              glsl::buffer(1, gpu::Access::Write, et, "y") +
              fmt::format("void main() {{\n"
                          "  uint o = gl_GlobalInvocationID.x;\n"
                          "  if (o >= {}u) return;\n",
                          total) +
              glsl::unflatten(yType.getShape(), "o", "o") + source + "  " +
              glsl::store(et, "y", "o",
                          glsl::load(et, "x",
                                     fmt::format("((o0 * {}u + sc) * {}u + sy) "
                                                 "* {}u + sx",
                                                 is[1], is[2], is[3]))) +
              "\n}\n";
  ctx.dispatch(ctx.getOrCreateKernel(spec), {glsl::ceilDiv(total, wg), 1, 1},
               {input, output});
  return success();
}

const KernelGenerator generators[] = {
    {"onnx.DepthToSpace", lowerDepthSpace},
    {"onnx.SpaceToDepth", lowerDepthSpace},
};

} // namespace

ArrayRef<KernelGenerator> getDepthSpaceGenerators() { return generators; }

} // namespace onyx::lowering

//===- ResizeKernels.cpp - Resize and Upsample ----------------------------===//
//
// One invocation per output element. Each axis's geometry comes from the
// onnx dialect's Resize.h (the same description the reference evaluator
// uses) with its sizes, scales and roi baked in: an axis that maps every
// position to itself indexes directly; a nearest axis computes its source
// coordinate and rounds it; a linear or cubic axis computes its taps'
// indices (clamped to the edge) and weights into small arrays, and nested
// loops over the interpolated axes sum the products of the weights, divided
// by the product of the axes' weight sums (so exclude_outside and
// antialias renormalize as the reference does).
//
// The coordinates are computed in 32-bit floats, with the formula of the
// coordinate mode (Resize.h's Coordinate) rather than a folded affine map,
// so that nearest rounding ties fall as the reference's doubles do for the
// scales models use.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelGenerator.h"

#include "dialect/onnx/Resize.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {

/// A float literal GLSL reads back as the nearest float to `value`.
std::string floatLiteral(double value) { return fmt::format("{:.17e}", value); }

LogicalResult lowerResize(Operation *op, LoweringContext &ctx) {
  auto xType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = xType.getElementType();
  if (!glsl::isSupported(et))
    return ctx.emitError() << "element type " << et
                           << " is not supported by the Resize kernel";
  std::optional<onnx::ResizeOperands> operands =
      onnx::getConstantResizeOperands(op);
  if (!operands)
    return ctx.emitError() << "needs constant roi, scales and sizes on Vulkan";
  FailureOr<onnx::ResizeGeometry> g = onnx::resolveResize(
      onnx::OpAttrs(op), op->getName().getStringRef(), xType.getShape(),
      *operands, [&] { return ctx.emitError(); });
  if (failed(g))
    return failure();
  if (g->coordinates == onnx::CoordinateMode::TfCropAndResize && !operands->roi)
    return ctx.emitError() << "needs 'roi' with coordinate_transformation_mode "
                              "tf_crop_and_resize";
  Value output = ctx.allocate(yType);
  ctx.setResult(op->getResult(0), output);
  int64_t total = yType.getNumElements();
  if (total == 0)
    return success();
  if (xType.getNumElements() == 0)
    return ctx.emitError() << "cannot resize an empty tensor to a non-empty "
                              "one";
  Value input = ctx.getView(op->getOperand(0));
  if (!input)
    return failure();

  std::string ct = glsl::computeType(et);
  bool interpolates = g->mode != onnx::ResizeMode::Nearest;
  bool crop = g->coordinates == onnx::CoordinateMode::TfCropAndResize;
  SmallVector<int64_t> inStrides = onnx::getStrides(xType.getShape());
  std::string body, loops, closing, index = "base", weight;
  for (size_t d = 0; d < g->axes.size(); ++d) {
    const onnx::ResizeAxis &a = g->axes[d];
    if (g->isIdentity(d)) {
      body += fmt::format("  base += o{} * {}u;\n", d, inStrides[d]);
      continue;
    }
    onnx::ResizeGeometry::Coordinate c = g->getCoordinate(d);
    body +=
        fmt::format("  float x{0} = (float(o{0}) + {1}) * {2} / {3} + {4};\n",
                    d, floatLiteral(c.shift), floatLiteral(c.mul),
                    floatLiteral(c.div), floatLiteral(c.add));
    if (crop)
      body += fmt::format("  if (x{0} < 0.0 || x{0} > {1}.0) outside = true;\n",
                          d, a.in - 1);
    body += fmt::format("  float f{0} = floor(x{0}), r{0} = x{0} - f{0};\n", d);
    if (!interpolates) {
      std::string up;
      switch (g->nearest) {
      case onnx::NearestMode::RoundPreferFloor:
        up = fmt::format("r{} > 0.5", d);
        break;
      case onnx::NearestMode::RoundPreferCeil:
        up = fmt::format("r{} >= 0.5", d);
        break;
      case onnx::NearestMode::Floor:
        up = "false";
        break;
      case onnx::NearestMode::Ceil:
        up = fmt::format("r{} > 0.0", d);
        break;
      }
      body += fmt::format("  int i{0} = clamp(int(f{0}) + (({1}) ? 1 : 0), 0, "
                          "{2});\n"
                          "  base += uint(i{0}) * {3}u;\n",
                          d, up, a.in - 1, inStrides[d]);
      continue;
    }
    int64_t first = g->getFirstTap(d), taps = g->getNumTaps(d);
    body += fmt::format(
        "  float w{0}[{1}];\n"
        "  uint j{0}[{1}];\n"
        "  float s{0} = 0.0;\n"
        "  for (int t = 0; t < {1}; ++t) {{\n"
        "    int i = int(f{0}) + {2} + t;\n"
        "    float w = resize_filter((float({2} + t) - r{0}) * {3});\n",
        d, taps, first, floatLiteral(g->getFilterScale(d)));
    if (g->excludeOutside)
      body += fmt::format("    if (i < 0 || i >= {}) w = 0.0;\n", a.in);
    body += fmt::format("    w{0}[t] = w;\n"
                        "    s{0} += w;\n"
                        "    j{0}[t] = uint(clamp(i, 0, {1})) * {2}u;\n"
                        "  }}\n",
                        d, a.in - 1, inStrides[d]);
    loops += fmt::format("  for (int t{0} = 0; t{0} < {1}; ++t{0})\n", d, taps);
    index += fmt::format(" + j{0}[t{0}]", d);
    weight += fmt::format("{}w{}[t{}]", weight.empty() ? "" : " * ", d, d);
    closing += fmt::format("{}s{}", closing.empty() ? "" : " * ", d);
  }

  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec spec;
  spec.name = "resize";
  spec.workgroupSize = {wg, 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  std::string &code = spec.glsl;
  code = glsl::header(spec.workgroupSize) +
         glsl::buffer(0, gpu::Access::Read, et, "x") +
         glsl::buffer(1, gpu::Access::Write, et, "y");
  if (interpolates) {
    double a = g->cubicA;
    code += g->mode == onnx::ResizeMode::Linear
                ? "float resize_filter(float u) { return max(0.0, 1.0 - "
                  "abs(u)); }\n"
                : fmt::format(
                      "float resize_filter(float u) {{\n"
                      "  u = abs(u);\n"
                      "  if (u <= 1.0) return (({0} + 2.0) * u - ({0} + 3.0)) "
                      "* u * u + 1.0;\n"
                      "  if (u < 2.0) return (({0} * u - 5.0 * {0}) * u + "
                      "8.0 * {0}) * u - 4.0 * {0};\n"
                      "  return 0.0;\n"
                      "}}\n",
                      floatLiteral(a));
  }
  code += fmt::format("void main() {{\n"
                      "  uint o = gl_GlobalInvocationID.x;\n"
                      "  if (o >= {}u) return;\n",
                      total) +
          glsl::unflatten(yType.getShape(), "o", "o") +
          "  uint base = 0u;\n  bool outside = false;\n" + body;
  if (crop)
    code += "  if (outside) {\n    " +
            glsl::store(et, "y", "o", glsl::literal(et, g->extrapolation)) +
            "\n    return;\n  }\n";
  // Linear or cubic with every axis an identity reads one element, as
  // nearest does.
  if (interpolates && !weight.empty()) {
    code +=
        fmt::format("  {} acc = {};\n", ct, glsl::literal(et, 0)) + loops +
        fmt::format("    acc += {}({}) * {};\n", ct, weight,
                    glsl::load(et, "x", index)) +
        "  " +
        glsl::store(et, "y", "o", fmt::format("acc / {}({})", ct, closing)) +
        "\n}\n";
  } else {
    code +=
        "  " + glsl::store(et, "y", "o", glsl::load(et, "x", "base")) + "\n}\n";
  }
  ctx.dispatch(ctx.getOrCreateKernel(spec), {glsl::ceilDiv(total, wg), 1, 1},
               {input, output});
  return success();
}

const KernelGenerator generators[] = {
    {"onnx.Resize", lowerResize},
    {"onnx.Upsample", lowerResize},
};

} // namespace

ArrayRef<KernelGenerator> getResizeGenerators() { return generators; }

} // namespace onyx::lowering

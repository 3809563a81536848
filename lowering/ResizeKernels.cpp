//===- ResizeKernels.cpp - Resize and Upsample ----------------------------===//
//
// One invocation per output element. Each axis's geometry comes from the
// onnx dialect's Resize.h (the same description the reference evaluator
// uses): an axis that maps every position to itself indexes directly; a
// nearest axis computes its source coordinate and rounds it; a linear or
// cubic axis computes its taps' indices (clamped to the edge) and weights
// into small arrays, and nested loops over the interpolated axes sum the
// products of the weights, divided by the product of the axes' weight sums
// (so exclude_outside and antialias renormalize as the reference does).
//
// The coordinates are computed in 32-bit floats, with the formula of the
// coordinate mode (Resize.h's Coordinate, (x + shift) * mul / div + add)
// rather than a folded affine map, so that nearest rounding ties fall as
// the reference's doubles do for the scales models use. Where an axis's
// sizes, scale and roi are known when compiling, the formula's terms are
// literals (the fast path). Otherwise the kernel computes them from the
// run's values: the sizes are push constants; a scale given at run time is
// read from the `scales` tensor, one derived from sizes is out / in; a roi
// given at run time is read from the `roi` tensor. The output sizes are
// host values: floor(in x scale) (gpu.scale_dim for a scale given at run
// time, exact integer arithmetic for a constant one over a `?` input dim),
// or the sizes, a shape value. One compiled kernel serves every scale.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelSizes.h"

#include "dialect/gpu/HostOps.h"
#include "dialect/onnx/Resize.h"

#include "ir/Operation.h"

#include <cmath>
#include <fmt/format.h>

namespace onyx::lowering {

namespace {

/// A float literal GLSL reads back as the nearest float to `value`.
std::string floatLiteral(double value) { return fmt::format("{:.17e}", value); }

/// floor(size x scale) for a constant scale, exactly as the reference's
/// double arithmetic gives it for the sizes tensors have: the scale is m x
/// 2^e for an integer m, so the product is an integer product and a floor
/// division by a power of two. nullopt (after an error) where the scale is
/// too small for that.
std::optional<Size> floorScaled(LoweringContext &ctx, Size size, double scale) {
  int exponent;
  double mantissa = std::frexp(scale, &exponent);
  auto m = int64_t(std::ldexp(mantissa, 53));
  int64_t e = exponent - 53;
  while (m % 2 == 0) {
    m /= 2;
    ++e;
  }
  if (e >= 0)
    return ctx.mul(ctx.mul(size, m), int64_t(1) << e);
  if (e < -62) {
    ctx.emitError() << "scale " << scale
                    << " is too small to resize a dimension known only at "
                       "run time";
    return std::nullopt;
  }
  return ctx.floorDiv(ctx.mul(size, m), int64_t(1) << -e);
}

/// The terms of an axis's source coordinate, (x + shift) * mul / div + add,
/// as GLSL float expressions, and the statements they need first.
struct CoordinateTerms {
  std::string prelude, shift, mul, div, add;
};

/// The terms of coordinate mode `mode` on axis `d` from the run's values:
/// `in` and `out` the axis's sizes, `scale` its scale, `roiStart` and
/// `roiEnd` its region (tf_crop_and_resize), all GLSL float expressions;
/// Resize.cpp's getCoordinate, spelled for the kernel.
CoordinateTerms
getCoordinateTerms(onnx::CoordinateMode mode, size_t d, const std::string &in,
                   const std::string &out, const std::string &scale,
                   const std::string &roiStart, const std::string &roiEnd) {
  std::string s = fmt::format("s{}", d), length = fmt::format("len{}", d);
  CoordinateTerms t;
  t.prelude = fmt::format("  float {0} = {1};\n  float {2} = {3} * {0};\n", s,
                          scale, length, in);
  std::string large = fmt::format("{} > 1.0", length);
  switch (mode) {
  case onnx::CoordinateMode::HalfPixel:
    t = {t.prelude, "0.5", "1.0", s, "-0.5"};
    break;
  case onnx::CoordinateMode::HalfPixelSymmetric:
    t.prelude +=
        fmt::format("  float off{0} = {1} / 2.0 * (1.0 - {2} / {3});\n", d, in,
                    out, length);
    t = {t.prelude, "0.5", "1.0", s, fmt::format("off{} - 0.5", d)};
    break;
  case onnx::CoordinateMode::PytorchHalfPixel:
    t = {t.prelude, "0.5", fmt::format("({} ? 1.0 : 0.0)", large),
         fmt::format("({} ? {} : 1.0)", large, s),
         fmt::format("({} ? -0.5 : 0.0)", large)};
    break;
  case onnx::CoordinateMode::AlignCorners: {
    std::string one = fmt::format("{} == 1.0", length);
    t = {t.prelude, "0.0", fmt::format("({} ? 0.0 : {} - 1.0)", one, in),
         fmt::format("({} ? 1.0 : {} - 1.0)", one, length), "0.0"};
    break;
  }
  case onnx::CoordinateMode::Asymmetric:
    t = {t.prelude, "0.0", "1.0", s, "0.0"};
    break;
  case onnx::CoordinateMode::TfHalfPixelForNN:
    t = {t.prelude, "0.5", "1.0", s, "0.0"};
    break;
  case onnx::CoordinateMode::TfCropAndResize: {
    std::string last = fmt::format("({} - 1.0)", in);
    t = {t.prelude, "0.0",
         fmt::format("({} ? ({} - {}) * {} : 0.0)", large, roiEnd, roiStart,
                     last),
         fmt::format("({} ? {} - 1.0 : 1.0)", large, length),
         fmt::format("({} ? {} * {} : 0.5 * ({} + {}) * {})", large, roiStart,
                     last, roiStart, roiEnd, last)};
    break;
  }
  }
  return t;
}

LogicalResult lowerResize(Operation *op, LoweringContext &ctx) {
  auto xType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = xType.getElementType();
  if (!glsl::isSupported(et))
    return ctx.emitError() << "element type " << et
                           << " is not supported by the Resize kernel";
  onnx::ResizeOperandValues operands = onnx::getResizeOperands(op);
  const onnx::ResizeOperands &known = operands.known;
  onnx::OpAttrs attrs(op);
  FailureOr<onnx::ResizeGeometry> g =
      onnx::resolveResize(attrs, op->getName().getStringRef(), xType.getShape(),
                          known, [&] { return ctx.emitError(); });
  if (failed(g))
    return failure();
  bool crop = g->coordinates == onnx::CoordinateMode::TfCropAndResize;
  if (crop && !operands.roi)
    return ctx.emitError() << "needs 'roi' with coordinate_transformation_mode "
                              "tf_crop_and_resize";
  int64_t rank = xType.getRank();
  SmallVector<Size> inDims = ctx.getDims(op->getOperand(0));
  if (inDims.size() != size_t(rank))
    return failure();
  OpBuilder &b = ctx.getBuilder();
  Type f32 = b.getF32Type();

  // The axes the scales, sizes and roi name, in their order (resolveResize
  // checked them). Upsample has no 'axes': its schema must not be asked for
  // one (an assertion failure).
  SmallVector<int64_t> resized;
  std::optional<SmallVector<int64_t>> axes;
  if (op->getName().getStringRef() == "onnx.Resize")
    axes = attrs.getInts("axes");
  if (axes)
    for (int64_t axis : *axes)
      resized.push_back(axis < 0 ? axis + rank : axis);
  else
    for (int64_t d = 0; d < rank; ++d)
      resized.push_back(d);
  int64_t n = resized.size();
  auto checkLength = [&](Value operand, StringRef name,
                         int64_t expected) -> LogicalResult {
    auto type = cast<RankedTensorType>(operand.getType());
    if (type.hasStaticShape() && type.getNumElements() == expected)
      return success();
    return ctx.emitError() << "operand '" << name << "' must have " << expected
                           << " elements, got " << Type(type);
  };

  // Each dimension's output size; where an axis's scale or region is known
  // only at run time, the GLSL that reads it (empty otherwise); whether its
  // scale is out / in of sizes known only at run time.
  SmallVector<Size> outDims(inDims);
  SmallVector<std::string> scaleRead(rank), roiStartRead(rank),
      roiEndRead(rank);
  SmallVector<bool> scaleFromSizes(rank, false);
  Value scalesView, roiView;
  if (known.hasScales) {
    bool atRunTime = !known.scales;
    if (atRunTime) {
      if (!isa<BlockArgument>(operands.scales))
        return ctx.emitError() << "operand 'scales' must be a constant or a "
                                  "graph input to lower the op (it decides "
                                  "the result's size)";
      if (failed(checkLength(operands.scales, "scales", n)))
        return failure();
      scalesView = ctx.getView(operands.scales);
      if (!scalesView)
        return failure();
    }
    for (auto [i, d] : llvm::enumerate(resized)) {
      if (atRunTime) {
        Value in =
            inDims[d].isStatic()
                ? b.create<gpu::ConstantOp>(ctx.getLoc(), inDims[d].constant)
                      ->getResult(0)
                : inDims[d].value;
        outDims[d] = b.create<gpu::ScaleDimOp>(ctx.getLoc(), in,
                                               operands.scales, int64_t(i))
                         ->getResult(0);
        scaleRead[d] = glsl::load(f32, "sc", std::to_string(i) + "u");
      } else if (inDims[d].isStatic()) {
        outDims[d] = g->axes[d].out;
      } else if (std::optional<Size> out =
                     floorScaled(ctx, inDims[d], g->axes[d].scale)) {
        outDims[d] = *out;
      } else {
        return failure();
      }
    }
  } else {
    std::optional<SmallVector<Size>> sizes = ctx.getShapeValue(operands.sizes);
    if (!sizes)
      return ctx.emitError() << "operand 'sizes' must be a constant or "
                                "computable on the host (from constants, "
                                "shapes and arguments) to lower the op";
    if (int64_t(sizes->size()) != n)
      return ctx.emitError() << "operand 'sizes' must have " << n
                             << " elements, got " << sizes->size();
    bool allStatic =
        llvm::all_of(resized, [&](int64_t d) { return inDims[d].isStatic(); });
    if (known.sizes && allStatic) {
      for (int64_t d : resized)
        outDims[d] = g->axes[d].out;
    } else {
      if (attrs.getString("keep_aspect_ratio_policy") != "stretch")
        return ctx.emitError()
               << "needs its 'sizes' as a constant and the resized dims "
                  "known when compiled with keep_aspect_ratio_policy '"
               << attrs.getString("keep_aspect_ratio_policy") << "'";
      for (auto [i, d] : llvm::enumerate(resized)) {
        Size size = (*sizes)[i];
        if (failed(ctx.check(ctx.arith("gpu.lei", 0, size),
                             "operand 'sizes' has {0}, a negative size",
                             {size})))
          return failure();
        outDims[d] = size;
        scaleFromSizes[d] = !(size.isStatic() && inDims[d].isStatic());
      }
    }
  }
  if (crop && !known.roi) {
    Type roiType =
        cast<RankedTensorType>(operands.roi.getType()).getElementType();
    if (!glsl::isSupported(roiType))
      return ctx.emitError()
             << "element type " << roiType << " of 'roi' is not supported";
    if (failed(checkLength(operands.roi, "roi", 2 * n)))
      return failure();
    roiView = ctx.getView(operands.roi);
    if (!roiView)
      return failure();
    for (auto [i, d] : llvm::enumerate(resized)) {
      roiStartRead[d] =
          "float(" + glsl::load(roiType, "roi", std::to_string(i) + "u") + ")";
      roiEndRead[d] = "float(" +
                      glsl::load(roiType, "roi", std::to_string(n + i) + "u") +
                      ")";
    }
  }
  // Dims the result type knows are those; the run checks that they agree.
  for (auto [d, dim] : llvm::enumerate(yType.getShape()))
    if (!ShapedType::isDynamic(dim))
      outDims[d] = ctx.same(Size(dim), outDims[d],
                            "has an output size {1} where its type says {0}");

  Value output = ctx.allocate(yType, outDims);
  ctx.setResult(op->getResult(0), output);
  Size total = getNumElements(ctx, outDims);
  if (total.isZero())
    return success();
  // The reference reads nothing from an empty input; the kernel cannot
  // bind one.
  Size inTotal = getNumElements(ctx, inDims);
  if (!(inTotal.isStatic() && inTotal.constant > 0)) {
    // One statement per host op: the order of a call's arguments is
    // unspecified, and the IR must not depend on the compiler.
    Size empty = ctx.arith("gpu.eqi", total, 0);
    Size ok = ctx.arith("gpu.maxi", ctx.arith("gpu.lti", 0, inTotal), empty);
    if (failed(
            ctx.check(ok, "cannot resize an empty tensor to a non-empty one")))
      return failure();
  }
  if (inTotal.isZero())
    return success();
  Value input = ctx.getView(op->getOperand(0));
  if (!input)
    return failure();

  KernelSizes sizes(ctx);
  std::string ct = glsl::computeType(et);
  bool interpolates = g->mode != onnx::ResizeMode::Nearest;
  SmallVector<Size> inStrides = getStrides(ctx, inDims);
  auto isResized = [&](int64_t d) { return llvm::is_contained(resized, d); };
  std::string body, loops, closing, index = "base", weight;
  for (int64_t d = 0; d < rank; ++d) {
    const onnx::ResizeAxis &a = g->axes[d];
    // Whether everything about the axis is known now: its terms are
    // literals.
    bool isStatic = inDims[d].isStatic() && outDims[d].isStatic() &&
                    scaleRead[d].empty() && !scaleFromSizes[d] &&
                    roiStartRead[d].empty();
    std::string stride = sizes.get(inStrides[d]);
    if ((isStatic || !isResized(d)) && g->isIdentity(d)) {
      body += fmt::format("  base += o{} * {};\n", d, stride);
      continue;
    }
    std::string inSize = sizes.get(inDims[d]);
    std::string last = isStatic ? std::to_string(a.in - 1)
                                : fmt::format("int({}) - 1", inSize);
    if (isStatic) {
      onnx::ResizeGeometry::Coordinate c = g->getCoordinate(d);
      body +=
          fmt::format("  float x{0} = (float(o{0}) + {1}) * {2} / {3} + {4};\n",
                      d, floatLiteral(c.shift), floatLiteral(c.mul),
                      floatLiteral(c.div), floatLiteral(c.add));
    } else {
      std::string in = fmt::format("float({})", inSize);
      std::string out = fmt::format("float({})", sizes.get(outDims[d]));
      std::string scale = !scaleRead[d].empty() ? scaleRead[d]
                          : scaleFromSizes[d] ? fmt::format("{} / {}", out, in)
                                              : floatLiteral(a.scale);
      std::string start =
          roiStartRead[d].empty() ? floatLiteral(a.roiStart) : roiStartRead[d];
      std::string end =
          roiEndRead[d].empty() ? floatLiteral(a.roiEnd) : roiEndRead[d];
      CoordinateTerms t =
          getCoordinateTerms(g->coordinates, d, in, out, scale, start, end);
      body += t.prelude +
              fmt::format("  float x{0} = (float(o{0}) + {1}) * {2} / {3} + "
                          "{4};\n",
                          d, t.shift, t.mul, t.div, t.add);
    }
    if (crop)
      body += fmt::format("  if (x{0} < 0.0 || x{0} > float({1})) outside = "
                          "true;\n",
                          d, last);
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
                          "  base += uint(i{0}) * {3};\n",
                          d, up, last, stride);
      continue;
    }
    // The taps depend on the scale only with antialias.
    if (g->antialias && !scaleRead[d].empty())
      return ctx.emitError() << "needs constant scales with antialias on "
                                "Vulkan (the number of taps depends on them)";
    if (g->antialias && scaleFromSizes[d])
      return ctx.emitError() << "needs constant sizes and the resized dims "
                                "known when compiled with antialias on Vulkan "
                                "(the number of taps depends on them)";
    int64_t first = g->getFirstTap(d), taps = g->getNumTaps(d);
    body += fmt::format(
        "  float w{0}[{1}];\n"
        "  uint j{0}[{1}];\n"
        "  float s{0}sum = 0.0;\n"
        "  for (int t = 0; t < {1}; ++t) {{\n"
        "    int i = int(f{0}) + {2} + t;\n"
        "    float w = resize_filter((float({2} + t) - r{0}) * {3});\n",
        d, taps, first, floatLiteral(g->getFilterScale(d)));
    if (g->excludeOutside)
      body += fmt::format("    if (i < 0 || i > {}) w = 0.0;\n", last);
    body += fmt::format("    w{0}[t] = w;\n"
                        "    s{0}sum += w;\n"
                        "    j{0}[t] = uint(clamp(i, 0, {1})) * {2};\n"
                        "  }}\n",
                        d, last, stride);
    loops += fmt::format("  for (int t{0} = 0; t{0} < {1}; ++t{0})\n", d, taps);
    index += fmt::format(" + j{0}[t{0}]", d);
    weight += fmt::format("{}w{}[t{}]", weight.empty() ? "" : " * ", d, d);
    closing += fmt::format("{}s{}sum", closing.empty() ? "" : " * ", d);
  }

  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  std::string count = sizes.get(total);
  std::string coordinates = sizes.unflatten(outDims, "o", "o");
  KernelSpec spec;
  spec.name = "resize";
  spec.workgroupSize = {wg, 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  SmallVector<Value> bindings = {input, output};
  std::string &code = spec.glsl;
  code = glsl::header(spec.workgroupSize) + sizes.declaration() +
         glsl::buffer(0, gpu::Access::Read, et, "x") +
         glsl::buffer(1, gpu::Access::Write, et, "y");
  std::pair<Value, const char *> extra[] = {{scalesView, "sc"},
                                            {roiView, "roi"}};
  for (auto [view, name] : extra) {
    if (!view)
      continue;
    code += glsl::buffer(bindings.size(), gpu::Access::Read,
                         cast<gpu::ViewType>(view.getType()).getElementType(),
                         name);
    spec.bindings.push_back(gpu::Access::Read);
    bindings.push_back(view);
  }
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
                      "  if (o >= {}) return;\n",
                      count) +
          coordinates + "  uint base = 0u;\n  bool outside = false;\n" + body;
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
  sizes.dispatch(spec, total, bindings);
  return success();
}

const KernelGenerator generators[] = {
    {"onnx.Resize", lowerResize, /*dynamicDims=*/true},
    {"onnx.Upsample", lowerResize, /*dynamicDims=*/true},
};

} // namespace

ArrayRef<KernelGenerator> getResizeGenerators() { return generators; }

} // namespace onyx::lowering

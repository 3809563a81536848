//===- Resize.cpp - onnx.Resize and onnx.Upsample -------------------------===//
//
// Resize takes roi, scales and sizes as operands (opset 11 on; the importer
// maps opset 10's (X, scales) form). Exactly one of scales and sizes
// decides the output: floor(in * scale), or the sizes (kept to the input's
// aspect ratio with keep_aspect_ratio_policy), on every axis or on those of
// `axes`. Where they are known only at run time the resized dims are `?`.
//
// Upsample (opsets 7-9) is Resize with scales, asymmetric coordinates and
// nearest rounding down; it keeps an op of its own so that imported IR reads
// as the model does.
//
// The evaluator resizes one axis at a time in double (the result is
// separable): each pass reads, per output position, the nearest element or
// the weighted neighbours that Resize.h describes.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Resize.h"

#include "ir/Operation.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

namespace onyx::onnx {

//===----------------------------------------------------------------------===//
// Geometry
//===----------------------------------------------------------------------===//

bool ResizeGeometry::isIdentity(size_t d) const {
  const ResizeAxis &a = axes[d];
  return a.in == a.out && a.scale == 1 &&
         coordinates != CoordinateMode::TfCropAndResize &&
         coordinates != CoordinateMode::TfHalfPixelForNN;
}

ResizeGeometry::Coordinate ResizeGeometry::getCoordinate(size_t d) const {
  const ResizeAxis &a = axes[d];
  // The resized length of the spec's formulas: a real number.
  double length = double(a.in) * a.scale;
  double s = a.scale, last = double(a.in - 1);
  switch (coordinates) {
  case CoordinateMode::HalfPixel:
    return {0.5, 1, s, -0.5};
  case CoordinateMode::HalfPixelSymmetric: {
    double adjustment = double(a.out) / length;
    double offset = double(a.in) / 2 * (1 - adjustment);
    return {0.5, 1, s, offset - 0.5};
  }
  case CoordinateMode::PytorchHalfPixel:
    return length > 1 ? Coordinate{0.5, 1, s, -0.5} : Coordinate{0, 0, 1, 0};
  case CoordinateMode::AlignCorners:
    return length == 1 ? Coordinate{0, 0, 1, 0}
                       : Coordinate{0, last, length - 1, 0};
  case CoordinateMode::Asymmetric:
    return {0, 1, s, 0};
  case CoordinateMode::TfHalfPixelForNN:
    return {0.5, 1, s, 0};
  case CoordinateMode::TfCropAndResize:
    if (length > 1)
      return {0, (a.roiEnd - a.roiStart) * last, length - 1, a.roiStart * last};
    return {0, 0, 1, 0.5 * (a.roiStart + a.roiEnd) * last};
  }
  llvm_unreachable("unknown coordinate mode");
}

bool ResizeGeometry::isExtrapolated(size_t d, double x) const {
  return coordinates == CoordinateMode::TfCropAndResize &&
         (x < 0 || x > double(axes[d].in - 1));
}

int64_t ResizeGeometry::roundNearest(double x) const {
  double down = std::floor(x), frac = x - down;
  bool up = false;
  switch (nearest) {
  case NearestMode::RoundPreferFloor:
    up = frac > 0.5;
    break;
  case NearestMode::RoundPreferCeil:
    up = frac >= 0.5;
    break;
  case NearestMode::Floor:
    break;
  case NearestMode::Ceil:
    up = frac > 0;
    break;
  }
  return int64_t(down) + (up ? 1 : 0);
}

double ResizeGeometry::getFilterScale(size_t d) const {
  return antialias && axes[d].scale < 1 ? axes[d].scale : 1;
}

int64_t ResizeGeometry::getFirstTap(size_t d) const {
  double support = mode == ResizeMode::Cubic ? 2 : 1;
  return int64_t(std::floor(-support / getFilterScale(d))) + 1;
}

int64_t ResizeGeometry::getNumTaps(size_t d) const {
  return 2 * (1 - getFirstTap(d));
}

double ResizeGeometry::getFilter(double u) const {
  u = std::fabs(u);
  if (mode == ResizeMode::Linear)
    return std::max(0.0, 1 - u);
  double a = cubicA;
  if (u <= 1)
    return ((a + 2) * u - (a + 3)) * u * u + 1;
  if (u < 2)
    return ((a * u - 5 * a) * u + 8 * a) * u - 4 * a;
  return 0;
}

static const StringRef resizeModes[] = {"nearest", "linear", "cubic"};
static const StringRef upsampleModes[] = {"nearest", "linear"};
static const StringRef coordinateModes[] = {
    "half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
    "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize"};
static const StringRef nearestModes[] = {"round_prefer_floor",
                                         "round_prefer_ceil", "floor", "ceil"};
static const StringRef aspectPolicies[] = {"stretch", "not_larger",
                                           "not_smaller"};

FailureOr<ResizeGeometry>
resolveResize(const OpAttrs &attrs, StringRef opName, ArrayRef<int64_t> shape,
              const ResizeOperands &operands,
              llvm::function_ref<InFlightDiagnostic()> emitError) {
  int64_t rank = shape.size();
  ResizeGeometry g;
  bool isUpsample = opName == "onnx.Upsample";
  g.mode = llvm::StringSwitch<ResizeMode>(attrs.getString("mode"))
               .Case("linear", ResizeMode::Linear)
               .Case("cubic", ResizeMode::Cubic)
               .Default(ResizeMode::Nearest);
  SmallVector<int64_t> axes;
  StringRef policy = "stretch";
  // Upsample has no 'axes' attribute: its schema must not be asked for one.
  bool axesGiven = false;
  if (isUpsample) {
    g.coordinates = CoordinateMode::Asymmetric;
    g.nearest = NearestMode::Floor;
  } else {
    g.coordinates =
        llvm::StringSwitch<CoordinateMode>(
            attrs.getString("coordinate_transformation_mode"))
            .Case("half_pixel_symmetric", CoordinateMode::HalfPixelSymmetric)
            .Case("pytorch_half_pixel", CoordinateMode::PytorchHalfPixel)
            .Case("align_corners", CoordinateMode::AlignCorners)
            .Case("asymmetric", CoordinateMode::Asymmetric)
            .Case("tf_half_pixel_for_nn", CoordinateMode::TfHalfPixelForNN)
            .Case("tf_crop_and_resize", CoordinateMode::TfCropAndResize)
            .Default(CoordinateMode::HalfPixel);
    g.nearest = llvm::StringSwitch<NearestMode>(attrs.getString("nearest_mode"))
                    .Case("round_prefer_ceil", NearestMode::RoundPreferCeil)
                    .Case("floor", NearestMode::Floor)
                    .Case("ceil", NearestMode::Ceil)
                    .Default(NearestMode::RoundPreferFloor);
    g.cubicA = attrs.getFloat("cubic_coeff_a");
    g.excludeOutside = attrs.getInt("exclude_outside") != 0;
    g.antialias = attrs.getInt("antialias") != 0;
    g.extrapolation = attrs.getFloat("extrapolation_value");
    policy = attrs.getString("keep_aspect_ratio_policy");
    if (std::optional<SmallVector<int64_t>> given = attrs.getInts("axes")) {
      axesGiven = true;
      for (int64_t axis : *given) {
        if (axis < -rank || axis >= rank)
          return emitError() << "attribute 'axes' has " << axis
                             << ", out of range for rank " << rank;
        axis = axis < 0 ? axis + rank : axis;
        if (llvm::is_contained(axes, axis))
          return emitError()
                 << "attribute 'axes' names axis " << axis << " twice";
        axes.push_back(axis);
      }
    }
  }
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  size_t n = axes.size();
  for (int64_t in : shape)
    g.axes.push_back({in, in, 1, 0, 1});

  if (operands.hasScales == operands.hasSizes)
    return emitError() << (operands.hasScales
                               ? "takes 'scales' or 'sizes', not both"
                               : "needs 'scales' or 'sizes'");
  if (operands.hasScales && policy != "stretch")
    return emitError() << "attribute 'keep_aspect_ratio_policy' applies to "
                          "'sizes' only";
  auto checkLength = [&](StringRef name, size_t length,
                         size_t expected) -> LogicalResult {
    if (length == expected)
      return success();
    return emitError() << "operand '" << name << "' must have "
                       << uint64_t(expected) << " elements (one per "
                       << (axesGiven ? "axis in 'axes'" : "dimension of 'X'")
                       << "), got " << uint64_t(length);
  };
  if (operands.scales) {
    const SmallVector<double> &scales = *operands.scales;
    if (failed(checkLength("scales", scales.size(), n)))
      return failure();
    for (size_t i = 0; i < n; ++i) {
      if (!(scales[i] > 0) || !std::isfinite(scales[i]))
        return emitError() << "operand 'scales' must be positive and finite, "
                              "got "
                           << scales[i];
      ResizeAxis &a = g.axes[axes[i]];
      a.scale = scales[i];
      a.out = ShapedType::isDynamic(a.in)
                  ? ShapedType::kDynamic
                  : int64_t(std::floor(double(a.in) * scales[i]));
    }
  } else if (operands.sizes) {
    const SmallVector<int64_t> &sizes = *operands.sizes;
    if (failed(checkLength("sizes", sizes.size(), n)))
      return failure();
    for (int64_t size : sizes)
      if (size < 0)
        return emitError() << "operand 'sizes' must not be negative, got "
                           << size;
    bool anyDynamic = llvm::any_of(
        axes, [&](int64_t d) { return ShapedType::isDynamic(shape[d]); });
    if (policy == "stretch" || anyDynamic) {
      for (size_t i = 0; i < n; ++i) {
        ResizeAxis &a = g.axes[axes[i]];
        bool dynamic = ShapedType::isDynamic(a.in);
        a.out = policy == "stretch" ? sizes[i] : ShapedType::kDynamic;
        a.scale = dynamic || a.in == 0 ? 1 : double(sizes[i]) / double(a.in);
      }
    } else {
      // One scale for every axis: the largest that fits in the sizes
      // (not_larger) or the smallest that covers them (not_smaller).
      double scale = 0;
      for (size_t i = 0; i < n; ++i) {
        int64_t in = g.axes[axes[i]].in;
        double s = in == 0 ? 1 : double(sizes[i]) / double(in);
        if (i == 0 || (policy == "not_larger" ? s < scale : s > scale))
          scale = s;
      }
      for (int64_t d : axes) {
        g.axes[d].scale = scale;
        g.axes[d].out = int64_t(std::nearbyint(scale * double(g.axes[d].in)));
      }
    }
  } else {
    // Known only at run time: the resized dims are too.
    for (int64_t d : axes)
      g.axes[d].out = ShapedType::kDynamic;
  }
  if (operands.roi && g.coordinates == CoordinateMode::TfCropAndResize) {
    const SmallVector<double> &roi = *operands.roi;
    if (failed(checkLength("roi", roi.size(), 2 * n)))
      return failure();
    for (size_t i = 0; i < n; ++i) {
      g.axes[axes[i]].roiStart = roi[i];
      g.axes[axes[i]].roiEnd = roi[n + i];
    }
  }
  return g;
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

namespace {

/// The operand numbers of roi, scales and sizes (-1 where the op has none).
struct ResizeOperandIndices {
  int roi, scales, sizes;
};

ResizeOperandIndices getOperandIndices(StringRef opName) {
  if (opName == "onnx.Upsample")
    return {-1, 1, -1};
  return {1, 2, 3};
}

std::optional<SmallVector<double>> toDoubles(const Tensor &t) {
  Tensor d = convertTensor(t, ElementType::F64);
  ArrayRef<double> v = d.getValues<double>();
  return SmallVector<double>(v.begin(), v.end());
}

std::optional<SmallVector<double>> getConstantDoubles(Value value) {
  DenseElementsAttr attr = getConstantValue(value);
  std::optional<Tensor> t = attr ? Tensor::fromAttr(attr) : std::nullopt;
  if (!t)
    return std::nullopt;
  return toDoubles(*t);
}

/// Whether operand `index` of `types` is given and not an empty tensor
/// (opsets 11-12 pass an empty `scales` beside `sizes`).
bool isGiven(ArrayRef<Type> types, int index) {
  if (index < 0 || size_t(index) >= types.size())
    return false;
  auto type = dyn_cast_or_null<RankedTensorType>(types[index]);
  return type && !(type.getRank() == 1 && type.getShape()[0] == 0);
}

const ValueSpec resizeOperands[] = {{"X"},
                                    {"roi", Presence::Optional},
                                    {"scales", Presence::Optional},
                                    {"sizes", Presence::Optional}};
const ValueSpec resizeResults[] = {{"Y"}};
const AttrSpec resizeAttrs[] = {
    intAttr("antialias", 0),
    optionalAttr("axes", AttrType::Ints),
    stringAttr("coordinate_transformation_mode", "half_pixel", coordinateModes),
    floatAttr("cubic_coeff_a", -0.75),
    intAttr("exclude_outside", 0),
    floatAttr("extrapolation_value", 0.0),
    stringAttr("keep_aspect_ratio_policy", "stretch", aspectPolicies),
    stringAttr("mode", "nearest", resizeModes),
    stringAttr("nearest_mode", "round_prefer_floor", nearestModes),
};
const ValueSpec upsampleOperands[] = {{"X"}, {"scales"}};
const AttrSpec upsampleAttrs[] = {stringAttr("mode", "nearest", upsampleModes)};

LogicalResult inferResize(InferState &s) {
  StringRef opName = s.getDef().schema.name;
  ResizeOperandIndices idx = getOperandIndices(opName);
  SmallVector<Type> types;
  for (unsigned i = 0; i < s.getNumOperands(); ++i)
    types.push_back(s.hasOperand(i) ? Type(s.getType(i)) : Type());
  ResizeOperands ops;
  ops.hasScales = isGiven(types, idx.scales);
  ops.hasSizes = isGiven(types, idx.sizes);
  if (ops.hasScales) {
    if (failed(s.checkFloat(idx.scales)) || failed(s.checkRank(idx.scales, 1)))
      return failure();
    if (DenseElementsAttr c = s.getConstant(idx.scales))
      ops.scales = toDoubles(*Tensor::fromAttr(c));
  }
  if (ops.hasSizes) {
    if (failed(s.checkInteger(idx.sizes)) || failed(s.checkRank(idx.sizes, 1)))
      return failure();
    ops.sizes = s.getConstantInts(idx.sizes);
  }
  if (isGiven(types, idx.roi)) {
    if (failed(s.checkFloat(idx.roi)) || failed(s.checkRank(idx.roi, 1)))
      return failure();
    if (DenseElementsAttr c = s.getConstant(idx.roi))
      ops.roi = toDoubles(*Tensor::fromAttr(c));
  }
  if (failed(s.checkNumeric(0)))
    return failure();
  FailureOr<ResizeGeometry> g = resolveResize(
      s.getAttrs(), opName, s.getShape(0), ops, [&] { return s.emitError(); });
  if (failed(g))
    return failure();
  if (g->mode != ResizeMode::Nearest && !isFloat(s.getElementKind(0)))
    return s.emitOperandError(0)
           << "must have a float element type for mode '"
           << s.getAttrs().getString("mode") << "', got " << s.getType(0);
  SmallVector<int64_t> shape;
  for (const ResizeAxis &a : g->axes)
    shape.push_back(a.out);
  s.addResult(shape, s.getElementType(0));
  return success();
}

/// Resizes axis `d` of `in` (F64) into a tensor whose axis d has `out`
/// positions.
Tensor resizeAxis(const Tensor &in, const ResizeGeometry &g, size_t d) {
  ArrayRef<int64_t> shape = in.getShape();
  int64_t inLen = shape[d], outLen = g.axes[d].out;
  SmallVector<int64_t> outShape(shape.begin(), shape.end());
  outShape[d] = outLen;
  Tensor out(ElementType::F64, outShape);
  int64_t outer = getNumElements(shape.take_front(d));
  int64_t inner = getNumElements(shape.drop_front(d + 1));
  ArrayRef<double> iv = in.getValues<double>();
  MutableArrayRef<double> ov = out.getMutableValues<double>();
  ResizeGeometry::Coordinate coordinate = g.getCoordinate(d);
  auto clampIndex = [&](int64_t i) {
    return std::clamp<int64_t>(i, 0, inLen - 1);
  };
  // Per output position: the (index, weight) pairs it reads; empty for
  // extrapolated positions.
  std::vector<SmallVector<std::pair<int64_t, double>, 4>> taps(outLen);
  for (int64_t x = 0; x < outLen; ++x) {
    double src = coordinate.at(x);
    if (g.isExtrapolated(d, src) || inLen == 0)
      continue;
    if (g.mode == ResizeMode::Nearest) {
      taps[x].push_back({clampIndex(g.roundNearest(src)), 1.0});
      continue;
    }
    double base = std::floor(src), frac = src - base;
    int64_t first = g.getFirstTap(d), count = g.getNumTaps(d);
    double fs = g.getFilterScale(d), sum = 0;
    for (int64_t t = 0; t < count; ++t) {
      int64_t i = int64_t(base) + first + t;
      double w = g.getFilter((double(first + t) - frac) * fs);
      if (g.excludeOutside && (i < 0 || i >= inLen))
        w = 0;
      sum += w;
      taps[x].push_back({clampIndex(i), w});
    }
    if (sum != 0)
      for (auto &tap : taps[x])
        tap.second /= sum;
  }
  for (int64_t a = 0; a < outer; ++a) {
    for (int64_t x = 0; x < outLen; ++x) {
      double *o = ov.data() + (a * outLen + x) * inner;
      if (taps[x].empty()) {
        std::fill_n(o, inner, g.extrapolation);
        continue;
      }
      for (int64_t b = 0; b < inner; ++b) {
        double acc = 0;
        for (auto [i, w] : taps[x])
          acc += w * iv[(a * inLen + i) * inner + b];
        o[b] = acc;
      }
    }
  }
  return out;
}

LogicalResult evalResize(EvalState &s) {
  StringRef opName = s.getOp()->getName().getStringRef();
  ResizeOperandIndices idx = getOperandIndices(opName);
  auto given = [&](int i) {
    return i >= 0 && s.hasInput(i) &&
           !(s.input(i).getRank() == 1 && s.input(i).getNumElements() == 0);
  };
  ResizeOperands ops;
  ops.hasScales = given(idx.scales);
  ops.hasSizes = given(idx.sizes);
  if (ops.hasScales)
    ops.scales = toDoubles(s.input(idx.scales));
  if (ops.hasSizes) {
    Tensor sizes = convertTensor(s.input(idx.sizes), ElementType::I64);
    ArrayRef<int64_t> v = sizes.getValues<int64_t>();
    ops.sizes = SmallVector<int64_t>(v.begin(), v.end());
  }
  if (given(idx.roi))
    ops.roi = toDoubles(s.input(idx.roi));
  const Tensor &x = s.input(0);
  FailureOr<ResizeGeometry> g = resolveResize(
      s.getAttrs(), opName, x.getShape(), ops, [&] { return s.emitError(); });
  if (failed(g))
    return failure();
  if (g->coordinates == CoordinateMode::TfCropAndResize && !ops.roi)
    return s.emitError() << "needs 'roi' with coordinate_transformation_mode "
                            "tf_crop_and_resize";
  SmallVector<int64_t> outShape;
  for (const ResizeAxis &a : g->axes)
    outShape.push_back(a.out);
  if (failed(s.checkResultSize(0, outShape, x.getElementType())))
    return failure();
  Tensor t = convertTensor(x, ElementType::F64);
  for (size_t d = 0; d < g->axes.size(); ++d)
    if (!g->isIdentity(d))
      t = resizeAxis(t, *g, d);
  s.addOutput(convertTensor(t, x.getElementType()));
  return success();
}

const OpDef resizeDefs[] = {
    {{"onnx.Resize", resizeOperands, resizeResults, resizeAttrs, OpTrait::Pure},
     inferResize,
     evalResize},
    {{"onnx.Upsample", upsampleOperands, resizeResults, upsampleAttrs,
      OpTrait::Pure},
     inferResize,
     evalResize},
};

} // namespace

ResizeOperandValues getResizeOperands(Operation *op) {
  ResizeOperandIndices idx = getOperandIndices(op->getName().getStringRef());
  SmallVector<Type> types;
  for (Value v : op->getOperands())
    types.push_back(isNoValue(v) ? Type() : v.getType());
  ResizeOperandValues values;
  ResizeOperands &known = values.known;
  if (isGiven(types, idx.scales)) {
    values.scales = op->getOperand(idx.scales);
    known.hasScales = true;
    known.scales = getConstantDoubles(values.scales);
  }
  if (isGiven(types, idx.sizes)) {
    values.sizes = op->getOperand(idx.sizes);
    known.hasSizes = true;
    known.sizes = getConstantInts(values.sizes);
  }
  if (isGiven(types, idx.roi)) {
    values.roi = op->getOperand(idx.roi);
    known.roi = getConstantDoubles(values.roi);
  }
  return values;
}

void appendResizeOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : resizeDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

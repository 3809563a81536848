//===- Resize.h - Geometry of Resize and Upsample ---------------*- C++ -*-===//
//
// Resize (opsets 10-19) and the older Upsample map every output coordinate
// of every axis to a source coordinate, then read the input there: the
// nearest element, or a weighted sum of neighbours (linear, cubic), one
// axis at a time (the result is the tensor product of the axes' weights).
// This resolves the attributes and the constant roi / scales / sizes
// operands into one description that shape inference, the reference
// evaluator and the kernel generator share, so the three cannot disagree.
//
// Conventions follow ONNX's reference implementation (the one the backend
// node tests were generated with): the "resized length" in the coordinate
// formulas is input length x scale, a real number; neighbours outside the
// input read the edge element unless exclude_outside drops them (and the
// rest are renormalized); tf_crop_and_resize gives extrapolation_value for
// coordinates outside the input; antialias (opset 18) widens the linear
// and cubic filters by 1 / scale when downsampling.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/OpDef.h"

namespace onyx::onnx {

enum class ResizeMode { Nearest, Linear, Cubic };
enum class CoordinateMode {
  HalfPixel,
  HalfPixelSymmetric,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfHalfPixelForNN,
  TfCropAndResize,
};
enum class NearestMode { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

struct ResizeAxis {
  int64_t in = 0, out = 0;
  /// The scale of the coordinate formulas (out / in where sizes are given
  /// and the aspect ratio is stretched).
  double scale = 1;
  /// tf_crop_and_resize's region, as fractions of the input.
  double roiStart = 0, roiEnd = 1;
};

struct ResizeGeometry {
  ResizeMode mode = ResizeMode::Nearest;
  CoordinateMode coordinates = CoordinateMode::HalfPixel;
  NearestMode nearest = NearestMode::RoundPreferFloor;
  double cubicA = -0.75;
  bool excludeOutside = false;
  bool antialias = false;
  double extrapolation = 0;
  /// One per dimension of X.
  SmallVector<ResizeAxis> axes;

  /// Whether axis `d` maps every output position to the same input one.
  bool isIdentity(size_t d) const;
  /// The source coordinate of output position `x` on axis `d` is
  /// (x + shift) * mul / div + add, spelled as the coordinate mode's
  /// formula so that ties of nearest rounding come out as the spec's.
  struct Coordinate {
    double shift = 0, mul = 1, div = 1, add = 0;
    double at(int64_t x) const { return (double(x) + shift) * mul / div + add; }
  };
  Coordinate getCoordinate(size_t d) const;
  /// Whether source coordinate `x` on axis `d` is outside the input and
  /// reads extrapolation_value (tf_crop_and_resize only).
  bool isExtrapolated(size_t d, double x) const;
  /// The input index nearest mode picks for source coordinate `x` (before
  /// clamping to the input).
  int64_t roundNearest(double x) const;
  /// Linear and cubic: the neighbours of source coordinate x on axis `d`
  /// are floor(x) + getFirstTap(d) + t for t < getNumTaps(d), weighted
  /// getFilter((getFirstTap(d) + t - frac(x)) * getFilterScale(d)).
  int64_t getFirstTap(size_t d) const;
  int64_t getNumTaps(size_t d) const;
  double getFilterScale(size_t d) const;
  double getFilter(double u) const;
};

/// What a Resize or Upsample op's operands are known to be: the constant
/// roi / scales / sizes where they are constants, nullopt where they are
/// absent or known only at run time.
struct ResizeOperands {
  std::optional<SmallVector<double>> roi, scales;
  std::optional<SmallVector<int64_t>> sizes;
  /// Whether scales / sizes are given (constant or not).
  bool hasScales = false, hasSizes = false;
};

/// Resolves the geometry of an op of `opName` ("onnx.Resize" or
/// "onnx.Upsample") on an input of `shape`. Axes whose output size depends
/// on operands not in `operands` get out = kDynamic; so do dynamic input
/// dims. Reports through `emitError` and fails on invalid attributes or
/// operand values.
FailureOr<ResizeGeometry>
resolveResize(const OpAttrs &attrs, StringRef opName, ArrayRef<int64_t> shape,
              const ResizeOperands &operands,
              llvm::function_ref<InFlightDiagnostic()> emitError);

/// The roi / scales / sizes operands of a Resize or Upsample op: each the
/// operand where it is given (null where absent, or where it is an empty
/// tensor, as opsets 11-12 pass `scales` beside `sizes`), and `known`, the
/// values of those that are constants (roi only where it is used, with
/// tf_crop_and_resize).
struct ResizeOperandValues {
  Value roi, scales, sizes;
  ResizeOperands known;
};
ResizeOperandValues getResizeOperands(Operation *op);

} // namespace onyx::onnx

//===- SlicePad.h - Geometry of Slice and Pad -------------------*- C++ -*-===//
//
// What a Slice takes of one axis and how Pad's `pads` and `axes` operands
// expand to every dimension, defined once for shape inference, the reference
// evaluator and the GPU lowering (which applies the same rules to sizes known
// only at run time), so that they cannot disagree.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostics.h"
#include "ir/Support.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace onyx::onnx {

/// The first index and the element count of a Slice of an axis of `dim`
/// elements (static, not negative) from `start` to `end` in steps of `step`
/// (not 0), clamped as ONNX says: negative starts and ends count from the
/// end, and out-of-range ones stop at the axis's ends. Counted without
/// forming end - start + step, which overflows for steps near the int64
/// limits.
std::pair<int64_t, int64_t> sliceAxis(int64_t dim, int64_t start, int64_t end,
                                      int64_t step);

/// The begin amounts of every dimension of a rank-`rank` tensor, then the end
/// amounts, from Pad's `pads` (begins then ends of the axes `axes` names, or
/// of every axis without axes). Dimensions no axis names get T(0). `T` is an
/// amount known or not (int64_t, std::optional<int64_t>, a polynomial of
/// run-time sizes).
template <typename T>
FailureOr<SmallVector<T>>
expandPads(ArrayRef<T> pads, std::optional<ArrayRef<int64_t>> axes,
           int64_t rank, llvm::function_ref<InFlightDiagnostic()> emitError) {
  SmallVector<int64_t> allAxes;
  if (axes) {
    for (int64_t axis : *axes) {
      if (axis < -rank || axis >= rank)
        return emitError() << "axis " << axis << " is out of range for rank "
                           << rank;
      allAxes.push_back(axis < 0 ? axis + rank : axis);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      allAxes.push_back(d);
  }
  size_t n = allAxes.size();
  if (pads.size() != 2 * n)
    return emitError() << "pads must have " << uint64_t(2 * n)
                       << " entries, got " << uint64_t(pads.size());
  SmallVector<T> result(2 * rank, T(0));
  for (size_t i = 0; i < n; ++i) {
    result[allAxes[i]] = pads[i];
    result[rank + allAxes[i]] = pads[n + i];
  }
  return result;
}

} // namespace onyx::onnx

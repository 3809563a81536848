//===- Einsum.h - The equation of onnx.Einsum -------------------*- C++ -*-===//
//
// Einsum's equation names each operand dimension with a letter ("bij,bjk->
// bik"); "..." stands for the dims a term does not name, broadcast across
// operands as numpy broadcasts. Without "->" the output is the ellipsis
// dims, then the letters that appear once, in ASCII order. A letter of the
// output is a free index, every other letter is summed over; a letter
// repeated in one term reads that operand's diagonal.
//
// parseEinsum() resolves an equation against the operands' ranks into
// label numbers per dimension, which shape inference, the reference
// evaluator and the kernel generator share.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/OpDef.h"

namespace onyx::onnx {

struct EinsumEquation {
  /// Labels are numbered 0 .. numLabels-1: the ellipsis dims first (as
  /// broadcast, outermost first), then the letters in ASCII order.
  unsigned numLabels = 0;
  /// The label of each dimension of each operand and of the output.
  SmallVector<SmallVector<unsigned>> inputs;
  SmallVector<unsigned> output;
  /// The labels not in the output, summed over, in label order.
  SmallVector<unsigned> summed;
  /// How many labels stand for ellipsis dims (labels 0 .. this-1).
  unsigned numEllipsisLabels = 0;

  /// The size of every label for operands of `shapes` (kDynamic where no
  /// operand knows it); an ellipsis label broadcasts sizes of 1. Reports
  /// through `emitError` and fails where two sizes disagree.
  FailureOr<SmallVector<int64_t>>
  getLabelSizes(ArrayRef<ArrayRef<int64_t>> shapes,
                llvm::function_ref<InFlightDiagnostic()> emitError) const;
};

/// Parses `equation` for operands of `ranks`; reports through `emitError`
/// and fails on a malformed equation or one that does not fit the ranks.
FailureOr<EinsumEquation>
parseEinsum(StringRef equation, ArrayRef<int64_t> ranks,
            llvm::function_ref<InFlightDiagnostic()> emitError);

} // namespace onyx::onnx

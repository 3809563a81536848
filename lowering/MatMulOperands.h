//===- MatMulOperands.h - How MatMul reads its operands in place -*- C++
//-*-===//
//
// Private to the lowering: where the elements of a MatMul operand lie in
// the memory its view holds (MatMulOperands.cpp), for the MatMul kernel's
// generator (MatMulKernels.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Operation.h"

namespace onyx::lowering {

/// Where the elements of a tensor lie in the memory its view holds:
/// element i is at base + sum(i[d] * strides[d]).
struct StridedLayout {
  int64_t base = 0;
  SmallVector<int64_t> strides;
};

/// The shape of `value`, a ranked tensor.
ArrayRef<int64_t> shapeOf(Value value);

/// The permutation of a Transpose (reversed dimensions without `perm`).
SmallVector<int64_t> getPermutation(Operation *transpose);

/// The layout of MatMul operand `i` of (promoted) shape `shape`, through a
/// fused body's argument too.
StridedLayout getOperandLayout(Operation *op, unsigned i,
                               ArrayRef<int64_t> shape);

/// The Transpose that writes-through `stored` (the value a contraction
/// stores) if isTransposeWrittenByMatMul accepts it.
Operation *getWrittenTranspose(Value stored);

} // namespace onyx::lowering

//===- MatMulOperands.h - How MatMul reads its operands in place -*- C++
//-*-===//
//
// Private to the lowering: where the elements of a MatMul operand lie in
// the memory its view holds (MatMulOperands.cpp), for the MatMul kernel's
// generator (MatMulKernels.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lowering/KernelGenerator.h"

#include "ir/Operation.h"

#include <string>

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

/// How a product (MatMul, Gemm, Conv) reads one operand in the lowering's
/// precision (LoweringContext::getProductType). Where products round f32
/// operands to f16, an operand that is a constant (directly, or through
/// ops that read it in place: reshapes, absorbed Transposes and Splits) is
/// bound as an f16 copy of the constant, so that weights are stored in half
/// precision; any other is read as f32 and rounded as it is loaded.
/// Elsewhere the operand is read as its type.
struct ProductOperand {
  /// The operand.
  Value value;
  /// The constant whose converted copy is bound in its place, if any.
  Value weight;
  /// The element type of the bound buffer.
  Type storedType;
  /// The type loads round the value to; null for none.
  Type roundTo;
};

/// How the product being lowered reads its operand `value`, of element
/// type `et`.
ProductOperand getProductOperand(LoweringContext &ctx, Value value, Type et);
/// The view the kernel binds for `operand` (placing a converted weight on
/// first use); null after an error.
Value getProductOperandView(LoweringContext &ctx,
                            const ProductOperand &operand);
/// A read-only buffer `name` at `binding` holding `operand`: of vec4s
/// (f16vec4s for f16 storage) with `vector`.
std::string declareProductOperand(const ProductOperand &operand,
                                  unsigned binding, StringRef name,
                                  bool vector);
/// An expression of the compute type reading element `index` of the
/// operand's buffer `name` (declared as vectors with `vector`), rounded as
/// the operand says.
std::string loadProductOperand(const ProductOperand &operand, StringRef name,
                               StringRef index, bool vector);
/// The vec4 of elements `index` to `index + 3` (`index` a multiple of 4) of
/// the operand's vector buffer `name`, rounded as the operand says.
std::string loadProductOperand4(const ProductOperand &operand, StringRef name,
                                StringRef index);
/// `value`, an expression of type float, rounded to `roundTo` (none if
/// null).
std::string roundProductOperand(Type roundTo, StringRef value);

} // namespace onyx::lowering

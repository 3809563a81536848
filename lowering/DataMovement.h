//===- DataMovement.h - What the data movement generators share -*- C++ -*-===//
//
// Data movement (Transpose, Concat, Split, Slice, Tile, Pad, Gather,
// ScatterND, ...) does not compute on elements: it copies them. Its kernels
// therefore move each element's bits in an unsigned type of the element's
// size (uint8_t, uint16_t, uint, uvec2), whatever the element type: an f64
// or i64 tensor moves as uvec2 and needs neither the float64 nor the int64
// feature, and a Transpose of f32 and one of i32 of the same shape share a
// kernel.
//
// Most of these ops are affine copies: each element of an iteration space
// is read at `srcBase + sum(c[d] * srcStrides[d])` and written at
// `dstBase + sum(c[d] * dstStrides[d])`. A Transpose permutes the source
// strides, a Slice scales them by its steps, a Tile repeats dimensions with
// a source stride of 0, and Concat and Split copy one part each. Kernels
// index in 32-bit unsigned arithmetic, which wraps, so negative strides
// (Slice's negative steps) work as they are.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lowering/Glsl.h"
#include "lowering/KernelGenerator.h"

#include <optional>
#include <string>

namespace onyx::lowering::datamovement {

/// Bytes of one element of `elementType` (i1 takes a byte); 0 if kernels
/// cannot hold it.
unsigned getByteSize(Type elementType);
/// The GLSL type holding the bits of one element of `byteSize` bytes.
std::string bitsType(unsigned byteSize);
/// A storage buffer whose elements are `bitsType(byteSize)`, laid out as
/// glsl::buffer lays it out.
std::string bitsBuffer(unsigned binding, gpu::Access access, unsigned byteSize,
                       StringRef name);
/// A literal of `bitsType` holding the bits of element `index` of `value`.
std::string bitsLiteral(DenseElementsAttr value, int64_t index);
using glsl::uintLiteral;
/// A `bitsType(byteSize)` of all zero bits: zero in every element type.
std::string bitsZero(unsigned byteSize);
/// The widest unit (16, 8, 4 bytes or `byteSize`) in which runs of `run`
/// contiguous elements of `byteSize` bytes, starting at multiples of
/// `run`, can move on the target.
unsigned getWidestUnit(LoweringContext &ctx, unsigned byteSize, int64_t run);

/// A readonly buffer of indices of element type i32 or i64; i64 indices
/// are read as ivec2 so that kernels do not need the int64 feature.
std::string indexBuffer(unsigned binding, Type indexType, StringRef name);
/// Statements declaring `int <var>` and `bool <var>Fits`: element `at` of
/// index buffer `name`, and whether it fits in 32 bits (an i64 index that
/// does not is out of range of any dimension).
std::string readIndex(Type indexType, StringRef name, StringRef at,
                      StringRef var);

/// The static type of `value`, after checking that kernels can hold it and
/// that it fits in a binding of the target; reports at the op being lowered
/// (naming `what`) and returns null otherwise.
RankedTensorType checkTensor(LoweringContext &ctx, Value value, StringRef what);

/// Whether optional operand `i` of `op` is present.
bool hasOperand(Operation *op, unsigned i);
/// The values of `value` if an onnx.Constant of integers defines it.
std::optional<SmallVector<int64_t>> getConstantInts(Value value);
/// The values of integer operand `i`, which must be a constant; reports
/// that operand `name` must be one otherwise.
std::optional<SmallVector<int64_t>> getConstantOperandInts(LoweringContext &ctx,
                                                           Operation *op,
                                                           unsigned i,
                                                           StringRef name);

/// Statements declaring `uint <prefix>0 .. <prefix>{rank-1}`, the
/// coordinates of `flat` (a uint variable) in `shape`; the last dimension
/// varies fastest.
std::string coordinates(ArrayRef<int64_t> shape, StringRef flat,
                        StringRef prefix);

/// One affine copy: every element of `shape` from binding `src` to binding
/// `dst` (element offsets and strides as the file comment says).
struct CopyPiece {
  SmallVector<int64_t> shape;
  unsigned src = 0, dst = 1;
  int64_t srcBase = 0, dstBase = 0;
  SmallVector<int64_t> srcStrides, dstStrides;
};
/// A piece copying all of `shape` from `src` with `srcStrides` into the
/// contiguous row-major tensor `dst`, starting at `dstBase`.
CopyPiece gatherPiece(ArrayRef<int64_t> shape, unsigned src, int64_t srcBase,
                      ArrayRef<int64_t> srcStrides, unsigned dst);

/// Dispatches one kernel that runs every piece (one invocation per element
/// of each) with `bindings` bound in order and accessed as `access`. Pieces
/// without elements are dropped; nothing is dispatched if none is left.
/// Elements move in units of up to 16 bytes where every piece allows it.
void dispatchCopies(LoweringContext &ctx, StringRef name,
                    SmallVector<CopyPiece> pieces, unsigned byteSize,
                    ValueRange bindings, ArrayRef<gpu::Access> access);

/// The number of tensors one kernel may bind on the target besides `other`
/// fixed bindings, at least 1.
unsigned getMaxBatch(LoweringContext &ctx, unsigned other);

// Generators of the family's other files, rows of its one table.
LogicalResult lowerGather(Operation *op, LoweringContext &ctx);
LogicalResult lowerScatterND(Operation *op, LoweringContext &ctx);
LogicalResult lowerGatherElements(Operation *op, LoweringContext &ctx);
LogicalResult lowerScatterElements(Operation *op, LoweringContext &ctx);
LogicalResult lowerPad(Operation *op, LoweringContext &ctx);
LogicalResult lowerTrilu(Operation *op, LoweringContext &ctx);
LogicalResult lowerRange(Operation *op, LoweringContext &ctx);
LogicalResult lowerConstantOfShape(Operation *op, LoweringContext &ctx);

} // namespace onyx::lowering::datamovement

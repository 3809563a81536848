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
#include "lowering/KernelSizes.h"

#include <map>

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

/// The type of `value`, after checking that kernels can hold it and that it
/// fits in a binding of the target; reports at the op being lowered (naming
/// `what`) and returns null otherwise. Its shape must be static unless
/// `dynamic` (the runtime checks a binding's size then).
RankedTensorType checkTensor(LoweringContext &ctx, Value value, StringRef what,
                             bool dynamic = false);
/// The common checks of a generator: every operand listed in `data` and
/// every result is a tensor kernels can hold (its dims may be known only at
/// run time). Returns the element byte size, 0 after an error.
unsigned checkTensors(LoweringContext &ctx, Operation *op,
                      ArrayRef<unsigned> data);
/// The type of `v`, a ranked tensor.
inline RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}
/// `axis` of a tensor of `rank`, counted from the end where negative.
inline int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

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

/// The values of integer operand `i`: a constant's, or where the host
/// program computes it from shapes (LoweringContext::getShapeValue), index
/// values known only at run time; reports that operand `name` must be a
/// constant otherwise.
std::optional<SmallVector<Size>> getOperandSizes(LoweringContext &ctx,
                                                 Operation *op, unsigned i,
                                                 StringRef name);

/// Statements declaring `uint <prefix>0 .. <prefix>{rank-1}`, the
/// coordinates of `flat` (a uint variable) in `shape`; the last dimension
/// varies fastest.
std::string coordinates(ArrayRef<int64_t> shape, StringRef flat,
                        StringRef prefix);
/// The same for dims given as GLSL uint expressions.
std::string coordinates(ArrayRef<std::string> shape, StringRef flat,
                        StringRef prefix);

/// A size as the generators of this family reason about it: a polynomial
/// with integer coefficients in symbols, the index values of the host
/// program that hold dims known only at run time (or values computed from
/// them). Strides, counts and offsets are sums of products of dims, so two
/// sizes computed along different paths still compare equal, merge and
/// divide as constants do; a static size is a constant polynomial, and
/// generators compute with it exactly as with an int64_t.
class Poly {
public:
  struct Term {
    /// Symbol numbers (Symbols), sorted; empty for the constant term.
    SmallVector<unsigned, 2> symbols;
    int64_t coefficient = 0;
  };

  Poly(int64_t constant = 0);
  static Poly symbol(unsigned number);

  bool isStatic() const {
    return terms.empty() || (terms.size() == 1 && terms[0].symbols.empty());
  }
  /// The value of a static polynomial.
  int64_t getConstant() const;
  bool isConstant(int64_t value) const {
    return isStatic() && getConstant() == value;
  }
  /// A number every value of the polynomial is a multiple of (the gcd of
  /// its coefficients); 0 for the zero polynomial.
  int64_t getDivisor() const;
  /// Whether every coefficient is negative (a negative stride).
  bool isNegative() const;
  /// Divides every coefficient by `divisor`, which divides getDivisor().
  Poly divideExactly(int64_t divisor) const;
  ArrayRef<Term> getTerms() const { return terms; }

  Poly operator+(const Poly &other) const;
  Poly operator-(const Poly &other) const;
  Poly operator*(const Poly &other) const;
  /// The product, or nothing where a coefficient overflows 64 bits (a
  /// Slice's step near the int64 limits times a stride of a hostile model).
  std::optional<Poly> checkedMul(const Poly &other) const;
  Poly operator-() const { return Poly(0) - *this; }
  bool operator==(const Poly &other) const;
  bool operator!=(const Poly &other) const { return !(*this == other); }

private:
  /// Sorts and merges the terms; whether a merged coefficient overflowed.
  bool normalize();
  SmallVector<Term, 2> terms;
};

/// The symbols of one op's lowering: numbers index values in the order
/// they are first seen (which keeps the host program deterministic) and
/// turns polynomials back into index values, creating host ops once per
/// distinct polynomial.
class Symbols {
public:
  explicit Symbols(LoweringContext &ctx) : ctx(ctx) {}

  LoweringContext &getContext() { return ctx; }
  Poly get(Size size);
  SmallVector<Poly> get(ArrayRef<Size> sizes);
  /// `value` as a Size: a constant, or index values of the host program.
  Size materialize(const Poly &value);
  SmallVector<Size> materialize(ArrayRef<Poly> values);
  /// A GLSL uint expression of `value`, which must not be negative at run
  /// time: a literal, or a push constant of `sizes`.
  std::string text(const Poly &value, KernelSizes &sizes);
  /// The same as a GLSL int expression.
  std::string intText(const Poly &value, KernelSizes &sizes);
  /// Host arithmetic on index values that a polynomial cannot express.
  /// Host op `name` of the integer table (LoweringContext::arith).
  Poly arith(StringRef name, const Poly &a, const Poly &b);
  /// `condition` (0 or not) ? `a` : `b`.
  Poly select(const Poly &condition, const Poly &a, const Poly &b);
  Poly min(const Poly &a, const Poly &b);
  Poly max(const Poly &a, const Poly &b);
  /// `a` / `b` rounded up, for `a` >= 0 and `b` > 0 (a run-time `b` of 0
  /// is an error of the run).
  Poly ceilDiv(const Poly &a, const Poly &b);

private:
  LoweringContext &ctx;
  SmallVector<Value> values;
  std::map<std::string, Size> materialized;
};

/// Row-major strides of `shape`, in elements, and its element count.
SmallVector<Poly> getStrides(ArrayRef<Poly> shape);
Poly getNumElements(ArrayRef<Poly> shape);
SmallVector<Poly> toPolys(ArrayRef<int64_t> values);

/// Checks at run time that `a` `relation` `b` (a comparison of the host
/// op table: "gpu.eqi", "gpu.lei") where either is known only then, so that
/// mismatched run-time dims fail the run at the op instead of making a
/// kernel index outside a tensor; static ones the verifier checked.
/// `message` names `a` as {0} and `b` as {1}.
LogicalResult checkAtRunTime(Symbols &symbols, StringRef relation,
                             const Poly &a, const Poly &b,
                             const std::string &message);

/// The dims of tensor `value` (an operand or result of the op being
/// lowered); empty after an error.
SmallVector<Poly> getDims(Symbols &symbols, Value value);
/// The dims of a result of `type`: its static ones, and `computed` where it
/// has a `?`.
SmallVector<Poly> resultDims(RankedTensorType type, ArrayRef<Poly> computed);
/// A new intermediate with `dims`, recorded as `result`'s memory.
Value allocateResult(Symbols &symbols, Value result, ArrayRef<Poly> dims);
/// KernelSizes::dispatch over `invocations`, materialized as host
/// arithmetic where it is known only at run time.
void dispatchLinear(Symbols &symbols, KernelSpec &spec,
                    const KernelSizes &sizes, const Poly &invocations,
                    ValueRange bindings);

/// One affine copy: every element of `shape` from binding `src` to binding
/// `dst` (element offsets and strides as the file comment says).
struct CopyPiece {
  SmallVector<Poly> shape;
  unsigned src = 0, dst = 1;
  Poly srcBase = 0, dstBase = 0;
  SmallVector<Poly> srcStrides, dstStrides;
};
/// A piece copying all of `shape` from `src` with `srcStrides` into the
/// contiguous row-major tensor `dst`, starting at `dstBase`.
CopyPiece gatherPiece(ArrayRef<Poly> shape, unsigned src, Poly srcBase,
                      ArrayRef<Poly> srcStrides, unsigned dst);

/// Dispatches one kernel that runs every piece (one invocation per element
/// of each) with `bindings` bound in order and accessed as `access`. Pieces
/// without elements are dropped; nothing is dispatched if none is left.
/// Elements move in units of up to 16 bytes where every piece allows it.
/// Sizes known only at run time are push constants; a piece whose size is
/// one of them should be dispatched alone, since the runtime refuses to
/// bind an empty view to a dispatch that runs.
void dispatchCopies(Symbols &symbols, StringRef name,
                    SmallVector<CopyPiece, 2> pieces, unsigned byteSize,
                    ValueRange bindings, ArrayRef<gpu::Access> access);

/// The number of tensors one kernel may bind on the target besides `other`
/// fixed bindings, at least 1.
unsigned getMaxBatch(LoweringContext &ctx, unsigned other);

// Generators of the family's other files, rows of its one table.
LogicalResult lowerGather(Operation *op, LoweringContext &ctx);
LogicalResult lowerGatherND(Operation *op, LoweringContext &ctx);
LogicalResult lowerScatterND(Operation *op, LoweringContext &ctx);
LogicalResult lowerGatherElements(Operation *op, LoweringContext &ctx);
LogicalResult lowerScatterElements(Operation *op, LoweringContext &ctx);
LogicalResult lowerPad(Operation *op, LoweringContext &ctx);
LogicalResult lowerSlice(Operation *op, LoweringContext &ctx);
LogicalResult lowerTrilu(Operation *op, LoweringContext &ctx);
LogicalResult lowerRange(Operation *op, LoweringContext &ctx);
/// The element count of Range `op`, whose result's length is `?`, as the
/// host program computes it: max(ceil((limit - start) / delta), 0) from
/// integer scalars that are shape values, integral float bounds (constants
/// and Casts of such integers, checked at run time to be exact), or a host
/// op reading float scalars the caller gives; with a check of the run that
/// delta is not 0. `outer` maps each operand to the value the host program
/// knows (a fused body's argument to the fused op's operand). Reports at
/// the op being lowered and returns nullopt where the count cannot be
/// computed on the host.
std::optional<Size> getRangeCount(LoweringContext &ctx, Operation *op,
                                  llvm::function_ref<Value(Value)> outer);
LogicalResult lowerConstantOfShape(Operation *op, LoweringContext &ctx);
/// A Concat for which isCacheAppend holds, of elements of `byteSize` bytes.
LogicalResult lowerCacheAppend(Operation *op, LoweringContext &ctx,
                               unsigned byteSize);

} // namespace onyx::lowering::datamovement

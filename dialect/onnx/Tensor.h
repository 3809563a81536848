//===- Tensor.h - Runtime tensors for evaluation and folding ----*- C++ -*-===//
//
// A Tensor is a concrete value of an onnx op's operand or result: an element
// type, a static shape and little-endian bytes in row-major order. The
// reference evaluator computes on Tensors, and folding converts constants to
// and from them. A Tensor made from a DenseElementsAttr reads the attribute's
// bytes in place (they live as long as the Context); writing to it copies
// first. Copies of a Tensor share their bytes until one of them is written.
//
// Element types follow onnx-mlir's mapping of ONNX types onto IR types:
// signless iN for ONNX intN, uiN for uintN, i1 for bool, f16/bf16/f32/f64.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Attributes.h"

#include "llvm/Support/ErrorHandling.h"

#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>

namespace onyx::onnx {

enum class ElementType : uint8_t {
  F16,
  BF16,
  F32,
  F64,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  Bool,
};

/// Bytes of one element (bool takes a byte).
unsigned getByteSize(ElementType type);
bool isFloat(ElementType type);
bool isSignedInteger(ElementType type);
bool isUnsignedInteger(ElementType type);
/// The IR spelling: "f32", "i64", "ui8", "i1", ...
StringRef getTypeName(ElementType type);

/// The TensorProto data type code of ONNX (1 float, 7 int64, 9 bool, ...).
int getOnnxDataType(ElementType type);
/// The element type of ONNX data type `code`; nullopt for types onyx does
/// not support (strings, complex, float8, 4-bit, ...).
std::optional<ElementType> fromOnnxDataType(int64_t code);

/// The element type of IR type `type`; nullopt for types tensors cannot hold
/// (index, si32, i4, ...).
std::optional<ElementType> getElementType(Type type);
/// The IR type of `type` in `ctx`.
Type getIRType(Context *ctx, ElementType type);

/// IEEE half and bfloat16 values as stored (their bits), convertible to
/// float, which is the type the evaluator computes them in.
struct Float16 {
  uint16_t bits = 0;
  /// Rounds to nearest even (directly from double, not through float).
  static Float16 fromDouble(double value);
  operator float() const;
};
struct BFloat16 {
  uint16_t bits = 0;
  static BFloat16 fromDouble(double value);
  operator float() const;
};

/// Calls `fn(T{})` where T is the C++ storage type of `type`: Float16,
/// BFloat16, float, double, int8_t..int64_t, uint8_t..uint64_t or bool. This
/// is how the evaluator instantiates one template per element type.
template <typename Fn> decltype(auto) dispatchType(ElementType type, Fn &&fn) {
  switch (type) {
  case ElementType::F16:
    return fn(Float16{});
  case ElementType::BF16:
    return fn(BFloat16{});
  case ElementType::F32:
    return fn(float{});
  case ElementType::F64:
    return fn(double{});
  case ElementType::I8:
    return fn(int8_t{});
  case ElementType::I16:
    return fn(int16_t{});
  case ElementType::I32:
    return fn(int32_t{});
  case ElementType::I64:
    return fn(int64_t{});
  case ElementType::U8:
    return fn(uint8_t{});
  case ElementType::U16:
    return fn(uint16_t{});
  case ElementType::U32:
    return fn(uint32_t{});
  case ElementType::U64:
    return fn(uint64_t{});
  case ElementType::Bool:
    return fn(bool{});
  }
  llvm_unreachable("unknown element type");
}

/// The element type whose storage type is T.
template <typename T> constexpr ElementType elementTypeOf() {
  if constexpr (std::is_same_v<T, Float16>)
    return ElementType::F16;
  else if constexpr (std::is_same_v<T, BFloat16>)
    return ElementType::BF16;
  else if constexpr (std::is_same_v<T, float>)
    return ElementType::F32;
  else if constexpr (std::is_same_v<T, double>)
    return ElementType::F64;
  else if constexpr (std::is_same_v<T, int8_t>)
    return ElementType::I8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return ElementType::I16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return ElementType::I32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return ElementType::I64;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return ElementType::U8;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return ElementType::U16;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return ElementType::U32;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return ElementType::U64;
  else {
    static_assert(std::is_same_v<T, bool>, "not a tensor storage type");
    return ElementType::Bool;
  }
}

/// The type arithmetic on T is done in: float for the 16-bit floats, T
/// otherwise.
template <typename T>
using ComputeType = std::conditional_t<
    std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>, float, T>;

template <typename T>
constexpr bool isFloatStorage =
    std::is_floating_point_v<T> || std::is_same_v<T, Float16> ||
    std::is_same_v<T, BFloat16>;

/// Converts a computed value back to storage type T (plain conversion: a
/// float given to an integer type must be in its range).
template <typename T, typename V> T fromCompute(V value) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>)
    return T::fromDouble(static_cast<double>(value));
  else
    return static_cast<T>(value);
}

/// Converts one element between storage types as Cast does: floats to
/// integers truncate toward zero and saturate at the integer's range (NaN
/// becomes 0), integers wrap to narrower integers, anything becomes bool as
/// `!= 0`, and float narrowing rounds to nearest even.
template <typename To, typename From> To convertElement(From value) {
  auto v = static_cast<ComputeType<From>>(value);
  if constexpr (std::is_same_v<To, bool>) {
    return v != 0;
  } else if constexpr (isFloatStorage<To>) {
    return fromCompute<To>(v);
  } else if constexpr (isFloatStorage<From>) {
    if (v != v)
      return 0;
    if (v <= static_cast<double>(std::numeric_limits<To>::min()))
      return std::numeric_limits<To>::min();
    if (v >= static_cast<double>(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

class Tensor {
public:
  /// An absent tensor: the value of an optional operand that is not given.
  Tensor() = default;
  /// A zero-filled tensor.
  Tensor(ElementType type, ArrayRef<int64_t> shape);

  /// Reads `attr` without copying its bytes (a splat is expanded). Fails for
  /// element types a Tensor cannot hold or dynamic shapes.
  static std::optional<Tensor> fromAttr(DenseElementsAttr attr);
  /// A tensor of `type` whose elements are `values` converted (as Cast
  /// would convert them) from int64 / double.
  static Tensor fromInts(ElementType type, ArrayRef<int64_t> shape,
                         ArrayRef<int64_t> values);
  static Tensor fromDoubles(ElementType type, ArrayRef<int64_t> shape,
                            ArrayRef<double> values);
  /// A 0-d tensor.
  static Tensor scalar(ElementType type, double value) {
    return fromDoubles(type, {}, value);
  }

  /// A constant holding this tensor, stored as a splat when all elements
  /// are equal.
  DenseElementsAttr toAttr(Context *ctx) const;
  RankedTensorType getType(Context *ctx) const;

  explicit operator bool() const { return present; }
  ElementType getElementType() const { return elementType; }
  ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return shape.size(); }
  int64_t getNumElements() const { return numElements; }
  size_t getNumBytes() const { return numElements * getByteSize(elementType); }

  ArrayRef<char> getBytes() const { return {data, getNumBytes()}; }
  /// Makes the bytes private to this tensor first if they are shared.
  MutableArrayRef<char> getMutableBytes();
  /// Typed views; T must be the storage type of the element type.
  template <typename T> ArrayRef<T> getValues() const {
    assert(elementTypeOf<T>() == elementType && "wrong element type");
    return ArrayRef<T>(reinterpret_cast<const T *>(data), size_t(numElements));
  }
  template <typename T> MutableArrayRef<T> getMutableValues() {
    assert(elementTypeOf<T>() == elementType && "wrong element type");
    MutableArrayRef<char> bytes = getMutableBytes();
    return MutableArrayRef<T>(reinterpret_cast<T *>(bytes.data()),
                              size_t(numElements));
  }

  /// Element `i` converted to double / int64 (unsigned 64-bit values keep
  /// their bits); slow, for code outside inner loops.
  double getDouble(int64_t i) const;
  int64_t getInt(int64_t i) const;
  void setDouble(int64_t i, double value);
  void setInt(int64_t i, int64_t value);
  /// All elements as int64 (shape operands, axes, indices).
  SmallVector<int64_t> toInts() const;

  /// The same elements with another shape of equal element count; shares the
  /// bytes.
  Tensor reshape(ArrayRef<int64_t> newShape) const;
  /// Whether the bytes are an attribute's, read in place.
  bool isBorrowed() const { return present && !storage; }

private:
  bool present = false;
  ElementType elementType = ElementType::F32;
  SmallVector<int64_t, 4> shape;
  int64_t numElements = 0;
  /// Owned bytes, 8-byte aligned; null when borrowing an attribute's.
  std::shared_ptr<uint64_t[]> storage;
  const char *data = nullptr;
};

//===----------------------------------------------------------------------===//
// Shapes and numpy broadcasting
//===----------------------------------------------------------------------===//

/// Product of the dimensions (1 for a scalar).
int64_t getNumElements(ArrayRef<int64_t> shape);
/// Row-major strides, in elements.
SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape);

/// The numpy broadcast of two shapes, aligned at the right. A dynamic
/// dimension (ShapedType::kDynamic) broadcast with 1 or with another dynamic
/// one stays dynamic; with a static size N > 1 it becomes N. Fails if two
/// static sizes differ and neither is 1.
std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> a,
                                                    ArrayRef<int64_t> b);

/// Strides (in elements) of an input of shape `inShape` read as if broadcast
/// to `outShape`: one per output dimension, 0 where the input is broadcast.
SmallVector<int64_t> getBroadcastStrides(ArrayRef<int64_t> inShape,
                                         ArrayRef<int64_t> outShape);

/// Walks the elements of `outShape` in row-major order, keeping the offset
/// of the matching element in each input broadcast to it.
class BroadcastIterator {
public:
  BroadcastIterator(ArrayRef<int64_t> outShape,
                    ArrayRef<ArrayRef<int64_t>> inShapes);
  /// Offset of the current element in input `i`.
  int64_t offset(unsigned i) const { return offsets[i]; }
  /// Moves to the next output element.
  void next();

private:
  SmallVector<int64_t, 6> outShape;
  SmallVector<int64_t, 6> index;
  /// strides[i * rank + d]: input i's stride along output dimension d.
  SmallVector<int64_t, 24> strides;
  SmallVector<int64_t, 4> offsets;
};

/// `t` with its elements converted to `type` as Cast converts them.
Tensor convertTensor(const Tensor &t, ElementType type);

/// `t` materialized with shape `shape` (numpy broadcasting).
Tensor broadcastTo(const Tensor &t, ArrayRef<int64_t> shape);

} // namespace onyx::onnx

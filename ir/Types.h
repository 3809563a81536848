//===- Types.h - Uniqued types of the IR -------------------------*- C++
//-*-===//
//
// Types are immutable and uniqued in the Context: two equal types are the same
// pointer, so comparison and hashing are pointer operations. `Type` is a
// value-semantic handle; subclasses add accessors and support isa/cast.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Support.h"

#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/Hashing.h"

#include <cstdint>
#include <limits>
#include <optional>

namespace llvm {
class raw_ostream;
struct fltSemantics;
} // namespace llvm

namespace onyx {

namespace detail {
struct TypeStorage;
} // namespace detail

enum class TypeKind : uint8_t {
  Integer,
  Index,
  Float,
  None,
  RankedTensor,
  UnrankedTensor,
  Function,
  Opaque,
  // A type defined by a registered dialect; the dialect parses and prints it.
  Dialect,
};

class Type {
public:
  using ImplType = detail::TypeStorage;

  Type() = default;
  /*implicit*/ Type(const ImplType *impl) : impl(impl) {}

  explicit operator bool() const { return impl != nullptr; }
  bool operator==(Type other) const { return impl == other.impl; }
  bool operator!=(Type other) const { return impl != other.impl; }

  TypeKind getKind() const;
  Context *getContext() const;
  const ImplType *getImpl() const { return impl; }

  bool isIndex() const { return getKind() == TypeKind::Index; }
  bool isF16() const;
  bool isBF16() const;
  bool isF32() const;
  bool isF64() const;
  bool isFloat() const { return getKind() == TypeKind::Float; }
  bool isInteger() const { return getKind() == TypeKind::Integer; }
  bool isInteger(unsigned width) const;
  /// Integer or index: types whose attributes hold an APInt.
  bool isIntOrIndex() const { return isInteger() || isIndex(); }
  /// Bits of one element in memory; 0 for types without a storage size.
  unsigned getIntOrFloatBitWidth() const;

  void print(llvm::raw_ostream &os) const;
  void dump() const;

  friend llvm::hash_code hash_value(Type t) {
    return llvm::hash_value(static_cast<const void *>(t.impl));
  }

protected:
  const ImplType *impl = nullptr;
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Type type);

/// iN, siN and uiN.
class IntegerType : public Type {
public:
  enum Signedness : uint8_t { Signless, Signed, Unsigned };
  using Type::Type;
  static IntegerType get(Context *ctx, unsigned width,
                         Signedness signedness = Signless);
  unsigned getWidth() const;
  Signedness getSignedness() const;
  bool isSignless() const { return getSignedness() == Signless; }
  bool isSigned() const { return getSignedness() == Signed; }
  bool isUnsigned() const { return getSignedness() == Unsigned; }
  static bool classof(Type t) { return t.getKind() == TypeKind::Integer; }
};

class IndexType : public Type {
public:
  using Type::Type;
  static IndexType get(Context *ctx);
  static bool classof(Type t) { return t.getKind() == TypeKind::Index; }
};

class FloatType : public Type {
public:
  enum Width : uint8_t { F16, BF16, F32, F64 };
  using Type::Type;
  static FloatType get(Context *ctx, Width width);
  static FloatType getF16(Context *ctx) { return get(ctx, F16); }
  static FloatType getBF16(Context *ctx) { return get(ctx, BF16); }
  static FloatType getF32(Context *ctx) { return get(ctx, F32); }
  static FloatType getF64(Context *ctx) { return get(ctx, F64); }
  Width getFloatKind() const;
  unsigned getWidth() const;
  const llvm::fltSemantics &getFloatSemantics() const;
  static bool classof(Type t) { return t.getKind() == TypeKind::Float; }
};

class NoneType : public Type {
public:
  using Type::Type;
  static NoneType get(Context *ctx);
  static bool classof(Type t) { return t.getKind() == TypeKind::None; }
};

/// Common interface of ranked and unranked tensors.
class ShapedType : public Type {
public:
  /// A dimension whose size is not known statically, printed `?`.
  static constexpr int64_t kDynamic = std::numeric_limits<int64_t>::min();
  static bool isDynamic(int64_t dim) { return dim == kDynamic; }

  using Type::Type;
  Type getElementType() const;
  bool hasRank() const { return getKind() == TypeKind::RankedTensor; }
  ArrayRef<int64_t> getShape() const;
  int64_t getRank() const { return getShape().size(); }
  bool hasStaticShape() const;
  /// Number of elements; only valid for a static shape.
  int64_t getNumElements() const;
  static bool classof(Type t) {
    return t.getKind() == TypeKind::RankedTensor ||
           t.getKind() == TypeKind::UnrankedTensor;
  }
};

class RankedTensorType : public ShapedType {
public:
  using ShapedType::ShapedType;
  static RankedTensorType get(ArrayRef<int64_t> shape, Type elementType);
  static bool classof(Type t) { return t.getKind() == TypeKind::RankedTensor; }
};

class UnrankedTensorType : public ShapedType {
public:
  using ShapedType::ShapedType;
  static UnrankedTensorType get(Type elementType);
  static bool classof(Type t) {
    return t.getKind() == TypeKind::UnrankedTensor;
  }
};

class FunctionType : public Type {
public:
  using Type::Type;
  static FunctionType get(Context *ctx, ArrayRef<Type> inputs,
                          ArrayRef<Type> results);
  ArrayRef<Type> getInputs() const;
  ArrayRef<Type> getResults() const;
  static bool classof(Type t) { return t.getKind() == TypeKind::Function; }
};

/// `!dialect.body` of a dialect that is not registered: kept as text so that
/// such IR still round-trips under --allow-unregistered-dialect.
class OpaqueType : public Type {
public:
  using Type::Type;
  static OpaqueType get(Context *ctx, StringRef dialect, StringRef body);
  StringRef getDialectNamespace() const;
  StringRef getBody() const;
  static bool classof(Type t) { return t.getKind() == TypeKind::Opaque; }
};

/// Bytes one element of `type` occupies in a dense buffer (i1 takes a byte).
unsigned getElementByteSize(Type type);

/// The product of `dims`; nullopt if one is negative or dynamic, or if the
/// product does not fit in int64. Sizes computed from dims that a user
/// controls (a model's shapes, the values of a shape operand) go through
/// this and getCheckedNumBytes, never through a plain product.
std::optional<int64_t> getCheckedNumElements(ArrayRef<int64_t> dims);
/// `numElements` elements of `elementType` in bytes; nullopt if negative or
/// it does not fit in int64.
std::optional<int64_t> getCheckedNumBytes(int64_t numElements,
                                          Type elementType);
/// Whether the data of a tensor of `type` can be sized at all: no static
/// dimension is negative, and the product of the static ones, in bytes,
/// fits in int64 (so that every size the compiler and the runtimes compute
/// from it does). Dynamic dimensions are checked where they get a value.
bool hasRepresentableSize(ShapedType type);

} // namespace onyx

namespace llvm {
template <> struct DenseMapInfo<onyx::Type> {
  static onyx::Type getEmptyKey() {
    return onyx::Type(static_cast<const onyx::Type::ImplType *>(
        DenseMapInfo<const void *>::getEmptyKey()));
  }
  static onyx::Type getTombstoneKey() {
    return onyx::Type(static_cast<const onyx::Type::ImplType *>(
        DenseMapInfo<const void *>::getTombstoneKey()));
  }
  static unsigned getHashValue(onyx::Type t) {
    return DenseMapInfo<const void *>::getHashValue(t.getImpl());
  }
  static bool isEqual(onyx::Type a, onyx::Type b) { return a == b; }
};

// isa/cast between Type handles, as MLIR does.
template <typename To, typename From>
struct CastInfo<To, From,
                std::enable_if_t<std::is_base_of_v<onyx::Type, From> &&
                                 std::is_base_of_v<onyx::Type, To>>>
    : NullableValueCastFailed<To>,
      DefaultDoCastIfPossible<To, From, CastInfo<To, From>> {
  static bool isPossible(From t) {
    if constexpr (std::is_base_of_v<To, From>)
      return true;
    else
      return To::classof(t);
  }
  static To doCast(From t) { return To(t.getImpl()); }
};
} // namespace llvm

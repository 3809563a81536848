//===- Attributes.h - Uniqued constant data of the IR -----------*- C++ -*-===//
//
// Attributes are immutable compile-time values attached to operations,
// uniqued in the Context like types. Locations are attributes too (see
// Location.h), as in MLIR, so they are uniqued and cheap to copy.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Types.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

namespace onyx {

namespace detail {
struct AttributeStorage;
} // namespace detail

enum class AttrKind : uint8_t {
  Integer,
  Float,
  String,
  Unit,
  Array,
  Dictionary,
  Type,
  SymbolRef,
  DenseElements,
  Opaque,
  // Locations.
  UnknownLoc,
  FileLineColLoc,
  NameLoc,
  CallSiteLoc,
  FusedLoc,
};

class Attribute {
public:
  using ImplType = detail::AttributeStorage;

  Attribute() = default;
  /*implicit*/ Attribute(const ImplType *impl) : impl(impl) {}

  explicit operator bool() const { return impl != nullptr; }
  bool operator==(Attribute other) const { return impl == other.impl; }
  bool operator!=(Attribute other) const { return impl != other.impl; }

  AttrKind getKind() const;
  Context *getContext() const;
  const ImplType *getImpl() const { return impl; }

  void print(llvm::raw_ostream &os) const;
  void dump() const;

  friend llvm::hash_code hash_value(Attribute a) {
    return llvm::hash_value(static_cast<const void *>(a.impl));
  }

protected:
  const ImplType *impl = nullptr;
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Attribute attr);

/// An attribute with a type: integers, floats and dense elements.
class TypedAttr : public Attribute {
public:
  using Attribute::Attribute;
  Type getType() const;
  static bool classof(Attribute a) {
    return a.getKind() == AttrKind::Integer || a.getKind() == AttrKind::Float ||
           a.getKind() == AttrKind::DenseElements;
  }
};

/// An integer (including index and i1) of the width of its type.
class IntegerAttr : public TypedAttr {
public:
  using TypedAttr::TypedAttr;
  static IntegerAttr get(Type type, const llvm::APInt &value);
  static IntegerAttr get(Type type, int64_t value);
  const llvm::APInt &getValue() const;
  int64_t getInt() const { return getValue().getSExtValue(); }
  uint64_t getUInt() const { return getValue().getZExtValue(); }
  static bool classof(Attribute a) { return a.getKind() == AttrKind::Integer; }
};

/// `true`/`false`: an IntegerAttr of type i1, as in MLIR.
class BoolAttr : public IntegerAttr {
public:
  using IntegerAttr::IntegerAttr;
  static BoolAttr get(Context *ctx, bool value);
  bool getValue() const { return !IntegerAttr::getValue().isZero(); }
  static bool classof(Attribute a);
};

class FloatAttr : public TypedAttr {
public:
  using TypedAttr::TypedAttr;
  /// `value` is rounded to the semantics of `type`.
  static FloatAttr get(Type type, double value);
  static FloatAttr get(Type type, const llvm::APFloat &value);
  llvm::APFloat getValue() const;
  double getValueAsDouble() const;
  static bool classof(Attribute a) { return a.getKind() == AttrKind::Float; }
};

class StringAttr : public Attribute {
public:
  using Attribute::Attribute;
  static StringAttr get(Context *ctx, StringRef value);
  StringRef getValue() const;
  StringRef str() const { return getValue(); }
  static bool classof(Attribute a) { return a.getKind() == AttrKind::String; }
};

class UnitAttr : public Attribute {
public:
  using Attribute::Attribute;
  static UnitAttr get(Context *ctx);
  static bool classof(Attribute a) { return a.getKind() == AttrKind::Unit; }
};

class ArrayAttr : public Attribute {
public:
  using Attribute::Attribute;
  static ArrayAttr get(Context *ctx, ArrayRef<Attribute> elements);
  ArrayRef<Attribute> getValue() const;
  size_t size() const { return getValue().size(); }
  Attribute operator[](size_t i) const { return getValue()[i]; }
  auto begin() const { return getValue().begin(); }
  auto end() const { return getValue().end(); }
  static bool classof(Attribute a) { return a.getKind() == AttrKind::Array; }
};

/// A (name, value) pair of an attribute dictionary.
struct NamedAttribute {
  StringAttr name;
  Attribute value;
  StringRef getName() const { return name.getValue(); }
  bool operator==(const NamedAttribute &o) const {
    return name == o.name && value == o.value;
  }
};

/// Attributes sorted by name, each name once.
class DictionaryAttr : public Attribute {
public:
  using Attribute::Attribute;
  /// Sorts `attrs` by name; the names must be unique.
  static DictionaryAttr get(Context *ctx, ArrayRef<NamedAttribute> attrs);
  /// `attrs` must already be sorted by name and unique.
  static DictionaryAttr getSorted(Context *ctx, ArrayRef<NamedAttribute> attrs);
  ArrayRef<NamedAttribute> getValue() const;
  Attribute get(StringRef name) const;
  bool empty() const { return getValue().empty(); }
  size_t size() const { return getValue().size(); }
  auto begin() const { return getValue().begin(); }
  auto end() const { return getValue().end(); }
  static bool classof(Attribute a) {
    return a.getKind() == AttrKind::Dictionary;
  }
};

class TypeAttr : public Attribute {
public:
  using Attribute::Attribute;
  static TypeAttr get(Type type);
  Type getValue() const;
  static bool classof(Attribute a) { return a.getKind() == AttrKind::Type; }
};

/// `@root` or `@root::@nested::@leaf`.
class SymbolRefAttr : public Attribute {
public:
  using Attribute::Attribute;
  static SymbolRefAttr get(Context *ctx, StringRef root,
                           ArrayRef<StringAttr> nested = {});
  StringAttr getRootReference() const;
  ArrayRef<StringAttr> getNestedReferences() const;
  StringAttr getLeafReference() const;
  bool isFlat() const { return getNestedReferences().empty(); }
  static bool classof(Attribute a) {
    return a.getKind() == AttrKind::SymbolRef;
  }
};

/// Tensor data stored once as raw little-endian bytes, one element after
/// another in row-major order (i1 takes one byte). A splat (all elements
/// equal, including any one-element tensor) stores one element. Passes read
/// the bytes in place; nothing copies them.
class DenseElementsAttr : public TypedAttr {
public:
  using TypedAttr::TypedAttr;
  /// `data` holds either one element (a splat) or all of them.
  static DenseElementsAttr getFromRawBuffer(ShapedType type,
                                            ArrayRef<char> data);
  static DenseElementsAttr get(ShapedType type, ArrayRef<llvm::APInt> values);
  static DenseElementsAttr get(ShapedType type, ArrayRef<llvm::APFloat> values);
  /// Checks that `dataSize` bytes make a splat or the full data of `type`.
  static bool isValidRawBuffer(ShapedType type, size_t dataSize, bool &isSplat);

  ShapedType getType() const;
  Type getElementType() const { return getType().getElementType(); }
  int64_t getNumElements() const { return getType().getNumElements(); }
  bool isSplat() const;
  ArrayRef<char> getRawData() const;

  /// Element `i` (of the logical, non-splat tensor).
  llvm::APInt getIntValue(int64_t i) const;
  llvm::APFloat getFloatValue(int64_t i) const;
  /// A typed view of the elements for T matching the element type's storage.
  template <typename T> ArrayRef<T> getRawValues() const {
    ArrayRef<char> raw = getRawData();
    return {reinterpret_cast<const T *>(raw.data()), raw.size() / sizeof(T)};
  }
  static bool classof(Attribute a) {
    return a.getKind() == AttrKind::DenseElements;
  }
};

/// `#dialect.body` of a dialect that is not registered, kept as text.
class OpaqueAttr : public Attribute {
public:
  using Attribute::Attribute;
  static OpaqueAttr get(Context *ctx, StringRef dialect, StringRef body);
  StringRef getDialectNamespace() const;
  StringRef getBody() const;
  static bool classof(Attribute a) { return a.getKind() == AttrKind::Opaque; }
};

} // namespace onyx

namespace llvm {
template <> struct DenseMapInfo<onyx::Attribute> {
  static onyx::Attribute getEmptyKey() {
    return onyx::Attribute(static_cast<const onyx::Attribute::ImplType *>(
        DenseMapInfo<const void *>::getEmptyKey()));
  }
  static onyx::Attribute getTombstoneKey() {
    return onyx::Attribute(static_cast<const onyx::Attribute::ImplType *>(
        DenseMapInfo<const void *>::getTombstoneKey()));
  }
  static unsigned getHashValue(onyx::Attribute a) {
    return DenseMapInfo<const void *>::getHashValue(a.getImpl());
  }
  static bool isEqual(onyx::Attribute a, onyx::Attribute b) { return a == b; }
};

template <typename To, typename From>
struct CastInfo<To, From,
                std::enable_if_t<std::is_base_of_v<onyx::Attribute, From> &&
                                 std::is_base_of_v<onyx::Attribute, To>>>
    : NullableValueCastFailed<To>,
      DefaultDoCastIfPossible<To, From, CastInfo<To, From>> {
  static bool isPossible(From a) {
    if constexpr (std::is_base_of_v<To, From>)
      return true;
    else
      return To::classof(a);
  }
  static To doCast(From a) { return To(a.getImpl()); }
};
} // namespace llvm

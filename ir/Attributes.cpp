//===- Attributes.cpp - Uniqued constant data of the IR -------------------===//
#include "ir/ContextImpl.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <cstring>

namespace onyx {

using detail::AttributeStorage;

AttrKind Attribute::getKind() const { return impl->kind; }
Context *Attribute::getContext() const { return impl->context; }

Type TypedAttr::getType() const {
  switch (getKind()) {
  case AttrKind::Integer:
    return static_cast<const detail::IntegerAttrStorage *>(impl)->type;
  case AttrKind::Float:
    return static_cast<const detail::FloatAttrStorage *>(impl)->type;
  case AttrKind::DenseElements:
    return static_cast<const detail::DenseElementsAttrStorage *>(impl)->type;
  default:
    llvm_unreachable("not a typed attribute");
  }
}

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

IntegerAttr IntegerAttr::get(Type type, const llvm::APInt &value) {
  return IntegerAttr(type.getContext()->unique<detail::IntegerAttrStorage>(
      detail::IntegerAttrStorage::KeyTy(type, value)));
}
IntegerAttr IntegerAttr::get(Type type, int64_t value) {
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  return get(type, llvm::APInt(width, value, /*isSigned=*/true));
}
const llvm::APInt &IntegerAttr::getValue() const {
  return static_cast<const detail::IntegerAttrStorage *>(impl)->value;
}

BoolAttr BoolAttr::get(Context *ctx, bool value) {
  const auto &s = ctx->getSingletons();
  return BoolAttr((value ? s.trueAttr : s.falseAttr).getImpl());
}
bool BoolAttr::classof(Attribute a) {
  return a.getKind() == AttrKind::Integer &&
         cast<IntegerAttr>(a).getType().isInteger(1);
}

FloatAttr FloatAttr::get(Type type, const llvm::APFloat &value) {
  llvm::APFloat v = value;
  bool losesInfo;
  v.convert(cast<FloatType>(type).getFloatSemantics(),
            llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  uint64_t bits = v.bitcastToAPInt().getZExtValue();
  return FloatAttr(type.getContext()->unique<detail::FloatAttrStorage>(
      detail::FloatAttrStorage::KeyTy(type, bits)));
}
FloatAttr FloatAttr::get(Type type, double value) {
  return get(type, llvm::APFloat(value));
}
llvm::APFloat FloatAttr::getValue() const {
  auto *s = static_cast<const detail::FloatAttrStorage *>(impl);
  auto ft = cast<FloatType>(s->type);
  return llvm::APFloat(ft.getFloatSemantics(),
                       llvm::APInt(ft.getWidth(), s->bits));
}
double FloatAttr::getValueAsDouble() const {
  llvm::APFloat v = getValue();
  bool losesInfo;
  v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return v.convertToDouble();
}

StringAttr StringAttr::get(Context *ctx, StringRef value) {
  return StringAttr(ctx->unique<detail::StringAttrStorage>(value));
}
StringRef StringAttr::getValue() const {
  return static_cast<const detail::StringAttrStorage *>(impl)->value;
}

UnitAttr UnitAttr::get(Context *ctx) {
  return UnitAttr(&ctx->getSingletons().unit);
}

TypeAttr TypeAttr::get(Type type) {
  return TypeAttr(type.getContext()->unique<detail::TypeAttrStorage>(type));
}
Type TypeAttr::getValue() const {
  return static_cast<const detail::TypeAttrStorage *>(impl)->value;
}

OpaqueAttr OpaqueAttr::get(Context *ctx, StringRef dialect, StringRef body) {
  return OpaqueAttr(ctx->unique<detail::OpaqueAttrStorage>(
      detail::OpaqueAttrStorage::KeyTy(dialect, body)));
}
StringRef OpaqueAttr::getDialectNamespace() const {
  return static_cast<const detail::OpaqueAttrStorage *>(impl)->dialect;
}
StringRef OpaqueAttr::getBody() const {
  return static_cast<const detail::OpaqueAttrStorage *>(impl)->body;
}

//===----------------------------------------------------------------------===//
// Lists
//===----------------------------------------------------------------------===//

ArrayAttr ArrayAttr::get(Context *ctx, ArrayRef<Attribute> elements) {
  return ArrayAttr(ctx->unique<detail::ArrayAttrStorage>(
      detail::ArrayAttrStorage::KeyTy(elements, Attribute())));
}
ArrayRef<Attribute> ArrayAttr::getValue() const {
  return static_cast<const detail::ArrayAttrStorage *>(impl)->elements;
}

DictionaryAttr DictionaryAttr::get(Context *ctx,
                                   ArrayRef<NamedAttribute> attrs) {
  auto less = [](const NamedAttribute &a, const NamedAttribute &b) {
    return a.getName() < b.getName();
  };
  if (llvm::is_sorted(attrs, less))
    return getSorted(ctx, attrs);
  SmallVector<NamedAttribute, 8> sorted(attrs.begin(), attrs.end());
  llvm::sort(sorted, less);
  return getSorted(ctx, sorted);
}
DictionaryAttr DictionaryAttr::getSorted(Context *ctx,
                                         ArrayRef<NamedAttribute> attrs) {
  if (attrs.empty() && ctx->getSingletons().emptyDict)
    return ctx->getSingletons().emptyDict;
  return DictionaryAttr(ctx->unique<detail::DictionaryAttrStorage>(
      detail::DictionaryAttrStorage::KeyTy(attrs, Attribute())));
}
ArrayRef<NamedAttribute> DictionaryAttr::getValue() const {
  return static_cast<const detail::DictionaryAttrStorage *>(impl)->elements;
}
Attribute DictionaryAttr::get(StringRef name) const {
  ArrayRef<NamedAttribute> attrs = getValue();
  // Dictionaries are small: a linear scan beats a binary search up to a
  // handful of entries.
  if (attrs.size() <= 8) {
    for (const NamedAttribute &a : attrs)
      if (a.getName() == name)
        return a.value;
    return {};
  }
  auto it = llvm::partition_point(
      attrs, [&](const NamedAttribute &a) { return a.getName() < name; });
  return it != attrs.end() && it->getName() == name ? it->value : Attribute();
}

SymbolRefAttr SymbolRefAttr::get(Context *ctx, StringRef root,
                                 ArrayRef<StringAttr> nested) {
  SmallVector<Attribute, 4> elems(nested.begin(), nested.end());
  return SymbolRefAttr(ctx->unique<detail::SymbolRefAttrStorage>(
      detail::SymbolRefAttrStorage::KeyTy(elems, StringAttr::get(ctx, root))));
}
StringAttr SymbolRefAttr::getRootReference() const {
  return StringAttr(
      static_cast<const detail::SymbolRefAttrStorage *>(impl)->extra.getImpl());
}
ArrayRef<StringAttr> SymbolRefAttr::getNestedReferences() const {
  ArrayRef<Attribute> elems =
      static_cast<const detail::SymbolRefAttrStorage *>(impl)->elements;
  // StringAttr is a handle with the same layout as Attribute.
  return {reinterpret_cast<const StringAttr *>(elems.data()), elems.size()};
}
StringAttr SymbolRefAttr::getLeafReference() const {
  ArrayRef<StringAttr> nested = getNestedReferences();
  return nested.empty() ? getRootReference() : nested.back();
}

//===----------------------------------------------------------------------===//
// Dense elements
//===----------------------------------------------------------------------===//

bool DenseElementsAttr::isValidRawBuffer(ShapedType type, size_t dataSize,
                                         bool &isSplat) {
  if (!type.hasStaticShape())
    return false;
  size_t elemSize = getElementByteSize(type.getElementType());
  int64_t n = type.getNumElements();
  isSplat = n > 0 && dataSize == elemSize;
  return dataSize == elemSize * size_t(n) || isSplat;
}

DenseElementsAttr DenseElementsAttr::getFromRawBuffer(ShapedType type,
                                                      ArrayRef<char> data) {
  return DenseElementsAttr(
      type.getContext()->unique<detail::DenseElementsAttrStorage>(
          detail::DenseElementsAttrStorage::KeyTy(type, data)));
}

/// Packs values of `elemSize` bytes into a buffer, collapsing to one element
/// when all are equal (a splat).
static DenseElementsAttr packBits(ShapedType type, ArrayRef<llvm::APInt> bits) {
  size_t elemSize = getElementByteSize(type.getElementType());
  bool splat = bits.size() > 1 && llvm::all_of(bits, [&](const llvm::APInt &v) {
                 return v == bits.front();
               });
  size_t count = splat ? 1 : bits.size();
  SmallVector<char, 256> buffer(count * elemSize, 0);
  for (size_t i = 0; i < count; ++i) {
    // APInt words are little-endian 64-bit chunks, as the buffer is.
    size_t bytes = std::min<size_t>(elemSize, bits[i].getNumWords() * 8);
    std::memcpy(buffer.data() + i * elemSize, bits[i].getRawData(), bytes);
  }
  return DenseElementsAttr::getFromRawBuffer(type, buffer);
}

DenseElementsAttr DenseElementsAttr::get(ShapedType type,
                                         ArrayRef<llvm::APInt> values) {
  return packBits(type, values);
}

DenseElementsAttr DenseElementsAttr::get(ShapedType type,
                                         ArrayRef<llvm::APFloat> values) {
  SmallVector<llvm::APInt, 64> bits;
  bits.reserve(values.size());
  for (const llvm::APFloat &v : values)
    bits.push_back(v.bitcastToAPInt());
  return packBits(type, bits);
}

ShapedType DenseElementsAttr::getType() const {
  return ShapedType(static_cast<const detail::DenseElementsAttrStorage *>(impl)
                        ->type.getImpl());
}
bool DenseElementsAttr::isSplat() const {
  return static_cast<const detail::DenseElementsAttrStorage *>(impl)->splat;
}
ArrayRef<char> DenseElementsAttr::getRawData() const {
  return static_cast<const detail::DenseElementsAttrStorage *>(impl)->data;
}

/// The bits of element `i` as an APInt of `width` bits, honoring splats.
static llvm::APInt readElement(const DenseElementsAttr &attr, int64_t i,
                               unsigned width) {
  unsigned elemSize = getElementByteSize(attr.getElementType());
  const char *data =
      attr.getRawData().data() + (attr.isSplat() ? 0 : i) * elemSize;
  if (width == 1)
    return llvm::APInt(1, *data != 0);
  SmallVector<uint64_t, 2> words((elemSize + 7) / 8, 0);
  std::memcpy(words.data(), data, elemSize);
  return llvm::APInt(width, words);
}

llvm::APInt DenseElementsAttr::getIntValue(int64_t i) const {
  Type elemType = getElementType();
  return readElement(
      *this, i, elemType.isIndex() ? 64 : elemType.getIntOrFloatBitWidth());
}

llvm::APFloat DenseElementsAttr::getFloatValue(int64_t i) const {
  auto ft = cast<FloatType>(getElementType());
  return llvm::APFloat(ft.getFloatSemantics(),
                       readElement(*this, i, ft.getWidth()));
}

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

FileLineColLoc Location::findFileLineCol() const {
  if (!impl)
    return {};
  if (auto f = dyn_cast<FileLineColLoc>(*this))
    return f;
  if (auto n = dyn_cast<NameLoc>(*this))
    return n.getChildLoc().findFileLineCol();
  if (auto c = dyn_cast<CallSiteLoc>(*this))
    return c.getCallee().findFileLineCol();
  if (auto f = dyn_cast<FusedLoc>(*this))
    for (Location l : f.getLocations())
      if (FileLineColLoc found = l.findFileLineCol())
        return found;
  return {};
}

UnknownLoc UnknownLoc::get(Context *ctx) {
  return UnknownLoc(&ctx->getSingletons().unknownLoc);
}

FileLineColLoc FileLineColLoc::get(Context *ctx, StringRef file, unsigned line,
                                   unsigned column) {
  return FileLineColLoc(ctx->unique<detail::FileLineColLocStorage>(
      detail::FileLineColLocStorage::KeyTy(StringAttr::get(ctx, file), line,
                                           column)));
}
StringAttr FileLineColLoc::getFilename() const {
  return static_cast<const detail::FileLineColLocStorage *>(impl)->file;
}
unsigned FileLineColLoc::getLine() const {
  return static_cast<const detail::FileLineColLocStorage *>(impl)->line;
}
unsigned FileLineColLoc::getColumn() const {
  return static_cast<const detail::FileLineColLocStorage *>(impl)->column;
}

NameLoc NameLoc::get(StringAttr name, Location child) {
  Context *ctx = name.getContext();
  if (!child)
    child = UnknownLoc::get(ctx);
  return NameLoc(ctx->unique<detail::NameLocStorage>(
      detail::NameLocStorage::KeyTy(name, child)));
}
StringAttr NameLoc::getName() const {
  return static_cast<const detail::NameLocStorage *>(impl)->name;
}
Location NameLoc::getChildLoc() const {
  return static_cast<const detail::NameLocStorage *>(impl)->child;
}

CallSiteLoc CallSiteLoc::get(Location callee, Location caller) {
  Attribute elems[] = {callee, caller};
  return CallSiteLoc(callee.getContext()->unique<detail::CallSiteLocStorage>(
      detail::CallSiteLocStorage::KeyTy(elems, Attribute())));
}
Location CallSiteLoc::getCallee() const {
  return Location(static_cast<const detail::CallSiteLocStorage *>(impl)
                      ->elements[0]
                      .getImpl());
}
Location CallSiteLoc::getCaller() const {
  return Location(static_cast<const detail::CallSiteLocStorage *>(impl)
                      ->elements[1]
                      .getImpl());
}

Location FusedLoc::get(Context *ctx, ArrayRef<Location> locs,
                       Attribute metadata) {
  SmallVector<Attribute, 4> kept;
  llvm::SmallPtrSet<const void *, 4> seen;
  for (Location l : locs)
    if (!isa<UnknownLoc>(l) && seen.insert(l.getImpl()).second)
      kept.push_back(l);
  if (!metadata) {
    if (kept.empty())
      return UnknownLoc::get(ctx);
    if (kept.size() == 1)
      return Location(kept.front().getImpl());
  }
  return FusedLoc(ctx->unique<detail::FusedLocStorage>(
      detail::FusedLocStorage::KeyTy(kept, metadata)));
}
ArrayRef<Location> FusedLoc::getLocations() const {
  ArrayRef<Attribute> elems =
      static_cast<const detail::FusedLocStorage *>(impl)->elements;
  return {reinterpret_cast<const Location *>(elems.data()), elems.size()};
}
Attribute FusedLoc::getMetadata() const {
  return static_cast<const detail::FusedLocStorage *>(impl)->extra;
}

} // namespace onyx

//===- AttributePrinter.cpp - Writing attributes and locations ------------===//
//
// Attributes as mlir-opt prints them: floats in its formatting (scientific
// with 6 digits where that reads back exactly, else the shortest exact
// decimal, else hex bits), integers by their type's signedness, dense
// elements as nested lists or, when large, a hex string, dictionaries,
// symbol references and locations (`loc(...)`, fused and call-site ones
// included).
//
//===----------------------------------------------------------------------===//
#include "ir/AsmPrinterImpl.h"

#include "ir/AsmPrinter.h"
#include "ir/Dialect.h"
#include "ir/TypeDetail.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace onyx {

using namespace detail;

/// Like MLIR: scientific notation with 6 digits when that reads back to the
/// same value, else the shortest exact decimal, else the bit pattern in hex.
static void printFloatValue(const llvm::APFloat &value, llvm::raw_ostream &os) {
  if (value.isFinite()) {
    llvm::SmallString<32> str;
    value.toString(str, /*FormatPrecision=*/6, /*FormatMaxPadding=*/0,
                   /*TruncateZero=*/false);
    llvm::APFloat reparsed(value.getSemantics());
    auto status =
        reparsed.convertFromString(str, llvm::APFloat::rmNearestTiesToEven);
    if (!status)
      llvm::consumeError(status.takeError());
    else if (reparsed.bitwiseIsEqual(value)) {
      os << str;
      return;
    }
    str.clear();
    value.toString(str);
    if (StringRef(str).contains('.')) {
      os << str;
      return;
    }
  }
  llvm::APInt bits = value.bitcastToAPInt();
  llvm::SmallString<20> hex;
  bits.toString(hex, 16, /*Signed=*/false, /*formatAsCLiteral=*/true);
  // APInt writes a lower-case prefix and upper-case digits: 0x7FC00000.
  os << hex;
}

static void printIntValue(const llvm::APInt &value, Type type,
                          llvm::raw_ostream &os) {
  if (auto it = dyn_cast<IntegerType>(type); it && it.isUnsigned())
    value.print(os, /*isSigned=*/false);
  else
    value.print(os, /*isSigned=*/true);
}

static void printLocationBody(Location loc, llvm::raw_ostream &os) {
  switch (loc.getKind()) {
  case AttrKind::UnknownLoc:
    os << "unknown";
    return;
  case AttrKind::FileLineColLoc: {
    auto f = cast<FileLineColLoc>(loc);
    printQuoted(f.getFilename().getValue(), os);
    os << ':' << f.getLine() << ':' << f.getColumn();
    return;
  }
  case AttrKind::NameLoc: {
    auto n = cast<NameLoc>(loc);
    printQuoted(n.getName().getValue(), os);
    if (!isa<UnknownLoc>(n.getChildLoc())) {
      os << '(';
      printLocationBody(n.getChildLoc(), os);
      os << ')';
    }
    return;
  }
  case AttrKind::CallSiteLoc: {
    auto c = cast<CallSiteLoc>(loc);
    os << "callsite(";
    printLocationBody(c.getCallee(), os);
    os << " at ";
    printLocationBody(c.getCaller(), os);
    os << ')';
    return;
  }
  case AttrKind::FusedLoc: {
    auto f = cast<FusedLoc>(loc);
    os << "fused";
    if (Attribute metadata = f.getMetadata()) {
      os << '<';
      metadata.print(os);
      os << '>';
    }
    os << '[';
    llvm::interleaveComma(f.getLocations(), os,
                          [&](Location l) { printLocationBody(l, os); });
    os << ']';
    return;
  }
  default:
    llvm_unreachable("not a location");
  }
}

/// One element of a dense attribute, without a type.
static void printDenseElement(DenseElementsAttr attr, int64_t i,
                              llvm::raw_ostream &os) {
  Type elemType = attr.getElementType();
  if (isa<FloatType>(elemType)) {
    printFloatValue(attr.getFloatValue(i), os);
    return;
  }
  llvm::APInt value = attr.getIntValue(i);
  if (elemType.isInteger(1))
    os << (value.isZero() ? "false" : "true");
  else
    printIntValue(value, elemType, os);
}

static void printDenseElements(DenseElementsAttr attr, llvm::raw_ostream &os,
                               int64_t hexThreshold) {
  ShapedType type = attr.getType();
  int64_t numElements = type.getNumElements();
  os << "dense<";
  if (numElements == 0) {
    os << '>';
    return;
  }
  if (attr.isSplat()) {
    printDenseElement(attr, 0, os);
    os << '>';
    return;
  }
  if (hexThreshold >= 0 && numElements > hexThreshold) {
    ArrayRef<char> raw = attr.getRawData();
    // MLIR's hex form of i1 packs 8 elements in a byte, the first in the
    // least significant bit.
    SmallVector<char, 0> bits;
    if (attr.getElementType().isInteger(1)) {
      bits.assign((numElements + 7) / 8, 0);
      for (int64_t i = 0; i < numElements; ++i)
        if (raw[i])
          bits[i / 8] |= char(1 << (i % 8));
      raw = bits;
    }
    os << "\"0x"
       << llvm::toHex(StringRef(raw.data(), raw.size()), /*LowerCase=*/false)
       << "\">";
    return;
  }
  // Nested brackets follow the shape: a dimension's bracket opens where the
  // flat index starts a block of that dimension and closes where one ends.
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t, 4> blockSizes(shape.size(), 1);
  int64_t size = 1;
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d)
    blockSizes[d] = size *= shape[d];
  for (int64_t i = 0; i < numElements; ++i) {
    if (i != 0)
      os << ", ";
    for (int64_t block : blockSizes)
      if (i % block == 0)
        os << '[';
    printDenseElement(attr, i, os);
    for (int64_t block : blockSizes)
      if ((i + 1) % block == 0)
        os << ']';
  }
  os << '>';
}

void detail::printAttrDictBody(ArrayRef<NamedAttribute> attrs,
                               llvm::function_ref<bool(StringRef)> shown,
                               llvm::raw_ostream &os, int64_t hexThreshold) {
  bool first = true;
  for (const NamedAttribute &a : attrs) {
    if (!shown(a.getName()))
      continue;
    if (!first)
      os << ", ";
    first = false;
    printKeyword(a.getName(), os);
    if (!isa<UnitAttr>(a.value)) {
      os << " = ";
      printAttributeImpl(a.value, os, TypeElision::Never, hexThreshold);
    }
  }
}

void detail::printAttributeImpl(Attribute attr, llvm::raw_ostream &os,
                                TypeElision elision, int64_t hexThreshold,
                                bool withType) {
  switch (attr.getKind()) {
  case AttrKind::Integer: {
    auto ia = cast<IntegerAttr>(attr);
    Type type = ia.getType();
    if (type.isInteger(1) && cast<IntegerType>(type).isSignless()) {
      os << (ia.getValue().isZero() ? "false" : "true");
      return;
    }
    printIntValue(ia.getValue(), type, os);
    bool elide = elision == TypeElision::May && type.isInteger(64) &&
                 cast<IntegerType>(type).isSignless();
    if (withType && !elide) {
      os << " : ";
      printTypeImpl(type, os);
    }
    return;
  }
  case AttrKind::Float: {
    auto fa = cast<FloatAttr>(attr);
    printFloatValue(fa.getValue(), os);
    if (withType && !(elision == TypeElision::May && fa.getType().isF64())) {
      os << " : ";
      printTypeImpl(fa.getType(), os);
    }
    return;
  }
  case AttrKind::String:
    printQuoted(cast<StringAttr>(attr).getValue(), os);
    return;
  case AttrKind::Unit:
    os << "unit";
    return;
  case AttrKind::Array:
    os << '[';
    llvm::interleaveComma(
        cast<ArrayAttr>(attr).getValue(), os, [&](Attribute a) {
          printAttributeImpl(a, os, TypeElision::May, hexThreshold);
        });
    os << ']';
    return;
  case AttrKind::Dictionary:
    os << '{';
    printAttrDictBody(
        cast<DictionaryAttr>(attr).getValue(), [](StringRef) { return true; },
        os, hexThreshold);
    os << '}';
    return;
  case AttrKind::Type:
    printTypeImpl(cast<TypeAttr>(attr).getValue(), os);
    return;
  case AttrKind::SymbolRef: {
    auto ref = cast<SymbolRefAttr>(attr);
    printSymbol(ref.getRootReference().getValue(), os);
    for (StringAttr nested : ref.getNestedReferences()) {
      os << "::";
      printSymbol(nested.getValue(), os);
    }
    return;
  }
  case AttrKind::DenseElements: {
    auto dense = cast<DenseElementsAttr>(attr);
    printDenseElements(dense, os, hexThreshold);
    if (withType) {
      os << " : ";
      printTypeImpl(dense.getType(), os);
    }
    return;
  }
  case AttrKind::Opaque: {
    auto oa = cast<OpaqueAttr>(attr);
    printDialectSymbol('#', oa.getDialectNamespace(), oa.getBody(), os);
    return;
  }
  case AttrKind::UnknownLoc:
  case AttrKind::FileLineColLoc:
  case AttrKind::NameLoc:
  case AttrKind::CallSiteLoc:
  case AttrKind::FusedLoc:
    os << "loc(";
    printLocationBody(cast<Location>(attr), os);
    os << ')';
    return;
  }
}

void Attribute::print(llvm::raw_ostream &os) const {
  printAttributeImpl(*this, os, TypeElision::Never,
                     OpPrintingFlags().getHexThreshold());
}
void Attribute::dump() const {
  print(llvm::errs());
  llvm::errs() << "\n";
}
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Attribute attr) {
  attr.print(os);
  return os;
}

} // namespace onyx

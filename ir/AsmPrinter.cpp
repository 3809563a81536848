//===- AsmPrinter.cpp - Writing IR text -----------------------------------===//
//
// Prints exactly what mlir-opt prints for the same IR where both support it:
// the same float formatting, string escapes, type elision and SSA numbering,
// so that text moves freely between the two tools.
//
//===----------------------------------------------------------------------===//
#include "ir/AsmPrinter.h"

#include "ir/Dialect.h"
#include "ir/OpAsm.h"
#include "ir/TypeDetail.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace onyx {

//===----------------------------------------------------------------------===//
// Types, attributes and locations
//===----------------------------------------------------------------------===//

namespace {
/// Whether the `: type` of an attribute may be left out where MLIR leaves it
/// out (i64 and f64 inside arrays).
enum class TypeElision { Never, May };
} // namespace

static void printTypeImpl(Type type, llvm::raw_ostream &os);

/// Whether the body of a dialect type or attribute can print in the pretty
/// form `!ns.body`: an identifier, optionally followed by `<...>`. As in
/// MLIR; other bodies print as `!ns<body>`.
static bool isPrettyDialectSymbolBody(StringRef body) {
  if (body.empty() || !llvm::isAlpha(body.front()))
    return false;
  body = body.drop_while(
      [](char c) { return llvm::isAlnum(c) || c == '.' || c == '_'; });
  return body.empty() || (body.front() == '<' && body.back() == '>');
}

/// `!ns.body` or `!ns<body>` (`#` instead of `!` for attributes).
static void printDialectSymbol(char prefix, StringRef ns, StringRef body,
                               llvm::raw_ostream &os) {
  os << prefix << ns;
  if (isPrettyDialectSymbolBody(body))
    os << '.' << body;
  else
    os << '<' << body << '>';
}

static void printDim(int64_t dim, llvm::raw_ostream &os) {
  if (ShapedType::isDynamic(dim))
    os << '?';
  else
    os << dim;
}

static void printTypeImpl(Type type, llvm::raw_ostream &os) {
  switch (type.getKind()) {
  case TypeKind::Integer: {
    auto it = cast<IntegerType>(type);
    if (it.isSigned())
      os << 's';
    else if (it.isUnsigned())
      os << 'u';
    os << 'i' << it.getWidth();
    return;
  }
  case TypeKind::Index:
    os << "index";
    return;
  case TypeKind::Float:
    switch (cast<FloatType>(type).getFloatKind()) {
    case FloatType::F16:
      os << "f16";
      return;
    case FloatType::BF16:
      os << "bf16";
      return;
    case FloatType::F32:
      os << "f32";
      return;
    case FloatType::F64:
      os << "f64";
      return;
    }
    return;
  case TypeKind::None:
    os << "none";
    return;
  case TypeKind::RankedTensor: {
    auto t = cast<RankedTensorType>(type);
    os << "tensor<";
    for (int64_t dim : t.getShape()) {
      printDim(dim, os);
      os << 'x';
    }
    printTypeImpl(t.getElementType(), os);
    os << '>';
    return;
  }
  case TypeKind::UnrankedTensor:
    os << "tensor<*x";
    printTypeImpl(cast<UnrankedTensorType>(type).getElementType(), os);
    os << '>';
    return;
  case TypeKind::Function: {
    auto ft = cast<FunctionType>(type);
    os << '(';
    llvm::interleaveComma(ft.getInputs(), os,
                          [&](Type t) { printTypeImpl(t, os); });
    os << ") -> ";
    ArrayRef<Type> results = ft.getResults();
    if (results.size() == 1 && !isa<FunctionType>(results[0])) {
      printTypeImpl(results[0], os);
    } else {
      os << '(';
      llvm::interleaveComma(results, os, [&](Type t) { printTypeImpl(t, os); });
      os << ')';
    }
    return;
  }
  case TypeKind::Opaque: {
    auto ot = cast<OpaqueType>(type);
    printDialectSymbol('!', ot.getDialectNamespace(), ot.getBody(), os);
    return;
  }
  case TypeKind::Dialect: {
    auto *storage =
        static_cast<const detail::DialectTypeStorage *>(type.getImpl());
    std::string body;
    llvm::raw_string_ostream bodyOS(body);
    storage->dialect->printType(type, bodyOS);
    printDialectSymbol('!', storage->dialect->getNamespace(), body, os);
    return;
  }
  }
}

/// A bare identifier as MLIR lexes one: [a-zA-Z_][a-zA-Z0-9_$.]*.
static bool isBareIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name.drop_front(), [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
  });
}

static void printQuoted(StringRef s, llvm::raw_ostream &os) {
  os << '"';
  llvm::printEscapedString(s, os);
  os << '"';
}

static void printKeyword(StringRef name, llvm::raw_ostream &os) {
  if (isBareIdentifier(name))
    os << name;
  else
    printQuoted(name, os);
}

static void printSymbol(StringRef name, llvm::raw_ostream &os) {
  os << '@';
  printKeyword(name, os);
}

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

static void printAttributeImpl(Attribute attr, llvm::raw_ostream &os,
                               TypeElision elision, int64_t hexThreshold,
                               bool withType = true);

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

static void printAttrDictBody(ArrayRef<NamedAttribute> attrs,
                              ArrayRef<StringRef> elided, llvm::raw_ostream &os,
                              int64_t hexThreshold) {
  bool first = true;
  for (const NamedAttribute &a : attrs) {
    if (llvm::is_contained(elided, a.getName()))
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

static void printAttributeImpl(Attribute attr, llvm::raw_ostream &os,
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
    printAttrDictBody(cast<DictionaryAttr>(attr).getValue(), {}, os,
                      hexThreshold);
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

void Type::print(llvm::raw_ostream &os) const { printTypeImpl(*this, os); }
void Type::dump() const {
  print(llvm::errs());
  llvm::errs() << "\n";
}
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Type type) {
  type.print(os);
  return os;
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

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

OpAsmPrinter::~OpAsmPrinter() = default;

void OpAsmPrinter::printOptionalArrowTypeList(ArrayRef<Type> types) {
  if (types.empty())
    return;
  getStream() << " -> ";
  if (types.size() == 1 && !isa<FunctionType>(types[0])) {
    printType(types[0]);
    return;
  }
  getStream() << '(';
  printTypes(types);
  getStream() << ')';
}

namespace {

/// Names of values and blocks: numbered as mlir-opt numbers them. Each
/// isolated-from-above op starts a new scope; within a scope a region's own
/// values are numbered before those of the regions nested in it.
class SSANames {
public:
  /// Numbers everything inside `root` (and `root`'s results, if any).
  explicit SSANames(Operation *root) {
    if (root)
      numberScope(root, /*numberRootResults=*/true);
  }

  void printValue(Value v, llvm::raw_ostream &os) const {
    auto it = ids.find(v.getImpl());
    if (it == ids.end()) {
      os << "<<UNKNOWN SSA VALUE>>";
      return;
    }
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      os << "%arg" << it->second;
      return;
    }
    os << '%' << it->second;
    // Uses of a result of a multi-result op name the group and the index.
    Operation *owner = cast<OpResult>(v).getOwner();
    if (owner->getNumResults() > 1)
      os << '#' << cast<OpResult>(v).getResultNumber();
  }
  /// The group name of an op's results, for `%N:k = ...`.
  unsigned getResultGroupID(Operation *op) const {
    return ids.lookup(op->getResult(0).getImpl());
  }
  unsigned getBlockID(Block *block) const { return blockIDs.lookup(block); }

private:
  void numberScope(Operation *root, bool numberRootResults) {
    unsigned nextValue = 0, nextArg = 0;
    if (numberRootResults && root->getNumResults())
      ids[root->getResult(0).getImpl()] = nextValue++;
    SmallVector<Region *, 8> worklist;
    auto pushRegions = [&](Operation *op) {
      for (Region &r : llvm::reverse(op->getRegions()))
        worklist.push_back(&r);
    };
    pushRegions(root);
    while (!worklist.empty()) {
      Region *region = worklist.pop_back_val();
      unsigned nextBlock = 0;
      SmallVector<Operation *, 8> nested;
      for (Block &block : *region) {
        blockIDs[&block] = nextBlock++;
        for (BlockArgument arg : block.getArguments())
          ids[arg.getImpl()] = nextArg++;
        for (Operation &op : block) {
          // The whole group shares one number; each result maps to it.
          for (OpResult r : op.getResults())
            ids[r.getImpl()] = nextValue;
          if (op.getNumResults())
            ++nextValue;
          if (op.getNumRegions())
            nested.push_back(&op);
        }
      }
      for (Operation *op : llvm::reverse(nested)) {
        if (op->hasTrait(OpTrait::IsolatedFromAbove))
          numberScope(op, /*numberRootResults=*/false);
        else
          pushRegions(op);
      }
    }
  }

  llvm::DenseMap<const detail::ValueImpl *, unsigned> ids;
  llvm::DenseMap<const Block *, unsigned> blockIDs;
};

class OperationPrinter final : public OpAsmPrinter {
public:
  OperationPrinter(llvm::raw_ostream &os, const OpPrintingFlags &flags,
                   Operation *root)
      : os(os), flags(flags), names(root) {
    defaultDialects.push_back("builtin");
  }

  llvm::raw_ostream &getStream() override { return os; }

  void printOperand(Value value) override { names.printValue(value, os); }

  void printType(Type type) override {
    // Programs repeat few types many times; format each once.
    auto [it, inserted] = typeCache.try_emplace(type.getImpl());
    if (inserted) {
      llvm::raw_string_ostream s(it->second);
      printTypeImpl(type, s);
    }
    os << it->second;
  }

  void printAttribute(Attribute attr) override {
    printAttributeImpl(attr, os, TypeElision::Never, flags.getHexThreshold());
  }
  void printAttributeWithoutType(Attribute attr) override {
    printAttributeImpl(attr, os, TypeElision::Never, flags.getHexThreshold(),
                       /*withType=*/false);
  }

  void printOptionalAttrDict(ArrayRef<NamedAttribute> attrs,
                             ArrayRef<StringRef> elided = {}) override {
    if (llvm::all_of(attrs, [&](const NamedAttribute &a) {
          return llvm::is_contained(elided, a.getName());
        }))
      return;
    os << " {";
    printAttrDictBody(attrs, elided, os, flags.getHexThreshold());
    os << '}';
  }

  void
  printOptionalAttrDictWithKeyword(ArrayRef<NamedAttribute> attrs,
                                   ArrayRef<StringRef> elided = {}) override {
    if (llvm::all_of(attrs, [&](const NamedAttribute &a) {
          return llvm::is_contained(elided, a.getName());
        }))
      return;
    os << " attributes";
    printOptionalAttrDict(attrs, elided);
  }

  void printSymbolName(StringRef name) override { printSymbol(name, os); }

  void printRegionArgument(BlockArgument arg, ArrayRef<NamedAttribute> argAttrs,
                           bool omitType) override {
    printOperand(arg);
    if (!omitType) {
      os << ": ";
      printType(arg.getType());
    }
    printOptionalAttrDict(argAttrs);
    printTrailingLocation(arg.getLoc());
  }

  void printRegion(Region &region, bool printEntryBlockArgs,
                   bool printBlockTerminators, bool printEmptyBlock) override {
    os << "{\n";
    Operation *parent = region.getParentOp();
    StringRef defaultDialect;
    if (parent && parent->isRegistered())
      defaultDialect = parent->getInfo()->defaultDialect;
    defaultDialects.push_back(defaultDialect);
    bool first = true;
    for (Block &block : region) {
      bool printHeader = !first ||
                         (printEntryBlockArgs && !block.args_empty()) ||
                         (printEmptyBlock && block.empty());
      printBlock(block, printHeader, printBlockTerminators, first);
      first = false;
    }
    defaultDialects.pop_back();
    indentBy(indent);
    os << '}';
  }

  void printNewline() override {
    os << '\n';
    indentBy(indent);
  }

  void printTopLevel(Operation *op) {
    printOperation(op);
    os << '\n';
  }

  void printBlockAlone(Block *block) {
    printBlock(*block, /*printHeader=*/true, /*printTerminator=*/true,
               /*isEntry=*/false);
  }

private:
  void indentBy(unsigned n) { os.indent(n); }

  void printTrailingLocation(Location loc) {
    if (!flags.shouldPrintDebugInfo())
      return;
    os << ' ';
    printAttributeImpl(loc, os, TypeElision::Never, flags.getHexThreshold());
  }

  void printBlock(Block &block, bool printHeader, bool printTerminator,
                  bool isEntry) {
    if (printHeader) {
      indentBy(indent);
      os << "^bb" << names.getBlockID(&block);
      if (!block.args_empty()) {
        os << '(';
        llvm::interleaveComma(block.getArguments(), os, [&](BlockArgument a) {
          printRegionArgument(a, {}, false);
        });
        os << ')';
      }
      os << ':';
      // No op here has successors, so no block but the entry is reached.
      if (!isEntry)
        os << "  // no predecessors";
      os << '\n';
    }
    indent += 2;
    for (Operation &op : block) {
      if (!printTerminator && &op == &block.back() &&
          op.hasTrait(OpTrait::Terminator))
        continue;
      indentBy(indent);
      printOperation(&op);
      os << '\n';
    }
    indent -= 2;
  }

  void printResultNames(Operation *op) {
    unsigned n = op->getNumResults();
    if (n == 0)
      return;
    os << '%' << names.getResultGroupID(op);
    if (n > 1)
      os << ':' << n;
    os << " = ";
  }

  void printOperation(Operation *op) {
    printResultNames(op);
    OpInfo *info = op->getInfo();
    if (info->print && !flags.shouldPrintGenericOpForm()) {
      StringRef name = info->getName();
      StringRef defaultDialect = defaultDialects.back();
      if (!defaultDialect.empty() && name.starts_with(defaultDialect) &&
          name.size() > defaultDialect.size() &&
          name[defaultDialect.size()] == '.' && name.count('.') == 1)
        name = name.drop_front(defaultDialect.size() + 1);
      os << name;
      info->print(op, *this);
    } else {
      printGenericOp(op);
    }
    printTrailingLocation(op->getLoc());
  }

  void printGenericOp(Operation *op) {
    // Escaped like any string, so that a name with a quote, a backslash or
    // an unprintable byte reads back the same.
    printQuoted(op->getName().getStringRef(), os);
    os << '(';
    printOperands(op->getOperands());
    os << ')';
    ArrayRef<NamedAttribute> attrs = op->getAttrs();
    ArrayRef<StringRef> props = op->getInfo()->propertyNames;
    if (!props.empty() && llvm::any_of(attrs, [&](const NamedAttribute &a) {
          return llvm::is_contained(props, a.getName());
        })) {
      os << " <{";
      bool first = true;
      for (const NamedAttribute &a : attrs) {
        if (!llvm::is_contained(props, a.getName()))
          continue;
        if (!first)
          os << ", ";
        first = false;
        printKeyword(a.getName(), os);
        if (!isa<UnitAttr>(a.value)) {
          os << " = ";
          printAttribute(a.value);
        }
      }
      os << "}>";
    }
    if (op->getNumRegions()) {
      os << " (";
      defaultDialects.push_back("");
      bool first = true;
      for (Region &region : op->getRegions()) {
        if (!first)
          os << ", ";
        first = false;
        os << "{\n";
        bool entry = true;
        for (Block &block : region) {
          printBlock(block, !entry || !block.args_empty() || block.empty(),
                     /*printTerminator=*/true, entry);
          entry = false;
        }
        indentBy(indent);
        os << '}';
      }
      defaultDialects.pop_back();
      os << ')';
    }
    printOptionalAttrDict(attrs, props);
    os << " : (";
    printTypes(op->getOperands().getTypes());
    os << ") -> ";
    unsigned n = op->getNumResults();
    if (n == 1 && !isa<FunctionType>(op->getResult(0).getType())) {
      printType(op->getResult(0).getType());
    } else {
      os << '(';
      printTypes(op->getResultTypes());
      os << ')';
    }
  }

  llvm::raw_ostream &os;
  OpPrintingFlags flags;
  SSANames names;
  unsigned indent = 0;
  SmallVector<StringRef, 8> defaultDialects;
  llvm::DenseMap<const void *, std::string> typeCache;
};

} // namespace

void Operation::print(llvm::raw_ostream &os) const {
  print(os, OpPrintingFlags());
}

void Operation::print(llvm::raw_ostream &os,
                      const OpPrintingFlags &flags) const {
  auto *op = const_cast<Operation *>(this);
  OperationPrinter printer(os, flags, op);
  printer.printTopLevel(op);
}

void Operation::dump() const {
  print(llvm::errs(), OpPrintingFlags().printGenericOpForm());
}

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Operation &op) {
  op.print(os);
  return os;
}

void Block::print(llvm::raw_ostream &os) const {
  auto *block = const_cast<Block *>(this);
  Operation *root = block->getParentOp();
  OperationPrinter printer(os, OpPrintingFlags(), root ? root : nullptr);
  printer.printBlockAlone(block);
}
void Block::dump() const { print(llvm::errs()); }

void Value::print(llvm::raw_ostream &os) const {
  if (Operation *op = getDefiningOp()) {
    op->print(os);
    return;
  }
  auto arg = cast<BlockArgument>(*this);
  os << "<block argument> of type '" << getType()
     << "' at index: " << arg.getArgNumber();
}
void Value::dump() const {
  print(llvm::errs());
  llvm::errs() << "\n";
}
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Value value) {
  value.print(os);
  return os;
}

} // namespace onyx

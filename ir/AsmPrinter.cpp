//===- AsmPrinter.cpp - Writing IR text -----------------------------------===//
//
// Prints exactly what mlir-opt prints for the same IR where both support it:
// the same float formatting, string escapes, type elision and SSA numbering,
// so that text moves freely between the two tools.
//
// This file holds the spelling of names that all the printers share
// (quoted strings, keywords, symbols, dialect symbols) and operations: SSA
// names numbered as mlir-opt numbers them, custom and generic forms,
// regions and blocks. Types print in TypePrinter.cpp, attributes and
// locations in AttributePrinter.cpp (AsmPrinterImpl.h).
//
//===----------------------------------------------------------------------===//
#include "ir/AsmPrinter.h"
#include "ir/AsmPrinterImpl.h"

#include "ir/Dialect.h"
#include "ir/OpAsm.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace onyx {

using namespace detail;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

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
void detail::printDialectSymbol(char prefix, StringRef ns, StringRef body,
                                llvm::raw_ostream &os) {
  os << prefix << ns;
  if (isPrettyDialectSymbolBody(body))
    os << '.' << body;
  else
    os << '<' << body << '>';
}

/// A bare identifier as MLIR lexes one: [a-zA-Z_][a-zA-Z0-9_$.]*.
static bool isBareIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name.drop_front(), [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
  });
}

void detail::printQuoted(StringRef s, llvm::raw_ostream &os) {
  os << '"';
  llvm::printEscapedString(s, os);
  os << '"';
}

void detail::printKeyword(StringRef name, llvm::raw_ostream &os) {
  if (isBareIdentifier(name))
    os << name;
  else
    printQuoted(name, os);
}

void detail::printSymbol(StringRef name, llvm::raw_ostream &os) {
  os << '@';
  printKeyword(name, os);
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
    printAttrDictBody(
        attrs,
        [&](StringRef name) { return !llvm::is_contained(elided, name); }, os,
        flags.getHexThreshold());
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
      printAttrDictBody(
          attrs,
          [&](StringRef name) { return llvm::is_contained(props, name); }, os,
          flags.getHexThreshold());
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

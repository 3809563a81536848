//===- SymbolDCE.cpp - Erasing unreferenced private functions -------------===//
//
// A private func.func can only be referenced from inside its symbol table,
// so one that nothing live refers to can go. Liveness is computed as
// reachability rather than by counting uses: every op of the table that is
// not a private function is a root, and a symbol is live when a live op
// refers to it. Private functions that only refer to each other (or to
// themselves) are therefore erased together, in one pass over the IR.
//
// References are SymbolRefAttrs anywhere in an op's attributes, including
// inside arrays and dictionaries. A reference resolves in the nearest
// symbol table around the op that holds it; nested symbol tables are
// processed on their own afterwards.
//
//===----------------------------------------------------------------------===//

#include "rewrite/Passes.h"

#include "ir/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"

using namespace onyx;

namespace {

class SymbolDCE : public PassWrapper<SymbolDCE> {
public:
  SymbolDCE()
      : PassWrapper("symbol-dce",
                    "Erase private functions that nothing refers to") {}
  StringRef getName() const override { return "SymbolDCE"; }
  void runOnOperation() override;

private:
  /// Erases the dead private functions directly in `table` and appends the
  /// symbol tables nested in its live ops to `nestedTables`.
  void simplifyTable(Operation *table,
                     SmallVectorImpl<Operation *> &nestedTables);

  PassStatistic numDCE{this, "num-dce'd", "Number of symbols DCE'd"};
};

} // namespace

/// Appends the root names of the symbol references in `attr`.
static void collectReferences(Attribute attr,
                              SmallVectorImpl<StringAttr> &names) {
  if (auto ref = dyn_cast<SymbolRefAttr>(attr)) {
    names.push_back(ref.getRootReference());
  } else if (auto array = dyn_cast<ArrayAttr>(attr)) {
    for (Attribute element : array)
      collectReferences(element, names);
  } else if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    for (const NamedAttribute &entry : dict)
      collectReferences(entry.value, names);
  }
}

static bool isErasable(Operation *op) {
  auto func = dyn_cast<FuncOp>(op);
  return func && func.isPrivate();
}

void SymbolDCE::simplifyTable(Operation *table,
                              SmallVectorImpl<Operation *> &nestedTables) {
  SmallVector<Operation *> children;
  llvm::DenseMap<Attribute, unsigned> childBySymbol;
  for (Region &region : table->getRegions())
    for (Block &block : region)
      for (Operation &child : block) {
        if (auto name = child.getAttrOfType<StringAttr>("sym_name"))
          childBySymbol.try_emplace(name, children.size());
        children.push_back(&child);
      }

  // The names each child refers to. A nested symbol table's own attributes
  // refer to this table, but what is inside it refers to itself.
  std::vector<SmallVector<StringAttr, 2>> references(children.size());
  std::vector<SmallVector<Operation *, 1>> tablesIn(children.size());
  for (unsigned i = 0, e = children.size(); i != e; ++i) {
    children[i]->walk<WalkOrder::PreOrder>([&](Operation *op) {
      collectReferences(op->getAttrDictionary(), references[i]);
      if (!op->hasTrait(OpTrait::SymbolTable))
        return WalkResult::advance();
      tablesIn[i].push_back(op);
      return WalkResult::skip();
    });
  }

  std::vector<bool> live(children.size());
  SmallVector<unsigned> worklist;
  for (unsigned i = 0, e = children.size(); i != e; ++i)
    if (!isErasable(children[i])) {
      live[i] = true;
      worklist.push_back(i);
    }
  while (!worklist.empty()) {
    unsigned i = worklist.pop_back_val();
    for (StringAttr name : references[i]) {
      auto it = childBySymbol.find(name);
      if (it != childBySymbol.end() && !live[it->second]) {
        live[it->second] = true;
        worklist.push_back(it->second);
      }
    }
  }

  for (unsigned i = 0, e = children.size(); i != e; ++i) {
    if (live[i]) {
      nestedTables.append(tablesIn[i].begin(), tablesIn[i].end());
      continue;
    }
    children[i]->erase();
    ++numDCE;
  }
}

void SymbolDCE::runOnOperation() {
  SmallVector<Operation *> tables;
  if (getOperation()->hasTrait(OpTrait::SymbolTable)) {
    tables.push_back(getOperation());
  } else {
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == getOperation() || !op->hasTrait(OpTrait::SymbolTable))
        return WalkResult::advance();
      tables.push_back(op);
      return WalkResult::skip();
    });
  }
  while (!tables.empty()) {
    Operation *table = tables.pop_back_val();
    simplifyTable(table, tables);
  }
}

std::unique_ptr<Pass> onyx::createSymbolDCEPass() {
  return std::make_unique<SymbolDCE>();
}

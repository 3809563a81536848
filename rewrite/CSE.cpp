//===- CSE.cpp - Common subexpression elimination -------------------------===//
//
// Merges pure ops that compute the same values: same name, attributes,
// result types and operands (in any order for commutative ops). An op is
// replaced by an equal op that dominates it. There are no branches between
// blocks, so an op dominates the rest of its block and everything nested
// in it; the known ops therefore form a stack of scopes, one per block,
// walked depth first. An IsolatedFromAbove op starts an empty table, since
// its regions may not use values from outside.
//
// Only pure, registered ops are merged: an unregistered op's effects are
// unknown. Ops with regions are never merged, as telling whether two
// regions compute the same thing would need a structural comparison; their
// regions are still simplified. A pure op found unused on the way is
// erased, as mlir-opt's CSE does, since merging would keep it alive for
// nothing.
//
//===----------------------------------------------------------------------===//

#include "rewrite/Passes.h"

#include "ir/Region.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/ScopedHashTable.h"
#include "llvm/Support/RecyclingAllocator.h"

using namespace onyx;

namespace {

/// Hashes and compares ops by what their results depend on; the location
/// is left out, so ops from different places merge.
struct OpKeyInfo : llvm::DenseMapInfo<Operation *> {
  /// Operands in a canonical order for commutative ops.
  static SmallVector<detail::ValueImpl *, 4>
  getOperandKey(const Operation *op) {
    SmallVector<detail::ValueImpl *, 4> operands;
    for (Value operand : op->getOperands())
      operands.push_back(operand.getImpl());
    if (op->hasTrait(OpTrait::Commutative))
      llvm::sort(operands);
    return operands;
  }

  static unsigned getHashValue(const Operation *op) {
    llvm::hash_code hash = llvm::hash_combine(
        op->getInfo(), op->getAttrDictionary().getImpl(), op->getNumResults());
    for (Value result : op->getResults())
      hash = llvm::hash_combine(hash, result.getType().getImpl());
    SmallVector<detail::ValueImpl *, 4> operands = getOperandKey(op);
    return llvm::hash_combine(
        hash, llvm::hash_combine_range(operands.begin(), operands.end()));
  }

  static bool isEqual(const Operation *lhs, const Operation *rhs) {
    if (lhs == rhs)
      return true;
    if (lhs == getEmptyKey() || lhs == getTombstoneKey() ||
        rhs == getEmptyKey() || rhs == getTombstoneKey())
      return false;
    if (lhs->getInfo() != rhs->getInfo() ||
        lhs->getAttrDictionary() != rhs->getAttrDictionary() ||
        lhs->getNumResults() != rhs->getNumResults() ||
        lhs->getNumOperands() != rhs->getNumOperands())
      return false;
    for (unsigned i = 0, e = lhs->getNumResults(); i != e; ++i)
      if (lhs->getResult(i).getType() != rhs->getResult(i).getType())
        return false;
    if (!lhs->hasTrait(OpTrait::Commutative))
      return llvm::equal(lhs->getOperands(), rhs->getOperands());
    return getOperandKey(lhs) == getOperandKey(rhs);
  }
};

using KnownOps = llvm::ScopedHashTable<
    Operation *, Operation *, OpKeyInfo,
    llvm::RecyclingAllocator<
        llvm::BumpPtrAllocator,
        llvm::ScopedHashTableVal<Operation *, Operation *>>>;

/// A block being walked, or an empty table owned for the blocks above it on
/// the stack (those of an isolated op).
struct Frame {
  std::unique_ptr<KnownOps> ownedTable;
  KnownOps *table = nullptr;
  Block *block = nullptr;
  Block::iterator next;
  /// Created when the block is first walked, so that scopes open and close
  /// in stack order.
  std::unique_ptr<KnownOps::ScopeTy> scope;
};

class CSE : public Pass {
public:
  StringRef getArgument() const override { return "cse"; }
  StringRef getDescription() const override {
    return "Eliminate common sub-expressions";
  }
  StringRef getName() const override { return "CSE"; }
  std::unique_ptr<Pass> clone() const override {
    return std::make_unique<CSE>();
  }
  void runOnOperation() override;

private:
  /// Pushes the blocks of `op`'s regions, first block on top. `table` is
  /// the table of the enclosing block, or null for a new one.
  void pushRegions(Operation *op, KnownOps *table);
  void simplify(Operation &op, KnownOps &table);

  std::vector<Frame> stack;
  PassStatistic numCSE{this, "num-cse'd", "Number of operations CSE'd"};
  PassStatistic numDCE{this, "num-dce'd", "Number of operations DCE'd"};
};

} // namespace

void CSE::pushRegions(Operation *op, KnownOps *table) {
  if (!table) {
    Frame owner;
    owner.ownedTable = std::make_unique<KnownOps>();
    table = owner.ownedTable.get();
    stack.push_back(std::move(owner));
  }
  MutableArrayRef<Region> regions = op->getRegions();
  for (Region &region : llvm::reverse(regions))
    for (Block &block : llvm::reverse(region)) {
      Frame frame;
      frame.table = table;
      frame.block = &block;
      frame.next = block.begin();
      stack.push_back(std::move(frame));
    }
}

void CSE::simplify(Operation &op, KnownOps &table) {
  // Terminators say where control goes, so two equal ones are not
  // interchangeable; ops without results have nothing to merge.
  if (!op.hasTrait(OpTrait::Pure) || op.hasTrait(OpTrait::Terminator) ||
      op.getNumResults() == 0)
    return;
  if (op.use_empty()) {
    op.erase();
    ++numDCE;
    return;
  }
  if (Operation *existing = table.lookup(&op)) {
    op.replaceAllUsesWith(existing);
    op.erase();
    ++numCSE;
    return;
  }
  table.insert(&op, &op);
}

void CSE::runOnOperation() {
  // The anchor is not merged with anything, so its regions start afresh.
  pushRegions(getOperation(), nullptr);
  while (!stack.empty()) {
    Frame &frame = stack.back();
    if (!frame.block || frame.next == frame.block->end()) {
      stack.pop_back();
      continue;
    }
    if (!frame.scope)
      frame.scope = std::make_unique<KnownOps::ScopeTy>(*frame.table);
    Operation &op = *frame.next++;
    if (op.getNumRegions() == 0) {
      simplify(op, *frame.table);
      continue;
    }
    pushRegions(&op, op.hasTrait(OpTrait::IsolatedFromAbove) ? nullptr
                                                             : frame.table);
  }
}

std::unique_ptr<Pass> onyx::createCSEPass() { return std::make_unique<CSE>(); }

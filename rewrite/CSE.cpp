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

#include "llvm/ADT/DenseSet.h"

#include <optional>

using namespace onyx;

/// Operands in a canonical order for commutative ops.
static SmallVector<detail::ValueImpl *, 4> getOperandKey(const Operation *op) {
  SmallVector<detail::ValueImpl *, 4> operands;
  for (Value operand : op->getOperands())
    operands.push_back(operand.getImpl());
  if (op->hasTrait(OpTrait::Commutative))
    llvm::sort(operands);
  return operands;
}

static unsigned hashPointer(const void *pointer) {
  return llvm::DenseMapInfo<const void *>::getHashValue(pointer);
}

/// Hashes what `op`'s results depend on; the location is left out, so ops
/// from different places merge. Cheap mixing rather than llvm::hash_combine:
/// this runs once per op, and equal hashes are confirmed by a full compare.
static unsigned computeHash(const Operation *op) {
  using llvm::detail::combineHashValue;
  unsigned hash =
      combineHashValue(hashPointer(op->getInfo()),
                       hashPointer(op->getAttrDictionary().getImpl()));
  for (Value result : op->getResults())
    hash = combineHashValue(hash, hashPointer(result.getType().getImpl()));
  if (op->hasTrait(OpTrait::Commutative)) {
    // A sum does not depend on the order of the operands.
    unsigned sum = 0;
    for (Value operand : op->getOperands())
      sum += hashPointer(operand.getImpl());
    return combineHashValue(hash, sum);
  }
  for (Value operand : op->getOperands())
    hash = combineHashValue(hash, hashPointer(operand.getImpl()));
  return hash;
}

static bool computeTheSame(const Operation *lhs, const Operation *rhs) {
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

namespace {

/// A known op and the hash of what it computes, kept so that growing the
/// table does not recompute hashes and most mismatches cost one compare.
struct OpKey {
  Operation *op;
  unsigned hash;
};

struct OpKeyInfo {
  static OpKey getEmptyKey() {
    return {llvm::DenseMapInfo<Operation *>::getEmptyKey(), 0};
  }
  static OpKey getTombstoneKey() {
    return {llvm::DenseMapInfo<Operation *>::getTombstoneKey(), 0};
  }
  static unsigned getHashValue(const OpKey &key) { return key.hash; }
  static bool isEqual(const OpKey &lhs, const OpKey &rhs) {
    if (lhs.op == rhs.op)
      return true;
    if (lhs.hash != rhs.hash)
      return false;
    auto isSpecial = [](Operation *op) {
      return op == getEmptyKey().op || op == getTombstoneKey().op;
    };
    return !isSpecial(lhs.op) && !isSpecial(rhs.op) &&
           computeTheSame(lhs.op, rhs.op);
  }
};

/// The ops known where the walk is. A second op equal to a known one is
/// merged rather than added, so each key is present once and nested scopes
/// need no shadowing: leaving a scope erases what it added.
class KnownOps {
public:
  /// Returns the known op equal to `op`, or adds `op` and returns null; one
  /// probe of the table either way.
  Operation *lookupOrInsert(Operation *op) {
    auto [it, inserted] = set.insert({op, computeHash(op)});
    if (!inserted)
      return it->op;
    added.push_back(*it);
    return nullptr;
  }
  /// Where the scope being opened starts.
  size_t getMark() const { return added.size(); }
  /// Forgets the ops added since `mark`.
  void eraseSince(size_t mark) {
    for (size_t i = added.size(); i != mark; --i)
      set.erase(added[i - 1]);
    added.resize(mark);
  }

private:
  llvm::DenseSet<OpKey, OpKeyInfo> set;
  std::vector<OpKey> added;
};

/// A block being walked, or the table of an isolated op, owned below the
/// frames of its blocks on the stack.
struct Frame {
  std::unique_ptr<KnownOps> ownedTable;
  KnownOps *table = nullptr;
  Block *block = nullptr;
  Block::iterator next;
  /// Taken when the block is first walked, after its earlier siblings have
  /// been walked and forgotten.
  std::optional<size_t> mark;
};

class CSE : public PassWrapper<CSE> {
public:
  CSE() : PassWrapper("cse", "Eliminate common sub-expressions") {}
  StringRef getName() const override { return "CSE"; }
  void runOnOperation() override;

private:
  /// Pushes the blocks of `op`'s regions, first block on top. `table` is
  /// the table of the enclosing block, or null for a new one.
  void pushRegions(Operation *op, KnownOps *table);
  void popFrame();
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

void CSE::popFrame() {
  Frame &frame = stack.back();
  // A table about to be dropped (its owner is next) needs no cleaning.
  bool tableDiesNext = stack.size() >= 2 &&
                       stack[stack.size() - 2].ownedTable.get() == frame.table;
  if (frame.block && frame.mark && !tableDiesNext)
    frame.table->eraseSince(*frame.mark);
  stack.pop_back();
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
  if (Operation *existing = table.lookupOrInsert(&op)) {
    op.replaceAllUsesWith(existing);
    op.erase();
    ++numCSE;
  }
}

void CSE::runOnOperation() {
  // The anchor is not merged with anything, so its regions start afresh.
  pushRegions(getOperation(), nullptr);
  while (!stack.empty()) {
    Frame &frame = stack.back();
    if (!frame.block || frame.next == frame.block->end()) {
      popFrame();
      continue;
    }
    if (!frame.mark)
      frame.mark = frame.table->getMark();
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

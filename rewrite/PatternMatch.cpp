//===- PatternMatch.cpp - Rewrite patterns and the rewriter ---------------===//
//
// The PatternRewriter applies each IR change and then tells its listener,
// so that a driver can keep its worklist exact without rescanning the IR.
// FrozenPatternSet turns the collected patterns into one benefit-ordered
// list per root op name.
//
//===----------------------------------------------------------------------===//

#include "rewrite/PatternMatch.h"

#include "ir/Dialect.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>

using namespace onyx;

//===----------------------------------------------------------------------===//
// RewritePattern
//===----------------------------------------------------------------------===//

RewritePattern::~RewritePattern() = default;

RewritePattern::RewritePattern(StringRef rootName, unsigned benefit,
                               Context *ctx)
    : rootKind(OperationName(rootName, ctx)), benefit(benefit) {}

RewritePattern::RewritePattern(MatchAnyOpTypeTag, unsigned benefit, Context *)
    : benefit(benefit) {}

//===----------------------------------------------------------------------===//
// PatternRewriter
//===----------------------------------------------------------------------===//

/// Whether `value` is defined in a region of `op` (by a nested op or as an
/// argument of a nested block).
static bool isDefinedInside(Value value, Operation *op) {
  for (Block *block = value.getParentBlock(); block;) {
    Operation *parent = block->getParentOp();
    if (parent == op)
      return true;
    block = parent ? parent->getBlock() : nullptr;
  }
  return false;
}

/// Whether `value` is defined in `block` or in a region nested in it.
static bool isDefinedInBlock(Value value, Block *container) {
  for (Block *block = value.getParentBlock(); block;) {
    if (block == container)
      return true;
    Operation *parent = block->getParentOp();
    block = parent ? parent->getBlock() : nullptr;
  }
  return false;
}

/// Drops (sets to null) the operands of `op` and of its nested ops that
/// `isInternal` accepts. Erasing a piece of IR first drops its internal
/// references, so that what remains are uses of outside values: a listener
/// that looks at the operands of an erased op then only ever sees live
/// producers, whatever order the ops are erased in.
static void dropReferences(Operation &op,
                           llvm::function_ref<bool(Value)> isInternal) {
  op.walk([&](Operation *nested) {
    for (OpOperand &operand : nested->getOpOperands())
      if (operand.get() && isInternal(operand.get()))
        operand.drop();
  });
}

/// Notifies `listener` of the erasure of every op nested in `block` and
/// then of the ops themselves: ops after their nested ops, later ops of a
/// block before earlier ones (users before producers).
static void notifyErasedInBlock(Block &block,
                                PatternRewriter::Listener *listener);

static void notifyErasedTree(Operation *op,
                             PatternRewriter::Listener *listener) {
  for (Region &region : llvm::reverse(op->getRegions()))
    for (Block &block : llvm::reverse(region))
      notifyErasedInBlock(block, listener);
  listener->notifyOperationErased(op);
}

static void notifyErasedInBlock(Block &block,
                                PatternRewriter::Listener *listener) {
  for (Operation &op : llvm::reverse(block))
    notifyErasedTree(&op, listener);
}

void PatternRewriter::replaceOp(Operation *op, ValueRange newValues) {
  if (newValues.size() != op->getNumResults())
    llvm::report_fatal_error(llvm::Twine("PatternRewriter::replaceOp: '") +
                             op->getName().getStringRef() + "' has " +
                             llvm::Twine(op->getNumResults()) +
                             " results but got " +
                             llvm::Twine(newValues.size()) + " values");
  if (Listener *l = getRewriteListener())
    l->notifyOperationReplaced(op, newValues);
  for (unsigned i = 0, e = op->getNumResults(); i != e; ++i)
    replaceAllUsesWith(op->getResult(i), newValues[i]);
  eraseOp(op);
}

void PatternRewriter::eraseOp(Operation *op) {
  if (!op->use_empty())
    llvm::report_fatal_error(llvm::Twine("PatternRewriter::eraseOp: '") +
                             op->getName().getStringRef() +
                             "' still has uses; a pattern must replace them "
                             "before erasing the op");
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block)
        dropReferences(nested, [&](Value v) { return isDefinedInside(v, op); });
  if (Listener *l = getRewriteListener())
    notifyErasedTree(op, l);
  op->erase();
}

void PatternRewriter::eraseBlock(Block *block) {
  // Values of the block may be used by its own ops (and ops nested in
  // them); any other use means the block is still needed.
  for (Operation &op : *block)
    dropReferences(op, [&](Value v) { return isDefinedInBlock(v, block); });
  for (BlockArgument arg : block->getArguments())
    if (!arg.use_empty())
      llvm::report_fatal_error("PatternRewriter::eraseBlock: a block argument "
                               "is still used outside the block");
  for (Operation &op : *block)
    if (!op.use_empty())
      llvm::report_fatal_error(llvm::Twine("PatternRewriter::eraseBlock: '") +
                               op.getName().getStringRef() +
                               "' is still used outside the block");
  if (Listener *l = getRewriteListener())
    notifyErasedInBlock(*block, l);
  if (block->getParent())
    block->erase();
  else
    delete block;
}

void PatternRewriter::replaceAllUsesWith(Value from, Value to) {
  replaceUsesWithIf(from, to, [](OpOperand &) { return true; });
}

void PatternRewriter::replaceUsesWithIf(
    Value from, Value to, llvm::function_ref<bool(OpOperand &)> functor) {
  Listener *l = getRewriteListener();
  for (OpOperand &use : llvm::make_early_inc_range(from.getUses())) {
    if (!functor(use))
      continue;
    use.set(to);
    if (l)
      l->notifyOperationModified(use.getOwner());
  }
}

void PatternRewriter::modifyOpInPlace(Operation *op,
                                      llvm::function_ref<void()> callback) {
  callback();
  if (Listener *l = getRewriteListener())
    l->notifyOperationModified(op);
}

void PatternRewriter::inlineBlockBefore(Block *source, Block *dest,
                                        Block::iterator before,
                                        ValueRange argValues) {
  if (argValues.size() != source->getNumArguments())
    llvm::report_fatal_error(
        "PatternRewriter::inlineBlockBefore: expected one value per block "
        "argument");
  for (unsigned i = 0, e = argValues.size(); i != e; ++i)
    replaceAllUsesWith(source->getArgument(i), argValues[i]);
  // Remember the moved range: `source` is empty after the splice.
  Operation *first = source->empty() ? nullptr : &source->front();
  dest->getOperations().splice(before, source->getOperations());
  if (Listener *l = getRewriteListener())
    for (Block::iterator it = first ? Block::iterator(first) : before;
         it != before; ++it)
      l->notifyOperationInserted(&*it);
  if (source->getParent())
    source->erase();
  else
    delete source;
}

void PatternRewriter::moveOpBefore(Operation *op, Operation *existingOp) {
  op->moveBefore(existingOp);
  if (Listener *l = getRewriteListener())
    l->notifyOperationInserted(op);
}

LogicalResult PatternRewriter::notifyMatchFailure(Location loc,
                                                  const llvm::Twine &reason) {
  if (Listener *l = getRewriteListener())
    l->notifyMatchFailure(loc, reason);
  return failure();
}

//===----------------------------------------------------------------------===//
// FrozenPatternSet
//===----------------------------------------------------------------------===//

FrozenPatternSet::FrozenPatternSet(PatternSet &&patterns)
    : owned(patterns.takePatterns()) {
  // Equal benefits keep the order in which the patterns were added, across
  // root-specific and any-op patterns alike, so runs are deterministic.
  llvm::DenseMap<const RewritePattern *, size_t> position;
  for (size_t i = 0, e = owned.size(); i != e; ++i)
    position[owned[i].get()] = i;
  auto byBenefit = [&](const RewritePattern *a, const RewritePattern *b) {
    if (a->getBenefit() != b->getBenefit())
      return a->getBenefit() > b->getBenefit();
    return position[a] < position[b];
  };

  for (const std::unique_ptr<RewritePattern> &pattern : owned) {
    if (std::optional<OperationName> root = pattern->getRootKind())
      byRoot[root->getInfo()].push_back(pattern.get());
    else
      anyOp.push_back(pattern.get());
  }
  llvm::sort(anyOp, byBenefit);
  for (auto &entry : byRoot) {
    SmallVector<const RewritePattern *, 4> &list = entry.second;
    SmallVector<const RewritePattern *, 4> merged;
    merged.reserve(list.size() + anyOp.size());
    llvm::sort(list, byBenefit);
    std::merge(list.begin(), list.end(), anyOp.begin(), anyOp.end(),
               std::back_inserter(merged), byBenefit);
    list = std::move(merged);
  }
}

ArrayRef<const RewritePattern *>
FrozenPatternSet::getPatterns(OperationName name) const {
  auto it = byRoot.find(name.getInfo());
  if (it == byRoot.end())
    return anyOp;
  return it->second;
}

void onyx::collectCanonicalizationPatterns(Context *ctx, PatternSet &patterns) {
  for (OpInfo *info : ctx->getRegisteredOperations())
    if (info->getCanonicalizationPatterns)
      info->getCanonicalizationPatterns(patterns, ctx);
}

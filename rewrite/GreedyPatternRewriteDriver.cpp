//===- GreedyPatternRewriteDriver.cpp - Patterns to a fixpoint ------------===//
//
// One iteration seeds a worklist with every op under the root and drains
// it; iterations repeat until one changes nothing. Seeding in post-order
// and popping from the back visits the last op of a block first (users
// before producers, so a dead chain dies in one sweep); top-down seeds in
// reverse pre-order so that ops are popped in program order.
//
// Everything the driver remembers about an op lives in one record (queued
// or not, version, cached failures) in a vector; the worklist holds record
// indices, so visiting an op needs no hash lookup and each IR change costs
// a few, and a run stays linear in the size of the IR. An op's version
// moves whenever it, its operands, the producers of its operands or the
// users of its results change; a pattern that failed on an op is not tried
// again until the version moves. A record is retired (never reused) when
// the rewriter announces the erasure of its op, before the memory can be
// reused by a new op.
//
// Constants produced by folding are materialized once per (dialect, value,
// type) in each isolated region, at the start of its entry block, in
// creation order.
//
//===----------------------------------------------------------------------===//

#include "rewrite/GreedyPatternRewriteDriver.h"

#include "ir/Dialect.h"
#include "ir/Verifier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <tuple>
#include <typeinfo>

using namespace onyx;

namespace {

/// The op defining `value`; null for block arguments and for the operands
/// that erasing a piece of IR has already dropped.
Operation *getProducer(Value value) {
  return value ? value.getDefiningOp() : nullptr;
}

/// The constant-valued attribute of a ConstantLike op, or null if `op` is
/// not a constant the folder can use.
Attribute getConstantValue(Operation *op) {
  if (!op->hasTrait(OpTrait::ConstantLike) || op->getNumResults() != 1)
    return {};
  return op->getAttr("value");
}

/// The name a pattern is reported by: its debug name, else its C++ class.
std::string getPatternName(const RewritePattern &pattern) {
  if (!pattern.getDebugName().empty())
    return pattern.getDebugName().str();
  return llvm::demangle(typeid(pattern).name());
}

//===----------------------------------------------------------------------===//
// Constants of folding: one per value and scope, hoisted
//===----------------------------------------------------------------------===//

class ConstantTable {
public:
  explicit ConstantTable(Operation *root) : root(root) {}

  /// The region whose entry block holds the constants used in `block`: the
  /// closest one that is isolated from above or belongs to the root.
  Region *getScope(Block *block) const {
    Region *region = block->getParent();
    for (;;) {
      Operation *parent = region->getParentOp();
      if (parent == root || parent->hasTrait(OpTrait::IsolatedFromAbove))
        return region;
      region = parent->getParentRegion();
    }
  }

  bool isOwned(Operation *op) const { return keys.count(op); }

  /// Makes existing constant `op` the constant of its value in its scope
  /// and moves it to the scope's constants; sets `moved` if it had to move.
  /// If the scope already has that constant, returns it instead and leaves
  /// `op` alone (the caller replaces it).
  Operation *adopt(Operation *op, bool &moved) {
    Region *scope = getScope(op->getBlock());
    Key key(scope, op->getDialect(), getConstantValue(op),
            op->getResult(0).getType());
    auto [it, inserted] = constants.try_emplace(key, op);
    if (!inserted)
      return it->second;
    keys[op] = key;
    Block *entry = &scope->front();
    Block::iterator pos = getInsertionPoint(scope);
    moved = pos == entry->end() || &*pos != op;
    if (moved)
      op->moveBefore(entry, pos);
    lastInScope[scope] = op;
    return nullptr;
  }

  /// The constant of `value` in `scope`, created through `dialect` if there
  /// is none yet (`created` tells); null if the dialect cannot.
  Operation *getOrCreate(PatternRewriter &rewriter, Region *scope,
                         Dialect *dialect, Attribute value, Type type,
                         Location loc, bool &created) {
    Key key(scope, dialect, value, type);
    created = false;
    if (Operation *existing = constants.lookup(key))
      return existing;
    if (!dialect)
      return nullptr;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(&scope->front(), getInsertionPoint(scope));
    Operation *op = dialect->materializeConstant(rewriter, value, type, loc);
    if (!op)
      return nullptr;
    created = true;
    constants[key] = op;
    keys[op] = key;
    lastInScope[std::get<0>(key)] = op;
    return op;
  }

  /// Forgets `op`, which is about to be erased.
  void notifyErased(Operation *op) {
    auto it = keys.find(op);
    if (it == keys.end())
      return;
    Region *scope = std::get<0>(it->second);
    constants.erase(it->second);
    keys.erase(it);
    auto last = lastInScope.find(scope);
    if (last != lastInScope.end() && last->second == op) {
      // Constants before it in the block are still in creation order.
      Operation *prev = op->getPrevNode();
      last->second = prev && isOwned(prev) ? prev : nullptr;
    }
  }

  /// `op` was moved by a pattern. If it was the last of its scope's
  /// constants, new constants go to the start of the entry block instead
  /// of after it, wherever it went, so that they still dominate every use.
  void notifyMoved(Operation *op) {
    auto it = keys.find(op);
    if (it == keys.end())
      return;
    auto last = lastInScope.find(std::get<0>(it->second));
    if (last != lastInScope.end() && last->second == op)
      last->second = nullptr;
  }

private:
  using Key = std::tuple<Region *, Dialect *, Attribute, Type>;

  Block::iterator getInsertionPoint(Region *scope) {
    Operation *last = lastInScope.lookup(scope);
    return last ? std::next(Block::iterator(last)) : scope->front().begin();
  }

  Operation *root;
  llvm::DenseMap<Key, Operation *> constants;
  llvm::DenseMap<Operation *, Key> keys;
  /// The last constant placed in each scope; the next one goes after it.
  llvm::DenseMap<Region *, Operation *> lastInScope;
};

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

constexpr uint32_t kNoVersion = ~0u;

/// What the driver knows about one op.
struct OpRecord {
  explicit OpRecord(Operation *op) : op(op) {}
  /// Null once the op is erased; the record is never reused, so worklist
  /// entries that still name it are simply skipped.
  Operation *op;
  bool queued = false;
  bool foldFailed = false;
  uint32_t version = 0;
  /// The version at which the failures below were seen.
  uint32_t cachedVersion = kNoVersion;
  /// How many of the op's patterns, in order, failed at cachedVersion.
  uint32_t numFailedPatterns = 0;
};

class GreedyDriver final : public PatternRewriter::Listener {
public:
  GreedyDriver(Operation *root, const FrozenPatternSet &patterns,
               const GreedyRewriteConfig &config, GreedyRewriteResult &result)
      : root(root), patterns(patterns), config(config), result(result),
        rewriter(root->getContext(), this), constants(root) {}

  LogicalResult run();

  void notifyOperationInserted(Operation *op) override;
  void notifyOperationModified(Operation *op) override;
  void notifyOperationReplaced(Operation *op, ValueRange) override;
  void notifyOperationErased(Operation *op) override;

private:
  void seed();
  /// The index of `op`'s record, created on first use.
  uint32_t getId(Operation *op);
  void push(uint32_t id);
  void pushReversePreOrder(Region &region);
  void clearWorklist();
  /// Queues `op` and its ancestors below the root (whose patterns may
  /// depend on their bodies) and moves their versions; ops outside the
  /// root are ignored.
  void enqueue(Operation *op);
  /// Moves the version of `op` without queueing it.
  void invalidate(Operation *op);
  void resetCacheIfStale(OpRecord &record);

  void processWorklist();
  void processOp(uint32_t id);
  bool isTriviallyDead(Operation *op);
  /// Registers a constant the folder has not seen; returns true if it was
  /// replaced by an equal one.
  bool adoptConstant(Operation *op);
  bool tryFold(uint32_t id);
  void applyPatterns(uint32_t id);
  bool simplifyRegions();

  bool rewriteLimitReached() const {
    return int64_t(result.numRewrites + result.numFolds) >= rewriteBound;
  }
  /// Whether the ops seen so far (records are never reused, so this counts
  /// every op created) passed the growth bound.
  bool growthLimitReached() const {
    return int64_t(records.size()) > createdOpsBound;
  }
  void setBounds();
  /// Appends the patterns and folds that were applied most.
  void describeMostApplied(InFlightDiagnostic &diag) const;
  /// Checks a pattern's claim against the IR; false after reporting a lie
  /// or invalid IR.
  bool checkPattern(const RewritePattern &pattern, LogicalResult outcome,
                    llvm::hash_code before, Location loc);
  llvm::hash_code fingerprint();
  void trace(StringRef what, OperationName name, Location loc);

  Operation *root;
  const FrozenPatternSet &patterns;
  const GreedyRewriteConfig &config;
  GreedyRewriteResult &result;
  PatternRewriter rewriter;
  ConstantTable constants;

  /// Records live in a vector so that the worklist holds indices and most
  /// steps need no hash lookup; the map finds an op's record.
  std::vector<OpRecord> records;
  llvm::DenseMap<Operation *, uint32_t> recordIds;
  std::vector<uint32_t> worklist;
  /// While seeding, every op gets queued by the walk itself; notifications
  /// then only move versions so that the walk decides the order.
  bool seeding = false;
  /// Whether the current iteration changed the IR.
  bool changed = false;
  bool limitReached = false;
  bool checkFailed = false;

  /// The bounds of this run (setBounds) and the ops at its start.
  int64_t rewriteBound = 0;
  int64_t createdOpsBound = 0;
  int64_t initialOps = 0;
  /// How often each pattern succeeded and each op kind was folded, to name
  /// the culprits when a bound is hit.
  llvm::DenseMap<const RewritePattern *, uint64_t> patternCounts;
  llvm::DenseMap<OpInfo *, uint64_t> foldCounts;
};

} // namespace

//===----------------------------------------------------------------------===//
// Worklist and records
//===----------------------------------------------------------------------===//

uint32_t GreedyDriver::getId(Operation *op) {
  auto [it, inserted] = recordIds.try_emplace(op, records.size());
  if (inserted)
    records.emplace_back(op);
  return it->second;
}

void GreedyDriver::push(uint32_t id) {
  OpRecord &record = records[id];
  if (record.queued)
    return;
  record.queued = true;
  worklist.push_back(id);
}

void GreedyDriver::pushReversePreOrder(Region &region) {
  for (Block &block : llvm::reverse(region))
    for (Operation &op : llvm::reverse(block)) {
      for (Region &nested : llvm::reverse(op.getRegions()))
        pushReversePreOrder(nested);
      push(getId(&op));
    }
}

void GreedyDriver::clearWorklist() {
  for (uint32_t id : worklist)
    records[id].queued = false;
  worklist.clear();
}

void GreedyDriver::enqueue(Operation *op) {
  SmallVector<Operation *, 8> chain;
  for (Operation *cur = op; cur != root; cur = cur->getParentOp()) {
    if (!cur)
      return;
    chain.push_back(cur);
  }
  for (Operation *cur : chain) {
    uint32_t id = getId(cur);
    ++records[id].version;
    if (!seeding)
      push(id);
  }
}

void GreedyDriver::invalidate(Operation *op) {
  auto it = recordIds.find(op);
  if (it != recordIds.end())
    ++records[it->second].version;
}

void GreedyDriver::resetCacheIfStale(OpRecord &record) {
  if (record.cachedVersion == record.version)
    return;
  record.cachedVersion = record.version;
  record.numFailedPatterns = 0;
  record.foldFailed = false;
}

void GreedyDriver::seed() {
  clearWorklist();
  // Constants first, in program order, so that hoisting keeps their order
  // and every fold of this iteration finds them.
  if (config.enableFolding) {
    seeding = true;
    for (Region &region : root->getRegions())
      region.walk([&](Operation *op) {
        if (getConstantValue(op) && !constants.isOwned(op))
          adoptConstant(op);
      });
    seeding = false;
  }
  if (config.useTopDownTraversal) {
    for (Region &region : llvm::reverse(root->getRegions()))
      pushReversePreOrder(region);
  } else {
    for (Region &region : root->getRegions())
      region.walk([&](Operation *op) { push(getId(op)); });
  }
}

//===----------------------------------------------------------------------===//
// Listening to the rewriter
//===----------------------------------------------------------------------===//

void GreedyDriver::notifyOperationInserted(Operation *op) {
  changed = true;
  constants.notifyMoved(op);
  enqueue(op);
  for (Value operand : op->getOperands())
    if (Operation *producer = getProducer(operand))
      invalidate(producer);
}

void GreedyDriver::notifyOperationModified(Operation *op) {
  changed = true;
  enqueue(op);
  for (Value operand : op->getOperands())
    if (Operation *producer = getProducer(operand))
      invalidate(producer);
  for (OpResult value : op->getResults())
    for (Operation *user : value.getUsers())
      invalidate(user);
}

void GreedyDriver::notifyOperationReplaced(Operation *op, ValueRange) {
  changed = true;
  for (OpResult value : op->getResults())
    for (Operation *user : value.getUsers())
      enqueue(user);
}

void GreedyDriver::notifyOperationErased(Operation *op) {
  changed = true;
  constants.notifyErased(op);
  // Producers may have lost their last use, and the parent its last op
  // with side effects.
  for (Value operand : op->getOperands())
    if (Operation *producer = getProducer(operand))
      enqueue(producer);
  if (Operation *parent = op->getParentOp())
    enqueue(parent);
  auto it = recordIds.find(op);
  if (it == recordIds.end())
    return;
  OpRecord &record = records[it->second];
  record.op = nullptr;
  record.queued = false;
  recordIds.erase(it);
}

//===----------------------------------------------------------------------===//
// Processing one op
//===----------------------------------------------------------------------===//

void GreedyDriver::processWorklist() {
  while (!worklist.empty()) {
    uint32_t id = worklist.back();
    worklist.pop_back();
    OpRecord &record = records[id];
    if (!record.op)
      continue;
    record.queued = false;
    processOp(id);
    if (growthLimitReached())
      limitReached = true;
    if (limitReached || checkFailed)
      return;
  }
}

bool GreedyDriver::isTriviallyDead(Operation *op) {
  if (!op->use_empty() || !op->hasTrait(OpTrait::Pure) ||
      op->hasTrait(OpTrait::Terminator))
    return false;
  if (op->getNumRegions() == 0)
    return true;
  // Erasing the op erases its regions: all of them must be free of effects.
  return !op->walk([](Operation *nested) {
              return nested->hasTrait(OpTrait::Pure) ? WalkResult::advance()
                                                     : WalkResult::interrupt();
            }).wasInterrupted();
}

void GreedyDriver::processOp(uint32_t id) {
  Operation *op = records[id].op;
  if (config.enableDCE && isTriviallyDead(op)) {
    trace("erase", op->getName(), op->getLoc());
    rewriter.eraseOp(op);
    ++result.numErasures;
    return;
  }
  if (getConstantValue(op)) {
    // A constant folds to itself; the folder only merges and hoists it.
    if (config.enableFolding && !constants.isOwned(op) && adoptConstant(op))
      return;
  } else if (config.enableFolding && op->getInfo()->fold) {
    if (rewriteLimitReached()) {
      limitReached = true;
      return;
    }
    if (tryFold(id))
      return;
  }
  applyPatterns(id);
}

bool GreedyDriver::adoptConstant(Operation *op) {
  bool moved = false;
  Operation *existing = constants.adopt(op, moved);
  if (moved)
    changed = true;
  if (!existing)
    return false;
  trace("merge", op->getName(), op->getLoc());
  rewriter.replaceOp(op, existing->getResults());
  ++result.numFolds;
  return true;
}

bool GreedyDriver::tryFold(uint32_t id) {
  Operation *op = records[id].op;
  if (records[id].cachedVersion == records[id].version &&
      records[id].foldFailed)
    return false;
  SmallVector<Attribute, 4> constantOperands;
  for (Value operand : op->getOperands()) {
    Operation *producer = operand.getDefiningOp();
    constantOperands.push_back(producer ? getConstantValue(producer)
                                        : Attribute());
  }
  SmallVector<OpFoldResult, 2> folded;
  auto markFailed = [&] {
    OpRecord &record = records[id];
    resetCacheIfStale(record);
    record.foldFailed = true;
    return false;
  };
  if (failed(op->getInfo()->fold(op, constantOperands, folded)))
    return markFailed();

  Location loc = op->getLoc();
  OperationName name = op->getName();
  bool inPlace = llvm::all_of(llvm::enumerate(folded), [&](auto entry) {
    return entry.value().value == op->getResult(entry.index());
  });
  if (inPlace) {
    // The hook changed the op itself (or handed back its own results).
    trace("fold", name, loc);
    ++result.numFolds;
    notifyOperationModified(op);
    return true;
  }
  if (folded.size() != op->getNumResults())
    llvm::report_fatal_error(llvm::Twine("fold hook of '") +
                             name.getStringRef() + "' returned " +
                             llvm::Twine(folded.size()) + " results for " +
                             llvm::Twine(op->getNumResults()));

  SmallVector<Value, 2> replacements;
  SmallVector<Operation *, 2> created;
  Region *scope = nullptr;
  for (unsigned i = 0, e = folded.size(); i != e; ++i) {
    if (folded[i].value) {
      replacements.push_back(folded[i].value);
      continue;
    }
    if (!scope)
      scope = constants.getScope(op->getBlock());
    bool isNew = false;
    Operation *constant =
        constants.getOrCreate(rewriter, scope, op->getDialect(), folded[i].attr,
                              op->getResult(i).getType(), loc, isNew);
    if (!constant) {
      // The dialect cannot materialize this value: undo the constants made
      // for the other results, which nothing uses yet.
      for (Operation *unused : llvm::reverse(created))
        rewriter.eraseOp(unused);
      return markFailed();
    }
    if (isNew)
      created.push_back(constant);
    replacements.push_back(constant->getResult(0));
  }
  trace("fold", name, loc);
  ++result.numFolds;
  ++foldCounts[name.getInfo()];
  rewriter.replaceOp(op, replacements);
  return true;
}

void GreedyDriver::applyPatterns(uint32_t id) {
  Operation *op = records[id].op;
  ArrayRef<const RewritePattern *> candidates =
      patterns.getPatterns(op->getName());
  size_t first = 0;
  if (records[id].cachedVersion == records[id].version) {
    first = records[id].numFailedPatterns;
    result.numCachedFailures += first;
  }
  for (size_t i = first, e = candidates.size(); i != e; ++i) {
    if (rewriteLimitReached()) {
      limitReached = true;
      return;
    }
    const RewritePattern &pattern = *candidates[i];
    ++result.numPatternAttempts;
    Location loc = op->getLoc();
    OperationName name = op->getName();
    llvm::hash_code before =
        config.expensiveChecks ? fingerprint() : llvm::hash_code(0);
    rewriter.setInsertionPoint(op);
    LogicalResult outcome = pattern.matchAndRewrite(op, rewriter);
    rewriter.clearInsertionPoint();
    if (config.expensiveChecks &&
        !checkPattern(pattern, outcome, before, loc)) {
      checkFailed = true;
      return;
    }
    if (succeeded(outcome)) {
      // The op may be gone; only what was saved before is used.
      ++result.numRewrites;
      ++patternCounts[&pattern];
      changed = true;
      if (config.trace)
        trace("apply pattern '" + getPatternName(pattern) + "' to", name, loc);
      return;
    }
    // Patterns may create records (even failing ones, if buggy): index
    // again rather than keep a reference across the call.
    OpRecord &record = records[id];
    resetCacheIfStale(record);
    if (record.numFailedPatterns == i)
      record.numFailedPatterns = i + 1;
  }
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

/// No op has successors, so control never reaches a block after the entry
/// block of its region: those blocks are unreachable and are erased. Values
/// never cross blocks, so nothing else refers to them.
bool GreedyDriver::simplifyRegions() {
  bool erased = false;
  SmallVector<Region *, 8> regions;
  for (Region &region : root->getRegions())
    regions.push_back(&region);
  while (!regions.empty()) {
    Region *region = regions.pop_back_val();
    if (region->empty())
      continue;
    while (&region->back() != &region->front()) {
      if (config.trace) {
        Operation *owner = region->getParentOp();
        trace("erase unreachable block in", owner->getName(), owner->getLoc());
      }
      rewriter.eraseBlock(&region->back());
      erased = true;
    }
    for (Operation &op : region->front())
      for (Region &nested : op.getRegions())
        regions.push_back(&nested);
  }
  return erased;
}

//===----------------------------------------------------------------------===//
// Checks and tracing
//===----------------------------------------------------------------------===//

llvm::hash_code GreedyDriver::fingerprint() {
  llvm::hash_code hash = 0;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    hash = llvm::hash_combine(
        hash, op, op->getName().getInfo(), op->getAttrDictionary().getImpl(),
        op->getLoc().getImpl(), op->getBlock(), op->getNumOperands());
    for (Value operand : op->getOperands())
      hash = llvm::hash_combine(hash, operand.getImpl());
    for (OpResult value : op->getResults())
      hash = llvm::hash_combine(hash, value.getType().getImpl());
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        hash = llvm::hash_combine(hash, &block, block.getNumArguments());
        for (BlockArgument arg : block.getArguments())
          hash =
              llvm::hash_combine(hash, arg.getImpl(), arg.getType().getImpl());
      }
  });
  return hash;
}

bool GreedyDriver::checkPattern(const RewritePattern &pattern,
                                LogicalResult outcome, llvm::hash_code before,
                                Location loc) {
  bool changedIR = fingerprint() != before;
  if (succeeded(outcome) && !changedIR) {
    emitError(loc) << "pattern '" << getPatternName(pattern)
                   << "' returned success but did not change the IR";
    return false;
  }
  if (failed(outcome) && changedIR) {
    emitError(loc) << "pattern '" << getPatternName(pattern)
                   << "' returned failure but changed the IR";
    return false;
  }
  if (changedIR && failed(verify(root))) {
    emitError(loc) << "pattern '" << getPatternName(pattern)
                   << "' produced IR that does not verify";
    return false;
  }
  return true;
}

void GreedyDriver::trace(StringRef what, OperationName name, Location loc) {
  if (config.trace)
    *config.trace << "[greedy] " << what << " '" << name << "' at " << loc
                  << '\n';
}

//===----------------------------------------------------------------------===//
// Iterations
//===----------------------------------------------------------------------===//

void GreedyDriver::setBounds() {
  for (Region &region : root->getRegions())
    region.walk([&](Operation *) { ++initialOps; });
  rewriteBound = config.maxNumRewrites >= 0
                     ? config.maxNumRewrites
                     : config.rewritesPerOp * initialOps +
                           GreedyRewriteConfig::kBoundSlack;
  createdOpsBound =
      config.createdOpsPerOp * initialOps + GreedyRewriteConfig::kBoundSlack;
}

void GreedyDriver::describeMostApplied(InFlightDiagnostic &diag) const {
  SmallVector<std::pair<uint64_t, std::string>> counts;
  for (auto [pattern, count] : patternCounts)
    counts.push_back({count, "pattern '" + getPatternName(*pattern) + "'"});
  for (auto [info, count] : foldCounts)
    counts.push_back(
        {count,
         "folding of '" + OperationName(info).getStringRef().str() + "'"});
  if (counts.empty())
    return;
  // Most applied first; ties by name, so the message is deterministic.
  llvm::sort(counts, [](const auto &a, const auto &b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  diag << "; applied most:";
  for (size_t i = 0, e = std::min<size_t>(counts.size(), 3); i < e; ++i)
    diag << (i ? ", " : " ") << counts[i].second << " (" << counts[i].first
         << " times)";
}

LogicalResult GreedyDriver::run() {
  setBounds();
  bool converged = false;
  for (int64_t i = 0; config.maxIterations < 0 || i < config.maxIterations;
       ++i) {
    result.iterations = i + 1;
    if (config.trace)
      *config.trace << "[greedy] iteration " << result.iterations << '\n';
    changed = false;
    seed();
    processWorklist();
    if (checkFailed)
      return failure();
    if (limitReached)
      break;
    if (config.enableRegionSimplification && simplifyRegions())
      changed = true;
    if (!changed) {
      converged = true;
      break;
    }
  }
  clearWorklist();
  result.converged = converged;
  // An explicit limit on rewrites is a budget the caller chose; the default
  // bounds are only reached by patterns that do not terminate.
  bool runaway =
      limitReached && (config.maxNumRewrites < 0 || growthLimitReached());
  if (converged || (!config.strictConvergence && !runaway))
    return success();
  InFlightDiagnostic diag = root->emitError();
  if (runaway) {
    diag << "greedy pattern rewrite does not terminate: ";
    if (growthLimitReached())
      diag << "it created more than " << createdOpsBound << " ops";
    else
      diag << "it made " << rewriteBound << " rewrites";
    diag << " on IR of " << initialOps << " ops";
  } else {
    diag << "greedy pattern rewrite did not converge after "
         << result.iterations << " iterations";
    if (limitReached)
      diag << " (reached the limit of " << rewriteBound << " rewrites)";
  }
  describeMostApplied(diag);
  return failure();
}

LogicalResult onyx::applyPatternsAndFoldGreedily(
    Operation *op, const FrozenPatternSet &patterns,
    const GreedyRewriteConfig &config, GreedyRewriteResult *result) {
  GreedyRewriteResult local;
  GreedyRewriteResult &out = result ? *result : local;
  out = GreedyRewriteResult();
  return GreedyDriver(op, patterns, config, out).run();
}

//===- GreedyPatternRewriteDriver.h - Patterns to a fixpoint ----*- C++ -*-===//
//
// Applies patterns, folding and dead-code elimination to every op of a
// region tree until nothing changes (or a limit is reached). Ops are kept
// on a worklist; a change re-queues the changed and created ops, the users
// of replaced values and the producers of erased ops' operands.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "rewrite/PatternMatch.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace onyx {

struct GreedyRewriteConfig {
  /// Visit ops top-down (pre-order) instead of bottom-up (post-order).
  bool useTopDownTraversal = false;
  bool enableFolding = true;
  /// Erase ops without side effects whose results are unused.
  bool enableDCE = true;
  /// Erase unreachable blocks: no op has successors, so that is every block
  /// after the entry block of its region.
  bool enableRegionSimplification = true;
  /// Sweeps over the whole IR; -1 for no limit.
  int64_t maxIterations = 10;
  /// Rewrites (pattern applications and folds) per run; reaching it stops
  /// the run (an error only with strictConvergence). -1: the default bound
  /// below.
  int64_t maxNumRewrites = -1;
  /// The default bounds, which make every run terminate: more than
  /// rewritesPerOp × (ops at the start) + kBoundSlack rewrites, or more
  /// than createdOpsPerOp × (ops at the start) + kBoundSlack ops created,
  /// mean patterns that undo each other or grow the IR without end; the
  /// run then fails with an error naming the patterns that fired most.
  int64_t rewritesPerOp = 64;
  int64_t createdOpsPerOp = 128;
  static constexpr int64_t kBoundSlack = 4096;
  /// Report non-convergence as an error on the root op.
  bool strictConvergence = false;
  /// After every pattern, check that success changed the IR, failure did not
  /// and the IR still verifies; a violation is reported naming the pattern.
  bool expensiveChecks = false;
  /// Logs each applied pattern, fold and erasure with the op's location.
  llvm::raw_ostream *trace = nullptr;
};

struct GreedyRewriteResult {
  bool converged = false;
  unsigned iterations = 0;
  uint64_t numRewrites = 0;
  uint64_t numFolds = 0;
  uint64_t numErasures = 0;
  uint64_t numPatternAttempts = 0;
  /// Attempts skipped because the pattern had failed on the unchanged op.
  uint64_t numCachedFailures = 0;
};

/// Rewrites the regions of `op` (not `op` itself). Fails if an expensive
/// check failed, or if strictConvergence is set and it did not converge.
LogicalResult
applyPatternsAndFoldGreedily(Operation *op, const FrozenPatternSet &patterns,
                             const GreedyRewriteConfig &config = {},
                             GreedyRewriteResult *result = nullptr);

} // namespace onyx

//===- PatternMatch.h - Rewrite patterns and the rewriter -------*- C++ -*-===//
//
// A RewritePattern matches a root op (of one name, or any op) and rewrites
// it through a PatternRewriter. Every IR change a pattern makes goes through
// the rewriter, so the driver hears about each insertion, modification,
// replacement and erasure and can re-queue the affected ops.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Builder.h"

#include <memory>
#include <optional>
#include <vector>

namespace onyx {

class PatternRewriter;

class RewritePattern {
public:
  virtual ~RewritePattern();

  /// The op name this pattern matches, or nullopt for any op.
  std::optional<OperationName> getRootKind() const { return rootKind; }
  /// Higher benefits are tried first.
  unsigned getBenefit() const { return benefit; }
  StringRef getDebugName() const { return debugName; }
  void setDebugName(StringRef name) { debugName = name.str(); }

  /// Rewrites `op` and returns success, or returns failure without having
  /// changed the IR.
  virtual LogicalResult matchAndRewrite(Operation *op,
                                        PatternRewriter &rewriter) const = 0;

protected:
  /// A pattern rooted on ops named `rootName`.
  RewritePattern(StringRef rootName, unsigned benefit, Context *ctx);
  struct MatchAnyOpTypeTag {};
  /// A pattern tried on every op.
  RewritePattern(MatchAnyOpTypeTag, unsigned benefit, Context *ctx);

private:
  std::optional<OperationName> rootKind;
  unsigned benefit;
  std::string debugName;
};

/// A pattern on ops of class OpT, matched and rewritten through the class.
template <typename OpT> class OpRewritePattern : public RewritePattern {
public:
  explicit OpRewritePattern(Context *ctx, unsigned benefit = 1)
      : RewritePattern(OpT::getOperationName(), benefit, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const final {
    return matchAndRewrite(OpT(op), rewriter);
  }
  virtual LogicalResult matchAndRewrite(OpT op,
                                        PatternRewriter &rewriter) const = 0;
};

/// Applies IR changes and tells its listener about each one.
class PatternRewriter : public OpBuilder {
public:
  struct Listener : OpBuilder::Listener {
    /// `op` was changed in place (operands, attributes, location).
    virtual void notifyOperationModified(Operation *) {}
    /// All uses of `op`'s results are about to be replaced by `newValues`.
    virtual void notifyOperationReplaced(Operation *, ValueRange) {}
    /// `op` is about to be erased (its nested ops are notified first).
    virtual void notifyOperationErased(Operation *) {}
    /// A pattern explained why it did not apply (for tracing).
    virtual void notifyMatchFailure(Location, const llvm::Twine &) {}
  };

  explicit PatternRewriter(Context *ctx, Listener *listener = nullptr)
      : OpBuilder(ctx, listener) {}

  Listener *getRewriteListener() const {
    return static_cast<Listener *>(listener);
  }

  /// Replaces all uses of `op`'s results by `newValues` and erases `op`.
  void replaceOp(Operation *op, ValueRange newValues);
  /// Replaces `op` by the results of `newOp` and erases `op`.
  void replaceOp(Operation *op, Operation *newOp) {
    replaceOp(op, newOp->getResults());
  }
  /// Creates an OpT before `op` and replaces `op` with it.
  template <typename OpT, typename... Args>
  OpT replaceOpWithNewOp(Operation *op, Args &&...args) {
    InsertionGuard guard(*this);
    setInsertionPoint(op);
    OpT newOp = create<OpT>(op->getLoc(), std::forward<Args>(args)...);
    replaceOp(op, newOp.getOperation());
    return newOp;
  }
  /// Erases `op` and everything nested in it. Its results must be unused:
  /// erasing a used op is a bug in the pattern and aborts with its name.
  void eraseOp(Operation *op);
  void eraseBlock(Block *block);

  /// Replaces every use of `from` by `to`, notifying each modified user.
  void replaceAllUsesWith(Value from, Value to);
  void replaceUsesWithIf(Value from, Value to,
                         llvm::function_ref<bool(OpOperand &)> functor);

  /// Runs `callback`, which changes `op` in place, and notifies the listener.
  void modifyOpInPlace(Operation *op, llvm::function_ref<void()> callback);

  /// Moves the ops of `source` before `before` in `dest`, replacing the
  /// block's arguments by `argValues`, and erases `source`.
  void inlineBlockBefore(Block *source, Block *dest, Block::iterator before,
                         ValueRange argValues = {});
  /// Moves `op` before `existingOp`.
  void moveOpBefore(Operation *op, Operation *existingOp);

  /// Reports why a pattern did not apply; returns failure() for `return`.
  LogicalResult notifyMatchFailure(Location loc, const llvm::Twine &reason);
};

/// Patterns being collected, e.g. from each op's canonicalization hook.
class PatternSet {
public:
  explicit PatternSet(Context *ctx) : context(ctx) {}
  Context *getContext() const { return context; }

  /// Adds patterns constructed as Ts(ctx).
  template <typename... Ts> PatternSet &add() {
    (patterns.push_back(std::make_unique<Ts>(context)), ...);
    return *this;
  }
  PatternSet &add(std::unique_ptr<RewritePattern> pattern) {
    patterns.push_back(std::move(pattern));
    return *this;
  }
  /// Adds a function as a pattern on OpT.
  template <typename OpT>
  PatternSet &add(LogicalResult (*fn)(OpT, PatternRewriter &),
                  unsigned benefit = 1, StringRef debugName = {}) {
    struct FnPattern : OpRewritePattern<OpT> {
      FnPattern(Context *ctx, unsigned benefit,
                LogicalResult (*fn)(OpT, PatternRewriter &))
          : OpRewritePattern<OpT>(ctx, benefit), fn(fn) {}
      LogicalResult matchAndRewrite(OpT op,
                                    PatternRewriter &rewriter) const override {
        return fn(op, rewriter);
      }
      LogicalResult (*fn)(OpT, PatternRewriter &);
    };
    auto pattern = std::make_unique<FnPattern>(context, benefit, fn);
    if (!debugName.empty())
      pattern->setDebugName(debugName);
    return add(std::move(pattern));
  }

  std::vector<std::unique_ptr<RewritePattern>> takePatterns() {
    return std::move(patterns);
  }

private:
  Context *context;
  std::vector<std::unique_ptr<RewritePattern>> patterns;
};

/// An immutable set of patterns indexed by root op name, each list sorted by
/// decreasing benefit; built once and shared by every run of a driver.
class FrozenPatternSet {
public:
  FrozenPatternSet() = default;
  explicit FrozenPatternSet(PatternSet &&patterns);

  /// Patterns for `name`, merged with the any-op patterns, by benefit.
  ArrayRef<const RewritePattern *> getPatterns(OperationName name) const;
  size_t size() const { return owned.size(); }

private:
  std::vector<std::unique_ptr<RewritePattern>> owned;
  llvm::DenseMap<OpInfo *, SmallVector<const RewritePattern *, 4>> byRoot;
  SmallVector<const RewritePattern *, 4> anyOp;
};

/// Collects the canonicalization patterns of every op of every loaded
/// dialect (OpInfo::getCanonicalizationPatterns).
void collectCanonicalizationPatterns(Context *ctx, PatternSet &patterns);

} // namespace onyx

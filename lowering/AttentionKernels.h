//===- AttentionKernels.h - What the attention lowerings share --*- C++ -*-===//
//
// onnx.Attention (AttentionKernels.cpp) and com.microsoft.GroupQueryAttention
// (GroupQueryAttentionKernels.cpp) are one kernel that walks a query row's
// keys (AttentionWalk.h). A decode step's long rows are split among
// workgroups (flash-decoding): each walks a share of the keys and leaves a
// partial record, and a second kernel combines the records. This header
// holds that split and the dispatch of the two kernels.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lowering/AttentionWalk.h"
#include "lowering/KernelGenerator.h"
#include "lowering/KernelSizes.h"

#include <fmt/format.h>

#include <string>

namespace onyx::lowering {

/// Checks at run time that `a` equals `b`; `message` says what they are
/// ({0} and {1}).
LogicalResult checkEqual(LoweringContext &ctx, Size a, Size b,
                         StringRef message);

/// How the keys of a row are split among workgroups.
struct AttentionSplit {
  /// Workgroups per row, and keys per workgroup.
  Size splits, chunk;
  /// 1 where the run splits (the combine kernel's grid factor), else 0.
  Size isSplit;
  /// Whether some run may split, and whether every run does.
  bool maySplit() const { return !isSplit.isStatic() || isSplit.constant; }
  bool alwaysSplit() const { return isSplit.isStatic() && isSplit.constant; }
  /// The walk's `splitting` condition, `splits` being the split count's
  /// GLSL.
  std::string condition(StringRef splits) const {
    return alwaysSplit() ? std::string("true")
                         : fmt::format("{} > 1u", splits.str());
  }
};

/// Rows of one query (decode steps) of kSplitFromKeys keys or more split
/// them into parts of at least kMinSplitKeys keys, at most kSplitWorkgroups
/// / heads of them; other rows stay whole.
AttentionSplit chooseAttentionSplit(LoweringContext &ctx, Size seq, Size keys,
                                    int64_t heads);

/// The float buffer of a split's partial records: [rows][splits][dv + 2]
/// (one element where the run does not split).
Value allocateAttentionParts(LoweringContext &ctx, Size rows,
                             const AttentionSplit &split, int64_t dv);

/// The first element of part `part`'s record of row (b, h, i) (GLSL uint
/// expressions; S is the rows' count).
std::string partRecord(int64_t heads, StringRef splits, StringRef part,
                       int64_t dv);

/// Dispatches the walk kernel of `spec` (its sizes in `sizes`) with
/// `bindings`: one workgroup per part of a query row, the grid [seq *
/// splits, heads, batch]; then, where the run may split, the kernel that
/// combines the parts in `parts` into the rows of `y` at `yBase` (an
/// expression of b, h, i and S).
void dispatchAttention(LoweringContext &ctx, KernelSpec &spec,
                       const KernelSizes &sizes, ValueRange bindings,
                       const AttentionWalk &walk, const AttentionSplit &split,
                       int64_t heads, Size seq, Size batch, StringRef yBase,
                       Value parts, Value y);

/// com.microsoft.GroupQueryAttention (GroupQueryAttentionKernels.cpp).
LogicalResult lowerGroupQueryAttention(Operation *op, LoweringContext &ctx);

} // namespace onyx::lowering

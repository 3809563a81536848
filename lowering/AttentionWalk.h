//===- AttentionWalk.h - One query row against its keys, in GLSL -*- C++
//-*-===//
//
// The part that onnx.Attention and com.microsoft.GroupQueryAttention share:
// a workgroup that holds one query row in shared memory walks its T keys in
// tiles of WG with the online softmax, and stores softmax(q k^T) v.
//
//===----------------------------------------------------------------------===//

#ifndef ONYX_LOWERING_ATTENTIONWALK_H
#define ONYX_LOWERING_ATTENTIONWALK_H

#include "ir/Types.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace onyx::lowering {

/// What the walk needs to know of its kernel. GLSL expressions may use the
/// kernel's own variables; the walk defines `tid`-based ones only.
struct AttentionWalk {
  Type elementType;
  /// Threads of the workgroup: a power of two.
  uint32_t workgroupSize = 0;
  /// Head sizes of the keys and of the values.
  int64_t d = 0, dv = 0;
  /// The target's shared memory per workgroup, in bytes: the walk scores
  /// keys with coalesced loads where its partial sums fit in it.
  uint64_t maxSharedBytes = 16384;
  /// The walk's keys are [first, keys) of the row (uint expressions): a
  /// split's share of a long row, or the whole row from 0.
  std::string first = "0u", keys;
  /// The element offset of key `j`'s row in `k`, and of the value row of
  /// key `jv` in `v`.
  std::string keyRow, valueRow;
  /// The scale of q k^T, a GLSL literal.
  std::string scale;
  /// Statements that adjust the score `sc` of key `j` (mask, causality).
  std::string adjustScore;
  /// Loads for key `j` that adjustScore reads (a mask's element), issued
  /// with the tile's key and value loads rather than after the scores:
  /// `scoreLoadsDeclare` declares their variables with the values of a key
  /// past the row's end, `scoreLoads` sets them for a key `j` of the row.
  std::string scoreLoadsDeclare, scoreLoads;
  /// The query row's element `{c}` (a format string), for a kernel that
  /// leaves the query to the walk: where walkLoadsQuery holds, the walk
  /// keeps the row in registers, loaded with the first tile's keys, and the
  /// kernel does not fill `qs`. Empty: the kernel fills `qs`.
  std::string queryLoad;
  /// Whether the kernel declared q, k and v as buffers of vec4s (f32, both
  /// head sizes multiples of 4, rows aligned to 16 bytes): the walk then
  /// reads a row's four elements in one load, and queryLoad gives the vec4
  /// at element {c}.
  bool vectorLoads = false;
  /// Stores `value` at column `col` of the output row: a format string with
  /// {col} and {value}.
  std::string store;
  /// Where the row's keys are split among workgroups: `splitting`, a bool
  /// expression uniform in the workgroup, says whether this run splits, and
  /// then the walk leaves its partial result (the running maximum m, the
  /// sum of weights l, and the unnormalized weighted sum of V) as a record
  /// of dv + 2 floats [m, l, acc...] at `record` in the float buffer
  /// `part`, for generateAttentionCombine. Empty: the walk stores the row;
  /// "true": it only leaves parts (the kernel need not declare the row's
  /// buffer).
  std::string splitting, record;
};

/// Shared memory the walk uses: `qs` (d floats, which the kernel fills with
/// the query row and a barrier before the walk), two float arrays of WG, a
/// vec4 array of WG where values are weighed a vec4 per lane, and the key
/// lanes' partial dot products where keys are scored by several lanes.
std::string declareAttentionWalk(const AttentionWalk &walk);

/// Whether the walk reads the query row through walk.queryLoad itself (the
/// kernel then need not fill `qs` before it).
bool walkLoadsQuery(const AttentionWalk &walk);

/// The walk, as statements of main() after `qs` is filled: the invocations
/// score a tile's keys (several lanes per key row, reading it in whole
/// lines, where the head size allows), the tile's maximum and the softmax
/// weights are shared through trees of fixed shape (so that results do not
/// depend on scheduling), and the invocations, split into groups of lanes over
/// the value columns, weigh the tile's value rows, a group every few rows; the
/// groups' sums meet in a tree at the end. A row whose scores are all -inf
/// gives NaN, as the softmax of -inf everywhere does.
std::string generateAttentionWalk(const AttentionWalk &walk);

/// A kernel's main() statements after `i`, `h`, `b` and `tid` are set that
/// combine the `splits` records of a split row (starting at `record`, one
/// after the other) into the row: the maximum of the parts' maxima M, the
/// sum of their sums rescaled by exp(m - M), and each column's rescaled
/// sum over it, stored through walk.store. Every invocation reads the
/// parts' m and l (a few cached loads); invocations split the columns.
std::string generateAttentionCombine(const AttentionWalk &walk,
                                     StringRef splits, StringRef record);

/// The largest power of two of at most 256 threads the target allows.
uint32_t chooseAttentionWorkgroup(uint32_t maxSizeX, uint32_t maxInvocations);

} // namespace onyx::lowering

#endif // ONYX_LOWERING_ATTENTIONWALK_H

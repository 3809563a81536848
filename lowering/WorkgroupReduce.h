//===- WorkgroupReduce.h - Rows reduced by cooperating invocations -*- C++
//-*-===//
//
// Reductions, Softmax, LayerNormalization and the global pools all reduce
// *rows*: the elements of a tensor that differ only in some (reduced)
// dimensions. A workgroup owns LANES rows and DEPTH invocations (a power of
// two) cooperate on each row: each folds every DEPTH-th element of the row
// in registers, then the partial results meet in shared memory in a tree of
// DEPTH/2, DEPTH/4, ..., 1 steps. No invocation walks a long row alone, and
// a sum adds numbers of similar magnitude at each tree level.
//
// When the reduced dimensions are the innermost ones, a row is contiguous
// and the invocations of one row are adjacent in the workgroup, so they read
// consecutive elements. When a kept dimension is innermost, rows interleave
// in memory and the invocations of adjacent rows are adjacent instead, so a
// stride of the workgroup still reads consecutive elements.
//
// The pieces here write GLSL; ReductionKernels.cpp, NormalizationKernels.cpp
// and PoolKernels.cpp assemble kernels from them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lowering/KernelGenerator.h"
#include "lowering/KernelSizes.h"

#include "llvm/ADT/SmallBitVector.h"

#include <string>

namespace onyx::lowering {

/// How the rows of a reduction lie in its input, dimensions merged where
/// adjacent ones are both kept or both reduced (and size-1 ones dropped).
/// A size known only at run time (`?`) is an index value of the host
/// program (KernelSizes.h); such a dimension is kept even if it may be 1.
struct RowSpace {
  /// Kept dimensions, outermost first, and their strides in the input.
  SmallVector<Size> rowSizes, rowStrides;
  /// Reduced dimensions, outermost first, and their strides in the input.
  SmallVector<Size> elementSizes, elementStrides;
  Size numRows = 1;
  Size rowLength = 1;
  /// How many consecutive rows interleave in memory: the size of the
  /// innermost dimension if it is kept, 1 if rows are contiguous.
  Size interleave = 1;
  bool isStatic() const;
};

/// The rows of a tensor of `dims` reduced over the dimensions set in
/// `reduced`. Rows are numbered as the kept dimensions are laid out
/// row-major, which is the output's order whether or not it keeps the
/// reduced dimensions as 1.
RowSpace getRowSpace(LoweringContext &ctx, ArrayRef<Size> dims,
                     const llvm::SmallBitVector &reduced);
/// The same where which dimensions are reduced is known only at run time
/// (a Reduce op's axes given as an input): `reduced` holds 1 or 0 per
/// dimension, index values of the host program. Nothing is merged; the
/// sizes are gpu.selects of the dims.
RowSpace getRowSpace(LoweringContext &ctx, ArrayRef<Size> dims,
                     ArrayRef<Size> reduced);

/// How a workgroup covers rows: `lanes` rows, `depth` invocations each.
/// Rows may be cut into `chunks` pieces of `chunkLength` elements, each
/// reduced on its own (to partial results a second reduction combines);
/// pieces are numbered chunk-major (chunk * rows + row), so that adjacent
/// lanes still take adjacent rows.
struct RowLayout {
  uint32_t lanes = 1;
  uint32_t depth = 1;
  /// Invocations of adjacent rows are adjacent (rows interleave).
  bool interleaved = false;
  int64_t chunks = 1;
  /// The row length when there is one chunk (maybe known only at run time).
  Size chunkLength = 0;
  uint32_t size() const { return lanes * depth; }
};

/// A layout for `space` that fits the target's workgroup limits and its
/// shared memory, given `sharedBytesPerInvocation` (the partial results one
/// invocation keeps in shared memory at a time). With `allowChunks`, rows
/// too few to fill a GPU and long enough to share are cut into chunks
/// (static spaces only). Sizes known only at run time are taken as large:
/// a dynamic row length gets the deepest tree, dynamic rows the most lanes
/// the row length leaves.
RowLayout chooseRowLayout(const gpu::TargetDesc &target, const RowSpace &space,
                          unsigned sharedBytesPerInvocation,
                          bool allowChunks = false);

/// The workgroups that cover the rows of `space`: with `needsElements`
/// (kernels that bind the input), none when a row length known only at run
/// time is 0, since an empty view cannot be bound.
Size getNumWorkgroups(LoweringContext &ctx, const RowSpace &space,
                      const RowLayout &layout, bool needsElements = true);

/// Global declarations: the sizes ROWS, LENGTH, CHUNK_LENGTH (constants,
/// or for sizes known at run time macros reading `sizes`' push constants),
/// the constants LANES, DEPTH, CHUNKS, and the functions `uint
/// rowOffset(uint row)` and `uint elementOffset(uint i)` whose sum is the
/// input index of element i of a row. The kernel declares `sizes`' block
/// (KernelSizes::declaration) before them.
std::string rowDeclarations(KernelSizes &sizes, const RowSpace &space,
                            const RowLayout &layout);

/// The spec of row kernel `name` on `layout` that reads `x` (elements of
/// `inType`, binding 0) and writes `y` (of `outType`, binding 1): its GLSL so
/// far is the header, `sizes`' block, the buffers and `rows`
/// (rowDeclarations); the caller appends the rest, which must take no
/// further size from `sizes`.
KernelSpec makeRowKernel(StringRef name, const RowLayout &layout,
                         const KernelSizes &sizes, const std::string &rows,
                         Type inType, Type outType);

/// Makes `spec`'s kernel, with `sizes`' push constants, and dispatches it
/// on `workgroups` with `bindings`.
void dispatchRows(LoweringContext &ctx, KernelSpec &spec,
                  const KernelSizes &sizes, Size workgroups,
                  ValueRange bindings);

/// The first statements of main(): `lane` and `slot` (this invocation's row
/// in the workgroup and its place among the row's invocations), `row`,
/// `inRange` (whether the row exists: the last workgroup may be partial) and
/// `base` (the row's input offset, 0 when inactive).
std::string rowPrologue();

/// A loop over this invocation's elements of its row: runs `body` with
/// `uint i` (the element's index in the row) and `uint at` (its input index)
/// for i = begin + slot, begin + slot + DEPTH, ... below end, in increasing
/// order, if the row is in range.
std::string forEachElement(StringRef body);

/// For kernels that pass over each row several times (Softmax,
/// LayerNormalization): how an invocation holds its elements of the row.
/// When they are few (kMaxCachedElements), the first statements load them
/// into registers once; otherwise every pass reads memory again.
struct RowValues {
  /// GLSL type of the values, and the expression loading the one at `at`.
  std::string type;
  std::string load;
  /// Elements per invocation when cached, 0 when not.
  int64_t cached = 0;
};
constexpr int64_t kMaxCachedElements = 8;
RowValues getRowValues(const RowLayout &layout, StringRef type, StringRef load);
/// Statements loading the cache of `values` (nothing when not cached).
std::string loadRowValues(const RowValues &values);
/// Like forEachElement, with the element's value as `xv`.
std::string forEachValue(const RowValues &values, StringRef body);

/// A shared array with one element of GLSL type `type` per invocation.
std::string sharedArray(const RowLayout &layout, StringRef type,
                        StringRef name);

/// A variable of the invocation and the shared array it meets the other
/// invocations' in.
struct Partial {
  std::string variable;
  std::string shared;
};

/// Statements that combine each row's partials across its DEPTH
/// invocations, in uniform control flow (every invocation runs them).
/// `combine` names a GLSL function `void combine(uint a, uint b)` that folds
/// the shared slots b into slots a. Afterwards every invocation of a row
/// holds the row's result in the variables, and the shared arrays can be
/// reused. Nothing when DEPTH is 1.
std::string reduceAcrossRow(const RowLayout &layout, ArrayRef<Partial> partials,
                            StringRef combine);

//===----------------------------------------------------------------------===//
// Reductions as a whole (defined in ReductionKernels.cpp)
//===----------------------------------------------------------------------===//

enum class ReduceKind { Sum, Mean, Max, Min };

/// Lowers a reduction of tensor `input` (an operand of the op being lowered)
/// over the dimensions in `reduced` into the view `output` (of the input's
/// element type, one element per row), as the onnx Reduce ops define it: the
/// identity for empty rows (0, -inf, +inf, NaN for a float mean), NaN
/// propagating through Max and Min, integer means truncating. Used by the
/// Reduce ops and the global pools.
LogicalResult lowerReduction(LoweringContext &ctx, Value input,
                             const llvm::SmallBitVector &reduced,
                             ReduceKind kind, Value output);
/// The same over the rows of `space` (getRowSpace) of `input`.
LogicalResult lowerReduction(LoweringContext &ctx, Value input,
                             const RowSpace &space, ReduceKind kind,
                             Value output);

/// The dims of the result of reducing `dims` over `reduced`: those
/// dimensions dropped, or 1 with `keepDims`.
SmallVector<Size> getReducedDims(ArrayRef<Size> dims,
                                 const llvm::SmallBitVector &reduced,
                                 bool keepDims);

/// Bytes a value of the GLSL compute type of `elementType` takes in shared
/// memory.
unsigned getSharedBytes(Type elementType);

/// Reports an element type kernels cannot hold; true if it did.
bool reportUnsupported(LoweringContext &ctx, Type elementType);
/// Reports a target without int64, which the i64 indices of ArgMax, ArgMin,
/// TopK and MaxPool need; true if it did.
bool reportNoInt64Indices(LoweringContext &ctx);

} // namespace onyx::lowering

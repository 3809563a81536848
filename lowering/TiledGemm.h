//===- TiledGemm.h - The tiled GEMM kernel MatMul, Gemm and Conv share -*- C++
//-*-===//
//
// MatMul, Gemm and Conv (as an implicit GEMM: filters times the unfolded
// input) all become one kernel shape: a batch of products
//
//   C[z] (m x n) = A[z] (m x k) * B[z] (k x n),   z = gl_WorkGroupID.z
//
// Each workgroup computes a bm x bn block of C. Per step of bk along k, its
// threads copy an A tile and a B tile into shared memory (neighbouring
// threads reading neighbouring addresses, four at a time where the operand
// allows), then each thread accumulates a tm x tn block of outputs in
// registers from them (register blocking): a thread reads tm + tn values
// from shared memory (as vec4s for float tiles) for tm * tn multiply-adds.
// The next step's tiles are loaded into registers while the current ones
// are multiplied, so global loads overlap the arithmetic.
//
// The op's generator describes its operands as GLSL functions the kernel
// calls for in-bounds elements (loadA, loadB, see GemmProblem) and its
// result by the output index and value of an accumulator, so transposed
// operands, broadcast batches, im2col indexing with padding and alpha,
// beta, C and bias stay with the op while the tiling is written once.
// Elementwise ops fused after the contraction (GemmEpilogue) run on each
// result element before it is stored.
//
// Products with few output tiles and k of 128 or more share k. Where the
// work of a whole output tile is small (chooseGemmKGroups), the threads of
// one workgroup share it: groups of threads each sum every other slice of
// k, and the groups' partial sums are added in shared memory in a fixed
// order before the one store, so the product stays one dispatch (a
// dispatch and its barrier cost about 3 us on a large GPU, more than such
// a product takes). Otherwise (a long k over few tiles, such as a large
// matrix-vector product) workgroups share k (GemmSplit): partial sums go
// to a scratch tensor, and a second, small kernel adds them in a fixed
// order and stores the result, epilogue included.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lowering/KernelGenerator.h"
#include "lowering/KernelSizes.h"

#include <functional>

namespace onyx::lowering {

/// The blocking of one GEMM kernel: a workgroup computes bm x bn outputs
/// with (bm / tm) * (bn / tn) threads of tm x tn outputs each, stepping bk
/// along k. With kGroups > 1, the workgroup holds that many such groups of
/// threads: it steps kGroups * bk along k, group g summing the g-th slice
/// of bk of each step, and adds the groups' sums before storing.
struct GemmTile {
  unsigned bm, bn, bk, tm, tn;
  unsigned kGroups = 1;

  unsigned getGroupThreads() const { return (bm / tm) * (bn / tn); }
  unsigned getNumThreads() const { return getGroupThreads() * kGroups; }
  /// How far along k one step of the workgroup goes.
  unsigned getStepK() const { return bk * kGroups; }
};

/// A read-only buffer that storing a result reads besides the accumulator
/// (Gemm's C, Conv's bias, the inputs of a fused epilogue), bound after the
/// operands (or after the partial sums of a split k).
struct GemmStoreInput {
  /// The buffer's GLSL name (`name.d[]`).
  std::string name;
  Type elementType;
  Value view;
};

/// Elementwise ops applied to a contraction's result as it is stored
/// (onnx.FusedElementwise with a contraction first, ElementwiseKernels.cpp):
/// the kernel writes their result rather than the contraction's.
struct GemmEpilogue {
  /// The value the kernel computes (the fused op's result): of the
  /// contraction's result shape, of any element type.
  Value result;
  /// The buffers `write` reads.
  SmallVector<GemmStoreInput> inputs;
  /// Appends to `code` statements that compute the final value from
  /// `value` (an expression of the contraction's compute type), the
  /// element at flat index `index` (a uint variable) of the result, whose
  /// dims are `dims` (sizes spelled through `sizes`), and returns the final
  /// value's expression (of the result's compute type); empty after
  /// reporting an error.
  std::function<std::string(StringRef value, StringRef index,
                            KernelSizes &sizes, ArrayRef<Size> dims,
                            std::string &code)>
      write;
};

/// A LayerNormalization or RMSNormalization over the rows of A that the
/// kernels apply as they load A (isNormFusedIntoMatMuls): each workgroup
/// first computes the mean and the inverse standard deviation of the rows
/// it reads (generateRowNormStats), two passes over each row as the norm's
/// own kernel does, into shared `nStats` (mean, then inverse standard
/// deviation, per row from `nRow0`), which the problem's loadA reads. A row
/// of a decode step is a few KiB against the weights' megabytes, so reading
/// it again per workgroup costs little and saves the norm's dispatch.
struct GemmRowNorm {
  /// RMSNormalization: no mean.
  bool rms = false;
  double epsilon = 0;
  /// `loadX(row, k)`, A's element before normalization, is defined by the
  /// problem's functions.
};

/// A batch of matrix products, with the operands' GLSL.
///
/// Any of m, n, k and batch may be known only at run time (a Size holding
/// an index value of the host program): the GLSL spells sizes through
/// `sizes` (a literal where static, a push constant `pc.sN` where not), and
/// all the kernels of one problem share its push constants. Tiles cannot
/// depend on a run-time size: they are chosen for kNominalDim in its place,
/// and bounds checks are kept wherever a dimension is dynamic.
struct GemmProblem {
  Size m = 0, n = 0, k = 0;
  /// Products in the batch (gl_WorkGroupID.z).
  Size batch = 1;
  /// Spells the sizes of the GLSL; null for a problem of static sizes
  /// (dispatchGemm then makes one).
  KernelSizes *sizes = nullptr;
  /// The result's dims (of the contraction, and so of a fused epilogue);
  /// empty where its type is static.
  SmallVector<Size> resultDims;
  /// The element type of A, B and C; the kernel accumulates in its compute
  /// type (glsl::computeType).
  Type elementType;
  /// The type the operands of each product are rounded to where it is
  /// narrower than elementType (f16 under precision=f16: loadA and loadB
  /// return f16 values, from f16 weights or rounded as loaded, and the
  /// kernel still accumulates in float); null otherwise. The scalar
  /// kernels need nothing more; it is what a kernel on f16 matrix
  /// instructions (cooperative matrices), chosen by the target's
  /// KernelChoices, would take its operands as.
  Type productType;
  /// Whether A(row, k + 1) follows A(row, k) in memory (else A(row + 1, k)
  /// follows A(row, k): a transposed A); the same for B(k, col + 1) after
  /// B(k, col). Tiles are copied along the contiguous dimension.
  bool aRowMajor = true, bRowMajor = true;
  /// Whether the GLSL defines `vec4 loadA4(uint row, uint k)` (and loadB4),
  /// four consecutive elements along the contiguous dimension from the
  /// given one. Only for f32 operands whose contiguous dimension is a
  /// multiple of 4 and whose buffer is declared as vec4.
  bool aVector = false, bVector = false;
  /// The declarations of A (binding 0) and B (binding 1), and of
  /// loadInputs (from binding 2).
  std::string declarations;
  /// Read-only buffers the load functions read besides A and B (a fused
  /// normalization's scale and bias), bound after B by the kernels that
  /// load operands (not by the one adding a split k's partial sums).
  SmallVector<GemmStoreInput, 2> loadInputs;
  /// A normalization of A's rows applied as A is loaded, if any.
  std::optional<GemmRowNorm> rowNorm;
  /// Global variables the prologue sets.
  std::string globals;
  /// Statements run once at the start of a workgroup (and of a reduction
  /// of a split k), with `uint z` (the product of the batch) defined: they
  /// set the globals (batch offsets) that the functions and outputIndex
  /// read. They read no buffer.
  std::string prologue;
  /// Definitions of, with CT the compute type:
  ///   CT loadA(uint row, uint k)      - called with row < m, k < k
  ///   CT loadB(uint k, uint col)      - called with k < k, col < n
  std::string functions;
  /// The flat index in the result of element (row, col) of product z: a
  /// uint expression of `row`, `col` and the globals.
  std::string outputIndex;
  /// Where in the result's memory element (row, col) is stored, if not at
  /// outputIndex (a result stored with permuted strides); storeInputs and
  /// the epilogue still read at outputIndex.
  std::string storeIndex;
  /// The results of a Split of the product's result along its columns
  /// (isSplitWrittenByMatMul): the store writes each block of columns into
  /// a tensor of its own (the Split's result), bound in order in place of
  /// the one result. Empty to store the whole result.
  SmallVector<Value, 3> splitResults;
  /// Where each part's element (`so`, `sc`) (its row, and its column) is
  /// stored, for the parts that are not row-major tensors of their own: the
  /// new rows of a decoder's cache, stored into its state (storeIntoCache).
  /// Set by dispatchGemm; empty for row-major.
  SmallVector<std::string, 3> splitStoreIndex;
  /// Statements turning the accumulator `CT acc` into the result's element
  /// `CT v` (alpha, beta, C, bias); they may read `uint idx`, the output
  /// index, and storeInputs.
  std::string outputValue;
  SmallVector<GemmStoreInput, 2> storeInputs;
  /// Applied to `v` before it is stored, if any.
  const GemmEpilogue *epilogue = nullptr;
  /// If not empty, the product runs as this one kernel instead (a
  /// depthwise convolution's windows on a CPU device): statements run by
  /// invocation `uint i` < directInvocations of product z, after the
  /// prologue, that call storeC for the outputs it computes, with the
  /// declarations, globals, functions and store of the tiled kernel.
  std::string directBody;
  Size directInvocations = 0;
  /// Whether the caller dispatches the kernel for runs of at most 4 rows
  /// itself (a product of packed weights, whose matrix-vector kernel reads
  /// them as they are): dispatchGemm then dispatches only the tiled kernels,
  /// for runs of more rows where m is known only at run time.
  bool fewRowsByCaller = false;
};

/// Where dispatchGemm stores the result: the tensors it allocated (or the
/// cache state or Split parts it writes), and the store indices of those
/// that are not row-major tensors of their own, for a caller that
/// dispatches a kernel of its own into the same memory.
struct GemmOutputs {
  SmallVector<Value, 3> ys;
  std::string storeIndex;
  SmallVector<std::string, 3> splitStoreIndex;
};

/// The size tiles are chosen for in place of a dimension known only at
/// run time: large enough that prefill-sized products get the tiles their
/// specialized kernels would.
constexpr int64_t kNominalDim = 256;

/// Whether every size of `problem` is known at compile time.
bool isStatic(const GemmProblem &problem);

/// The tile that suits `problem` on `target`: large tiles for large
/// products, thin ones for matrix-vector products, all within the target's
/// invocation and shared-memory limits.
GemmTile chooseGemmTile(const GemmProblem &problem,
                        const gpu::TargetDesc &target);

/// Whether one workgroup of `tile` summing all of `problem`'s k (kNominalDim
/// where only the run knows it) costs less than a second dispatch and its
/// barrier (about 3 us on a large GPU): at most 2^18 multiply-adds (about
/// 1 us of one multiprocessor) and 256 KiB of operands read.
bool isCheapGemmTile(const GemmProblem &problem, const GemmTile &tile);

/// `tile` (the tile chooseGemmTile chose for `problem`, whose k would be
/// split among workgroups) with k shared among groups of threads of each
/// workgroup instead, if the cost rule accepts it; `tile` itself
/// (kGroups = 1) if not. The rule: tiles are halved (the longer side, not
/// below 8) while there are fewer than 32, and a workgroup may then do at
/// most 2^18 multiply-adds (bm * bn * k: about 1 us of one multiprocessor)
/// and read at most 256 KiB of operands ((bm + bn) * k elements: about
/// what one multiprocessor reads in the 3 us a second dispatch and its
/// barrier cost). Groups are of 32 threads, up to 256 threads in all, each
/// group getting at least one step of k. A long k over few tiles (a 1 x
/// 4096 x 4096 matrix-vector product reads 1 MiB per tile) is left to
/// GemmSplit, which spreads it over many more workgroups.
GemmTile chooseGemmKGroups(const GemmProblem &problem, const GemmTile &tile,
                           const gpu::TargetDesc &target);

/// How a product too small to fill a GPU shares k among workgroups: each
/// of `splits` workgroups per output tile sums `chunk` (a multiple of bk)
/// steps of k into a partial sum; a second kernel adds the partial sums of
/// each output in a fixed order (so results do not depend on scheduling)
/// and stores the result. One split is the plain kernel.
struct GemmSplit {
  Size splits = 1;
  Size chunk = 0;
  /// For a split of run-time sizes: 1 where the run splits k, else 0 (the
  /// unsplit kernel runs instead).
  Size gate = 1;

  bool isSplit() const { return !splits.isStatic() || splits.constant > 1; }
};

/// The split of k for `problem` blocked by `tile` on `target`: float
/// products with fewer than 128 workgroups (too few for a large GPU, which
/// the kernels cannot ask about) and k of 128 or more are split into chunks
/// of at least 32 so that about 256 workgroups run (kSplitWorkgroups).
GemmSplit chooseGemmSplit(const GemmProblem &problem, const GemmTile &tile,
                          const gpu::TargetDesc &target);

/// The same rule for a product of sizes known only at run time (not for
/// static ones), computed on the host: the kernel reads the splits and the
/// chunk as push constants, and `gate` says whether the run splits at all.
/// No split where k is static and below 128 or the compute type is not
/// float.
GemmSplit chooseDynamicGemmSplit(LoweringContext &ctx,
                                 const GemmProblem &problem,
                                 const GemmTile &tile);

/// How a product with few rows runs as one matrix-vector kernel (Gemv.cpp)
/// instead of the tiled one: each workgroup of `threads` owns `cols` output
/// columns and all of k. Where B's columns are contiguous, `lanes` threads
/// walk the columns (a vec4 of them each if `vector`) and the rest of the
/// threads slices of k; where B's k is contiguous, 32 threads walk each
/// column's k (four at a time if `vector`).
struct GemvShape {
  bool use = false;
  bool columnsContiguous = true;
  bool vector = false;
  /// Invocations per workgroup; with B's columns contiguous, invocations
  /// side by side along a row (each a column or a vec4 of them); with B's
  /// k contiguous, invocations sharing one column's k; columns per
  /// workgroup.
  unsigned threads = 0, lanes = 0, cols = 0;
  /// With B's k contiguous: the loads of B each invocation issues before
  /// using them, and the subgroup clusters that add a column's partial
  /// sums (0: shared memory adds them all).
  unsigned unroll = 1, cluster = 0;
  /// The subgroup clusters that add a fused norm's row sums (0: none).
  unsigned statsCluster = 0;
};

/// The matrix-vector kernel for `problem` if it suits it: float products of
/// at most 4 rows, k of 64 or more and a B of 16384 elements or more, on a
/// target with 64 invocations or more per workgroup; a dynamic m counts as
/// 4 rows (dispatchGemm then also emits the tiled kernel, and the run skips
/// one of the two), a dynamic n or k as kNominalDim. With B's columns
/// contiguous, lanes are halved (not below 32 contiguous bytes of a row)
/// until there are 128 workgroups, so narrow matrices spread over a large
/// GPU; with B's k contiguous, a column gets 32 invocations, doubled while
/// each would still load 16 or more of its elements.
GemvShape chooseGemv(const GemmProblem &problem, const gpu::TargetDesc &target);
/// The matrix-vector kernel: `store` declares the store inputs and the
/// result from binding 2 on and defines storeC (as for the tiled kernel).
/// With m known only at run time it has accumulators for 4 rows and skips
/// those beyond m (a branch on a push constant, uniform across the
/// workgroup).
std::string generateGemvKernel(const GemmProblem &problem,
                               const GemvShape &shape,
                               const std::string &store);

/// Shared memory and globals the row statistics of `problem.rowNorm` need
/// for `rows` rows and `threads` invocations; empty without a rowNorm.
std::string declareRowNormStats(const GemmProblem &problem, unsigned rows,
                                unsigned threads);
/// Statements, run by every invocation `tid` of a workgroup of `threads` in
/// uniform control flow, that compute the statistics of rows `first`
/// (a uint expression) to `first + rows - 1` (those below m) into nStats
/// with `nRow0 = first`; empty without a rowNorm. With `cluster` (a power
/// of 2, the kernel declaring GL_KHR_shader_subgroup_clustered), each row's
/// sums are added in subgroup clusters of that size first, and shared
/// memory adds only the clusters' sums: 2 barriers per pass, not 2 plus
/// the log2 of the invocations per row.
std::string generateRowNormStats(const GemmProblem &problem, StringRef first,
                                 unsigned rows, unsigned threads, StringRef tid,
                                 unsigned cluster = 0);
/// The subgroup size kernels of `threads` invocations may add in clusters
/// of (clustered arithmetic and a known power-of-2 size dividing
/// `threads`), 0 where the target has none.
unsigned getSubgroupCluster(const gpu::TargetDesc &target, unsigned threads);
/// Whether `op` is a LayerNormalization or RMSNormalization (or ONNX
/// Runtime's SimplifiedLayerNormalization) over the last axis of static
/// length, of f32, with no statistics results used, whose result only
/// MatMuls (or MatMulNBits) read, each as its A (directly or through a fused
/// body's argument), besides Shape and Size (which read only its dims), with
/// room for the scale and bias among the target's bindings. Such a norm emits
/// nothing: its result names its input's memory, and each MatMul normalizes A's
/// rows as it loads them (GemmRowNorm).
bool isNormFusedIntoMatMuls(Operation *op, const gpu::TargetDesc &target);
/// The norm whose result is operand A of contraction `op` (through a fused
/// body's argument too), if isNormFusedIntoMatMuls accepts it; else null.
Operation *getFusedNorm(Operation *op, const gpu::TargetDesc &target);

/// The buffers storeC reads (the problem's store inputs, then the
/// epilogue's), in binding order.
SmallVector<GemmStoreInput> getGemmStoreInputs(const GemmProblem &problem);
/// Declares the store's inputs from binding `first` on, then the result
/// `y`, and defines storeC, which stores the result of accumulator `acc`
/// at (row, col) of product z. Empty after an error of the epilogue.
std::string generateGemmStore(const GemmProblem &problem, unsigned first);

/// The complete GLSL kernel for `problem` blocked by `tile`: with a split
/// k, the kernel that writes the partial sums.
std::string generateGemmKernel(const GemmProblem &problem, const GemmTile &tile,
                               const GemmSplit &split = {});

/// Chooses the matrix-vector kernel for a product of few rows (chooseGemv),
/// both it and the tiled one where m is known only at run time (grids
/// multiplied by 0 or 1 so that a run of at most 4 rows dispatches only
/// the former and a longer one only the latter),
/// else the tile and how k is shared (chooseGemmSplit, then
/// chooseGemmKGroups for a product it splits; with m known only at run
/// time, that choice for each class of few rows and the tiles for
/// kNominalDim rows beyond them, each gated by the run's m), generates the
/// kernels and
/// dispatches them over the whole batch with `a` and `b` bound first, then the
/// store inputs and the epilogue's, then the result, which it allocates and
/// sets as the memory of `result` (or of the epilogue's). Fails with an error
/// for an empty inner dimension (k = 0), whose operands are empty views
/// that cannot be bound.
/// A result of three dims whose rows a decoder's cache append takes is
/// stored into the cache's state (storeIntoCache). `outputs`, if given,
/// receives where the result went.
LogicalResult dispatchGemm(LoweringContext &ctx, StringRef name,
                           const GemmProblem &problem, Value a, Value b,
                           Value result, GemmOutputs *outputs = nullptr);

/// Makes `p` normalize A's rows with `norm` as it loads them: its scale
/// and bias are load inputs (bound after B and the load inputs before
/// them), and loadA applies them to loadX with the statistics the kernel
/// computes first (GemmRowNorm).
LogicalResult addRowNorm(LoweringContext &ctx, GemmProblem &p, Operation *norm);

/// Whether `op` is a Transpose (of rank 2 or more) whose only reader is
/// operand A or B of a MatMul, directly or through the argument of a fused
/// body that only its contraction reads. Such a Transpose emits nothing
/// (convert-onnx-to-gpu gives its result its input's memory) and the
/// MatMul reads the input with the permuted strides, so a transposed
/// operand is never materialized.
bool isTransposeAbsorbed(Operation *op);

/// Whether `op` is a Split (of a static, non-empty input) whose every
/// result is read only as MatMul operands: directly, through absorbed
/// Transposes, and through reshapes whose strides compose over the window.
/// Such a Split emits nothing: each result names the whole input's memory
/// and the MatMul reads its window at a baked element offset (so no view
/// starts at an unaligned byte offset) with the input's strides.
bool isSplitAbsorbed(Operation *op);

/// Whether `op` is a Transpose, not itself absorbed, whose input is only
/// read by it and is the result of a MatMul (or of a fused body a MatMul
/// starts). Such a Transpose emits nothing: the MatMul stores its result
/// with the permuted strides (its epilogue still reads at the unpermuted
/// index), and the Transpose's result names that memory.
bool isTransposeWrittenByMatMul(Operation *op);

/// Whether `op` is a Split along the last axis of static length, not
/// absorbed, whose input only it reads and is the result of a MatMul (or
/// of a fused body a MatMul starts) whose operands are of rank 2 or more,
/// with room among the target's bindings for one result per part. Such a
/// Split emits nothing: the MatMul's store writes each part's columns into
/// the Split's results (GemmProblem::splitResults).
bool isSplitWrittenByMatMul(Operation *op, const gpu::TargetDesc &target);

/// The tensors the parts of a Split that a product writes
/// (isSplitWrittenByMatMul) are stored into, in order: for a decoder's new
/// key or value rows, its cache's state (storeIntoCache), with the index of
/// the part's element (`so`, `sc`) (its row, and its column in the whole
/// result) in `storeIndex`; else a tensor of the part's own, set as its
/// result, with an empty index. `resultDims` are the whole result's.
SmallVector<Value, 3>
allocateSplitParts(LoweringContext &ctx, KernelSizes &sizes,
                   ArrayRef<Value> parts, ArrayRef<Size> resultDims,
                   SmallVectorImpl<std::string> &storeIndex);
/// GLSL statements storing `value` (of `resultType`), element `index` of
/// the whole result, into the part holding its column: `parts` bound as
/// y0, y1, ..., stored at `storeIndex` where that is not empty.
std::string generateSplitStores(ArrayRef<Value> parts,
                                ArrayRef<std::string> storeIndex,
                                Type resultType, StringRef index,
                                StringRef value);

/// Whether `value` is an absorbed Split's result or a reshape of one: its
/// view is the whole Split input's, which only MatMuls read.
bool isSplitWindow(Value value);

/// Whether `op` is a contraction that lowers to the GEMM kernel and takes
/// an epilogue (MatMul, Gemm, Conv).
bool isGemmContraction(Operation *op);
/// The number of storage buffers the contraction `op` binds, its result
/// included.
unsigned getNumGemmBindings(Operation *op);
/// Lowers the contraction `op` with `epilogue` (null for none) applied as
/// its result is stored.
LogicalResult lowerGemmContraction(Operation *op, LoweringContext &ctx,
                                   const GemmEpilogue *epilogue);

/// Whether operands of `elementType` may be read as vec4 on the target:
/// f32 in views whose offsets keep vec4s aligned.
bool canLoadVectors(LoweringContext &ctx, Type elementType);
/// A read-only buffer `name` of vec4s at `binding` (`name.d[i]`).
std::string vectorBuffer(unsigned binding, StringRef name);
/// An expression reading float `index` of such a buffer (for tiles that
/// cannot use vectors).
std::string vectorBufferElement(StringRef name, StringRef index);

/// Whether a view of `type` fits one binding on the target; reports an
/// error at the op if not.
LogicalResult checkBindingSize(LoweringContext &ctx, RankedTensorType type);

} // namespace onyx::lowering

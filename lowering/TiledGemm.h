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
// calls for in-bounds elements (loadA, loadB, storeC, see GemmProblem), so
// transposed operands, broadcast batches, im2col indexing with padding and
// epilogues (alpha, beta, C, bias) stay with the op while the tiling is
// written once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lowering/KernelGenerator.h"

namespace onyx::lowering {

/// The blocking of one GEMM kernel: a workgroup computes bm x bn outputs
/// with (bm / tm) * (bn / tn) threads of tm x tn outputs each, stepping bk
/// along k.
struct GemmTile {
  unsigned bm, bn, bk, tm, tn;

  unsigned getNumThreads() const { return (bm / tm) * (bn / tn); }
};

/// A batch of matrix products, with the operands' GLSL.
struct GemmProblem {
  int64_t m = 0, n = 0, k = 0;
  /// Products in the batch (gl_WorkGroupID.z).
  int64_t batch = 1;
  /// The element type of A, B and C; the kernel accumulates in its compute
  /// type (glsl::computeType).
  Type elementType;
  /// Whether A(row, k + 1) follows A(row, k) in memory (else A(row + 1, k)
  /// follows A(row, k): a transposed A); the same for B(k, col + 1) after
  /// B(k, col). Tiles are copied along the contiguous dimension.
  bool aRowMajor = true, bRowMajor = true;
  /// Whether the GLSL defines `vec4 loadA4(uint row, uint k)` (and loadB4),
  /// four consecutive elements along the contiguous dimension from the
  /// given one. Only for f32 operands whose contiguous dimension is a
  /// multiple of 4 and whose buffer is declared as vec4.
  bool aVector = false, bVector = false;
  /// Buffer declarations and any global variables the functions use.
  std::string declarations;
  /// Statements run once at the start of a workgroup, with `uint z` (the
  /// product of the batch) defined: they typically set global variables
  /// (batch offsets) that the functions read.
  std::string prologue;
  /// Definitions of, with CT the compute type:
  ///   CT loadA(uint row, uint k)      - called with row < m, k < k
  ///   CT loadB(uint k, uint col)      - called with k < k, col < n
  ///   void storeC(uint row, uint col, CT acc)  - for row < m, col < n
  std::string functions;
};

/// The tile that suits `problem` on `target`: large tiles for large
/// products, thin ones for matrix-vector products, all within the target's
/// invocation and shared-memory limits.
GemmTile chooseGemmTile(const GemmProblem &problem,
                        const gpu::TargetDesc &target);

/// The complete GLSL kernel for `problem` blocked by `tile`.
std::string generateGemmKernel(const GemmProblem &problem,
                               const GemmTile &tile);

/// Chooses the tile, generates the kernel and dispatches it over the whole
/// batch with `views` bound (in the order of `accesses`). Fails with an
/// error for an empty inner dimension (k = 0), whose operands are empty
/// views that cannot be bound.
LogicalResult dispatchGemm(LoweringContext &ctx, StringRef name,
                           const GemmProblem &problem,
                           ArrayRef<gpu::Access> accesses, ValueRange views);

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

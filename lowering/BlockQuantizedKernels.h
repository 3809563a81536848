//===- BlockQuantizedKernels.h - MatMulNBits with an epilogue ---*- C++ -*-===//
//
// com.microsoft MatMulNBits takes the elementwise ops after it as the
// epilogue of its kernels (onnx-fuse-elementwise moves it into a
// FusedElementwise as it does a MatMul), so a decoder's residual Add or
// SiLU-times-up product costs no dispatch of its own; a LayerNormalization
// or RMSNormalization before it is applied as its kernels load A
// (isNormFusedIntoMatMuls, GemmRowNorm), as MatMul's are.
//
// The kernels share NBitsProblem and the declarations of nbitsCommon; the
// matrix-vector kernel of decode steps is in NBitsGemv.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lowering/KernelGenerator.h"
#include "lowering/TiledGemm.h"

#include <optional>

namespace onyx::lowering {

/// Whether `op` is a MatMulNBits whose kernels can apply an epilogue.
bool isNBitsContraction(Operation *op);

/// The storage buffers MatMulNBits `op`'s kernels bind, its result
/// included (before a fused norm's parameters).
unsigned getNumNBitsBindings(Operation *op);

/// Lowers MatMulNBits `op`; with `epilogue`, its kernels store the
/// epilogue's result instead of the product's.
LogicalResult lowerMatMulNBits(Operation *op, LoweringContext &ctx,
                               const GemmEpilogue *epilogue);

/// A MatMulNBits as its kernels see it: A is m x k (row-major), B's rows are
/// its n output columns, each `blocks` blocks of `blob` bytes.
struct NBitsProblem {
  int64_t k, n, bits, blockSize, blocks, blob;
  Size m;
  Type et;
  bool hasZeros, floatZeros, hasBias;
  /// Whether `a` is declared as vec4s (f32, k a multiple of 4).
  bool aVector = false;
  /// A LayerNormalization or RMSNormalization applied to A's rows as they
  /// are loaded; its scale (and bias) are bound after the product's bias,
  /// as vec4s where `aVector`.
  std::optional<GemmRowNorm> rowNorm;
  bool normBias = false;
  /// Elementwise ops applied as the kernels store (a FusedElementwise whose
  /// body starts with the product), with the sizes their code spells.
  const GemmEpilogue *epilogue = nullptr;
  KernelSizes *sizes = nullptr;
  SmallVector<Size> resultDims;
  /// Where element (row, col) is stored, if not at row * n + col (the rows
  /// of a decoder's cache, stored into its state); the epilogue still reads
  /// at row * n + col.
  std::string storeIndex;
  /// The results of a Split of the result along its columns that the
  /// kernels write part by part (isSplitWrittenByMatMul), bound as y0, y1,
  /// ... in place of y, and where each part's elements go
  /// (allocateSplitParts); empty to store the whole result.
  SmallVector<Value, 3> splitResults;
  SmallVector<std::string, 3> splitStoreIndex;

  int64_t valuesPerWord() const { return 32 / bits; }
  int64_t wordsPerRow() const { return blocks * blob / 4; }
};

/// The declarations and helpers both MatMulNBits kernels share: buffers
/// (B as `bType`), `float scaleOf(uint block)`, `float zeroOf(uint block)`
/// (blocks numbered n * blocks + b), `float loadX(uint row, uint k)` (A as
/// stored), `float loadA(uint row, uint k)` and `vec4 loadA4(uint row, uint
/// k)` (A normalized where a norm is fused, reading the statistics the
/// kernel computes first) and `void storeY(uint row, uint col, float v)`,
/// which adds the bias and applies the epilogue. Empty after an error.
std::string nbitsCommon(const NBitsProblem &p, StringRef bType);

/// A GemmProblem carrying only what generateRowNormStats reads of `p`.
GemmProblem nbitsStatsProblem(const NBitsProblem &p);

/// How the matrix-vector kernel splits its work (NBitsGemv.cpp).
struct NBitsGemvPlan {
  unsigned threads; // per workgroup
  unsigned lanes;   // invocations sharing a column, striding over its words
  unsigned groups;  // columns groups per workgroup (threads / lanes)
  unsigned columns; // columns per invocation, sharing each x value loaded
  unsigned unroll;  // words of B each invocation loads before using them
  unsigned cluster; // subgroup clusters adding the lanes' sums (0: none)
  unsigned statsCluster; // the same for a fused norm's row statistics
};

/// The plan for `p` (at most 4 rows) on `target`.
NBitsGemvPlan planNBitsGemv(const NBitsProblem &p,
                            const gpu::TargetDesc &target);

/// The matrix-vector kernel (`m`: the rows' count as GLSL, `rows` its
/// static bound); empty after an error.
std::string generateNBitsGemv(const NBitsProblem &p, const NBitsGemvPlan &g,
                              const std::string &m, int64_t rows);

} // namespace onyx::lowering

//===- TiledGemm.cpp - The tiled GEMM kernel MatMul, Gemm and Conv share --===//

#include "lowering/TiledGemm.h"

#include "lowering/Glsl.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace onyx::lowering {

namespace {

/// Short, as kernels spell many literals.
std::string (&u)(int64_t) = glsl::uintLiteral;

/// The most work of one workgroup that is cheaper than a second dispatch
/// (isCheapTile).
constexpr int64_t kCheapTileMacs = int64_t(1) << 18;
constexpr int64_t kCheapTileBytes = 256 * 1024;
/// The workgroups a split of k aims for: about two per multiprocessor of a
/// large GPU (132 on an H100 or H200). With more, each workgroup sums a
/// shorter chunk and the partial sums grow to a large share of the bytes
/// moved: aiming for 1024, GPT-2's 128-token prefill took 25% longer on an
/// H200 (bench/RESULTS.md).
constexpr int64_t kSplitWorkgroups = 256;

unsigned getComputeBytes(Type elementType) {
  std::string type = glsl::computeType(elementType);
  return type == "double" || type == "int64_t" || type == "uint64_t" ? 8 : 4;
}

/// Shared-memory row strides of the A and B tiles (both stored k-major, so
/// that the inner loop reads a row of A and a row of B at one k). A tile
/// copied along k has threads a row apart writing at once; padding the row
/// by 4 spreads them over the banks.
unsigned getStrideA(const GemmProblem &p, const GemmTile &t) {
  return p.aRowMajor && t.bm >= 32 ? t.bm + 4 : t.bm;
}
unsigned getStrideB(const GemmProblem &p, const GemmTile &t) {
  return !p.bRowMajor && t.bn >= 32 ? t.bn + 4 : t.bn;
}

/// The shared array where the groups of a workgroup that shares k pass
/// their partial sums: half the groups write theirs at once.
uint64_t getReductionElements(const GemmTile &t) {
  return t.kGroups > 1 ? uint64_t(t.kGroups / 2) * t.bm * t.bn : 0;
}

unsigned powerOf2Ceil(int64_t value) {
  return unsigned(llvm::PowerOf2Ceil(uint64_t(std::max<int64_t>(value, 1))));
}

/// Whether a vector copy of the operand's tile works with `tile`: the tile
/// must span whole vectors along the operand's contiguous dimension.
bool useVectorA(const GemmProblem &p, const GemmTile &t) {
  return p.aVector && (p.aRowMajor ? t.getStepK() % 4 == 0 : t.bm % 4 == 0);
}
bool useVectorB(const GemmProblem &p, const GemmTile &t) {
  return p.bVector && (p.bRowMajor ? t.bn % 4 == 0 : t.getStepK() % 4 == 0);
}

/// Whether both tiles are kept k-contiguous in shared memory: where A is
/// row-major and B is stored [n, k] (a Gemm with transB, the weights of
/// products with run-time rows) and copied as vec4s along k. The copy of
/// B then stores whole vec4s as it loaded them (A's too where A is copied
/// as vec4s; a scalar copy of A, such as one that normalizes its rows,
/// stores neighbouring words), and the inner loop reads a vec4 along k per
/// row of A and per column of B. The k-major layout
/// would scatter every such vec4 into four words k * stride apart.
bool useKContiguousTiles(const GemmProblem &p, const GemmTile &t) {
  return glsl::computeType(p.elementType) == "float" && p.aRowMajor &&
         !p.bRowMajor && useVectorB(p, t) && t.bk % 4 == 0;
}

/// The vec4s per row of a k-contiguous tile: odd, so that the eight rows
/// (columns) that a quarter of a subgroup reads at once fall in distinct
/// 16-byte bank groups.
unsigned getKContiguousStride(const GemmTile &t) {
  unsigned vectors = t.getStepK() / 4;
  return vectors % 2 ? vectors : vectors + 1;
}

uint64_t getSharedBytes(const GemmProblem &p, const GemmTile &t) {
  // A fused norm's statistics and their reduction (declareRowNormStats).
  uint64_t normBytes =
      p.rowNorm ? (2 * uint64_t(t.bm) + t.getNumThreads()) * sizeof(float) : 0;
  uint64_t tiles =
      useKContiguousTiles(p, t)
          ? uint64_t(t.bm + t.bn) * getKContiguousStride(t) * 4
          : uint64_t(t.getStepK()) * (getStrideA(p, t) + getStrideB(p, t));
  return (tiles + getReductionElements(t)) * getComputeBytes(p.elementType) +
         normBytes;
}

bool fits(const GemmProblem &p, const GemmTile &t,
          const gpu::TargetDesc &target) {
  unsigned threads = t.getNumThreads();
  return threads <= target.maxComputeWorkGroupInvocations &&
         threads <= target.maxComputeWorkGroupSize[0] &&
         getSharedBytes(p, t) <= target.maxComputeSharedMemorySize;
}

/// A size as the heuristics see it: kNominalDim where only the run knows.
int64_t nominal(Size size) {
  return size.isStatic() ? size.constant : kNominalDim;
}

uint64_t countTiles(const GemmProblem &p, const GemmTile &t) {
  return glsl::ceilDiv(nominal(p.m), t.bm) * glsl::ceilDiv(nominal(p.n), t.bn) *
         nominal(p.batch);
}

/// Whether a dimension of `size` may not fill its last tile of `tile`.
bool needsCheck(Size size, unsigned tile) {
  return !size.isStatic() || size.constant % tile != 0;
}

} // namespace

bool isStatic(const GemmProblem &p) {
  return p.m.isStatic() && p.n.isStatic() && p.k.isStatic() &&
         p.batch.isStatic();
}

GemmTile chooseGemmTile(const GemmProblem &p, const gpu::TargetDesc &target) {
  GemmTile t;
  int64_t m = nominal(p.m), n = nominal(p.n), batch = nominal(p.batch);
  const gpu::KernelChoices &choices = target.getKernelChoices();
  uint64_t minWorkgroups = choices.minGemmWorkgroups;
  if (m <= 8 || n <= 8) {
    // A matrix-vector product (or nearly): the thin side whole in one
    // tile, 64 threads along the other side with up to 4 outputs each.
    bool thinM = m <= n;
    unsigned thin = powerOf2Ceil(std::min(m, n));
    int64_t length = thinM ? n : m;
    unsigned wide = std::min(256u, std::max(thin, powerOf2Ceil(length)));
    // Narrower tiles while that leaves too few workgroups to fill a GPU.
    while (wide > 64 && glsl::ceilDiv(length, wide) * batch < minWorkgroups)
      wide /= 2;
    unsigned per = std::max(1u, wide / 64);
    t = thinM ? GemmTile{thin, wide, 16, thin, per}
              : GemmTile{wide, thin, 16, per, thin};
  } else {
    // Tiles of up to 128 x 128 with 8 x 8 outputs per thread for large
    // products (a workgroup of 256, 16 KiB of shared memory for floats),
    // 64 x 64 with 4 x 4 where 128 x 128 leaves too few workgroups, and
    // smaller sides for small dimensions; 16 x 16 threads where possible.
    unsigned bm = std::min(128u, powerOf2Ceil(m));
    unsigned bn = std::min(128u, powerOf2Ceil(n));
    if (bm == 128 && bn == 128 &&
        glsl::ceilDiv(m, 128) * glsl::ceilDiv(n, 128) * batch < minWorkgroups)
      bm = bn = 64;
    t = {bm, bn, 16, std::clamp(bm / 16, 1u, 8u), std::clamp(bn / 16, 1u, 8u)};
    if (unsigned block = choices.gemmThreadBlock;
        block && glsl::computeType(p.elementType) == "float") {
      t.tm = std::min(bm, block);
      t.tn = std::min(bn, block);
    }
  }
  // Tiles of 8 x 8 outputs a thread that stay contiguous along k
  // (useKContiguousTiles) take the target's step along k. On an H200, GPT-2's
  // logits product at 128 tokens (128 x 768 x 50257) took 704 us with 32
  // against 807 with 16; its 64 x 64 tiles of 4 x 4 took longer with 32 (83
  // -> 95 us), so they keep 16 (bench/RESULTS.md).
  if (unsigned stepK = choices.kContiguousStepK;
      stepK && t.tm * t.tn >= 64 && nominal(p.k) >= 2 * int64_t(stepK)) {
    GemmTile stepped = t;
    stepped.bk = stepK;
    if (useKContiguousTiles(p, stepped))
      t = stepped;
  }
  // Fit the target: fewer threads with more outputs each, less shared
  // memory with a shorter step along k, and smaller tiles as a last resort.
  while (!fits(p, t, target)) {
    unsigned threads = t.getNumThreads();
    bool tooManyThreads = threads > target.maxComputeWorkGroupInvocations ||
                          threads > target.maxComputeWorkGroupSize[0];
    if (tooManyThreads && t.tm <= t.tn && t.tm < std::min(t.bm, 8u)) {
      t.tm *= 2;
    } else if (tooManyThreads && t.tn < std::min(t.bn, 8u)) {
      t.tn *= 2;
    } else if (tooManyThreads && t.tm < std::min(t.bm, 8u)) {
      t.tm *= 2;
    } else if (!tooManyThreads && t.bk > 4) {
      t.bk /= 2;
    } else if (t.bm >= t.bn && t.bm > 1) {
      t.bm /= 2;
      t.tm = std::min(t.tm, t.bm);
    } else {
      t.bn /= 2;
      t.tn = std::min(t.tn, t.bn);
    }
  }
  return t;
}

namespace {

/// How a workgroup copies one operand's tile into shared memory: each
/// thread loads `perThread` pieces of `width` elements along the operand's
/// contiguous dimension into registers (the next tile's, while the current
/// one is multiplied), then stores them.
struct TileCopy {
  /// "a" or "b": the prefix of the GLSL variables.
  std::string name;
  bool isA;
  unsigned rows, cols; // the tile: m x k for A, k x n for B
  unsigned stride;     // of the shared array, along k
  bool rowMajor;
  unsigned width;
  unsigned threads;
  std::string check; // the bounds check of a load, empty if none
  /// Whether the shared array holds vec4s (written one float at a time).
  bool sharedVectors = false;
  /// Whether the shared array holds the tile's rows (A) or columns (B) as
  /// `stride` vec4s along k each (useKContiguousTiles), written whole.
  bool kContiguous = false;

  unsigned getUnits() const { return rows * cols / width; }
  unsigned getNumLoads() const { return (getUnits() + threads - 1) / threads; }
  bool isPartial(unsigned i) const { return (i + 1) * threads > getUnits(); }
  std::string var(StringRef what, unsigned i) const {
    return name + what.str() + std::to_string(i);
  }

  /// Declares each load's tile coordinates and register.
  std::string declare(StringRef ct) const {
    std::string s;
    unsigned contiguous = rowMajor ? cols : rows;
    unsigned perRow = contiguous / width;
    // Vectors along k are stored into the k-major shared array one float at
    // a time, k * stride apart: neighbouring threads walking along k would
    // all write one bank (a 32-way conflict where the stride is a multiple
    // of 32). Pairs of threads instead take the two vec4s of one 32-byte
    // sector of a row, and the pairs neighbouring rows (columns), so that a
    // store instruction spreads over the banks and a load still uses whole
    // sectors.
    bool alongK = isA == rowMajor;
    unsigned mnDim = isA ? rows : cols;
    bool paired = width == 4 && alongK && perRow % 2 == 0 && !kContiguous;
    for (unsigned i = 0; i < getNumLoads(); ++i) {
      std::string e = "(tid + " + u(i * threads) + ")";
      std::string r = var("r", i), c = var("c", i);
      if (paired) {
        std::string k =
            "((" + e + " / " + u(2 * mnDim) + ") * 2u + " + e + " % 2u) * 4u";
        std::string mn = "(" + e + " / 2u) % " + u(mnDim);
        s += "  uint " + (isA ? r : c) + " = " + mn + ", " + (isA ? c : r) +
             " = " + k + ";\n";
        s += "  vec4 " + var("v", i) + ";\n";
        continue;
      }
      // (r, c): the tile coordinates of the first element of the load.
      if (rowMajor)
        s += "  uint " + r + " = " + e + " / " + u(perRow) + ", " + c + " = (" +
             e + " % " + u(perRow) + ") * " + u(width) + ";\n";
      else
        s += "  uint " + c + " = " + e + " / " + u(perRow) + ", " + r + " = (" +
             e + " % " + u(perRow) + ") * " + u(width) + ";\n";
      s += "  " + (width == 1 ? ct.str() : std::string("vec4")) + " " +
           var("v", i) + ";\n";
    }
    return s;
  }

  /// Loads the tile starting at k = `k0` into the registers.
  std::string load(StringRef k0, StringRef ct) const {
    std::string s;
    std::string fn =
        (isA ? "loadA" : "loadB") + std::string(width == 4 ? "4" : "");
    for (unsigned i = 0; i < getNumLoads(); ++i) {
      std::string r = var("r", i), c = var("c", i), v = var("v", i);
      // A scope per load for its gr, gk, gc.
      std::string indent = "      ";
      if (isPartial(i))
        s +=
            "    if (tid + " + u(i * threads) + " < " + u(getUnits()) + ") {\n";
      else
        s += "    {\n";
      std::string gr, gc;
      if (isA) {
        gr = "row0 + " + r;
        gc = k0.str() + " + " + c;
        s += indent + "uint gr = " + gr + ", gk = " + gc + ";\n";
      } else {
        gr = k0.str() + " + " + r;
        gc = "col0 + " + c;
        s += indent + "uint gk = " + gr + ", gc = " + gc + ";\n";
      }
      std::string call = fn + (isA ? "(gr, gk)" : "(gk, gc)");
      std::string zero = width == 1 ? ct.str() + "(0)" : "vec4(0)";
      if (check.empty())
        s += indent + v + " = " + call + ";\n";
      else
        s += indent + v + " = (" + check + ") ? " + call + " : " + zero + ";\n";
      s += "    }\n";
    }
    return s;
  }

  /// Stores the registers into shared array `array` (k-major: A(r, k) at
  /// [k * stride + r], B(k, c) at [k * stride + c]; k-contiguous: the vec4
  /// from A(r, k) at [r * stride + k / 4], from B(k, c) at [c * stride +
  /// k / 4]).
  std::string store(StringRef array) const {
    std::string s;
    auto element = [&](const std::string &index) {
      if (!sharedVectors)
        return array.str() + "[" + index + "]";
      return array.str() + "[(" + index + ") / 4u][(" + index + ") % 4u]";
    };
    for (unsigned i = 0; i < getNumLoads(); ++i) {
      std::string r = var("r", i), c = var("c", i), v = var("v", i);
      std::string k = isA ? c : r, mn = isA ? r : c;
      std::string indent = "    ";
      if (isPartial(i)) {
        s += indent + "if (tid + " + u(i * threads) + " < " + u(getUnits()) +
             ") {\n";
        indent += "  ";
      }
      if (kContiguous) {
        s += indent + array.str() + "[" + mn + " * " + u(stride) + " + " + k +
             " / 4u]" + (width == 1 ? "[" + k + " % 4u]" : "") + " = " + v +
             ";\n";
      } else if (width == 1) {
        s += indent + element(k + " * " + u(stride) + " + " + mn) + " = " + v +
             ";\n";
      } else {
        // The vector runs along the contiguous dimension: along k for a
        // row-major A or a column-major B, else along m or n.
        bool alongK = isA == rowMajor;
        for (unsigned l = 0; l < 4; ++l) {
          std::string kl = k, mnl = mn;
          (alongK ? kl : mnl) += " + " + u(l);
          s += indent + element("(" + kl + ") * " + u(stride) + " + " + mnl) +
               " = " + v + "[" + std::to_string(l) + "];\n";
        }
      }
      if (isPartial(i))
        s += "    }\n";
    }
    return s;
  }
};

} // namespace

namespace {
/// Whether one workgroup summing all of k for `rows` x `cols` outputs takes
/// less than a second dispatch and its barrier cost (about 3 us on a large
/// GPU): at most 2^18 multiply-adds (about 1 us of one multiprocessor) and
/// at most 256 KiB of operands read (about what one multiprocessor reads in
/// those 3 us). Splitting such a k among workgroups does not pay.
bool isCheapTile(uint64_t rows, uint64_t cols, uint64_t k, uint64_t bytes) {
  return rows * cols * k <= kCheapTileMacs &&
         (rows + cols) * k * bytes <= kCheapTileBytes;
}
} // namespace

bool isCheapGemmTile(const GemmProblem &p, const GemmTile &t) {
  return isCheapTile(t.bm, t.bn, uint64_t(nominal(p.k)),
                     getComputeBytes(p.elementType));
}

GemmTile chooseGemmKGroups(const GemmProblem &p, const GemmTile &base,
                           const gpu::TargetDesc &target) {
  GemmTile t = base;
  t.kGroups = 1;
  while (countTiles(p, t) < 32 && std::max(t.bm, t.bn) > 8) {
    if (t.bm >= t.bn)
      t.bm /= 2;
    else
      t.bn /= 2;
  }
  uint64_t k = uint64_t(nominal(p.k));
  if (!isCheapTile(t.bm, t.bn, k, getComputeBytes(p.elementType)))
    return base;
  // Groups of up to 32 threads (a warp on NVIDIA): each thread of a group
  // takes more outputs, along the longer side first, until they fit.
  t.tm = t.tn = 1;
  while (t.getGroupThreads() > 32) {
    if (t.tn < std::min(t.bn, 8u) && (t.tn <= t.tm || t.tm >= t.bm))
      t.tn *= 2;
    else if (t.tm < std::min(t.bm, 8u))
      t.tm *= 2;
    else
      return base;
  }
  unsigned maxThreads = std::min({256u, target.maxComputeWorkGroupInvocations,
                                  target.maxComputeWorkGroupSize[0]});
  while (t.getNumThreads() * 2 <= maxThreads && uint64_t(t.getStepK()) * 2 <= k)
    t.kGroups *= 2;
  while (t.kGroups > 1 && !fits(p, t, target))
    t.kGroups /= 2;
  if (t.kGroups < 2)
    return base;
  return t;
}

GemmSplit chooseGemmSplit(const GemmProblem &p, const GemmTile &t,
                          const gpu::TargetDesc &target) {
  uint64_t tiles = countTiles(p, t);
  // The partial sums of a product of run-time sizes would need a run-time
  // sized scratch tensor and chunk: such products keep k whole.
  if (!target.getKernelChoices().splitGemmK || !isStatic(p) ||
      glsl::computeType(p.elementType) != "float" || tiles >= 128 ||
      p.k.constant < 128)
    return {};
  int64_t pk = p.k.constant;
  // Chunks of at least 32 (two steps of 16: a prefetch overlaps one), as
  // many as make about kSplitWorkgroups workgroups; partial sums must fit a
  // binding.
  uint64_t splits = std::min<uint64_t>(glsl::ceilDiv(kSplitWorkgroups, tiles),
                                       uint64_t(pk) / 32);
  while (splits > 1 &&
         splits * p.batch.constant * p.m.constant * p.n.constant * 4 >
             target.maxStorageBufferRange)
    splits /= 2;
  if (splits < 2)
    return {};
  int64_t chunk =
      int64_t(glsl::ceilDiv(glsl::ceilDiv(pk, splits), t.bk)) * t.bk;
  return {int64_t(glsl::ceilDiv(pk, chunk)), chunk};
}

GemmSplit chooseDynamicGemmSplit(LoweringContext &ctx, const GemmProblem &p,
                                 const GemmTile &t) {
  if (!ctx.getTarget().getKernelChoices().splitGemmK || isStatic(p) ||
      glsl::computeType(p.elementType) != "float" ||
      (p.k.isStatic() && p.k.constant < 128))
    return {};
  // A split pays only where a workgroup's whole k costs more than a second
  // dispatch: never where that holds even for a tile's every row (a decode
  // step's small products then stay one dispatch), else only in runs whose
  // rows make it so.
  uint64_t bytes = getComputeBytes(p.elementType);
  if (p.n.isStatic() && p.k.isStatic() &&
      isCheapTile(p.m.isStatic() ? std::min<uint64_t>(p.m.constant, t.bm)
                                 : t.bm,
                  std::min<uint64_t>(p.n.constant, t.bn), p.k.constant, bytes))
    return {};
  // chooseGemmSplit's rule on the host, for the run's sizes.
  // (An empty product, whose grids are empty, still evaluates this.)
  // One statement per host op: the order of a call's arguments is
  // unspecified, and the IR must not depend on the compiler.
  Size rowTiles = ctx.ceilDiv(p.m, int64_t(t.bm));
  Size colTiles = ctx.ceilDiv(p.n, int64_t(t.bn));
  Size tiles = ctx.atLeast(ctx.mul(ctx.mul(colTiles, rowTiles), p.batch), 1);
  Size kChunks = ctx.floorDiv(p.k, 32);
  Size splits =
      ctx.atLeast(ctx.min(ctx.ceilDiv(kSplitWorkgroups, tiles), kChunks), 1);
  Size chunk = ctx.mul(ctx.ceilDiv(ctx.ceilDiv(p.k, splits), int64_t(t.bk)),
                       int64_t(t.bk));
  GemmSplit split;
  split.splits = ctx.ceilDiv(p.k, chunk);
  split.chunk = chunk;
  // Fewer than 128 tiles (tiles - 126 >= 2) and at least 2 splits.
  Size severalSplits = ctx.broadcastFactor(split.splits);
  split.gate = ctx.mul(ctx.sub(1, ctx.broadcastFactor(ctx.sub(tiles, 126))),
                       severalSplits);
  // ... and where a tile's whole k is not cheap (isCheapTile) for the run's
  // rows: more than kCheapTileMacs multiply-adds or kCheapTileBytes read
  // (broadcastFactor(x + 1) is 1 for x > 0).
  Size rows = ctx.min(p.m, int64_t(t.bm)), cols = ctx.min(p.n, int64_t(t.bn));
  Size macs = ctx.mul(ctx.mul(rows, cols), p.k);
  Size read =
      ctx.mul(ctx.mul(ctx.arith("gpu.addi", rows, cols), p.k), int64_t(bytes));
  Size manyBytes = ctx.broadcastFactor(ctx.sub(read, kCheapTileBytes - 1));
  Size manyMacs = ctx.broadcastFactor(ctx.sub(macs, kCheapTileMacs - 1));
  Size costly = ctx.min(ctx.arith("gpu.addi", manyMacs, manyBytes), int64_t(1));
  split.gate = ctx.mul(split.gate, costly);
  return split;
}

std::string generateGemmKernel(const GemmProblem &p, const GemmTile &t,
                               const GemmSplit &split) {
  KernelSizes &sizes = *p.sizes;
  auto S = [&](Size size) { return sizes.get(size); };
  std::string ct = glsl::computeType(p.elementType);
  bool isSplit = split.isSplit();
  unsigned threads = t.getNumThreads(), groupThreads = t.getGroupThreads();
  bool grouped = t.kGroups > 1;
  unsigned stepK = t.getStepK();
  unsigned tx = t.bn / t.tn, ty = t.bm / t.tm;
  unsigned strideA = getStrideA(p, t), strideB = getStrideB(p, t);
  // Bounds checks only where a dimension does not divide into tiles.
  bool checkM = needsCheck(p.m, t.bm), checkN = needsCheck(p.n, t.bn),
       checkK = needsCheck(p.k, stepK);
  // Float tiles with 4 x 4 outputs or more per thread read shared memory as
  // vec4s: a thread owns groups of 4 adjacent rows (columns), the groups
  // 4 * ty (4 * tx) apart. Otherwise a thread owns rows ty + i * ty and
  // columns tx + j * tx. Either way, neighbouring threads read neighbouring
  // shared words and write neighbouring outputs.
  // Tiles kept k-contiguous (useKContiguousTiles) are read a vec4 along k
  // per row and column, with the rows and columns of a thread spread as in
  // the scalar form.
  bool kContiguous = useKContiguousTiles(p, t);
  bool sharedVectors =
      !kContiguous && ct == "float" && t.tm % 4 == 0 && t.tn % 4 == 0;
  unsigned strideK = getKContiguousStride(t);
  auto rowOf = [&](unsigned i) {
    return sharedVectors ? "ty * 4u + " + u(i / 4 * 4 * ty + i % 4)
                         : "ty + " + u(i * ty);
  };
  auto colOf = [&](unsigned j) {
    return sharedVectors ? "tx * 4u + " + u(j / 4 * 4 * tx + j % 4)
                         : "tx + " + u(j * tx);
  };

  auto makeCopy = [&](bool isA) {
    TileCopy copy;
    copy.name = isA ? "a" : "b";
    copy.isA = isA;
    copy.rows = isA ? t.bm : stepK;
    copy.cols = isA ? stepK : t.bn;
    copy.stride = kContiguous ? strideK : isA ? strideA : strideB;
    copy.rowMajor = isA ? p.aRowMajor : p.bRowMajor;
    copy.width = (isA ? useVectorA(p, t) : useVectorB(p, t)) ? 4 : 1;
    copy.threads = threads;
    copy.sharedVectors = sharedVectors;
    copy.kContiguous = kContiguous;
    return copy;
  };
  TileCopy copyA = makeCopy(true), copyB = makeCopy(false);
  auto addCheck = [](std::string &check, const std::string &cond) {
    check += (check.empty() ? "" : " && ") + cond;
  };
  if (checkM)
    addCheck(copyA.check, "gr < " + S(p.m));
  if (checkK) {
    addCheck(copyA.check, "gk < " + S(p.k));
    addCheck(copyB.check, "gk < " + S(p.k));
  }
  if (checkN)
    addCheck(copyB.check, "gc < " + S(p.n));

  std::string s = glsl::header({threads, 1, 1});
  s += p.declarations;
  if (isSplit)
    s +=
        glsl::buffer(2 + p.loadInputs.size(), gpu::Access::Write,
                     FloatType::getF32(p.elementType.getContext()), "partial") +
        p.globals + "uint pBase;\n";
  else if (std::string store = generateGemmStore(p, 2 + p.loadInputs.size());
           !store.empty())
    s += store;
  else
    return {};
  if (kContiguous) {
    s += "shared vec4 As[" + std::to_string(t.bm * strideK) + "];\n";
    s += "shared vec4 Bs[" + std::to_string(t.bn * strideK) + "];\n";
  } else if (sharedVectors) {
    s += "shared vec4 As[" + std::to_string(stepK * strideA / 4) + "];\n";
    s += "shared vec4 Bs[" + std::to_string(stepK * strideB / 4) + "];\n";
  } else {
    s += "shared " + ct + " As[" + std::to_string(stepK * strideA) + "];\n";
    s += "shared " + ct + " Bs[" + std::to_string(stepK * strideB) + "];\n";
  }
  if (grouped)
    s += "shared " + ct + " Cs[" + std::to_string(getReductionElements(t)) +
         "];\n";
  s += declareRowNormStats(p, t.bm, threads) + p.functions;
  if (isSplit)
    s += "void storeC(uint row, uint col, float acc) { partial.d[pBase + row "
         "* " +
         S(p.n) + " + col] = acc; }\n";
  s += "void main() {\n";
  // With a split k, a product's splits are adjacent in z and in the
  // partial sums.
  std::string kBegin = "0u", kEnd = S(p.k);
  if (isSplit) {
    s += "  uint z = gl_WorkGroupID.z / " + S(split.splits) +
         ", split = gl_WorkGroupID.z % " + S(split.splits) + ";\n";
    s += "  pBase = gl_WorkGroupID.z * " + S(sizes.getContext().mul(p.m, p.n)) +
         ";\n";
    s += "  uint kBegin = split * " + S(split.chunk) +
         ", kEnd = min(kBegin + " + S(split.chunk) + ", " + S(p.k) + ");\n";
    kBegin = "kBegin";
    kEnd = "kEnd";
  } else {
    s += "  uint z = gl_WorkGroupID.z;\n";
  }
  s += p.prologue;
  s += "  uint tid = gl_LocalInvocationID.x;\n";
  if (grouped) {
    // Thread `lt` of group `kg`; all threads copy the tiles together.
    s += "  uint kg = tid / " + u(groupThreads) + ", lt = tid % " +
         u(groupThreads) + ";\n";
    s += "  uint tx = lt % " + u(tx) + ", ty = lt / " + u(tx) + ";\n";
  } else {
    s += "  uint tx = tid % " + u(tx) + ", ty = tid / " + u(tx) + ";\n";
  }
  s += "  uint row0 = gl_WorkGroupID.y * " + u(t.bm) +
       ", col0 = gl_WorkGroupID.x * " + u(t.bn) + ";\n";
  s += generateRowNormStats(p, "row0", t.bm, threads, "tid");
  // Accumulators are scalars named cI_J (rather than an array) so that they
  // live in registers without relying on the optimizer.
  for (unsigned i = 0; i < t.tm; ++i) {
    s += "  " + ct;
    for (unsigned j = 0; j < t.tn; ++j)
      s += std::string(j ? "," : "") + " c" + std::to_string(i) + "_" +
           std::to_string(j) + " = " + ct + "(0)";
    s += ";\n";
  }
  s += copyA.declare(ct) + copyB.declare(ct);
  // (An empty k, where the result is all zeros, reads nothing.)
  if (!p.k.isStatic() || p.k.constant > 0)
    s += copyA.load(kBegin, ct) + copyB.load(kBegin, ct);
  s += "  for (uint k0 = " + kBegin + "; k0 < " + kEnd + "; k0 += " + u(stepK) +
       ") {\n";
  s += copyA.store("As") + copyB.store("Bs");
  s += "    barrier();\n";
  s += "    if (k0 + " + u(stepK) + " < " + kEnd + ") {\n" +
       copyA.load("k0 + " + u(stepK), ct) + copyB.load("k0 + " + u(stepK), ct) +
       "    }\n";
  if (kContiguous) {
    // A vec4 of four k per row and column: each accumulator still adds its
    // products in the order of k.
    unsigned per = t.bk / 4;
    if (grouped)
      s += "    for (uint kq = kg * " + u(per) + "; kq < kg * " + u(per) +
           " + " + u(per) + "; ++kq) {\n";
    else
      s += "    for (uint kq = 0u; kq < " + u(per) + "; ++kq) {\n";
    for (unsigned i = 0; i < t.tm; ++i)
      s += "      vec4 a" + std::to_string(i) + " = As[(" + rowOf(i) + ") * " +
           u(strideK) + " + kq];\n";
    // One column's vec4 at a time, so that only A's vectors stay live
    // across the columns.
    for (unsigned j = 0; j < t.tn; ++j) {
      std::string b = "b" + std::to_string(j);
      s += "      vec4 " + b + " = Bs[(" + colOf(j) + ") * " + u(strideK) +
           " + kq];\n";
      for (unsigned l = 0; l < 4; ++l) {
        s += "     ";
        for (unsigned i = 0; i < t.tm; ++i)
          s += " c" + std::to_string(i) + "_" + std::to_string(j) + " += a" +
               std::to_string(i) + "[" + std::to_string(l) + "] * " + b + "[" +
               std::to_string(l) + "];";
        s += "\n";
      }
    }
  } else {
    if (grouped)
      s += "    for (uint kk = kg * " + u(t.bk) + "; kk < kg * " + u(t.bk) +
           " + " + u(t.bk) + "; ++kk) {\n";
    else
      s += "    for (uint kk = 0u; kk < " + u(t.bk) + "; ++kk) {\n";
    if (sharedVectors) {
      for (unsigned i = 0; i < t.tm; i += 4)
        s += "      vec4 a" + std::to_string(i / 4) + " = As[kk * " +
             u(strideA / 4) + " + ty + " + u(i / 4 * ty) + "];\n";
      for (unsigned j = 0; j < t.tn; j += 4)
        s += "      vec4 b" + std::to_string(j / 4) + " = Bs[kk * " +
             u(strideB / 4) + " + tx + " + u(j / 4 * tx) + "];\n";
    } else {
      for (unsigned i = 0; i < t.tm; ++i)
        s += "      " + ct + " a" + std::to_string(i) + " = As[kk * " +
             u(strideA) + " + ty + " + u(i * ty) + "];\n";
      for (unsigned j = 0; j < t.tn; ++j)
        s += "      " + ct + " b" + std::to_string(j) + " = Bs[kk * " +
             u(strideB) + " + tx + " + u(j * tx) + "];\n";
    }
    auto operand = [&](StringRef name, unsigned i) {
      if (!sharedVectors)
        return name.str() + std::to_string(i);
      return name.str() + std::to_string(i / 4) + "[" + std::to_string(i % 4) +
             "]";
    };
    for (unsigned i = 0; i < t.tm; ++i) {
      s += "     ";
      for (unsigned j = 0; j < t.tn; ++j)
        s += " c" + std::to_string(i) + "_" + std::to_string(j) +
             " += " + operand("a", i) + " * " + operand("b", j) + ";";
      s += "\n";
    }
  }
  s += "    }\n    barrier();\n  }\n";

  auto acc = [](unsigned i, unsigned j) {
    return (llvm::Twine("c") + llvm::Twine(i) + "_" + llvm::Twine(j)).str();
  };
  if (grouped) {
    // Add the groups' sums as a tree of fixed shape (so the result does not
    // depend on scheduling): in each round, the upper half of the groups
    // left passes its sums through shared memory to the lower half, group
    // g adding those of group g + half. Consecutive threads use
    // consecutive words.
    auto slot = [&](StringRef group, unsigned i, unsigned j) {
      return "Cs[" + group.str() + " * " + u(uint64_t(t.bm) * t.bn) + " + " +
             u((i * t.tn + j) * groupThreads) + " + lt]";
    };
    for (unsigned half = t.kGroups / 2; half >= 1; half /= 2) {
      s += "  if (kg >= " + u(half) + " && kg < " + u(2 * half) + ") {\n";
      for (unsigned i = 0; i < t.tm; ++i)
        for (unsigned j = 0; j < t.tn; ++j)
          s += "    " + slot("(kg - " + u(half) + ")", i, j) + " = " +
               acc(i, j) + ";\n";
      s += "  }\n  barrier();\n";
      s += "  if (kg < " + u(half) + ") {\n";
      for (unsigned i = 0; i < t.tm; ++i)
        for (unsigned j = 0; j < t.tn; ++j)
          s += "    " + acc(i, j) + " += " + slot("kg", i, j) + ";\n";
      s += "  }\n";
      if (half > 1)
        s += "  barrier();\n";
    }
    // Group 0 stores.
    s += "  if (kg == 0u) {\n";
  }

  for (unsigned i = 0; i < t.tm; ++i) {
    s += "  {\n    uint r = row0 + " + rowOf(i) + ";\n";
    if (checkM)
      s += "    if (r < " + S(p.m) + ") {\n";
    for (unsigned j = 0; j < t.tn; ++j) {
      std::string c = acc(i, j);
      std::string col = "col0 + " + colOf(j);
      if (checkN)
        s += "    if (" + col + " < " + S(p.n) + ") ";
      else
        s += "    ";
      s += "storeC(r, " + col + ", " + c + ");\n";
    }
    if (checkM)
      s += "    }\n";
    s += "  }\n";
  }
  if (grouped)
    s += "  }\n";
  s += "}\n";
  return s;
}

} // namespace onyx::lowering

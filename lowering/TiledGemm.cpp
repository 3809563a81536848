//===- TiledGemm.cpp - The tiled GEMM kernel MatMul, Gemm and Conv share --===//

#include "lowering/TiledGemm.h"

#include "lowering/Glsl.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace onyx::lowering {

namespace {

std::string u(uint64_t value) { return std::to_string(value) + "u"; }

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

uint64_t getSharedBytes(const GemmProblem &p, const GemmTile &t) {
  return uint64_t(t.bk) * (getStrideA(p, t) + getStrideB(p, t)) *
         getComputeBytes(p.elementType);
}

bool fits(const GemmProblem &p, const GemmTile &t,
          const gpu::TargetDesc &target) {
  unsigned threads = t.getNumThreads();
  return threads <= target.maxComputeWorkGroupInvocations &&
         threads <= target.maxComputeWorkGroupSize[0] &&
         getSharedBytes(p, t) <= target.maxComputeSharedMemorySize;
}

unsigned powerOf2Ceil(int64_t value) {
  return unsigned(llvm::PowerOf2Ceil(uint64_t(std::max<int64_t>(value, 1))));
}

/// Whether a vector copy of the operand's tile works with `tile`: the tile
/// must span whole vectors along the operand's contiguous dimension.
bool useVectorA(const GemmProblem &p, const GemmTile &t) {
  return p.aVector && (p.aRowMajor ? t.bk % 4 == 0 : t.bm % 4 == 0);
}
bool useVectorB(const GemmProblem &p, const GemmTile &t) {
  return p.bVector && (p.bRowMajor ? t.bn % 4 == 0 : t.bk % 4 == 0);
}

} // namespace

GemmTile chooseGemmTile(const GemmProblem &p, const gpu::TargetDesc &target) {
  GemmTile t;
  if (p.m <= 8 || p.n <= 8) {
    // A matrix-vector product (or nearly): the thin side whole in one
    // tile, 64 threads along the other side with up to 4 outputs each.
    bool thinM = p.m <= p.n;
    unsigned thin = powerOf2Ceil(std::min(p.m, p.n));
    int64_t length = thinM ? p.n : p.m;
    unsigned wide = std::min(256u, std::max(thin, powerOf2Ceil(length)));
    // Narrower tiles while that leaves too few workgroups to fill a GPU.
    while (wide > 64 && glsl::ceilDiv(length, wide) * p.batch < 64)
      wide /= 2;
    unsigned per = std::max(1u, wide / 64);
    t = thinM ? GemmTile{thin, wide, 16, thin, per}
              : GemmTile{wide, thin, 16, per, thin};
  } else {
    // Tiles of up to 128 x 128 with 8 x 8 outputs per thread for large
    // products (a workgroup of 256, 16 KiB of shared memory for floats),
    // 64 x 64 with 4 x 4 where 128 x 128 leaves too few workgroups, and
    // smaller sides for small dimensions; 16 x 16 threads where possible.
    unsigned bm = std::min(128u, powerOf2Ceil(p.m));
    unsigned bn = std::min(128u, powerOf2Ceil(p.n));
    if (bm == 128 && bn == 128 &&
        glsl::ceilDiv(p.m, 128) * glsl::ceilDiv(p.n, 128) * p.batch < 64)
      bm = bn = 64;
    t = {bm, bn, 16, std::clamp(bm / 16, 1u, 8u), std::clamp(bn / 16, 1u, 8u)};
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

std::string generateGemmKernel(const GemmProblem &p, const GemmTile &t) {
  std::string ct = glsl::computeType(p.elementType);
  unsigned threads = t.getNumThreads();
  unsigned tx = t.bn / t.tn, ty = t.bm / t.tm;
  unsigned strideA = getStrideA(p, t), strideB = getStrideB(p, t);
  bool vectorA = useVectorA(p, t), vectorB = useVectorB(p, t);
  // Bounds checks only where a dimension does not divide into tiles.
  bool checkM = p.m % t.bm != 0, checkN = p.n % t.bn != 0,
       checkK = p.k % t.bk != 0;

  std::string s = glsl::header({threads, 1, 1});
  s += p.declarations;
  s += "shared " + ct + " As[" + std::to_string(t.bk * strideA) + "];\n";
  s += "shared " + ct + " Bs[" + std::to_string(t.bk * strideB) + "];\n";
  s += p.functions;
  s += "void main() {\n";
  s += "  uint z = gl_WorkGroupID.z;\n";
  s += p.prologue;
  s += "  uint tid = gl_LocalInvocationID.x;\n";
  s += "  uint tx = tid % " + u(tx) + ", ty = tid / " + u(tx) + ";\n";
  s += "  uint row0 = gl_WorkGroupID.y * " + u(t.bm) +
       ", col0 = gl_WorkGroupID.x * " + u(t.bn) + ";\n";
  // Accumulators are scalars named cI_J (rather than an array) so that they
  // live in registers without relying on the optimizer.
  for (unsigned i = 0; i < t.tm; ++i) {
    s += "  " + ct;
    for (unsigned j = 0; j < t.tn; ++j)
      s += std::string(j ? "," : "") + " c" + std::to_string(i) + "_" +
           std::to_string(j) + " = " + ct + "(0)";
    s += ";\n";
  }
  s += "  for (uint k0 = 0u; k0 < " + u(p.k) + "; k0 += " + u(t.bk) + ") {\n";

  // Copies a rows x cols tile (rows along k for B, along m for A) into
  // shared memory, `width` elements per load along the contiguous
  // dimension.
  auto copyTile = [&](StringRef tile, StringRef fn, unsigned tileRows,
                      unsigned tileCols, unsigned sharedStride, bool rowMajor,
                      unsigned width, bool isA) {
    // A(r, k) is element [k * stride + r] of As; B(k, c) is [k * stride + c].
    unsigned contiguous = rowMajor ? tileCols : tileRows;
    unsigned units = tileRows * tileCols / width;
    unsigned perRow = contiguous / width;
    std::string check;
    auto addCheck = [&](const std::string &cond) {
      check += (check.empty() ? "" : " && ") + cond;
    };
    if (isA) {
      if (checkM)
        addCheck("gr < " + u(p.m));
      if (checkK)
        addCheck("gk < " + u(p.k));
    } else {
      if (checkK)
        addCheck("gk < " + u(p.k));
      if (checkN)
        addCheck("gc < " + u(p.n));
    }
    for (unsigned i = 0; i * threads < units; ++i) {
      std::string e = "tid + " + u(i * threads);
      bool partial = (i + 1) * threads > units;
      s += "    {\n      uint e = " + e + ";\n";
      if (partial)
        s += "      if (e < " + u(units) + ") {\n";
      // (r, c): the tile coordinates of the first element of the load.
      if (rowMajor)
        s += "      uint r = e / " + u(perRow) + ", c = (e % " + u(perRow) +
             ") * " + u(width) + ";\n";
      else
        s += "      uint c = e / " + u(perRow) + ", r = (e % " + u(perRow) +
             ") * " + u(width) + ";\n";
      std::string rk = isA ? "c" : "r"; // the tile's k coordinate
      std::string rmn = isA ? "r" : "c";
      if (isA)
        s += "      uint gr = row0 + r, gk = k0 + c;\n";
      else
        s += "      uint gk = k0 + r, gc = col0 + c;\n";
      std::string call =
          isA ? std::string(fn) + "(gr, gk)" : std::string(fn) + "(gk, gc)";
      if (width == 1) {
        std::string dst = std::string(tile) + "[" + rk + " * " +
                          u(sharedStride) + " + " + rmn + "]";
        if (check.empty())
          s += "      " + dst + " = " + call + ";\n";
        else
          s += "      " + dst + " = (" + check + ") ? " + call + " : " + ct +
               "(0);\n";
      } else {
        if (check.empty())
          s += "      vec4 v = " + call + ";\n";
        else
          s += "      vec4 v = (" + check + ") ? " + call + " : vec4(0);\n";
        // The vector runs along the contiguous dimension: along k for a
        // row-major A or a column-major B, else along m or n.
        bool alongK = isA == rowMajor;
        for (unsigned l = 0; l < 4; ++l) {
          std::string kIdx = rk, mnIdx = rmn;
          (alongK ? kIdx : mnIdx) += " + " + u(l);
          s += "      " + std::string(tile) + "[(" + kIdx + ") * " +
               u(sharedStride) + " + " + mnIdx + "] = v[" + std::to_string(l) +
               "];\n";
        }
      }
      if (partial)
        s += "      }\n";
      s += "    }\n";
    }
  };
  copyTile("As", vectorA ? "loadA4" : "loadA", t.bm, t.bk, strideA, p.aRowMajor,
           vectorA ? 4 : 1, /*isA=*/true);
  copyTile("Bs", vectorB ? "loadB4" : "loadB", t.bk, t.bn, strideB, p.bRowMajor,
           vectorB ? 4 : 1, /*isA=*/false);
  s += "    barrier();\n";
  // Threads own rows ty + i * ty and columns tx + j * tx, so neighbouring
  // threads read neighbouring shared words and write neighbouring outputs.
  s += "    for (uint kk = 0u; kk < " + u(t.bk) + "; ++kk) {\n";
  for (unsigned i = 0; i < t.tm; ++i)
    s += "      " + ct + " a" + std::to_string(i) + " = As[kk * " + u(strideA) +
         " + ty + " + u(i * ty) + "];\n";
  for (unsigned j = 0; j < t.tn; ++j)
    s += "      " + ct + " b" + std::to_string(j) + " = Bs[kk * " + u(strideB) +
         " + tx + " + u(j * tx) + "];\n";
  for (unsigned i = 0; i < t.tm; ++i) {
    s += "     ";
    for (unsigned j = 0; j < t.tn; ++j)
      s += " c" + std::to_string(i) + "_" + std::to_string(j) + " += a" +
           std::to_string(i) + " * b" + std::to_string(j) + ";";
    s += "\n";
  }
  s += "    }\n    barrier();\n  }\n";

  for (unsigned i = 0; i < t.tm; ++i) {
    std::string row = "row0 + ty + " + u(i * ty);
    s += "  {\n    uint r = " + row + ";\n";
    if (checkM)
      s += "    if (r < " + u(p.m) + ") {\n";
    for (unsigned j = 0; j < t.tn; ++j) {
      std::string c =
          (llvm::Twine("c") + llvm::Twine(i) + "_" + llvm::Twine(j)).str();
      std::string col = "col0 + tx + " + u(j * tx);
      if (checkN)
        s += "    if (" + col + " < " + u(p.n) + ") ";
      else
        s += "    ";
      s += "storeC(r, " + col + ", " + c + ");\n";
    }
    if (checkM)
      s += "    }\n";
    s += "  }\n";
  }
  s += "}\n";
  return s;
}

void dispatchGemm(LoweringContext &ctx, StringRef name,
                  const GemmProblem &problem, ArrayRef<gpu::Access> accesses,
                  ValueRange views) {
  if (problem.m == 0 || problem.n == 0 || problem.batch == 0)
    return;
  GemmTile tile = chooseGemmTile(problem, ctx.getTarget());
  KernelSpec spec;
  spec.name = name.str();
  spec.glsl = generateGemmKernel(problem, tile);
  spec.bindings.assign(accesses.begin(), accesses.end());
  spec.workgroupSize = {tile.getNumThreads(), 1, 1};
  auto kernel = ctx.getOrCreateKernel(spec);
  ctx.dispatch(kernel,
               {glsl::ceilDiv(problem.n, tile.bn),
                glsl::ceilDiv(problem.m, tile.bm), uint64_t(problem.batch)},
               views);
}

bool canLoadVectors(LoweringContext &ctx, Type elementType) {
  return elementType.isF32() &&
         ctx.getTarget().minStorageBufferOffsetAlignment % 16 == 0;
}

std::string vectorBuffer(unsigned binding, StringRef name) {
  std::string b = std::to_string(binding);
  return "layout(set = 0, binding = " + b + ", std430) readonly buffer B" + b +
         " { vec4 d[]; } " + name.str() + ";\n";
}

std::string vectorBufferElement(StringRef name, StringRef index) {
  std::string i = ("(" + index + ")").str();
  return name.str() + ".d[" + i + " / 4u][" + i + " % 4u]";
}

LogicalResult checkBindingSize(LoweringContext &ctx, RankedTensorType type) {
  uint64_t bytes = uint64_t(type.getNumElements()) *
                   getElementByteSize(type.getElementType());
  if (bytes <= ctx.getTarget().maxStorageBufferRange)
    return success();
  return ctx.emitError() << "operand of type " << type << " (" << bytes
                         << " bytes) exceeds the target's storage buffer "
                            "range of "
                         << ctx.getTarget().maxStorageBufferRange << " bytes";
}

} // namespace onyx::lowering

//===- GemmRowNorm.cpp - A row normalization fused into a GEMM's loads ----===//
//
// A decoder layer normalizes its hidden state and multiplies the result by
// weights: LayerNormalization (or RMSNormalization) then MatMul. Rather
// than a kernel writing the normalized rows for the product to read, the
// product's kernels normalize A as they load it (GemmRowNorm): each
// workgroup first computes the statistics of the rows it reads, every
// invocation striding along one row with the others of its group and the
// groups' sums meeting in shared memory in a tree of fixed shape, then
// loadA applies (x - mean) * invStdDev * scale + bias. Two passes over
// each row (the mean, then the mean of squared deviations), as the norm's
// own kernel computes them: E[x^2] - E[x]^2 would cancel where the mean is
// large against the deviation. Where the target has clustered subgroup
// arithmetic, subgroups add first and shared memory only their sums.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/TiledGemm.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {

std::string (&u)(int64_t) = glsl::uintLiteral;

/// Invocations per row: the largest power of 2 that gives every row of a
/// pass a group (one row per invocation where there are more rows than
/// invocations).
unsigned getRowGroup(unsigned rows, unsigned threads) {
  unsigned group = 1;
  while (group * 2 * std::min(rows, threads) <= threads)
    group *= 2;
  return group;
}

} // namespace

std::string declareRowNormStats(const GemmProblem &p, unsigned rows,
                                unsigned threads) {
  if (!p.rowNorm)
    return {};
  return fmt::format("shared float nStats[{}];\n"
                     "shared float nRed[{}];\n"
                     "uint nRow0;\n",
                     2 * rows, threads);
}

unsigned getSubgroupCluster(const gpu::TargetDesc &target, unsigned threads) {
  const gpu::FeatureSet &f = target.features;
  unsigned size = target.subgroupSize;
  if (!f.contains(gpu::Feature::SubgroupBasic) ||
      !f.contains(gpu::Feature::SubgroupArithmetic) ||
      !f.contains(gpu::Feature::SubgroupClustered) || size < 4 ||
      !llvm::isPowerOf2_32(size) || threads % size != 0)
    return 0;
  return size;
}

std::string generateRowNormStats(const GemmProblem &p, StringRef first,
                                 unsigned rows, unsigned threads, StringRef tid,
                                 unsigned cluster) {
  if (!p.rowNorm)
    return {};
  KernelSizes &sizes = *p.sizes;
  std::string m = sizes.get(p.m), k = sizes.get(p.k);
  unsigned group = getRowGroup(rows, threads);
  unsigned perPass = threads / group;
  cluster = std::min(cluster, group);
  // With clusters, an invocation's place follows its subgroup, so that the
  // invocations of a cluster share a row whatever the subgroups' order.
  std::string t = cluster > 1 ? "nLi" : tid.str();
  // Sums `term` (of float `xv`, the row's element) over each group's row
  // into `name`, which every invocation of the group then holds.
  auto reduce = [&](StringRef name, StringRef term) {
    std::string s =
        fmt::format("    float {} = 0.0;\n"
                    "    if (live)\n"
                    "      for (uint k = lane; k < {}; k += {}) {{\n"
                    "        float xv = loadX(row, k);\n"
                    "        {} += {};\n"
                    "      }}\n",
                    name.str(), k, u(group), name.str(), term.str());
    if (cluster > 1) {
      s += fmt::format("    {0} = subgroupClusteredAdd({0}, {1});\n",
                       name.str(), u(cluster));
      if (cluster == group)
        return s;
      // The group's clusters' sums, added in order by every invocation.
      unsigned partials = group / cluster;
      s += fmt::format("    if (lane % {0} == 0u) nRed[{1} / {0}] = {2};\n"
                       "    barrier();\n"
                       "    {2} = nRed[{1} / {3} * {4}];\n"
                       "    for (uint i = 1u; i < {4}; ++i)\n"
                       "      {2} += nRed[{1} / {3} * {4} + i];\n"
                       "    barrier();\n",
                       u(cluster), t, name.str(), u(group), u(partials));
      return s;
    }
    s += fmt::format("    nRed[{}] = {};\n"
                     "    barrier();\n",
                     t, name.str());
    for (unsigned half = group / 2; half >= 1; half /= 2)
      s += fmt::format("    if (lane < {0}) nRed[{1}] += nRed[{1} + {0}];\n"
                       "    barrier();\n",
                       u(half), t);
    s += fmt::format("    {} = nRed[{} - lane];\n"
                     "    barrier();\n",
                     name.str(), t);
    return s;
  };
  std::string s = fmt::format("  nRow0 = {};\n", first.str());
  if (cluster > 1)
    s += "  uint nLi = gl_SubgroupID * gl_SubgroupSize + "
         "gl_SubgroupInvocationID;\n";
  s += fmt::format("  for (uint nr = 0u; nr < {}; nr += {}) {{\n", u(rows),
                   u(perPass));
  s += fmt::format("    uint r = nr + {0} / {1}, lane = {0} % {1};\n", t,
                   u(group));
  s += fmt::format("    uint row = nRow0 + r;\n"
                   "    bool live = {} < {} && r < {} && row < {};\n",
                   t, u(uint64_t(perPass) * group), u(rows), m);
  std::string length = fmt::format("float({})", k);
  if (p.rowNorm->rms) {
    s += "    float mean = 0.0;\n";
  } else {
    s += reduce("sum", "xv");
    s += fmt::format("    float mean = sum / {};\n", length);
  }
  s += reduce("squares", "(xv - mean) * (xv - mean)");
  s +=
      fmt::format("    if (live && lane == 0u) {{\n"
                  "      nStats[2u * r] = mean;\n"
                  "      nStats[2u * r + 1u] = 1.0 / sqrt(squares / {} + {});\n"
                  "    }}\n",
                  length,
                  glsl::literal(FloatType::getF32(p.elementType.getContext()),
                                p.rowNorm->epsilon));
  s += "  }\n  barrier();\n";
  return s;
}

} // namespace onyx::lowering

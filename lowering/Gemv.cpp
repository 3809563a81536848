//===- Gemv.cpp - Matrix-vector products for small M ----------------------===//
//
// A product with at most four rows of A (a decode step's MatMul, Gemm or
// Linear: one token times a weight matrix) reads each element of B once,
// so its speed is B's bandwidth; the tiled kernel's shared-memory tiles buy
// nothing there. Each workgroup of this kernel owns a block of output
// columns and all of k, and its threads are split between the block's
// columns (lanes) and slices of k (groups):
//
//   B's columns contiguous (B(k, col + 1) after B(k, col), a MatMul weight
//   [k, n]): a lane owns one column, or four as a vec4; group g reads rows
//   g, g + G, ... so each row of the block is read by neighbouring threads
//   (at least 32 contiguous bytes). Lanes are halved, down to 2 vec4 lanes
//   or 8 scalar ones, until there are 128 workgroups, so that a narrow
//   matrix still spreads over a large GPU.
//   B's k contiguous (Gemm with transB, a weight [n, k]): each column gets
//   32 threads striding along its k (vec4 where B allows), 8 columns per
//   workgroup.
//
// Partial sums meet in shared memory in a tree of fixed shape (so results
// do not depend on scheduling) and the first group stores them through
// storeC, with the GEMM's epilogue (bias, alpha/beta, fused elementwise
// ops). One dispatch, no partial-sum buffer.
//
//===----------------------------------------------------------------------===//
#include "lowering/Glsl.h"
#include "lowering/TiledGemm.h"

#include <fmt/format.h>

#include <functional>

namespace onyx::lowering {

namespace {
std::string (&u)(int64_t) = glsl::uintLiteral;
} // namespace

GemvShape chooseGemv(const GemmProblem &p, const gpu::TargetDesc &target) {
  GemvShape g;
  // A dynamic m may be at most 4 in some runs; a dynamic n or k is taken
  // to be large.
  int64_t m = p.m.isStatic() ? p.m.constant : 4;
  int64_t n = p.n.isStatic() ? p.n.constant : kNominalDim;
  int64_t k = p.k.isStatic() ? p.k.constant : kNominalDim;
  // Smaller products take the tiled kernel: either is a few microseconds.
  if (m > 4 || m == 0 || glsl::computeType(p.elementType) != "float" ||
      k < 64 || n * k < 16384)
    return g;
  unsigned threads = std::min<unsigned>(256, target.maxComputeWorkGroupSize[0]);
  threads = std::min<unsigned>(threads, target.maxComputeWorkGroupInvocations);
  if (threads < 64)
    return g;
  g.threads = threads;
  g.columnsContiguous = p.bRowMajor;
  g.vector = p.bVector;
  if (g.columnsContiguous) {
    unsigned width = g.vector ? 4 : 1;
    g.lanes = std::min<unsigned>(g.vector ? 32 : 64, threads / 4);
    unsigned minLanes = g.vector ? 2 : 8;
    while (g.lanes > minLanes &&
           glsl::ceilDiv(n, uint64_t(g.lanes) * width) < 128)
      g.lanes /= 2;
    g.cols = g.lanes * width;
  } else {
    // A long k gets more invocations per column (more columns in flight
    // at once over the GPU), as long as each still reads 16 or more of its
    // column's elements (four vec4 loads issued together).
    g.lanes = 32;
    while (g.lanes * 2 <= threads && k / (uint64_t(g.lanes) * 2) >= 16)
      g.lanes *= 2;
    g.cols = threads / g.lanes;
    g.unroll = 4;
    // Subgroup clusters add the lanes' sums where the target has them: no
    // shared memory and no barrier for the first log2(cluster) steps.
    g.cluster = std::min(g.lanes, getSubgroupCluster(target, threads));
  }
  // A fused norm's row statistics likewise.
  g.statsCluster = getSubgroupCluster(target, threads);
  g.use = true;
  return g;
}

namespace {

/// Whether the k-contiguous kernel normalizes A's rows (a fused norm) once
/// into shared memory, each element read back by every column's lanes,
/// rather than normalizing each element as each lane loads it (a row and
/// its scale and bias read, and the arithmetic done, once per column): where
/// k is known and the rows fit in 12 KiB beside the kernel's other shared
/// arrays (every Vulkan device has 16 KiB).
bool stagesNormalizedRows(const GemmProblem &p, const GemvShape &g,
                          int64_t rows) {
  return p.rowNorm && !g.columnsContiguous && p.k.isStatic() &&
         (!g.vector || p.k.constant % 4 == 0) &&
         uint64_t(rows) * uint64_t(p.k.constant) * 4 <= 12 * 1024;
}

/// Opens (or closes) the code of row r, where m is known only at run time.
using RowGuard = std::function<std::string(int64_t, StringRef)>;

/// B's k contiguous: `lanes` invocations share each column, lane l reading
/// its elements l * w, l * w + lanes * w, ... (w = 4 with vec4 loads),
/// `unroll` loads issued before the products that use them. A column's
/// partial sums meet in subgroup clusters where the target has them, then
/// in shared memory, in a fixed order either way.
std::string generateColumnDots(const GemmProblem &p, const GemvShape &g,
                               int64_t rows, const RowGuard &open,
                               const RowGuard &close) {
  KernelSizes &sizes = *p.sizes;
  std::string n = sizes.get(p.n), k = sizes.get(p.k);
  unsigned width = g.vector ? 4 : 1;
  unsigned step = g.lanes * width;
  bool staged = stagesNormalizedRows(p, g, rows);
  std::string s;
  // With clusters, an invocation's place follows its subgroup, so that the
  // invocations of a cluster share a column whatever the subgroups' order.
  s += g.cluster ? "  uint li = gl_SubgroupID * gl_SubgroupSize + "
                   "gl_SubgroupInvocationID;\n"
                 : "  uint li = lt;\n";
  s += fmt::format("  uint lane = li % {0}, c = li / {0};\n", u(g.lanes));
  s += fmt::format("  uint col = gl_WorkGroupID.x * {} + c;\n", u(g.cols));
  s += fmt::format("  bool inside = col < {};\n", n);
  auto aAt = [&](int64_t r, const std::string &at) -> std::string {
    if (staged)
      return g.vector
                 ? fmt::format("an[({} + {}) / 4u]", u(r * p.k.constant), at)
                 : fmt::format("an[{} + {}]", u(r * p.k.constant), at);
    if (!g.vector)
      return fmt::format("loadA({}, {})", u(r), at);
    // loadA4 reads raw elements: not where loadA normalizes rows.
    if (p.aVector && p.aRowMajor && !p.rowNorm)
      return fmt::format("loadA4({}, {})", u(r), at);
    return fmt::format("vec4(loadA({0}, {1}), loadA({0}, {1} + 1u), "
                       "loadA({0}, {1} + 2u), loadA({0}, {1} + 3u))",
                       u(r), at);
  };
  // Where the i-th load of an iteration reads.
  auto at = [&](unsigned i) { return i ? "k + " + u(i * step) : "k"; };
  std::string type = g.vector ? "vec4" : "float";
  std::string loadB = g.vector ? "loadB4" : "loadB";
  // `preloaded`: B's values are in pre0, pre1, ..., loaded before the row
  // statistics.
  auto accumulate = [&](unsigned loads, StringRef indent,
                        bool preloaded = false) {
    std::string t;
    for (unsigned i = 0; i < loads; ++i)
      t += preloaded
               ? fmt::format("{}{} b{} = pre{};\n", indent.str(), type, i, i)
               : fmt::format("{}{} b{} = {}({}, col);\n", indent.str(), type, i,
                             loadB, at(i));
    for (int64_t r = 0; r < rows; ++r) {
      t += open(r, indent);
      for (unsigned i = 0; i < loads; ++i) {
        std::string a = aAt(r, at(i));
        std::string b = fmt::format("b{}", i);
        t +=
            fmt::format("{}acc{} += {};\n", indent.str(), r,
                        g.vector ? "dot(" + a + ", " + b + ")" : a + " * " + b);
      }
      t += close(r, indent);
    }
    return t;
  };
  s += fmt::format("  uint k = lane * {};\n", u(width));
  if (p.rowNorm) {
    // The first loads of B do not need A: they go out before the row
    // statistics, whose loads and reductions they overlap.
    // As many as every lane has (a short k has fewer than `unroll`).
    unsigned first = std::max(g.unroll, 1u);
    if (p.k.isStatic())
      first = std::max<unsigned>(
          1, std::min<uint64_t>(first, uint64_t(p.k.constant) / step));
    s += fmt::format("  bool preloaded = inside && k + {} < {};\n",
                     u((first - 1) * step), k);
    for (unsigned i = 0; i < first; ++i)
      s += fmt::format("  {} pre{} = {}(0.0);\n", type, i, type);
    s += "  if (preloaded) {\n";
    for (unsigned i = 0; i < first; ++i)
      s += fmt::format("    pre{} = {}({}, col);\n", i, loadB, at(i));
    s += "  }\n";
    s += generateRowNormStats(p, "0u", rows, g.threads, "lt", g.statsCluster);
    if (staged) {
      // Each element of A normalized once, for every column to read.
      std::string live =
          p.m.isStatic() ? u(rows)
                         : fmt::format("min({}, {})", sizes.get(p.m), u(rows));
      s += fmt::format("  for (uint e = lt; e < {0} * {1}; e += {2}) {{\n"
                       "    uint r = e / {1}, kk = e % {1};\n"
                       "    if (r < {3}) an[{4}] = loadA(r, kk);\n"
                       "  }}\n"
                       "  barrier();\n",
                       u(rows), u(p.k.constant), u(g.threads), live,
                       g.vector ? "e / 4u][e % 4u" : "e");
    }
    s += "  if (preloaded) {\n";
    s += accumulate(first, "    ", /*preloaded=*/true);
    s += fmt::format("    k += {};\n  }}\n", u(first * step));
  }
  s += "  if (inside) {\n";
  if (g.unroll > 1) {
    s += fmt::format("    for (; k + {} < {}; k += {}) {{\n",
                     u((g.unroll - 1) * step), k, u(g.unroll * step));
    s += accumulate(g.unroll, "      ");
    s += "    }\n";
  }
  s += fmt::format("    for (; k < {}; k += {}) {{\n", k, u(step));
  s += accumulate(1, "      ");
  s += "    }\n  }\n";

  for (int64_t r = 0; r < rows; ++r) {
    s += open(r, "  ");
    if (g.cluster) {
      // Clusters first; the first lane of each leaves its sum in shared
      // memory, and lane 0 adds the column's in order.
      unsigned partials = g.lanes / g.cluster;
      s += fmt::format("  float sum{} = subgroupClusteredAdd(acc{}, {});\n", r,
                       r, u(g.cluster));
      if (partials == 1) {
        s += fmt::format(
            "  if (lane == 0u && inside) storeC({}, col, sum{});\n", u(r), r);
      } else {
        s += fmt::format("  if (lane % {0} == 0u) red[li / {0}] = sum{1};\n"
                         "  barrier();\n",
                         u(g.cluster), r);
        s += fmt::format("  if (lane == 0u && inside) {{\n"
                         "    float t = red[c * {}];\n",
                         u(partials));
        for (unsigned i = 1; i < partials; ++i)
          s += fmt::format("    t += red[c * {} + {}];\n", u(partials), u(i));
        s += fmt::format("    storeC({}, col, t);\n  }}\n  barrier();\n", u(r));
      }
    } else {
      s += fmt::format("  red[li] = acc{};\n  barrier();\n", r);
      for (unsigned half = g.lanes / 2; half >= 1; half /= 2)
        s += fmt::format("  if (lane < {0}) red[li] += red[li + {0}];\n"
                         "  barrier();\n",
                         u(half));
      s += fmt::format("  if (lane == 0u && inside) storeC({}, col, red[li]);\n"
                       "  barrier();\n",
                       u(r));
    }
    s += close(r, "  ");
  }
  return s;
}

} // namespace

std::string generateGemvKernel(const GemmProblem &p, const GemvShape &g,
                               const std::string &store) {
  KernelSizes &sizes = *p.sizes;
  std::string n = sizes.get(p.n), k = sizes.get(p.k);
  // Rows: m, or 4 where m is known only at run time, those beyond it
  // skipped by a branch on the push constant (uniform in the workgroup, so
  // the barriers of the reduction stay in uniform control flow).
  int64_t rows = p.m.isStatic() ? p.m.constant : 4;
  std::string m = sizes.get(p.m);
  RowGuard open = [&](int64_t r, StringRef indent) -> std::string {
    if (p.m.isStatic() || r == 0)
      return "";
    return fmt::format("{}if ({} > {}) {{\n", indent.str(), m, u(r));
  };
  RowGuard close = [&](int64_t r, StringRef indent) -> std::string {
    if (p.m.isStatic() || r == 0)
      return "";
    return indent.str() + "}\n";
  };
  unsigned groups = g.threads / (g.columnsContiguous ? g.lanes : 32);
  std::string acc = g.vector && g.columnsContiguous ? "vec4" : "float";
  SmallVector<StringRef, 2> extensions;
  if ((!g.columnsContiguous && g.cluster) || (p.rowNorm && g.statsCluster))
    extensions = {"GL_KHR_shader_subgroup_basic",
                  "GL_KHR_shader_subgroup_clustered"};
  std::string s = glsl::header({g.threads, 1, 1}, extensions);
  s += p.declarations + store + declareRowNormStats(p, rows, g.threads) +
       p.functions;
  s += fmt::format("shared {} red[{}];\n", acc, g.threads);
  if (stagesNormalizedRows(p, g, rows))
    s += fmt::format("shared {} an[{}];\n", g.vector ? "vec4" : "float",
                     u(rows * p.k.constant / (g.vector ? 4 : 1)));
  s += "void main() {\n"
       "  uint z = gl_WorkGroupID.z;\n";
  s += p.prologue;
  s += "  uint lt = gl_LocalInvocationID.x;\n";
  // (The k-contiguous kernel computes them after its first loads of B.)
  if (g.columnsContiguous)
    s += generateRowNormStats(p, "0u", rows, g.threads, "lt", g.statsCluster);
  auto accName = [](int64_t r) { return "acc" + std::to_string(r); };
  for (int64_t r = 0; r < rows; ++r)
    s += fmt::format("  {} {} = {}(0.0);\n", acc, accName(r), acc);

  std::string owner; // the thread that stores, and what it stores
  if (g.columnsContiguous) {
    unsigned width = g.vector ? 4 : 1;
    s += fmt::format("  uint lane = lt % {0}, kg = lt / {0};\n", u(g.lanes));
    s += fmt::format("  uint col = gl_WorkGroupID.x * {} + lane * {};\n",
                     u(g.cols), u(width));
    s += fmt::format("  bool inside = col < {};\n", n);
    s += fmt::format("  if (inside) {{\n"
                     "    for (uint k = kg; k < {}; k += {}) {{\n",
                     k, u(groups));
    s += g.vector ? "      vec4 bv = loadB4(k, col);\n"
                  : "      float bv = loadB(k, col);\n";
    for (int64_t r = 0; r < rows; ++r)
      s += open(r, "      ") +
           fmt::format("      {} += loadA({}, k) * bv;\n", accName(r), u(r)) +
           close(r, "      ");
    s += "    }\n  }\n";
    // Group g + half adds into group g; lanes stay in their column.
    for (int64_t r = 0; r < rows; ++r) {
      s += open(r, "  ");
      s += fmt::format("  red[lt] = {};\n  barrier();\n", accName(r));
      for (unsigned half = groups / 2; half >= 1; half /= 2)
        s += fmt::format("  if (kg < {}) red[lt] += red[lt + {}];\n"
                         "  barrier();\n",
                         u(half), u(half * g.lanes));
      s += "  if (kg == 0u && inside) {\n";
      if (g.vector)
        for (unsigned i = 0; i < 4; ++i)
          s += fmt::format("    storeC({}, col + {}, red[lt][{}]);\n", u(r),
                           u(i), i);
      else
        s += fmt::format("    storeC({}, col, red[lt]);\n", u(r));
      s += "  }\n  barrier();\n";
      s += close(r, "  ");
    }
  } else {
    s += generateColumnDots(p, g, rows, open, close);
  }
  s += "}\n";
  return s;
}

} // namespace onyx::lowering

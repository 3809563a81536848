//===- NBitsGemv.cpp - MatMulNBits for a decode step ----------------------===//
//
// MatMulNBits with at most 4 rows of A (a decode step) is a matrix-vector
// product that must run at the speed of reading B, whose rows are the
// output columns, each one contiguous run of 32-bit words with k
// contiguous. A workgroup is `groups` groups of `lanes` invocations; a
// group owns one or two columns, and lane l reads words l, l + lanes, ...
// of each: a warp's load is 128 contiguous bytes of a column, and each
// invocation issues `unroll` (4) such loads per column before using any,
// so that enough bytes are in flight to cover the memory's latency. Lanes
// are the smallest power of two (from 8) for which one round of loads
// covers the row (a 576-long row in one round of 32 lanes), and the
// workgroup shrinks (to 64) while there are fewer than 128 workgroups, so
// narrow products still spread over a large GPU.
//
// A word holds 8 values (4 bits) that are consecutive in k, so lane l needs
// x at k = 8w .. 8w + 7: two vec4 loads, which a warp serves from 1 KiB of
// x (8 cache lines); x is a few KiB that every workgroup reads, so these
// hit the cache. (A first version read a uvec4 of 32 values per lane: 32
// lines per x load, bound by the L1 at 3-4% of the bandwidth; a second
// staged x in shared memory, whose copy and barrier before the first load
// of B dominated at 17-23%.) Reading x directly, the kernel has no barrier
// before the reduction (but a fused norm's statistics), and the loads of B
// wait for nothing.
//
// Dequantizing a value costs a shift, a mask-and-or and a float subtract:
// (q | 0x4B000000) is the float 2^23 + q, and subtracting 2^23 + z gives
// q - z exactly (integer zero points are below 2^8), where float(q) would
// be a conversion that NVIDIA GPUs run at a quarter of the FMA rate. A
// word lies in one block (a block is 16 or more values, a word at most
// 16), so its scale and zero point are read once per word, issued with the
// word's load, and the scale multiplies the word's partial sum: sum_i (q_i - z)
// * s * a_i = s * sum_i (q_i - z) * a_i. The second column of an invocation
// reuses each x vec4, halving the x reads per weight; it is used where N leaves
// 256 workgroups anyway. Several rows of A share each dequantized weight. Where
// K is not a multiple of a word's values, lane 0 adds the last word's values
// below K one by one.
//
// A column's partial sums meet in subgroup clusters where the target has
// them (one cluster per column when lanes fit a subgroup: no shared memory
// and no barrier), else in a tree of fixed shape in shared memory; either
// way in a fixed order, so results do not depend on scheduling. A fused
// norm's row statistics are computed first (GemmRowNorm), and loadA4
// normalizes x as it is read.
//
//===----------------------------------------------------------------------===//

#include "lowering/BlockQuantizedKernels.h"
#include "lowering/Glsl.h"

#include "llvm/Support/MathExtras.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {
std::string (&u)(int64_t) = glsl::uintLiteral;

/// The words of B each invocation loads before using them.
constexpr unsigned kUnroll = 4;
} // namespace

NBitsGemvPlan planNBitsGemv(const NBitsProblem &p,
                            const gpu::TargetDesc &target) {
  NBitsGemvPlan g;
  g.threads = std::min<unsigned>(256, target.maxComputeWorkGroupInvocations);
  g.threads = std::min<unsigned>(g.threads, target.maxComputeWorkGroupSize[0]);
  g.unroll = kUnroll;
  int64_t words = llvm::divideCeil(p.k, p.valuesPerWord());
  g.lanes = 8;
  while (g.lanes < g.threads && int64_t(g.lanes) * g.unroll < words)
    g.lanes *= 2;
  g.lanes = std::min(g.lanes, g.threads);
  // No more loads than a short row has words per lane.
  g.unroll = std::max<int64_t>(
      1, std::min<int64_t>(g.unroll, llvm::divideCeil(words, g.lanes)));
  // Smaller workgroups where there would be fewer than 128.
  while (g.threads > 64 && g.threads / 2 >= g.lanes &&
         llvm::divideCeil(p.n, g.threads / g.lanes) < 128)
    g.threads /= 2;
  g.groups = g.threads / g.lanes;
  g.columns = llvm::divideCeil(p.n, 2 * g.groups) >= 256 ? 2 : 1;
  g.cluster = getSubgroupCluster(target, g.threads);
  g.statsCluster = g.cluster;
  g.cluster = std::min(g.cluster, g.lanes);
  return g;
}

std::string generateNBitsGemv(const NBitsProblem &p, const NBitsGemvPlan &g,
                              const std::string &m, int64_t rows) {
  int64_t valuesPerWord = p.valuesPerWord();
  int64_t wordsPerBlock = p.blob / 4;
  int64_t fullWords = p.k / valuesPerWord;
  int64_t tailValues = p.k % valuesPerWord;
  unsigned outs = rows * g.columns;
  GemmProblem stats = nbitsStatsProblem(p);
  SmallVector<StringRef, 2> extensions;
  if (g.cluster || (p.rowNorm && g.statsCluster))
    extensions = {"GL_KHR_shader_subgroup_basic",
                  "GL_KHR_shader_subgroup_clustered"};
  std::string s = glsl::header({g.threads, 1, 1}, extensions);
  std::string common = nbitsCommon(p, "uint");
  if (common.empty())
    return {};
  s += declareRowNormStats(stats, rows, g.threads) + common;
  // Shared memory adds what the clusters have not.
  unsigned slots = g.cluster ? g.threads / g.cluster : g.threads;
  if (g.cluster < g.lanes)
    s += fmt::format("shared float red[{}];\n", outs * slots);
  s += "void main() {\n"
       "  uint lt = gl_LocalInvocationID.x;\n";
  s += generateRowNormStats(stats, "0u", rows, g.threads, "lt", g.statsCluster);
  // With clusters, an invocation's place follows its subgroup, so that the
  // invocations of a cluster share a column whatever the subgroups' order.
  s += g.cluster ? "  uint li = gl_SubgroupID * gl_SubgroupSize + "
                   "gl_SubgroupInvocationID;\n"
                 : "  uint li = lt;\n";
  s += fmt::format("  uint lane = li % {0}, grp = li / {0};\n", u(g.lanes));
  s += fmt::format("  uint col0 = gl_WorkGroupID.x * {} + grp * {};\n",
                   u(g.groups * g.columns), u(g.columns));
  // Columns past N compute on the last column and store nothing.
  for (unsigned c = 0; c < g.columns; ++c)
    s += fmt::format("  uint cw{0} = min(col0 + {1}, {2}) * {3}, cb{0} = "
                     "min(col0 + {1}, {2}) * {4};\n",
                     c, u(c), u(p.n - 1), u(p.wordsPerRow()), u(p.blocks));
  for (unsigned o = 0; o < outs; ++o)
    s += fmt::format("  float acc{} = 0.0;\n", o);
  auto rowGuard = [&](int64_t r) {
    return rows > 1 && m != u(rows) && r > 0 ? fmt::format("{} > {}", m, u(r))
                                             : std::string();
  };

  // Loads the scale and zero point of word `word` (a uint expression) of
  // each column into sc<c><suffix> and z<c><suffix>.
  auto loadBlock = [&](const std::string &word, const std::string &suffix,
                       StringRef indent) {
    std::string t;
    for (unsigned c = 0; c < g.columns; ++c)
      t += fmt::format("{0}float sc{1}{2} = scaleOf(cb{1} + {3} / {4}), "
                       "z{1}{2} = zeroOf(cb{1} + {3} / {4});\n",
                       indent.str(), c, suffix, word, u(wordsPerBlock));
    return t;
  };
  // Accumulates word `word` (a uint expression) of each column, held in
  // q<c><suffix> with its block's scale and zero point in sc<c><suffix> and
  // z<c><suffix>, with `values` of its values (x read by loadA4 where all
  // of them are used, else value by value through loadA).
  auto process = [&](const std::string &word, const std::string &suffix,
                     int64_t values, StringRef indent) {
    std::string in = indent.str();
    std::string t =
        in + fmt::format("uint k = {} * {};\n", word, u(valuesPerWord));
    for (unsigned c = 0; c < g.columns; ++c)
      t += in +
           fmt::format("float sc{0} = sc{0}{1}, z{0} = z{0}{1};\n", c, suffix);
    // The dequantized values, shared by the rows.
    for (unsigned c = 0; c < g.columns; ++c)
      for (int64_t i = 0; i < values; ++i) {
        std::string q = fmt::format("q{}{}", c, suffix);
        int64_t shift = i * p.bits;
        // Float zero points are subtracted after 2^23 (q - z need not be
        // an integer); integer ones with it, in one subtraction.
        t += in + fmt::format(
                      "float w{}_{} = uintBitsToFloat(({} & {}) | "
                      "0x4B000000u) - {};\n",
                      c, i, shift ? fmt::format("({} >> {})", q, u(shift)) : q,
                      u((1 << p.bits) - 1),
                      p.floatZeros ? fmt::format("8388608.0 - z{}", c)
                                   : fmt::format("(8388608.0 + z{})", c));
      }
    for (int64_t r = 0; r < rows; ++r) {
      std::string guard = rowGuard(r);
      std::string rin = in;
      if (!guard.empty()) {
        t += in + "if (" + guard + ") {\n";
        rin += "  ";
      }
      bool whole = values == valuesPerWord;
      if (whole)
        for (int64_t v = 0; v < values / 4; ++v)
          t += rin + fmt::format("vec4 x{}_{} = loadA4({}, k + {});\n", r, v,
                                 u(r), u(4 * v));
      for (unsigned c = 0; c < g.columns; ++c) {
        t += rin + "acc" + std::to_string(r * g.columns + c) + " += sc" +
             std::to_string(c) + " * (";
        for (int64_t i = 0; i < values; ++i) {
          std::string x = whole ? fmt::format("x{}_{}[{}]", r, i / 4, i % 4)
                                : fmt::format("loadA({}, k + {})", u(r), u(i));
          t += fmt::format("{}w{}_{} * {}", i ? " + " : "", c, i, x);
        }
        t += ");\n";
      }
      if (!guard.empty())
        t += in + "}\n";
    }
    return t;
  };

  if (fullWords > 0) {
    // All of an iteration's words are loaded first (the last iteration's
    // missing ones clamped to a word of the row), then used.
    unsigned step = g.lanes * g.unroll;
    s += fmt::format("  for (uint w = lane; w < {}; w += {}) {{\n",
                     u(fullWords), u(step));
    for (unsigned i = 0; i < g.unroll; ++i) {
      s += i ? fmt::format("    uint wi{} = min(w + {}, {});\n", i,
                           u(i * g.lanes), u(fullWords - 1))
             : "    uint wi0 = w;\n";
      for (unsigned c = 0; c < g.columns; ++c)
        s += fmt::format("    uint q{0}_{1} = b.d[cw{0} + wi{1}];\n", c, i);
    }
    // The blocks' scales and zero points too: none waits for a branch.
    for (unsigned i = 0; i < g.unroll; ++i)
      s += loadBlock(fmt::format("wi{}", i), fmt::format("_{}", i), "    ");
    for (unsigned i = 0; i < g.unroll; ++i) {
      if (i == 0) {
        s += "    {\n";
        s += process("w", "_0", valuesPerWord, "      ");
      } else {
        s += fmt::format("    if (w + {} < {}) {{\n", u(i * g.lanes),
                         u(fullWords));
        s += process(fmt::format("(w + {})", u(i * g.lanes)),
                     fmt::format("_{}", i), valuesPerWord, "      ");
      }
      s += "    }\n";
    }
    s += "  }\n";
  }
  if (tailValues) {
    // The last word holds values past K: lane 0 adds those before it.
    s += "  if (lane == 0u) {\n";
    for (unsigned c = 0; c < g.columns; ++c)
      s +=
          fmt::format("    uint q{0}_t = b.d[cw{0} + {1}];\n", c, u(fullWords));
    s += loadBlock(u(fullWords), "_t", "    ");
    s += process(u(fullWords), "_t", tailValues, "    ");
    s += "  }\n";
  }

  // Reduction: subgroup clusters first where the target has them; shared
  // memory adds the rest (the clusters' sums, or a tree of all lanes).
  auto store = [&](unsigned o, const std::string &value, StringRef indent) {
    int64_t r = o / g.columns;
    unsigned c = o % g.columns;
    std::string cond = fmt::format("col0 + {} < {}", u(c), u(p.n));
    std::string guard = rowGuard(r);
    if (!guard.empty())
      cond += " && " + guard;
    return fmt::format("{}if ({}) storeY({}, col0 + {}, {});\n", indent.str(),
                       cond, u(r), u(c), value);
  };
  if (g.cluster) {
    for (unsigned o = 0; o < outs; ++o)
      s += fmt::format("  float sum{0} = subgroupClusteredAdd(acc{0}, {1});\n",
                       o, u(g.cluster));
    if (g.cluster == g.lanes) {
      s += "  if (lane == 0u) {\n";
      for (unsigned o = 0; o < outs; ++o)
        s += store(o, fmt::format("sum{}", o), "    ");
      s += "  }\n}\n";
      return s;
    }
    unsigned partials = g.lanes / g.cluster;
    s += fmt::format("  if (lane % {} == 0u) {{\n", u(g.cluster));
    for (unsigned o = 0; o < outs; ++o)
      s += fmt::format("    red[{} + li / {}] = sum{};\n", u(o * slots),
                       u(g.cluster), o);
    s += "  }\n  barrier();\n  if (lane == 0u) {\n";
    for (unsigned o = 0; o < outs; ++o) {
      std::string base =
          fmt::format("{} + grp * {}", u(o * slots), u(partials));
      s += fmt::format("    float t{} = red[{}];\n", o, base);
      for (unsigned i = 1; i < partials; ++i)
        s += fmt::format("    t{} += red[{} + {}];\n", o, base, u(i));
      s += store(o, fmt::format("t{}", o), "    ");
    }
    s += "  }\n}\n";
    return s;
  }
  for (unsigned o = 0; o < outs; ++o)
    s += fmt::format("  red[{} + li] = acc{};\n", u(o * slots), o);
  s += "  barrier();\n";
  for (unsigned half = g.lanes / 2; half >= 1; half /= 2) {
    s += fmt::format("  if (lane < {}) {{\n", u(half));
    for (unsigned o = 0; o < outs; ++o)
      s += fmt::format("    red[{0} + li] += red[{0} + li + {1}];\n",
                       u(o * slots), u(half));
    s += "  }\n  barrier();\n";
  }
  s += "  if (lane == 0u) {\n";
  for (unsigned o = 0; o < outs; ++o)
    s += store(o, fmt::format("red[{} + li]", u(o * slots)), "    ");
  s += "  }\n}\n";
  return s;
}

} // namespace onyx::lowering

//===- AttentionWalk.cpp - One query row against its keys, in GLSL --------===//
//
// A decode step has one query row per head, so a workgroup per row leaves
// most of the GPU idle and the row's time is the latency of its chain of
// dependent steps. The walk keeps that chain short:
//   - scores: invocation tid scores key t0 + tid (its d products are
//     independent loads, issued together);
//   - the tile's maximum: a tree over shared memory (log2 WG steps), not a
//     loop over the tile in every invocation;
//   - the weights exp(score - max): each computed once, by the invocation
//     that scored the key, and shared;
//   - the weighted sum of V: invocations form WG / lanes groups of `lanes`
//     columns; group g weighs rows g, g + groups, ... of the tile, so each
//     invocation walks WG / groups rows, not the whole tile.
// The running maximum, each invocation's part of the sum of weights and
// its accumulators are rescaled when the maximum grows (the online
// softmax), and the groups' accumulators and the sum meet in trees of fixed
// shape at the end.
//
//===----------------------------------------------------------------------===//

#include "lowering/AttentionWalk.h"

#include "lowering/Glsl.h"

#include <algorithm>
#include <fmt/format.h>

namespace onyx::lowering {

namespace {
std::string (&u)(int64_t) = glsl::uintLiteral;

/// Columns a group covers: the value head size rounded up to a power of
/// two, at most the workgroup.
uint32_t lanesOf(const AttentionWalk &w) {
  uint32_t lanes = 1;
  while (lanes < w.dv && lanes < w.workgroupSize)
    lanes *= 2;
  return lanes;
}

/// A tree over `red` of `count` entries `unit` apart (count a power of
/// two): entry i takes op(entry i, entry i + half) for halves from count / 2
/// down to 1, where `guard` (the entry's number) is below half.
std::string tree(uint32_t count, uint32_t unit, StringRef op, StringRef guard) {
  std::string s;
  for (uint32_t half = count / 2; half >= 1; half /= 2)
    s += fmt::format(
        "  if ({} < {}) red[tid] = {};\n  barrier();\n", guard.str(), u(half),
        fmt::format(fmt::runtime(op.str()), fmt::arg("a", "red[tid]"),
                    fmt::arg("b", fmt::format("red[tid + {}]",
                                              u(int64_t(half) * unit)))));
  return s;
}
} // namespace

uint32_t chooseAttentionWorkgroup(uint32_t maxSizeX, uint32_t maxInvocations) {
  uint32_t limit = std::min({256u, maxSizeX, maxInvocations});
  uint32_t wg = 1;
  while (wg * 2 <= limit)
    wg *= 2;
  return wg;
}

std::string declareAttentionWalk(const AttentionWalk &w) {
  return fmt::format("#define NEG_INF uintBitsToFloat(0xff800000u)\n"
                     "shared float qs[{}];\n"
                     "shared float ps[{}];\n"
                     "shared float red[{}];\n",
                     std::max<int64_t>(w.d, 1), w.workgroupSize,
                     w.workgroupSize);
}

std::string generateAttentionWalk(const AttentionWalk &w) {
  uint32_t wg = w.workgroupSize;
  uint32_t lanes = lanesOf(w);
  uint32_t groups = wg / lanes;
  int64_t perThread = (w.dv + lanes - 1) / lanes;
  Type et = w.elementType;

  std::string accInit, accScale, accAdd;
  for (int64_t a = 0; a < perThread; ++a) {
    std::string col = fmt::format("(lane + {})", u(a * lanes));
    accInit += fmt::format("  float acc{} = 0.0;\n", a);
    accScale += fmt::format("      acc{} *= alpha;\n", a);
    std::string add =
        fmt::format("acc{} += pr * {};", a,
                    glsl::load(et, "v", fmt::format("vBase + {}", col)));
    accAdd += (a + 1) * lanes <= w.dv
                  ? fmt::format("        {}\n", add)
                  : fmt::format("        if ({} < {}) {}\n", col, u(w.dv), add);
  }

  std::string s = fmt::format(
      "  uint lane = tid % {LANES}, grp = tid / {LANES};\n"
      "  uint nKeys = {keys};\n"
      "  float m = NEG_INF, lPart = 0.0;\n"
      "{accInit}"
      "  for (uint t0 = 0u; t0 < nKeys; t0 += {WG}) {{\n"
      "    uint j = t0 + tid;\n"
      "    float sc = NEG_INF;\n"
      "    if (j < nKeys) {{\n"
      "      uint kBase = {keyRow};\n"
      "      float dot = 0.0;\n"
      "      for (uint c = 0u; c < {D}; ++c)\n"
      "        dot += qs[c] * {kload};\n"
      "      sc = dot * {scale};\n"
      "{adjust}"
      "    }}\n"
      "    red[tid] = sc;\n"
      "    barrier();\n"
      "{maxTree}"
      "    float tm = max(m, red[0]);\n"
      // Until a score is finite there is nothing to weigh (exp(-inf - -inf)
      // would be NaN): the tile is skipped. tm is the same in every
      // invocation, so the barriers below stay in uniform control flow.
      "    if (tm != NEG_INF) {{\n"
      "      float alpha = exp(m - tm);\n"
      "      float p = exp(sc - tm);\n"
      "      ps[tid] = p;\n"
      "      lPart = lPart * alpha + p;\n"
      "{accScale}"
      "      barrier();\n"
      "      uint n = min({WG}, nKeys - t0);\n"
      "      for (uint r = grp; r < n; r += {GROUPS}) {{\n"
      "        float pr = ps[r];\n"
      "        uint jv = t0 + r;\n"
      "        uint vBase = {valueRow};\n"
      "{accAdd}"
      "      }}\n"
      "      m = tm;\n"
      "    }}\n"
      "    barrier();\n"
      "  }}\n"
      "  red[tid] = lPart;\n"
      "  barrier();\n"
      "{sumTree}"
      // All -inf: 0 / 0, NaN as the reference gives.
      "  float l = red[0];\n"
      "  barrier();\n",
      fmt::arg("LANES", u(lanes)), fmt::arg("GROUPS", u(groups)),
      fmt::arg("WG", u(wg)), fmt::arg("D", u(w.d)), fmt::arg("keys", w.keys),
      fmt::arg("keyRow", w.keyRow), fmt::arg("valueRow", w.valueRow),
      fmt::arg("kload", glsl::load(et, "k", "kBase + c")),
      fmt::arg("scale", w.scale), fmt::arg("adjust", w.adjustScore),
      fmt::arg("maxTree", tree(wg, 1, "max({a}, {b})", "tid")),
      fmt::arg("sumTree", tree(wg, 1, "{a} + {b}", "tid")),
      fmt::arg("accInit", accInit), fmt::arg("accScale", accScale),
      fmt::arg("accAdd", accAdd));
  // The groups' accumulators of each column meet in group 0.
  for (int64_t a = 0; a < perThread; ++a) {
    std::string col = fmt::format("(lane + {})", u(a * lanes));
    s += fmt::format("  red[tid] = acc{};\n  barrier();\n", a);
    s += tree(groups, lanes, "{a} + {b}", "grp");
    s += fmt::format("  if (grp == 0u && {} < {}) {{\n    {}\n  }}\n"
                     "  barrier();\n",
                     col, u(w.dv),
                     fmt::format(fmt::runtime(w.store), fmt::arg("col", col),
                                 fmt::arg("value", "red[tid] / l")));
  }
  return s;
}

} // namespace onyx::lowering

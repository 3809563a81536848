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
//     lanes, each lane a vec4 of columns (or one column where the head size
//     is not a multiple of 4); group g weighs rows g, g + groups, ... of the
//     tile, so each invocation walks WG / groups rows, not the whole tile.
// A decode step's row is one tile or a few, so every round trip to memory
// is a large part of its time: the query row (where the kernel leaves it to
// the walk), the mask's element of each key and, where they fit in a few
// registers, the value rows an invocation weighs are loaded at the top of
// the tile, together with the keys, instead of each waiting on the step
// before; rows of f32 vec4s are read as vec4s (one load instruction, not
// four). On an H200, GPT-2's 12 heads at 128-255 keys: 16.5 -> 8.0 us.
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

/// Whether an invocation weighs four value columns at a time (a vec4 of
/// them): a group then needs a quarter of the lanes, so there are four times
/// as many groups and each walks a quarter of the tile's rows, whose loads
/// are the walk's longest chain.
bool weighsVec4(const AttentionWalk &w) { return w.dv % 4 == 0; }

/// Lanes of a group: its units of columns (one column, or a vec4 of them)
/// rounded up to a power of two, at most the workgroup.
uint32_t lanesOf(const AttentionWalk &w) {
  int64_t units = weighsVec4(w) ? w.dv / 4 : w.dv;
  uint32_t lanes = 1;
  while (lanes < units && lanes < w.workgroupSize)
    lanes *= 2;
  return lanes;
}

/// A tree over shared `array` of `count` entries `unit` apart (count a
/// power of two): entry i takes op(entry i, entry i + half) for halves from
/// count / 2 down to 1, where `guard` (the entry's number) is below half.
std::string tree(uint32_t count, uint32_t unit, StringRef op, StringRef guard,
                 StringRef array = "red") {
  std::string s;
  for (uint32_t half = count / 2; half >= 1; half /= 2)
    s += fmt::format(
        "  if ({} < {}) {}[tid] = {};\n  barrier();\n", guard.str(), u(half),
        array.str(),
        fmt::format(fmt::runtime(op.str()),
                    fmt::arg("a", fmt::format("{}[tid]", array.str())),
                    fmt::arg("b", fmt::format("{}[tid + {}]", array.str(),
                                              u(int64_t(half) * unit)))));
  return s;
}
/// The four elements of `buffer` from element `base` on (a multiple of 4)
/// as a vec4: one 16-byte load where the kernel declared the buffer as
/// vec4s (walk.vectorLoads), else four loads.
std::string loadVec4(const AttentionWalk &w, StringRef buffer,
                     const std::string &base) {
  if (w.vectorLoads)
    return fmt::format("{}.d[({}) / 4u]", buffer.str(), base);
  return fmt::format("vec4({}, {}, {}, {})",
                     glsl::load(w.elementType, buffer, base),
                     glsl::load(w.elementType, buffer, base + " + 1u"),
                     glsl::load(w.elementType, buffer, base + " + 2u"),
                     glsl::load(w.elementType, buffer, base + " + 3u"));
}

/// Lanes that share a key row's dot product, each a vec4 of every
/// `lanes`-th four columns, so that a warp reads whole rows (one invocation
/// per key reads 32 rows per load, far apart in the cache): a power of two
/// of at most 16 and of the row's vec4s, or 0 where the head size is not a
/// multiple of 4 or the partial sums (lanes x (WG + 1) floats) do not fit
/// beside the walk's other shared arrays.
uint32_t keyLanesOf(const AttentionWalk &w) {
  if (w.d % 4 != 0 || w.d < 8)
    return 0;
  uint32_t lanes = 1;
  while (lanes * 2 <= std::min<int64_t>(16, w.d / 4) &&
         lanes * 2 <= w.workgroupSize)
    lanes *= 2;
  uint64_t others =
      4 * (uint64_t(std::max<int64_t>(w.d, 1)) + 2 * w.workgroupSize +
           (w.dv % 4 == 0 ? 4 * w.workgroupSize : 0));
  uint64_t dots = 4 * uint64_t(lanes) * (w.workgroupSize + 1);
  // Room for the kernel's own few words besides.
  return others + dots + 1024 <= w.maxSharedBytes ? lanes : 0;
}

/// Statements that leave, in `dots`, the partial dot products of the
/// tile's keys t0 + kk: lane l of key kk at [l * (WG + 1) + kk] (padded so
/// that neither the stores nor the sums below meet in a bank). Key kk of
/// pass p is scored by invocations p * WG + tid with kk = p * (WG / lanes)
/// + tid / lanes; the passes' loads are independent.
std::string generateCoalescedDots(const AttentionWalk &w, uint32_t lanes,
                                  bool queryInRegisters) {
  uint32_t wg = w.workgroupSize;
  int64_t units = w.d / 4;
  std::string s =
      fmt::format("    uint kl = tid % {0}, kk0 = tid / {0};\n", u(lanes));
  for (uint32_t p = 0; p < lanes; ++p) {
    s += fmt::format("    {{\n"
                     "      uint kk = kk0 + {}, j = t0 + kk;\n"
                     "      float part = 0.0;\n"
                     "      if (j < nKeys) {{\n"
                     "        uint kBase = {};\n",
                     u(int64_t(p) * (wg / lanes)), w.keyRow);
    for (int64_t a = 0; a * lanes < units; ++a) {
      std::string unit = fmt::format("(kl + {})", u(a * lanes));
      std::string c = fmt::format("4u * {}", unit);
      std::string query =
          queryInRegisters
              ? fmt::format("qv{}", a)
              : fmt::format("vec4(qs[{0}], qs[{0} + 1u], qs[{0} + 2u], "
                            "qs[{0} + 3u])",
                            c);
      std::string add = fmt::format("part += dot({0}, {1});", query,
                                    loadVec4(w, "k", "kBase + " + c));
      s += (a + 1) * lanes <= units
               ? fmt::format("        {}\n", add)
               : fmt::format("        if ({} < {}) {}\n", unit, u(units), add);
    }
    s += fmt::format("      }}\n"
                     "      dots[kl * {} + kk] = part;\n"
                     "    }}\n",
                     u(wg + 1));
  }
  s += "    barrier();\n";
  return s;
}

/// Rows of V an invocation weighs in one step.
constexpr unsigned kUnroll = 8;

/// `float dot` of the query row (qs) and the key row at kBase, in four
/// partial sums (d a multiple of 4), so that the loads of one step do not
/// wait on the sum of the step before.
std::string generateDot(const AttentionWalk &w) {
  Type et = w.elementType;
  if (w.d % 4 != 0)
    return fmt::format("      float dot = 0.0;\n"
                       "      for (uint c = 0u; c < {}; ++c)\n"
                       "        dot += qs[c] * {};\n",
                       u(w.d), glsl::load(et, "k", "kBase + c"));
  return fmt::format(
      "      vec4 dots = vec4(0.0);\n"
      "      for (uint c = 0u; c < {}; c += 4u)\n"
      "        dots += vec4(qs[c], qs[c + 1u], qs[c + 2u], qs[c + 3u]) * "
      "{};\n"
      "      float dot = (dots.x + dots.y) + (dots.z + dots.w);\n",
      u(w.d), loadVec4(w, "k", "kBase + c"));
}
} // namespace

std::string generateAttentionCombine(const AttentionWalk &w, StringRef splits,
                                     StringRef record) {
  // A part whose keys were all -inf has m = -inf and l = 0: its weight
  // exp(m - M) is 0 unless every part is -inf, where M = -inf makes every
  // weight NaN and the row NaN, as the unsplit walk gives.
  std::string weight = "exp(part.d[r] - M)";
  return fmt::format(
      "  uint first = {record}, nParts = {splits};\n"
      "  float M = NEG_INF;\n"
      "  for (uint s = 0u; s < nParts; ++s)\n"
      "    M = max(M, part.d[first + s * {R}]);\n"
      "  float l = 0.0;\n"
      "  for (uint s = 0u; s < nParts; ++s) {{\n"
      "    uint r = first + s * {R};\n"
      "    l += part.d[r + 1u] * {weight};\n"
      "  }}\n"
      "  for (uint c = tid; c < {DV}; c += {WG}) {{\n"
      "    float acc = 0.0;\n"
      "    for (uint s = 0u; s < nParts; ++s) {{\n"
      "      uint r = first + s * {R};\n"
      "      acc += part.d[r + 2u + c] * {weight};\n"
      "    }}\n"
      "    {store}\n"
      "  }}\n",
      fmt::arg("record", record.str()), fmt::arg("splits", splits.str()),
      fmt::arg("R", u(w.dv + 2)), fmt::arg("DV", u(w.dv)),
      fmt::arg("WG", u(w.workgroupSize)), fmt::arg("weight", weight),
      fmt::arg("store", fmt::format(fmt::runtime(w.store), fmt::arg("col", "c"),
                                    fmt::arg("value", "acc / l"))));
}

bool walkLoadsQuery(const AttentionWalk &w) {
  return !w.queryLoad.empty() && keyLanesOf(w) != 0;
}

namespace {
/// Whether an invocation loads all the value rows it weighs in a tile into
/// registers before the tile's keys are scored, so that they travel with
/// the key loads instead of after the softmax (a decode step's row is one
/// tile or a few: each round trip to memory is a large part of its time).
/// Only where they fit in a few registers: at most 16 vec4s (or 64 floats).
bool prefetchesValues(const AttentionWalk &w) {
  uint32_t lanes = lanesOf(w);
  int64_t units = weighsVec4(w) ? w.dv / 4 : w.dv;
  int64_t perThread = (units + lanes - 1) / lanes;
  // Rows per invocation: the tile's rows over the groups, `lanes` of them.
  return int64_t(lanes) * perThread <= (weighsVec4(w) ? 16 : 64);
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
  std::string s =
      fmt::format("#define NEG_INF uintBitsToFloat(0xff800000u)\n"
                  "shared float qs[{}];\n"
                  "shared float ps[{}];\n"
                  "shared float red[{}];\n",
                  std::max<int64_t>(w.d, 1), w.workgroupSize, w.workgroupSize);
  if (weighsVec4(w))
    s += fmt::format("shared vec4 red4[{}];\n", w.workgroupSize);
  if (uint32_t lanes = keyLanesOf(w))
    s += fmt::format("shared float dots[{}];\n",
                     uint64_t(lanes) * (w.workgroupSize + 1));
  return s;
}

std::string generateAttentionWalk(const AttentionWalk &w) {
  uint32_t wg = w.workgroupSize;
  uint32_t lanes = lanesOf(w);
  uint32_t groups = wg / lanes;
  bool vec4 = weighsVec4(w);
  // Units of columns (vec4s or columns) of a row, and an invocation's.
  int64_t units = vec4 ? w.dv / 4 : w.dv;
  int64_t perThread = (units + lanes - 1) / lanes;
  Type et = w.elementType;

  // An invocation's unit `a` of the value row at vBase: its index and its
  // load, for the weighing loop and the prefetch alike.
  auto unitOf = [&](int64_t a) {
    return fmt::format("(lane + {})", u(a * lanes));
  };
  auto loadUnit = [&](int64_t a) {
    return vec4 ? loadVec4(w, "v", fmt::format("vBase + 4u * {}", unitOf(a)))
                : glsl::load(et, "v", fmt::format("vBase + {}", unitOf(a)));
  };

  std::string accInit, accScale, weighRow;
  for (int64_t a = 0; a < perThread; ++a) {
    std::string unit = unitOf(a);
    accInit += fmt::format("  {} acc{} = {}(0.0);\n", vec4 ? "vec4" : "float",
                           a, vec4 ? "vec4" : "float");
    accScale += fmt::format("      acc{} *= alpha;\n", a);
    std::string row = loadUnit(a);
    std::string add = fmt::format("acc{} += pr * {};", a, row);
    weighRow += (a + 1) * lanes <= units
                    ? fmt::format(" {}", add)
                    : fmt::format(" if ({} < {}) {}", unit, u(units), add);
  }
  // Row r + `offset` of the tile weighed into the accumulators.
  auto weigh = [&](int64_t offset) {
    return fmt::format("        {{ uint jv = t0 + r + {}; uint vBase = {}; "
                       "float pr = ps[r + {}];{} }}\n",
                       u(offset), w.valueRow, u(offset), weighRow);
  };
  // An invocation weighs the rows of the tile kUnroll at a time: the loads
  // of a step do not wait on one another, so a row's latency is not paid
  // once per row (a decode step has a workgroup per head, few warps to hide
  // it behind).
  std::string weighRows = fmt::format("      uint r = grp;\n"
                                      "      for (; r + {} < n; r += {}) {{\n",
                                      u(int64_t(kUnroll - 1) * groups),
                                      u(int64_t(kUnroll) * groups));
  for (unsigned x = 0; x < kUnroll; ++x)
    weighRows += weigh(int64_t(x) * groups);
  weighRows += fmt::format("      }}\n"
                           "      for (; r < n; r += {}) {{\n",
                           u(groups)) +
               weigh(0) + "      }\n";

  // With the values prefetched, an invocation's value rows of the tile
  // (grp + x * groups) are loaded into registers vr{x}_{a} before the keys
  // are scored and weighed from there.
  bool prefetch = prefetchesValues(w);
  std::string valueLoads, weighLoaded;
  if (prefetch) {
    std::string type = vec4 ? "vec4" : "float";
    for (uint32_t x = 0; x < lanes; ++x) {
      std::string assign, add;
      for (int64_t a = 0; a < perThread; ++a) {
        std::string unit = unitOf(a);
        valueLoads +=
            fmt::format("    {0} vr{1}_{2} = {0}(0.0);\n", type, x, a);
        std::string set = fmt::format("vr{}_{} = {};", x, a, loadUnit(a));
        assign += (a + 1) * lanes <= units
                      ? fmt::format(" {}", set)
                      : fmt::format(" if ({} < {}) {}", unit, u(units), set);
        add += fmt::format(" acc{0} += pr * vr{1}_{0};", a, x);
      }
      std::string r = fmt::format("grp + {}", u(int64_t(x) * groups));
      valueLoads += fmt::format("    if ({0} < n) {{ uint jv = t0 + {0}; "
                                "uint vBase = {1};{2} }}\n",
                                r, w.valueRow, assign);
      weighLoaded += fmt::format(
          "      if ({0} < n) {{ float pr = ps[{0}];{1} }}\n", r, add);
    }
  }

  // The query row in registers, each lane its vec4s of the row.
  bool queryInRegisters = walkLoadsQuery(w);
  std::string queryLoads;
  if (queryInRegisters) {
    uint32_t keyLanes = keyLanesOf(w);
    int64_t keyUnits = w.d / 4;
    queryLoads = fmt::format("  uint qkl = tid % {};\n", u(keyLanes));
    for (int64_t a = 0; a * keyLanes < keyUnits; ++a) {
      std::string c = fmt::format("4u * (qkl + {})", u(a * keyLanes));
      auto element = [&](StringRef offset) {
        return fmt::format(fmt::runtime(w.queryLoad),
                           fmt::arg("c", c + offset.str()));
      };
      std::string set = w.vectorLoads
                            ? fmt::format("qv{} = {};", a, element(""))
                            : fmt::format("qv{} = vec4({}, {}, {}, {});", a,
                                          element(""), element(" + 1u"),
                                          element(" + 2u"), element(" + 3u"));
      queryLoads += fmt::format("  vec4 qv{} = vec4(0.0);\n", a);
      queryLoads += (a + 1) * keyLanes <= keyUnits
                        ? fmt::format("  {}\n", set)
                        : fmt::format("  if (qkl + {} < {}) {}\n",
                                      u(a * keyLanes), u(keyUnits), set);
    }
  }

  // Each invocation's key: its dot from the lanes' partial sums, or its own.
  uint32_t keyLanes = keyLanesOf(w);
  std::string dot;
  if (keyLanes) {
    dot = "      float dot = 0.0;\n";
    for (uint32_t l = 0; l < keyLanes; ++l)
      dot += fmt::format("      dot += dots[{} + tid];\n",
                         u(int64_t(l) * (wg + 1)));
  } else {
    dot = fmt::format("      uint kBase = {};\n", w.keyRow) + generateDot(w);
  }
  std::string s = fmt::format(
      "  uint lane = tid % {LANES}, grp = tid / {LANES};\n"
      "  uint nKeys = {keys};\n"
      "  float m = NEG_INF, lPart = 0.0;\n"
      "{accInit}"
      "{queryLoads}"
      "  for (uint t0 = {first}; t0 < nKeys; t0 += {WG}) {{\n"
      "    uint n = min({WG}, nKeys - t0);\n"
      "    uint j = t0 + tid;\n"
      "{scoreLoadsDeclare}"
      "    if (j < nKeys) {{\n"
      "{scoreLoads}"
      "    }}\n"
      "{valueLoads}"
      "{dots}"
      "    float sc = NEG_INF;\n"
      "    if (j < nKeys) {{\n"
      "{dot}"
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
      "{weighRows}"
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
      fmt::arg("first", w.first), fmt::arg("keyRow", w.keyRow),
      fmt::arg("dots",
               keyLanes ? generateCoalescedDots(w, keyLanes, queryInRegisters)
                        : ""),
      fmt::arg("dot", dot),
      fmt::arg("weighRows", prefetch ? weighLoaded : weighRows),
      fmt::arg("queryLoads", queryLoads),
      fmt::arg("scoreLoadsDeclare", w.scoreLoadsDeclare),
      fmt::arg("scoreLoads", w.scoreLoads), fmt::arg("valueLoads", valueLoads),
      fmt::arg("scale", w.scale), fmt::arg("adjust", w.adjustScore),
      fmt::arg("maxTree", tree(wg, 1, "max({a}, {b})", "tid")),
      fmt::arg("sumTree", tree(wg, 1, "{a} + {b}", "tid")),
      fmt::arg("accInit", accInit), fmt::arg("accScale", accScale));
  // The groups' accumulators of each column meet in group 0.
  std::string split = w.splitting.empty() ? "false" : w.splitting;
  for (int64_t a = 0; a < perThread; ++a) {
    std::string unit = fmt::format("(lane + {})", u(a * lanes));
    // The unit's columns, and where the tree leaves each one's sum.
    SmallVector<std::pair<std::string, std::string>, 4> columns;
    if (vec4) {
      for (unsigned q = 0; q < 4; ++q)
        columns.push_back({fmt::format("4u * {} + {}", unit, u(q)),
                           fmt::format("red4[tid][{}]", q)});
    } else {
      columns.push_back({unit, "red[tid]"});
    }
    std::string store, partStore;
    for (auto &[col, sum] : columns) {
      store += fmt::format(fmt::runtime(w.store), fmt::arg("col", col),
                           fmt::arg("value", sum + " / l"));
      partStore +=
          fmt::format("part.d[{} + 2u + {}] = {};", w.record, col, sum);
    }
    if (w.splitting == "true")
      store = partStore;
    else if (!w.splitting.empty())
      store = fmt::format("if ({}) {{ {} }}\n    else {{ {} }}", split,
                          partStore, store);
    StringRef array = vec4 ? "red4" : "red";
    s += fmt::format("  {}[tid] = acc{};\n  barrier();\n", array, a);
    s += tree(groups, lanes, "{a} + {b}", "grp", array);
    s += fmt::format("  if (grp == 0u && {} < {}) {{\n    {}\n  }}\n"
                     "  barrier();\n",
                     unit, u(units), store);
  }
  if (!w.splitting.empty())
    s += fmt::format("  if ({} && tid == 0u) {{\n"
                     "    part.d[{}] = m;\n"
                     "    part.d[{} + 1u] = l;\n"
                     "  }}\n",
                     split, w.record, w.record);
  return s;
}

} // namespace onyx::lowering

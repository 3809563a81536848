//===- AttentionKernels.cpp - Attention as one kernel ---------------------===//
//
// One dispatch per onnx.Attention. A workgroup owns one query row (batch b,
// query head h, row i; the grid is [s, q_heads, batch]) and walks the t keys
// in tiles of WG:
//   1. each invocation scores one key of the tile against the row (held in
//      shared memory), scale, mask and causality applied, into shared
//      memory;
//   2. every invocation reads the tile's scores, takes their maximum and
//      rescales its running sum and accumulators when the maximum grows
//      (the online softmax: exp(x - max) never overflows);
//   3. invocation c accumulates exp(score - max) * V[key, c] for its output
//      columns c, c + WG, ...
// and finally divides by the sum. The kv head of query head h is h / (q_heads
// / kv_heads): grouped-query attention reads the shared head, nothing is
// repeated. A row whose scores are all -inf gives NaN, as the reference
// (softmax of -inf everywhere) does. Batch, s and t may be known only at run
// time (push constants); the heads and head sizes are baked in.
//
// Not done yet: splitting a long t over several workgroups (a decode step
// has few rows, so one workgroup per row leaves a large GPU idle at long
// cache lengths), and using the idle invocations when the head size is
// smaller than WG.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelSizes.h"
#include "lowering/TiledGemm.h"
#include "lowering/WorkgroupReduce.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Operation.h"

#include <cmath>
#include <fmt/format.h>

namespace onyx::lowering {

namespace {

/// A Transpose swapping the heads and sequence axes of a 4-D tensor.
bool isHeadsTranspose(Operation *op) {
  if (!op || op->getName().getStringRef() != "onnx.Transpose")
    return false;
  std::optional<SmallVector<int64_t>> perm = onnx::OpAttrs(op).getInts("perm");
  return perm && *perm == SmallVector<int64_t>{0, 2, 1, 3};
}

bool sameSize(Size a, Size b) {
  return a.isStatic() == b.isStatic() &&
         (a.isStatic() ? a.constant == b.constant : a.value == b.value);
}

/// Checks at run time that `a` equals `b` (what they are: `what`).
LogicalResult checkEqual(LoweringContext &ctx, Size a, Size b,
                         StringRef message) {
  if (sameSize(a, b))
    return success();
  return ctx.check(ctx.arith("gpu.eqi", a, b), message, {a, b});
}

LogicalResult lowerAttention(Operation *op, LoweringContext &ctx) {
  // Q [b, s, H, d] transposed to [b, H, s, d] is read in place, and a
  // Transpose of the result back to [b, s, H, dv] is written directly.
  Operation *qTranspose = op->getOperand(0).getDefiningOp();
  bool qInPlace = qTranspose && isTransposeReadByAttention(qTranspose);
  Operation *yTranspose = op->getResult(0).hasOneUse()
                              ? op->getResult(0).getUses().begin()->getOwner()
                              : nullptr;
  bool yTransposed = yTranspose && isTransposeWrittenByAttention(yTranspose);
  Value qValue = op->getOperand(0);
  auto qType = cast<RankedTensorType>(qValue.getType());
  auto kType = cast<RankedTensorType>(op->getOperand(1).getType());
  auto vType = cast<RankedTensorType>(op->getOperand(2).getType());
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = qType.getElementType();
  if (reportUnsupported(ctx, et))
    return failure();
  if (glsl::computeType(et) != "float")
    return ctx.emitError() << "supports f32, f16 and bf16, not " << et;
  bool hasMask =
      op->getNumOperands() > 3 && !onnx::isNoValue(op->getOperand(3));
  int64_t d = qType.getShape()[3], dv = vType.getShape()[3];
  int64_t heads = qType.getShape()[1], kvHeads = kType.getShape()[1];
  if (ShapedType::isDynamic(d) || ShapedType::isDynamic(dv) ||
      ShapedType::isDynamic(kvHeads))
    return ctx.emitError() << "needs the head sizes and K's heads known";
  onnx::OpAttrs attrs(op);
  double scale =
      attrs.has("scale") ? attrs.getFloat("scale") : 1.0 / std::sqrt(double(d));
  bool causal = attrs.getInt("is_causal") != 0;
  unsigned numBindings = 4 + hasMask;
  if (numBindings > ctx.getTarget().maxPerStageDescriptorStorageBuffers)
    return ctx.emitError()
           << "needs " << numBindings
           << " storage buffers, more than the target's "
           << ctx.getTarget().maxPerStageDescriptorStorageBuffers;

  SmallVector<Size> qDims;
  if (qInPlace) {
    qDims = ctx.getDims(qTranspose->getOperand(0));
    if (qDims.size() == 4)
      std::swap(qDims[1], qDims[2]);
  } else {
    qDims = ctx.getDims(qValue);
  }
  SmallVector<Size> kDims = ctx.getDims(op->getOperand(1));
  SmallVector<Size> vDims = ctx.getDims(op->getOperand(2));
  if (qDims.size() != 4 || kDims.size() != 4 || vDims.size() != 4)
    return failure();
  Size batch = qDims[0], seq = qDims[2], t = kDims[2];
  // What inference could not see through `?` dims.
  if (failed(checkEqual(ctx, kDims[0], batch,
                        "Attention: K's batch {0} is not Q's {1}")) ||
      failed(checkEqual(ctx, vDims[0], batch,
                        "Attention: V's batch {0} is not Q's {1}")) ||
      failed(checkEqual(ctx, vDims[2], t,
                        "Attention: V's length {0} is not K's {1}")))
    return failure();
  SmallVector<Size> maskDims;
  if (hasMask) {
    maskDims = ctx.getDims(op->getOperand(3));
    if (maskDims.empty())
      return failure();
    if (failed(checkEqual(
            ctx, maskDims.back(), t,
            "Attention: the mask's last dimension {0} is not the key "
            "length {1}")))
      return failure();
    Size full[] = {batch, Size(heads), seq, t};
    for (size_t i = 0; i + 1 < maskDims.size(); ++i) {
      Size want = full[4 - maskDims.size() + i];
      Size m = maskDims[i];
      if (sameSize(m, want) || (m.isStatic() && m.constant == 1))
        continue;
      Size ok = ctx.select(ctx.arith("gpu.eqi", m, Size(1)), Size(1),
                           ctx.arith("gpu.eqi", m, want));
      if (failed(ctx.check(ok,
                           "Attention: the mask's dimension {0} does not "
                           "broadcast to {1}",
                           {m, want})))
        return failure();
    }
  }

  SmallVector<Size> yDims = {batch, Size(heads), seq, Size(dv)};
  Value y = ctx.allocate(yType, yDims);
  ctx.setResult(op->getResult(0), y);
  if (dv == 0 || heads == 0 || (seq.isStatic() && seq.constant == 0) ||
      (batch.isStatic() && batch.constant == 0))
    return success();
  SmallVector<Value> bindings;
  for (unsigned i = 0; i < 3u + hasMask; ++i) {
    bindings.push_back(ctx.getView(op->getOperand(i)));
    if (!bindings.back())
      return failure();
  }
  bindings.push_back(y);

  uint32_t wg = 64;
  wg = std::min<uint32_t>(wg, ctx.getTarget().maxComputeWorkGroupSize[0]);
  wg = std::min<uint32_t>(wg, ctx.getTarget().maxComputeWorkGroupInvocations);
  int64_t perThread = (dv + wg - 1) / wg;
  KernelSizes sizes(ctx);
  using glsl::uintLiteral;
  std::string S = sizes.get(seq), T = sizes.get(t);
  std::string decls = glsl::buffer(0, gpu::Access::Read, et, "q") +
                      glsl::buffer(1, gpu::Access::Read, et, "k") +
                      glsl::buffer(2, gpu::Access::Read, et, "v");
  std::string maskCode;
  if (hasMask) {
    Type maskType =
        cast<RankedTensorType>(op->getOperand(3).getType()).getElementType();
    decls += glsl::buffer(3, gpu::Access::Read, maskType, "mask");
    std::string index = sizes.broadcastIndex(maskDims, 4, "c");
    std::string load = glsl::load(maskType, "mask", index);
    maskCode = maskType.isInteger(1)
                   ? fmt::format("      if (!{}) sc = NEG_INF;\n", load)
                   : fmt::format("      sc += {};\n", load);
  }
  decls += glsl::buffer(numBindings - 1, gpu::Access::Write, et, "y");

  std::string accInit, accScale, accAdd, accStore;
  for (int64_t a = 0; a < perThread; ++a) {
    std::string col = fmt::format("(tid + {}u)", a * wg);
    accInit += fmt::format("  float acc{} = 0.0;\n", a);
    accScale += fmt::format("    acc{} *= alpha;\n", a);
    accAdd += fmt::format("      if ({0} < {1}) acc{2} += p * {3};\n", col,
                          uintLiteral(dv), a,
                          glsl::load(et, "v", fmt::format("vRow + {}", col)));
    accStore += fmt::format("  if ({0} < {1}) {2}\n", col, uintLiteral(dv),
                            glsl::store(et, "y", fmt::format("yBase + {}", col),
                                        fmt::format("acc{} / l", a)));
  }

  std::string main = fmt::format(
      "void main() {{\n"
      "  uint i = gl_WorkGroupID.x, h = gl_WorkGroupID.y, b = "
      "gl_WorkGroupID.z;\n"
      "  uint tid = gl_LocalInvocationID.x;\n"
      "  uint S = {S}, T = {T};\n"
      "  uint c0 = b, c1 = h, c2 = i;\n"
      "  uint qBase = {qBase};\n"
      "  uint kvRow = (b * {KVH}u + h / {REP}u) * T;\n"
      "  for (uint c = tid; c < {D}u; c += {WG}u)\n"
      "    qs[c] = {qload};\n"
      "  barrier();\n"
      "  float m = NEG_INF, l = 0.0;\n"
      "{accInit}"
      "  for (uint t0 = 0u; t0 < T; t0 += {WG}u) {{\n"
      "    uint j = t0 + tid;\n"
      "    float sc = NEG_INF;\n"
      "    if (j < T) {{\n"
      "      uint c3 = j;\n"
      "      uint kBase = (kvRow + j) * {D}u;\n"
      "      float dot = 0.0;\n"
      "      for (uint c = 0u; c < {D}u; ++c)\n"
      "        dot += qs[c] * {kload};\n"
      "      sc = dot * {scale};\n"
      "{mask}{causal}"
      "    }}\n"
      "    ps[tid] = sc;\n"
      "    barrier();\n"
      "    uint n = min({WG}u, T - t0);\n"
      "    float tm = m;\n"
      "    for (uint r = 0u; r < n; ++r)\n"
      "      tm = max(tm, ps[r]);\n"
      // Until a score is finite there is nothing to weigh (exp(-inf - -inf)
      // would be NaN): the tile is skipped.
      "    if (tm != NEG_INF) {{\n"
      "      float alpha = exp(m - tm);\n"
      "      l *= alpha;\n"
      "{accScale}"
      "      for (uint r = 0u; r < n; ++r) {{\n"
      "        float p = exp(ps[r] - tm);\n"
      "        l += p;\n"
      "        uint vRow = (kvRow + t0 + r) * {DV}u;\n"
      "{accAdd}"
      "      }}\n"
      "      m = tm;\n"
      "    }}\n"
      "    barrier();\n"
      "  }}\n"
      // All -inf: 0 / 0, NaN as the reference gives.
      "  uint yBase = {yBase};\n"
      "{accStore}"
      "}}\n",
      fmt::arg("S", S), fmt::arg("T", T), fmt::arg("H", heads),
      fmt::arg("D", d), fmt::arg("DV", dv), fmt::arg("KVH", kvHeads),
      fmt::arg("REP", heads / kvHeads), fmt::arg("WG", wg),
      fmt::arg("qBase",
               qInPlace
                   ? fmt::format("((b * S + i) * {}u + h) * {}u", heads, d)
                   : fmt::format("((b * {}u + h) * S + i) * {}u", heads, d)),
      fmt::arg("yBase",
               yTransposed
                   ? fmt::format("((b * S + i) * {}u + h) * {}u", heads, dv)
                   : fmt::format("((b * {}u + h) * S + i) * {}u", heads, dv)),
      fmt::arg("qload", glsl::load(et, "q", "qBase + c")),
      fmt::arg("kload", glsl::load(et, "k", "kBase + c")),
      fmt::arg("scale", glsl::literal(et, scale)), fmt::arg("mask", maskCode),
      fmt::arg("causal",
               causal ? "      if (j > i) sc = NEG_INF;\n" : std::string()),
      fmt::arg("accInit", accInit), fmt::arg("accScale", accScale),
      fmt::arg("accAdd", accAdd), fmt::arg("accStore", accStore));

  KernelSpec spec;
  spec.name = "attention";
  spec.workgroupSize = {wg, 1, 1};
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() + decls +
              fmt::format("#define NEG_INF uintBitsToFloat(0xff800000u)\n"
                          "shared float qs[{}];\n"
                          "shared float ps[{}];\n",
                          std::max<int64_t>(d, 1), wg) +
              main;
  for (unsigned i = 0; i + 1 < numBindings; ++i)
    spec.bindings.push_back(gpu::Access::Read);
  spec.bindings.push_back(gpu::Access::Write);
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  // An empty grid dimension dispatches nothing.
  ctx.dispatch(kernel, {seq, Size(heads), batch}, bindings, push);
  return success();
}

} // namespace

bool isTransposeReadByAttention(Operation *op) {
  if (!isHeadsTranspose(op) || !op->getResult(0).hasOneUse())
    return false;
  OpOperand &use = *op->getResult(0).getUses().begin();
  return use.getOwner()->getName().getStringRef() == "onnx.Attention" &&
         use.getOperandNumber() == 0;
}

bool isTransposeWrittenByAttention(Operation *op) {
  if (!isHeadsTranspose(op) || isTransposeAbsorbed(op))
    return false;
  Value input = op->getOperand(0);
  Operation *def = input.getDefiningOp();
  return input.hasOneUse() && def &&
         def->getName().getStringRef() == "onnx.Attention";
}

namespace {

const KernelGenerator attentionGenerators[] = {
    {"onnx.Attention", lowerAttention, /*dynamicDims=*/true},
};

} // namespace

ArrayRef<KernelGenerator> getAttentionGenerators() {
  return attentionGenerators;
}

} // namespace onyx::lowering

//===- AttentionKernels.cpp - Attention as one kernel ---------------------===//
//
// One dispatch per onnx.Attention. A workgroup owns one query row (batch b,
// query head h, row i; the grid is [s, q_heads, batch]), holds it in shared
// memory and walks the t keys in tiles with the online softmax
// (AttentionWalk.cpp: scores, mask and causality, the tile's maximum and
// weights, the weighted sum of V split among groups of invocations). The kv
// head of query head h is h / (q_heads / kv_heads): grouped-query attention
// reads the shared head, nothing is repeated. Batch, s and t may be known
// only at run time (push constants); the heads and head sizes are baked in.
//
// com.microsoft.GroupQueryAttention is the same walk over a KV cache that
// it first writes (GroupQueryAttentionKernels.cpp).
//
// A decode step has one query row per head: one workgroup per row would
// leave a large GPU idle and make each row as slow as the chain of its
// keys. There the keys of a long row are split among workgroups
// (flash-decoding): each walks a share of the keys and leaves its partial
// maximum, sum and weighted sum of V, and a second kernel combines the
// parts. The split count is a run-time size (1 for rows of a prefill, where
// the rows fill the GPU, and for short rows): one compiled plan serves
// every cache length.
//
//===----------------------------------------------------------------------===//

#include "lowering/AttentionKernels.h"
#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"
#include "lowering/TiledGemm.h"
#include "lowering/WorkgroupReduce.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Operation.h"

#include <cmath>

namespace onyx::lowering {

LogicalResult checkEqual(LoweringContext &ctx, Size a, Size b,
                         StringRef message) {
  if (a.isSameAs(b))
    return success();
  return ctx.check(ctx.arith("gpu.eqi", a, b), message, {a, b});
}

namespace {

/// A Transpose swapping the heads and sequence axes of a 4-D tensor.
bool isHeadsTranspose(Operation *op) {
  if (!op || op->getName().getStringRef() != "onnx.Transpose")
    return false;
  std::optional<SmallVector<int64_t>> perm = onnx::OpAttrs(op).getInts("perm");
  return perm && *perm == SmallVector<int64_t>{0, 2, 1, 3};
}

/// Rows of fewer keys stay whole: below it the split saves the device a few
/// microseconds (on an H100, 12 heads of 64, both kernels: 15 -> 11 us at
/// 256 keys, 51 -> 14 at 1024), about what recording the second dispatch
/// costs the host.
constexpr int64_t kSplitFromKeys = 512;
/// Fewest keys a workgroup of a split row walks.
constexpr int64_t kMinSplitKeys = 64;
/// Workgroups a split aims at across the heads of a row (several per
/// multiprocessor of a large GPU).
constexpr int64_t kSplitWorkgroups = 512;

/// The kernel that combines a split row's parts into the row of y at
/// `yBase` (an expression of b, h, i and S): one workgroup per row,
/// dispatched only where the run splits.
void dispatchAttentionCombine(LoweringContext &ctx, const AttentionWalk &walk,
                              const AttentionSplit &split, int64_t heads,
                              Size seq, Size batch, StringRef yBase,
                              Value parts, Value y) {
  auto f32 = FloatType::getF32(ctx.getContext());
  AttentionWalk combine = walk;
  combine.workgroupSize = std::min<uint32_t>(walk.workgroupSize, 64);
  KernelSizes sizes(ctx);
  std::string S = sizes.get(seq), splits = sizes.get(split.splits);
  KernelSpec spec;
  spec.name = "attention_combine";
  spec.workgroupSize = {combine.workgroupSize, 1, 1};
  spec.glsl =
      glsl::header(spec.workgroupSize) + sizes.declaration() +
      "#define NEG_INF uintBitsToFloat(0xff800000u)\n" +
      glsl::buffer(0, gpu::Access::Read, f32, "part") +
      glsl::buffer(1, gpu::Access::Write, walk.elementType, "y") +
      fmt::format(
          "void main() {{\n"
          "  uint i = gl_WorkGroupID.x, h = gl_WorkGroupID.y, b = "
          "gl_WorkGroupID.z;\n"
          "  uint tid = gl_LocalInvocationID.x;\n"
          "  uint S = {};\n"
          "  uint yBase = {};\n"
          "{}"
          "}}\n",
          S, yBase.str(),
          generateAttentionCombine(combine, splits,
                                   partRecord(heads, splits, "0u", walk.dv)));
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  ctx.dispatch(kernel, {ctx.mul(seq, split.isSplit), Size(heads), batch},
               {parts, y}, push);
}

} // namespace

AttentionSplit chooseAttentionSplit(LoweringContext &ctx, Size seq, Size keys,
                                    int64_t heads) {
  AttentionSplit split;
  int64_t cap =
      std::max<int64_t>(1, kSplitWorkgroups / std::max<int64_t>(heads, 1));
  Size parts = ctx.atLeast(
      ctx.min(ctx.ceilDiv(keys, Size(kMinSplitKeys)), Size(cap)), 1);
  // One statement per host op: the order of a call's arguments is
  // unspecified, and the IR must not depend on the compiler.
  Size manyKeys = ctx.arith("gpu.lei", Size(kSplitFromKeys), keys);
  Size oneQuery = ctx.arith("gpu.eqi", seq, Size(1));
  Size splitting = ctx.mul(oneQuery, manyKeys);
  split.splits = ctx.select(splitting, parts, Size(1));
  split.chunk = ctx.ceilDiv(keys, split.splits);
  split.isSplit = ctx.sub(Size(1), ctx.arith("gpu.eqi", split.splits, Size(1)));
  return split;
}

Value allocateAttentionParts(LoweringContext &ctx, Size rows,
                             const AttentionSplit &split, int64_t dv) {
  auto f32 = FloatType::getF32(ctx.getContext());
  Size elements = ctx.mul(ctx.mul(rows, split.splits), Size(dv + 2));
  if (elements.isStatic() && split.isSplit.isStatic())
    return ctx.allocate(RankedTensorType::get(
        {split.isSplit.constant ? elements.constant : 1}, f32));
  elements = ctx.atLeast(ctx.mul(elements, split.isSplit), 1);
  return ctx.allocate(RankedTensorType::get({ShapedType::kDynamic}, f32),
                      {elements});
}

std::string partRecord(int64_t heads, StringRef splits, StringRef part,
                       int64_t dv) {
  return fmt::format("(((b * {}u + h) * S + i) * {} + {}) * {}u", heads,
                     splits.str(), part.str(), dv + 2);
}

void dispatchAttention(LoweringContext &ctx, KernelSpec &spec,
                       const KernelSizes &sizes, ValueRange bindings,
                       const AttentionWalk &walk, const AttentionSplit &split,
                       int64_t heads, Size seq, Size batch, StringRef yBase,
                       Value parts, Value y) {
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  // An empty grid dimension dispatches nothing.
  ctx.dispatch(kernel, {ctx.mul(seq, split.splits), Size(heads), batch},
               bindings, push);
  if (split.maySplit())
    dispatchAttentionCombine(ctx, walk, split, heads, seq, batch, yBase, parts,
                             y);
}

namespace {

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
  if (failed(ctx.checkStorageBuffers(numBindings, "")))
    return failure();

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
  // A mask Slice read in place (isSliceReadByAttention).
  const StridedRead *maskRead =
      hasMask ? ctx.lookupStridedRead(op->getOperand(3)) : nullptr;
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
      if (m.isSameAs(want) || (m.isStatic() && m.constant == 1))
        continue;
      // One statement per host op, as in chooseAttentionSplit.
      Size equal = ctx.arith("gpu.eqi", m, want);
      Size ok = ctx.select(ctx.arith("gpu.eqi", m, Size(1)), Size(1), equal);
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
    bindings.push_back(i == 3 && maskRead ? maskRead->view
                                          : ctx.getView(op->getOperand(i)));
    if (!bindings.back())
      return failure();
  }
  AttentionSplit split = chooseAttentionSplit(ctx, seq, t, heads);
  bool maySplit = split.maySplit();
  // Where every run splits, the walk writes only parts: y is the combine's.
  bool alwaysSplit = split.alwaysSplit();
  if (!alwaysSplit)
    bindings.push_back(y);
  if (maySplit && failed(ctx.checkStorageBuffers(numBindings + 1, "")))
    return failure();
  Value parts;
  if (maySplit) {
    parts = allocateAttentionParts(
        ctx, ctx.mul(ctx.mul(batch, Size(heads)), seq), split, dv);
    bindings.push_back(parts);
  }

  uint32_t wg =
      chooseAttentionWorkgroup(ctx.getTarget().maxComputeWorkGroupSize[0],
                               ctx.getTarget().maxComputeWorkGroupInvocations);
  KernelSizes sizes(ctx);
  std::string S = sizes.get(seq), T = sizes.get(t),
              splits = sizes.get(split.splits), chunk = sizes.get(split.chunk);
  // Keys and values [b, kv_heads, t, d], or a decoder's cache kept in its
  // state positions outermost, [t, b, kv_heads, d] (CacheAppend.cpp).
  std::string kvRow =
      fmt::format("(b * {}u + h / {}u) * T", kvHeads, heads / kvHeads);
  std::string kRow = "kvRow + j", vRow = "kvRow + jv";
  if (isReadFromCache(op->getOperand(1))) {
    std::string stride = sizes.get(ctx.mul(batch, Size(kvHeads)));
    kvRow = fmt::format("b * {}u + h / {}u", kvHeads, heads / kvHeads);
    kRow = fmt::format("kvRow + j * {}", stride);
    vRow = fmt::format("kvRow + jv * {}", stride);
  }
  // Rows of whole vec4s (every row starts at a multiple of its head size)
  // are read as vec4s: a quarter of the load instructions.
  bool vectorLoads = canLoadVectors(ctx, et) && d % 4 == 0 && dv % 4 == 0;
  auto declare = [&](unsigned binding, StringRef name) {
    return vectorLoads ? vectorBuffer(binding, name)
                       : glsl::buffer(binding, gpu::Access::Read, et, name);
  };
  std::string decls = declare(0, "q") + declare(1, "k") + declare(2, "v");
  std::string maskCode, maskDeclare, maskLoad;
  if (hasMask) {
    Type maskType =
        cast<RankedTensorType>(op->getOperand(3).getType()).getElementType();
    decls += glsl::buffer(3, gpu::Access::Read, maskType, "mask");
    std::string index = maskRead ? sizes.broadcastIndex(*maskRead, 4, "c")
                                 : sizes.broadcastIndex(maskDims, 4, "c");
    std::string load = glsl::load(maskType, "mask", index);
    // The mask's element is loaded with the key's row (walk.scoreLoads), and
    // applied once the score is known.
    bool isBool = maskType.isInteger(1);
    maskDeclare =
        isBool ? "    bool keep = true;\n" : "    float bias = 0.0;\n";
    maskLoad = fmt::format("      uint c3 = j;\n      {} = {};\n",
                           isBool ? "keep" : "bias", load);
    maskCode =
        isBool ? "      if (!keep) sc = NEG_INF;\n" : "      sc += bias;\n";
  }
  if (!alwaysSplit)
    decls += glsl::buffer(numBindings - 1, gpu::Access::Write, et, "y");
  if (maySplit)
    decls += glsl::buffer(numBindings - alwaysSplit, gpu::Access::Write,
                          FloatType::getF32(ctx.getContext()), "part");

  std::string yBase =
      yTransposed ? fmt::format("((b * S + i) * {}u + h) * {}u", heads, dv)
                  : fmt::format("((b * {}u + h) * S + i) * {}u", heads, dv);
  AttentionWalk walk;
  walk.elementType = et;
  walk.workgroupSize = wg;
  walk.maxSharedBytes = ctx.getTarget().maxComputeSharedMemorySize;
  walk.d = d;
  walk.dv = dv;
  walk.first = fmt::format("sp * {}", chunk);
  walk.keys = fmt::format("min(T, sp * {0} + {0})", chunk);
  if (maySplit) {
    walk.splitting = split.condition(splits);
    walk.record = partRecord(heads, splits, "sp", dv);
  }
  walk.keyRow = fmt::format("({}) * {}u", kRow, d);
  walk.valueRow = fmt::format("({}) * {}u", vRow, dv);
  walk.scale = glsl::literal(et, scale);
  walk.adjustScore =
      maskCode + (causal ? "      if (j > i) sc = NEG_INF;\n" : "");
  walk.scoreLoadsDeclare = maskDeclare;
  walk.scoreLoads = maskLoad;
  walk.vectorLoads = vectorLoads;
  walk.queryLoad = vectorLoads ? "q.d[(qBase + {c}) / 4u]"
                               : glsl::load(et, "q", "qBase + {c}");
  walk.store = glsl::store(et, "y", "yBase + {col}", "{value}");
  std::string main = fmt::format(
      "void main() {{\n"
      "  uint i = gl_WorkGroupID.x / {SPLITS}, sp = gl_WorkGroupID.x % "
      "{SPLITS};\n"
      "  uint h = gl_WorkGroupID.y, b = gl_WorkGroupID.z;\n"
      "  uint tid = gl_LocalInvocationID.x;\n"
      "  uint S = {S}, T = {T};\n"
      "  uint c0 = b, c1 = h, c2 = i;\n"
      "  uint qBase = {qBase};\n"
      "  uint kvRow = {kvRow};\n"
      "  uint yBase = {yBase};\n"
      "{fillQuery}"
      "{walk}"
      "}}\n",
      fmt::arg("fillQuery",
               walkLoadsQuery(walk)
                   ? std::string()
                   : fmt::format("  for (uint c = tid; c < {}u; c += {}u)\n"
                                 "    qs[c] = {};\n"
                                 "  barrier();\n",
                                 d, wg,
                                 vectorLoads
                                     ? vectorBufferElement("q", "qBase + c")
                                     : glsl::load(et, "q", "qBase + c"))),
      fmt::arg("S", S), fmt::arg("T", T), fmt::arg("SPLITS", splits),
      fmt::arg("D", d), fmt::arg("WG", wg), fmt::arg("kvRow", kvRow),
      fmt::arg("qBase",
               qInPlace
                   ? fmt::format("((b * S + i) * {}u + h) * {}u", heads, d)
                   : fmt::format("((b * {}u + h) * S + i) * {}u", heads, d)),
      fmt::arg("yBase", yBase), fmt::arg("walk", generateAttentionWalk(walk)));

  KernelSpec spec;
  spec.name = "attention";
  spec.workgroupSize = {wg, 1, 1};
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() + decls +
              declareAttentionWalk(walk) + main;
  for (unsigned i = 0; i + 1 < numBindings; ++i)
    spec.bindings.push_back(gpu::Access::Read);
  if (!alwaysSplit)
    spec.bindings.push_back(gpu::Access::Write);
  if (maySplit)
    spec.bindings.push_back(gpu::Access::Write);
  dispatchAttention(ctx, spec, sizes, bindings, walk, split, heads, seq, batch,
                    yBase, parts, y);
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
    {"onnx.com.microsoft.GroupQueryAttention", lowerGroupQueryAttention,
     /*dynamicDims=*/true},
};

} // namespace

ArrayRef<KernelGenerator> getAttentionGenerators() {
  return attentionGenerators;
}

} // namespace onyx::lowering

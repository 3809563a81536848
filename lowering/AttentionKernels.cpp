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
// com.microsoft.GroupQueryAttention, below, is the same walk over a KV
// cache that it first writes.
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

#include "lowering/AttentionWalk.h"
#include "lowering/DataMovement.h"
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

/// How the keys of a row are split among workgroups.
struct AttentionSplit {
  /// Workgroups per row, and keys per workgroup.
  Size splits, chunk;
  /// 1 where the run splits (the combine kernel's grid factor), else 0.
  Size isSplit;
  /// Whether some run may split, and whether every run does.
  bool maySplit() const { return !isSplit.isStatic() || isSplit.constant; }
  bool alwaysSplit() const { return isSplit.isStatic() && isSplit.constant; }
  /// The walk's `splitting` condition, `splits` being the split count's
  /// GLSL.
  std::string condition(StringRef splits) const {
    return alwaysSplit() ? std::string("true")
                         : fmt::format("{} > 1u", splits.str());
  }
};

/// Rows of one query (decode steps) of kSplitFromKeys keys or more split
/// them into parts of at least kMinSplitKeys keys, at most kSplitWorkgroups
/// / heads of them; other rows stay whole.
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

/// The float buffer of a split's partial records: [rows][splits][dv + 2]
/// (one element where the run does not split).
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

/// The first element of part `part`'s record of row (b, h, i) (GLSL uint
/// expressions; S is the rows' count).
std::string partRecord(int64_t heads, StringRef splits, StringRef part,
                       int64_t dv) {
  return fmt::format("(((b * {}u + h) * S + i) * {} + {}) * {}u", heads,
                     splits.str(), part.str(), dv + 2);
}

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
      if (sameSize(m, want) || (m.isStatic() && m.constant == 1))
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
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  // An empty grid dimension dispatches nothing.
  ctx.dispatch(kernel, {ctx.mul(seq, split.splits), Size(heads), batch},
               bindings, push);
  if (maySplit)
    dispatchAttentionCombine(ctx, walk, split, heads, seq, batch, yBase, parts,
                             y);
  return success();
}

//===----------------------------------------------------------------------===//
// com.microsoft.GroupQueryAttention
//===----------------------------------------------------------------------===//

// Two dispatches. The first writes the new K and V (K rotated at its
// position) into the present cache at rows p_b .. p_b + S - 1, where p_b =
// seqlens_k[b] + 1 - S (0 for the first prompt, S = total_sequence_length);
// the second is the attention above with Q rotated as it is loaded and
// key row j of sequence b attended when j <= min(p_b + i, seqlens_k[b]).
// When past_key and past_value have a length known when compiling (a
// max-length buffer: GenAI's past_present_share_buffer) and are read by
// this op alone, present is past's own buffer, written in place, and
// total_sequence_length must fit it (checked at run time): a decode step
// copies nothing. Otherwise (a growing cache, past of length `?`) a copy
// kernel first moves past into a new present of max(past, total) rows.
// seqlens_k values that do not fit the cache skip their rows here, where
// the reference evaluator reports an error.

/// GLSL that rotates `x` (a local float array of the head, `d` values) in
/// place at cache row `pos`.
std::string rotateCode(Type et, int64_t half, bool interleaved,
                       StringRef array) {
  using glsl::uintLiteral;
  std::string a = interleaved ? "2u * k" : "k";
  std::string b =
      interleaved ? "2u * k + 1u" : fmt::format("k + {}", uintLiteral(half));
  return fmt::format("    for (uint k = 0u; k < {0}; ++k) {{\n"
                     "      float c = {1}, s = {2};\n"
                     "      float xa = {3}[{4}], xb = {3}[{5}];\n"
                     "      {3}[{4}] = xa * c - xb * s;\n"
                     "      {3}[{5}] = xb * c + xa * s;\n"
                     "    }}\n",
                     uintLiteral(half),
                     glsl::load(et, "cosCache",
                                fmt::format("pos * {} + k", uintLiteral(half))),
                     glsl::load(et, "sinCache",
                                fmt::format("pos * {} + k", uintLiteral(half))),
                     array.str(), a, b);
}

/// Whether `op` is the only op of the model that reads `value` (the
/// lowering's own gpu ops, such as an argument's upload, aside), so that
/// `op` may write into its memory.
bool isReadOnlyBy(Value value, Operation *op) {
  return llvm::all_of(value.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    return user == op || user->getName().getStringRef().starts_with("gpu.");
  });
}

LogicalResult lowerGroupQueryAttention(Operation *op, LoweringContext &ctx) {
  using glsl::uintLiteral;
  onnx::OpAttrs attrs(op);
  auto qType = cast<RankedTensorType>(op->getOperand(0).getType());
  Type et = qType.getElementType();
  if (reportUnsupported(ctx, et))
    return failure();
  if (glsl::computeType(et) != "float")
    return ctx.emitError() << "supports f32, f16 and bf16, not " << et;
  auto present = [&](unsigned i) {
    return op->getNumOperands() > i && !onnx::isNoValue(op->getOperand(i));
  };
  bool hasPast = present(3);
  int64_t heads = attrs.getInt("num_heads");
  int64_t kvHeads = attrs.getInt("kv_num_heads");
  bool packed = !present(1);
  int64_t perToken = packed ? heads + 2 * kvHeads : heads;
  int64_t width = qType.getShape()[2];
  if (ShapedType::isDynamic(width))
    return ctx.emitError() << "needs the hidden size known";
  int64_t d = width / perToken;
  bool rotary = attrs.getInt("do_rotary") != 0;
  int64_t half = 0;
  if (rotary) {
    auto cosType = cast<RankedTensorType>(op->getOperand(7).getType());
    half = cosType.getShape()[1];
    if (ShapedType::isDynamic(half))
      return ctx.emitError() << "needs the rotary dimension known";
  }
  bool interleaved = attrs.getInt("rotary_interleaved") != 0;
  double scale = attrs.getFloat("scale");
  if (scale == 0)
    scale = 1.0 / std::sqrt(double(d));
  unsigned maxBindings = ctx.getTarget().maxPerStageDescriptorStorageBuffers;
  // query (key, value), present K and V, seqlens (cos, sin).
  unsigned updateBindings = (packed ? 1 : 2) + 3 + (rotary ? 2 : 0);
  unsigned attendBindings = 1 + 2 + 1 + (rotary ? 2 : 0) + 1;
  if (std::max(updateBindings, attendBindings) > maxBindings)
    return ctx.emitError() << "needs "
                           << std::max(updateBindings, attendBindings)
                           << " storage buffers, more than the target's "
                           << maxBindings;

  SmallVector<Size> qDims = ctx.getDims(op->getOperand(0));
  if (qDims.size() != 3)
    return failure();
  Size batch = qDims[0], seq = qDims[1];
  SmallVector<Size> pastDims = {batch, Size(kvHeads), Size(0), Size(d)};
  if (hasPast)
    pastDims = ctx.getDims(op->getOperand(3));
  if (pastDims.size() != 4)
    return failure();
  Size pastLength = pastDims[2];
  std::optional<SmallVector<Size>> totalValue =
      ctx.getShapeValue(op->getOperand(6));
  if (!totalValue || totalValue->size() != 1)
    return ctx.emitError() << "needs total_sequence_length computable on "
                              "the host (an input or a shape computation)";
  Size total = (*totalValue)[0];
  if (failed(checkEqual(ctx, pastDims[0], batch,
                        "GroupQueryAttention: past_key's batch {0} is not "
                        "query's {1}")) ||
      failed(checkEqual(ctx, ctx.getDims(op->getOperand(5))[0], batch,
                        "GroupQueryAttention: seqlens_k has {0} elements, "
                        "not the batch {1}")))
    return failure();

  // present: past's own buffer, or a new one with past copied in. A past
  // of a length known when compiling, while the total changes from step to
  // step, is GenAI's max-length buffer (past_present_share_buffer); a
  // growing cache has a past length known only at run time.
  bool inPlace = hasPast && pastLength.isStatic() &&
                 isReadOnlyBy(op->getOperand(3), op) &&
                 isReadOnlyBy(op->getOperand(4), op);
  Size presentLength = inPlace ? pastLength : ctx.max(pastLength, total);
  if (inPlace &&
      failed(ctx.check(ctx.arith("gpu.lei", total, pastLength),
                       "GroupQueryAttention: total_sequence_length {0} does "
                       "not fit the cache of {1} positions",
                       {total, pastLength})))
    return failure();
  SmallVector<Size> presentDims = {batch, Size(kvHeads), presentLength,
                                   Size(d)};
  Value presentK, presentV;
  RankedTensorType presentType = RankedTensorType::get(
      {ShapedType::kDynamic, kvHeads, ShapedType::kDynamic, d}, et);
  if (op->getNumResults() > 1)
    presentType = cast<RankedTensorType>(op->getResult(1).getType());
  Value pastK = hasPast ? ctx.getView(op->getOperand(3)) : Value();
  Value pastV = hasPast ? ctx.getView(op->getOperand(4)) : Value();
  if (hasPast && (!pastK || !pastV))
    return failure();
  if (!hasPast) {
    presentK = ctx.allocate(presentType, presentDims);
    presentV = ctx.allocate(presentType, presentDims);
  } else if (inPlace) {
    presentK = ctx.reinterpret(pastK, presentType, presentDims);
    presentV = ctx.reinterpret(pastV, presentType, presentDims);
  } else {
    presentK = ctx.allocate(presentType, presentDims);
    presentV = ctx.allocate(presentType, presentDims);
    KernelSizes sizes(ctx);
    Size count = getNumElements(ctx, pastDims);
    std::string countSize = sizes.get(count);
    std::string pastSize = sizes.get(pastLength);
    std::string presentSize = sizes.get(presentLength);
    KernelSpec spec;
    spec.name = "gqa_copy_past";
    spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
    spec.bindings = {gpu::Access::Read, gpu::Access::Read, gpu::Access::Write,
                     gpu::Access::Write};
    spec.glsl =
        glsl::header(spec.workgroupSize) + sizes.declaration() +
        glsl::buffer(0, gpu::Access::Read, et, "pk") +
        glsl::buffer(1, gpu::Access::Read, et, "pv") +
        glsl::buffer(2, gpu::Access::Write, et, "ok") +
        glsl::buffer(3, gpu::Access::Write, et, "ov") +
        fmt::format("void main() {{\n"
                    "  uint i = gl_GlobalInvocationID.x;\n"
                    "  if (i >= {0}) return;\n"
                    "  uint row = i / {1}u, c = i % {1}u;\n"
                    "  uint o = ((row / {2}) * {3} + row % {2}) * {1}u + c;\n"
                    "  {4}\n  {5}\n"
                    "}}\n",
                    countSize, d, pastSize, presentSize,
                    glsl::store(et, "ok", "o", glsl::load(et, "pk", "i")),
                    glsl::store(et, "ov", "o", glsl::load(et, "pv", "i")));
    sizes.dispatch(spec, count, {pastK, pastV, presentK, presentV});
  }
  if (op->getNumResults() > 1)
    ctx.setResult(op->getResult(1), presentK);
  if (op->getNumResults() > 2)
    ctx.setResult(op->getResult(2), presentV);
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Value y = ctx.allocate(yType, {batch, seq, Size(heads * d)});
  ctx.setResult(op->getResult(0), y);
  if ((seq.isStatic() && seq.constant == 0) ||
      (batch.isStatic() && batch.constant == 0) || d == 0)
    return success();

  Value query = ctx.getView(op->getOperand(0));
  Value seqlens = ctx.getView(op->getOperand(5));
  if (!query || !seqlens)
    return failure();
  Type seqlensType =
      cast<RankedTensorType>(op->getOperand(5).getType()).getElementType();
  Value cosView, sinView;
  if (rotary) {
    cosView = ctx.getView(op->getOperand(7));
    sinView = ctx.getView(op->getOperand(8));
    if (!cosView || !sinView)
      return failure();
  }
  // Where the new token of (b, t) starts in the cache, and whether it fits.
  std::string startCode =
      datamovement::readIndex(seqlensType, "seqlens", "b", "sl") +
      "  int start = S == TOTAL ? 0 : sl + 1 - int(S);\n"
      "  bool fits = slFits && start >= 0 && start + int(S) <= int(LP);\n";

  // 1. K and V into the cache.
  {
    KernelSizes sizes(ctx);
    Size rows = ctx.mul(ctx.mul(batch, seq), Size(kvHeads));
    std::string rowsSize = sizes.get(rows), S = sizes.get(seq),
                TOTAL = sizes.get(total), LP = sizes.get(presentLength);
    KernelSpec spec;
    spec.name = "gqa_update_cache";
    spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
    // K and V from the packed query, or from key and value.
    SmallVector<Value> views = {query};
    std::string decls = glsl::buffer(0, gpu::Access::Read, et, "q");
    std::string kBuf = "q", vBuf = "q";
    std::string kOffset = fmt::format("{}u", heads * d),
                vOffset = fmt::format("{}u", (heads + kvHeads) * d);
    std::string tokenWidth = uintLiteral(perToken * d);
    spec.bindings = {gpu::Access::Read};
    if (!packed) {
      views = {ctx.getView(op->getOperand(1)), ctx.getView(op->getOperand(2))};
      if (!views[0] || !views[1])
        return failure();
      decls = glsl::buffer(0, gpu::Access::Read, et, "kIn") +
              glsl::buffer(1, gpu::Access::Read, et, "vIn");
      spec.bindings = {gpu::Access::Read, gpu::Access::Read};
      kBuf = "kIn";
      vBuf = "vIn";
      kOffset = vOffset = "0u";
      tokenWidth = uintLiteral(kvHeads * d);
    }
    unsigned n = views.size();
    decls += glsl::buffer(n, gpu::Access::Write, et, "pk") +
             glsl::buffer(n + 1, gpu::Access::Write, et, "pv") +
             datamovement::indexBuffer(n + 2, seqlensType, "seqlens");
    spec.bindings.append(
        {gpu::Access::Write, gpu::Access::Write, gpu::Access::Read});
    views.append({presentK, presentV, seqlens});
    std::string rotate;
    if (rotary) {
      decls += glsl::buffer(n + 3, gpu::Access::Read, et, "cosCache") +
               glsl::buffer(n + 4, gpu::Access::Read, et, "sinCache");
      spec.bindings.append({gpu::Access::Read, gpu::Access::Read});
      views.append({cosView, sinView});
      rotate = "  {\n    uint pos = uint(start) + t;\n" +
               rotateCode(et, half, interleaved, "kx") + "  }\n";
    }
    spec.glsl =
        glsl::header(spec.workgroupSize) + sizes.declaration() + decls +
        fmt::format(
            "void main() {{\n"
            "  uint r = gl_GlobalInvocationID.x;\n"
            "  if (r >= {rows}) return;\n"
            "  uint S = {S}, TOTAL = {TOTAL}, LP = {LP};\n"
            "  uint g = r % {KVH}u, t = (r / {KVH}u) % S, b = r / ({KVH}u * "
            "S);\n"
            "{start}"
            "  if (!fits) return;\n"
            "  uint src = (b * S + t) * {W} + g * {D}u;\n"
            "  float kx[{D}];\n"
            "  for (uint c = 0u; c < {D}u; ++c) kx[c] = {kload};\n"
            "{rotate}"
            "  uint dst = ((b * {KVH}u + g) * LP + uint(start) + t) * {D}u;\n"
            "  for (uint c = 0u; c < {D}u; ++c) {{\n"
            "    {kstore}\n    {vstore}\n"
            "  }}\n"
            "}}\n",
            fmt::arg("rows", rowsSize), fmt::arg("S", S),
            fmt::arg("TOTAL", TOTAL), fmt::arg("LP", LP),
            fmt::arg("KVH", kvHeads), fmt::arg("start", startCode),
            fmt::arg("W", tokenWidth), fmt::arg("D", d),
            fmt::arg("kload",
                     glsl::load(et, kBuf, "src + " + kOffset + " + c")),
            fmt::arg("rotate", rotate),
            fmt::arg("kstore", glsl::store(et, "pk", "dst + c", "kx[c]")),
            fmt::arg("vstore",
                     glsl::store(
                         et, "pv", "dst + c",
                         glsl::load(et, vBuf, "src + " + vOffset + " + c"))));
    sizes.dispatch(spec, rows, views);
  }

  // 2. The attention: one workgroup per (query row, head, batch), or per
  // part of a row where a decode step's keys are split.
  AttentionSplit split = chooseAttentionSplit(ctx, seq, total, heads);
  bool maySplit = split.maySplit();
  bool alwaysSplit = split.alwaysSplit();
  uint32_t wg =
      chooseAttentionWorkgroup(ctx.getTarget().maxComputeWorkGroupSize[0],
                               ctx.getTarget().maxComputeWorkGroupInvocations);
  KernelSizes sizes(ctx);
  std::string S = sizes.get(seq), TOTAL = sizes.get(total),
              LP = sizes.get(presentLength), splits = sizes.get(split.splits),
              chunk = sizes.get(split.chunk);
  SmallVector<Value> views = {query, presentK, presentV, seqlens};
  std::string decls = glsl::buffer(0, gpu::Access::Read, et, "q") +
                      glsl::buffer(1, gpu::Access::Read, et, "k") +
                      glsl::buffer(2, gpu::Access::Read, et, "v") +
                      datamovement::indexBuffer(3, seqlensType, "seqlens");
  KernelSpec spec;
  spec.name = "gqa_attention";
  spec.workgroupSize = {wg, 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Read, gpu::Access::Read,
                   gpu::Access::Read};
  std::string rotate;
  if (rotary) {
    decls += glsl::buffer(4, gpu::Access::Read, et, "cosCache") +
             glsl::buffer(5, gpu::Access::Read, et, "sinCache");
    spec.bindings.append({gpu::Access::Read, gpu::Access::Read});
    views.append({cosView, sinView});
    rotate = "  if (tid == 0u) {\n    uint pos = uint(start) + i;\n" +
             rotateCode(et, half, interleaved, "qs") + "  }\n  barrier();\n";
  }
  if (!alwaysSplit) {
    decls += glsl::buffer(views.size(), gpu::Access::Write, et, "y");
    spec.bindings.push_back(gpu::Access::Write);
    views.push_back(y);
  }
  Value parts;
  if (maySplit) {
    parts = allocateAttentionParts(
        ctx, ctx.mul(ctx.mul(batch, Size(heads)), seq), split, d);
    decls += glsl::buffer(views.size(), gpu::Access::Write,
                          FloatType::getF32(ctx.getContext()), "part");
    spec.bindings.push_back(gpu::Access::Write);
    views.push_back(parts);
  }
  if (failed(ctx.checkStorageBuffers(views.size(), "")))
    return failure();
  std::string yBase = fmt::format("((b * S + i) * {}u + h) * {}u", heads, d);
  AttentionWalk walk;
  walk.elementType = et;
  walk.workgroupSize = wg;
  walk.maxSharedBytes = ctx.getTarget().maxComputeSharedMemorySize;
  walk.d = d;
  walk.dv = d;
  walk.first = fmt::format("sp * {}", chunk);
  walk.keys = fmt::format(
      "min(uint(min(start + int(i), sl)) + 1u, sp * {0} + {0})", chunk);
  // A row that does not fit the cache is zeros: its parts say so (part 0
  // weighs 1 with a zero sum, the others nothing).
  std::string zeroRow =
      fmt::format("for (uint c = tid; c < {}u; c += {}u) {}", d, wg,
                  glsl::store(et, "y", "yBase + c", glsl::literal(et, 0)));
  if (maySplit) {
    walk.splitting = split.condition(splits);
    walk.record = partRecord(heads, splits, "sp", d);
    std::string zeroParts =
        fmt::format("{{\n"
                    "      uint rec = {0};\n"
                    "      for (uint c = tid; c < {1}u; c += {2}u) part.d[rec "
                    "+ 2u + c] = 0.0;\n"
                    "      if (tid == 0u) {{\n"
                    "        part.d[rec] = sp == 0u ? 0.0 : NEG_INF;\n"
                    "        part.d[rec + 1u] = sp == 0u ? 1.0 : 0.0;\n"
                    "      }}\n"
                    "    }}",
                    walk.record, d, wg);
    zeroRow = alwaysSplit ? zeroParts
                          : fmt::format("if ({}) {}\n    else {}",
                                        walk.splitting, zeroParts, zeroRow);
  }
  walk.keyRow = fmt::format("(kvRow + j) * {}u", d);
  walk.valueRow = fmt::format("(kvRow + jv) * {}u", d);
  walk.scale = glsl::literal(et, scale);
  walk.store = glsl::store(et, "y", "yBase + {col}", "{value}");
  spec.glsl =
      glsl::header(spec.workgroupSize) + sizes.declaration() + decls +
      declareAttentionWalk(walk) +
      fmt::format("void main() {{\n"
                  "  uint i = gl_WorkGroupID.x / {SPLITS}, sp = "
                  "gl_WorkGroupID.x % {SPLITS};\n"
                  "  uint h = gl_WorkGroupID.y, b = gl_WorkGroupID.z;\n"
                  "  uint tid = gl_LocalInvocationID.x;\n"
                  "  uint S = {S}, TOTAL = {TOTAL}, LP = {LP};\n"
                  "{start}"
                  "  uint yBase = {yBase};\n"
                  "  if (!fits) {{\n"
                  "    {zero}\n"
                  "    return;\n"
                  "  }}\n"
                  "  uint kvRow = (b * {KVH}u + h / {REP}u) * LP;\n"
                  "  uint qBase = (b * S + i) * {W}u + h * {D}u;\n"
                  "  for (uint c = tid; c < {D}u; c += {WG}u)\n"
                  "    qs[c] = {qload};\n"
                  "  barrier();\n"
                  "{rotate}"
                  "{walk}"
                  "}}\n",
                  fmt::arg("S", S), fmt::arg("TOTAL", TOTAL),
                  fmt::arg("LP", LP), fmt::arg("start", startCode),
                  fmt::arg("H", heads), fmt::arg("D", d), fmt::arg("WG", wg),
                  fmt::arg("KVH", kvHeads), fmt::arg("REP", heads / kvHeads),
                  fmt::arg("W", perToken * d), fmt::arg("zero", zeroRow),
                  fmt::arg("yBase", yBase), fmt::arg("SPLITS", splits),
                  fmt::arg("qload", glsl::load(et, "q", "qBase + c")),
                  fmt::arg("rotate", rotate),
                  fmt::arg("walk", generateAttentionWalk(walk)));
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  ctx.dispatch(kernel, {ctx.mul(seq, split.splits), Size(heads), batch}, views,
               push);
  if (maySplit)
    dispatchAttentionCombine(ctx, walk, split, heads, seq, batch, yBase, parts,
                             y);
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

//===- GroupQueryAttentionKernels.cpp - GQA over a KV cache ---------------===//
//
// com.microsoft.GroupQueryAttention: the attention of AttentionKernels.cpp
// over a KV cache that it first writes, with the rotary embedding of K and
// Q applied where they are loaded.
//
// Two dispatches. The first writes the new K and V (K rotated at its
// position) into the present cache at rows p_b .. p_b + S - 1, where p_b =
// seqlens_k[b] + 1 - S (0 for the first prompt, S = total_sequence_length);
// the second is onnx.Attention's walk with Q rotated as it is loaded and
// key row j of sequence b attended when j <= min(p_b + i, seqlens_k[b]).
// When past_key and past_value have a length known when compiling (a
// max-length buffer: GenAI's past_present_share_buffer) and are read by
// this op alone, present is past's own buffer, written in place, and
// total_sequence_length must fit it (checked at run time): a decode step
// copies nothing. Otherwise (a growing cache, past of length `?`) a copy
// kernel first moves past into a new present of max(past, total) rows.
// seqlens_k values that do not fit the cache skip their rows here, where
// the reference evaluator reports an error.
//
//===----------------------------------------------------------------------===//

#include "lowering/AttentionKernels.h"
#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"
#include "lowering/WorkgroupReduce.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Operation.h"

#include <cmath>

namespace onyx::lowering {

namespace {

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

} // namespace

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
  dispatchAttention(ctx, spec, sizes, views, walk, split, heads, seq, batch,
                    yBase, parts, y);
  return success();
}

} // namespace onyx::lowering

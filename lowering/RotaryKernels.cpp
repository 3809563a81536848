//===- RotaryKernels.cpp - RotaryEmbedding --------------------------------===//
//
// One invocation per output element: it finds its head, position and pair,
// reads the pair's two inputs and the position's cos and sin, and writes
// its half of the rotation (elements past rotary_embedding_dim are
// copied). With position_ids the cache row is the position's (read as
// ivec2 for i64, so no int64 feature is needed); an id outside the cache
// writes zeros rather than read outside it, where the reference evaluator
// reports an error.
//
// com.microsoft.RotaryEmbedding (ONNX Runtime's) is the same kernel with
// its operands in another order (input, position_ids, cos, sin), position
// ids always given, and of one element an offset: token t is at p + t.
//
//===----------------------------------------------------------------------===//

#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"
#include "lowering/KernelSizes.h"
#include "lowering/TiledGemm.h"
#include "lowering/WorkgroupReduce.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering {

bool isHeadsTransposeReadByRotary(Operation *op) {
  if (!op || op->getName().getStringRef() != "onnx.Transpose" ||
      op->getResult(0).use_empty() || isTransposeAbsorbed(op) ||
      isTransposeWrittenByMatMul(op))
    return false;
  std::optional<SmallVector<int64_t>> perm = onnx::OpAttrs(op).getInts("perm");
  if (!perm || *perm != SmallVector<int64_t>{0, 2, 1, 3})
    return false;
  return llvm::all_of(op->getResult(0).getUses(), [](OpOperand &use) {
    return isDimsOnlyUse(use) || (use.getOwner()->getName().getStringRef() ==
                                      "onnx.RotaryEmbedding" &&
                                  use.getOperandNumber() == 0);
  });
}

bool isExpandReadByRotary(Operation *op) {
  if (!op || op->getName().getStringRef() != "onnx.Expand" ||
      op->getResult(0).use_empty())
    return false;
  auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!in || !out || in.getRank() != 3 || out.getRank() != 3 ||
      in.getElementType() != out.getElementType())
    return false;
  return llvm::all_of(op->getResult(0).getUses(), [](OpOperand &use) {
    // (A Shape of the result would read the input's dims, so none.)
    Operation *user = use.getOwner();
    return user->getName().getStringRef() == "onnx.RotaryEmbedding" &&
           (use.getOperandNumber() == 1 || use.getOperandNumber() == 2) &&
           (user->getNumOperands() < 4 || onnx::isNoValue(user->getOperand(3)));
  });
}

static LogicalResult lowerRotary(Operation *op, LoweringContext &ctx) {
  bool microsoft =
      op->getName().getStringRef() == "onnx.com.microsoft.RotaryEmbedding";
  // Operand numbers of x, cos, sin and position_ids.
  unsigned xIndex = 0, cosIndex = microsoft ? 2 : 1, sinIndex = cosIndex + 1,
           positionsIndex = microsoft ? 1 : 3;
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  Type et = type.getElementType();
  if (reportUnsupported(ctx, et))
    return failure();
  SmallVector<Size> dims = ctx.getDims(op->getOperand(0));
  if (dims.size() != size_t(type.getRank()))
    return failure();
  bool is4d = dims.size() == 4;
  // A heads Transpose of the input read in place: x is [b, s, H, d].
  bool transposed =
      is4d && isHeadsTransposeReadByRotary(op->getOperand(0).getDefiningOp());
  onnx::OpAttrs attrs(op);
  // Batch and seq may be known only at run time; the head size picks the
  // pairs and must be known.
  Size seq = dims[is4d ? 2 : 1];
  Size heads = is4d ? dims[1] : Size(attrs.getInt("num_heads"));
  Size hidden = dims[is4d ? 3 : 2];
  auto cacheType = cast<RankedTensorType>(op->getOperand(cosIndex).getType());
  // ONNX Runtime's op without num_heads: the caches give the head size.
  if (microsoft && !is4d && heads.constant == 0 && hidden.isStatic() &&
      !ShapedType::isDynamic(cacheType.getShape()[1]) &&
      cacheType.getShape()[1] > 0)
    heads = Size(hidden.constant / (2 * cacheType.getShape()[1]));
  // The head size picks the pairs: it must be known. A 4-D input's heads
  // may be known only at run time (a Reshape of a `?` into heads of a
  // static size); a 3-D input's heads divide its hidden size.
  if (!hidden.isStatic())
    return ctx.emitError()
           << "needs the head size known when it is compiled (the last "
              "dimension of its input is `?`; bind it with --bind-dims)";
  if (!is4d && (!heads.isStatic() || heads.constant == 0))
    return ctx.emitError() << "needs the number of heads of its 3-D input "
                              "known when it is compiled (num_heads)";
  int64_t headSize = is4d ? hidden.constant : hidden.constant / heads.constant;
  int64_t rotaryDim = attrs.getInt("rotary_embedding_dim");
  if (!rotaryDim)
    rotaryDim = headSize;
  int64_t half = rotaryDim / 2;
  bool interleaved = attrs.getInt("interleaved") != 0;
  bool hasPositions = op->getNumOperands() > positionsIndex &&
                      !onnx::isNoValue(op->getOperand(positionsIndex));
  auto positionsType =
      hasPositions
          ? cast<RankedTensorType>(op->getOperand(positionsIndex).getType())
          : RankedTensorType();
  bool offset = hasPositions && positionsType.getRank() == 1;
  unsigned numBindings = 4 + hasPositions;
  if (numBindings > ctx.getTarget().maxPerStageDescriptorStorageBuffers)
    return ctx.emitError()
           << "needs " << numBindings
           << " storage buffers in one kernel, more than the "
              "target's "
           << ctx.getTarget().maxPerStageDescriptorStorageBuffers;

  // Keys rotated for a decoder's cache go straight into it.
  std::optional<CacheRowsStore> cache =
      storeIntoCache(ctx, op->getResult(0), dims);
  Value out = cache ? cache->state : ctx.allocate(type, dims);
  if (!cache)
    ctx.setResult(op->getResult(0), out);
  Size total = getNumElements(ctx, dims);
  if (total.isStatic() && total.constant == 0)
    return success();
  SmallVector<Value> views;
  SmallVector<unsigned> operands = {xIndex, cosIndex, sinIndex};
  if (hasPositions)
    operands.push_back(positionsIndex);
  for (unsigned i : operands) {
    views.push_back(ctx.getView(op->getOperand(i)));
    if (!views.back())
      return failure();
  }
  views.push_back(out);

  KernelSizes sizes(ctx);
  auto uintLiteral = [&](Size size) { return sizes.get(size); };
  // The dynamic sizes, first, in a fixed order (their push-constant slots).
  std::string totalSize = sizes.get(total);
  std::string seqSize = sizes.get(seq);
  std::string ct = glsl::computeType(et);
  KernelSpec spec;
  spec.name = "rotary_embedding";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Read, gpu::Access::Read};
  std::string decls = glsl::buffer(0, gpu::Access::Read, et, "x") +
                      glsl::buffer(1, gpu::Access::Read, et, "cosCache") +
                      glsl::buffer(2, gpu::Access::Read, et, "sinCache");
  std::string row;
  if (hasPositions) {
    Type idType = positionsType.getElementType();
    SmallVector<Size> cacheDims = ctx.getDims(op->getOperand(cosIndex));
    if (cacheDims.empty())
      return failure();
    Size maxPosition = cacheDims[0];
    decls += datamovement::indexBuffer(3, idType, "positions");
    spec.bindings.push_back(gpu::Access::Read);
    row = datamovement::readIndex(idType, "positions", offset ? "0u" : "bt",
                                  "p") +
          (offset ? "  p += int(t);\n" : "") +
          fmt::format("  if (!pFits || p < 0 || p >= {}) {{\n"
                      "    {}\n"
                      "    return;\n"
                      "  }}\n",
                      maxPosition.isStatic()
                          ? std::to_string(maxPosition.constant)
                          : "int(" + sizes.get(maxPosition) + ")",
                      glsl::store(et, "y", "o", glsl::literal(et, 0))) +
          "  uint row1 = uint(p), row2 = row1;\n";
  } else {
    // cos and sin [b, s, half], or what an Expand read in place broadcasts
    // to that: rows at strides that are 0 along a dimension of 1.
    for (unsigned i : {1u, 2u}) {
      Value cache = op->getOperand(i);
      Operation *def = cache.getDefiningOp();
      SmallVector<Size> cacheDims =
          ctx.getDims(isExpandReadByRotary(def) ? def->getOperand(0) : cache);
      if (cacheDims.size() != 3)
        return failure();
      Size batch = dims[0], cacheBatch = cacheDims[0], cacheSeq = cacheDims[1];
      auto broadcasts = [](Size from, Size to) {
        return !from.isStatic() || !to.isStatic() || from.constant == 1 ||
               from.constant == to.constant;
      };
      if (!broadcasts(cacheBatch, batch) || !broadcasts(cacheSeq, seq))
        return ctx.emitError()
               << "cos/sin of " << cacheBatch.constant << "x"
               << cacheSeq.constant << " rows do not broadcast to the input's "
               << batch.constant << "x" << seq.constant;
      ctx.broadcast(cacheBatch, batch,
                    "cos/sin batch {0} does not broadcast to {1}");
      ctx.broadcast(cacheSeq, seq,
                    "cos/sin length {0} does not broadcast to {1}");
      Size strideB = ctx.mul(ctx.broadcastFactor(cacheBatch), cacheSeq);
      Size strideT = ctx.broadcastFactor(cacheSeq);
      std::string strideBText = sizes.get(strideB);
      std::string strideTText = sizes.get(strideT);
      row += fmt::format("  uint row{} = b * {} + t * {};\n", i, strideBText,
                         strideTText);
    }
  }
  decls += glsl::buffer(numBindings - 1, gpu::Access::Write, et, "y");
  spec.bindings.push_back(gpu::Access::Write);

  // Where element i sits: head h at position t of batch b, element d.
  std::string locate =
      is4d ? fmt::format("  uint t = (i / {0}) % {1};\n"
                         "  uint b = i / ({0} * {1} * {2});\n",
                         uintLiteral(headSize), seqSize, uintLiteral(heads))
           : fmt::format("  uint t = (i / ({0} * {1})) % {2};\n"
                         "  uint b = i / ({0} * {1} * {2});\n",
                         uintLiteral(headSize), uintLiteral(heads), seqSize);
  // The head's first element in x: where y has it, or for a transposed
  // input at [b, t, h] of [b, s, H, d].
  std::string base =
      transposed
          ? fmt::format("  uint h = (i / ({0} * {1})) % {2};\n"
                        "  uint base = ((b * {1} + t) * {2} + h) * {0};\n",
                        uintLiteral(headSize), seqSize, uintLiteral(heads))
          : "  uint base = i - d;\n";
  // Where y has element i: at i, or in the cache's state.
  if (cache)
    base +=
        is4d ? fmt::format("  uint o = {};\n",
                           cache->index(sizes, "b * " + seqSize + " + t",
                                        "(i / (" + uintLiteral(headSize) +
                                            " * " + seqSize + ")) % " +
                                            uintLiteral(heads) + " * " +
                                            uintLiteral(headSize) + " + d"))
             : fmt::format(
                   "  uint o = {};\n",
                   cache->index(sizes, "i / " + uintLiteral(cache->rowElements),
                                "i % " + uintLiteral(cache->rowElements)));
  else
    base += "  uint o = i;\n";
  std::string pair = interleaved
                         ? "  uint k = d / 2u;\n"
                           "  bool first = d % 2u == 0u;\n"
                           "  uint ia = base + 2u * k, ib = ia + 1u;\n"
                         : fmt::format("  uint k = d % {0};\n"
                                       "  bool first = d < {0};\n"
                                       "  uint ia = base + k, ib = ia + {0};\n",
                                       uintLiteral(half));
  std::string body =
      "void main() {\n"
      "  uint i = gl_GlobalInvocationID.x;\n" +
      fmt::format("  if (i >= {}) return;\n", totalSize) +
      fmt::format("  uint d = i % {};\n", uintLiteral(headSize)) + locate +
      base +
      fmt::format("  if (d >= {}) {{\n    {}\n    return;\n  }}\n",
                  uintLiteral(rotaryDim),
                  glsl::store(et, "y", "o", glsl::load(et, "x", "base + d"))) +
      fmt::format("  uint bt = b * {} + t;\n", seqSize) + row + pair +
      fmt::format("  {0} a = {1};\n"
                  "  {0} bv = {2};\n"
                  "  {0} c = {3};\n"
                  "  {0} s = {4};\n",
                  ct, glsl::load(et, "x", "ia"), glsl::load(et, "x", "ib"),
                  glsl::load(et, "cosCache",
                             fmt::format("row1 * {} + k", uintLiteral(half))),
                  glsl::load(et, "sinCache",
                             fmt::format("row2 * {} + k", uintLiteral(half)))) +
      "  " +
      glsl::store(et, "y", "o", "first ? a * c - bv * s : bv * c + a * s") +
      "\n}\n";
  spec.glsl =
      glsl::header(spec.workgroupSize) + sizes.declaration() + decls + body;
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  if (total.isStatic())
    ctx.dispatch(
        kernel,
        {uint32_t(glsl::ceilDiv(total.constant, spec.workgroupSize[0])), 1, 1},
        views);
  else
    ctx.dispatch(kernel,
                 {ctx.ceilDiv(total, int64_t(spec.workgroupSize[0])), 1, 1},
                 views, push);
  return success();
}

static const KernelGenerator rotaryGenerators[] = {
    {"onnx.RotaryEmbedding", lowerRotary, /*dynamicDims=*/true},
    {"onnx.com.microsoft.RotaryEmbedding", lowerRotary, /*dynamicDims=*/true},
};

ArrayRef<KernelGenerator> getRotaryGenerators() { return rotaryGenerators; }

} // namespace onyx::lowering

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

static std::string (&u)(int64_t) = glsl::uintLiteral;

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

namespace {

/// Operand numbers of x, cos, sin and position_ids.
struct RotaryOperands {
  unsigned x = 0, cos = 1, sin = 2, positions = 3;
  explicit RotaryOperands(Operation *op) {
    // ONNX Runtime's op orders them input, position_ids, cos, sin.
    if (op->getName().getStringRef() == "onnx.com.microsoft.RotaryEmbedding") {
      cos = 2;
      sin = 3;
      positions = 1;
    }
  }
};

/// One tensor a rotary dispatch rotates: an op's input and its result.
struct RotaryPart {
  Operation *op = nullptr;
  SmallVector<Size> dims;
  bool is4d = false;
  /// A heads Transpose of the input read in place: x is [b, s, H, d].
  bool transposed = false;
  Size seq, heads, total;
  int64_t headSize = 0;
  /// Keys rotated for a decoder's cache go straight into it.
  std::optional<CacheRowsStore> cache;
  Value x, y;
};

/// The part of `op`: its sizes checked, its result's memory allocated (or
/// the cache's, for rotated keys only a cache append reads).
FailureOr<RotaryPart> describePart(Operation *op, LoweringContext &ctx) {
  RotaryOperands at(op);
  RotaryPart part;
  part.op = op;
  auto type = cast<RankedTensorType>(op->getOperand(at.x).getType());
  part.dims = ctx.getDims(op->getOperand(at.x));
  if (part.dims.size() != size_t(type.getRank()))
    return failure();
  part.is4d = part.dims.size() == 4;
  part.transposed = part.is4d && isHeadsTransposeReadByRotary(
                                     op->getOperand(at.x).getDefiningOp());
  onnx::OpAttrs attrs(op);
  // Batch and seq may be known only at run time; the head size picks the
  // pairs and must be known.
  part.seq = part.dims[part.is4d ? 2 : 1];
  part.heads = part.is4d ? part.dims[1] : Size(attrs.getInt("num_heads"));
  Size hidden = part.dims[part.is4d ? 3 : 2];
  auto cacheType = cast<RankedTensorType>(op->getOperand(at.cos).getType());
  // ONNX Runtime's op without num_heads: the caches give the head size.
  if (at.cos == 2 && !part.is4d && part.heads.constant == 0 &&
      hidden.isStatic() && !ShapedType::isDynamic(cacheType.getShape()[1]) &&
      cacheType.getShape()[1] > 0)
    part.heads = Size(hidden.constant / (2 * cacheType.getShape()[1]));
  // A 4-D input's heads may be known only at run time (a Reshape of a `?`
  // into heads of a static size); a 3-D input's heads divide its hidden
  // size.
  if (!hidden.isStatic())
    return ctx.emitError()
           << "needs the head size known when it is compiled (the last "
              "dimension of its input is `?`; bind it with --bind-dims)";
  if (!part.is4d && (!part.heads.isStatic() || part.heads.constant == 0))
    return ctx.emitError() << "needs the number of heads of its 3-D input "
                              "known when it is compiled (num_heads)";
  part.headSize =
      part.is4d ? hidden.constant : hidden.constant / part.heads.constant;
  part.x = ctx.getView(op->getOperand(at.x));
  if (!part.x)
    return failure();
  part.cache = storeIntoCache(ctx, op->getResult(0), part.dims);
  part.y = part.cache ? part.cache->state : ctx.allocate(type, part.dims);
  if (!part.cache)
    ctx.setResult(op->getResult(0), part.y);
  part.total = getNumElements(ctx, part.dims);
  return part;
}

/// A RotaryEmbedding after `op` in its block that rotates by the same
/// angles (the same cos, sin and positions, the same attributes) an input
/// already computed: a layer's keys beside its queries (of as many heads or
/// fewer), which one dispatch rotates together. Null if there is none.
Operation *findRotaryPair(Operation *op, LoweringContext &ctx) {
  RotaryOperands at(op);
  // A layer's queries and keys are a few ops apart.
  unsigned budget = 64;
  Block *block = op->getBlock();
  for (auto it = std::next(Block::iterator(op)); it != block->end() && budget;
       ++it, --budget) {
    Operation *next = &*it;
    if (next->getName() != op->getName() ||
        next->getNumOperands() != op->getNumOperands() ||
        next->getAttrDictionary() != op->getAttrDictionary() ||
        ctx.lookupResult(next->getResult(0)))
      continue;
    // The kernel reads an Expand's input in place (isExpandReadByRotary):
    // two Expands of one cos cache are the same angles.
    auto source = [](Value angles) {
      Operation *def = angles.getDefiningOp();
      return isExpandReadByRotary(def) ? def->getOperand(0) : angles;
    };
    bool sameAngles = true;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      if (i != at.x && source(next->getOperand(i)) != source(op->getOperand(i)))
        sameAngles = false;
    Value x = next->getOperand(at.x);
    Operation *def = x.getDefiningOp();
    if (sameAngles && (!def || (def->getBlock() == op->getBlock() &&
                                def->isBeforeInBlock(op))))
      return next;
  }
  return nullptr;
}

} // namespace

static LogicalResult lowerRotary(Operation *op, LoweringContext &ctx) {
  // Rotated already, with the op before it whose angles it shares.
  if (ctx.lookupResult(op->getResult(0)))
    return success();
  RotaryOperands at(op);
  auto type = cast<RankedTensorType>(op->getOperand(at.x).getType());
  Type et = type.getElementType();
  if (reportUnsupported(ctx, et))
    return failure();
  onnx::OpAttrs attrs(op);
  bool interleaved = attrs.getInt("interleaved") != 0;
  bool hasPositions = op->getNumOperands() > at.positions &&
                      !onnx::isNoValue(op->getOperand(at.positions));
  auto positionsType =
      hasPositions
          ? cast<RankedTensorType>(op->getOperand(at.positions).getType())
          : RankedTensorType();
  bool offset = hasPositions && positionsType.getRank() == 1;

  SmallVector<RotaryPart, 2> parts;
  for (Operation *partOp : {op, findRotaryPair(op, ctx)}) {
    if (!partOp)
      continue;
    FailureOr<RotaryPart> part = describePart(partOp, ctx);
    if (failed(part))
      return failure();
    // The pair's input and result with the op's (their head sizes pick the
    // same pairs only if they are equal).
    if (!parts.empty() && part->headSize != parts[0].headSize)
      return ctx.emitError() << "rotates heads of " << parts[0].headSize
                             << " and " << part->headSize << " elements";
    parts.push_back(std::move(*part));
  }
  int64_t headSize = parts[0].headSize;
  int64_t rotaryDim = attrs.getInt("rotary_embedding_dim");
  if (!rotaryDim)
    rotaryDim = headSize;
  int64_t half = rotaryDim / 2;
  unsigned numBindings = 2 + hasPositions + 2 * parts.size();
  if (failed(ctx.checkStorageBuffers(numBindings)))
    return failure();
  Size total = parts[0].total;
  for (const RotaryPart &part : ArrayRef(parts).drop_front())
    total = ctx.arith("gpu.addi", total, part.total);
  if (total.isZero())
    return success();
  SmallVector<Value> views;
  SmallVector<unsigned> operands = {at.cos, at.sin};
  if (hasPositions)
    operands.push_back(at.positions);
  for (unsigned i : operands) {
    views.push_back(ctx.getView(op->getOperand(i)));
    if (!views.back())
      return failure();
  }

  KernelSizes sizes(ctx);
  auto uintLiteral = [&](Size size) { return sizes.get(size); };
  // The dynamic sizes, first, in a fixed order (their push-constant slots).
  std::string totalSize = sizes.get(total);
  std::string ct = glsl::computeType(et);
  KernelSpec spec;
  spec.name = "rotary_embedding";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Read};
  std::string decls = glsl::buffer(0, gpu::Access::Read, et, "cosCache") +
                      glsl::buffer(1, gpu::Access::Read, et, "sinCache");
  unsigned binding = 2;
  if (hasPositions) {
    decls += datamovement::indexBuffer(
        binding++, positionsType.getElementType(), "positions");
    spec.bindings.push_back(gpu::Access::Read);
  }
  for (auto [n, part] : llvm::enumerate(parts)) {
    decls +=
        glsl::buffer(binding++, gpu::Access::Read, et, fmt::format("x{}", n));
    decls +=
        glsl::buffer(binding++, gpu::Access::Write, et, fmt::format("y{}", n));
    spec.bindings.append({gpu::Access::Read, gpu::Access::Write});
    views.append({part.x, part.y});
  }

  // The statements that rotate element i of part n (of x{n} into y{n}).
  auto rotate = [&](const RotaryPart &part,
                    unsigned n) -> FailureOr<std::string> {
    std::string x = fmt::format("x{}", n), y = fmt::format("y{}", n);
    std::string seqSize = sizes.get(part.seq);
    std::string row;
    if (hasPositions) {
      Type idType = positionsType.getElementType();
      SmallVector<Size> cacheDims = ctx.getDims(op->getOperand(at.cos));
      if (cacheDims.empty())
        return failure();
      Size maxPosition = cacheDims[0];
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
                        glsl::store(et, y, "o", glsl::literal(et, 0))) +
            "  uint row1 = uint(p), row2 = row1;\n";
    } else {
      // cos and sin [b, s, half], or what an Expand read in place
      // broadcasts to that: rows at strides that are 0 along a dimension
      // of 1.
      for (unsigned i : {at.cos, at.sin}) {
        Value cache = op->getOperand(i);
        Operation *def = cache.getDefiningOp();
        SmallVector<Size> cacheDims =
            ctx.getDims(isExpandReadByRotary(def) ? def->getOperand(0) : cache);
        if (cacheDims.size() != 3)
          return failure();
        Size batch = part.dims[0], cacheBatch = cacheDims[0],
             cacheSeq = cacheDims[1];
        auto broadcasts = [](Size from, Size to) {
          return !from.isStatic() || !to.isStatic() || from.constant == 1 ||
                 from.constant == to.constant;
        };
        if (!broadcasts(cacheBatch, batch) || !broadcasts(cacheSeq, part.seq))
          return ctx.emitError() << "cos/sin of " << cacheBatch.constant << "x"
                                 << cacheSeq.constant
                                 << " rows do not broadcast to the input's "
                                 << batch.constant << "x" << part.seq.constant;
        ctx.broadcast(cacheBatch, batch,
                      "cos/sin batch {0} does not broadcast to {1}");
        ctx.broadcast(cacheSeq, part.seq,
                      "cos/sin length {0} does not broadcast to {1}");
        Size strideB = ctx.mul(ctx.broadcastFactor(cacheBatch), cacheSeq);
        Size strideT = ctx.broadcastFactor(cacheSeq);
        // One request per statement: push-constant slots in a fixed order.
        std::string strideBText = sizes.get(strideB);
        std::string strideTText = sizes.get(strideT);
        row += fmt::format("  uint row{} = b * {} + t * {};\n",
                           i == at.cos ? 1 : 2, strideBText, strideTText);
      }
    }
    // Where element i sits: head h at position t of batch b, element d.
    std::string locate =
        part.is4d ? fmt::format("  uint t = (i / {0}) % {1};\n"
                                "  uint b = i / ({0} * {1} * {2});\n",
                                u(headSize), seqSize, uintLiteral(part.heads))
                  : fmt::format("  uint t = (i / ({0} * {1})) % {2};\n"
                                "  uint b = i / ({0} * {1} * {2});\n",
                                u(headSize), uintLiteral(part.heads), seqSize);
    // The head's first element in x: where y has it, or for a transposed
    // input at [b, t, h] of [b, s, H, d].
    std::string base =
        part.transposed
            ? fmt::format("  uint h = (i / ({0} * {1})) % {2};\n"
                          "  uint base = ((b * {1} + t) * {2} + h) * {0};\n",
                          u(headSize), seqSize, uintLiteral(part.heads))
            : "  uint base = i - d;\n";
    // Where y has element i: at i, or in the cache's state.
    std::string out = "i";
    if (part.cache && part.is4d)
      out = part.cache->index(sizes, "b * " + seqSize + " + t",
                              fmt::format("(i / ({0} * {1})) % {2} * {0} + d",
                                          u(headSize), seqSize,
                                          uintLiteral(part.heads)));
    else if (part.cache)
      out = part.cache->index(sizes, "i / " + u(part.cache->rowElements),
                              "i % " + u(part.cache->rowElements));
    std::string pair =
        interleaved ? "  uint k = d / 2u;\n"
                      "  bool first = d % 2u == 0u;\n"
                      "  uint ia = base + 2u * k, ib = ia + 1u;\n"
                    : fmt::format("  uint k = d % {0};\n"
                                  "  bool first = d < {0};\n"
                                  "  uint ia = base + k, ib = ia + {0};\n",
                                  u(half));
    return fmt::format("  uint d = i % {};\n", u(headSize)) + locate + base +
           "  uint o = " + out + ";\n" +
           fmt::format("  if (d >= {}) {{\n    {}\n    return;\n  }}\n",
                       u(rotaryDim),
                       glsl::store(et, y, "o", glsl::load(et, x, "base + d"))) +
           fmt::format("  uint bt = b * {} + t;\n", seqSize) + row + pair +
           fmt::format("  {0} a = {1};\n"
                       "  {0} bv = {2};\n"
                       "  {0} c = {3};\n"
                       "  {0} s = {4};\n",
                       ct, glsl::load(et, x, "ia"), glsl::load(et, x, "ib"),
                       glsl::load(et, "cosCache",
                                  fmt::format("row1 * {} + k", u(half))),
                       glsl::load(et, "sinCache",
                                  fmt::format("row2 * {} + k", u(half)))) +
           "  " +
           glsl::store(et, y, "o", "first ? a * c - bv * s : bv * c + a * s") +
           "\n";
  };
  // Invocations [0, total0) rotate the first part, the next ones the second.
  std::string body = "void main() {\n"
                     "  uint i = gl_GlobalInvocationID.x;\n" +
                     fmt::format("  if (i >= {}) return;\n", totalSize);
  for (auto [n, part] : llvm::enumerate(parts)) {
    FailureOr<std::string> statements = rotate(part, n);
    if (failed(statements))
      return failure();
    if (n + 1 < parts.size())
      body += fmt::format("  if (i < {}) {{\n{}  return;\n  }}\n  i -= {};\n",
                          sizes.get(part.total), *statements,
                          sizes.get(part.total));
    else
      body += *statements;
  }
  body += "}\n";
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

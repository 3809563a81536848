//===- Rotary.cpp - RotaryEmbedding ---------------------------------------===//
//
// RotaryEmbedding (opset 23) rotates pairs of each head's first
// rotary_embedding_dim (rd, default all) elements by per-position angles:
// X is [batch, heads, seq, head_size], or [batch, seq, heads * head_size]
// with num_heads; cos_cache and sin_cache hold cos and sin of the angles,
// [batch, seq, rd / 2], or [max_position, rd / 2] indexed by position_ids
// [batch, seq]. Pair i is (x[i], x[i + rd/2]) (rotate-half form), or
// (x[2i], x[2i + 1]) when interleaved; each becomes
// (a cos - b sin, b cos + a sin). Elements past rd are copied.
//
// PyTorch exports the rotate-half form of Llama and its kin as
//   y = x * cos + Concat(-x[..., h:], x[..., :h]) * sin,   h = D / 2,
// with cos = Cos(Concat(f, f)) over the last axis (f the angles, [batch,
// seq, h]), unsqueezed at the heads axis before or after the Cos, and sin
// likewise. Since cos repeats its halves, that is RotaryEmbedding(x,
// Cos(f), Sin(f)); the pattern, rooted on the Add, checks that structure
// and that the Slice, Neg, Concat and Mul results have no other use.
// With `?` batch or seq dims the Muls may broadcast a cache of batch or seq
// 1 at run time, which RotaryEmbedding does not: the caches are then
// expanded to x's [batch, seq] (from Shape(x)), a small copy of
// [batch, seq, D / 2]. Only the head size must be known.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/ElementwisePatterns.h"
#include "dialect/onnx/OpDef.h"
#include "dialect/onnx/OpSchema.h"
#include "dialect/onnx/Tensor.h"

#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

const ValueSpec rotaryOperands[] = {
    {"X"}, {"cos_cache"}, {"sin_cache"}, {"position_ids", Presence::Optional}};
const ValueSpec rotaryResults[] = {{"Y"}};
const AttrSpec rotaryAttrs[] = {intAttr("interleaved", 0),
                                intAttr("num_heads", 0),
                                intAttr("rotary_embedding_dim", 0)};

bool sameOrDynamic(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

LogicalResult inferRotary(InferState &s) {
  if (failed(s.checkFloat(0)) || failed(s.checkRankIn(0, {3, 4})))
    return failure();
  int64_t rank = s.getRank(0);
  ArrayRef<int64_t> shape = s.getShape(0);
  int64_t numHeads = s.getAttrs().getInt("num_heads");
  int64_t headSize = shape[3 % rank];
  if (rank == 3) {
    if (numHeads <= 0)
      return s.emitAttrError("num_heads")
             << "must be positive when X has rank 3";
    if (!ShapedType::isDynamic(shape[2]) && shape[2] % numHeads != 0)
      return s.emitAttrError("num_heads")
             << numHeads << " does not divide the hidden size " << shape[2];
    headSize = ShapedType::isDynamic(shape[2]) ? ShapedType::kDynamic
                                               : shape[2] / numHeads;
  }
  int64_t rotaryDim = s.getAttrs().getInt("rotary_embedding_dim");
  if (rotaryDim < 0 || rotaryDim % 2 != 0 ||
      (rotaryDim && !ShapedType::isDynamic(headSize) && rotaryDim > headSize))
    return s.emitAttrError("rotary_embedding_dim")
           << "must be even and at most the head size, got " << rotaryDim;
  if (!rotaryDim && !ShapedType::isDynamic(headSize) && headSize % 2 != 0)
    return s.emitOperandError(0) << "has an odd head size " << headSize;
  int64_t half = rotaryDim                         ? rotaryDim / 2
                 : ShapedType::isDynamic(headSize) ? ShapedType::kDynamic
                                                   : headSize / 2;
  int64_t batch = shape[0], seq = shape[rank == 4 ? 2 : 1];
  bool positions = s.hasOperand(3);
  if (positions) {
    if (failed(s.checkInteger(3)) || failed(s.checkRank(3, 2)))
      return failure();
    ArrayRef<int64_t> ids = s.getShape(3);
    if (!sameOrDynamic(ids[0], batch) || !sameOrDynamic(ids[1], seq))
      return s.emitOperandError(3)
             << "must be [batch, seq] of X, got " << s.getType(3);
  }
  for (unsigned i = 1; i < 3; ++i) {
    if (failed(s.checkSameElementType(0, i)) ||
        failed(s.checkRank(i, positions ? 2 : 3)))
      return failure();
    ArrayRef<int64_t> cache = s.getShape(i);
    bool fits = positions ? sameOrDynamic(cache[1], half)
                          : sameOrDynamic(cache[0], batch) &&
                                sameOrDynamic(cache[1], seq) &&
                                sameOrDynamic(cache[2], half);
    if (!fits)
      return s.emitOperandError(i)
             << "of type " << s.getType(i) << " does not fit " << s.getType(0)
             << (positions ? " ([max_position, rotary_dim / 2])"
                           : " ([batch, seq, rotary_dim / 2])");
  }
  s.addResult(s.getType(0));
  return success();
}

/// How a rotary op's operands and attributes describe the rotation.
struct RotaryLayout {
  unsigned x, cos, sin;
  /// The position_ids operand, or -1.
  int positions;
  int64_t heads, headSize, rotaryDim;
};

/// Rotates x (operand `l.x`) by the angles whose cos and sin the caches
/// hold: per (batch, seq) row of the caches without positions, or the cache
/// row of each position otherwise. A position_ids of one element is an
/// offset: token t of every batch is at that plus t (com.microsoft's form).
LogicalResult rotate(EvalState &s, const RotaryLayout &l) {
  const Tensor &xT = s.input(l.x);
  ArrayRef<int64_t> shape = xT.getShape();
  bool is4d = shape.size() == 4;
  int64_t batch = shape[0], seq = shape[is4d ? 2 : 1];
  int64_t heads = l.heads, headSize = l.headSize;
  int64_t half = l.rotaryDim / 2;
  bool interleaved = s.getAttrs().getInt("interleaved") != 0;
  Tensor x = convertTensor(xT, ElementType::F64);
  Tensor cos = convertTensor(s.input(l.cos), ElementType::F64);
  Tensor sin = convertTensor(s.input(l.sin), ElementType::F64);
  if (cos.getShape().back() != half || sin.getShape() != cos.getShape())
    return s.emitError() << "the caches must have rotary_dim / 2 = " << half
                         << " columns";
  SmallVector<int64_t> positions;
  if (l.positions >= 0 && s.hasInput(l.positions)) {
    positions = s.input(l.positions).toInts();
    if (positions.size() == 1) {
      int64_t offset = positions[0];
      positions.clear();
      for (int64_t b = 0; b < batch; ++b)
        for (int64_t t = 0; t < seq; ++t)
          positions.push_back(offset + t);
    }
    if (int64_t(positions.size()) != batch * seq)
      return s.emitError() << "position_ids must have [batch, seq] = [" << batch
                           << ", " << seq << "] elements";
  }
  int64_t maxPosition = cos.getShape()[0];
  Tensor out = x;
  ArrayRef<double> xv = x.getValues<double>();
  MutableArrayRef<double> ov = out.getMutableValues<double>();
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t t = 0; t < seq; ++t) {
      int64_t row = b * seq + t;
      if (!positions.empty()) {
        row = positions[b * seq + t];
        if (row < 0 || row >= maxPosition)
          return s.emitError()
                 << "position id " << row << " is out of range for a cache of "
                 << maxPosition << " positions";
      }
      ArrayRef<double> c = cos.getValues<double>().slice(row * half, half);
      ArrayRef<double> sn = sin.getValues<double>().slice(row * half, half);
      for (int64_t h = 0; h < heads; ++h) {
        int64_t base = is4d ? ((b * heads + h) * seq + t) * headSize
                            : (b * seq + t) * heads * headSize + h * headSize;
        for (int64_t i = 0; i < half; ++i) {
          int64_t ia = base + (interleaved ? 2 * i : i);
          int64_t ib = base + (interleaved ? 2 * i + 1 : i + half);
          ov[ia] = xv[ia] * c[i] - xv[ib] * sn[i];
          ov[ib] = xv[ib] * c[i] + xv[ia] * sn[i];
        }
      }
    }
  }
  s.addOutput(convertTensor(out, xT.getElementType()));
  return success();
}

LogicalResult evalRotary(EvalState &s) {
  ArrayRef<int64_t> shape = s.input(0).getShape();
  bool is4d = shape.size() == 4;
  const OpAttrs &attrs = s.getAttrs();
  RotaryLayout l{0, 1, 2, 3, 0, 0, attrs.getInt("rotary_embedding_dim")};
  l.heads = is4d ? shape[1] : attrs.getInt("num_heads");
  l.headSize = is4d ? shape[3] : shape[2] / l.heads;
  if (!l.rotaryDim)
    l.rotaryDim = l.headSize;
  return rotate(s, l);
}

//===----------------------------------------------------------------------===//
// com.microsoft.RotaryEmbedding
//===----------------------------------------------------------------------===//

// ONNX Runtime's op, which opset 23's follows: the operands in another order
// (input, position_ids, cos_cache, sin_cache), position_ids required and
// either [batch, seq] or one offset, caches always [max_position,
// rotary_dim / 2]. With X of rank 3 and no num_heads, the head size is the
// rotary dim the caches give (2 * their columns).

const ValueSpec msRotaryOperands[] = {
    {"input"}, {"position_ids"}, {"cos_cache"}, {"sin_cache"}};
const AttrSpec msRotaryAttrs[] = {
    intAttr("interleaved", 0), intAttr("is_packed_batching", 0),
    intAttr("num_heads", 0), intAttr("rotary_embedding_dim", 0),
    floatAttr("scale", 1.0)};

/// The head count and head size of a com.microsoft.RotaryEmbedding's input
/// of `shape` (`?` where unknown); fails with an error.
LogicalResult getMsRotaryHeads(InferState &s, ArrayRef<int64_t> shape,
                               ArrayRef<int64_t> cacheShape, int64_t numHeads,
                               int64_t &heads, int64_t &headSize) {
  if (shape.size() == 4) {
    heads = shape[1];
    headSize = shape[3];
    return success();
  }
  int64_t hidden = shape[2];
  if (numHeads > 0) {
    heads = numHeads;
    if (!ShapedType::isDynamic(hidden) && hidden % numHeads != 0)
      return s.emitAttrError("num_heads")
             << numHeads << " does not divide the hidden size " << hidden;
    headSize = ShapedType::isDynamic(hidden) ? hidden : hidden / numHeads;
    return success();
  }
  int64_t columns = cacheShape[1];
  if (ShapedType::isDynamic(columns) || ShapedType::isDynamic(hidden)) {
    heads = headSize = ShapedType::kDynamic;
    return success();
  }
  headSize = 2 * columns;
  if (headSize == 0 || hidden % headSize != 0)
    return s.emitOperandError(2)
           << "gives a head size of " << headSize
           << " that does not divide the hidden size " << hidden
           << " (without num_heads the head size is twice the cache columns)";
  heads = hidden / headSize;
  return success();
}

LogicalResult inferMsRotary(InferState &s) {
  const OpAttrs &attrs = s.getAttrs();
  if (attrs.getInt("is_packed_batching") != 0)
    return s.emitAttrError("is_packed_batching")
           << "must be 0: packed (ragged) batches are not supported";
  if (attrs.getFloat("scale") != 1.0)
    return s.emitAttrError("scale")
           << "must be 1: ONNX Runtime does not define another";
  if (failed(s.checkFloat(0)) || failed(s.checkRankIn(0, {3, 4})))
    return failure();
  int64_t rank = s.getRank(0);
  if (failed(s.checkInteger(1)))
    return failure();
  for (unsigned i = 2; i < 4; ++i)
    if (failed(s.checkSameElementType(0, i)) || failed(s.checkRank(i, 2)))
      return failure();
  ArrayRef<int64_t> shape = s.getShape(0);
  int64_t numHeads = attrs.getInt("num_heads");
  int64_t rotaryDim = attrs.getInt("rotary_embedding_dim");
  if (rank == 3 && rotaryDim > 0 && numHeads <= 0)
    return s.emitAttrError("num_heads")
           << "must be given with rotary_embedding_dim for an input of rank "
              "3";
  int64_t heads, headSize;
  if (failed(
          getMsRotaryHeads(s, shape, s.getShape(2), numHeads, heads, headSize)))
    return failure();
  if (rotaryDim < 0 || rotaryDim % 2 != 0 ||
      (rotaryDim && !ShapedType::isDynamic(headSize) && rotaryDim > headSize))
    return s.emitAttrError("rotary_embedding_dim")
           << "must be even and at most the head size, got " << rotaryDim;
  int64_t half = rotaryDim                         ? rotaryDim / 2
                 : ShapedType::isDynamic(headSize) ? ShapedType::kDynamic
                                                   : headSize / 2;
  if (!rotaryDim && !ShapedType::isDynamic(headSize) && headSize % 2 != 0)
    return s.emitOperandError(0) << "has an odd head size " << headSize;
  for (unsigned i = 2; i < 4; ++i)
    if (!sameOrDynamic(s.getShape(i)[1], half))
      return s.emitOperandError(i)
             << "of type " << s.getType(i) << " does not fit " << s.getType(0)
             << " ([max_position, rotary_dim / 2])";
  int64_t batch = shape[0], seq = shape[rank == 4 ? 2 : 1];
  ArrayRef<int64_t> ids = s.getShape(1);
  bool idsFit = ids.size() == 1 ? sameOrDynamic(ids[0], 1)
                : ids.size() == 2
                    ? sameOrDynamic(ids[0], batch) && sameOrDynamic(ids[1], seq)
                    : false;
  if (!idsFit)
    return s.emitOperandError(1)
           << "must be [batch, seq] of the input or [1] (an offset), got "
           << s.getType(1);
  s.addResult(s.getType(0));
  return success();
}

LogicalResult evalMsRotary(EvalState &s) {
  ArrayRef<int64_t> shape = s.input(0).getShape();
  const OpAttrs &attrs = s.getAttrs();
  RotaryLayout l{0, 2, 3, 1, 0, 0, attrs.getInt("rotary_embedding_dim")};
  int64_t numHeads = attrs.getInt("num_heads");
  if (shape.size() == 4) {
    l.heads = shape[1];
    l.headSize = shape[3];
  } else {
    l.headSize =
        numHeads > 0 ? shape[2] / numHeads : 2 * s.input(2).getShape()[1];
    l.heads = numHeads > 0 ? numHeads : l.headSize ? shape[2] / l.headSize : 0;
    if (l.heads * l.headSize != shape[2])
      return s.emitError() << "the hidden size " << shape[2]
                           << " is not a whole number of heads";
  }
  if (!l.rotaryDim)
    l.rotaryDim = l.headSize;
  return rotate(s, l);
}

const OpDef rotaryDefs[] = {
    {{"onnx.RotaryEmbedding", rotaryOperands, rotaryResults, rotaryAttrs,
      OpTrait::Pure},
     inferRotary,
     evalRotary},
    {{"onnx.com.microsoft.RotaryEmbedding", msRotaryOperands, rotaryResults,
      msRotaryAttrs, OpTrait::Pure},
     inferMsRotary,
     evalMsRotary},
};

//===----------------------------------------------------------------------===//
// The rotate-half pattern
//===----------------------------------------------------------------------===//

/// Whether `slice` takes [begin, end) of the last axis of `x` (rank `rank`)
/// with step 1; `end` may be any value at least the axis size.
bool isLastAxisSlice(Operation *slice, Value x, int64_t begin, int64_t end) {
  if (!slice || slice->getOperand(0) != x || slice->getNumOperands() < 4)
    return false;
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank(), size = type.getShape().back();
  std::optional<SmallVector<int64_t>> starts =
      getConstantInts(slice->getOperand(1));
  std::optional<SmallVector<int64_t>> ends =
      getConstantInts(slice->getOperand(2));
  std::optional<SmallVector<int64_t>> axes =
      getConstantInts(slice->getOperand(3));
  std::optional<SmallVector<int64_t>> steps =
      slice->getNumOperands() > 4 && !isNoValue(slice->getOperand(4))
          ? getConstantInts(slice->getOperand(4))
          : std::optional<SmallVector<int64_t>>(SmallVector<int64_t>{1});
  if (!starts || !ends || !axes || !steps || starts->size() != 1 ||
      ends->size() != 1 || axes->size() != 1 || steps->size() != 1)
    return false;
  int64_t axis = (*axes)[0] < 0 ? (*axes)[0] + rank : (*axes)[0];
  int64_t e = (*ends)[0] < 0 ? (*ends)[0] + size : (*ends)[0];
  return axis == rank - 1 && (*steps)[0] == 1 && (*starts)[0] == begin &&
         (e == end || (end == size && e >= size));
}

/// Whether `value` is rotate_half(x): Concat(-x[..., h:], x[..., :h]) on
/// the last axis, every intermediate used once.
bool isRotateHalf(Value value, Value x) {
  Operation *concat = getSingleUseOp(value, "onnx.Concat");
  if (!concat || concat->getNumOperands() != 2)
    return false;
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank(), size = type.getShape().back();
  int64_t axis = OpAttrs(concat).getInt("axis");
  if ((axis < 0 ? axis + rank : axis) != rank - 1 ||
      ShapedType::isDynamic(size) || size % 2 != 0)
    return false;
  Operation *neg = getSingleUseOp(concat->getOperand(0), "onnx.Neg");
  return neg &&
         isLastAxisSlice(getSingleUseOp(neg->getOperand(0), "onnx.Slice"), x,
                         size / 2, size) &&
         isLastAxisSlice(getSingleUseOp(concat->getOperand(1), "onnx.Slice"), x,
                         0, size / 2);
}

/// For `full` = Fn(Concat(f, f)) with the heads axis (1) unsqueezed before
/// or after Fn (`name`, onnx.Cos or onnx.Sin): f, [batch, seq, D / 2].
Value getHalfAngles(Value full, StringRef name) {
  auto isHeadsUnsqueeze = [](Operation *op) {
    if (!op || op->getNumOperands() != 2)
      return false;
    std::optional<SmallVector<int64_t>> axes =
        getConstantInts(op->getOperand(1));
    return axes && axes->size() == 1 && (*axes)[0] == 1;
  };
  Value inner = full;
  Operation *unsqueeze = getDefiningOp(inner, "onnx.Unsqueeze");
  bool unsqueezed = isHeadsUnsqueeze(unsqueeze);
  if (unsqueezed)
    inner = unsqueeze->getOperand(0);
  Operation *fn = getDefiningOp(inner, name);
  if (!fn)
    return nullptr;
  inner = fn->getOperand(0);
  if (!unsqueezed) {
    unsqueeze = getDefiningOp(inner, "onnx.Unsqueeze");
    if (!isHeadsUnsqueeze(unsqueeze))
      return nullptr;
    inner = unsqueeze->getOperand(0);
  }
  Operation *concat = getDefiningOp(inner, "onnx.Concat");
  if (!concat || concat->getNumOperands() != 2 ||
      concat->getOperand(0) != concat->getOperand(1))
    return nullptr;
  auto type = dyn_cast<RankedTensorType>(concat->getOperand(0).getType());
  int64_t axis = OpAttrs(concat).getInt("axis");
  if (!type || type.getRank() != 3 || (axis != -1 && axis != 2))
    return nullptr;
  return concat->getOperand(0);
}

/// How a cache [b, s, D / 2] of Cos(f) or Sin(f) fits x [batch, heads, seq,
/// D] of `xType`.
enum class CacheFit { None, Exact, Broadcast };

CacheFit getCacheFit(Value cache, RankedTensorType xType) {
  auto type = cast<RankedTensorType>(cache.getType());
  ArrayRef<int64_t> shape = xType.getShape();
  if (type.getElementType() != xType.getElementType() || type.getRank() != 3 ||
      type.getShape()[2] != shape[3] / 2)
    return CacheFit::None;
  CacheFit fit = CacheFit::Exact;
  for (auto [c, d] : {std::pair(type.getShape()[0], shape[0]),
                      std::pair(type.getShape()[1], shape[2])}) {
    if (c == d && !ShapedType::isDynamic(c))
      continue;
    // The Muls broadcast a cache dimension of 1, and a `?` may be 1 or
    // x's size at run time: the caches need x's batch and seq then.
    if (c != 1 && !ShapedType::isDynamic(c) && !ShapedType::isDynamic(d))
      return CacheFit::None;
    fit = CacheFit::Broadcast;
  }
  return fit;
}

/// [batch, seq, D / 2] of x, an int64 tensor computed from Shape(x) (folded
/// by canonicalization where the dims are known).
Value getCacheShape(PatternRewriter &rewriter, Location loc, Value x) {
  Context *ctx = rewriter.getContext();
  auto dim = [&](int64_t d) {
    NamedAttribute attrs[] = {
        {StringAttr::get(ctx, "start"), getIntAttr(ctx, d)},
        {StringAttr::get(ctx, "end"), getIntAttr(ctx, d + 1)}};
    return createOpOrNull(rewriter, loc, "onnx.Shape", {x}, attrs, 1)
        ->getResult(0);
  };
  int64_t half = cast<RankedTensorType>(x.getType()).getShape()[3] / 2;
  Value halfValue = createConstant(
      rewriter, loc,
      Tensor::fromInts(ElementType::I64, {1}, {half}).toAttr(ctx));
  NamedAttribute axis[] = {{StringAttr::get(ctx, "axis"), getIntAttr(ctx, 0)}};
  return createOpOrNull(rewriter, loc, "onnx.Concat",
                        {dim(0), dim(2), halfValue}, axis, 1)
      ->getResult(0);
}

LogicalResult formRotary(Operation *add, PatternRewriter &rewriter) {
  // The head size must be known to find the halves; other dims may be `?`.
  auto xType = dyn_cast<RankedTensorType>(add->getResult(0).getType());
  if (!xType || xType.getRank() != 4 ||
      ShapedType::isDynamic(xType.getShape()[3]))
    return failure();
  for (unsigned i = 0; i < 2; ++i) {
    Operation *mulCos = getSingleUseOp(add->getOperand(i), "onnx.Mul");
    Operation *mulSin = getSingleUseOp(add->getOperand(1 - i), "onnx.Mul");
    if (!mulCos || !mulSin)
      continue;
    for (unsigned j = 0; j < 2; ++j) {
      Value x = mulCos->getOperand(j), cosFull = mulCos->getOperand(1 - j);
      if (x.getType() != xType)
        continue;
      for (unsigned k = 0; k < 2; ++k) {
        Value rotated = mulSin->getOperand(k);
        Value sinFull = mulSin->getOperand(1 - k);
        if (!isRotateHalf(rotated, x))
          continue;
        Value cosHalf = getHalfAngles(cosFull, "onnx.Cos");
        Value sinHalf = getHalfAngles(sinFull, "onnx.Sin");
        if (!cosHalf || !sinHalf)
          continue;
        // The caches are [batch, seq, D / 2] of x's element type; where
        // the Muls may broadcast them, they are expanded to that.
        CacheFit cosFit = getCacheFit(cosHalf, xType);
        CacheFit sinFit = getCacheFit(sinHalf, xType);
        if (cosFit == CacheFit::None || sinFit == CacheFit::None)
          continue;
        rewriter.setInsertionPoint(add);
        Location loc = add->getLoc();
        Value cacheShape;
        auto makeCache = [&](StringRef fn, Value half, CacheFit fit) -> Value {
          Value cache =
              createOpOrNull(rewriter, loc, fn, {half}, {}, 1)->getResult(0);
          if (fit == CacheFit::Exact)
            return cache;
          if (!cacheShape)
            cacheShape = getCacheShape(rewriter, loc, x);
          return createOpOrNull(rewriter, loc, "onnx.Expand",
                                {cache, cacheShape}, {}, 1)
              ->getResult(0);
        };
        Value cos = makeCache("onnx.Cos", cosHalf, cosFit);
        Value sin = makeCache("onnx.Sin", sinHalf, sinFit);
        Operation *rotary = createOpOrNull(
            rewriter, loc, "onnx.RotaryEmbedding", {x, cos, sin}, {}, 1);
        assert(rotary && rotary->getResult(0).getType() == xType &&
               "the match checked what RotaryEmbedding infers from");
        rewriter.replaceOp(add, rotary);
        return success();
      }
    }
  }
  return failure();
}

} // namespace

void addRotaryPattern(PatternSet &patterns, StringRef rootName) {
  // Above the Add's local patterns: the subgraph is worth more.
  addPattern(patterns, rootName, formRotary, "form-rotary-embedding",
             /*benefit=*/2);
}

void appendRotaryOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : rotaryDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

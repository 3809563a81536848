//===- Attention.cpp - Attention ------------------------------------------===//
//
// Attention (opset 23) in its 4-D form: Q [batch, q_heads, s, d], K
// [batch, kv_heads, t, d], V [batch, kv_heads, t, dv] give
//   Y = softmax(scale * Q K^T + mask) V,   [batch, q_heads, s, dv]
// with scale 1 / sqrt(d) unless given, the mask broadcastable to [batch,
// q_heads, s, t] (bool: false is -inf; float: added), is_causal masking key
// j > query i (top-left aligned, as without a cache in opset 23), and
// grouped-query attention: query head h reads kv head h / (q_heads /
// kv_heads). The 3-D form, past_key/past_value, softcap, the extra outputs
// and a mask shorter than t (which the spec pads) are rejected with an
// error; softmax_precision is accepted (everything computes in f32 or f64).
//
// PyTorch exports attention decomposed:
//   Y = MatMul(Softmax(Add(Div(MatMul(Q, Transpose(K)), c), mask)), V)
// with the scale a Div or Mul by a constant after the first MatMul, or Muls
// on Q and K^T before it; the mask Add optional, or a masked_fill
// Where(cond, -inf, scores) instead (a bool mask Not(cond)); for grouped-query
// attention K and V repeated per query head as Reshape(Expand(Unsqueeze(kv,
// 2), [b, kv, rep, t, d]), [b, kv * rep, t, d]). The pattern, rooted on the
// last MatMul, forms onnx.Attention from it, the repetition absorbed into
// the kv heads (the kernel reads the shared head). Every intermediate must
// have no other use. K^T may be any Transpose of a tensor that is K with its
// last two axes swapped; the Transpose giving K then is left to the
// Transpose folds. With `?` dims the repetition factor is q_heads / kv_heads
// (the Expand's shape is often not known); the lowering checks at run time
// that K's and V's batch and length agree with Q's and each other.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/ElementwisePatterns.h"
#include "dialect/onnx/OpDef.h"
#include "dialect/onnx/OpSchema.h"
#include "dialect/onnx/Tensor.h"

#include "ir/Operation.h"

#include <cmath>
#include <limits>

namespace onyx::onnx {

namespace {

const ValueSpec attentionOperands[] = {{"Q"},
                                       {"K"},
                                       {"V"},
                                       {"attn_mask", Presence::Optional},
                                       {"past_key", Presence::Optional},
                                       {"past_value", Presence::Optional}};
const ValueSpec attentionResults[] = {{"Y"},
                                      {"present_key", Presence::Optional},
                                      {"present_value", Presence::Optional},
                                      {"qk_matmul_output", Presence::Optional}};
const AttrSpec attentionAttrs[] = {
    intAttr("is_causal", 0),
    intAttr("kv_num_heads", 0),
    intAttr("q_num_heads", 0),
    intAttr("qk_matmul_output_mode", 0),
    optionalAttr("scale", AttrType::Float),
    floatAttr("softcap", 0.0),
    optionalAttr("softmax_precision", AttrType::Int)};

bool sameOrDynamic(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

LogicalResult inferAttention(InferState &s) {
  for (unsigned i = 4; i < 6; ++i)
    if (s.hasOperand(i))
      return s.emitOperandError(i)
             << "is not supported (concatenate the cache before Attention)";
  if (s.getResultCountHint() > 1)
    return s.emitError() << "present_key, present_value and qk_matmul_output "
                            "are not supported";
  const OpAttrs &attrs = s.getAttrs();
  if (attrs.getFloat("softcap") != 0.0)
    return s.emitAttrError("softcap") << "is not supported";
  if (attrs.getInt("qk_matmul_output_mode") != 0)
    return s.emitAttrError("qk_matmul_output_mode") << "is not supported";
  if (failed(s.checkFloat(0)))
    return failure();
  for (unsigned i = 0; i < 3; ++i) {
    if (s.getRank(i) == 3)
      return s.emitOperandError(i)
             << "is 3-D; only the 4-D form [batch, heads, seq, head_size] is "
                "supported";
    if (failed(s.checkRank(i, 4)) ||
        (i && failed(s.checkSameElementType(0, i))))
      return failure();
  }
  ArrayRef<int64_t> q = s.getShape(0), k = s.getShape(1), v = s.getShape(2);
  if (!sameOrDynamic(q[0], k[0]) || !sameOrDynamic(q[0], v[0]))
    return s.emitError() << "Q, K and V must have the same batch, got "
                         << s.getType(0) << ", " << s.getType(1) << ", "
                         << s.getType(2);
  if (!sameOrDynamic(k[1], v[1]) || !sameOrDynamic(k[2], v[2]))
    return s.emitError() << "K and V must have the same heads and length, got "
                         << s.getType(1) << " and " << s.getType(2);
  if (!sameOrDynamic(q[3], k[3]))
    return s.emitError() << "Q and K must have the same head size, got "
                         << s.getType(0) << " and " << s.getType(1);
  int64_t qHeads = q[1], kvHeads = ShapedType::isDynamic(k[1]) ? v[1] : k[1];
  // The heads must be known: they decide which kv head a query head reads.
  if (ShapedType::isDynamic(qHeads) || ShapedType::isDynamic(kvHeads))
    return s.emitError() << "needs the number of heads of Q and K known, got "
                         << s.getType(0) << " and " << s.getType(1);
  if (kvHeads == 0 || qHeads % kvHeads != 0)
    return s.emitError() << "Q's " << qHeads
                         << " heads are not a multiple of K's " << kvHeads;
  int64_t qAttr = attrs.getInt("q_num_heads"),
          kvAttr = attrs.getInt("kv_num_heads");
  if (qAttr && qAttr != qHeads)
    return s.emitAttrError("q_num_heads")
           << qAttr << " does not match Q's " << qHeads << " heads";
  if (kvAttr && kvAttr != kvHeads)
    return s.emitAttrError("kv_num_heads")
           << kvAttr << " does not match K's " << kvHeads << " heads";
  int64_t batch = ShapedType::isDynamic(q[0]) ? k[0] : q[0];
  int64_t t = ShapedType::isDynamic(k[2]) ? v[2] : k[2];
  if (s.hasOperand(3)) {
    RankedTensorType maskType = s.getType(3);
    if (!maskType.getElementType().isInteger(1) &&
        failed(s.checkSameElementType(0, 3)))
      return failure();
    ArrayRef<int64_t> m = maskType.getShape();
    int64_t full[] = {batch, qHeads, q[2], t};
    bool fits = m.size() >= 2 && m.size() <= 4;
    for (size_t i = 0; fits && i < m.size(); ++i) {
      int64_t want = full[4 - m.size() + i];
      bool last = i + 1 == m.size();
      fits = sameOrDynamic(m[i], want) || (!last && m[i] == 1);
    }
    if (!fits)
      return s.emitOperandError(3)
             << "of type " << maskType << " does not broadcast to [batch, "
             << "q_heads, s, t] of the attention scores (its last dimension "
             << "must be t)";
  }
  s.addResult({batch, qHeads, q[2], v[3]}, s.getElementType(0));
  return success();
}

LogicalResult evalAttention(EvalState &s) {
  const OpAttrs &attrs = s.getAttrs();
  const Tensor &qT = s.input(0);
  ArrayRef<int64_t> qs = qT.getShape(), ks = s.input(1).getShape(),
                    vs = s.input(2).getShape();
  int64_t batch = qs[0], heads = qs[1], seq = qs[2], d = qs[3];
  int64_t kvHeads = ks[1], t = ks[2], dv = vs[3];
  if (ks[0] != batch || vs[0] != batch || vs[1] != kvHeads || vs[2] != t ||
      ks[3] != d)
    return s.emitError() << "Q, K and V do not fit each other";
  int64_t rep = heads / kvHeads;
  double scale =
      attrs.has("scale") ? attrs.getFloat("scale") : 1.0 / std::sqrt(double(d));
  bool causal = attrs.getInt("is_causal") != 0;
  Tensor q = convertTensor(qT, ElementType::F64);
  Tensor k = convertTensor(s.input(1), ElementType::F64);
  Tensor v = convertTensor(s.input(2), ElementType::F64);
  ArrayRef<double> qv = q.getValues<double>(), kv = k.getValues<double>(),
                   vv = v.getValues<double>();
  // The mask as additive values, with strides 0 on broadcast dimensions.
  Tensor mask;
  int64_t maskStrides[4] = {0, 0, 0, 0};
  bool hasMask = s.hasInput(3);
  if (hasMask) {
    const Tensor &m = s.input(3);
    ArrayRef<int64_t> ms = m.getShape();
    if (ms.back() != t)
      return s.emitError() << "the mask's last dimension " << ms.back()
                           << " is not the key length " << t;
    int64_t full[] = {batch, heads, seq, t};
    int64_t stride = 1;
    for (int64_t i = ms.size() - 1; i >= 0; --i) {
      int64_t dim = 4 - ms.size() + i;
      if (ms[i] != 1 && ms[i] != full[dim])
        return s.emitError() << "the mask's dimension " << ms[i]
                             << " does not broadcast to " << full[dim];
      maskStrides[dim] = ms[i] == 1 ? 0 : stride;
      stride *= ms[i];
    }
    mask = convertTensor(m, ElementType::F64);
    if (m.getElementType() == ElementType::Bool)
      for (double &x : mask.getMutableValues<double>())
        x = x != 0 ? 0.0 : -std::numeric_limits<double>::infinity();
  }
  Tensor out(ElementType::F64, {batch, heads, seq, dv});
  MutableArrayRef<double> ov = out.getMutableValues<double>();
  SmallVector<double> scores(t);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t i = 0; i < seq; ++i) {
        const double *qRow = &qv[((b * heads + h) * seq + i) * d];
        int64_t kvBase = (b * kvHeads + h / rep) * t;
        double max = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < t; ++j) {
          const double *kRow = &kv[(kvBase + j) * d];
          double dot = 0;
          for (int64_t c = 0; c < d; ++c)
            dot += qRow[c] * kRow[c];
          double x = dot * scale;
          if (hasMask)
            x += mask.getValues<
                double>()[b * maskStrides[0] + h * maskStrides[1] +
                          i * maskStrides[2] + j * maskStrides[3]];
          if (causal && j > i)
            x = -std::numeric_limits<double>::infinity();
          scores[j] = x;
          max = std::max(max, x);
        }
        double sum = 0;
        for (double &x : scores)
          sum += x = std::exp(x - max);
        double *oRow = &ov[((b * heads + h) * seq + i) * dv];
        for (int64_t c = 0; c < dv; ++c) {
          double acc = 0;
          for (int64_t j = 0; j < t; ++j)
            acc += scores[j] * vv[(kvBase + j) * dv + c];
          oRow[c] = acc / sum;
        }
      }
  s.addOutput(convertTensor(out, qT.getElementType()));
  return success();
}

const OpDef attentionDefs[] = {
    {{"onnx.Attention", attentionOperands, attentionResults, attentionAttrs,
      OpTrait::Pure},
     inferAttention,
     evalAttention},
};

//===----------------------------------------------------------------------===//
// Forming Attention from the decomposed subgraph
//===----------------------------------------------------------------------===//

/// A constant scalar factor: the value of a one-element constant, inverted
/// for a Div.
std::optional<double> getFactor(Operation *op, unsigned constantOperand) {
  std::optional<double> c = getSplatValue(op->getOperand(constantOperand));
  if (!c || *c == 0.0)
    return std::nullopt;
  return isOp(op, "onnx.Div") ? 1.0 / *c : *c;
}

/// Strips a single-use Mul or Div of `value` by a constant scalar of its own
/// type, multiplying `scale` by its factor.
Value stripScale(Value value, double &scale) {
  for (StringRef name : {"onnx.Mul", "onnx.Div"}) {
    Operation *op = getSingleUseOp(value, name);
    if (!op || !haveSameType(op->getResult(0), op->getOperand(0)))
      continue;
    if (std::optional<double> f = getFactor(op, 1)) {
      scale *= *f;
      return op->getOperand(0);
    }
  }
  return value;
}

/// kv [b, kv, t, d] where `value` is the grouped-query repetition of it,
/// Reshape(Expand(Unsqueeze(kv, 2), [b, kv, rep, t, d]), [b, kv * rep, t,
/// d]), every intermediate used once; `value` itself otherwise.
Value stripRepeat(Value value) {
  Operation *reshape = getSingleUseOp(value, "onnx.Reshape");
  Operation *expand =
      reshape ? getSingleUseOp(reshape->getOperand(0), "onnx.Expand") : nullptr;
  Operation *unsqueeze =
      expand ? getSingleUseOp(expand->getOperand(0), "onnx.Unsqueeze")
             : nullptr;
  if (!unsqueeze)
    return value;
  std::optional<SmallVector<int64_t>> axes =
      getConstantInts(unsqueeze->getOperand(1));
  Value kv = unsqueeze->getOperand(0);
  auto kvType = cast<RankedTensorType>(kv.getType());
  auto outType = cast<RankedTensorType>(value.getType());
  auto expType = cast<RankedTensorType>(expand->getResult(0).getType());
  if (!axes || axes->size() != 1 || (*axes)[0] != 2 || kvType.getRank() != 4 ||
      outType.getRank() != 4 || expType.getRank() != 5)
    return value;
  ArrayRef<int64_t> in = kvType.getShape(), ex = expType.getShape(),
                    out = outType.getShape();
  int64_t kvHeads = in[1], heads = out[1];
  if (ShapedType::isDynamic(kvHeads) || ShapedType::isDynamic(heads) ||
      heads % kvHeads != 0 || ex[1] != kvHeads || in[3] != out[3] ||
      ex[4] != in[3] || ShapedType::isDynamic(in[3]))
    return value;
  int64_t rep = heads / kvHeads;
  if (!sameOrDynamic(ex[2], rep))
    return value;
  // The batch and length pass through the Expand and Reshape unchanged.
  for (auto [a, e, o] :
       {std::tuple(in[0], ex[0], out[0]), std::tuple(in[2], ex[3], out[2])})
    if (!sameOrDynamic(a, e) || !sameOrDynamic(a, o) || !sameOrDynamic(e, o))
      return value;
  if (std::optional<KnownInts> shape = getKnownInts(expand->getOperand(1)))
    if (shape->size() == 5 && (*shape)[2] && *(*shape)[2] != rep)
      return value;
  return kv;
}

LogicalResult formAttention(Operation *matmul, PatternRewriter &rewriter) {
  auto yType = dyn_cast<RankedTensorType>(matmul->getResult(0).getType());
  if (!yType || yType.getRank() != 4)
    return failure();
  Operation *softmax = getSingleUseOp(matmul->getOperand(0), "onnx.Softmax");
  if (!softmax)
    return failure();
  int64_t axis = OpAttrs(softmax).getInt("axis");
  if (axis != -1 && axis != 3)
    return failure();
  Value scores = softmax->getOperand(0);
  auto scoresType = cast<RankedTensorType>(scores.getType());
  Value mask;
  if (Operation *add = getSingleUseOp(scores, "onnx.Add")) {
    for (unsigned i = 0; i < 2 && !mask; ++i) {
      Value a = add->getOperand(i);
      if (!haveSameType(a, add->getResult(0)))
        continue;
      if (isOp(a.getDefiningOp(), "onnx.MatMul") ||
          isOp(a.getDefiningOp(), "onnx.Mul") ||
          isOp(a.getDefiningOp(), "onnx.Div")) {
        mask = add->getOperand(1 - i);
        scores = a;
      }
    }
    if (!mask)
      return failure();
  }
  // masked_fill(cond, -inf): Where(cond, -inf, scores) is a bool mask of
  // Not(cond), made once the match is known.
  Value fillCondition;
  if (Operation *where = getSingleUseOp(scores, "onnx.Where")) {
    std::optional<double> fill = getSplatValue(where->getOperand(1));
    if (mask || !fill || *fill != -std::numeric_limits<double>::infinity() ||
        !haveSameType(where->getOperand(2), where->getResult(0)))
      return failure();
    fillCondition = where->getOperand(0);
    scores = where->getOperand(2);
  }
  double scale = 1.0;
  scores = stripScale(scores, scale);
  Operation *qk = getSingleUseOp(scores, "onnx.MatMul");
  if (!qk || !haveSameType(qk->getResult(0), scores) ||
      scoresType.getRank() != 4)
    return failure();
  Value q = stripScale(qk->getOperand(0), scale);
  Value kt = stripScale(qk->getOperand(1), scale);
  auto qType = cast<RankedTensorType>(q.getType());
  auto ktType = cast<RankedTensorType>(kt.getType());
  if (qType.getRank() != 4 || ktType.getRank() != 4 ||
      ShapedType::isDynamic(qType.getShape()[3]))
    return failure();
  rewriter.setInsertionPoint(matmul);
  Location loc = matmul->getLoc();
  Context *ctx = rewriter.getContext();
  // K: the operand of a Transpose swapping K^T's last two axes, or a
  // Transpose of K^T's producer with the composed permutation.
  Value k;
  SmallVector<int64_t> perm = {0, 1, 3, 2};
  Operation *transpose = getSingleUseOp(kt, "onnx.Transpose");
  if (transpose) {
    std::optional<SmallVector<int64_t>> p = OpAttrs(transpose).getInts("perm");
    if (!p || p->size() != 4)
      return failure();
    perm = {(*p)[0], (*p)[1], (*p)[3], (*p)[2]};
    kt = transpose->getOperand(0);
  }
  // Ops made before the match is complete, erased if it fails.
  SmallVector<Operation *> created;
  if (perm == SmallVector<int64_t>{0, 1, 2, 3}) {
    k = stripRepeat(kt);
  } else {
    NamedAttribute permAttr[] = {
        {StringAttr::get(ctx, "perm"), getIntsAttr(ctx, perm)}};
    Operation *t =
        createOpOrNull(rewriter, loc, "onnx.Transpose", {kt}, permAttr, 1);
    if (!t)
      return failure();
    created.push_back(t);
    k = t->getResult(0);
  }
  Value v = stripRepeat(matmul->getOperand(1));
  double defaultScale = 1.0 / std::sqrt(double(qType.getShape()[3]));
  SmallVector<NamedAttribute> attrs;
  // The attribute is an f32: keep the default where it is the default.
  if (float(scale) != float(defaultScale))
    attrs.push_back({StringAttr::get(ctx, "scale"), getFloatAttr(ctx, scale)});
  if (fillCondition) {
    Operation *notOp =
        createOpOrNull(rewriter, loc, "onnx.Not", {fillCondition}, {}, 1);
    if (!notOp) {
      for (Operation *op : created)
        rewriter.eraseOp(op);
      return failure();
    }
    created.push_back(notOp);
    mask = notOp->getResult(0);
  }
  SmallVector<Value> operands = {q, k, v};
  if (mask)
    operands.push_back(mask);
  Operation *attention =
      createOpOrNull(rewriter, loc, "onnx.Attention", operands, attrs, 1);
  if (!attention || attention->getResult(0).getType() != yType) {
    // Nothing of the match is changed: the Transpose made for K goes again.
    if (attention)
      rewriter.eraseOp(attention);
    for (Operation *op : llvm::reverse(created))
      rewriter.eraseOp(op);
    return failure();
  }
  rewriter.replaceOp(matmul, attention);
  return success();
}

} // namespace

void addAttentionPattern(PatternSet &patterns, StringRef rootName) {
  // Above the MatMul's local patterns: the subgraph is worth more.
  addPattern(patterns, rootName, formAttention, "form-attention",
             /*benefit=*/2);
}

void appendAttentionOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : attentionDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

//===- GroupQueryAttention.cpp - com.microsoft.GroupQueryAttention --------===//
//
// ONNX Runtime's decoder attention, the op ONNX Runtime GenAI's models use
// in every layer (docs/CONTRIB-OPS.md has the table we follow):
//
//   query [B, S, H * D] (or Q, K and V packed: [B, S, (H + 2 Hkv) * D]),
//   key, value [B, S, Hkv * D], past_key, past_value [B, Hkv, P, D],
//   seqlens_k [B] (each sequence's total length - 1), total_sequence_length
//   (a scalar, the longest total), cos_cache, sin_cache [max_pos, rd / 2]
//   when do_rotary.
//
// Sequence b has T_b = seqlens_k[b] + 1 tokens after this step, of which
// the S new ones start at position p_b = T_b - S (0 for the first prompt,
// where S = total_sequence_length). With do_rotary, Q and K are rotated at
// their positions (rotate-half, or interleaved pairs). present_key/value
// are [B, Hkv, max(P, total), D]: the past with the new K/V written at
// [p_b, p_b + S). When past and present are one buffer of the maximum
// length (GenAI's past_present_share_buffer), that is an in-place update of
// the cache. Query head h attends, causally, keys 0..p_b + s of kv head
// h / (H / Hkv), scaled by `scale` (1/sqrt(D) when 0), through a softmax.
//
// What the op also defines and onyx refuses, with an error naming the
// attribute or operand: local_window_size, softcap, smooth_softmax,
// non-causal attention, qk_output, the windowed and quantized caches, and
// the inputs after sin_cache (position_ids, attention_bias, head_sink, KV
// scales, Q/K norm weights).
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include <cmath>

namespace onyx::onnx {

namespace {

enum Operand : unsigned {
  kQuery,
  kKey,
  kValue,
  kPastKey,
  kPastValue,
  kSeqlensK,
  kTotalLength,
  kCos,
  kSin,
  kFirstUnsupported,
};

const ValueSpec gqaOperands[] = {{"query"},
                                 {"key", Presence::Optional},
                                 {"value", Presence::Optional},
                                 {"past_key", Presence::Optional},
                                 {"past_value", Presence::Optional},
                                 {"seqlens_k"},
                                 {"total_sequence_length"},
                                 {"cos_cache", Presence::Optional},
                                 {"sin_cache", Presence::Optional},
                                 {"position_ids", Presence::Optional},
                                 {"attention_bias", Presence::Optional},
                                 {"head_sink", Presence::Optional},
                                 {"k_scale", Presence::Optional},
                                 {"v_scale", Presence::Optional},
                                 {"q_norm_weight", Presence::Optional},
                                 {"k_norm_weight", Presence::Optional}};
const ValueSpec gqaResults[] = {{"output"},
                                {"present_key", Presence::Optional},
                                {"present_value", Presence::Optional},
                                {"output_qk", Presence::Optional}};
const StringRef quantTypes[] = {"NONE", "PER_TENSOR", "PER_CHANNEL"};
const AttrSpec gqaAttrs[] = {requiredAttr("num_heads", AttrType::Int),
                             requiredAttr("kv_num_heads", AttrType::Int),
                             floatAttr("scale", 0),
                             floatAttr("softcap", 0),
                             intAttr("local_window_size", -1),
                             intAttr("do_rotary", 0),
                             intAttr("rotary_interleaved", 0),
                             intAttr("causal", 1),
                             intAttr("smooth_softmax", 0),
                             intAttr("qk_output", 0),
                             intAttr("sliding_window_cache", 0),
                             stringAttr("k_quant_type", "NONE", quantTypes),
                             stringAttr("v_quant_type", "NONE", quantTypes),
                             intAttr("kv_cache_bit_width", 0),
                             floatAttr("qk_norm_epsilon", 1e-6)};

bool sameOrDynamic(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

int64_t divideOrDynamic(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) ? ShapedType::kDynamic : a / b;
}

/// Attribute values onyx does not implement, each with its reason.
LogicalResult checkSupportedAttributes(InferState &s) {
  const OpAttrs &attrs = s.getAttrs();
  if (attrs.getInt("local_window_size") != -1)
    return s.emitAttrError("local_window_size")
           << "must be -1: local (sliding window) attention is not supported";
  if (attrs.getFloat("softcap") != 0)
    return s.emitAttrError("softcap")
           << "must be 0: soft-capped scores are not supported";
  if (attrs.getInt("causal") != 1)
    return s.emitAttrError("causal")
           << "must be 1: only causal attention is supported";
  if (attrs.getInt("smooth_softmax") != 0)
    return s.emitAttrError("smooth_softmax")
           << "must be 0: the smooth softmax is not supported";
  if (attrs.getInt("qk_output") != 0)
    return s.emitAttrError("qk_output")
           << "must be 0: the QK output is not supported";
  if (attrs.getInt("sliding_window_cache") != 0)
    return s.emitAttrError("sliding_window_cache")
           << "must be 0: windowed caches are not supported";
  for (StringRef name : {"k_quant_type", "v_quant_type"})
    if (attrs.getString(name) != "NONE")
      return s.emitAttrError(name)
             << "must be NONE: quantized caches are not supported";
  if (attrs.getInt("kv_cache_bit_width") != 0)
    return s.emitAttrError("kv_cache_bit_width")
           << "must be 0: quantized caches are not supported";
  return success();
}

LogicalResult inferGqa(InferState &s) {
  if (failed(checkSupportedAttributes(s)))
    return failure();
  for (unsigned i = kFirstUnsupported; i < s.getNumOperands(); ++i)
    if (s.hasOperand(i))
      return s.emitOperandError(i) << "is not supported";
  if (s.getResultCountHint() > 3)
    return s.emitError() << "result 'output_qk' is not supported";
  const OpAttrs &attrs = s.getAttrs();
  int64_t heads = attrs.getInt("num_heads");
  int64_t kvHeads = attrs.getInt("kv_num_heads");
  if (heads <= 0)
    return s.emitAttrError("num_heads") << "must be positive, got " << heads;
  if (kvHeads <= 0 || heads % kvHeads != 0)
    return s.emitAttrError("kv_num_heads")
           << "must be positive and divide num_heads " << heads << ", got "
           << kvHeads;

  if (failed(s.checkFloat(kQuery)) || failed(s.checkRank(kQuery, 3)))
    return failure();
  ArrayRef<int64_t> q = s.getShape(kQuery);
  int64_t batch = q[0], seq = q[1];
  bool packed = !s.hasOperand(kKey);
  if (packed && s.hasOperand(kValue))
    return s.emitOperandError(kValue)
           << "must be absent when key is (Q, K and V packed in query)";
  if (!packed && !s.hasOperand(kValue))
    return s.emitOperandError(kValue) << "is required with key";
  int64_t perToken = packed ? heads + 2 * kvHeads : heads;
  if (!ShapedType::isDynamic(q[2]) && q[2] % perToken != 0)
    return s.emitOperandError(kQuery)
           << "of type " << s.getType(kQuery) << " does not hold " << perToken
           << " heads of one size"
           << (packed ? " (num_heads + 2 * kv_num_heads, packed)" : "");
  int64_t headSize = divideOrDynamic(q[2], perToken);
  Type et = s.getElementType(kQuery);
  int64_t kvHidden = ShapedType::isDynamic(headSize) ? ShapedType::kDynamic
                                                     : kvHeads * headSize;
  if (!packed) {
    for (unsigned i : {kKey, kValue}) {
      if (failed(s.checkSameElementType(kQuery, i)) ||
          failed(s.checkRank(i, 3)))
        return failure();
      ArrayRef<int64_t> kv = s.getShape(i);
      if (!sameOrDynamic(kv[0], batch) || !sameOrDynamic(kv[1], seq) ||
          !sameOrDynamic(kv[2], kvHidden))
        return s.emitOperandError(i)
               << "must be [batch, seq, kv_num_heads * head_size] = [" << batch
               << ", " << seq << ", " << kvHidden << "], got " << s.getType(i);
    }
  }

  bool hasPast = s.hasOperand(kPastKey);
  if (hasPast != s.hasOperand(kPastValue))
    return s.emitOperandError(hasPast ? kPastValue : kPastKey)
           << "must be given with " << (hasPast ? "past_key" : "past_value");
  int64_t pastLength = 0;
  if (hasPast) {
    for (unsigned i : {kPastKey, kPastValue}) {
      if (failed(s.checkSameElementType(kQuery, i)) ||
          failed(s.checkRank(i, 4)))
        return failure();
      ArrayRef<int64_t> p = s.getShape(i);
      if (!sameOrDynamic(p[0], batch) || !sameOrDynamic(p[1], kvHeads) ||
          !sameOrDynamic(p[3], headSize) ||
          !sameOrDynamic(p[2], s.getShape(kPastKey)[2]))
        return s.emitOperandError(i)
               << "must be [batch, kv_num_heads, past_length, head_size] "
                  "(BNSH), got "
               << s.getType(i);
    }
    pastLength = s.getShape(kPastKey)[2];
  }

  if (failed(s.checkInteger(kSeqlensK)) || failed(s.checkRank(kSeqlensK, 1)))
    return failure();
  if (!sameOrDynamic(s.getShape(kSeqlensK)[0], batch))
    return s.emitOperandError(kSeqlensK)
           << "must be [batch], got " << s.getType(kSeqlensK);
  if (failed(s.checkInteger(kTotalLength)))
    return failure();
  if (s.getRank(kTotalLength) > 1 ||
      !sameOrDynamic(getNumElements(s.getShape(kTotalLength)), 1))
    return s.emitOperandError(kTotalLength)
           << "must be a scalar, got " << s.getType(kTotalLength);

  bool rotary = attrs.getInt("do_rotary") != 0;
  if (rotary) {
    for (unsigned i : {kCos, kSin}) {
      if (!s.hasOperand(i))
        return s.emitOperandError(i) << "is required when do_rotary is 1";
      if (failed(s.checkSameElementType(kQuery, i)) ||
          failed(s.checkRank(i, 2)))
        return failure();
    }
    int64_t half = s.getShape(kCos)[1];
    if (s.getShape(kSin) != s.getShape(kCos))
      return s.emitOperandError(kSin)
             << "must have the type of cos_cache " << s.getType(kCos);
    if (!ShapedType::isDynamic(half) && !ShapedType::isDynamic(headSize) &&
        (half == 0 || 2 * half > headSize))
      return s.emitOperandError(kCos)
             << "must have [max_position, rotary_dim / 2] with rotary_dim at "
                "most the head size "
             << headSize << ", got " << s.getType(kCos);
  } else if (s.hasOperand(kCos) || s.hasOperand(kSin)) {
    return s.emitOperandError(s.hasOperand(kCos) ? kCos : kSin)
           << "is given but do_rotary is 0";
  }

  // present: max(past_length, total_sequence_length).
  int64_t presentLength = ShapedType::kDynamic;
  std::optional<SmallVector<int64_t>> total = s.getConstantInts(kTotalLength);
  if (total && total->size() == 1 && !ShapedType::isDynamic(pastLength))
    presentLength = std::max(pastLength, (*total)[0]);
  else if (!hasPast && total && total->size() == 1)
    presentLength = (*total)[0];
  int64_t hidden =
      ShapedType::isDynamic(headSize) ? ShapedType::kDynamic : heads * headSize;
  s.addResult({batch, seq, hidden}, et);
  SmallVector<int64_t> present = {batch, kvHeads, presentLength, headSize};
  s.addResult(present, et);
  s.addResult(present, et);
  return success();
}

/// Rotates the rd = 2 * half first elements of `v` (one head) at `pos`.
void rotateHead(MutableArrayRef<double> v, ArrayRef<double> cos,
                ArrayRef<double> sin, int64_t half, int64_t pos,
                bool interleaved) {
  ArrayRef<double> c = cos.slice(pos * half, half);
  ArrayRef<double> sn = sin.slice(pos * half, half);
  for (int64_t i = 0; i < half; ++i) {
    int64_t a = interleaved ? 2 * i : i;
    int64_t b = interleaved ? 2 * i + 1 : i + half;
    double x = v[a], y = v[b];
    v[a] = x * c[i] - y * sn[i];
    v[b] = y * c[i] + x * sn[i];
  }
}

LogicalResult evalGqa(EvalState &s) {
  const OpAttrs &attrs = s.getAttrs();
  int64_t heads = attrs.getInt("num_heads");
  int64_t kvHeads = attrs.getInt("kv_num_heads");
  const Tensor &queryT = s.input(kQuery);
  ArrayRef<int64_t> q = queryT.getShape();
  int64_t batch = q[0], seq = q[1];
  bool packed = !s.hasInput(kKey);
  int64_t perToken = packed ? heads + 2 * kvHeads : heads;
  if (q[2] % perToken != 0)
    return s.emitError() << "query's last dimension " << q[2]
                         << " is not a whole number of heads";
  int64_t d = q[2] / perToken;
  bool hasPast = s.hasInput(kPastKey);
  int64_t pastLength = hasPast ? s.input(kPastKey).getShape()[2] : 0;
  SmallVector<int64_t> seqlens = s.input(kSeqlensK).toInts();
  SmallVector<int64_t> totalValues = s.input(kTotalLength).toInts();
  if (int64_t(seqlens.size()) != batch || totalValues.size() != 1)
    return s.emitError() << "seqlens_k must have " << batch
                         << " elements and total_sequence_length one";
  int64_t total = totalValues[0];
  int64_t presentLength = std::max(pastLength, total);
  if (!packed) {
    for (unsigned i : {kKey, kValue})
      if (s.input(i).getShape() != ArrayRef<int64_t>({batch, seq, kvHeads * d}))
        return s.emitError() << "key and value must be [" << batch << ", "
                             << seq << ", " << kvHeads * d << "]";
  }
  if (hasPast)
    for (unsigned i : {kPastKey, kPastValue})
      if (s.input(i).getShape() !=
          ArrayRef<int64_t>({batch, kvHeads, pastLength, d}))
        return s.emitError()
               << "past_key and past_value must be [" << batch << ", "
               << kvHeads << ", " << pastLength << ", " << d << "]";
  bool firstPrompt = seq == total;
  SmallVector<int64_t> starts;
  for (int64_t b = 0; b < batch; ++b) {
    int64_t length = seqlens[b] + 1;
    int64_t start = firstPrompt ? 0 : length - seq;
    if (length < 1 || length > total || start < 0 ||
        start + seq > presentLength)
      return s.emitError() << "seqlens_k[" << b << "] = " << seqlens[b]
                           << " does not fit " << seq
                           << " new tokens in a total length of " << total
                           << " and a cache of " << presentLength;
    starts.push_back(start);
  }

  // Q, K and V per head: [B, heads, S, D].
  Tensor query = convertTensor(queryT, ElementType::F64);
  Tensor key, value;
  if (!packed) {
    key = convertTensor(s.input(kKey), ElementType::F64);
    value = convertTensor(s.input(kValue), ElementType::F64);
  }
  auto load = [&](int64_t b, int64_t t, int64_t headOffset, int64_t head,
                  const Tensor *source, int64_t numHeads) {
    ArrayRef<double> v =
        source ? source->getValues<double>() : query.getValues<double>();
    int64_t width = source ? numHeads * d : perToken * d;
    int64_t base = (b * seq + t) * width + (headOffset + head) * d;
    return SmallVector<double>(v.slice(base, d));
  };
  bool rotary = attrs.getInt("do_rotary") != 0;
  bool interleaved = attrs.getInt("rotary_interleaved") != 0;
  Tensor cos, sin;
  int64_t half = 0, maxPosition = 0;
  if (rotary) {
    cos = convertTensor(s.input(kCos), ElementType::F64);
    sin = convertTensor(s.input(kSin), ElementType::F64);
    half = cos.getShape()[1];
    maxPosition = cos.getShape()[0];
    if (2 * half > d || sin.getShape() != cos.getShape())
      return s.emitError() << "the caches do not fit the head size " << d;
  }

  // present = past, grown to presentLength, with the new K/V written in.
  SmallVector<int64_t> presentShape = {batch, kvHeads, presentLength, d};
  Tensor presentK(ElementType::F64, presentShape);
  Tensor presentV(ElementType::F64, presentShape);
  MutableArrayRef<double> pk = presentK.getMutableValues<double>();
  MutableArrayRef<double> pv = presentV.getMutableValues<double>();
  if (hasPast) {
    Tensor pastK = convertTensor(s.input(kPastKey), ElementType::F64);
    Tensor pastV = convertTensor(s.input(kPastValue), ElementType::F64);
    for (int64_t bh = 0; bh < batch * kvHeads; ++bh)
      for (int64_t t = 0; t < pastLength * d; ++t) {
        pk[bh * presentLength * d + t] =
            pastK.getValues<double>()[bh * pastLength * d + t];
        pv[bh * presentLength * d + t] =
            pastV.getValues<double>()[bh * pastLength * d + t];
      }
  }
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t g = 0; g < kvHeads; ++g)
      for (int64_t t = 0; t < seq; ++t) {
        int64_t pos = starts[b] + t;
        SmallVector<double> k = packed ? load(b, t, heads, g, nullptr, 0)
                                       : load(b, t, 0, g, &key, kvHeads);
        SmallVector<double> v = packed
                                    ? load(b, t, heads + kvHeads, g, nullptr, 0)
                                    : load(b, t, 0, g, &value, kvHeads);
        if (rotary) {
          if (pos >= maxPosition)
            return s.emitError()
                   << "position " << pos << " is out of range for a cache of "
                   << maxPosition << " positions";
          rotateHead(k, cos.getValues<double>(), sin.getValues<double>(), half,
                     pos, interleaved);
        }
        int64_t base = ((b * kvHeads + g) * presentLength + pos) * d;
        llvm::copy(k, pk.begin() + base);
        llvm::copy(v, pv.begin() + base);
      }

  double scale = attrs.getFloat("scale");
  if (scale == 0)
    scale = 1.0 / std::sqrt(double(d));
  Tensor out(ElementType::F64, {batch, seq, heads * d});
  MutableArrayRef<double> ov = out.getMutableValues<double>();
  int64_t group = heads / kvHeads;
  SmallVector<double> scores;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t t = 0; t < seq; ++t) {
        int64_t pos = starts[b] + t;
        // Query heads come first in query, packed or not.
        SmallVector<double> qv = load(b, t, 0, h, nullptr, 0);
        if (rotary)
          rotateHead(qv, cos.getValues<double>(), sin.getValues<double>(), half,
                     pos, interleaved);
        int64_t last = std::min(pos, seqlens[b]);
        int64_t base = (b * kvHeads + h / group) * presentLength * d;
        scores.assign(last + 1, 0);
        double maxScore = -INFINITY;
        for (int64_t j = 0; j <= last; ++j) {
          double dot = 0;
          for (int64_t i = 0; i < d; ++i)
            dot += qv[i] * pk[base + j * d + i];
          scores[j] = dot * scale;
          maxScore = std::max(maxScore, scores[j]);
        }
        double sum = 0;
        for (double &x : scores)
          sum += x = std::exp(x - maxScore);
        int64_t outBase = (b * seq + t) * heads * d + h * d;
        for (int64_t j = 0; j <= last; ++j)
          for (int64_t i = 0; i < d; ++i)
            ov[outBase + i] += scores[j] / sum * pv[base + j * d + i];
      }
  ElementType et = queryT.getElementType();
  s.addOutput(convertTensor(out, et));
  s.addOutput(convertTensor(presentK, et));
  s.addOutput(convertTensor(presentV, et));
  return success();
}

const OpDef gqaDefs[] = {
    {{"onnx.com.microsoft.GroupQueryAttention", gqaOperands, gqaResults,
      gqaAttrs, OpTrait::Pure},
     inferGqa,
     evalGqa},
};

} // namespace

void appendGroupQueryAttentionOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : gqaDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

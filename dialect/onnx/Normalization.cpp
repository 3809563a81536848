//===- Normalization.cpp - Batch, Layer, RMS, Instance, Group norms -------===//
//
// BatchNormalization in inference mode: per channel (dimension 1),
// y = (x - mean) / sqrt(var + epsilon) * scale + B. Training mode (batch
// statistics, running-mean outputs) is not supported and reported as such;
// `momentum` only matters in training and is accepted for imported nodes.
//
// LayerNormalization normalizes over the dimensions from `axis` on, with
// Scale and the optional B broadcast over them. Its optional Mean and
// InvStdDev results have X's shape with those dimensions set to 1, in the
// float type that stash_type names (an ONNX data type code; 1 is f32).
//
// RMSNormalization (opset 23) scales by the root mean square instead:
// Y = X / sqrt(mean(X^2) + epsilon) * Scale over the dimensions from `axis`
// on, without a mean subtracted or a bias; onyx also forms it from the
// decomposed subgraph PyTorch exports (RMSNormPattern.cpp).
//
// InstanceNormalization normalizes each (image, channel) over the spatial
// dimensions, then scales and shifts by the channel's scale and B.
//
// GroupNormalization (opsets 18 and 21) splits the channels into
// `num_groups` groups of consecutive channels and normalizes each (image,
// group) over its channels' spatial elements. Opset 21 scales and shifts
// per channel (scale and bias of C elements); opset 18 did so per group
// (num_groups elements), which opset 21 deprecated. One op serves both: the
// length of scale says which (where num_groups = C the two agree).
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Normalization.h"

#include "ir/Operation.h"

#include <cmath>

namespace onyx::onnx {

//===----------------------------------------------------------------------===//
// Normalizations over rows (Normalization.h)
//===----------------------------------------------------------------------===//

/// Checks X, `axis` and that the other operands broadcast to the
/// normalized dimensions; sets `axis` non-negative.
static LogicalResult checkNormalizedOperands(InferState &s, int64_t &axis) {
  if (failed(s.checkFloat(0)))
    return failure();
  int64_t rank = s.getRank(0);
  axis = s.getAttrs().getInt("axis");
  if (failed(s.normalizeAxis(axis, rank, "axis")))
    return failure();
  ArrayRef<int64_t> normalized = s.getShape(0).drop_front(axis);
  for (unsigned i = 1; i < s.getNumOperands(); ++i) {
    if (!s.hasOperand(i))
      continue;
    if (failed(s.checkSameElementType(0, i)))
      return failure();
    std::optional<SmallVector<int64_t>> b =
        broadcastShapes(normalized, s.getShape(i));
    if (!b || ArrayRef<int64_t>(*b) != normalized)
      return s.emitOperandError(i)
             << "of type " << s.getType(i)
             << " does not broadcast to the normalized dimensions of "
             << s.getType(0);
  }
  return success();
}

static LogicalResult checkStashType(InferState &s,
                                    std::optional<ElementType> &stash) {
  int64_t stashType = s.getAttrs().getInt("stash_type");
  stash = fromOnnxDataType(stashType);
  if (!stash || !isFloat(*stash))
    return s.emitAttrError("stash_type")
           << "must be an ONNX float data type, got " << stashType;
  return success();
}

LogicalResult inferNormalizationFromAxis(InferState &s, unsigned numStats) {
  int64_t axis;
  std::optional<ElementType> stash;
  if (failed(checkNormalizedOperands(s, axis)) ||
      failed(checkStashType(s, stash)))
    return failure();
  s.addResult(s.getType(0));
  SmallVector<int64_t> statsShape(s.getShape(0));
  std::fill(statsShape.begin() + axis, statsShape.end(), 1);
  Type statsType = getIRType(s.getContext(), *stash);
  for (unsigned i = 0; i < numStats; ++i)
    s.addResult(statsShape, statsType);
  return success();
}

void normalizeRows(ArrayRef<double> v, int64_t rows, int64_t size,
                   ArrayRef<double> gamma, ArrayRef<double> beta,
                   double epsilon, bool simplified, MutableArrayRef<double> y,
                   MutableArrayRef<double> means,
                   MutableArrayRef<double> invs) {
  for (int64_t r = 0; r < rows; ++r) {
    ArrayRef<double> row = v.slice(r * size, size);
    double mean = 0;
    for (double x : row)
      mean += x;
    mean /= double(size);
    double squares = 0;
    for (double x : row) {
      double d = simplified ? x : x - mean;
      squares += d * d;
    }
    double inv = 1.0 / std::sqrt(squares / double(size) + epsilon);
    for (int64_t i = 0; i < size; ++i) {
      double out = (simplified ? row[i] : row[i] - mean) * inv * gamma[i];
      if (!beta.empty())
        out += beta[i];
      y[r * size + i] = out;
    }
    means[r] = mean;
    invs[r] = inv;
  }
}

NormalizedRows normalizeFromAxis(EvalState &s, bool simplified,
                                 std::optional<unsigned> biasInput) {
  ArrayRef<int64_t> shape = s.input(0).getShape();
  int64_t axis = s.getAttrs().getInt("axis");
  if (axis < 0)
    axis += int64_t(shape.size());
  ArrayRef<int64_t> inner = shape.drop_front(axis);
  Tensor x = convertTensor(s.input(0), ElementType::F64);
  Tensor scale =
      convertTensor(broadcastTo(s.input(1), inner), ElementType::F64);
  Tensor bias;
  if (biasInput && s.hasInput(*biasInput))
    bias = convertTensor(broadcastTo(s.input(*biasInput), inner),
                         ElementType::F64);
  SmallVector<int64_t> statsShape(shape);
  std::fill(statsShape.begin() + axis, statsShape.end(), 1);
  NormalizedRows rows{Tensor(ElementType::F64, shape),
                      Tensor(ElementType::F64, statsShape),
                      Tensor(ElementType::F64, statsShape)};
  normalizeRows(x.getValues<double>(), getNumElements(shape.take_front(axis)),
                getNumElements(inner), scale.getValues<double>(),
                bias ? bias.getValues<double>() : ArrayRef<double>(),
                s.getAttrs().getFloat("epsilon"), simplified,
                rows.y.getMutableValues<double>(),
                rows.means.getMutableValues<double>(),
                rows.invs.getMutableValues<double>());
  return rows;
}

namespace {

/// The mean of `values` and the mean of their squared deviations from it.
std::pair<double, double> getMeanAndVariance(ArrayRef<double> values) {
  double mean = 0, var = 0;
  for (double v : values)
    mean += v;
  mean /= double(values.size());
  for (double v : values)
    var += (v - mean) * (v - mean);
  var /= double(values.size());
  return {mean, var};
}

//===----------------------------------------------------------------------===//
// BatchNormalization
//===----------------------------------------------------------------------===//

/// Checks that operand `i` has rank 1 and one element per channel
/// (dimension 1 of operand 0) where both sizes are known.
LogicalResult checkPerChannel(InferState &s, unsigned i) {
  if (failed(s.checkRank(i, 1)))
    return failure();
  int64_t channels = s.getShape(0)[1];
  int64_t n = s.getShape(i)[0];
  if (n != channels && !ShapedType::isDynamic(n) &&
      !ShapedType::isDynamic(channels))
    return s.emitOperandError(i) << "must have " << channels
                                 << " elements (one per channel), got " << n;
  return success();
}

const ValueSpec batchNormOperands[] = {
    {"X"}, {"scale"}, {"B"}, {"input_mean"}, {"input_var"}};
const ValueSpec batchNormResults[] = {{"Y"}};
const AttrSpec batchNormAttrs[] = {floatAttr("epsilon", 1e-5),
                                   floatAttr("momentum", 0.9),
                                   intAttr("training_mode", 0)};

LogicalResult inferBatchNorm(InferState &s) {
  if (s.getAttrs().getInt("training_mode") != 0)
    return s.emitAttrError("training_mode")
           << "must be 0: only inference mode is supported";
  if (failed(s.checkFloat(0)))
    return failure();
  if (failed(s.checkMinRank(0, 2)))
    return failure();
  for (unsigned i = 1; i < 5; ++i) {
    if (failed(s.checkFloat(i)) || failed(checkPerChannel(s, i)))
      return failure();
  }
  s.addResult(s.getType(0));
  return success();
}

LogicalResult evalBatchNorm(EvalState &s) {
  ArrayRef<int64_t> shape = s.input(0).getShape();
  int64_t batch = shape[0], channels = shape[1];
  int64_t plane = getNumElements(shape.drop_front(2));
  SmallVector<Tensor, 4> params;
  for (unsigned i = 1; i < 5; ++i) {
    params.push_back(convertTensor(s.input(i), ElementType::F64));
    if (params.back().getNumElements() != channels)
      return s.emitError() << "operand " << i << " does not have " << channels
                           << " elements";
  }
  double epsilon = s.getAttrs().getFloat("epsilon");
  F64Evaluation f(s);
  for (int64_t c = 0; c < channels; ++c) {
    double scale = params[0].getValues<double>()[c] /
                   std::sqrt(params[3].getValues<double>()[c] + epsilon);
    double mean = params[2].getValues<double>()[c];
    double shift = params[1].getValues<double>()[c];
    for (int64_t n = 0; n < batch; ++n) {
      int64_t base = (n * channels + c) * plane;
      for (int64_t i = 0; i < plane; ++i)
        f.y[base + i] = (f.x[base + i] - mean) * scale + shift;
    }
  }
  f.addOutput();
  return success();
}

//===----------------------------------------------------------------------===//
// LayerNormalization
//===----------------------------------------------------------------------===//

const ValueSpec layerNormOperands[] = {
    {"X"}, {"Scale"}, {"B", Presence::Optional}};
const ValueSpec layerNormResults[] = {
    {"Y"}, {"Mean", Presence::Optional}, {"InvStdDev", Presence::Optional}};
const AttrSpec layerNormAttrs[] = {
    intAttr("axis", -1), floatAttr("epsilon", 1e-5), intAttr("stash_type", 1)};

LogicalResult inferLayerNorm(InferState &s) {
  return inferNormalizationFromAxis(s, 2);
}

LogicalResult evalLayerNorm(EvalState &s) {
  NormalizedRows rows = normalizeFromAxis(s, /*simplified=*/false, 2);
  s.addOutput(convertTensor(rows.y, s.input(0).getElementType()));
  ElementType statsType = *fromOnnxDataType(s.getAttrs().getInt("stash_type"));
  s.addOutput(convertTensor(rows.means, statsType));
  s.addOutput(convertTensor(rows.invs, statsType));
  return success();
}

//===----------------------------------------------------------------------===//
// RMSNormalization
//===----------------------------------------------------------------------===//

const ValueSpec rmsNormOperands[] = {{"X"}, {"scale"}};
const ValueSpec rmsNormResults[] = {{"Y"}};

LogicalResult inferRMSNorm(InferState &s) {
  return inferNormalizationFromAxis(s, 0);
}

LogicalResult evalRMSNorm(EvalState &s) {
  NormalizedRows rows = normalizeFromAxis(s, /*simplified=*/true, std::nullopt);
  s.addOutput(convertTensor(rows.y, s.input(0).getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// InstanceNormalization
//===----------------------------------------------------------------------===//

const ValueSpec instanceNormOperands[] = {{"input"}, {"scale"}, {"B"}};
const ValueSpec instanceNormResults[] = {{"output"}};
const AttrSpec instanceNormAttrs[] = {floatAttr("epsilon", 1e-5)};

LogicalResult inferInstanceNorm(InferState &s) {
  if (failed(s.checkFloat(0)))
    return failure();
  if (failed(s.checkMinRank(0, 3, "N x C x spatial")))
    return failure();
  for (unsigned i : {1u, 2u}) {
    if (failed(s.checkSameElementType(0, i)) || failed(checkPerChannel(s, i)))
      return failure();
  }
  s.addResult(s.getType(0));
  return success();
}

LogicalResult evalInstanceNorm(EvalState &s) {
  ArrayRef<int64_t> shape = s.input(0).getShape();
  double epsilon = s.getAttrs().getFloat("epsilon");
  int64_t channels = shape[1];
  int64_t planes = shape[0] * channels;
  int64_t size = getNumElements(shape.drop_front(2));
  F64Evaluation f(s);
  Tensor scale = convertTensor(s.input(1), ElementType::F64);
  Tensor bias = convertTensor(s.input(2), ElementType::F64);
  for (int64_t p = 0; p < planes; ++p) {
    ArrayRef<double> values = f.x.slice(p * size, size);
    auto [mean, var] = getMeanAndVariance(values);
    double factor =
        scale.getValues<double>()[p % channels] / std::sqrt(var + epsilon);
    double shift = bias.getValues<double>()[p % channels];
    for (int64_t i = 0; i < size; ++i)
      f.y[p * size + i] = (values[i] - mean) * factor + shift;
  }
  f.addOutput();
  return success();
}

//===----------------------------------------------------------------------===//
// GroupNormalization
//===----------------------------------------------------------------------===//

const ValueSpec groupNormOperands[] = {{"X"}, {"scale"}, {"bias"}};
const ValueSpec groupNormResults[] = {{"Y"}};
const AttrSpec groupNormAttrs[] = {floatAttr("epsilon", 1e-5),
                                   requiredAttr("num_groups", AttrType::Int),
                                   intAttr("stash_type", 1)};

LogicalResult inferGroupNorm(InferState &s) {
  if (failed(s.checkFloat(0)))
    return failure();
  if (failed(s.checkMinRank(0, 2, "N x C x spatial")))
    return failure();
  int64_t groups = s.getAttrs().getInt("num_groups");
  if (groups <= 0)
    return s.emitAttrError("num_groups") << "must be positive, got " << groups;
  int64_t stash = s.getAttrs().getInt("stash_type");
  if (stash != 1)
    return s.emitAttrError("stash_type") << "must be 1 (float), got " << stash;
  int64_t channels = s.getShape(0)[1];
  if (!ShapedType::isDynamic(channels) && channels % groups != 0)
    return s.emitAttrError("num_groups")
           << "must divide the " << channels << " channels, got " << groups;
  for (unsigned i : {1u, 2u}) {
    if (failed(s.checkSameElementType(0, i)) || failed(s.checkRank(i, 1)))
      return failure();
    int64_t n = s.getShape(i)[0];
    if (ShapedType::isDynamic(n) || n == groups)
      continue;
    if (!ShapedType::isDynamic(channels) && n != channels)
      return s.emitOperandError(i)
             << "must have " << channels << " elements (one per channel) or "
             << groups << " (one per group, opset 18), got " << n;
  }
  if (s.getShape(1) != s.getShape(2))
    return s.emitOperandError(2)
           << "must have the shape of scale, got " << s.getType(2);
  s.addResult(s.getType(0));
  return success();
}

LogicalResult evalGroupNorm(EvalState &s) {
  ArrayRef<int64_t> shape = s.input(0).getShape();
  double epsilon = s.getAttrs().getFloat("epsilon");
  int64_t groups = s.getAttrs().getInt("num_groups");
  int64_t channels = shape[1];
  int64_t params = s.input(1).getNumElements();
  if (channels % groups != 0 || (params != channels && params != groups) ||
      s.input(2).getNumElements() != params)
    return s.emitError() << "has " << channels << " channels, " << groups
                         << " groups and " << params << " scale elements";
  int64_t perGroup = channels / groups;
  int64_t spatial = getNumElements(shape.drop_front(2));
  int64_t size = perGroup * spatial;
  F64Evaluation f(s);
  Tensor scale = convertTensor(s.input(1), ElementType::F64);
  Tensor bias = convertTensor(s.input(2), ElementType::F64);
  ArrayRef<double> sv = scale.getValues<double>(),
                   bv = bias.getValues<double>();
  for (int64_t p = 0, e = shape[0] * groups; p < e; ++p) {
    ArrayRef<double> values = f.x.slice(p * size, size);
    auto [mean, var] = getMeanAndVariance(values);
    double invStdDev = 1 / std::sqrt(var + epsilon);
    for (int64_t i = 0; i < size; ++i) {
      int64_t param = params == channels && params != groups
                          ? (p % groups) * perGroup + i / spatial
                          : p % groups;
      f.y[p * size + i] =
          (values[i] - mean) * invStdDev * sv[param] + bv[param];
    }
  }
  f.addOutput();
  return success();
}

const OpDef normalizationDefs[] = {
    {{"onnx.BatchNormalization", batchNormOperands, batchNormResults,
      batchNormAttrs, OpTrait::Pure},
     inferBatchNorm,
     evalBatchNorm,
     nullptr,
     addConvBatchNormPatterns},
    {{"onnx.LayerNormalization", layerNormOperands, layerNormResults,
      layerNormAttrs, OpTrait::Pure},
     inferLayerNorm,
     evalLayerNorm},
    {{"onnx.RMSNormalization", rmsNormOperands, rmsNormResults, layerNormAttrs,
      OpTrait::Pure},
     inferRMSNorm,
     evalRMSNorm},
    {{"onnx.InstanceNormalization", instanceNormOperands, instanceNormResults,
      instanceNormAttrs, OpTrait::Pure},
     inferInstanceNorm,
     evalInstanceNorm},
    {{"onnx.GroupNormalization", groupNormOperands, groupNormResults,
      groupNormAttrs, OpTrait::Pure},
     inferGroupNorm,
     evalGroupNorm},
};

} // namespace

void appendNormalizationOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : normalizationDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

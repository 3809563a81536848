//===- OpsetMapping.cpp - ONNX opset versions onto canonical ops ----------===//
//
// One row per op and range of opset versions that differ from the newest
// version. The version changes come from ONNX's operator changelog; ops not
// listed have not changed in a way that matters here (new element types
// only, or new attributes whose defaults keep the old behaviour).
//
// The ONNX library's version converter is not used: it converts whole
// models and stops at the newest opset it knows (17 in Debian 12), while
// models come with opsets up to 27 and the dialect's forms are those of the
// newest versions; one table covers every version the same way.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/import/OpsetMapping.h"

#include "dialect/onnx/OnnxDialect.h"

namespace onyx::onnx {

bool isOnnxDomain(StringRef domain) {
  return domain.empty() || domain == "ai.onnx";
}

std::string getDialectOpName(StringRef domain, StringRef opType) {
  if (isOnnxDomain(domain))
    return ("onnx." + opType).str();
  if (domain == kMicrosoftDomain)
    return ("onnx." + domain + "." + opType).str();
  return {};
}

bool isSupportedOp(StringRef domain, StringRef opType) {
  std::string name = getDialectOpName(domain, opType);
  return !name.empty() && lookupOpSchema(name) != nullptr;
}

/// The type of operand `i`, which the node must have; fails with an error
/// otherwise (the checker does not run on every model).
static FailureOr<RankedTensorType> getOperandType(NodeImporter &node,
                                                  unsigned i) {
  Value operand = node.getOperand(i);
  if (!operand || isNoValue(operand))
    return node.emitError() << node.getOpType() << " needs input " << i;
  return cast<RankedTensorType>(operand.getType());
}

//===----------------------------------------------------------------------===//
// Attributes that became inputs
//===----------------------------------------------------------------------===//

/// Moves the integer-list attribute `name` to operand `index` as a 1-D i64
/// constant, when the node has it.
static LogicalResult moveIntsToOperand(NodeImporter &node, StringRef name,
                                       unsigned index) {
  std::optional<SmallVector<int64_t>> values;
  if (failed(node.takeInts(name, values)))
    return failure();
  if (values)
    node.setOperand(index, node.createInts(*values));
  return success();
}

/// ReduceSum < 13, ReduceMean/Max/Min < 18, Squeeze/Unsqueeze < 13.
static LogicalResult axesToOperand(NodeImporter &node) {
  return moveIntsToOperand(node, "axes", 1);
}

/// Split < 13.
static LogicalResult splitToOperand(NodeImporter &node) {
  return moveIntsToOperand(node, "split", 1);
}

/// Split < 18 without sizes splits into as many equal parts as the node has
/// outputs; from 18 on, `num_outputs` says how many.
static LogicalResult numOutputsFromResults(NodeImporter &node) {
  Value split = node.getOperand(1);
  if (!split || isNoValue(split))
    node.setAttribute("num_outputs",
                      getIntAttr(node.getContext(), node.getNumResults()));
  return success();
}

/// TopK < 10: `k` is an attribute.
static LogicalResult kToOperand(NodeImporter &node) {
  std::optional<int64_t> k;
  if (failed(node.takeInt("k", k)))
    return failure();
  if (!k)
    return node.emitError() << "TopK before opset 10 needs attribute 'k'";
  node.setOperand(1, node.createInts({*k}));
  return success();
}

/// Slice < 10: starts, ends and axes attributes.
static LogicalResult sliceAttributesToOperands(NodeImporter &node) {
  if (failed(moveIntsToOperand(node, "starts", 1)) ||
      failed(moveIntsToOperand(node, "ends", 2)) ||
      failed(moveIntsToOperand(node, "axes", 3)))
    return failure();
  return success();
}

/// Pad < 11: `pads` (`paddings` before opset 2) and the constant `value`
/// as attributes.
static LogicalResult padAttributesToOperands(NodeImporter &node) {
  StringRef padsName = node.getOpset() < 2 ? "paddings" : "pads";
  if (failed(moveIntsToOperand(node, padsName, 1)))
    return failure();
  std::optional<float> value;
  if (failed(node.takeFloat("value", value)))
    return failure();
  FailureOr<RankedTensorType> type = getOperandType(node, 0);
  if (failed(type))
    return failure();
  if (value && *value != 0)
    node.setOperand(
        2, node.createScalar(*getElementType(type->getElementType()), *value));
  return success();
}

/// Reshape < 5: the shape as an attribute.
static LogicalResult shapeToOperand(NodeImporter &node) {
  return moveIntsToOperand(node, "shape", 1);
}

/// Clip < 11: `min` and `max` attributes; absent ones do not bound.
static LogicalResult clipAttributesToOperands(NodeImporter &node) {
  std::optional<float> min, max;
  if (failed(node.takeFloat("min", min)) || failed(node.takeFloat("max", max)))
    return failure();
  FailureOr<RankedTensorType> type = getOperandType(node, 0);
  if (failed(type))
    return failure();
  ElementType kind = *getElementType(type->getElementType());
  if (min)
    node.setOperand(1, node.createScalar(kind, *min));
  if (max)
    node.setOperand(2, node.createScalar(kind, *max));
  return success();
}

//===----------------------------------------------------------------------===//
// Semantics that changed
//===----------------------------------------------------------------------===//

/// Softmax/LogSoftmax < 13 normalize over all dimensions from `axis` on, as
/// if the input were flattened to 2-D there (the default axis is 1). When
/// `axis` is the last dimension that is the same as normalizing along it;
/// otherwise the input is flattened, normalized along its last dimension,
/// and reshaped back.
static LogicalResult softmaxOnFlattenedInput(NodeImporter &node) {
  std::optional<int64_t> attr;
  if (failed(node.takeInt("axis", attr)))
    return failure();
  FailureOr<RankedTensorType> inputType = getOperandType(node, 0);
  if (failed(inputType))
    return failure();
  int64_t rank = inputType->getRank();
  int64_t axis = attr.value_or(1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return node.emitError() << "axis " << attr.value_or(1)
                            << " is out of range for an input of rank " << rank;
  Context *ctx = node.getContext();
  if (axis == rank - 1) {
    node.setAttribute("axis", getIntAttr(ctx, -1));
    return success();
  }
  if (!inputType->hasStaticShape())
    return node.emitError()
           << node.getOpType() << " before opset 13 normalizes over the "
           << "dimensions from axis " << axis
           << " on; onyx needs a static input shape for that, got "
           << Type(*inputType);
  NamedAttribute flattenAxis{StringAttr::get(ctx, "axis"),
                             getIntAttr(ctx, axis)};
  FailureOr<SmallVector<Value>> flat = node.getEmitter().create(
      node.getLoc(), "onnx.Flatten", node.getOperand(0), flattenAxis);
  if (failed(flat))
    return failure();
  node.setOperand(0, (*flat)[0]);
  node.setAttribute("axis", getIntAttr(ctx, -1));
  node.reshapeResultTo(inputType->getShape());
  return success();
}

/// Replaces operand `index` by its Unsqueeze at `axes` (none: unchanged).
static LogicalResult unsqueezeOperand(NodeImporter &node, unsigned index,
                                      ArrayRef<int64_t> axes) {
  if (axes.empty())
    return success();
  FailureOr<SmallVector<Value>> expanded =
      node.getEmitter().create(node.getLoc(), "onnx.Unsqueeze",
                               {node.getOperand(index), node.createInts(axes)});
  if (failed(expanded))
    return failure();
  node.setOperand(index, (*expanded)[0]);
  return success();
}

/// Elementwise binary ops < 7 broadcast only with `broadcast = 1`, and then
/// align B with A at `axis` rather than at the last dimension. Trailing
/// unit dimensions make numpy broadcasting do the same.
static LogicalResult legacyBroadcast(NodeImporter &node) {
  std::optional<int64_t> broadcast, axis;
  if (failed(node.takeInt("broadcast", broadcast)) ||
      failed(node.takeInt("axis", axis)))
    return failure();
  if (!broadcast.value_or(0) || !axis)
    return success();
  FailureOr<RankedTensorType> typeA = getOperandType(node, 0);
  FailureOr<RankedTensorType> typeB = getOperandType(node, 1);
  if (failed(typeA) || failed(typeB))
    return failure();
  int64_t rankA = typeA->getRank(), rankB = typeB->getRank();
  int64_t start = *axis < 0 ? *axis + rankA : *axis;
  if (start < 0 || start + rankB > rankA)
    return node.emitError()
           << "broadcast axis " << *axis << " does not fit an input of rank "
           << rankB << " into one of rank " << rankA;
  SmallVector<int64_t> newAxes;
  for (int64_t i = 0; i < rankA - start - rankB; ++i)
    newAxes.push_back(rankB + i);
  return unsqueezeOperand(node, 1, newAxes);
}

/// PRelu < 7 applies a slope of C values per channel (dimension 1); numpy
/// broadcasting does the same with trailing unit dimensions on the slope.
static LogicalResult channelSlope(NodeImporter &node) {
  FailureOr<RankedTensorType> x = getOperandType(node, 0);
  FailureOr<RankedTensorType> slope = getOperandType(node, 1);
  if (failed(x) || failed(slope))
    return failure();
  if (slope->getRank() != 1 || slope->getShape()[0] == 1 || x->getRank() < 3)
    return success();
  SmallVector<int64_t> newAxes;
  for (int64_t i = 1; i < x->getRank() - 1; ++i)
    newAxes.push_back(i);
  return unsqueezeOperand(node, 1, newAxes);
}

/// Cast < 6 names the target type by its name ("FLOAT").
static LogicalResult typeNameToType(NodeImporter &node) {
  std::optional<std::string> name;
  if (failed(node.takeString("to", name)))
    return failure();
  if (!name)
    return success();
  std::optional<int32_t> dataType = lookupDataType(*name);
  std::optional<ElementType> type =
      dataType ? convertDataType(*dataType) : std::nullopt;
  if (!type)
    return node.emitError()
           << "attribute 'to': unsupported element type '" << *name << "'";
  node.setAttribute("to", TypeAttr::get(getIRType(node.getContext(), *type)));
  return success();
}

/// Concat < 4 concatenates along dimension 1 unless told otherwise.
static LogicalResult defaultAxisOne(NodeImporter &node) {
  std::optional<int64_t> axis;
  if (failed(node.takeInt("axis", axis)))
    return failure();
  node.setAttribute("axis", getIntAttr(node.getContext(), axis.value_or(1)));
  return success();
}

/// Tile < 6 took the repeat count and the axis as inputs.
static LogicalResult unsupportedTile(NodeImporter &node) {
  return node.emitError() << "Tile before opset 6 (tiles and axis as inputs) "
                             "is not supported";
}

/// Upsample < 9: `scales` is an attribute.
static LogicalResult scalesToOperand(NodeImporter &node) {
  std::optional<SmallVector<double>> scales;
  if (failed(node.takeFloats("scales", scales)))
    return failure();
  if (!scales)
    return node.emitError() << "Upsample before opset 9 needs attribute "
                               "'scales'";
  Tensor t =
      Tensor::fromDoubles(ElementType::F32, {int64_t(scales->size())}, *scales);
  node.setOperand(1, node.getEmitter().createConstant(
                         node.getLoc(), t.toAttr(node.getContext())));
  return success();
}

/// Resize 10: (X, scales), with the coordinates and rounding Upsample had
/// (asymmetric, nearest rounding down), the modes opset 11 named.
static LogicalResult resizeFromOpset10(NodeImporter &node) {
  Value scales = node.getOperand(1);
  node.setOperand(1, node.getEmitter().getNoValue());
  node.setOperand(2, scales);
  Context *ctx = node.getContext();
  node.setAttribute("coordinate_transformation_mode",
                    StringAttr::get(ctx, "asymmetric"));
  node.setAttribute("nearest_mode", StringAttr::get(ctx, "floor"));
  return success();
}

//===----------------------------------------------------------------------===//
// Attributes that inference ignores
//===----------------------------------------------------------------------===//

/// BatchNormalization < 9: `spatial = 1` (the default) is the only form
/// later versions kept.
static LogicalResult dropSpatial(NodeImporter &node) {
  std::optional<int64_t> spatial;
  if (failed(node.takeInt("spatial", spatial)))
    return failure();
  if (spatial.value_or(1) != 1)
    return node.emitError() << "BatchNormalization with spatial = 0 (one "
                               "mean per element) is not supported";
  return success();
}

//===----------------------------------------------------------------------===//
// Constant
//===----------------------------------------------------------------------===//

/// Constant's value comes in several attributes (opset 12 added the scalar
/// and list forms); the dialect holds it in `value`.
static LogicalResult constantValue(NodeImporter &node) {
  Context *ctx = node.getContext();
  std::optional<float> valueFloat;
  std::optional<int64_t> valueInt;
  std::optional<SmallVector<int64_t>> valueInts;
  std::optional<SmallVector<double>> valueFloats;
  if (failed(node.takeFloat("value_float", valueFloat)) ||
      failed(node.takeInt("value_int", valueInt)) ||
      failed(node.takeInts("value_ints", valueInts)) ||
      failed(node.takeFloats("value_floats", valueFloats)))
    return failure();
  Tensor value;
  if (valueFloat)
    value = Tensor::scalar(ElementType::F32, *valueFloat);
  else if (valueInt)
    value = Tensor::fromInts(ElementType::I64, {}, *valueInt);
  else if (valueInts)
    value = Tensor::fromInts(ElementType::I64, {int64_t(valueInts->size())},
                             *valueInts);
  else if (valueFloats)
    value = Tensor::fromDoubles(ElementType::F32,
                                {int64_t(valueFloats->size())}, *valueFloats);
  for (StringRef unsupported :
       {"sparse_value", "value_string", "value_strings"})
    if (node.takeAttribute(unsupported))
      return node.emitError()
             << "Constant with a " << unsupported << " is not supported";
  if (value)
    node.setAttribute("value", value.toAttr(ctx));
  return success();
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

namespace {
struct VersionMapping {
  /// Empty for every op.
  StringRef opType;
  /// Applies to models importing an opset older than this.
  int64_t beforeOpset;
  /// Rewrites the node, or null where the row only drops `ignored`.
  LogicalResult (*map)(NodeImporter &);
  /// An attribute that does not change the results, removed.
  StringRef ignored = "";
};
} // namespace

static constexpr int64_t kAll = kMaxOpset + 1;

static const VersionMapping mappings[] = {
    // Every op: opsets < 6 name the inputs an op may overwrite, a hint for
    // in-place execution with no effect on results.
    {"", 6, nullptr, "consumed_inputs"},
    // Attributes that became inputs.
    {"ReduceSum", 13, axesToOperand},
    {"ReduceMean", 18, axesToOperand},
    {"ReduceMax", 18, axesToOperand},
    {"ReduceMin", 18, axesToOperand},
    {"Squeeze", 13, axesToOperand},
    {"Unsqueeze", 13, axesToOperand},
    {"Split", 13, splitToOperand},
    {"Split", 18, numOutputsFromResults},
    {"Slice", 10, sliceAttributesToOperands},
    {"TopK", 10, kToOperand},
    {"Pad", 11, padAttributesToOperands},
    {"Reshape", 5, shapeToOperand},
    {"Clip", 11, clipAttributesToOperands},
    {"Upsample", 9, scalesToOperand},
    // Semantics that changed.
    {"Softmax", 13, softmaxOnFlattenedInput},
    {"LogSoftmax", 13, softmaxOnFlattenedInput},
    {"Add", 7, legacyBroadcast},
    {"Sub", 7, legacyBroadcast},
    {"Mul", 7, legacyBroadcast},
    {"Div", 7, legacyBroadcast},
    {"Pow", 7, legacyBroadcast},
    {"And", 7, legacyBroadcast},
    {"Or", 7, legacyBroadcast},
    {"Xor", 7, legacyBroadcast},
    {"Equal", 7, legacyBroadcast},
    {"Greater", 7, legacyBroadcast},
    {"Less", 7, legacyBroadcast},
    {"PRelu", 7, channelSlope},
    {"Cast", 6, typeNameToType},
    {"Concat", 4, defaultAxisOne},
    {"Resize", 11, resizeFromOpset10},
    {"Tile", 6, unsupportedTile},
    // Attributes that inference ignores or that later versions removed:
    // is_test selects inference, which is all the dialect computes; the
    // ratio of Dropout does not matter in inference; output_sequence only
    // said whether Y is produced, which the node's outputs say; Gemm's C
    // always broadcasts from 7 on.
    {"BatchNormalization", 7, nullptr, "is_test"},
    {"BatchNormalization", 9, dropSpatial},
    {"Dropout", 7, nullptr, "is_test"},
    {"Dropout", 12, nullptr, "ratio"},
    {"RNN", 7, nullptr, "output_sequence"},
    {"GRU", 7, nullptr, "output_sequence"},
    {"LSTM", 7, nullptr, "output_sequence"},
    {"Gemm", 7, nullptr, "broadcast"},
    // Every version.
    {"Constant", kAll, constantValue},
};

LogicalResult mapToCanonicalForm(NodeImporter &node) {
  if (!isOnnxDomain(node.getDomain()))
    return success();
  for (const VersionMapping &mapping : mappings) {
    if ((!mapping.opType.empty() && mapping.opType != node.getOpType()) ||
        node.getOpset() >= mapping.beforeOpset)
      continue;
    if (!mapping.ignored.empty())
      node.takeAttribute(mapping.ignored);
    if (mapping.map && failed(mapping.map(node)))
      return failure();
  }
  return success();
}

} // namespace onyx::onnx

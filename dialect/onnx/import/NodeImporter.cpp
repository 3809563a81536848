//===- NodeImporter.cpp - One ONNX node to onnx dialect ops ---------------===//

#include "dialect/onnx/import/NodeImporter.h"
#include "dialect/onnx/import/OpsetMapping.h"

#include "dialect/onnx/OnnxDialect.h"

#include "ir/Operation.h"

#include "onnx/onnx_pb.h"

namespace onyx::onnx {

//===----------------------------------------------------------------------===//
// OpEmitter
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>> OpEmitter::create(Location loc, StringRef opName,
                                                ValueRange operands,
                                                ArrayRef<NamedAttribute> attrs,
                                                unsigned numResults) {
  Operation *op = createOp(builder, loc, opName, operands, attrs, numResults);
  if (!op)
    return failure();
  SmallVector<Value> results(op->getResults().begin(), op->getResults().end());
  foldToConstants(op, results);
  return results;
}

void OpEmitter::foldToConstants(Operation *op,
                                SmallVectorImpl<Value> &results) {
  OpInfo *info = op->getInfo();
  if (!info->fold || op->hasTrait(OpTrait::ConstantLike))
    return;
  SmallVector<Attribute> constants;
  for (Value operand : op->getOperands())
    constants.push_back(getConstantValue(operand));
  SmallVector<OpFoldResult> folded;
  if (failed(info->fold(op, constants, folded)) ||
      folded.size() != op->getNumResults())
    return;
  // Only constants: an op that folds to one of its operands (x * 1 -> x) is
  // left for canonicalization, so that the import stays close to the model.
  for (auto [result, fold] : llvm::zip(op->getResults(), folded)) {
    if (fold.value) {
      if (!getConstantValue(fold.value))
        return;
      continue;
    }
    auto dense = dyn_cast_or_null<DenseElementsAttr>(fold.attr);
    if (!dense || dense.getType() != result.getType())
      return;
  }
  for (auto [i, fold] : llvm::enumerate(folded))
    results[i] =
        fold.value
            ? fold.value
            : createConstant(op->getLoc(), cast<DenseElementsAttr>(fold.attr));
  op->erase();
}

Value OpEmitter::createConstant(Location loc, DenseElementsAttr value) {
  Context *ctx = getContext();
  NamedAttribute attr{StringAttr::get(ctx, "value"), value};
  // A constant's type is that of its value; inference cannot fail.
  return createOp(builder, loc, "onnx.Constant", {}, attr)->getResult(0);
}

Value OpEmitter::getNoValue() {
  if (noValue)
    return noValue;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(body);
  OperationState state(builder.getUnknownLoc(), "onnx.NoValue");
  state.addAttribute("value", builder.getUnitAttr());
  state.addTypes(builder.getNoneType());
  noValue = builder.create(state)->getResult(0);
  return noValue;
}

//===----------------------------------------------------------------------===//
// NodeImporter
//===----------------------------------------------------------------------===//

NodeImporter::NodeImporter(OpEmitter &emitter, const pb::NodeProto &node,
                           int64_t opset, Location loc,
                           SmallVector<Value> operands, StringRef baseDir)
    : emitter(emitter), node(node), opset(opset), loc(loc),
      operands(std::move(operands)), baseDir(baseDir) {
  numResults = node.output_size();
  while (numResults > 0 && node.output(numResults - 1).empty())
    --numResults;
  for (const pb::AttributeProto &attr : node.attribute())
    pending.push_back(&attr);
}

StringRef NodeImporter::getOpType() const { return node.op_type(); }

StringRef NodeImporter::getDomain() const { return node.domain(); }

void NodeImporter::setOperand(unsigned i, Value value) {
  while (operands.size() <= i)
    operands.push_back(emitter.getNoValue());
  // A mapping that moves an operand the node left out moves its absence.
  operands[i] = value ? value : emitter.getNoValue();
}

const pb::AttributeProto *NodeImporter::takeAttribute(StringRef name) {
  auto it = llvm::find_if(pending, [&](const pb::AttributeProto *attr) {
    return attr->name() == name;
  });
  if (it == pending.end())
    return nullptr;
  const pb::AttributeProto *attr = *it;
  pending.erase(it);
  return attr;
}

/// The type of `attr`. Old producers leave `type` unset; the field that
/// holds a value tells it then.
static pb::AttributeProto::AttributeType
getAttributeKind(const pb::AttributeProto &attr) {
  if (attr.type() != pb::AttributeProto::UNDEFINED)
    return attr.type();
  if (attr.has_f())
    return pb::AttributeProto::FLOAT;
  if (attr.has_i())
    return pb::AttributeProto::INT;
  if (attr.has_s())
    return pb::AttributeProto::STRING;
  if (attr.has_t())
    return pb::AttributeProto::TENSOR;
  if (attr.has_g())
    return pb::AttributeProto::GRAPH;
  if (attr.has_sparse_tensor())
    return pb::AttributeProto::SPARSE_TENSOR;
  if (attr.floats_size())
    return pb::AttributeProto::FLOATS;
  if (attr.ints_size())
    return pb::AttributeProto::INTS;
  if (attr.strings_size())
    return pb::AttributeProto::STRINGS;
  if (attr.tensors_size())
    return pb::AttributeProto::TENSORS;
  if (attr.graphs_size())
    return pb::AttributeProto::GRAPHS;
  return pb::AttributeProto::UNDEFINED;
}

LogicalResult
NodeImporter::takeInts(StringRef name,
                       std::optional<SmallVector<int64_t>> &value) {
  value.reset();
  const pb::AttributeProto *attr = takeAttribute(name);
  if (!attr)
    return success();
  auto kind = getAttributeKind(*attr);
  if (kind != pb::AttributeProto::INTS && kind != pb::AttributeProto::UNDEFINED)
    return emitError() << "attribute '" << name
                       << "' must be a list of integers";
  value.emplace(attr->ints().begin(), attr->ints().end());
  return success();
}

LogicalResult NodeImporter::takeInt(StringRef name,
                                    std::optional<int64_t> &value) {
  value.reset();
  const pb::AttributeProto *attr = takeAttribute(name);
  if (!attr)
    return success();
  if (getAttributeKind(*attr) != pb::AttributeProto::INT)
    return emitError() << "attribute '" << name << "' must be an integer";
  value = attr->i();
  return success();
}

LogicalResult NodeImporter::takeFloat(StringRef name,
                                      std::optional<float> &value) {
  value.reset();
  const pb::AttributeProto *attr = takeAttribute(name);
  if (!attr)
    return success();
  if (getAttributeKind(*attr) != pb::AttributeProto::FLOAT)
    return emitError() << "attribute '" << name << "' must be a float";
  value = attr->f();
  return success();
}

LogicalResult
NodeImporter::takeFloats(StringRef name,
                         std::optional<SmallVector<double>> &value) {
  value.reset();
  const pb::AttributeProto *attr = takeAttribute(name);
  if (!attr)
    return success();
  auto kind = getAttributeKind(*attr);
  if (kind != pb::AttributeProto::FLOATS &&
      kind != pb::AttributeProto::UNDEFINED)
    return emitError() << "attribute '" << name << "' must be a list of floats";
  value.emplace(attr->floats().begin(), attr->floats().end());
  return success();
}

LogicalResult NodeImporter::takeString(StringRef name,
                                       std::optional<std::string> &value) {
  value.reset();
  const pb::AttributeProto *attr = takeAttribute(name);
  if (!attr)
    return success();
  if (getAttributeKind(*attr) != pb::AttributeProto::STRING)
    return emitError() << "attribute '" << name << "' must be a string";
  value = attr->s();
  return success();
}

void NodeImporter::setAttribute(StringRef name, Attribute value) {
  takeAttribute(name);
  auto it = llvm::find_if(converted, [&](const NamedAttribute &named) {
    return named.getName() == name;
  });
  if (it != converted.end())
    it->value = value;
  else
    converted.push_back({StringAttr::get(getContext(), name), value});
}

Value NodeImporter::createInts(ArrayRef<int64_t> values) {
  Tensor tensor =
      Tensor::fromInts(ElementType::I64, {int64_t(values.size())}, values);
  return emitter.createConstant(loc, tensor.toAttr(getContext()));
}

Value NodeImporter::createScalar(ElementType type, double value) {
  return emitter.createConstant(
      loc, Tensor::scalar(type, value).toAttr(getContext()));
}

FailureOr<Attribute>
NodeImporter::convertAttribute(const pb::AttributeProto &attr,
                               const AttrSpec *spec) {
  Context *ctx = getContext();
  StringRef name = attr.name();
  if (!attr.ref_attr_name().empty())
    return emitError() << "attribute '" << name
                       << "' refers to a function's attribute; functions "
                          "are not supported";
  auto kind = getAttributeKind(attr);
  // An empty list does not say of what.
  if (kind == pb::AttributeProto::UNDEFINED && spec &&
      (spec->type == AttrType::Ints || spec->type == AttrType::Floats))
    kind = spec->type == AttrType::Ints ? pb::AttributeProto::INTS
                                        : pb::AttributeProto::FLOATS;
  switch (kind) {
  case pb::AttributeProto::INT:
    // ONNX names element types by number (Cast's `to`); the dialect by type.
    if (spec && spec->type == AttrType::Type) {
      std::optional<ElementType> type = convertDataType(int32_t(attr.i()));
      if (!type)
        return emitError() << "attribute '" << name
                           << "': unsupported element type "
                           << getDataTypeName(int32_t(attr.i()));
      return Attribute(TypeAttr::get(getIRType(ctx, *type)));
    }
    return getIntAttr(ctx, attr.i());
  case pb::AttributeProto::FLOAT:
    return getFloatAttr(ctx, attr.f());
  case pb::AttributeProto::STRING:
    return Attribute(StringAttr::get(ctx, attr.s()));
  case pb::AttributeProto::INTS:
    return getIntsAttr(
        ctx, SmallVector<int64_t>(attr.ints().begin(), attr.ints().end()));
  case pb::AttributeProto::FLOATS:
    return getFloatsAttr(
        ctx, SmallVector<double>(attr.floats().begin(), attr.floats().end()));
  case pb::AttributeProto::STRINGS: {
    SmallVector<Attribute> strings;
    for (const std::string &str : attr.strings())
      strings.push_back(StringAttr::get(ctx, str));
    return Attribute(ArrayAttr::get(ctx, strings));
  }
  case pb::AttributeProto::TENSOR: {
    FailureOr<DenseElementsAttr> value =
        convertTensor(attr.t(), ctx, baseDir, loc, "attribute '" + name + "'");
    if (failed(value))
      return failure();
    return Attribute(*value);
  }
  case pb::AttributeProto::UNDEFINED:
    return emitError() << "attribute '" << name << "' has no value";
  default:
    return emitError() << "attribute '" << name << "' of type "
                       << pb::AttributeProto::AttributeType_Name(kind)
                       << " is not supported";
  }
}

FailureOr<SmallVector<NamedAttribute>> NodeImporter::convertAttributes() {
  Context *ctx = getContext();
  std::string opName = getDialectOpName(getDomain(), getOpType());
  const OpSchema *schema = lookupOpSchema(opName);
  SmallVector<NamedAttribute> attrs(converted);
  for (const pb::AttributeProto *attr : pending) {
    StringRef name = attr->name();
    if (llvm::any_of(attrs, [&](const NamedAttribute &named) {
          return named.getName() == name;
        }))
      return emitError() << "attribute '" << name << "' is given twice";
    const AttrSpec *spec = schema ? schema->lookupAttribute(name) : nullptr;
    FailureOr<Attribute> value = convertAttribute(*attr, spec);
    if (failed(value))
      return failure();
    attrs.push_back({StringAttr::get(ctx, name), *value});
  }
  return attrs;
}

FailureOr<SmallVector<Value>> NodeImporter::build() {
  std::string opName = getDialectOpName(getDomain(), getOpType());
  FailureOr<SmallVector<NamedAttribute>> attrs = convertAttributes();
  if (failed(attrs))
    return failure();
  // A trailing absent operand is the same as a left-out one; the shorter
  // form reads better.
  while (!operands.empty() && isNoValue(operands.back()))
    operands.pop_back();

  FailureOr<SmallVector<Value>> results =
      emitter.create(loc, opName, operands, *attrs, numResults);
  if (failed(results) || !resultShape)
    return results;
  FailureOr<SmallVector<Value>> reshaped = emitter.create(
      loc, "onnx.Reshape", {(*results)[0], createInts(*resultShape)});
  if (failed(reshaped))
    return failure();
  (*results)[0] = (*reshaped)[0];
  return results;
}

} // namespace onyx::onnx

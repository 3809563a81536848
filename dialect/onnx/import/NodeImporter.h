//===- NodeImporter.h - One ONNX node to onnx dialect ops -------*- C++ -*-===//
//
// Importing one node: its inputs are values imported before it, its
// attributes are still protobufs. The opset mapping (OpsetMapping.cpp) first
// rewrites the node into the dialect's canonical form (attributes that newer
// opsets take as inputs become constant operands, ...); build() then
// converts the attributes left against the op's schema and creates the op.
//
// OpEmitter creates every op of an import. It folds each op whose results
// all become constants, so that shape computations (Shape -> Gather ->
// Concat -> Reshape) turn into constants as they are imported and the ops
// after them can infer their shapes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/OpSchema.h"
#include "dialect/onnx/import/TensorProto.h"

#include "ir/Builder.h"

namespace onnx {
class AttributeProto;
class NodeProto;
} // namespace onnx

namespace onyx::onnx {

class OpEmitter {
public:
  /// Creates ops at the insertion point of `builder`; the onnx.NoValue goes
  /// to the start of `body`.
  OpEmitter(OpBuilder &builder, Block *body) : builder(builder), body(body) {}

  Context *getContext() const { return builder.getContext(); }

  /// Creates op `opName` through the dialect's createOp (inferring its
  /// result types). If all its results fold to constants, the op is replaced
  /// by them. Returns the results; fails after reporting an error.
  FailureOr<SmallVector<Value>> create(Location loc, StringRef opName,
                                       ValueRange operands,
                                       ArrayRef<NamedAttribute> attrs = {},
                                       unsigned numResults = 0);
  Value createConstant(Location loc, DenseElementsAttr value);
  /// The one onnx.NoValue of the function, for absent optional operands.
  Value getNoValue();

private:
  /// Replaces the results of `op` by constants if its fold gives constants
  /// for all of them.
  void foldToConstants(Operation *op, SmallVectorImpl<Value> &results);

  OpBuilder &builder;
  Block *body;
  Value noValue;
};

class NodeImporter {
public:
  /// `operands` are the node's inputs (onnx.NoValue for empty names).
  NodeImporter(OpEmitter &emitter, const pb::NodeProto &node, int64_t opset,
               Location loc, SmallVector<Value> operands, StringRef baseDir);

  StringRef getOpType() const;
  /// The node's domain ("" for ai.onnx).
  StringRef getDomain() const;
  /// The version of the ai.onnx opset the model imports.
  int64_t getOpset() const { return opset; }
  Location getLoc() const { return loc; }
  Context *getContext() const { return emitter.getContext(); }
  OpEmitter &getEmitter() { return emitter; }
  InFlightDiagnostic emitError() const { return onyx::emitError(loc); }

  /// Operands of the op to create; a null value past the end.
  unsigned getNumOperands() const { return operands.size(); }
  Value getOperand(unsigned i) const {
    return i < operands.size() ? operands[i] : Value();
  }
  /// Sets operand `i` (absent where `value` is null), filling any gap before
  /// it with onnx.NoValue.
  void setOperand(unsigned i, Value value);
  /// The number of results the node uses (trailing unused ones left out).
  unsigned getNumResults() const { return numResults; }

  /// Removes the ONNX attribute `name` from those still to convert and
  /// returns it; null if the node does not have it (any more).
  const pb::AttributeProto *takeAttribute(StringRef name);
  /// Typed variants: `value` is nullopt when the attribute is absent; they
  /// fail with an error when it has another type.
  LogicalResult takeInts(StringRef name,
                         std::optional<SmallVector<int64_t>> &value);
  LogicalResult takeInt(StringRef name, std::optional<int64_t> &value);
  LogicalResult takeFloat(StringRef name, std::optional<float> &value);
  LogicalResult takeFloats(StringRef name,
                           std::optional<SmallVector<double>> &value);
  LogicalResult takeString(StringRef name, std::optional<std::string> &value);
  /// Sets an attribute of the op to create in the dialect's form.
  void setAttribute(StringRef name, Attribute value);

  /// A 1-D i64 constant (axes, pads, starts, ...).
  Value createInts(ArrayRef<int64_t> values);
  /// A 0-d constant of element type `type`.
  Value createScalar(ElementType type, double value);
  /// After build() creates the op, its first result is reshaped to `shape`.
  void reshapeResultTo(ArrayRef<int64_t> shape) {
    resultShape.emplace(shape.begin(), shape.end());
  }

  /// Converts the attributes left, creates the op (`onnx.<OpType>`, or
  /// `onnx.<domain>.<OpType>` outside ai.onnx) and returns one
  /// value per node output (null for unused outputs).
  FailureOr<SmallVector<Value>> build();
  /// The attributes left and those the mapping set, in the dialect's form
  /// (for ops built without createOp: If, Loop, Scan).
  FailureOr<SmallVector<NamedAttribute>> convertAttributes();

private:
  FailureOr<Attribute> convertAttribute(const pb::AttributeProto &attr,
                                        const AttrSpec *spec);

  OpEmitter &emitter;
  const pb::NodeProto &node;
  int64_t opset;
  Location loc;
  SmallVector<Value> operands;
  StringRef baseDir;
  unsigned numResults;
  /// ONNX attributes not yet converted, in the node's order.
  SmallVector<const pb::AttributeProto *> pending;
  /// Attributes set by the opset mapping, in the dialect's form.
  SmallVector<NamedAttribute> converted;
  std::optional<SmallVector<int64_t>> resultShape;
};

} // namespace onyx::onnx

//===- OpSchema.h - Operands and attributes of each onnx op -----*- C++ -*-===//
//
// The public description of every supported onnx op: its operands and
// results (required, optional, variadic), its attributes with their types
// and defaults, and its traits. The importer validates ONNX nodes against
// it; passes read attributes through OpAttrs, which applies the defaults.
//
// Attribute convention: an attribute equal to its default may be left out
// of the IR (and normalizeAttributes() leaves it out), so printed IR shows
// only what differs from the ONNX spec's defaults. Code never reads an
// attribute from the dictionary directly; OpAttrs gives the default when it
// is absent. Integer attributes may have any integer type (onnx-mlir writes
// `si64`, hand-written IR often `i64`); onyx creates `si64`, floats as
// `f32`, lists as arrays of those, as onnx-mlir does.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Attributes.h"
#include "ir/OperationSupport.h"

#include <optional>

namespace onyx::onnx {

enum class Presence : uint8_t {
  Required,
  /// May be absent: a `none` value (onnx.NoValue) in its place, or, when it
  /// is the last operand or result, left out.
  Optional,
  /// One or more (only the last operand or result): ONNX's variadic
  /// inputs and outputs of the supported ops all have a minimum arity of 1.
  /// Never `none`.
  Variadic,
};

struct ValueSpec {
  StringRef name;
  Presence presence = Presence::Required;
};

enum class AttrType : uint8_t {
  Int,
  Float,
  String,
  Ints,
  Floats,
  /// An array of strings (the recurrent ops' `activations`).
  Strings,
  /// A DenseElementsAttr (Constant's value, ConstantOfShape's value).
  Tensor,
  /// A TypeAttr holding an element type (Cast's `to`).
  Type,
};

struct AttrSpec {
  StringRef name;
  AttrType type;
  /// Required attributes must be present. An optional one without a default
  /// has a meaning of its own when absent (Transpose without `perm`
  /// reverses the dimensions), documented where the op is defined.
  bool required = false;
  bool hasDefault = false;
  int64_t intDefault = 0;
  double floatDefault = 0;
  StringRef stringDefault;
  /// The values a String attribute may take; empty for any.
  ArrayRef<StringRef> allowedValues;
};

/// Shorthands for the schema tables.
constexpr AttrSpec intAttr(StringRef name, int64_t value) {
  return {name, AttrType::Int, false, true, value, 0, {}, {}};
}
constexpr AttrSpec floatAttr(StringRef name, double value) {
  return {name, AttrType::Float, false, true, 0, value, {}, {}};
}
constexpr AttrSpec stringAttr(StringRef name, StringRef value,
                              ArrayRef<StringRef> allowed = {}) {
  return {name, AttrType::String, false, true, 0, 0, value, allowed};
}
constexpr AttrSpec optionalAttr(StringRef name, AttrType type) {
  return {name, type, false, false, 0, 0, {}, {}};
}
constexpr AttrSpec requiredAttr(StringRef name, AttrType type) {
  return {name, type, true, false, 0, 0, {}, {}};
}

struct OpSchema {
  /// Full name, e.g. "onnx.Add".
  StringRef name;
  ArrayRef<ValueSpec> operands;
  ArrayRef<ValueSpec> results;
  ArrayRef<AttrSpec> attributes;
  OpTrait traits = OpTrait::None;

  const AttrSpec *lookupAttribute(StringRef attrName) const;
  /// Operand counts the op accepts: [min, max], max = UINT_MAX if variadic
  /// (a trailing variadic operand counts 1 towards the minimum).
  unsigned getMinOperands() const;
  unsigned getMaxOperands() const;
  unsigned getMinResults() const;
  unsigned getMaxResults() const;
};

/// Every supported op, sorted by name.
ArrayRef<const OpSchema *> getOpSchemas();
/// The schema of `opName` ("onnx.Add"); null if the op is not supported.
const OpSchema *lookupOpSchema(StringRef opName);

/// Typed reading of an op's attributes with the schema's defaults applied.
/// Asking for an attribute the schema does not declare is a bug (asserts);
/// a value of the wrong kind reads as the default (the verifier rejects
/// such IR before passes run).
class OpAttrs {
public:
  OpAttrs(const OpSchema &schema, DictionaryAttr attrs)
      : schema(schema), attrs(attrs) {}
  /// The attributes of `op`, which must be a supported onnx op.
  explicit OpAttrs(Operation *op);

  bool has(StringRef name) const;
  int64_t getInt(StringRef name) const;
  double getFloat(StringRef name) const;
  StringRef getString(StringRef name) const;
  /// Absent lists read as nullopt.
  std::optional<SmallVector<int64_t>> getInts(StringRef name) const;
  std::optional<SmallVector<double>> getFloats(StringRef name) const;
  /// Absent lists read as empty.
  SmallVector<StringRef> getStrings(StringRef name) const;
  DenseElementsAttr getTensor(StringRef name) const;
  Type getType(StringRef name) const;

  const OpSchema &getSchema() const { return schema; }
  DictionaryAttr getDictionary() const { return attrs; }

private:
  Attribute lookup(StringRef name) const;
  const OpSchema &schema;
  DictionaryAttr attrs;
};

/// Checks `attrs` against the schema: unknown names, wrong kinds, missing
/// required attributes, string values outside the allowed set. Reports at
/// `loc` and fails on the first problem.
LogicalResult verifyAttributes(const OpSchema &schema, DictionaryAttr attrs,
                               Location loc);

/// `attrs` without the entries equal to their defaults, integers as si64 and
/// floats as f32 (the one canonical spelling, so equal ops compare equal).
DictionaryAttr normalizeAttributes(Context *ctx, const OpSchema &schema,
                                   DictionaryAttr attrs);

/// Attribute builders in the canonical spelling.
Attribute getIntAttr(Context *ctx, int64_t value);
Attribute getFloatAttr(Context *ctx, double value);
Attribute getIntsAttr(Context *ctx, ArrayRef<int64_t> values);
Attribute getFloatsAttr(Context *ctx, ArrayRef<double> values);

} // namespace onyx::onnx

//===- OpSchema.cpp - Op schemas, attribute reading and checking ----------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include <climits>

namespace onyx::onnx {

const AttrSpec *OpSchema::lookupAttribute(StringRef attrName) const {
  for (const AttrSpec &spec : attributes)
    if (spec.name == attrName)
      return &spec;
  return nullptr;
}

static unsigned countMin(ArrayRef<ValueSpec> specs) {
  // Optional values may only be left out at the end; inner ones take a
  // none value, so they count towards the minimum. A trailing variadic
  // value needs at least one.
  unsigned n = specs.size();
  if (n > 0 && specs[n - 1].presence == Presence::Variadic)
    return n;
  while (n > 0 && specs[n - 1].presence == Presence::Optional)
    --n;
  return n;
}

static unsigned countMax(ArrayRef<ValueSpec> specs) {
  if (!specs.empty() && specs.back().presence == Presence::Variadic)
    return UINT_MAX;
  return specs.size();
}

unsigned OpSchema::getMinOperands() const { return countMin(operands); }
unsigned OpSchema::getMaxOperands() const { return countMax(operands); }
unsigned OpSchema::getMinResults() const { return countMin(results); }
unsigned OpSchema::getMaxResults() const { return countMax(results); }

ArrayRef<const OpSchema *> getOpSchemas() {
  static const std::vector<const OpSchema *> schemas = [] {
    std::vector<const OpSchema *> result;
    for (const OpDef *def : getOpDefs())
      result.push_back(&def->schema);
    return result;
  }();
  return schemas;
}

const OpSchema *lookupOpSchema(StringRef opName) {
  const OpDef *def = lookupOpDef(opName);
  return def ? &def->schema : nullptr;
}

//===----------------------------------------------------------------------===//
// OpAttrs
//===----------------------------------------------------------------------===//

static const OpSchema &getSchemaOf(Operation *op) {
  const OpDef *def = lookupOpDef(op);
  assert(def && "not a supported onnx op");
  return def->schema;
}

OpAttrs::OpAttrs(Operation *op)
    : schema(getSchemaOf(op)), attrs(op->getAttrDictionary()) {}

Attribute OpAttrs::lookup(StringRef name) const {
  assert(schema.lookupAttribute(name) && "attribute not in the op's schema");
  return attrs ? attrs.get(name) : Attribute();
}

bool OpAttrs::has(StringRef name) const { return bool(lookup(name)); }

int64_t OpAttrs::getInt(StringRef name) const {
  if (auto attr = dyn_cast_or_null<IntegerAttr>(lookup(name)))
    return attr.getInt();
  return schema.lookupAttribute(name)->intDefault;
}

double OpAttrs::getFloat(StringRef name) const {
  if (auto attr = dyn_cast_or_null<FloatAttr>(lookup(name)))
    return attr.getValueAsDouble();
  return schema.lookupAttribute(name)->floatDefault;
}

StringRef OpAttrs::getString(StringRef name) const {
  if (auto attr = dyn_cast_or_null<StringAttr>(lookup(name)))
    return attr.getValue();
  return schema.lookupAttribute(name)->stringDefault;
}

std::optional<SmallVector<int64_t>> OpAttrs::getInts(StringRef name) const {
  auto array = dyn_cast_or_null<ArrayAttr>(lookup(name));
  if (!array)
    return std::nullopt;
  SmallVector<int64_t> result;
  for (Attribute a : array)
    if (auto i = dyn_cast<IntegerAttr>(a))
      result.push_back(i.getInt());
  return result;
}

std::optional<SmallVector<double>> OpAttrs::getFloats(StringRef name) const {
  auto array = dyn_cast_or_null<ArrayAttr>(lookup(name));
  if (!array)
    return std::nullopt;
  SmallVector<double> result;
  for (Attribute a : array)
    if (auto f = dyn_cast<FloatAttr>(a))
      result.push_back(f.getValueAsDouble());
  return result;
}

SmallVector<StringRef> OpAttrs::getStrings(StringRef name) const {
  SmallVector<StringRef> result;
  if (auto array = dyn_cast_or_null<ArrayAttr>(lookup(name)))
    for (Attribute a : array)
      if (auto str = dyn_cast<StringAttr>(a))
        result.push_back(str.getValue());
  return result;
}

DenseElementsAttr OpAttrs::getTensor(StringRef name) const {
  return dyn_cast_or_null<DenseElementsAttr>(lookup(name));
}

Type OpAttrs::getType(StringRef name) const {
  if (auto attr = dyn_cast_or_null<TypeAttr>(lookup(name)))
    return attr.getValue();
  return {};
}

//===----------------------------------------------------------------------===//
// Checking and normalizing
//===----------------------------------------------------------------------===//

static StringRef describe(AttrType type) {
  switch (type) {
  case AttrType::Int:
    return "an integer";
  case AttrType::Float:
    return "a float";
  case AttrType::String:
    return "a string";
  case AttrType::Ints:
    return "an array of integers";
  case AttrType::Floats:
    return "an array of floats";
  case AttrType::Strings:
    return "an array of strings";
  case AttrType::Tensor:
    return "a dense elements attribute";
  case AttrType::Type:
    return "a type";
  }
  llvm_unreachable("unknown attribute type");
}

static bool hasKind(Attribute attr, AttrType type) {
  switch (type) {
  case AttrType::Int:
    return isa<IntegerAttr>(attr);
  case AttrType::Float:
    return isa<FloatAttr>(attr);
  case AttrType::String:
    return isa<StringAttr>(attr);
  case AttrType::Ints:
  case AttrType::Floats:
  case AttrType::Strings: {
    auto array = dyn_cast<ArrayAttr>(attr);
    if (!array)
      return false;
    return llvm::all_of(array, [&](Attribute a) {
      return type == AttrType::Ints     ? isa<IntegerAttr>(a)
             : type == AttrType::Floats ? isa<FloatAttr>(a)
                                        : isa<StringAttr>(a);
    });
  }
  case AttrType::Tensor:
    return isa<DenseElementsAttr>(attr);
  case AttrType::Type:
    return isa<TypeAttr>(attr);
  }
  llvm_unreachable("unknown attribute type");
}

LogicalResult verifyAttributes(const OpSchema &schema, DictionaryAttr attrs,
                               Location loc) {
  if (attrs) {
    for (const NamedAttribute &named : attrs) {
      const AttrSpec *spec = schema.lookupAttribute(named.getName());
      if (!spec)
        return emitError(loc) << "'" << schema.name << "' op has no attribute '"
                              << named.getName() << "'";
      if (!hasKind(named.value, spec->type))
        return emitError(loc)
               << "'" << schema.name << "' op attribute '" << spec->name
               << "' must be " << describe(spec->type) << ", got "
               << named.value;
      if (!spec->allowedValues.empty()) {
        StringRef value = cast<StringAttr>(named.value).getValue();
        if (!llvm::is_contained(spec->allowedValues, value)) {
          auto diag = emitError(loc) << "'" << schema.name << "' op attribute '"
                                     << spec->name << "' must be one of ";
          llvm::interleave(
              spec->allowedValues,
              [&](StringRef v) { diag << "\"" << v << "\""; },
              [&] { diag << ", "; });
          return diag << "; got \"" << value << "\"";
        }
      }
    }
  }
  for (const AttrSpec &spec : schema.attributes)
    if (spec.required && !(attrs && attrs.get(spec.name)))
      return emitError(loc) << "'" << schema.name << "' op requires attribute '"
                            << spec.name << "'";
  return success();
}

Attribute getIntAttr(Context *ctx, int64_t value) {
  return IntegerAttr::get(IntegerType::get(ctx, 64, IntegerType::Signed),
                          value);
}

Attribute getFloatAttr(Context *ctx, double value) {
  return FloatAttr::get(FloatType::getF32(ctx), value);
}

Attribute getIntsAttr(Context *ctx, ArrayRef<int64_t> values) {
  SmallVector<Attribute> elements;
  for (int64_t v : values)
    elements.push_back(IntegerAttr::get(IntegerType::get(ctx, 64), v));
  return ArrayAttr::get(ctx, elements);
}

Attribute getFloatsAttr(Context *ctx, ArrayRef<double> values) {
  SmallVector<Attribute> elements;
  for (double v : values)
    elements.push_back(getFloatAttr(ctx, v));
  return ArrayAttr::get(ctx, elements);
}

DictionaryAttr normalizeAttributes(Context *ctx, const OpSchema &schema,
                                   DictionaryAttr attrs) {
  SmallVector<NamedAttribute> result;
  if (attrs) {
    for (const NamedAttribute &named : attrs) {
      const AttrSpec *spec = schema.lookupAttribute(named.getName());
      Attribute value = named.value;
      if (spec && spec->type == AttrType::Int && isa<IntegerAttr>(value)) {
        int64_t v = cast<IntegerAttr>(value).getInt();
        if (spec->hasDefault && v == spec->intDefault)
          continue;
        value = getIntAttr(ctx, v);
      } else if (spec && spec->type == AttrType::Float &&
                 isa<FloatAttr>(value)) {
        double v = cast<FloatAttr>(value).getValueAsDouble();
        // Defaults are compared at the precision the attribute is stored.
        if (spec->hasDefault && float(v) == float(spec->floatDefault))
          continue;
        value = getFloatAttr(ctx, v);
      } else if (spec && spec->type == AttrType::String &&
                 isa<StringAttr>(value)) {
        if (spec->hasDefault &&
            cast<StringAttr>(value).getValue() == spec->stringDefault)
          continue;
      }
      result.push_back({named.name, value});
    }
  }
  return DictionaryAttr::getSorted(ctx, result);
}

} // namespace onyx::onnx

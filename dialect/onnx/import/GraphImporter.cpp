//===- GraphImporter.cpp - An ONNX graph to func.func @main ---------------===//
//
// The graph level of the import: graph inputs and the sizes bound to their
// dimensions, initializers and given inputs as constants at first use, the
// types the model declares, each node through NodeImporter (control flow
// through ControlFlowImporter.cpp), the outputs, and the module.
//
// Locations: an op gets `loc("node_name")`, as onnx-mlir gives it (nodes
// without a name are named after their first output), and an initializer's
// constant `loc("initializer_name")`, so that printed IR stays short. An
// error while importing a node is reported at the model file and names the
// node and its op type: `model.onnx: error: node 'Gemm_0' (Gemm): ...`.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/import/GraphImporterImpl.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/import/OpsetMapping.h"

#include "ir/Block.h"
#include "ir/Operation.h"
#include "ir/Region.h"

#include "llvm/ADT/StringExtras.h"

namespace onyx::onnx {

using detail::GraphImporter;
using detail::Scope;

namespace {

/// Collects the diagnostics of one node's import and reports them again at
/// the model file, naming the node: the ops' own locations (`loc("name")`)
/// do not say which file they come from.
class NodeDiagnostics {
public:
  NodeDiagnostics(Context *ctx, Location fileLoc, std::string prefix)
      : ctx(ctx), fileLoc(fileLoc), prefix(std::move(prefix)) {
    collector.emplace(ctx);
  }
  /// A note for each error.
  void setNote(std::string text) { note = std::move(text); }
  ~NodeDiagnostics() {
    std::vector<Diagnostic> diags = std::move(collector->getDiagnostics());
    collector.reset();
    for (Diagnostic &diag : diags) {
      Diagnostic reported(fileLoc, diag.getSeverity());
      reported << prefix << diag.str();
      for (const std::unique_ptr<Diagnostic> &inner : diag.getNotes())
        reported.attachNote(inner->getLocation()) << inner->str();
      if (diag.getSeverity() == DiagnosticSeverity::Error && !note.empty())
        reported.attachNote() << note;
      ctx->getDiagEngine().emit(std::move(reported));
    }
  }

private:
  Context *ctx;
  Location fileLoc;
  std::string prefix;
  std::string note;
  std::optional<ScopedDiagnosticCollector> collector;
};

} // namespace

LogicalResult GraphImporter::bindInputShape(const pb::ValueInfoProto &input,
                                            ArrayRef<int64_t> shape,
                                            bool bindNames) {
  const pb::TypeProto &type = input.type();
  if (!type.has_tensor_type() || !type.tensor_type().has_shape())
    return success();
  const pb::TensorShapeProto &declaredShape = type.tensor_type().shape();
  if (declaredShape.dim_size() != int64_t(shape.size()))
    return emitError(fileLoc)
           << "input '" << input.name() << "' has rank "
           << declaredShape.dim_size() << ", given a shape of rank "
           << uint64_t(shape.size());
  for (auto [i, dim] : llvm::enumerate(declaredShape.dim())) {
    if (shape[i] < 0)
      continue;
    if (dim.has_dim_value() && dim.dim_value() != shape[i])
      return emitError(fileLoc)
             << "input '" << input.name() << "' has size " << dim.dim_value()
             << " in dimension " << uint64_t(i) << ", given " << shape[i];
    if (!dim.has_dim_param()) {
      // A dimension with neither a size nor a name (as exporters leave
      // the ones they know nothing about) can be bound only here, by its
      // place in this input.
      if (!dim.has_dim_value())
        anonymousSizes[input.name()].push_back({unsigned(i), shape[i]});
      continue;
    }
    if (!bindNames)
      continue;
    auto [it, inserted] = bindings.try_emplace(dim.dim_param(), shape[i]);
    if (!inserted && it->second != shape[i])
      return emitError(fileLoc)
             << "dimension '" << dim.dim_param() << "' is bound to "
             << it->second << " and, by input '" << input.name() << "', to "
             << shape[i];
  }
  return success();
}

LogicalResult GraphImporter::addConstantInput(const pb::ValueInfoProto &input,
                                              const Tensor &value) {
  const pb::TypeProto &type = input.type();
  if (type.has_tensor_type() &&
      convertDataType(type.tensor_type().elem_type()) != value.getElementType())
    return emitError(fileLoc)
           << "input '" << input.name() << "' has element type "
           << getDataTypeName(type.tensor_type().elem_type())
           << ", given a value of element type "
           << getTypeName(value.getElementType());
  if (failed(bindInputShape(input, value.getShape())))
    return failure();
  constantInputs[input.name()] = value.toAttr(ctx);
  return success();
}

LogicalResult GraphImporter::bindDimensions() {
  for (const auto &binding : options.dimBindings)
    bindings[binding.getKey()] = binding.getValue();
  for (const auto &entry : options.constantInputs) {
    auto it = llvm::find_if(graph.input(), [&](const pb::ValueInfoProto &in) {
      return in.name() == entry.getKey();
    });
    if (it == graph.input().end() || initializers.count(entry.getKey()))
      return emitError(fileLoc) << "'" << entry.getKey()
                                << "', given a value, is not an input of "
                                   "the model";
    if (failed(addConstantInput(*it, entry.getValue())))
      return failure();
  }
  unsigned next = 0;
  for (const pb::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name()) || constantInputs.count(input.name()))
      continue;
    if (next < options.inputShapes.size() &&
        failed(bindInputShape(input, options.inputShapes[next],
                              options.bindNamedDims)))
      return failure();
    ++next;
  }
  if (options.inputShapes.size() > next)
    return emitError(fileLoc)
           << "the model has " << next << " inputs, given "
           << uint64_t(options.inputShapes.size()) << " input shapes";
  return success();
}

SmallVector<int64_t>
GraphImporter::convertShape(const pb::TensorShapeProto &shape) {
  SmallVector<int64_t> dims;
  for (const pb::TensorShapeProto::Dimension &dim : shape.dim()) {
    if (dim.has_dim_value() && dim.dim_value() >= 0) {
      dims.push_back(dim.dim_value());
      continue;
    }
    dims.push_back(ShapedType::kDynamic);
    if (!dim.has_dim_param())
      continue;
    symbols.insert(dim.dim_param());
    auto it = bindings.find(dim.dim_param());
    if (it != bindings.end())
      dims.back() = it->second;
  }
  return dims;
}

/// Adds to `producers` the node that produces each value in `graph` and the
/// graphs nested in it (the first producer of a name that subgraphs reuse).
static void mapProducers(const pb::GraphProto &graph,
                         llvm::StringMap<const pb::NodeProto *> &producers) {
  for (const pb::NodeProto &node : graph.node()) {
    for (const std::string &output : node.output())
      producers.try_emplace(output, &node);
    for (const pb::AttributeProto &attr : node.attribute())
      if (attr.has_g())
        mapProducers(attr.g(), producers);
  }
}

/// The inputs of `graph` that the condition of an If, in it or in a graph
/// nested in it, is computed from.
static llvm::StringSet<> findConditionInputs(const pb::GraphProto &graph) {
  llvm::StringMap<const pb::NodeProto *> producers;
  mapProducers(graph, producers);
  SmallVector<StringRef> worklist;
  for (const auto &entry : producers)
    if (entry.second->op_type() == "If" && entry.second->input_size() > 0)
      worklist.push_back(entry.second->input(0));
  llvm::StringSet<> inputs, seen;
  for (const pb::ValueInfoProto &input : graph.input())
    inputs.insert(input.name());
  llvm::StringSet<> found;
  while (!worklist.empty()) {
    StringRef name = worklist.pop_back_val();
    if (!seen.insert(name).second)
      continue;
    if (inputs.contains(name))
      found.insert(name);
    if (const pb::NodeProto *node = producers.lookup(name))
      for (const std::string &operand : node->input())
        worklist.push_back(operand);
  }
  return found;
}

/// What kind of value a non-tensor type describes.
static StringRef describeTypeKind(const pb::TypeProto &type) {
  switch (type.value_case()) {
  case pb::TypeProto::kSequenceType:
    return "a sequence";
  case pb::TypeProto::kMapType:
    return "a map";
  case pb::TypeProto::kOptionalType:
    return "an optional";
  case pb::TypeProto::kSparseTensorType:
    return "a sparse tensor";
  default:
    return "of an unknown type";
  }
}

LogicalResult checkInputDeclaration(const pb::ValueInfoProto &info,
                                    Location loc) {
  const pb::TypeProto &type = info.type();
  if (!type.has_tensor_type())
    return emitError(loc) << "input '" << info.name() << "' is "
                          << describeTypeKind(type)
                          << "; only tensors are supported";
  const pb::TypeProto::Tensor &tensor = type.tensor_type();
  if (!convertDataType(tensor.elem_type()))
    return emitError(loc) << "input '" << info.name()
                          << "' has unsupported element type "
                          << getDataTypeName(tensor.elem_type());
  if (!tensor.has_shape())
    return emitError(loc) << "input '" << info.name()
                          << "' has no shape; its rank must be known";
  for (const pb::TensorShapeProto::Dimension &dim : tensor.shape().dim())
    if (dim.has_dim_value() && dim.dim_value() < 0)
      return emitError(loc)
             << "input '" << info.name() << "' has a negative dimension";
  return success();
}

FailureOr<RankedTensorType>
GraphImporter::convertInputType(const pb::ValueInfoProto &info) {
  if (failed(checkInputDeclaration(info, fileLoc)))
    return failure();
  const pb::TypeProto::Tensor &tensor = info.type().tensor_type();
  return RankedTensorType::get(
      convertShape(tensor.shape()),
      getIRType(ctx, *convertDataType(tensor.elem_type())));
}

LogicalResult GraphImporter::checkDeclaredTypes(StringRef name, Value value) {
  for (const pb::ValueInfoProto *info : scope->declared.lookup(name))
    if (failed(checkDeclaredType(name, *info, value)))
      return failure();
  return success();
}

LogicalResult GraphImporter::checkDeclaredType(StringRef name,
                                               const pb::ValueInfoProto &info,
                                               Value value) {
  auto actual = cast<RankedTensorType>(value.getType());
  auto mismatch = [&](const llvm::Twine &what) {
    return emitError(fileLoc) << "'" << name << "' is declared " << what
                              << ", but its value has type " << Type(actual);
  };
  const pb::TypeProto &type = info.type();
  if (type.value_case() == pb::TypeProto::VALUE_NOT_SET)
    return success();
  if (!type.has_tensor_type())
    return mismatch(("as " + describeTypeKind(type)).str());
  const pb::TypeProto::Tensor &tensor = type.tensor_type();
  // Element type 0 (UNDEFINED) and an absent shape declare nothing.
  if (tensor.elem_type() != pb::TensorProto::UNDEFINED) {
    std::optional<ElementType> elementType =
        convertDataType(tensor.elem_type());
    if (!elementType || getIRType(ctx, *elementType) != actual.getElementType())
      return mismatch("with element type " +
                      getDataTypeName(tensor.elem_type()));
  }
  if (!tensor.has_shape())
    return success();
  SmallVector<int64_t> shape = convertShape(tensor.shape());
  bool compatible = int64_t(shape.size()) == actual.getRank();
  for (unsigned i = 0; compatible && i < shape.size(); ++i)
    compatible = ShapedType::isDynamic(shape[i]) ||
                 ShapedType::isDynamic(actual.getShape()[i]) ||
                 shape[i] == actual.getShape()[i];
  if (compatible)
    return success();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "with shape [";
  llvm::interleaveComma(shape, os, [&](int64_t dim) {
    if (ShapedType::isDynamic(dim))
      os << '?';
    else
      os << dim;
  });
  os << ']';
  return mismatch(os.str());
}

FailureOr<Value> GraphImporter::lookupValue(const std::string &name) {
  Location loc = NameLoc::get(StringAttr::get(ctx, name));
  // The innermost scope that defines the name; a subgraph's names hide
  // those of the graphs around it.
  for (Scope *s = scope; s; s = s->parent) {
    auto it = s->values.find(name);
    if (it != s->values.end())
      return it->second;
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(s->block);
    if (DenseElementsAttr value =
            s == &mainScope ? constantInputs.lookup(name) : nullptr) {
      Value constant = emitter->createConstant(loc, value);
      s->values[name] = constant;
      return constant;
    }
    auto init = s->initializers.find(name);
    if (init == s->initializers.end())
      continue;
    FailureOr<DenseElementsAttr> value = convertTensor(
        *init->second, ctx, baseDir, fileLoc, "initializer '" + name + "'");
    if (failed(value))
      return failure();
    s->initializers.erase(init);
    Value constant = emitter->createConstant(loc, *value);
    s->values[name] = constant;
    return constant;
  }
  return emitError(fileLoc)
         << "'" << name
         << "' is not a graph input, an initializer or the output of an "
            "earlier node"
         << (scope != &mainScope ? " of this graph or an enclosing one" : "");
}

std::string GraphImporter::describeUnboundDimensions() const {
  SmallVector<StringRef> unbound;
  for (const auto &symbol : symbols)
    if (!bindings.count(symbol.getKey()))
      unbound.push_back(symbol.getKey());
  if (unbound.empty())
    return {};
  llvm::sort(unbound);
  return "shapes computed from symbolic dimensions without a size are not "
         "constants; bind these to sizes: " +
         llvm::join(unbound, ", ");
}

LogicalResult GraphImporter::importNode(const pb::NodeProto &node) {
  std::string name = node.name();
  if (name.empty() && node.output_size())
    name = node.output(0);
  StringRef opType = node.op_type();
  NodeDiagnostics diagnostics(ctx,
                              NameLoc::get(StringAttr::get(ctx, name), fileLoc),
                              ("node '" + name + "' (" + opType + "): ").str());
  Location loc = NameLoc::get(StringAttr::get(ctx, name));

  SmallVector<Value> operands;
  for (const std::string &input : node.input()) {
    if (input.empty()) {
      operands.push_back(emitter->getNoValue());
      continue;
    }
    FailureOr<Value> value = lookupValue(input);
    if (failed(value))
      return failure();
    operands.push_back(*value);
  }
  // Where dynamic dimensions reach a node, a failure to infer its shapes is
  // most likely for want of a binding.
  if (llvm::any_of(operands, [](Value v) {
        auto type = dyn_cast<RankedTensorType>(v.getType());
        return type && !type.hasStaticShape();
      }))
    diagnostics.setNote(describeUnboundDimensions());
  SmallVector<Value> results;
  if (isOnnxDomain(node.domain()) &&
      (opType == "If" || opType == "Loop" || opType == "Scan")) {
    if (failed(importControlFlow(node, loc, std::move(operands), results)))
      return failure();
  } else {
    NodeImporter importer(*emitter, node, opset, loc, std::move(operands),
                          baseDir);
    if (failed(mapToCanonicalForm(importer)))
      return failure();
    FailureOr<SmallVector<Value>> built = importer.build();
    if (failed(built))
      return failure();
    results.assign(built->begin(), built->begin() + importer.getNumResults());
  }
  for (unsigned i = 0, e = std::min<size_t>(results.size(), node.output_size());
       i < e; ++i) {
    const std::string &output = node.output(i);
    if (output.empty())
      continue;
    if (!scope->values.try_emplace(output, results[i]).second ||
        scope->initializers.count(output))
      return emitError(fileLoc) << "'" << output << "' is defined twice";
    if (failed(checkDeclaredTypes(output, results[i])))
      return failure();
  }
  return success();
}

LogicalResult GraphImporter::importOutputs(FuncOp func) {
  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  SmallVector<Attribute> resultAttrs;
  for (const pb::ValueInfoProto &output : graph.output()) {
    bool computed = values.count(output.name());
    if (!computed && !initializers.count(output.name()) &&
        !constantInputs.count(output.name()))
      return emitError(fileLoc) << "graph output '" << output.name()
                                << "' is not computed by the graph";
    FailureOr<Value> value = lookupValue(output.name());
    if (failed(value))
      return failure();
    // A node's outputs were checked when it was imported.
    if (!computed && failed(checkDeclaredTypes(output.name(), *value)))
      return failure();
    results.push_back(*value);
    resultTypes.push_back(value->getType());
    resultAttrs.push_back(builder.getDictionaryAttr(builder.getNamedAttr(
        "onnx.name", builder.getStringAttr(output.name()))));
  }
  builder.create<ReturnOp>(fileLoc, results);
  func.setFunctionType(
      builder.getFunctionType(func.getFunctionType().getInputs(), resultTypes));
  if (!resultAttrs.empty())
    func->setAttr("res_attrs", builder.getArrayAttr(resultAttrs));
  return success();
}

/// Folding leaves the constants it consumed behind; the import does not
/// keep what nothing uses.
void GraphImporter::eraseUnusedConstants(Block *body) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
    if (op.hasTrait(OpTrait::ConstantLike) && op.use_empty())
      op.erase();
}

void GraphImporter::warnAboutUnusedBindings() {
  SmallVector<StringRef> unused;
  for (const auto &binding : options.dimBindings)
    if (!symbols.count(binding.getKey()))
      unused.push_back(binding.getKey());
  llvm::sort(unused);
  for (StringRef name : unused)
    emitWarning(fileLoc) << "'" << name
                         << "' is not a symbolic dimension of the model";
}

OwningOpRef<ModuleOp> GraphImporter::run() {
  for (const pb::TensorProto &init : graph.initializer())
    initializers[init.name()] = &init;
  if (graph.sparse_initializer_size()) {
    emitError(fileLoc) << "sparse initializers are not supported";
    return nullptr;
  }
  for (const pb::ValueInfoProto &info : graph.value_info())
    mainScope.declared[info.name()].push_back(&info);
  for (const pb::ValueInfoProto &info : graph.output())
    mainScope.declared[info.name()].push_back(&info);
  if (failed(bindDimensions()))
    return nullptr;

  // Inputs that have an initializer (IR versions before 4 list every
  // initializer as an input) or a given value are constants, not arguments.
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  SmallVector<Attribute> argAttrs;
  SmallVector<std::string> argNames;
  for (const pb::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name()) || constantInputs.count(input.name()))
      continue;
    FailureOr<RankedTensorType> type = convertInputType(input);
    if (failed(type))
      return nullptr;
    auto anonymous = anonymousSizes.find(input.name());
    if (anonymous != anonymousSizes.end()) {
      SmallVector<int64_t> shape(type->getShape());
      for (auto [dim, size] : anonymous->second)
        shape[dim] = size;
      type = RankedTensorType::get(shape, type->getElementType());
    }
    argTypes.push_back(*type);
    argLocs.push_back(NameLoc::get(StringAttr::get(ctx, input.name())));
    argAttrs.push_back(builder.getDictionaryAttr(builder.getNamedAttr(
        "onnx.name", builder.getStringAttr(input.name()))));
    argNames.push_back(input.name());
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module.get().getBody());
  auto func = builder.create<FuncOp>(fileLoc, "main",
                                     builder.getFunctionType(argTypes, {}));
  if (!argAttrs.empty())
    func->setAttr("arg_attrs", builder.getArrayAttr(argAttrs));
  Block *body = builder.createBlock(&func.getBody(), argTypes, argLocs);
  llvm::StringSet<> conditionInputs;
  if (!options.inputValues.empty())
    conditionInputs = findConditionInputs(graph);
  for (auto [i, name, arg] : llvm::enumerate(argNames, body->getArguments())) {
    // An input that decides an If, given its value for the run, is that
    // value everywhere, so that the If takes its branch here (the argument
    // stays, unused). A value of another type is left to the check of the
    // inputs against the arguments, which names it.
    DenseElementsAttr value;
    if (conditionInputs.contains(name) && i < options.inputValues.size() &&
        options.inputValues[i].getNumElements() == 1)
      value = options.inputValues[i].toAttr(ctx);
    if (value && value.getType() == arg.getType()) {
      if (!constantInputs.try_emplace(name, value).second) {
        emitError(fileLoc) << "input '" << name << "' is listed twice";
        return nullptr;
      }
      continue;
    }
    if (!values.try_emplace(name, arg).second) {
      emitError(fileLoc) << "input '" << name << "' is listed twice";
      return nullptr;
    }
  }
  emitter.emplace(builder, body);
  mainScope.block = body;

  for (const pb::NodeProto &node : graph.node())
    if (failed(importNode(node)))
      return nullptr;
  if (failed(importOutputs(func)))
    return nullptr;
  eraseUnusedConstants(body);
  warnAboutUnusedBindings();
  return module;
}

OwningOpRef<ModuleOp> importGraph(const pb::ModelProto &model, int64_t opset,
                                  Context *ctx, Location fileLoc,
                                  StringRef baseDir,
                                  const ImportOptions &options) {
  ctx->loadDialect<OnnxDialect>();
  return GraphImporter(model, opset, ctx, fileLoc, baseDir, options).run();
}

} // namespace onyx::onnx

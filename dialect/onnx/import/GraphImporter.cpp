//===- GraphImporter.cpp - An ONNX graph to func.func @main ---------------===//
//
// Locations: an op gets `loc("node_name")`, as onnx-mlir gives it (nodes
// without a name are named after their first output), and an initializer's
// constant `loc("initializer_name")`, so that printed IR stays short. An
// error while importing a node is reported at the model file and names the
// node and its op type: `model.onnx: error: node 'Gemm_0' (Gemm): ...`.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/import/GraphImporter.h"

#include "dialect/onnx/ControlFlow.h"
#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/import/NodeImporter.h"
#include "dialect/onnx/import/OpsetMapping.h"

#include "ir/Block.h"
#include "ir/Operation.h"
#include "ir/Region.h"
#include "ir/Verifier.h"

#include "llvm/ADT/ScopeExit.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include "onnx/onnx_pb.h"

namespace onyx::onnx {

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

/// The names one graph defines. A subgraph (If's branches, Loop's and
/// Scan's bodies) is a scope nested in its node's, and may read any name of
/// the scopes around it.
struct Scope {
  Scope *parent = nullptr;
  /// Where the graph's ops go; an initializer's constant is created at its
  /// end when first used (an outer scope's block is still being built, and
  /// the node that nests this scope comes after it).
  Block *block = nullptr;
  llvm::StringMap<Value> values;
  /// Initializers not yet used; each becomes a constant at its first use.
  llvm::StringMap<const pb::TensorProto *> initializers;
  /// Types the graph declares for outputs and intermediate values.
  llvm::StringMap<SmallVector<const pb::ValueInfoProto *, 1>> declared;
};

class GraphImporter {
public:
  GraphImporter(const pb::ModelProto &model, int64_t opset, Context *ctx,
                Location fileLoc, StringRef baseDir,
                const ImportOptions &options)
      : graph(model.graph()), opset(opset), ctx(ctx), fileLoc(fileLoc),
        baseDir(baseDir), options(options), builder(ctx) {}

  OwningOpRef<ModuleOp> run();

private:
  LogicalResult bindDimensions();
  LogicalResult addConstantInput(const pb::ValueInfoProto &input,
                                 const Tensor &value);
  /// Binds the dimensions of `input` (only those without a name unless
  /// `bindNames`) to the sizes in their places in `shape`; a negative size
  /// binds nothing.
  LogicalResult bindInputShape(const pb::ValueInfoProto &input,
                               ArrayRef<int64_t> shape, bool bindNames = true);
  /// The shape of a declared tensor type: bound symbolic dimensions get
  /// their size, others are dynamic.
  SmallVector<int64_t> convertShape(const pb::TensorShapeProto &shape);
  FailureOr<RankedTensorType> convertInputType(const pb::ValueInfoProto &info);
  LogicalResult checkDeclaredType(StringRef name,
                                  const pb::ValueInfoProto &info, Value value);
  LogicalResult checkDeclaredTypes(StringRef name, Value value);

  FailureOr<Value> lookupValue(const std::string &name);
  LogicalResult importNode(const pb::NodeProto &node);
  /// If, Loop and Scan: their subgraphs become regions.
  LogicalResult importControlFlow(const pb::NodeProto &node, Location loc,
                                  SmallVector<Value> operands,
                                  SmallVectorImpl<Value> &results);
  FailureOr<const pb::GraphProto *> getGraphAttribute(const pb::NodeProto &node,
                                                      StringRef name);
  /// Imports the nodes of `graph` at the end of `block`, as a scope nested
  /// in the current one whose inputs are `args`; returns its outputs.
  FailureOr<SmallVector<Value>> importSubgraph(const pb::GraphProto &graph,
                                               StringRef attrName, Block *block,
                                               ArrayRef<Value> args);
  /// A region of one block with arguments of `argTypes`, holding `graph`
  /// and ending in onnx.Yield of its outputs, which `outputs` receives.
  FailureOr<std::unique_ptr<Region>>
  importRegion(const pb::GraphProto &graph, StringRef attrName,
               ArrayRef<Type> argTypes, SmallVectorImpl<Value> &outputs);
  /// A body whose carried values (Loop's, or Scan's state) come after
  /// `numLeading` arguments: imported again with the carried types
  /// generalized (`?` where an iteration yields another size) until the
  /// body yields what it takes.
  FailureOr<std::unique_ptr<Region>>
  importLoopBody(const pb::GraphProto &graph, SmallVector<Type> argTypes,
                 unsigned numLeading, unsigned numCarried,
                 SmallVectorImpl<Value> &outputs);
  /// Creates the If, Loop or Scan of `state` into `results`; verified here
  /// only in the main graph (a subgraph's op, with everything nested, once
  /// its graph is attached).
  LogicalResult createControlFlowOp(OperationState &state,
                                    SmallVectorImpl<Value> &results);
  /// An onnx.Scan (opset 9's form) of `operands` with attributes `dict`
  /// and `body`.
  LogicalResult createScan(const pb::GraphProto &body, Location loc,
                           ArrayRef<Value> operands, DictionaryAttr dict,
                           SmallVectorImpl<Value> &results);
  /// Scan before opset 9: a batch axis first on every state and scan input.
  LogicalResult importBatchedScan(const pb::NodeProto &node, Location loc,
                                  ArrayRef<Value> operands,
                                  SmallVectorImpl<Value> &results);
  LogicalResult importOutputs(FuncOp func);
  void eraseUnusedConstants(Block *body);
  void warnAboutUnusedBindings();
  std::string describeUnboundDimensions() const;

  const pb::GraphProto &graph;
  int64_t opset;
  Context *ctx;
  Location fileLoc;
  StringRef baseDir;
  const ImportOptions &options;
  OpBuilder builder;
  std::optional<OpEmitter> emitter;

  /// The main graph's names and the innermost scope being imported.
  Scope mainScope;
  Scope *scope = &mainScope;
  llvm::StringMap<Value> &values = mainScope.values;
  llvm::StringMap<const pb::TensorProto *> &initializers =
      mainScope.initializers;
  /// Graph inputs given values (ImportOptions::constantInputs), each a
  /// constant at its first use.
  llvm::StringMap<DenseElementsAttr> constantInputs;
  llvm::StringMap<int64_t> bindings;
  /// Sizes of graph inputs' dimensions that have no name, from the shapes
  /// given (ImportOptions::inputShapes): (dimension, size) per input.
  llvm::StringMap<SmallVector<std::pair<unsigned, int64_t>>> anonymousSizes;
  /// Symbolic dimensions the model uses, bound or not.
  llvm::StringSet<> symbols;
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

//===----------------------------------------------------------------------===//
// Subgraphs: If, Loop, Scan
//===----------------------------------------------------------------------===//

FailureOr<const pb::GraphProto *>
GraphImporter::getGraphAttribute(const pb::NodeProto &node, StringRef name) {
  for (const pb::AttributeProto &attr : node.attribute())
    if (attr.name() == name) {
      if (!attr.has_g())
        return emitError(fileLoc)
               << "attribute '" << name << "' must be a graph";
      return &attr.g();
    }
  return emitError(fileLoc) << "attribute '" << name << "' is missing";
}

FailureOr<SmallVector<Value>>
GraphImporter::importSubgraph(const pb::GraphProto &graph, StringRef attrName,
                              Block *block, ArrayRef<Value> args) {
  if (graph.input_size() != int64_t(args.size()))
    return emitError(fileLoc)
           << "subgraph '" << attrName << "' has " << graph.input_size()
           << " inputs, expected " << uint64_t(args.size());
  if (graph.sparse_initializer_size())
    return emitError(fileLoc) << "sparse initializers are not supported";
  Scope sub;
  sub.parent = scope;
  sub.block = block;
  for (const pb::TensorProto &init : graph.initializer())
    sub.initializers[init.name()] = &init;
  for (const pb::ValueInfoProto &info : graph.value_info())
    sub.declared[info.name()].push_back(&info);
  for (const pb::ValueInfoProto &info : graph.output())
    sub.declared[info.name()].push_back(&info);
  for (auto [input, arg] : llvm::zip(graph.input(), args)) {
    const pb::TypeProto &type = input.type();
    if (type.has_tensor_type() &&
        type.tensor_type().elem_type() != pb::TensorProto::UNDEFINED &&
        convertDataType(type.tensor_type().elem_type()) !=
            getElementType(
                cast<RankedTensorType>(arg.getType()).getElementType()))
      return emitError(fileLoc)
             << "input '" << input.name() << "' of subgraph '" << attrName
             << "' is declared with element type "
             << getDataTypeName(type.tensor_type().elem_type())
             << ", but it takes values of type " << arg.getType();
    if (!sub.values.try_emplace(input.name(), arg).second)
      return emitError(fileLoc)
             << "input '" << input.name() << "' is listed twice";
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  Scope *outer = scope;
  scope = &sub;
  auto restore = llvm::make_scope_exit([&] { scope = outer; });
  for (const pb::NodeProto &node : graph.node())
    if (failed(importNode(node)))
      return failure();
  SmallVector<Value> outputs;
  for (const pb::ValueInfoProto &output : graph.output()) {
    FailureOr<Value> value = lookupValue(output.name());
    if (failed(value))
      return failure();
    if (failed(checkDeclaredTypes(output.name(), *value)))
      return failure();
    outputs.push_back(*value);
  }
  return outputs;
}

FailureOr<std::unique_ptr<Region>>
GraphImporter::importRegion(const pb::GraphProto &graph, StringRef attrName,
                            ArrayRef<Type> argTypes,
                            SmallVectorImpl<Value> &outputs) {
  auto region = std::make_unique<Region>();
  Block *block = new Block();
  region->push_back(block);
  SmallVector<Value> args;
  for (auto [type, input] : llvm::zip(argTypes, graph.input()))
    args.push_back(block->addArgument(
        type, NameLoc::get(StringAttr::get(ctx, input.name()))));
  FailureOr<SmallVector<Value>> results =
      importSubgraph(graph, attrName, block, args);
  if (failed(results))
    return failure();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  OperationState yield(fileLoc, kYieldName);
  yield.addOperands(*results);
  builder.create(yield);
  outputs.assign(results->begin(), results->end());
  return region;
}

FailureOr<std::unique_ptr<Region>> GraphImporter::importLoopBody(
    const pb::GraphProto &graph, SmallVector<Type> argTypes,
    unsigned numLeading, unsigned numCarried, SmallVectorImpl<Value> &outputs) {
  if (graph.input_size() != int64_t(argTypes.size()))
    return emitError(fileLoc)
           << "subgraph 'body' has " << graph.input_size()
           << " inputs, expected " << uint64_t(argTypes.size());
  // Each round makes at least one more dimension `?`, so this ends.
  while (true) {
    FailureOr<std::unique_ptr<Region>> region =
        importRegion(graph, "body", argTypes, outputs);
    if (failed(region))
      return failure();
    unsigned outputOffset = numLeading == 2 ? 1 : 0;
    if (outputs.size() < outputOffset + numCarried)
      return emitError(fileLoc)
             << "subgraph 'body' has " << uint64_t(outputs.size())
             << " outputs, expected at least " << outputOffset + numCarried;
    bool changed = false;
    for (unsigned i = 0; i < numCarried; ++i) {
      Type &carried = argTypes[numLeading + i];
      Type yielded = outputs[outputOffset + i].getType();
      Type merged = mergeTensorTypes(carried, yielded);
      if (!merged)
        return emitError(fileLoc)
               << "carried value #" << i << " of type " << carried
               << " becomes " << yielded
               << " in the body; its element type and rank must not change";
      changed |= merged != carried;
      carried = merged;
    }
    if (!changed)
      return region;
  }
}

LogicalResult
GraphImporter::importControlFlow(const pb::NodeProto &node, Location loc,
                                 SmallVector<Value> operands,
                                 SmallVectorImpl<Value> &results) {
  StringRef opType = node.op_type();
  std::string opName = ("onnx." + opType).str();
  OperationState state(loc, opName);
  SmallVector<Type> resultTypes;

  if (opType == "If") {
    if (operands.size() != 1)
      return emitError(fileLoc)
             << "If takes 1 input, got " << uint64_t(operands.size());
    FailureOr<const pb::GraphProto *> thenGraph =
        getGraphAttribute(node, "then_branch");
    FailureOr<const pb::GraphProto *> elseGraph =
        getGraphAttribute(node, "else_branch");
    if (failed(thenGraph) || failed(elseGraph))
      return failure();
    // A condition known while importing (a shape test, with the dims bound)
    // takes its branch right away, as canonicalization would.
    if (DenseElementsAttr cond = getConstantValue(operands[0])) {
      std::optional<Tensor> t = Tensor::fromAttr(cond);
      if (t && t->getNumElements() == 1) {
        bool taken = t->getInt(0) != 0;
        FailureOr<SmallVector<Value>> outputs =
            importSubgraph(**(taken ? thenGraph : elseGraph),
                           taken ? "then_branch" : "else_branch",
                           builder.getInsertionBlock(), {});
        if (failed(outputs))
          return failure();
        results.assign(outputs->begin(), outputs->end());
        return success();
      }
    }
    SmallVector<Value> thenOutputs, elseOutputs;
    FailureOr<std::unique_ptr<Region>> thenRegion =
        importRegion(**thenGraph, "then_branch", {}, thenOutputs);
    if (failed(thenRegion))
      return failure();
    FailureOr<std::unique_ptr<Region>> elseRegion =
        importRegion(**elseGraph, "else_branch", {}, elseOutputs);
    if (failed(elseRegion))
      return failure();
    if (thenOutputs.size() != elseOutputs.size())
      return emitError(fileLoc)
             << "then_branch has " << uint64_t(thenOutputs.size())
             << " outputs and else_branch " << uint64_t(elseOutputs.size());
    for (auto [i, a, b] : llvm::enumerate(thenOutputs, elseOutputs)) {
      Type merged = mergeTensorTypes(a.getType(), b.getType());
      if (!merged)
        return emitError(fileLoc)
               << "output #" << uint64_t(i) << " is " << a.getType()
               << " in then_branch and " << b.getType()
               << " in else_branch; the element type and rank must agree";
      resultTypes.push_back(merged);
    }
    state.addOperands(operands);
    state.addRegion(std::move(*thenRegion));
    state.addRegion(std::move(*elseRegion));
  } else if (opType == "Loop") {
    while (operands.size() < 2)
      operands.push_back(emitter->getNoValue());
    FailureOr<const pb::GraphProto *> body = getGraphAttribute(node, "body");
    if (failed(body))
      return failure();
    // The iteration number and condition are scalars; a body declaring
    // them of shape [1] gets them so.
    auto scalarType = [&](int index, ElementType type) -> Type {
      const pb::ValueInfoProto *info =
          index < (*body)->input_size() ? &(*body)->input(index) : nullptr;
      bool rank1 = info && info->type().tensor_type().has_shape() &&
                   info->type().tensor_type().shape().dim_size() == 1;
      return RankedTensorType::get(rank1 ? ArrayRef<int64_t>{1}
                                         : ArrayRef<int64_t>{},
                                   getIRType(ctx, type));
    };
    unsigned numCarried = operands.size() - 2;
    SmallVector<Type> argTypes = {scalarType(0, ElementType::I64),
                                  scalarType(1, ElementType::Bool)};
    for (Value v : ArrayRef<Value>(operands).drop_front(2))
      argTypes.push_back(v.getType());
    SmallVector<Value> outputs;
    FailureOr<std::unique_ptr<Region>> region =
        importLoopBody(**body, argTypes, 2, numCarried, outputs);
    if (failed(region))
      return failure();
    Block &block = (*region)->front();
    for (unsigned i = 0; i < numCarried; ++i)
      resultTypes.push_back(block.getArgument(2 + i).getType());
    // Every iteration runs when the trip count is a constant and no
    // condition can stop the loop early.
    int64_t trips = ShapedType::kDynamic;
    if (DenseElementsAttr m = getConstantValue(operands[0]))
      if (isNoValue(operands[1]))
        trips = Tensor::fromAttr(m)->getInt(0);
    for (Value scan : ArrayRef<Value>(outputs).drop_front(1 + numCarried)) {
      auto type = cast<RankedTensorType>(scan.getType());
      SmallVector<int64_t> shape = {trips};
      shape.append(type.getShape().begin(), type.getShape().end());
      resultTypes.push_back(
          RankedTensorType::get(shape, type.getElementType()));
    }
    state.addOperands(operands);
    state.addRegion(std::move(*region));
  } else {
    if (opset < 9)
      return importBatchedScan(node, loc, operands, results);
    FailureOr<const pb::GraphProto *> body = getGraphAttribute(node, "body");
    if (failed(body))
      return failure();
    NodeImporter importer(*emitter, node, opset, loc, operands, baseDir);
    importer.takeAttribute("body");
    FailureOr<SmallVector<NamedAttribute>> attrs = importer.convertAttributes();
    if (failed(attrs))
      return failure();
    const OpSchema &schema = *lookupOpSchema(opName);
    DictionaryAttr dict =
        normalizeAttributes(ctx, schema, DictionaryAttr::get(ctx, *attrs));
    if (failed(verifyAttributes(schema, dict, loc)))
      return failure();
    return createScan(**body, loc, operands, dict, results);
  }

  state.addTypes(resultTypes);
  return createControlFlowOp(state, results);
}

LogicalResult
GraphImporter::createControlFlowOp(OperationState &state,
                                   SmallVectorImpl<Value> &results) {
  Operation *op = builder.create(state);
  // A subgraph's region is not attached to the function yet, so values it
  // reads from outside cannot be checked there: the op that holds it is
  // verified, with everything nested, once it is in the main graph.
  if (scope == &mainScope && failed(verify(op))) {
    op->erase();
    return failure();
  }
  results.assign(op->getResults().begin(), op->getResults().end());
  return success();
}

LogicalResult GraphImporter::createScan(const pb::GraphProto &body,
                                        Location loc, ArrayRef<Value> operands,
                                        DictionaryAttr dict,
                                        SmallVectorImpl<Value> &results) {
  OperationState state(loc, "onnx.Scan");
  SmallVector<Type> resultTypes;
  OpAttrs read(*lookupOpSchema("onnx.Scan"), dict);
  int64_t numInputs = read.getInt("num_scan_inputs");
  if (numInputs < 1 || numInputs > int64_t(operands.size()))
    return emitError(fileLoc)
           << "num_scan_inputs is " << numInputs << ", but the node has "
           << uint64_t(operands.size()) << " inputs";
  unsigned numState = operands.size() - numInputs;
  SmallVector<int64_t> axes = read.getInts("scan_input_axes")
                                  .value_or(SmallVector<int64_t>(numInputs, 0));
  SmallVector<Type> argTypes;
  for (Value v : ArrayRef<Value>(operands).take_front(numState))
    argTypes.push_back(v.getType());
  int64_t length = ShapedType::kDynamic;
  for (auto [j, v] :
       llvm::enumerate(ArrayRef<Value>(operands).drop_front(numState))) {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t axis = j < axes.size() ? axes[j] : 0;
    if (axis < 0)
      axis += type.getRank();
    Type slice = getScanSliceType(type, axis);
    if (!slice)
      return emitError(fileLoc) << "scan input axis " << axes[j]
                                << " is out of range for " << Type(type);
    argTypes.push_back(slice);
    if (!ShapedType::isDynamic(type.getShape()[axis]))
      length = type.getShape()[axis];
  }
  SmallVector<Value> outputs;
  FailureOr<std::unique_ptr<Region>> region =
      importLoopBody(body, argTypes, 0, numState, outputs);
  if (failed(region))
    return failure();
  Block &block = (*region)->front();
  for (unsigned i = 0; i < numState; ++i)
    resultTypes.push_back(block.getArgument(i).getType());
  SmallVector<int64_t> outAxes =
      read.getInts("scan_output_axes")
          .value_or(SmallVector<int64_t>(outputs.size() - numState, 0));
  for (auto [k, scan] :
       llvm::enumerate(ArrayRef<Value>(outputs).drop_front(numState))) {
    auto type = cast<RankedTensorType>(scan.getType());
    SmallVector<int64_t> shape(type.getShape());
    int64_t axis = k < outAxes.size() ? outAxes[k] : 0;
    if (axis < 0)
      axis += type.getRank() + 1;
    if (axis < 0 || axis > type.getRank())
      return emitError(fileLoc)
             << "scan output axis " << outAxes[k]
             << " is out of range for rank " << type.getRank() + 1;
    shape.insert(shape.begin() + axis, length);
    resultTypes.push_back(RankedTensorType::get(shape, type.getElementType()));
  }
  state.addOperands(operands);
  state.addRegion(std::move(*region));
  for (const NamedAttribute &named : dict)
    state.addAttribute(named.name, named.value);
  state.addTypes(resultTypes);
  return createControlFlowOp(state, results);
}

LogicalResult
GraphImporter::importBatchedScan(const pb::NodeProto &node, Location loc,
                                 ArrayRef<Value> operands,
                                 SmallVectorImpl<Value> &results) {
  // Opset 8's Scan: an optional sequence_lens, then the states and the scan
  // inputs, each with a batch axis first (the scan inputs scan axis 1); the
  // body sees one batch element. Each element becomes a Scan of opset 9's
  // form on its slices (Gather on axis 0), and their results are stacked
  // again (Unsqueeze, Concat).
  const pb::GraphProto *body = nullptr;
  std::optional<int64_t> numInputs;
  SmallVector<int64_t> directions;
  for (const pb::AttributeProto &attr : node.attribute()) {
    if (attr.name() == "body" && attr.has_g())
      body = &attr.g();
    else if (attr.name() == "num_scan_inputs" && attr.has_i())
      numInputs = attr.i();
    else if (attr.name() == "directions")
      directions.assign(attr.ints().begin(), attr.ints().end());
    else
      return emitError(fileLoc) << "Scan (opset 8) has no attribute '"
                                << attr.name() << "' of this type";
  }
  if (!body || !numInputs)
    return emitError(fileLoc)
           << "Scan (opset 8) needs attributes 'body' and 'num_scan_inputs'";
  if (operands.empty())
    return emitError(fileLoc) << "Scan (opset 8) takes sequence_lens first";
  ArrayRef<Value> batched = operands.drop_front();
  if (*numInputs < 1 || *numInputs > int64_t(batched.size()))
    return emitError(fileLoc)
           << "num_scan_inputs is " << *numInputs << ", but the node has "
           << uint64_t(batched.size()) << " inputs after sequence_lens";
  unsigned numState = batched.size() - *numInputs;
  // Every operand has the batch axis; its size must be known to split it.
  int64_t batch = ShapedType::kDynamic, length = ShapedType::kDynamic;
  for (auto [i, v] : llvm::enumerate(batched)) {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t minRank = i < numState ? 1 : 2;
    if (type.getRank() < minRank)
      return emitError(fileLoc)
             << "Scan (opset 8) " << (i < numState ? "state" : "scan input")
             << " #" << uint64_t(i < numState ? i : i - numState)
             << " must have rank " << minRank
             << " or more (a batch axis first), got " << Type(type);
    if (i >= numState && !ShapedType::isDynamic(type.getShape()[1]))
      length = type.getShape()[1];
    int64_t size = type.getShape()[0];
    if (ShapedType::isDynamic(size))
      continue;
    if (!ShapedType::isDynamic(batch) && size != batch)
      return emitError(fileLoc) << "Scan (opset 8) operands have batch sizes "
                                << batch << " and " << size;
    batch = size;
  }
  if (ShapedType::isDynamic(batch) || batch < 1)
    return emitError(fileLoc)
           << "Scan (opset 8) needs a batch size of at least 1 known when "
              "importing, to scan each batch element";
  // sequence_lens gives each element its own length, at most the scan
  // inputs': that element scans its first ones, and its scan outputs are
  // zero after them (as ONNX Runtime fills them). It must be a constant,
  // checked here.
  SmallVector<int64_t> lengths;
  if (!isNoValue(operands[0])) {
    DenseElementsAttr lens = getConstantValue(operands[0]);
    if (!lens)
      return emitError(fileLoc)
             << "Scan (opset 8) with a sequence_lens known only at run time "
                "is not supported; it must be a constant (an initializer)";
    std::optional<Tensor> t = Tensor::fromAttr(lens);
    if (!t || t->getShape().size() != 1 || t->getNumElements() != batch)
      return emitError(fileLoc)
             << "Scan (opset 8) sequence_lens must have one length per batch "
                "element ("
             << batch << "), got " << lens.getType();
    if (ShapedType::isDynamic(length))
      return emitError(fileLoc)
             << "Scan (opset 8) with a sequence_lens needs the scan inputs' "
                "length known when importing";
    for (int64_t b = 0; b < batch; ++b) {
      int64_t n = t->getInt(b);
      if (n < 0 || n > length)
        return emitError(fileLoc)
               << "Scan (opset 8) sequence_lens[" << b << "] is " << n
               << ", outside [0, " << length << "], the scan inputs' length";
      lengths.push_back(n);
    }
  }
  SmallVector<NamedAttribute> attrs = {
      {StringAttr::get(ctx, "num_scan_inputs"), getIntAttr(ctx, *numInputs)}};
  if (!directions.empty())
    attrs.push_back({StringAttr::get(ctx, "scan_input_directions"),
                     getIntsAttr(ctx, directions)});
  DictionaryAttr dict = DictionaryAttr::get(ctx, attrs);
  auto ints = [&](ArrayRef<int64_t> values, ArrayRef<int64_t> shape) {
    return emitter->createConstant(
        loc, Tensor::fromInts(ElementType::I64, shape, values).toAttr(ctx));
  };
  Value axis0 = ints({0}, {1});
  SmallVector<SmallVector<Value>> stacked;
  for (int64_t b = 0; b < batch; ++b) {
    Value index = ints({b}, {});
    // The element's own length, where shorter than the scan inputs'.
    int64_t shorter = lengths.empty() || lengths[b] == length ? -1 : lengths[b];
    SmallVector<Value> slices;
    for (auto [i, v] : llvm::enumerate(batched)) {
      FailureOr<SmallVector<Value>> slice = emitter->create(
          loc, "onnx.Gather", {v, index},
          {{StringAttr::get(ctx, "axis"), builder.getI64IntegerAttr(0)}});
      if (succeeded(slice) && i >= numState && shorter >= 0)
        slice = emitter->create(
            loc, "onnx.Slice",
            {(*slice)[0], ints({0}, {1}), ints({shorter}, {1})});
      if (failed(slice))
        return failure();
      slices.push_back((*slice)[0]);
    }
    SmallVector<Value> scanned;
    if (failed(createScan(*body, loc, slices, dict, scanned)))
      return failure();
    stacked.resize(scanned.size());
    for (auto [k, v] : llvm::enumerate(scanned)) {
      if (k >= numState && shorter >= 0) {
        // Zeros after the element's length, up to the scan inputs'.
        int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
        SmallVector<int64_t> pads(2 * rank, 0);
        pads[rank] = length - shorter;
        FailureOr<SmallVector<Value>> padded =
            emitter->create(loc, "onnx.Pad", {v, ints(pads, {2 * rank})});
        if (failed(padded))
          return failure();
        v = (*padded)[0];
      }
      FailureOr<SmallVector<Value>> one =
          emitter->create(loc, "onnx.Unsqueeze", {v, axis0});
      if (failed(one))
        return failure();
      stacked[k].push_back((*one)[0]);
    }
  }
  for (ArrayRef<Value> parts : stacked) {
    if (parts.size() == 1) {
      results.push_back(parts[0]);
      continue;
    }
    FailureOr<SmallVector<Value>> all = emitter->create(
        loc, "onnx.Concat", parts,
        {{StringAttr::get(ctx, "axis"), builder.getI64IntegerAttr(0)}});
    if (failed(all))
      return failure();
    results.push_back((*all)[0]);
  }
  return success();
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

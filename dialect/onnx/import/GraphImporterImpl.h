//===- GraphImporterImpl.h - The graph importer's state ---------*- C++ -*-===//
//
// The importer behind GraphImporter.h, shared by the files that implement
// it: GraphImporter.cpp (inputs, dimension bindings, declared types, nodes,
// outputs, the module) and ControlFlowImporter.cpp (If, Loop and Scan,
// whose subgraphs become regions). Not a public header: only
// dialect/onnx/import/ includes it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/import/GraphImporter.h"
#include "dialect/onnx/import/NodeImporter.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include "onnx/onnx_pb.h"

#include <optional>

namespace onyx::onnx::detail {

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

} // namespace onyx::onnx::detail

//===- Importer.cpp - Reading ONNX models into the onnx dialect -----------===//
//
// The steps of an import, each of which may stop it with an error: parse
// the protobuf, list the ops onyx does not support (all at once, so that one
// run tells everything missing), find the opset, run the ONNX checker, build
// the module. Nothing thrown inside (the ONNX library throws; memory
// may run out) leaves these functions.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/import/Importer.h"

#include "dialect/onnx/import/GraphImporter.h"
#include "dialect/onnx/import/ModelReader.h"
#include "dialect/onnx/import/OpsetMapping.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "onnx/onnx_pb.h"

#include <map>

namespace onyx::onnx {

LogicalResult parseDimBindings(StringRef text,
                               llvm::StringMap<int64_t> &bindings,
                               std::string &error) {
  SmallVector<StringRef> items;
  text.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [name, size] = item.split('=');
    name = name.trim();
    size = size.trim();
    int64_t value;
    if (name.empty() || !item.contains('=')) {
      error = ("expected NAME=SIZE, got '" + item + "'").str();
      return failure();
    }
    if (!llvm::to_integer(size, value, 10) || value < 0) {
      error = ("the size of '" + name +
               "' must be a non-negative integer, "
               "got '" +
               size + "'")
                  .str();
      return failure();
    }
    if (!bindings.try_emplace(name, value).second) {
      error = ("'" + name + "' is bound twice").str();
      return failure();
    }
  }
  return success();
}

/// The version of the ai.onnx opset that `model` imports.
static FailureOr<int64_t> getOpset(const pb::ModelProto &model, Location loc) {
  for (const pb::OperatorSetIdProto &opset : model.opset_import()) {
    if (!opset.domain().empty() && opset.domain() != "ai.onnx")
      continue;
    int64_t version = opset.version();
    if (version < kMinOpset || version > kMaxOpset)
      return emitError(loc) << "ai.onnx opset " << version
                            << " is not supported (onyx imports opsets "
                            << kMinOpset << " to " << kMaxOpset << ")";
    return version;
  }
  // IR versions before 3 had no opset imports: everything was opset 1.
  if (model.ir_version() < 3 && model.opset_import_size() == 0)
    return 1;
  return emitError(loc) << "the model imports no ai.onnx opset";
}

/// Whether a node of `graph` or of its subgraphs is in `domain`.
static bool usesDomain(const pb::GraphProto &graph, StringRef domain) {
  for (const pb::NodeProto &node : graph.node()) {
    if (node.domain() == domain)
      return true;
    for (const pb::AttributeProto &attr : node.attribute()) {
      if (attr.has_g() && usesDomain(attr.g(), domain))
        return true;
      for (const pb::GraphProto &g : attr.graphs())
        if (usesDomain(g, domain))
          return true;
    }
  }
  return false;
}

/// ONNX Runtime's contrib ops are all of version 1 of their domain; a model
/// that uses them must import it (as ONNX requires of every domain).
static LogicalResult checkMicrosoftOpset(const pb::ModelProto &model,
                                         Location loc) {
  bool imported = false;
  for (const pb::OperatorSetIdProto &opset : model.opset_import()) {
    if (opset.domain() != kMicrosoftDomain)
      continue;
    if (opset.version() != 1)
      return emitError(loc) << kMicrosoftDomain << " opset " << opset.version()
                            << " is not supported (onyx imports version 1, "
                               "that of ONNX Runtime's contrib ops)";
    imported = true;
  }
  if (!imported && usesDomain(model.graph(), kMicrosoftDomain))
    return emitError(loc) << "the model has " << kMicrosoftDomain
                          << " nodes but imports no " << kMicrosoftDomain
                          << " opset";
  return success();
}

/// The name of `node` in reports: its own, or its first output's, or its
/// position in the graph.
static std::string getNodeName(const pb::NodeProto &node, int index) {
  if (!node.name().empty())
    return node.name();
  if (node.output_size() > 0 && !node.output(0).empty())
    return node.output(0);
  return llvm::formatv("#{0}", index).str();
}

/// Adds the unsupported nodes of `graph` and of the subgraphs in its nodes'
/// attributes (If's branches, Loop's and Scan's bodies) to `ops`; `prefix`
/// is the path of the subgraph (`if_node/then_branch/`).
static void
collectUnsupportedOps(const pb::GraphProto &graph, const std::string &prefix,
                      std::map<std::string, std::vector<std::string>> &ops) {
  for (int i = 0; i < graph.node_size(); ++i) {
    const pb::NodeProto &node = graph.node(i);
    std::string path = prefix + getNodeName(node, i);
    const std::string &domain = node.domain();
    if (!isSupportedOp(domain, node.op_type()))
      ops[isOnnxDomain(domain) ? node.op_type() : domain + "." + node.op_type()]
          .push_back(path);
    for (const pb::AttributeProto &attr : node.attribute()) {
      if (attr.has_g())
        collectUnsupportedOps(
            attr.g(), llvm::formatv("{0}/{1}/", path, attr.name()).str(), ops);
      for (int g = 0; g < attr.graphs_size(); ++g)
        collectUnsupportedOps(
            attr.graphs(g),
            llvm::formatv("{0}/{1}[{2}]/", path, attr.name(), g).str(), ops);
    }
  }
}

static std::vector<UnsupportedOp>
findUnsupportedOps(const pb::GraphProto &graph) {
  std::map<std::string, std::vector<std::string>> ops;
  collectUnsupportedOps(graph, "", ops);
  std::vector<UnsupportedOp> result;
  for (auto &[type, nodes] : ops)
    result.push_back({type, std::move(nodes)});
  return result;
}

/// The most node names the import error lists per op type.
static constexpr size_t kMaxNamesInError = 8;

/// One error that lists every op type the importer does not support, with
/// the number of nodes of each and their names, subgraphs included.
static LogicalResult checkSupportedOps(const pb::GraphProto &graph,
                                       Location loc) {
  std::vector<UnsupportedOp> unsupported = findUnsupportedOps(graph);
  if (unsupported.empty())
    return success();
  InFlightDiagnostic diag = emitError(loc) << "unsupported ONNX operators: ";
  bool truncated = false;
  llvm::interleave(
      unsupported,
      [&](const UnsupportedOp &op) {
        diag << op.opType << " (" << uint64_t(op.nodes.size()) << ": ";
        size_t shown = std::min(op.nodes.size(), kMaxNamesInError);
        for (size_t i = 0; i < shown; ++i)
          diag << (i ? ", " : "") << "'" << op.nodes[i] << "'";
        if (shown < op.nodes.size()) {
          diag << ", " << uint64_t(op.nodes.size() - shown) << " more";
          truncated = true;
        }
        diag << ")";
      },
      [&] { diag << ", "; });
  if (truncated)
    diag << " (onyx-opt --list-unsupported lists every node)";
  return diag;
}

FailureOr<std::vector<UnsupportedOp>>
findUnsupportedOps(StringRef bytes, StringRef bufferName, Context *ctx) {
  Location fileLoc = FileLineColLoc::get(ctx, bufferName, 0, 0);
  try {
    pb::ModelProto model;
    if (failed(parseModel(bytes, model, fileLoc)))
      return failure();
    return findUnsupportedOps(model.graph());
  } catch (const std::exception &e) {
    return emitError(fileLoc) << "cannot read the model: " << e.what();
  }
}

void printUnsupportedOps(ArrayRef<UnsupportedOp> ops, StringRef modelName,
                         llvm::raw_ostream &os) {
  if (ops.empty()) {
    os << modelName << ": every ONNX operator is supported\n";
    return;
  }
  size_t nodes = 0;
  for (const UnsupportedOp &op : ops)
    nodes += op.nodes.size();
  os << modelName << ": " << ops.size() << " unsupported ONNX operator"
     << (ops.size() == 1 ? "" : "s") << " in " << nodes << " node"
     << (nodes == 1 ? "" : "s") << "\n";
  for (const UnsupportedOp &op : ops) {
    os << "  " << op.opType << " (" << op.nodes.size() << "): ";
    llvm::interleaveComma(op.nodes, os);
    os << "\n";
  }
}

static OwningOpRef<ModuleOp> importModel(StringRef bytes, Location fileLoc,
                                         StringRef baseDir, Context *ctx,
                                         const ImportOptions &options) {
  pb::ModelProto model;
  if (failed(parseModel(bytes, model, fileLoc)))
    return nullptr;
  if (failed(checkMicrosoftOpset(model, fileLoc)) ||
      failed(checkSupportedOps(model.graph(), fileLoc)))
    return nullptr;
  FailureOr<int64_t> opset = getOpset(model, fileLoc);
  if (failed(opset))
    return nullptr;
  if (options.runChecker && failed(checkModel(model, baseDir, fileLoc)))
    return nullptr;
  return importGraph(model, *opset, ctx, fileLoc, baseDir, options);
}

/// A location naming a whole file: line 0 stands for no line in particular.
static Location getFileLoc(Context *ctx, StringRef name) {
  return FileLineColLoc::get(ctx, name, 0, 0);
}

OwningOpRef<ModuleOp> importOnnxBuffer(StringRef bytes, StringRef bufferName,
                                       StringRef baseDir, Context *ctx,
                                       const ImportOptions &options) {
  Location fileLoc = getFileLoc(ctx, bufferName);
  try {
    return importModel(bytes, fileLoc, baseDir, ctx, options);
  } catch (const std::exception &e) {
    emitError(fileLoc) << "cannot import the model: " << e.what();
    return nullptr;
  }
}

/// The contents of file `path`; null after an error.
static std::unique_ptr<llvm::MemoryBuffer> readFile(StringRef path,
                                                    Location loc) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (buffer)
    return std::move(*buffer);
  emitError(loc) << "cannot read the file: " << buffer.getError().message();
  return nullptr;
}

OwningOpRef<ModuleOp> importOnnxFile(StringRef path, Context *ctx,
                                     const ImportOptions &options) {
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      readFile(path, getFileLoc(ctx, path));
  if (!buffer)
    return nullptr;
  return importOnnxBuffer(buffer->getBuffer(), path,
                          llvm::sys::path::parent_path(path), ctx, options);
}

FailureOr<Tensor> readTensorProtoFile(StringRef path, Context *ctx) {
  Location loc = getFileLoc(ctx, path);
  try {
    std::unique_ptr<llvm::MemoryBuffer> buffer = readFile(path, loc);
    if (!buffer)
      return failure();
    pb::TensorProto proto;
    if (failed(parseTensor(buffer->getBuffer(), proto, loc)))
      return failure();
    std::string what = proto.name().empty() ? std::string("tensor")
                                            : "tensor '" + proto.name() + "'";
    FailureOr<DenseElementsAttr> attr = convertTensor(
        proto, ctx, llvm::sys::path::parent_path(path), loc, what);
    if (failed(attr))
      return failure();
    // The conversion only makes attributes that Tensors can hold.
    return *Tensor::fromAttr(*attr);
  } catch (const std::exception &e) {
    return emitError(loc) << "cannot read the tensor: " << e.what();
  }
}

} // namespace onyx::onnx

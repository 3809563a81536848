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

/// One error that lists every op type the importer does not support, with
/// the number of nodes of each.
static LogicalResult checkSupportedOps(const pb::GraphProto &graph,
                                       Location loc) {
  std::map<std::string, unsigned> unsupported;
  for (const pb::NodeProto &node : graph.node()) {
    const std::string &domain = node.domain();
    bool isOnnx = domain.empty() || domain == "ai.onnx";
    if (isOnnx && isSupportedOp(node.op_type()))
      continue;
    ++unsupported[isOnnx ? node.op_type() : domain + "." + node.op_type()];
  }
  if (unsupported.empty())
    return success();
  InFlightDiagnostic diag = emitError(loc) << "unsupported ONNX operators: ";
  llvm::interleave(
      unsupported,
      [&](const auto &entry) {
        diag << entry.first << " (" << entry.second << ")";
      },
      [&] { diag << ", "; });
  return diag;
}

static OwningOpRef<ModuleOp> importModel(StringRef bytes, Location fileLoc,
                                         StringRef baseDir, Context *ctx,
                                         const ImportOptions &options) {
  pb::ModelProto model;
  if (failed(parseModel(bytes, model, fileLoc)))
    return nullptr;
  if (failed(checkSupportedOps(model.graph(), fileLoc)))
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

//===- Importer.h - Reading ONNX models into the onnx dialect ---*- C++ -*-===//
//
// Reads an ONNX ModelProto (protobuf, with external data beside it) into a
// module holding `func.func @main`, whose arguments are the graph inputs and
// whose results are the graph outputs. Initializers become onnx.Constant,
// node names become locations, and every opset (1 to 27) is mapped onto the
// onnx dialect's one canonical semantics per op. Problems (a corrupt file,
// unsupported ops, a checker error, an unbound symbolic dimension) are
// reported as located diagnostics and return null.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/Tensor.h"

#include "ir/BuiltinOps.h"
#include "ir/OwningOpRef.h"

#include "llvm/ADT/StringMap.h"

namespace onyx::onnx {

struct ImportOptions {
  /// Sizes for symbolic dimensions (`batch=1,seq=16`); unbound symbolic
  /// dimensions stay dynamic (`?`).
  llvm::StringMap<int64_t> dimBindings;
  /// Shapes of the actual inputs, in the order of the function's arguments
  /// (onyx-run knows them from the data it is given): each symbolic
  /// dimension of an input is bound to the size in its place. A size that
  /// contradicts the model or another binding is an error.
  SmallVector<SmallVector<int64_t>> inputShapes;
  /// Graph inputs imported as constants of these values instead of
  /// function arguments: inputs that ops need as constants to infer their
  /// shapes (a Reshape's shape, a ReduceSum's axes), which ONNX's node
  /// tests feed as data.
  llvm::StringMap<Tensor> constantInputs;
  /// Run the ONNX checker where the model's opset is one it knows.
  bool runChecker = true;
};

/// Parses `NAME=N,NAME=N` into `bindings`; fails with a message in `error`.
LogicalResult parseDimBindings(StringRef text,
                               llvm::StringMap<int64_t> &bindings,
                               std::string &error);

/// Imports the model in file `path`; external data is read relative to it.
OwningOpRef<ModuleOp> importOnnxFile(StringRef path, Context *ctx,
                                     const ImportOptions &options = {});
/// Imports a model held in memory; `bufferName` names it in locations and
/// `baseDir` is where external data files are looked up.
OwningOpRef<ModuleOp> importOnnxBuffer(StringRef bytes, StringRef bufferName,
                                       StringRef baseDir, Context *ctx,
                                       const ImportOptions &options = {});

/// Reads a serialized TensorProto (an ONNX test's input_0.pb); errors are
/// reported at a location naming `path`.
FailureOr<Tensor> readTensorProtoFile(StringRef path, Context *ctx);

} // namespace onyx::onnx

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

#include <string>
#include <vector>

namespace onyx::onnx {

struct ImportOptions {
  /// Sizes for symbolic dimensions (`batch=1,seq=16`); unbound symbolic
  /// dimensions stay dynamic (`?`).
  llvm::StringMap<int64_t> dimBindings;
  /// Shapes of the actual inputs, in the order of the function's arguments
  /// (onyx-run knows them from the data it is given): each symbolic
  /// dimension of an input is bound to the size in its place. A size that
  /// contradicts the model or another binding is an error. A negative size
  /// binds nothing (a dimension the runs the module serves disagree on).
  SmallVector<SmallVector<int64_t>> inputShapes;
  /// Whether named dimensions take the sizes of inputShapes too, or only the
  /// dimensions without a name: a module that serves runs of several shapes
  /// keeps its named dimensions symbolic.
  bool bindNamedDims = true;
  /// The values of the inputs for the runs the module is imported for, in
  /// the same order (or none; an absent Tensor where the runs differ). An input
  /// of one element that the condition of an If is computed from is imported as
  /// a constant of its value, so that the If takes its branch while importing:
  /// the branch not taken may not even be valid for these inputs (a model's
  /// branch for another sample rate, given audio of this one). The argument
  /// stays, unused; the module holds for these values only.
  SmallVector<Tensor> inputValues;
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

/// An op type that the importer does not support, with the nodes that use
/// it: their names (a node without one is named after its first output),
/// as paths through the subgraphs of If, Loop and Scan nodes for nodes
/// inside them (`cond/then_branch/lstm`).
struct UnsupportedOp {
  /// `LSTM`, or `domain.Op` outside the ai.onnx domain.
  std::string opType;
  std::vector<std::string> nodes;
};

/// Every op type of the model in `bytes` that the importer does not
/// support, subgraphs included, sorted by type; fails (reporting at
/// `bufferName`) only if the model cannot be read. An import that meets any
/// of them stops with one error listing them all.
FailureOr<std::vector<UnsupportedOp>>
findUnsupportedOps(StringRef bytes, StringRef bufferName, Context *ctx);
/// Prints `ops` as `onyx-opt --list-unsupported` does: a summary line
/// naming `modelName`, then one line per op type with all its nodes.
void printUnsupportedOps(ArrayRef<UnsupportedOp> ops, StringRef modelName,
                         llvm::raw_ostream &os);

/// Reads a serialized TensorProto (an ONNX test's input_0.pb); errors are
/// reported at a location naming `path`.
FailureOr<Tensor> readTensorProtoFile(StringRef path, Context *ctx);

} // namespace onyx::onnx

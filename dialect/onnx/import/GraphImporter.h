//===- GraphImporter.h - An ONNX graph to func.func @main -------*- C++ -*-===//
//
// Builds the module of an import from a parsed and checked model: graph
// inputs (other than initializers) become the arguments of `func.func
// @main`, initializers onnx.Constant ops, nodes onnx ops in graph order, and
// graph outputs its results. Types come from the dialect's inference; the
// types the model declares for its outputs and intermediate values are
// checked against them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/import/Importer.h"
#include "dialect/onnx/import/TensorProto.h"

namespace onnx {
class ModelProto;
class ValueInfoProto;
} // namespace onnx

namespace onyx::onnx {

/// Imports the graph of `model`, whose ai.onnx opset is `opset`. Errors are
/// reported at `fileLoc` or at the node concerned; `baseDir` is where
/// external data lies.
OwningOpRef<ModuleOp> importGraph(const pb::ModelProto &model, int64_t opset,
                                  Context *ctx, Location fileLoc,
                                  StringRef baseDir,
                                  const ImportOptions &options);

/// Checks that graph input `info` is something @main can take: a tensor of
/// an element type onyx supports, with a shape (static or symbolic sizes).
/// Reports at `loc`.
LogicalResult checkInputDeclaration(const pb::ValueInfoProto &info,
                                    Location loc);

} // namespace onyx::onnx

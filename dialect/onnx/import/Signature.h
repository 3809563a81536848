//===- Signature.h - An ONNX model's inputs and outputs ---------*- C++ -*-===//
//
// The names, element types and shapes (symbolic dimensions by name) of a
// model's graph inputs and outputs, read without importing the graph: what
// a driver needs to find an interface in a model (a decoder's cache) and to
// shape the tensors it feeds, before any dimension is bound.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/Tensor.h"

#include <string>

namespace onyx::onnx {

/// One graph input or output.
struct ValueSignature {
  std::string name;
  /// nullopt for an element type onyx does not support.
  std::optional<ElementType> elementType;
  /// False when the model declares no shape; `shape` is then empty.
  bool hasShape = false;
  /// Sizes, ShapedType::kDynamic for symbolic or unknown ones.
  SmallVector<int64_t> shape;
  /// The symbolic name of each dimension ("" for a fixed or unnamed one).
  SmallVector<std::string> dimNames;
};

struct ModelSignature {
  /// The graph inputs that are not initializers, in order (the arguments
  /// of the imported @main).
  SmallVector<ValueSignature> inputs;
  SmallVector<ValueSignature> outputs;
};

/// Reads the signature of the model at `path`; errors are reported through
/// `ctx` at the file. Inputs must be what @main can take (tensors of a
/// supported element type with a shape), as the importer requires.
FailureOr<ModelSignature> readOnnxSignature(StringRef path, Context *ctx);
/// The same for a model held in memory, which `bufferName` names.
FailureOr<ModelSignature>
readOnnxSignatureBuffer(StringRef bytes, StringRef bufferName, Context *ctx);

} // namespace onyx::onnx

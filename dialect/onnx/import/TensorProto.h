//===- TensorProto.h - ONNX tensors and data types as IR values -*- C++ -*-===//
//
// Converts ONNX TensorProtos (initializers, tensor attributes, test data
// files) into DenseElementsAttrs, whatever field holds the data: raw_data,
// the typed lists (float_data, int32_data, ...), or an external file next to
// the model. Also maps ONNX data type numbers onto the dialect's element
// types.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/Tensor.h"

#include "ir/Diagnostics.h"

#include <string>

namespace onnx {
class TensorProto;
} // namespace onnx

namespace onyx::onnx {

/// The protobuf classes live in the top-level `onnx` namespace, which this
/// one hides.
namespace pb = ::onnx;

/// The element type of ONNX data type number `dataType`; nullopt for types
/// the dialect cannot hold (string, complex, float8, 4-bit, ...).
std::optional<ElementType> convertDataType(int32_t dataType);

/// The ONNX name of a data type ("FLOAT", "INT64", "FLOAT8E4M3FN"), or its
/// number when ONNX has no type of that number.
std::string getDataTypeName(int32_t dataType);
/// The number of the data type ONNX names `name` ("FLOAT"), as Cast before
/// opset 6 names them.
std::optional<int32_t> lookupDataType(StringRef name);

/// Reads the data of `tensor` into an attribute. External data files are
/// looked up relative to `baseDir`. Errors are reported at `loc`, starting
/// with `what` ("initializer 'w'").
FailureOr<DenseElementsAttr> convertTensor(const pb::TensorProto &tensor,
                                           Context *ctx, StringRef baseDir,
                                           Location loc,
                                           const llvm::Twine &what);

} // namespace onyx::onnx

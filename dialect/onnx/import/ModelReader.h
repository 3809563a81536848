//===- ModelReader.h - Reading and checking ONNX protobufs -----*- C++ -*-===//
//
// The first steps of an import: protobuf bytes to a ModelProto (or a
// TensorProto), with protobuf's 64 MB default limit lifted, and the ONNX
// library's checker run where it knows the model's versions. The ONNX
// library reports problems by throwing; this is the boundary where its
// exceptions become diagnostics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/import/TensorProto.h"

namespace onnx {
class ModelProto;
} // namespace onnx

namespace onyx::onnx {

/// Parses `bytes` into `model` and checks that it has the parts an import
/// needs (an IR version, a graph). Reports at `loc` and fails on corrupt,
/// truncated or empty input.
LogicalResult parseModel(StringRef bytes, pb::ModelProto &model, Location loc);

/// Parses a serialized TensorProto; reports at `loc` and fails.
LogicalResult parseTensor(StringRef bytes, pb::TensorProto &tensor,
                          Location loc);

/// Runs the ONNX checker on `model` if the installed ONNX library knows the
/// model's IR version and every opset it imports (a newer model would be
/// rejected for its version alone); succeeds without checking otherwise.
/// `modelDir` is where external data lies.
LogicalResult checkModel(const pb::ModelProto &model, StringRef modelDir,
                         Location loc);

} // namespace onyx::onnx

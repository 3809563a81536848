//===- Signature.cpp - An ONNX model's inputs and outputs -----------------===//

#include "dialect/onnx/import/Signature.h"

#include "dialect/onnx/import/GraphImporter.h"
#include "dialect/onnx/import/ModelReader.h"

#include "ir/Location.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include "onnx/onnx_pb.h"

using namespace onyx;
using namespace onyx::onnx;

static ValueSignature convert(const pb::ValueInfoProto &info) {
  ValueSignature value;
  value.name = info.name();
  if (!info.type().has_tensor_type())
    return value;
  const pb::TypeProto::Tensor &tensor = info.type().tensor_type();
  value.elementType = convertDataType(tensor.elem_type());
  if (!tensor.has_shape())
    return value;
  value.hasShape = true;
  for (const pb::TensorShapeProto::Dimension &dim : tensor.shape().dim()) {
    bool fixed = dim.has_dim_value() && dim.dim_value() >= 0;
    value.shape.push_back(fixed ? dim.dim_value() : ShapedType::kDynamic);
    value.dimNames.push_back(dim.has_dim_param() ? dim.dim_param() : "");
  }
  return value;
}

FailureOr<ModelSignature>
onyx::onnx::readOnnxSignatureBuffer(StringRef bytes, StringRef bufferName,
                                    Context *ctx) {
  // A whole file has no line: line 0, as the importer reports it.
  Location loc = FileLineColLoc::get(ctx, bufferName, 0, 0);
  try {
    pb::ModelProto model;
    if (failed(parseModel(bytes, model, loc)))
      return failure();
    llvm::StringSet<> initializers;
    for (const pb::TensorProto &tensor : model.graph().initializer())
      initializers.insert(tensor.name());
    ModelSignature signature;
    for (const pb::ValueInfoProto &input : model.graph().input()) {
      if (initializers.contains(input.name()))
        continue;
      if (failed(checkInputDeclaration(input, loc)))
        return failure();
      signature.inputs.push_back(convert(input));
    }
    for (const pb::ValueInfoProto &output : model.graph().output())
      signature.outputs.push_back(convert(output));
    return signature;
  } catch (const std::exception &e) {
    emitError(loc) << "cannot read the model: " << e.what();
    return failure();
  }
}

FailureOr<ModelSignature> onyx::onnx::readOnnxSignature(StringRef path,
                                                        Context *ctx) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    emitError(FileLineColLoc::get(ctx, path, 0, 0))
        << "cannot read the file: " << buffer.getError().message();
    return failure();
  }
  return readOnnxSignatureBuffer((*buffer)->getBuffer(), path, ctx);
}

//===- SignatureCheck.cpp - Tensors against a function's types ------------===//

#include "dialect/onnx/io/SignatureCheck.h"

#include "dialect/onnx/io/TensorLiteral.h"

#include "ir/Types.h"

#include "llvm/Support/raw_ostream.h"

using namespace onyx;
using namespace onyx::onnx;

bool onyx::onnx::matchesType(const Tensor &tensor, Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType ||
      getElementType(tensorType.getElementType()) != tensor.getElementType() ||
      tensorType.getRank() != tensor.getRank())
    return false;
  for (auto [expected, actual] :
       llvm::zip_equal(tensorType.getShape(), tensor.getShape()))
    if (!ShapedType::isDynamic(expected) && expected != actual)
      return false;
  return true;
}

LogicalResult onyx::onnx::checkInputs(ArrayRef<Type> argTypes,
                                      ArrayRef<Tensor> inputs,
                                      std::string &error) {
  llvm::raw_string_ostream os(error);
  if (argTypes.size() != inputs.size()) {
    os << "expected " << argTypes.size() << " input"
       << (argTypes.size() == 1 ? "" : "s") << ", got " << inputs.size();
    if (inputs.size() < argTypes.size())
      os << " (input " << inputs.size() << " is " << argTypes[inputs.size()]
         << ")";
    return failure();
  }
  for (auto [i, type, tensor] : llvm::enumerate(argTypes, inputs)) {
    if (matchesType(tensor, type))
      continue;
    os << "input " << i << ": expected " << type << ", got "
       << formatShapeAndType(tensor);
    return failure();
  }
  return success();
}

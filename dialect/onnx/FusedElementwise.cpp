//===- FusedElementwise.cpp - onnx.FusedElementwise and onnx.Yield --------===//

#include "dialect/onnx/FusedElementwise.h"

#include "ir/Block.h"
#include "ir/Region.h"

namespace onyx::onnx {

LogicalResult verifyFusedElementwise(Operation *op) {
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return op->emitOpError("requires one region with one block");
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return op->emitOpError("must produce one ranked tensor");
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != op->getNumOperands())
    return op->emitOpError()
           << "has " << op->getNumOperands() << " operands but its body takes "
           << body.getNumArguments() << " arguments";
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
    if (body.getArgument(i).getType() != op->getOperand(i).getType())
      return op->emitOpError()
             << "body argument #" << i << " is of type "
             << body.getArgument(i).getType() << " but operand #" << i
             << " is of type " << op->getOperand(i).getType();
  Operation *yield = body.empty() ? nullptr : &body.back();
  if (!yield || yield->getName().getStringRef() != kYieldName)
    return op->emitOpError() << "body must end with " << kYieldName;
  if (yield->getNumOperands() != 1 ||
      yield->getOperand(0).getType() != op->getResult(0).getType())
    return yield->emitOpError("must yield one value of the type of the "
                              "enclosing op's result");
  return success();
}

LogicalResult verifyYield(Operation *op) {
  Operation *parent = op->getParentOp();
  StringRef name = parent ? parent->getName().getStringRef() : "";
  if (name != kFusedElementwiseName && name != "onnx.If" &&
      name != "onnx.Loop" && name != "onnx.Scan")
    return op->emitOpError() << "expects to be in a " << kFusedElementwiseName
                             << ", onnx.If, onnx.Loop or onnx.Scan";
  return success();
}

} // namespace onyx::onnx

//===- TransferOps.cpp - gpu.copy, gpu.upload, gpu.download ---------------===//
//
//   gpu.copy %a, %b : !gpu.view<6xf32> to !gpu.view<2x3xf32>
//   gpu.upload %arg0, %v : tensor<2x3xf32> to !gpu.view<2x3xf32>
//   %r = gpu.download %v : !gpu.view<2x3xf32> to tensor<2x3xf32>
//
//===----------------------------------------------------------------------===//
#include "dialect/gpu/GpuOps.h"

#include "ir/BuiltinOps.h"

namespace onyx::gpu {

/// Checks that operand `index` is a view that the op may write.
static LogicalResult verifyWritableView(Operation *op, unsigned index,
                                        StringRef role) {
  Value view = op->getOperand(index);
  if (!isa<ViewType>(view.getType()))
    return op->emitOpError() << "expects the " << role
                             << " to be a !gpu.view, got " << view.getType();
  std::optional<MemoryRange> range = getMemoryRange(view);
  if (!range && isUnplannedView(view))
    return success();
  if (!range)
    return op->emitOpError()
           << "expects the " << role << " to be a view of a gpu.buffer";
  if (range->buffer.getKind() == BufferKind::Weights)
    return op->emitOpError() << "must not write the weights buffer";
  return success();
}

/// `%a, %b : type to type`, shared by copies and uploads.
static void printTransfer(OpAsmPrinter &p, Operation *op) {
  p << " ";
  p.printOperand(op->getOperand(0));
  p << ", ";
  p.printOperand(op->getOperand(1));
  p.printOptionalAttrDict(op->getAttrs());
  p << " : ";
  p.printType(op->getOperand(0).getType());
  p << " to ";
  p.printType(op->getOperand(1).getType());
}

static ParseResult parseTransfer(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand source, target;
  Type sourceType, targetType;
  if (parser.parseOperand(source) || parser.parseComma() ||
      parser.parseOperand(target) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(sourceType) || parser.parseKeyword("to") ||
      parser.parseType(targetType) ||
      parser.resolveOperand(source, sourceType, result.operands) ||
      parser.resolveOperand(target, targetType, result.operands))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// gpu.copy
//===----------------------------------------------------------------------===//

void CopyOp::build(OpBuilder &, OperationState &state, Value source,
                   Value target) {
  state.addOperands({source, target});
}

LogicalResult CopyOp::verify() {
  if (state->getNumOperands() != 2)
    return emitOpError("expects a source and a target view");
  if (!isa<ViewType>(getSource().getType()))
    return emitOpError() << "expects the source to be a !gpu.view, got "
                         << getSource().getType();
  if (failed(verifyWritableView(state, 1, "target")))
    return failure();
  uint64_t size = getMemorySize(getSource().getType());
  if (size != getMemorySize(getTarget().getType()))
    return emitOpError() << "copies " << size << " bytes into a view of "
                         << getMemorySize(getTarget().getType()) << " bytes";
  std::optional<MemoryRange> from = getMemoryRange(getSource());
  std::optional<MemoryRange> to = getMemoryRange(getTarget());
  if (!from && isUnplannedView(getSource()))
    return success();
  if (!from)
    return emitOpError("expects the source to be a view of a gpu.buffer");
  if (to && from->overlaps(*to))
    return emitOpError("source and target overlap");
  return success();
}

void CopyOp::print(OpAsmPrinter &p) { printTransfer(p, state); }
ParseResult CopyOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseTransfer(parser, result);
}

//===----------------------------------------------------------------------===//
// gpu.upload
//===----------------------------------------------------------------------===//

void UploadOp::build(OpBuilder &, OperationState &state, Value source,
                     Value target) {
  state.addOperands({source, target});
}

LogicalResult UploadOp::verify() {
  if (state->getNumOperands() != 2)
    return emitOpError("expects a function argument and a target view");
  auto arg = dyn_cast<BlockArgument>(getSource());
  if (!arg || arg.getOwner() != state->getBlock() ||
      !isa_and_nonnull<FuncOp>(state->getParentOp()))
    return emitOpError("uploads an argument of the enclosing func.func");
  if (failed(verifyWritableView(state, 1, "target")))
    return failure();
  auto view = cast<ViewType>(getTarget().getType());
  if (getSource().getType() != view.getTensorType())
    return emitOpError() << "uploads a " << getSource().getType()
                         << " into a view of " << view.getTensorType();
  return success();
}

void UploadOp::print(OpAsmPrinter &p) { printTransfer(p, state); }
ParseResult UploadOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseTransfer(parser, result);
}

//===----------------------------------------------------------------------===//
// gpu.download
//===----------------------------------------------------------------------===//

void DownloadOp::build(OpBuilder &, OperationState &state, Value source) {
  state.addOperands(source);
  state.addTypes({cast<ViewType>(source.getType()).getTensorType()});
}

static constexpr StringRef kPermutation = "permutation";

void DownloadOp::build(OpBuilder &builder, OperationState &state, Value source,
                       ArrayRef<int64_t> permutation) {
  state.addOperands(source);
  auto view = cast<ViewType>(source.getType());
  SmallVector<int64_t, 4> shape;
  for (int64_t d : permutation)
    shape.push_back(view.getShape()[d]);
  state.addTypes({RankedTensorType::get(shape, view.getElementType())});
  state.addAttribute(kPermutation, builder.getI64ArrayAttr(permutation));
}

SmallVector<int64_t, 4> DownloadOp::getPermutation() {
  SmallVector<int64_t, 4> permutation;
  if (auto attr = state->getAttrOfType<ArrayAttr>(kPermutation))
    for (Attribute a : attr)
      if (auto i = dyn_cast<IntegerAttr>(a))
        permutation.push_back(i.getInt());
  return permutation;
}

LogicalResult DownloadOp::verify() {
  if (state->getNumOperands() != 1 || state->getNumResults() != 1)
    return emitOpError("expects one view and one result");
  auto view = dyn_cast<ViewType>(getSource().getType());
  if (!view)
    return emitOpError() << "expects a !gpu.view, got "
                         << getSource().getType();
  if (!getMemoryRange(getSource()) && !isUnplannedView(getSource()))
    return emitOpError("expects a view of a gpu.buffer");
  if (Attribute attr = state->getAttr(kPermutation)) {
    auto list = dyn_cast<ArrayAttr>(attr);
    SmallVector<int64_t, 4> perm = getPermutation();
    int64_t rank = view.getShape().size();
    SmallVector<bool, 4> seen(rank, false);
    bool valid =
        list && perm.size() == list.size() && int64_t(perm.size()) == rank;
    for (int64_t d : perm) {
      valid = valid && d >= 0 && d < rank && !seen[d];
      if (valid)
        seen[d] = true;
    }
    if (!valid)
      return emitOpError() << "'permutation' must order the " << unsigned(rank)
                           << " dims of the view";
    auto alloc = getSource().getDefiningOp<AllocOp>();
    if (!alloc || !alloc.getStateArgument())
      return emitOpError("with a 'permutation' must read a state's memory (a "
                         "gpu.alloc with 'state')");
    SmallVector<int64_t, 4> shape;
    for (int64_t d : perm)
      shape.push_back(view.getShape()[d]);
    auto expected = RankedTensorType::get(shape, view.getElementType());
    if (state->getResult(0).getType() != Type(expected))
      return emitOpError() << "result " << state->getResult(0).getType()
                           << " is not the view's " << Type(expected)
                           << " permuted";
  } else if (state->getResult(0).getType() != view.getTensorType())
    return emitOpError() << "result " << state->getResult(0).getType()
                         << " does not match the view's "
                         << view.getTensorType();
  for (Operation *user : state->getUsers())
    if (!user->hasTrait(OpTrait::ReturnLike))
      return emitOpError("result may only be returned from the function");
  return success();
}

void DownloadOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printOperand(getSource());
  p.printOptionalAttrDict(state->getAttrs());
  p << " : ";
  p.printType(getSource().getType());
  p << " to ";
  p.printType(state->getResult(0).getType());
}

ParseResult DownloadOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand source;
  Type sourceType, type;
  if (parser.parseOperand(source) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(sourceType) || parser.parseKeyword("to") ||
      parser.parseType(type) ||
      parser.resolveOperand(source, sourceType, result.operands))
    return failure();
  result.addTypes({type});
  return success();
}

} // namespace onyx::gpu

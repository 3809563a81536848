//===- MemoryOps.cpp - gpu.buffer, gpu.view, gpu.weight -------------------===//
//
//   %arena = gpu.buffer arena : !gpu.buffer<4096>
//   %v = gpu.view %arena[256] : !gpu.buffer<4096> to !gpu.view<2x3xf32>
//   %w = gpu.weight %weights[0] : !gpu.buffer<64> = dense<...> : tensor<4xf32>
//
//===----------------------------------------------------------------------===//
#include "dialect/gpu/BufferLiveness.h"
#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/OpAsmHelpers.h"

#include "ir/BuiltinOps.h"

#include "llvm/Support/raw_ostream.h"

namespace onyx::gpu {

static constexpr StringRef kKind = "kind";
static constexpr StringRef kOffset = "offset";
static constexpr StringRef kValue = "value";

/// The byte offset of a view or weight; nullopt if malformed (its own
/// verifier reports that).
static std::optional<uint64_t> getOffsetAttr(Operation *op) {
  auto attr = op->getAttrOfType<IntegerAttr>(kOffset);
  if (!attr || attr.getValue().isNegative() ||
      attr.getValue().getActiveBits() > 63)
    return std::nullopt;
  return attr.getUInt();
}

std::optional<MemoryRange> getMemoryRange(Value view) {
  MemoryRange range;
  range.size = getMemorySize(view.getType());
  for (Value current = view;;) {
    Operation *def = current.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto buffer = dyn_cast<BufferOp>(def)) {
      range.buffer = buffer;
      return range;
    }
    if (!isa<ViewOp, WeightOp>(def))
      return std::nullopt;
    std::optional<uint64_t> offset = getOffsetAttr(def);
    if (!offset)
      return std::nullopt;
    range.offset += *offset;
    current = def->getOperand(0);
  }
}

bool isUnplannedView(Value view) {
  for (Value current = view;;) {
    Operation *def = current.getDefiningOp();
    if (!def)
      return false;
    if (isa<AllocOp>(def))
      return true;
    if (!isa<ViewOp>(def) || def->getNumOperands() < 1)
      return false;
    current = def->getOperand(0);
  }
}

/// Checks that `size` bytes at `offset` fit in the memory `source` names.
static LogicalResult verifyInBounds(Operation *op, Value source,
                                    uint64_t offset, uint64_t size) {
  uint64_t sourceSize = getMemorySize(source.getType());
  if (offset > sourceSize || size > sourceSize - offset)
    return op->emitOpError()
           << "bytes [" << offset << ", " << offset + size << ") exceed the "
           << sourceSize << " bytes of its source";
  return success();
}

//===----------------------------------------------------------------------===//
// gpu.buffer
//===----------------------------------------------------------------------===//

static StringRef stringifyBufferKind(BufferKind kind) {
  return kind == BufferKind::Arena ? "arena" : "weights";
}

static std::optional<BufferKind> symbolizeBufferKind(StringRef name) {
  for (BufferKind kind : {BufferKind::Arena, BufferKind::Weights})
    if (name == stringifyBufferKind(kind))
      return kind;
  return std::nullopt;
}

void BufferOp::build(OpBuilder &builder, OperationState &state, BufferKind kind,
                     uint64_t size) {
  state.addAttribute(kKind, builder.getStringAttr(stringifyBufferKind(kind)));
  state.addTypes({BufferType::get(builder.getContext(), size)});
}

BufferKind BufferOp::getKind() {
  return *symbolizeBufferKind(
      state->getAttrOfType<StringAttr>(kKind).getValue());
}
BufferType BufferOp::getType() {
  return cast<BufferType>(state->getResult(0).getType());
}

LogicalResult BufferOp::verify() {
  auto kind = state->getAttrOfType<StringAttr>(kKind);
  if (!kind || !symbolizeBufferKind(kind.getValue()))
    return emitOpError("requires 'kind' to be \"arena\" or \"weights\"");
  if (state->getNumResults() != 1 ||
      !isa<BufferType>(state->getResult(0).getType()))
    return emitOpError("must produce one !gpu.buffer");
  if (getType().getSize() == 0)
    return emitOpError("must not be empty");
  FailureOr<BufferLiveness> liveness = BufferLiveness::analyze(*this);
  if (failed(liveness))
    return failure();
  return liveness->verifyNoLiveOverlap();
}

void BufferOp::print(OpAsmPrinter &p) {
  p << " " << stringifyBufferKind(getKind());
  p.printOptionalAttrDict(state->getAttrs(), {kKind});
  p << " : ";
  p.printType(getType());
}

ParseResult BufferOp::parse(OpAsmParser &parser, OperationState &result) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef kind;
  if (failed(parser.parseOptionalKeyword(&kind)) || !symbolizeBufferKind(kind))
    return parser.emitError(loc, "expected buffer kind 'arena' or 'weights'");
  result.addAttribute(kKind, parser.getBuilder().getStringAttr(kind));
  Type type;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type))
    return failure();
  result.addTypes({type});
  return success();
}

//===----------------------------------------------------------------------===//
// gpu.view
//===----------------------------------------------------------------------===//

void ViewOp::build(OpBuilder &builder, OperationState &state, Value source,
                   uint64_t offset, ViewType type) {
  build(builder, state, source, Value(), offset, type, {});
}

void ViewOp::build(OpBuilder &builder, OperationState &state, Value source,
                   Value offset, uint64_t staticOffset, ViewType type,
                   ValueRange dynamicDims) {
  state.addOperands(source);
  if (offset)
    state.addOperands(offset);
  else
    state.addAttribute(kOffset,
                       builder.getI64IntegerAttr(int64_t(staticOffset)));
  state.addOperands(dynamicDims);
  state.addTypes({type});
}

bool ViewOp::hasStaticOffset() { return state->getAttr(kOffset) != nullptr; }
uint64_t ViewOp::getOffset() {
  return state->getAttrOfType<IntegerAttr>(kOffset).getUInt();
}
Value ViewOp::getDynamicOffset() {
  return hasStaticOffset() ? Value() : state->getOperand(1);
}
OperandRange ViewOp::getDynamicDims() {
  return state->getOperands().drop_front(hasStaticOffset() ? 1 : 2);
}
ViewType ViewOp::getType() {
  return cast<ViewType>(state->getResult(0).getType());
}

/// Checks that `dims` are index values, one per `?` dimension of `type`.
static LogicalResult verifyDynamicDims(Operation *op, ViewType type,
                                       OperandRange dims) {
  if (dims.size() != type.getNumDynamicDims())
    return op->emitOpError()
           << "takes " << unsigned(dims.size()) << " dimension values but "
           << Type(type) << " has " << type.getNumDynamicDims()
           << " dynamic dimensions";
  for (Value dim : dims)
    if (!dim.getType().isIndex())
      return op->emitOpError()
             << "dimension values must be of type index, got " << dim.getType();
  return success();
}

LogicalResult ViewOp::verify() {
  if (state->getNumOperands() < 1 ||
      !isa<BufferType, ViewType>(getSource().getType()))
    return emitOpError("expects a !gpu.buffer or a !gpu.view as source");
  if (state->getNumResults() != 1 ||
      !isa<ViewType>(state->getResult(0).getType()))
    return emitOpError("must produce one !gpu.view");
  std::optional<uint64_t> offset;
  if (hasStaticOffset()) {
    offset = getOffsetAttr(state);
    if (!offset)
      return emitOpError("requires a non-negative integer 'offset'");
  } else if (state->getNumOperands() < 2 ||
             !getDynamicOffset().getType().isIndex()) {
    return emitOpError("requires an 'offset' attribute or an index offset");
  }
  if (failed(verifyDynamicDims(state, getType(), getDynamicDims())))
    return failure();
  // Memory the compiler placed has a fixed layout; only what the runtime
  // places may have sizes and offsets known at run time.
  auto sourceView = dyn_cast<ViewType>(getSource().getType());
  bool dynamic = !offset || !getType().hasStaticShape() ||
                 (sourceView && !sourceView.hasStaticShape());
  if (dynamic) {
    if (!isUnplannedView(getSource()))
      return emitOpError("with a run-time offset or size must be a view of a "
                         "gpu.alloc");
    return success();
  }
  return verifyInBounds(state, getSource(), *offset,
                        getType().getSizeInBytes());
}

void ViewOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printOperand(getSource());
  if (hasStaticOffset())
    p << "[" << std::to_string(getOffset()) << "]";
  else
    p << "[" << getDynamicOffset() << "]";
  if (!getDynamicDims().empty()) {
    p << "(";
    p.printOperands(getDynamicDims());
    p << ")";
  }
  p.printOptionalAttrDict(state->getAttrs(), {kOffset});
  p << " : ";
  p.printType(getSource().getType());
  p << " to ";
  p.printType(getType());
}

/// `%source[offset] {attrs} : source-type`, shared by views and weights.
static ParseResult parsePlacement(OpAsmParser &parser, OperationState &result,
                                  Type &sourceType) {
  OpAsmParser::UnresolvedOperand source;
  int64_t offset;
  if (parser.parseOperand(source) || detail::parseOffset(parser, offset))
    return failure();
  result.addAttribute(kOffset, parser.getBuilder().getI64IntegerAttr(offset));
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(sourceType))
    return failure();
  return parser.resolveOperand(source, sourceType, result.operands);
}

ParseResult ViewOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand source;
  SmallVector<int64_t, 1> offset;
  SmallVector<OpAsmParser::UnresolvedOperand, 4> dynamic, dims;
  Type sourceType, type;
  if (parser.parseOperand(source) ||
      detail::parseMixedList(parser, '[', 1, offset, dynamic))
    return failure();
  if (succeeded(parser.parseOptionalLParen()) &&
      (parser.parseOperandList(dims) || parser.parseRParen()))
    return failure();
  if (!ShapedType::isDynamic(offset[0]))
    result.addAttribute(kOffset,
                        parser.getBuilder().getI64IntegerAttr(offset[0]));
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(sourceType) || parser.parseKeyword("to") ||
      parser.parseType(type) ||
      parser.resolveOperand(source, sourceType, result.operands))
    return failure();
  Type index = parser.getBuilder().getIndexType();
  dynamic.append(dims);
  if (parser.resolveOperands(dynamic, SmallVector<Type>(dynamic.size(), index),
                             loc, result.operands))
    return failure();
  result.addTypes({type});
  return success();
}

//===----------------------------------------------------------------------===//
// gpu.weight
//===----------------------------------------------------------------------===//

void WeightOp::build(OpBuilder &builder, OperationState &state, Value buffer,
                     uint64_t offset, DenseElementsAttr value) {
  state.addOperands(buffer);
  state.addAttribute(kOffset, builder.getI64IntegerAttr(int64_t(offset)));
  state.addAttribute(kValue, value);
  state.addTypes({ViewType::get(cast<RankedTensorType>(value.getType()))});
}

uint64_t WeightOp::getOffset() {
  return state->getAttrOfType<IntegerAttr>(kOffset).getUInt();
}
DenseElementsAttr WeightOp::getValue() {
  return state->getAttrOfType<DenseElementsAttr>(kValue);
}
ViewType WeightOp::getType() {
  return cast<ViewType>(state->getResult(0).getType());
}

LogicalResult WeightOp::verify() {
  std::optional<uint64_t> offset = getOffsetAttr(state);
  if (!offset)
    return emitOpError("requires a non-negative integer 'offset'");
  auto value = state->getAttrOfType<DenseElementsAttr>(kValue);
  if (!value)
    return emitOpError("requires a dense elements 'value'");
  if (state->getNumResults() != 1 ||
      !isa<ViewType>(state->getResult(0).getType()))
    return emitOpError("must produce one !gpu.view");
  if (getType().getTensorType() != value.getType())
    return emitOpError() << "result " << getType()
                         << " does not match the type of its value "
                         << value.getType();
  auto buffer = state->getNumOperands() == 1
                    ? getBuffer().getDefiningOp<BufferOp>()
                    : BufferOp();
  if (!buffer || !buffer->getAttrOfType<StringAttr>(kKind) ||
      buffer->getAttrOfType<StringAttr>(kKind).getValue() != "weights")
    return emitOpError("must be placed in a 'weights' gpu.buffer");
  return verifyInBounds(state, getBuffer(), *offset,
                        getType().getSizeInBytes());
}

void WeightOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printOperand(getBuffer());
  p << "[" << std::to_string(getOffset()) << "]";
  p.printOptionalAttrDict(state->getAttrs(), {kOffset, kValue});
  p << " : ";
  p.printType(getBuffer().getType());
  p << " = ";
  p.printAttribute(getValue());
}

ParseResult WeightOp::parse(OpAsmParser &parser, OperationState &result) {
  Type bufferType;
  if (parsePlacement(parser, result, bufferType) || parser.parseEqual())
    return failure();
  llvm::SMLoc loc = parser.getCurrentLocation();
  Attribute value;
  if (parser.parseAttribute(value))
    return failure();
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense || !isa<RankedTensorType>(dense.getType()) ||
      !dense.getType().hasStaticShape())
    return parser.emitError(loc, "expected dense elements of a static shape");
  result.addAttribute(kValue, dense);
  result.addTypes({ViewType::get(cast<RankedTensorType>(dense.getType()))});
  return success();
}

//===----------------------------------------------------------------------===//
// gpu.alloc
//===----------------------------------------------------------------------===//

void AllocOp::build(OpBuilder &, OperationState &state, ViewType type,
                    ValueRange dynamicDims) {
  state.addOperands(dynamicDims);
  state.addTypes({type});
}

ViewType AllocOp::getType() {
  return cast<ViewType>(state->getResult(0).getType());
}

static constexpr StringRef kState = "state";

std::optional<unsigned> AllocOp::getStateArgument() {
  auto attr = state->getAttrOfType<IntegerAttr>(kState);
  if (!attr || attr.getValue().isNegative() ||
      attr.getValue().getActiveBits() > 31)
    return std::nullopt;
  return unsigned(attr.getUInt());
}

LogicalResult AllocOp::verify() {
  if (state->getNumResults() != 1 ||
      !isa<ViewType>(state->getResult(0).getType()))
    return emitOpError("produces one !gpu.view");
  if (failed(verifyDynamicDims(state, getType(), getDynamicDims())))
    return failure();
  if (!state->getAttr(kState))
    return success();
  // The state of an argument: of the same element type and rank (its
  // dims may be in another order, as the permuted download says).
  std::optional<unsigned> arg = getStateArgument();
  auto func = dyn_cast_or_null<FuncOp>(state->getParentOp());
  if (!arg || !func || *arg >= func.getNumArguments())
    return emitOpError("'state' must name an argument of the enclosing "
                       "func.func");
  auto argType = dyn_cast<RankedTensorType>(func.getArgument(*arg).getType());
  if (!argType || argType.getElementType() != getType().getElementType() ||
      argType.getRank() != int64_t(getType().getShape().size()))
    return emitOpError() << "holds the state of argument #" << *arg
                         << " of type " << func.getArgument(*arg).getType()
                         << ", which is not a tensor of the element type and "
                            "rank of "
                         << Type(getType());
  return success();
}

void AllocOp::print(OpAsmPrinter &p) {
  if (!getDynamicDims().empty()) {
    p << "(";
    p.printOperands(getDynamicDims());
    p << ")";
  }
  p.printOptionalAttrDict(state->getAttrs());
  p << " : ";
  p.printType(getType());
}

ParseResult AllocOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand, 4> dims;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalLParen()) &&
      (parser.parseOperandList(dims) || parser.parseRParen()))
    return failure();
  Type type;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type))
    return failure();
  Type index = parser.getBuilder().getIndexType();
  if (parser.resolveOperands(dims, SmallVector<Type>(dims.size(), index), loc,
                             result.operands))
    return failure();
  result.addTypes({type});
  return success();
}

} // namespace onyx::gpu

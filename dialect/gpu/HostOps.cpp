//===- HostOps.cpp - Integer work the runtime does on the host ------------===//
#include "dialect/gpu/HostOps.h"
#include "dialect/gpu/GpuTypes.h"
#include "dialect/gpu/OpAsmHelpers.h"

#include "ir/BuiltinOps.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>

namespace onyx::gpu {

static constexpr StringRef kIndex = "index";
static constexpr StringRef kValue = "value";

/// Checks that `value` is an argument of the func.func that holds `op`.
static LogicalResult verifyFunctionArgument(Operation *op, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != op->getBlock() ||
      !isa_and_nonnull<FuncOp>(op->getParentOp()))
    return op->emitOpError("reads an argument of the enclosing func.func");
  if (!isa<RankedTensorType>(value.getType()))
    return op->emitOpError()
           << "reads a ranked tensor, got " << value.getType();
  return success();
}

static LogicalResult verifyIndexResult(Operation *op) {
  if (op->getNumResults() != 1 || !op->getResult(0).getType().isIndex())
    return op->emitOpError("produces one index");
  return success();
}

static int64_t getIndexAttr(Operation *op) {
  return op->getAttrOfType<IntegerAttr>(kIndex).getInt();
}

/// gpu.dim and gpu.extract: one tensor argument of the function, an
/// integer `index` attribute and an index result.
static void buildArgumentAccess(OpBuilder &builder, OperationState &state,
                                Value tensor, int64_t index) {
  state.addOperands(tensor);
  state.addAttribute(kIndex, builder.getI64IntegerAttr(index));
  state.addTypes({builder.getIndexType()});
}

static LogicalResult verifyArgumentAccess(Operation *op) {
  if (op->getNumOperands() != 1 || !op->getAttrOfType<IntegerAttr>(kIndex))
    return op->emitOpError("takes one tensor and an integer 'index'");
  if (failed(verifyFunctionArgument(op, op->getOperand(0))) ||
      failed(verifyIndexResult(op)))
    return failure();
  return success();
}

/// `%tensor[index] {attrs} : type`, shared by gpu.dim and gpu.extract.
static void printArgumentAccess(OpAsmPrinter &p, Operation *op) {
  p << " ";
  p.printOperand(op->getOperand(0));
  p << "[" << std::to_string(getIndexAttr(op)) << "]";
  p.printOptionalAttrDict(op->getAttrs(), {kIndex});
  p << " : ";
  p.printType(op->getOperand(0).getType());
}

static ParseResult parseArgumentAccess(OpAsmParser &parser,
                                       OperationState &result) {
  OpAsmParser::UnresolvedOperand tensor;
  int64_t index;
  Type type;
  if (parser.parseOperand(tensor) || detail::parseOffset(parser, index))
    return failure();
  result.addAttribute(kIndex, parser.getBuilder().getI64IntegerAttr(index));
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperand(tensor, type, result.operands))
    return failure();
  result.addTypes({parser.getBuilder().getIndexType()});
  return success();
}

//===----------------------------------------------------------------------===//
// gpu.dim, gpu.extract, gpu.constant
//===----------------------------------------------------------------------===//

void DimOp::build(OpBuilder &builder, OperationState &state, Value tensor,
                  int64_t index) {
  buildArgumentAccess(builder, state, tensor, index);
}
int64_t DimOp::getIndex() { return getIndexAttr(state); }

LogicalResult DimOp::verify() {
  if (failed(verifyArgumentAccess(state)))
    return failure();
  int64_t rank = cast<RankedTensorType>(getTensor().getType()).getRank();
  if (getIndex() < 0 || getIndex() >= rank)
    return emitOpError() << "dimension " << getIndex()
                         << " is out of range for rank " << rank;
  return success();
}
void DimOp::print(OpAsmPrinter &p) { printArgumentAccess(p, state); }
ParseResult DimOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseArgumentAccess(parser, result);
}

void ExtractOp::build(OpBuilder &builder, OperationState &state, Value tensor,
                      int64_t index) {
  buildArgumentAccess(builder, state, tensor, index);
}
int64_t ExtractOp::getIndex() { return getIndexAttr(state); }

LogicalResult ExtractOp::verify() {
  if (failed(verifyArgumentAccess(state)))
    return failure();
  auto type = cast<RankedTensorType>(getTensor().getType());
  if (!type.hasStaticShape() || !(type.getElementType().isInteger() ||
                                  isa<FloatType>(type.getElementType())))
    return emitOpError()
           << "reads an integer or float tensor of static shape, got "
           << Type(type);
  if (getIndex() < 0 || getIndex() >= type.getNumElements())
    return emitOpError() << "element " << getIndex() << " is out of range for "
                         << Type(type);
  return success();
}
void ExtractOp::print(OpAsmPrinter &p) { printArgumentAccess(p, state); }
ParseResult ExtractOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseArgumentAccess(parser, result);
}

//===----------------------------------------------------------------------===//
// gpu.range_count
//===----------------------------------------------------------------------===//

void RangeCountOp::build(OpBuilder &builder, OperationState &state, Value start,
                         Value limit, Value delta) {
  state.addOperands({start, limit, delta});
  state.addTypes({builder.getIndexType()});
}

LogicalResult RangeCountOp::verify() {
  if (state->getNumOperands() != 3)
    return emitOpError("takes start, limit and delta");
  Type type = state->getOperand(0).getType();
  for (Value operand : state->getOperands()) {
    if (failed(verifyFunctionArgument(state, operand)))
      return failure();
    auto tensor = cast<RankedTensorType>(operand.getType());
    if (operand.getType() != type || !tensor.hasStaticShape() ||
        tensor.getNumElements() != 1 ||
        !isa<FloatType>(tensor.getElementType()))
      return emitOpError() << "reads three float tensors of one element and "
                              "one type, got "
                           << operand.getType();
  }
  return verifyIndexResult(state);
}

void RangeCountOp::print(OpAsmPrinter &p) {
  p << " ";
  for (unsigned i = 0; i < 3; ++i) {
    if (i)
      p << ", ";
    p.printOperand(state->getOperand(i));
  }
  p.printOptionalAttrDict(state->getAttrs());
  p << " : ";
  p.printType(state->getOperand(0).getType());
}

ParseResult RangeCountOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand, 3> operands(3);
  Type type;
  if (parser.parseOperand(operands[0]) || parser.parseComma() ||
      parser.parseOperand(operands[1]) || parser.parseComma() ||
      parser.parseOperand(operands[2]) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type))
    return failure();
  for (auto &operand : operands)
    if (parser.resolveOperand(operand, type, result.operands))
      return failure();
  result.addTypes({parser.getBuilder().getIndexType()});
  return success();
}

std::optional<int64_t> evaluateRangeCount(double start, double limit,
                                          double delta, std::string &error) {
  if (delta == 0) {
    error = "delta must not be 0";
    return std::nullopt;
  }
  double n = std::ceil((limit - start) / delta);
  if (std::isnan(n) || n >= 0x1p63) {
    error = "start, limit and delta do not give a finite number of elements";
    return std::nullopt;
  }
  return n <= 0 ? 0 : int64_t(n);
}

std::optional<int64_t> evaluateFloatExtract(double value, std::string &error) {
  double whole = std::trunc(value);
  if (!(whole >= -0x1p63 && whole < 0x1p63)) {
    error = "is not a finite 64-bit integer";
    return std::nullopt;
  }
  return int64_t(whole);
}

//===----------------------------------------------------------------------===//
// gpu.scale_dim
//===----------------------------------------------------------------------===//

void ScaleDimOp::build(OpBuilder &builder, OperationState &state, Value size,
                       Value tensor, int64_t index) {
  state.addOperands({size, tensor});
  state.addAttribute(kIndex, builder.getI64IntegerAttr(index));
  state.addTypes({builder.getIndexType()});
}
int64_t ScaleDimOp::getIndex() { return getIndexAttr(state); }

LogicalResult ScaleDimOp::verify() {
  if (state->getNumOperands() != 2 ||
      !state->getAttrOfType<IntegerAttr>(kIndex))
    return emitOpError("takes an index, a tensor and an integer 'index'");
  if (!getSize().getType().isIndex())
    return emitOpError() << "scales an index, got " << getSize().getType();
  if (failed(verifyFunctionArgument(state, getTensor())) ||
      failed(verifyIndexResult(state)))
    return failure();
  auto type = cast<RankedTensorType>(getTensor().getType());
  if (!type.hasStaticShape() || !isa<FloatType>(type.getElementType()))
    return emitOpError() << "reads a float tensor of static shape, got "
                         << Type(type);
  if (getIndex() < 0 || getIndex() >= type.getNumElements())
    return emitOpError() << "element " << getIndex() << " is out of range for "
                         << Type(type);
  return success();
}

void ScaleDimOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printOperand(getSize());
  p << ", ";
  p.printOperand(getTensor());
  p << "[" << std::to_string(getIndex()) << "]";
  p.printOptionalAttrDict(state->getAttrs(), {kIndex});
  p << " : ";
  p.printType(getTensor().getType());
}

ParseResult ScaleDimOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand size, tensor;
  int64_t index;
  Type type;
  if (parser.parseOperand(size) || parser.parseComma() ||
      parser.parseOperand(tensor) || detail::parseOffset(parser, index))
    return failure();
  result.addAttribute(kIndex, parser.getBuilder().getI64IntegerAttr(index));
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperand(size, parser.getBuilder().getIndexType(),
                            result.operands) ||
      parser.resolveOperand(tensor, type, result.operands))
    return failure();
  result.addTypes({parser.getBuilder().getIndexType()});
  return success();
}

std::optional<int64_t> evaluateScaleDim(int64_t size, double scale,
                                        std::string &error) {
  if (!(scale > 0) || !std::isfinite(scale)) {
    error = "is not positive and finite";
    return std::nullopt;
  }
  double scaled = std::floor(double(size) * scale);
  if (!(scaled >= -0x1p63 && scaled < 0x1p63)) {
    error = "gives a size that does not fit in 64 bits";
    return std::nullopt;
  }
  return int64_t(scaled);
}

//===----------------------------------------------------------------------===//
// gpu.read_count
//===----------------------------------------------------------------------===//

void ReadCountOp::build(OpBuilder &builder, OperationState &state, Value view) {
  state.addOperands(view);
  state.addTypes({builder.getIndexType()});
}

LogicalResult ReadCountOp::verify() {
  if (state->getNumOperands() != 1)
    return emitOpError("reads one view");
  auto type = dyn_cast<ViewType>(getView().getType());
  auto element =
      type ? dyn_cast<IntegerType>(type.getElementType()) : IntegerType();
  if (!type || !type.hasStaticShape() ||
      type.getTensorType().getNumElements() != 1 || !element ||
      (element.getWidth() != 32 && element.getWidth() != 64))
    return emitOpError() << "reads a view of one i32 or i64 element, got "
                         << getView().getType();
  if (!isa_and_nonnull<FuncOp>(state->getParentOp()))
    return emitOpError("must be in the body of a func.func");
  return verifyIndexResult(state);
}

void ReadCountOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printOperand(getView());
  p.printOptionalAttrDict(state->getAttrs());
  p << " : ";
  p.printType(getView().getType());
}

ParseResult ReadCountOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand view;
  Type type;
  if (parser.parseOperand(view) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperand(view, type, result.operands))
    return failure();
  result.addTypes({parser.getBuilder().getIndexType()});
  return success();
}

void ConstantOp::build(OpBuilder &builder, OperationState &state,
                       int64_t value) {
  state.addAttribute(kValue, builder.getI64IntegerAttr(value));
  state.addTypes({builder.getIndexType()});
}
int64_t ConstantOp::getValue() {
  return state->getAttrOfType<IntegerAttr>(kValue).getInt();
}
LogicalResult ConstantOp::verify() {
  if (state->getNumOperands() != 0 ||
      !state->getAttrOfType<IntegerAttr>(kValue))
    return emitOpError("takes no operands and an integer 'value'");
  return verifyIndexResult(state);
}
void ConstantOp::print(OpAsmPrinter &p) {
  p << " " << std::to_string(getValue());
  p.printOptionalAttrDict(state->getAttrs(), {kValue});
}
ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  int64_t value;
  if (detail::parseInteger(parser, value))
    return failure();
  result.addAttribute(kValue, parser.getBuilder().getI64IntegerAttr(value));
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.addTypes({parser.getBuilder().getIndexType()});
  return success();
}

//===----------------------------------------------------------------------===//
// The integer ops, a row each
//===----------------------------------------------------------------------===//

namespace {
using ArithFn = HostArithFn;

struct HostArithRow {
  StringRef name;
  ArithFn fn;
};

std::optional<int64_t> overflow(std::string &error) {
  error = "overflows 64 bits";
  return std::nullopt;
}
std::optional<int64_t> checkDivisor(int64_t b, std::string &error) {
  if (b != 0)
    return 0;
  error = "divides by zero";
  return std::nullopt;
}
/// Floor division, as index arithmetic rounds (and Python's //).
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

const HostArithRow kHostArithRows[] = {
    {"gpu.addi",
     [](int64_t a, int64_t b, std::string &e) -> std::optional<int64_t> {
       int64_t r;
       return llvm::AddOverflow(a, b, r) ? overflow(e) : r;
     }},
    {"gpu.subi",
     [](int64_t a, int64_t b, std::string &e) -> std::optional<int64_t> {
       int64_t r;
       return llvm::SubOverflow(a, b, r) ? overflow(e) : r;
     }},
    {"gpu.muli",
     [](int64_t a, int64_t b, std::string &e) -> std::optional<int64_t> {
       int64_t r;
       return llvm::MulOverflow(a, b, r) ? overflow(e) : r;
     }},
    {"gpu.floordivi",
     [](int64_t a, int64_t b, std::string &e) -> std::optional<int64_t> {
       if (!checkDivisor(b, e))
         return std::nullopt;
       if (a == INT64_MIN && b == -1)
         return overflow(e);
       return floorDiv(a, b);
     }},
    {"gpu.divi",
     [](int64_t a, int64_t b, std::string &e) -> std::optional<int64_t> {
       if (!checkDivisor(b, e))
         return std::nullopt;
       if (a == INT64_MIN && b == -1)
         return overflow(e);
       // Truncating toward zero, as C and ONNX's integer Div do.
       return a / b;
     }},
    {"gpu.ceildivi",
     [](int64_t a, int64_t b, std::string &e) -> std::optional<int64_t> {
       if (!checkDivisor(b, e))
         return std::nullopt;
       if (a == INT64_MIN && b == -1)
         return overflow(e);
       return floorDiv(a, b) + (a % b != 0 ? 1 : 0);
     }},
    {"gpu.remi",
     [](int64_t a, int64_t b, std::string &e) -> std::optional<int64_t> {
       if (!checkDivisor(b, e))
         return std::nullopt;
       if (b == -1)
         return 0;
       // The remainder of floor division: its sign is the divisor's.
       return a - floorDiv(a, b) * b;
     }},
    {"gpu.maxi",
     [](int64_t a, int64_t b, std::string &) -> std::optional<int64_t> {
       return std::max(a, b);
     }},
    {"gpu.mini",
     [](int64_t a, int64_t b, std::string &) -> std::optional<int64_t> {
       return std::min(a, b);
     }},
    // Comparisons give 1 or 0 (what gpu.select and gpu.assert test).
    {"gpu.eqi",
     [](int64_t a, int64_t b, std::string &) -> std::optional<int64_t> {
       return a == b;
     }},
    {"gpu.lti",
     [](int64_t a, int64_t b, std::string &) -> std::optional<int64_t> {
       return a < b;
     }},
    {"gpu.lei",
     [](int64_t a, int64_t b, std::string &) -> std::optional<int64_t> {
       return a <= b;
     }},
};

const HostArithRow *findRow(StringRef name) {
  for (const HostArithRow &row : kHostArithRows)
    if (row.name == name)
      return &row;
  return nullptr;
}

LogicalResult verifyIndexOperands(Operation *op, unsigned count,
                                  StringRef what) {
  if (op->getNumOperands() != count ||
      !llvm::all_of(op->getOperands().getTypes(),
                    [](Type t) { return t.isIndex(); }))
    return op->emitOpError() << "takes " << what << " index operands";
  return success();
}

LogicalResult verifyHostArith(Operation *op) {
  if (failed(verifyIndexOperands(op, 2, "two")))
    return failure();
  return verifyIndexResult(op);
}
} // namespace

/// `%a, %b, ... {attrs}`: the operands of the table's ops, gpu.select and
/// gpu.assert, all of type index.
static void printIndexOperands(Operation *op, OpAsmPrinter &p) {
  p << " ";
  p.printOperands(op->getOperands());
  p.printOptionalAttrDict(op->getAttrs());
}

static ParseResult parseIndexOperands(OpAsmParser &parser,
                                      OperationState &result,
                                      bool hasResult = true) {
  SmallVector<OpAsmParser::UnresolvedOperand, 2> operands;
  llvm::SMLoc loc = parser.getCurrentLocation();
  Type index = parser.getBuilder().getIndexType();
  if (parser.parseOperandList(operands) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.resolveOperands(operands,
                             SmallVector<Type>(operands.size(), index), loc,
                             result.operands))
    return failure();
  if (hasResult)
    result.addTypes({index});
  return success();
}

namespace {
void printHostArith(Operation *op, OpAsmPrinter &p) {
  printIndexOperands(op, p);
}
ParseResult parseHostArith(OpAsmParser &parser, OperationState &result) {
  return parseIndexOperands(parser, result);
}
} // namespace

Value HostArithOp::create(OpBuilder &builder, Location loc, StringRef name,
                          Value lhs, Value rhs) {
  assert(findRow(name) && "not a host integer op");
  OperationState state(loc, name);
  state.addOperands({lhs, rhs});
  state.addTypes({builder.getIndexType()});
  return builder.create(state)->getResult(0);
}

std::optional<int64_t> evaluateHostArith(StringRef name, int64_t lhs,
                                         int64_t rhs, std::string &error) {
  const HostArithRow *row = findRow(name);
  assert(row && "not a host integer op");
  return row->fn(lhs, rhs, error);
}

FailureOr<int64_t> HostArithOp::evaluate(int64_t lhs, int64_t rhs,
                                         std::string &error) {
  std::optional<int64_t> result =
      findRow(state->getName().getStringRef())->fn(lhs, rhs, error);
  if (!result)
    return failure();
  return *result;
}

HostArithFn HostArithOp::getFunction() {
  return findRow(state->getName().getStringRef())->fn;
}

SmallVector<StringRef> getHostArithOpNames() {
  SmallVector<StringRef> names;
  for (const HostArithRow &row : kHostArithRows)
    names.push_back(row.name);
  return names;
}

void fillHostArithOpInfo(OpInfo *info) {
  info->typeID = HostArithOp::getTypeID();
  info->verify = verifyHostArith;
  info->print = printHostArith;
  info->parse = parseHostArith;
}

//===----------------------------------------------------------------------===//
// gpu.select, gpu.assert
//===----------------------------------------------------------------------===//

void SelectOp::build(OpBuilder &builder, OperationState &state, Value condition,
                     Value trueValue, Value falseValue) {
  state.addOperands({condition, trueValue, falseValue});
  state.addTypes({builder.getIndexType()});
}
LogicalResult SelectOp::verify() {
  if (failed(verifyIndexOperands(state, 3, "three")))
    return failure();
  return verifyIndexResult(state);
}
void SelectOp::print(OpAsmPrinter &p) { printIndexOperands(state, p); }
ParseResult SelectOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseIndexOperands(parser, result);
}

static constexpr StringRef kMessage = "message";

void AssertOp::build(OpBuilder &builder, OperationState &state, Value condition,
                     StringRef message, ValueRange values) {
  state.addOperands(condition);
  state.addOperands(values);
  state.addAttribute(kMessage, builder.getStringAttr(message));
}
StringRef AssertOp::getMessage() {
  return state->getAttrOfType<StringAttr>(kMessage).getValue();
}
std::string AssertOp::formatMessage(ArrayRef<int64_t> values) {
  return formatAssertMessage(getMessage(), values);
}

std::string formatAssertMessage(StringRef message, ArrayRef<int64_t> values) {
  std::string text;
  while (!message.empty()) {
    size_t open = message.find('{');
    text += message.take_front(open).str();
    if (open == StringRef::npos)
      break;
    message = message.drop_front(open);
    size_t close = message.find('}');
    unsigned index;
    if (close != StringRef::npos &&
        !message.slice(1, close).getAsInteger(10, index) &&
        index < values.size()) {
      text += std::to_string(values[index]);
      message = message.drop_front(close + 1);
    } else {
      text += '{';
      message = message.drop_front();
    }
  }
  return text;
}
LogicalResult AssertOp::verify() {
  if (state->getNumOperands() < 1 ||
      !llvm::all_of(state->getOperands().getTypes(),
                    [](Type t) { return t.isIndex(); }) ||
      !state->getAttrOfType<StringAttr>(kMessage))
    return emitOpError("takes a condition, index values and a 'message'");
  if (state->getNumResults() != 0)
    return emitOpError("has no results");
  return success();
}
void AssertOp::print(OpAsmPrinter &p) { printIndexOperands(state, p); }
ParseResult AssertOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseIndexOperands(parser, result, /*hasResult=*/false);
}

bool isHostOp(Operation *op) {
  return isa<DimOp, ExtractOp, ConstantOp, HostArithOp, RangeCountOp,
             ScaleDimOp, ReadCountOp, SelectOp, AssertOp>(op);
}

} // namespace onyx::gpu

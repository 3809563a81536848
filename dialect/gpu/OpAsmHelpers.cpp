//===- OpAsmHelpers.cpp - Pieces of the gpu ops' custom forms -------------===//
#include "dialect/gpu/OpAsmHelpers.h"

#include "ir/Attributes.h"
#include "ir/Types.h"

namespace onyx::gpu::detail {

ParseResult parseInteger(OpAsmParser &parser, int64_t &value) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  Attribute attr;
  if (parser.parseAttribute(attr))
    return failure();
  auto intAttr = dyn_cast<IntegerAttr>(attr);
  if (!intAttr || intAttr.getValue().getSignificantBits() > 64)
    return parser.emitError(loc, "expected an integer");
  value = intAttr.getInt();
  return success();
}

ParseResult parseOffset(OpAsmParser &parser, int64_t &offset) {
  // The parser has no square-bracket primitive; `[N]` is an array literal.
  llvm::SMLoc loc = parser.getCurrentLocation();
  Attribute attr;
  if (parser.parseAttribute(attr))
    return failure();
  auto list = dyn_cast<ArrayAttr>(attr);
  if (!list || list.size() != 1 || !isa<IntegerAttr>(list[0]))
    return parser.emitError(loc, "expected '[' byte offset ']'");
  offset = cast<IntegerAttr>(list[0]).getInt();
  return success();
}

ParseResult parseIntegerTuple(OpAsmParser &parser, unsigned count,
                              SmallVectorImpl<int64_t> &values) {
  if (parser.parseLParen())
    return failure();
  for (unsigned i = 0; i < count; ++i) {
    int64_t value;
    if ((i && parser.parseComma()) || parseInteger(parser, value))
      return failure();
    values.push_back(value);
  }
  return parser.parseRParen();
}

void printIntegerTuple(OpAsmPrinter &p, ArrayRef<int64_t> values) {
  p << "(";
  llvm::interleaveComma(values, p.getStream());
  p << ")";
}

ParseResult parseOperandOrOtherList(
    OpAsmParser &parser,
    llvm::function_ref<ParseResult(const OpAsmParser::UnresolvedOperand *)>
        entry) {
  do {
    OpAsmParser::UnresolvedOperand operand;
    bool present;
    if (parser.parseOptionalOperand(operand, present) ||
        entry(present ? &operand : nullptr))
      return failure();
  } while (succeeded(parser.parseOptionalComma()));
  return success();
}

ParseResult
parseMixedList(OpAsmParser &parser, char open, unsigned count,
               SmallVectorImpl<int64_t> &values,
               SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dynamic) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (open == '[' ? parser.parseLSquare() : parser.parseLParen())
    return failure();
  unsigned n = 0;
  if (open == '(' && count == 0 && succeeded(parser.parseOptionalRParen()))
    return success();
  auto entry = [&](const OpAsmParser::UnresolvedOperand *operand) {
    ++n;
    int64_t value = ShapedType::kDynamic;
    if (operand)
      dynamic.push_back(*operand);
    else if (parseInteger(parser, value))
      return failure();
    values.push_back(value);
    return success();
  };
  if (parseOperandOrOtherList(parser, entry))
    return failure();
  if (open == '[' ? parser.parseRSquare() : parser.parseRParen())
    return failure();
  if (count && n != count)
    return parser.emitError(loc) << "expected " << count << " entries";
  return success();
}

void printMixedList(OpAsmPrinter &p, char open, ArrayRef<int64_t> values,
                    ValueRange dynamic) {
  p << open;
  unsigned next = 0;
  llvm::interleaveComma(values, p.getStream(), [&](int64_t v) {
    if (ShapedType::isDynamic(v))
      p.printOperand(dynamic[next++]);
    else
      p << std::to_string(v);
  });
  p << (open == '[' ? ']' : ')');
}

} // namespace onyx::gpu::detail

//===- CustomOpAsmParser.cpp - What an op's parse hook sees
//-----------------===//
//
// An op's custom form is read by its parse hook through OpAsmParser; this
// file implements that interface over the Parser (without giving hooks the
// lexer) and parses an op in custom form.
//
//===----------------------------------------------------------------------===//

#include "ir/ParserImpl.h"

#include "llvm/ADT/ScopeExit.h"

using namespace onyx;
using namespace onyx::detail;

//===----------------------------------------------------------------------===//
// CustomOpAsmParser
//===----------------------------------------------------------------------===//

namespace onyx::detail {

/// What an op's parse hook sees: the parser's services, without the lexer.

class CustomOpAsmParser final : public OpAsmParser {
public:
  CustomOpAsmParser(Parser &parser, OpInfo *info)
      : parser(parser), info(info) {}

  Builder &getBuilder() const override { return parser.builder; }
  llvm::SMLoc getCurrentLocation() override { return parser.tok.getLoc(); }
  Location getEncodedSourceLoc(llvm::SMLoc loc) override {
    return parser.getLocation(loc.getPointer());
  }
  /// Errors of the hook are prefixed with the op's name, as in MLIR.
  InFlightDiagnostic emitError(llvm::SMLoc loc,
                               const llvm::Twine &message) override {
    return parser.emitError(loc.getPointer(),
                            "custom op '" + info->getName() + "' " + message);
  }

  ParseResult parseArrow() override {
    return parser.expect(Token::Arrow, "expected '->'");
  }
  ParseResult parseOptionalArrow() override {
    return success(parser.consumeIf(Token::Arrow));
  }
  ParseResult parseColon() override {
    return parser.expect(Token::Colon, "expected ':'");
  }
  ParseResult parseOptionalColon() override {
    return success(parser.consumeIf(Token::Colon));
  }
  ParseResult parseComma() override {
    return parser.expect(Token::Comma, "expected ','");
  }
  ParseResult parseOptionalComma() override {
    return success(parser.consumeIf(Token::Comma));
  }
  ParseResult parseEqual() override {
    return parser.expect(Token::Equal, "expected '='");
  }
  ParseResult parseLParen() override {
    return parser.expect(Token::LParen, "expected '('");
  }
  ParseResult parseOptionalLParen() override {
    return success(parser.consumeIf(Token::LParen));
  }
  ParseResult parseRParen() override {
    return parser.expect(Token::RParen, "expected ')'");
  }
  ParseResult parseOptionalRParen() override {
    return success(parser.consumeIf(Token::RParen));
  }
  ParseResult parseLSquare() override {
    return parser.expect(Token::LSquare, "expected '['");
  }
  ParseResult parseRSquare() override {
    return parser.expect(Token::RSquare, "expected ']'");
  }
  ParseResult parseLBrace() override {
    return parser.expect(Token::LBrace, "expected '{'");
  }
  ParseResult parseOptionalLBrace() override {
    return success(parser.consumeIf(Token::LBrace));
  }
  ParseResult parseRBrace() override {
    return parser.expect(Token::RBrace, "expected '}'");
  }

  ParseResult parseKeyword(StringRef keyword) override {
    if (parser.consumeKeywordIf(keyword))
      return success();
    return emitError(getCurrentLocation(), "expected '" + keyword + "'");
  }
  ParseResult parseOptionalKeyword(StringRef keyword) override {
    return success(parser.consumeKeywordIf(keyword));
  }
  ParseResult parseOptionalKeyword(StringRef *keyword) override {
    if (parser.tok.isNot(Token::BareIdentifier))
      return failure();
    *keyword = parser.tok.getSpelling();
    parser.consume();
    return success();
  }
  ParseResult parseSymbolName(StringAttr &name) override {
    if (succeeded(parseOptionalSymbolName(name)))
      return success();
    return emitError(getCurrentLocation(),
                     "expected valid '@'-identifier for symbol name");
  }
  ParseResult parseOptionalSymbolName(StringAttr &name) override {
    if (parser.tok.isNot(Token::AtIdentifier))
      return failure();
    name = StringAttr::get(parser.ctx,
                           getSymbolName(parser.tok, parser.stringStorage));
    parser.consume();
    return success();
  }

  ParseResult parseType(Type &type) override {
    type = parser.parseType();
    return success(bool(type));
  }
  ParseResult parseColonType(Type &type) override {
    if (failed(parseColon()))
      return failure();
    return parseType(type);
  }
  ParseResult parseColonTypeList(SmallVectorImpl<Type> &types) override {
    if (failed(parseColon()))
      return failure();
    do {
      Type type = parser.parseType();
      if (!type)
        return failure();
      types.push_back(type);
    } while (parser.consumeIf(Token::Comma));
    return success();
  }
  ParseResult
  parseFunctionResultTypes(SmallVectorImpl<Type> &types,
                           SmallVectorImpl<DictionaryAttr> &attrs) override {
    // Works whether or not the caller consumed the arrow: without one there
    // are no results.
    parser.consumeIf(Token::Arrow);
    if (parser.prevTok.isNot(Token::Arrow))
      return success();
    DictionaryAttr empty = DictionaryAttr::get(parser.ctx, {});
    if (parser.tok.isNot(Token::LParen)) {
      Type type = parser.parseNonFunctionType();
      if (!type)
        return failure();
      types.push_back(type);
      attrs.push_back(empty);
      return success();
    }
    parser.consume();
    if (parser.consumeIf(Token::RParen))
      return success();
    do {
      Type type = parser.parseType();
      if (!type)
        return failure();
      types.push_back(type);
      SmallVector<NamedAttribute, 2> resultAttrs;
      if (parser.tok.is(Token::LBrace) &&
          failed(parser.parseAttributeDict(resultAttrs)))
        return failure();
      attrs.push_back(resultAttrs.empty()
                          ? empty
                          : DictionaryAttr::get(parser.ctx, resultAttrs));
    } while (parser.consumeIf(Token::Comma));
    return parser.expect(Token::RParen, "expected ')'");
  }
  ParseResult parseAttribute(Attribute &attr, Type type) override {
    attr = parser.parseAttribute(type);
    return success(bool(attr));
  }
  ParseResult
  parseOptionalAttrDict(SmallVectorImpl<NamedAttribute> &attrs) override {
    if (parser.tok.isNot(Token::LBrace))
      return success();
    return parser.parseAttributeDict(attrs);
  }
  ParseResult parseOptionalAttrDictWithKeyword(
      SmallVectorImpl<NamedAttribute> &attrs) override {
    if (!parser.consumeKeywordIf("attributes"))
      return success();
    return parser.parseAttributeDict(attrs);
  }
  ParseResult
  parseOptionalLocationSpecifier(std::optional<Location> &loc) override {
    if (!parser.tok.isKeyword("loc"))
      return success();
    Location parsed;
    if (failed(parser.parseLocationSpecifier(parsed, /*allowDeferred=*/true)))
      return failure();
    loc = parsed;
    return success();
  }

  ParseResult parseOperand(UnresolvedOperand &operand) override {
    return parser.parseSSAUse(operand);
  }
  ParseResult parseOptionalOperand(UnresolvedOperand &operand,
                                   bool &present) override {
    present = parser.tok.is(Token::PercentIdentifier);
    return present ? parser.parseSSAUse(operand) : success();
  }
  ParseResult parseOperandList(SmallVectorImpl<UnresolvedOperand> &operands,
                               Delimiter delimiter) override {
    return parser.parseCommaSeparatedList(
        delimiter,
        [&]() -> ParseResult {
          UnresolvedOperand operand;
          if (failed(parser.parseSSAUse(operand)))
            return failure();
          operands.push_back(operand);
          return success();
        },
        [&] { return parser.tok.is(Token::PercentIdentifier); });
  }
  ParseResult resolveOperand(const UnresolvedOperand &operand, Type type,
                             SmallVectorImpl<Value> &result) override {
    Value value = parser.resolveSSAUse(operand, type);
    if (!value)
      return failure();
    result.push_back(value);
    return success();
  }

  ParseResult parseArgumentList(SmallVectorImpl<Argument> &args,
                                Delimiter delimiter, bool allowAttrs) override {
    return parser.parseCommaSeparatedList(
        delimiter,
        [&]() -> ParseResult {
          // `%name: type` or, in declarations, just `type` (left unnamed).
          Argument arg;
          arg.ssaName.location = parser.tok.getLoc();
          if (parser.tok.is(Token::PercentIdentifier)) {
            arg.ssaName.name = parser.tok.getSpelling();
            parser.consume();
            if (failed(parseColonType(arg.type)))
              return failure();
          } else if (failed(parseType(arg.type))) {
            return failure();
          }
          SmallVector<NamedAttribute, 2> attrs;
          if (allowAttrs && parser.tok.is(Token::LBrace) &&
              failed(parser.parseAttributeDict(attrs)))
            return failure();
          arg.attrs = DictionaryAttr::get(parser.ctx, attrs);
          if (failed(parseOptionalLocationSpecifier(arg.sourceLoc)))
            return failure();
          args.push_back(arg);
          return success();
        },
        [&] { return parser.tok.is(Token::PercentIdentifier); });
  }
  ParseResult parseRegion(Region &region,
                          ArrayRef<Argument> arguments) override {
    return parser.parseRegion(region, arguments,
                              info->hasTrait(OpTrait::IsolatedFromAbove));
  }
  ParseResult parseOptionalRegion(Region &region, ArrayRef<Argument> arguments,
                                  bool *parsed) override {
    bool present = parser.tok.is(Token::LBrace);
    if (parsed)
      *parsed = present;
    if (!present)
      return success();
    return parseRegion(region, arguments);
  }

private:
  Parser &parser;
  OpInfo *info;
};
} // namespace onyx::detail

Operation *Parser::parseCustomOperation(Block *block) {
  const char *nameLoc = tok.getPtr();
  StringRef name = tok.getSpelling();
  OpInfo *info;
  if (name.contains('.')) {
    OpInfo *&cached = opInfoCache[name];
    if (!cached) {
      cached = lookupCustomOpInfo(name, nameLoc);
      if (!cached) {
        opInfoCache.erase(name);
        return nullptr;
      }
    }
    info = cached;
  } else {
    // What a bare name means depends on the enclosing op: not cached.
    info = lookupCustomOpInfo(name, nameLoc);
    if (!info)
      return nullptr;
  }
  if (!info->parse) {
    return nullError("custom op '" + name + "' has no custom assembly form");
  }
  consume();

  PendingOperation pending(getLocation(nameLoc), OperationName(info));
  // As in MLIR, the op's regions resolve bare op names in its default
  // dialect (none unless it declares one), whatever encloses it.
  defaultDialects.push_back(info->defaultDialect);
  auto popDefault = llvm::make_scope_exit([&] { defaultDialects.pop_back(); });
  CustomOpAsmParser asmParser(*this, info);
  if (failed(info->parse(asmParser, pending.state))) {
    // Hooks report their errors; make sure one is reported in any case.
    return nullError(nameLoc, "failed to parse custom op '" + name + "'");
  }
  Operation *op = pending.create(block);
  if (failed(parseTrailingLocation(op)))
    return nullptr;
  return op;
}

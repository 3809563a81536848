//===- Parser.cpp - Reading IR text
//-----------------------------------------===//
//
// The parser's state, its diagnostics and its entry points (ir/Parser.h).
// The rest of it, by the part of the syntax each reads: TypeParser.cpp,
// AttributeParser.cpp, LocationParser.cpp, OperationParser.cpp and
// CustomOpAsmParser.cpp; ParserImpl.h declares the Parser they share.
//
//===----------------------------------------------------------------------===//

#include "ir/ParserImpl.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace onyx;
using namespace onyx::detail;

OpAsmParser::~OpAsmParser() = default;

Context *OpAsmParser::getContext() const { return getBuilder().getContext(); }

ParseResult OpAsmParser::resolveOperands(ArrayRef<UnresolvedOperand> operands,
                                         ArrayRef<Type> types, llvm::SMLoc loc,
                                         SmallVectorImpl<Value> &result) {
  if (operands.size() != types.size())
    return emitError(loc) << operands.size()
                          << " operands present, but expected " << types.size();
  for (size_t i = 0, e = operands.size(); i < e; ++i)
    if (failed(resolveOperand(operands[i], types[i], result)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Parser: tokens and diagnostics
//===----------------------------------------------------------------------===//

Parser::Parser(Context *ctx, StringRef buffer, StringRef bufferName)
    : ctx(ctx), builder(ctx), lexer(buffer), bufferName(bufferName),
      bufferNameAttr(StringAttr::get(ctx, bufferName)),
      bufferBegin(buffer.begin()), bufferEnd(buffer.end()) {
  // Errors reported by hooks (custom op parsers, dialect type parsers) count
  // as the one error of this parse too.
  handlerID = ctx->getDiagEngine().registerHandler([this](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      errorReported = true;
    return failure();
  });
  tok = lexer.lexToken();
}

Parser::~Parser() { ctx->getDiagEngine().eraseHandler(handlerID); }

Location Parser::getLocation(const char *ptr) {
  if (!ptr || ptr < bufferBegin || ptr > bufferEnd)
    return UnknownLoc::get(ctx);
  auto [line, column] = lexer.getLineAndColumn(ptr);
  // As FileLineColLoc::get, without looking up the file name every time:
  // every op gets a location.
  return FileLineColLoc(ctx->unique<detail::FileLineColLocStorage>(
      detail::FileLineColLocStorage::KeyTy(bufferNameAttr, line, column)));
}

InFlightDiagnostic Parser::emitError(const char *ptr,
                                     const llvm::Twine &message) {
  if (errorReported)
    return InFlightDiagnostic();
  errorReported = true;
  if (tok.is(Token::Error))
    return onyx::emitError(getLocation(lexer.getErrorPtr()),
                           lexer.getErrorMessage());
  return onyx::emitError(getLocation(ptr), message);
}

const char *Parser::wrongTokenLoc() const {
  const char *ptr = tok.getPtr();
  if (tok.is(Token::Eof) && ptr > bufferBegin)
    --ptr;
  StringRef before(bufferBegin, ptr - bufferBegin);
  while (true) {
    before = before.rtrim(" \t");
    if (before.empty())
      return ptr;
    if (before.back() != '\n' && before.back() != '\r')
      return before.end();
    before = before.drop_back();
    // Step back over a comment at the end of the previous line.
    StringRef prevLine = before;
    size_t lineStart = prevLine.find_last_of("\n\r");
    if (lineStart != StringRef::npos)
      prevLine = prevLine.drop_front(lineStart);
    size_t comment = prevLine.find("//");
    if (comment != StringRef::npos)
      before = before.drop_back(prevLine.size() - comment);
  }
}

ParseResult Parser::checkNesting() {
  if (depth <= kMaxNestingDepth)
    return success();
  return emitError("nesting is deeper than the limit of " +
                   llvm::Twine(kMaxNestingDepth));
}

ParseResult
Parser::parseCommaSeparatedList(Delimiter delimiter,
                                llvm::function_ref<ParseResult()> elt,
                                llvm::function_ref<bool()> isStart) {
  Token::Kind close = Token::RParen;
  switch (delimiter) {
  case Delimiter::None:
    if (!isStart())
      return success();
    do {
      if (failed(elt()))
        return failure();
    } while (consumeIf(Token::Comma));
    return success();
  case Delimiter::OptionalParen:
    if (tok.isNot(Token::LParen))
      return success();
    [[fallthrough]];
  case Delimiter::Paren:
    if (failed(expect(Token::LParen, "expected '('")))
      return failure();
    break;
  case Delimiter::Square:
    if (failed(expect(Token::LSquare, "expected '['")))
      return failure();
    close = Token::RSquare;
    break;
  }
  if (consumeIf(close))
    return success();
  do {
    if (failed(elt()))
      return failure();
  } while (consumeIf(Token::Comma));
  return expect(close, close == Token::RParen ? "expected ',' or ')'"
                                              : "expected ',' or ']'");
}

//===----------------------------------------------------------------------===//
// Parser: entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> Parser::parseModule() {
  // Top-level ops go into an implicit module, which is dropped again if the
  // file holds exactly one module.
  ModuleOp wrapper =
      ModuleOp::create(FileLineColLoc::get(ctx, bufferName, 0, 0));
  pushSSAScope(/*isolated=*/true);
  // The implicit module is a level of nesting, as the printer writes it.
  NestingScope implicitModule(*this);
  if (failed(parseTopLevelItems(wrapper.getBody())) || failed(popSSAScope()) ||
      failed(resolveDeferredLocations(wrapper))) {
    wrapper->dropAllReferences();
    wrapper->erase();
    return nullptr;
  }
  Block *body = wrapper.getBody();
  if (!body->empty() && &body->front() == &body->back() &&
      isa<ModuleOp>(body->front())) {
    Operation *module = &body->front();
    module->remove();
    wrapper->erase();
    return cast<ModuleOp>(module);
  }
  return wrapper;
}

Type Parser::parseStandaloneType() {
  Type type = parseType();
  if (type && tok.isNot(Token::Eof)) {
    return nullError("found trailing characters: '" +
                     StringRef(tok.getPtr(), bufferEnd - tok.getPtr()) + "'");
  }
  return type;
}

Attribute Parser::parseStandaloneAttribute() {
  Attribute attr = parseAttribute();
  if (attr && tok.isNot(Token::Eof)) {
    return nullError("found trailing characters: '" +
                     StringRef(tok.getPtr(), bufferEnd - tok.getPtr()) + "'");
  }
  return attr;
}

OwningOpRef<ModuleOp> onyx::parseSourceFile(const llvm::SourceMgr &sourceMgr,
                                            Context *ctx) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  Parser parser(ctx, buffer->getBuffer(), buffer->getBufferIdentifier());
  return parser.parseModule();
}

OwningOpRef<ModuleOp> onyx::parseSourceString(StringRef source, Context *ctx,
                                              StringRef bufferName) {
  Parser parser(ctx, source, bufferName);
  return parser.parseModule();
}

Type onyx::parseType(StringRef text, Context *ctx) {
  Parser parser(ctx, text, "<type>");
  return parser.parseStandaloneType();
}

Attribute onyx::parseAttribute(StringRef text, Context *ctx) {
  Parser parser(ctx, text, "<attribute>");
  return parser.parseStandaloneAttribute();
}

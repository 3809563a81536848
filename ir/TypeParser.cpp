//===- TypeParser.cpp - Reading types
//---------------------------------------===//
//
// Builtin types (integers, floats, index, tensors, functions), dialect
// types through their dialect's hook, and `!alias` references. Whole-type
// spellings seen recently are recognized through a small cache.
//
//===----------------------------------------------------------------------===//

#include "ir/ParserImpl.h"

using namespace onyx;
using namespace onyx::detail;

//===----------------------------------------------------------------------===//
// Parser: types
//===----------------------------------------------------------------------===//

/// Whether `spelling` is `iN`, `siN` or `uiN`; sets the signedness and the
/// digits of N.
static bool isIntegerTypeSpelling(StringRef spelling,
                                  IntegerType::Signedness &signedness,
                                  StringRef &digits) {
  if (spelling.consume_front("si"))
    signedness = IntegerType::Signed;
  else if (spelling.consume_front("ui"))
    signedness = IntegerType::Unsigned;
  else if (spelling.consume_front("i"))
    signedness = IntegerType::Signless;
  else
    return false;
  digits = spelling;
  return !digits.empty() && llvm::all_of(digits, llvm::isDigit);
}

/// Whether a bare identifier starts a type (rather than an attribute).
bool detail::isBuiltinTypeKeyword(StringRef spelling) {
  IntegerType::Signedness signedness;
  StringRef digits;
  return spelling == "tensor" || spelling == "index" || spelling == "none" ||
         spelling == "f16" || spelling == "bf16" || spelling == "f32" ||
         spelling == "f64" ||
         isIntegerTypeSpelling(spelling, signedness, digits);
}

/// Characters that may continue the last token of a type.
static bool continuesToken(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-' ||
         c == '<';
}

Type Parser::parseOutermostType() {
  const char *start = tok.getPtr();
  size_t available = bufferEnd - start;
  if (tok.isNot(Token::Error)) {
    for (const CachedType &cached : typeCache) {
      size_t size = cached.text.size();
      if (!cached.type || size > available || cached.text[0] != start[0] ||
          cached.text.back() != start[size - 1] ||
          std::memcmp(cached.text.data(), start, size) != 0)
        continue;
      // The text must end here, not inside a longer token (`i32` in `i320`).
      if (continuesToken(cached.text.back()) && size < available &&
          continuesToken(start[size]))
        continue;
      lexer.resetPointer(start + size);
      consume();
      return cached.type;
    }
  }
  parsingType = true;
  Type type = parseType();
  parsingType = false;
  if (!type)
    return {};
  StringRef text(start, prevTok.getEndPtr() - start);
  if (!text.contains('\n')) {
    typeCache[nextTypeCacheSlot] = {text, type};
    nextTypeCacheSlot = (nextTypeCacheSlot + 1) % typeCache.size();
  }
  return type;
}

Type Parser::parseType() {
  if (!parsingType)
    return parseOutermostType();
  NestingScope nest(*this);
  if (failed(checkNesting()))
    return {};
  if (tok.is(Token::LParen))
    return parseFunctionType();
  return parseNonFunctionType();
}

Type Parser::parseNonFunctionType() {
  switch (tok.getKind()) {
  case Token::ExclamationIdentifier:
    return parseExtendedType();
  case Token::BareIdentifier:
    return parseBuiltinType();
  default:
    return nullError(wrongTokenLoc(), "expected non-function type");
  }
}

Type Parser::parseBuiltinType() {
  StringRef spelling = tok.getSpelling();
  // Sorted roughly by frequency in real programs.
  if (spelling == "tensor")
    return parseTensorType();
  Type result;
  if (spelling == "f32")
    result = FloatType::getF32(ctx);
  else if (spelling == "index")
    result = IndexType::get(ctx);
  else if (spelling == "f16")
    result = FloatType::getF16(ctx);
  else if (spelling == "f64")
    result = FloatType::getF64(ctx);
  else if (spelling == "bf16")
    result = FloatType::getBF16(ctx);
  else if (spelling == "none")
    result = NoneType::get(ctx);
  IntegerType::Signedness signedness;
  StringRef digits;
  if (!result && isIntegerTypeSpelling(spelling, signedness, digits)) {
    unsigned width;
    if (digits.size() > 8 || digits.getAsInteger(10, width) ||
        width > kMaxIntegerWidth) {
      return nullError("integer bitwidth is limited to " +
                       llvm::Twine(kMaxIntegerWidth) + " bits");
    }
    result = IntegerType::get(ctx, width, signedness);
  }
  if (!result) {
    return nullError(wrongTokenLoc(), "expected non-function type");
  }
  consume();
  return result;
}

static bool isValidTensorElementType(Type type) {
  switch (type.getKind()) {
  case TypeKind::Integer:
  case TypeKind::Index:
  case TypeKind::Float:
  case TypeKind::Opaque:
  case TypeKind::Dialect:
    return true;
  default:
    return false;
  }
}

Type Parser::parseTensorType() {
  consume(); // tensor
  if (failed(expect(Token::Less, "expected '<' in tensor type")))
    return {};
  SmallVector<int64_t, 4> shape;
  bool ranked = true;
  if (consumeIf(Token::Star)) {
    ranked = false;
    if (failed(parseXInDimensionList()))
      return {};
  } else if (failed(parseDimensionList(shape))) {
    return {};
  }
  const char *eltLoc = tok.getPtr();
  Type elementType = parseType();
  if (!elementType ||
      failed(expect(Token::Greater, "expected '>' in tensor type")))
    return {};
  if (!isValidTensorElementType(elementType)) {
    return nullError(eltLoc, "invalid tensor element type");
  }
  if (!ranked)
    return UnrankedTensorType::get(elementType);
  return RankedTensorType::get(shape, elementType);
}

ParseResult Parser::parseDimensionList(SmallVectorImpl<int64_t> &shape) {
  while (tok.is(Token::Integer) || tok.is(Token::Question)) {
    if (consumeIf(Token::Question)) {
      shape.push_back(ShapedType::kDynamic);
    } else {
      StringRef spelling = tok.getSpelling();
      if (spelling.size() > 1 && spelling[1] == 'x') {
        // `0xf32` lexes as a hex number; in a shape it means `0 x f32`.
        shape.push_back(0);
        lexer.resetPointer(spelling.data() + 1);
      } else {
        uint64_t dim;
        if (spelling.getAsInteger(10, dim) ||
            dim > uint64_t(std::numeric_limits<int64_t>::max()))
          return emitError("invalid dimension");
        shape.push_back(int64_t(dim));
      }
      consume();
    }
    if (failed(parseXInDimensionList()))
      return failure();
  }
  return success();
}

ParseResult Parser::parseXInDimensionList() {
  if (tok.isNot(Token::BareIdentifier) || tok.getSpelling()[0] != 'x')
    return emitError("expected 'x' in dimension list");
  // `x3xf32` is one identifier token: continue lexing right after the 'x'.
  if (tok.getSpelling().size() != 1)
    lexer.resetPointer(tok.getPtr() + 1);
  consume();
  return success();
}

ParseResult Parser::parseTypeListParens(SmallVectorImpl<Type> &types) {
  if (failed(expect(Token::LParen, "expected '('")))
    return failure();
  if (consumeIf(Token::RParen))
    return success();
  do {
    Type type = parseType();
    if (!type)
      return failure();
    types.push_back(type);
  } while (consumeIf(Token::Comma));
  return expect(Token::RParen, "expected ')'");
}

ParseResult Parser::parseFunctionResultTypes(SmallVectorImpl<Type> &types) {
  if (tok.is(Token::LParen))
    return parseTypeListParens(types);
  Type type = parseNonFunctionType();
  if (!type)
    return failure();
  types.push_back(type);
  return success();
}

Type Parser::parseFunctionType() {
  SmallVector<Type, 4> inputs, results;
  if (failed(parseTypeListParens(inputs)) ||
      failed(expect(Token::Arrow, "expected '->' in function type")) ||
      failed(parseFunctionResultTypes(results)))
    return {};
  return FunctionType::get(ctx, inputs, results);
}

bool Parser::isAliasReference() const {
  // An alias has no dot and no `<...>` right after its name.
  const char *end = tok.getEndPtr();
  return !tok.getSpelling().contains('.') && (end == bufferEnd || *end != '<');
}

const char *Parser::scanDialectBody(const char *ptr) {
  // Openers not closed yet, innermost last.
  SmallVector<const char *, 8> open;
  auto unbalanced = [&](const char *opener) {
    return nullError(opener, "unbalanced '" + llvm::Twine(*opener) +
                                 "' character in pretty dialect name");
  };
  do {
    if (ptr == bufferEnd)
      return unbalanced(open.back());
    char c = *ptr++;
    char expected;
    switch (c) {
    case '<':
    case '[':
    case '(':
    case '{':
      open.push_back(ptr - 1);
      continue;
    case '-':
      // `->` is no closing bracket.
      if (ptr != bufferEnd && *ptr == '>')
        ++ptr;
      continue;
    case '"':
      // Skip a string literal, whose brackets do not count.
      while (true) {
        if (ptr == bufferEnd || *ptr == '\n') {
          return nullError(ptr, "expected '\"' in string literal");
        }
        char s = *ptr++;
        if (s == '"')
          break;
        if (s == '\\' && ptr != bufferEnd)
          ++ptr;
      }
      continue;
    case '>':
      expected = '<';
      break;
    case ']':
      expected = '[';
      break;
    case ')':
      expected = '(';
      break;
    case '}':
      expected = '{';
      break;
    default:
      continue;
    }
    if (*open.back() != expected)
      return unbalanced(open.back());
    open.pop_back();
  } while (!open.empty());
  return ptr;
}

/// The text of a dialect symbol starting at `start` (`!ns.body<...>` or
/// `!ns<body>`) whose parts parseDialectSymbol returned.
StringRef detail::getDialectSymbolSpelling(const char *start, StringRef ns,
                                           StringRef body) {
  // In the form `!ns<body>`, the body is followed by the closing `>`.
  bool verbose = start[1 + ns.size()] == '<';
  return StringRef(start, body.end() + (verbose ? 1 : 0) - start);
}

ParseResult Parser::parseDialectSymbol(StringRef &ns, StringRef &body) {
  StringRef name = tok.getSpelling().drop_front();
  const char *end = tok.getEndPtr();
  const char *bodyEnd = end;
  if (end != bufferEnd && *end == '<') {
    bodyEnd = scanDialectBody(end);
    if (!bodyEnd)
      return failure();
  }
  size_t dot = name.find('.');
  if (dot == StringRef::npos) {
    // `!ns<body>`: the body is what is inside the brackets.
    ns = name;
    body = StringRef(end + 1, bodyEnd - end - 2);
  } else {
    // `!ns.body<...>`: the body is everything after the dot.
    ns = name.take_front(dot);
    const char *bodyStart = name.data() + dot + 1;
    body = StringRef(bodyStart, bodyEnd - bodyStart);
  }
  lexer.resetPointer(bodyEnd);
  consume();
  return success();
}

Type Parser::parseExtendedType() {
  const char *loc = tok.getPtr();
  if (isAliasReference())
    return parseAliasReference(typeAliases);
  StringRef ns, body;
  if (failed(parseDialectSymbol(ns, body)))
    return {};
  if (Dialect *dialect = ctx->getLoadedDialect(ns)) {
    // The dialect reports its errors; make sure one is reported in any case.
    if (Type type = dialect->parseType(body, getLocation(loc)))
      return type;
    return nullError(loc, "failed to parse type of dialect '" + ns + "'");
  }
  if (!ctx->allowsUnregisteredDialects()) {
    return nullError(loc, "type '" + getDialectSymbolSpelling(loc, ns, body) +
                              "' created with unregistered dialect '" + ns +
                              "'. If this is intended, use "
                              "--allow-unregistered-dialect");
  }
  return OpaqueType::get(ctx, ns, body);
}

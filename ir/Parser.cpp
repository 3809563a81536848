//===- Parser.cpp - Reading IR text ---------------------------------------===//
//
// A recursive-descent parser for MLIR's textual IR: top-level aliases, the
// generic form of any op, custom forms through each op's parse hook (via
// OpAsmParser), types, attributes (dense elements decoded straight into one
// byte buffer) and locations. SSA names are resolved per region scope, with
// placeholders for forward references. The first error is reported once at
// its file:line:col and parsing stops; recursion depth is bounded so that no
// input can overflow the stack.
//
//===----------------------------------------------------------------------===//

#include "ir/Parser.h"

#include "ir/AttributeDetail.h"
#include "ir/Lexer.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <array>
#include <cstring>
#include <limits>

using namespace onyx;

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

/// Nesting (regions, types, attributes, locations, dense lists) beyond this
/// is rejected, which bounds the parser's stack use on any input.
constexpr unsigned kMaxNestingDepth = 256;
/// `%name#N` with a larger N is rejected before anything is sized by it.
constexpr unsigned kMaxResultNumber = 1u << 20;
/// MLIR's limit on integer type widths.
constexpr unsigned kMaxIntegerWidth = 16777215;
/// Integer literals with more digits are rejected: converting them takes
/// time quadratic in their length.
constexpr size_t kMaxIntegerLiteralDigits = 20000;

using UnresolvedOperand = OpAsmParser::UnresolvedOperand;
using Delimiter = OpAsmParser::Delimiter;

/// `%N` names (no leading zero) below this are kept in a vector.
constexpr unsigned kMaxNumberedName = 1u << 18;

/// The number of a `%N` name that IsolatedScope keeps in its vector, or -1.
static int64_t getNameNumber(StringRef name) {
  if (name.size() < 2 || name.size() > 7 || (name[1] == '0' && name.size() > 2))
    return -1;
  unsigned number = 0;
  for (char c : name.drop_front()) {
    if (!llvm::isDigit(c))
      return -1;
    number = number * 10 + (c - '0');
  }
  return number < kMaxNumberedName ? int64_t(number) : -1;
}

namespace {

/// The values a name stands for: one per result of its op (a block
/// argument has one). Slots used before their definition hold placeholders.
struct SSANameEntry {
  SmallVector<Value, 1> values;
  /// Where the name was defined; null while only forward-referenced.
  const char *defLoc = nullptr;
};

/// The SSA names of a region that is isolated from above (or of the top
/// level), including those of the non-isolated regions nested in it.
class IsolatedScope {
public:
  /// The entry of `name` (spelled with its '%'), empty if it is new.
  SSANameEntry &getEntry(StringRef name) {
    int64_t number = getNameNumber(name);
    if (number < 0)
      return named[name];
    if (size_t(number) >= numbered.size())
      numbered.resize(number + 1);
    return numbered[number];
  }
  /// Forgets `name`, whose region ended.
  void erase(StringRef name) {
    int64_t number = getNameNumber(name);
    if (number < 0)
      named.erase(name);
    else
      numbered[number] = SSANameEntry();
  }
  void clear() {
    numbered.clear();
    named.clear();
  }

private:
  // Printers name values %0, %1, ... in order of definition. Keeping those
  // in a vector indexed by number avoids hashing and the cache misses of a
  // large map on every definition.
  std::vector<SSANameEntry> numbered;
  llvm::DenseMap<StringRef, SSANameEntry> named;

public:
  /// Names defined in each open nested region; they go out of scope when
  /// their region ends.
  SmallVector<SmallVector<StringRef, 0>, 2> nestedDefs;
  /// Placeholders not yet defined, with where they were first used.
  llvm::DenseMap<detail::ValueImpl *, const char *> forwardRefs;
};

/// `%name` or `%name:N` before `=`.
struct ResultGroup {
  StringRef name;
  unsigned count;
  const char *loc;
};

/// One element of a dense literal, kept as a token until the element type
/// (written after the literal) is known.
struct DenseElement {
  StringRef spelling;
  Token::Kind kind;
  bool negative;
};

class CustomOpAsmParser;

class Parser {
public:
  Parser(Context *ctx, StringRef buffer, StringRef bufferName);
  ~Parser();

  OwningOpRef<ModuleOp> parseModule();
  Type parseStandaloneType();
  Attribute parseStandaloneAttribute();

private:
  friend class CustomOpAsmParser;

  //===--------------------------------------------------------------------===//
  // Tokens and diagnostics
  //===--------------------------------------------------------------------===//

  void consume() {
    prevTok = tok;
    tok = lexer.lexToken();
  }
  bool consumeIf(Token::Kind kind) {
    if (tok.isNot(kind))
      return false;
    consume();
    return true;
  }
  ParseResult expect(Token::Kind kind, const llvm::Twine &message) {
    if (consumeIf(kind))
      return success();
    return emitError(wrongTokenLoc(), message);
  }
  bool consumeKeywordIf(StringRef keyword) {
    if (!tok.isKeyword(keyword))
      return false;
    consume();
    return true;
  }

  Location getLocation(const char *ptr);
  /// Reports an error, unless one was already reported during this parse.
  /// While the current token is a lexer error, that error is reported
  /// instead, since it is the cause.
  InFlightDiagnostic emitError(const char *ptr, const llvm::Twine &message);
  InFlightDiagnostic emitError(const llvm::Twine &message) {
    return emitError(tok.getPtr(), message);
  }
  /// Reports an error in functions whose failure value is a null handle.
  std::nullptr_t nullError(const char *ptr, const llvm::Twine &message) {
    (void)emitError(ptr, message);
    return nullptr;
  }
  std::nullptr_t nullError(const llvm::Twine &message) {
    return nullError(tok.getPtr(), message);
  }
  /// Where to report that the current token is not what was expected: as
  /// mlir-opt does, right after the previous token (skipping blanks, line
  /// ends and comments), which points into the line where something is
  /// missing.
  const char *wrongTokenLoc() const;
  /// Returns failure if `depth` is over the limit (after reporting it).
  ParseResult checkNesting();

  /// Counts one nesting level while alive.
  class NestingScope {
  public:
    explicit NestingScope(Parser &parser) : parser(parser) { ++parser.depth; }
    ~NestingScope() { --parser.depth; }

  private:
    Parser &parser;
  };

  /// Parses `elt (, elt)*` between the given delimiters. With
  /// Delimiter::None the list may be empty only if `isStart` says the
  /// current token cannot begin an element.
  ParseResult parseCommaSeparatedList(Delimiter delimiter,
                                      llvm::function_ref<ParseResult()> elt,
                                      llvm::function_ref<bool()> isStart);

  //===--------------------------------------------------------------------===//
  // Types
  //===--------------------------------------------------------------------===//

  Type parseType();
  /// parseType for a type that is not nested in another, through
  /// `typeCache`.
  Type parseOutermostType();
  Type parseNonFunctionType();
  Type parseBuiltinType();
  Type parseTensorType();
  Type parseFunctionType();
  Type parseExtendedType();
  ParseResult parseTypeListParens(SmallVectorImpl<Type> &types);
  ParseResult parseFunctionResultTypes(SmallVectorImpl<Type> &types);
  ParseResult parseDimensionList(SmallVectorImpl<int64_t> &shape);
  ParseResult parseXInDimensionList();

  /// Scans the `<...>` body that starts at `ptr` and returns the position
  /// after it, or null after reporting an error.
  const char *scanDialectBody(const char *ptr);
  /// Splits `!ns.body`, `!ns<body>`, `#ns.body` and `#ns<body>`, moving the
  /// lexer past the body. Returns failure after reporting an error.
  ParseResult parseDialectSymbol(StringRef &ns, StringRef &body);
  /// Whether the current `!`/`#` token names an alias rather than a dialect
  /// symbol.
  bool isAliasReference() const;

  //===--------------------------------------------------------------------===//
  // Attributes
  //===--------------------------------------------------------------------===//

  Attribute parseAttribute(Type type = {});
  Attribute parseArrayAttr();
  Attribute parseSymbolRefAttr();
  Attribute parseExtendedAttr();
  Attribute parseNumberAttr(Type type);
  Attribute parseDenseElementsAttr(Type type);
  /// `{name = value, unit-name}`; entries already in `attrs` count for
  /// duplicate names.
  ParseResult parseAttributeDict(SmallVectorImpl<NamedAttribute> &attrs);
  ParseResult parseDenseList(SmallVectorImpl<int64_t> &dims);
  ParseResult parseDenseElement();
  /// Writes element `elt` of type `eltType` to `dst`.
  ParseResult convertDenseElement(const DenseElement &elt, Type eltType,
                                  unsigned eltBytes, char *dst,
                                  const char *eltLoc);
  ParseResult decodeHexElements(const Token &str, const char *typeLoc,
                                ShapedType type);
  /// Turns the bytes of an i1 hex literal (bits packed as in MLIR) in
  /// `denseBuffer` into one byte per element.
  ParseResult unpackHexBits(const char *typeLoc, ShapedType type);

  //===--------------------------------------------------------------------===//
  // Locations
  //===--------------------------------------------------------------------===//

  /// `loc(...)`; with `allowDeferred`, `loc(#alias)` may name an alias
  /// defined later in the file.
  ParseResult parseLocationSpecifier(Location &loc, bool allowDeferred);
  ParseResult parseLocationInstance(Location &loc);
  ParseResult parseTrailingLocation(Operation *op);
  ParseResult resolveDeferredLocations(Operation *topLevel);

  //===--------------------------------------------------------------------===//
  // Operations, regions and SSA values
  //===--------------------------------------------------------------------===//

  ParseResult parseTopLevelItems(Block *block);
  ParseResult parseAttributeAliasDef();
  ParseResult parseTypeAliasDef();
  ParseResult parseOperation(Block *block);
  Operation *parseGenericOperation(Block *block);
  Operation *parseCustomOperation(Block *block);
  OpInfo *lookupGenericOpInfo(StringRef name, const char *loc);
  OpInfo *lookupCustomOpInfo(StringRef name, const char *loc);

  ParseResult parseRegion(Region &region,
                          ArrayRef<OpAsmParser::Argument> entryArgs,
                          bool isolated);
  ParseResult parseBlockHeader(Block *block,
                               llvm::SmallDenseSet<StringRef, 4> &names);

  ParseResult parseSSAUse(UnresolvedOperand &result);
  /// The value `use` refers to, or a placeholder if it is not defined yet.
  Value resolveSSAUse(const UnresolvedOperand &use, Type type);
  ParseResult defineValues(StringRef name, ValueRange values, const char *loc);
  void pushSSAScope(bool isolated);
  ParseResult popSSAScope();
  IsolatedScope &currentScope() { return *scopes[numScopes - 1]; }

  Context *ctx;
  Builder builder;
  Lexer lexer;
  Token tok;
  /// The token before `tok`: where a type's text ends, and whether the
  /// caller of a hook already consumed an arrow.
  Token prevTok;
  StringRef bufferName;
  StringAttr bufferNameAttr;
  const char *bufferBegin;
  const char *bufferEnd;
  unsigned depth = 0;
  bool errorReported = false;
  DiagnosticEngine::HandlerID handlerID;

  llvm::StringMap<Attribute> attrAliases;
  llvm::StringMap<Type> typeAliases;
  /// `loc(#alias)` before the alias is defined: a placeholder location
  /// stands in until the end of the file.
  struct DeferredLoc {
    Location placeholder;
    StringRef alias;
    const char *loc;
  };
  SmallVector<DeferredLoc, 0> deferredLocs;
  llvm::StringMap<unsigned> deferredLocIndex;

  /// Op names (as spelled in the source) already looked up.
  llvm::DenseMap<StringRef, OpInfo *> opInfoCache;

  /// Isolated scopes, reused across regions to keep their tables' memory.
  SmallVector<std::unique_ptr<IsolatedScope>, 4> scopes;
  unsigned numScopes = 0;
  /// Whether each open region started an isolated scope.
  SmallVector<bool, 8> regionIsolated;
  /// Owns the placeholders of forward references (as its arguments).
  Block forwardRefBlock;

  /// Recently parsed spellings of whole types. Programs repeat a few types
  /// (op signatures, tensor types) thousands of times; a spelling seen
  /// before is recognized with memcmp instead of being parsed and uniqued
  /// again. Types parse the same anywhere, so this changes nothing else.
  struct CachedType {
    StringRef text;
    Type type;
  };
  std::array<CachedType, 8> typeCache;
  unsigned nextTypeCacheSlot = 0;
  bool parsingType = false;

  std::string stringStorage;
  SmallVector<DenseElement, 16> denseElements;
  SmallVector<char, 0> denseBuffer;
};
} // namespace

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
static bool isBuiltinTypeKeyword(StringRef spelling) {
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
static StringRef getDialectSymbolSpelling(const char *start, StringRef ns,
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
  if (isAliasReference()) {
    StringRef name = tok.getSpelling().drop_front();
    auto it = typeAliases.find(name);
    if (it == typeAliases.end()) {
      return nullError(tok.getEndPtr(),
                       "undefined symbol alias id '" + name + "'");
    }
    consume();
    return it->second;
  }
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

//===----------------------------------------------------------------------===//
// Parser: attributes
//===----------------------------------------------------------------------===//

Attribute Parser::parseAttribute(Type type) {
  NestingScope nest(*this);
  if (failed(checkNesting()))
    return {};
  switch (tok.getKind()) {
  case Token::LSquare:
    return parseArrayAttr();
  case Token::LBrace: {
    SmallVector<NamedAttribute, 4> attrs;
    if (failed(parseAttributeDict(attrs)))
      return {};
    return DictionaryAttr::get(ctx, attrs);
  }
  case Token::AtIdentifier:
    return parseSymbolRefAttr();
  case Token::String: {
    Attribute result = StringAttr::get(ctx, tok.getStringValue(stringStorage));
    consume();
    return result;
  }
  case Token::HashIdentifier:
    return parseExtendedAttr();
  case Token::Integer:
  case Token::Float:
  case Token::Minus:
    return parseNumberAttr(type);
  case Token::BareIdentifier: {
    StringRef spelling = tok.getSpelling();
    if (spelling == "true" || spelling == "false") {
      consume();
      return BoolAttr::get(ctx, spelling == "true");
    }
    if (spelling == "unit") {
      consume();
      return UnitAttr::get(ctx);
    }
    if (spelling == "dense")
      return parseDenseElementsAttr(type);
    if (spelling == "loc") {
      Location loc;
      if (failed(parseLocationSpecifier(loc, /*allowDeferred=*/false)))
        return {};
      return loc;
    }
    if (!isBuiltinTypeKeyword(spelling))
      break;
    [[fallthrough]];
  }
  case Token::ExclamationIdentifier:
  case Token::LParen: {
    Type value = parseType();
    if (!value)
      return {};
    return TypeAttr::get(value);
  }
  default:
    break;
  }
  return nullError(wrongTokenLoc(), "expected attribute value");
}

Attribute Parser::parseArrayAttr() {
  consume(); // [
  SmallVector<Attribute, 8> elements;
  if (!consumeIf(Token::RSquare)) {
    do {
      Attribute element = parseAttribute();
      if (!element)
        return {};
      elements.push_back(element);
    } while (consumeIf(Token::Comma));
    if (failed(expect(Token::RSquare, "expected ',' or ']'")))
      return {};
  }
  return ArrayAttr::get(ctx, elements);
}

ParseResult Parser::parseAttributeDict(SmallVectorImpl<NamedAttribute> &attrs) {
  if (failed(expect(Token::LBrace, "expected '{' in attribute dictionary")))
    return failure();
  llvm::SmallDenseSet<Attribute, 8> seen;
  for (const NamedAttribute &attr : attrs)
    seen.insert(attr.name);
  if (consumeIf(Token::RBrace))
    return success();
  do {
    StringRef name;
    if (tok.is(Token::String))
      name = tok.getStringValue(stringStorage);
    else if (tok.is(Token::BareIdentifier))
      name = tok.getSpelling();
    else
      return emitError("expected attribute name");
    if (name.empty())
      return emitError("expected valid attribute name");
    StringAttr nameAttr = StringAttr::get(ctx, name);
    if (!seen.insert(nameAttr).second)
      return emitError("duplicate key '" + name + "' in dictionary attribute");
    consume();
    Attribute value;
    if (consumeIf(Token::Equal)) {
      value = parseAttribute();
      if (!value)
        return failure();
    } else {
      value = UnitAttr::get(ctx);
    }
    attrs.push_back({nameAttr, value});
  } while (consumeIf(Token::Comma));
  return expect(Token::RBrace, "expected '}' in attribute dictionary");
}

/// The name of an `@name` or `@"name"` token.
static StringRef getSymbolName(const Token &tok, std::string &storage) {
  if (tok.getSpelling()[1] == '"')
    return tok.getStringValue(storage);
  return tok.getSpelling().drop_front();
}

Attribute Parser::parseSymbolRefAttr() {
  std::string root(getSymbolName(tok, stringStorage));
  consume();
  SmallVector<StringAttr, 2> nested;
  // `::` must be written without spaces; a lone ':' ends the reference.
  while (tok.is(Token::Colon) && tok.getEndPtr() != bufferEnd &&
         *tok.getEndPtr() == ':') {
    consume();
    consume();
    if (tok.isNot(Token::AtIdentifier)) {
      return nullError("expected nested symbol reference identifier");
    }
    nested.push_back(StringAttr::get(ctx, getSymbolName(tok, stringStorage)));
    consume();
  }
  return SymbolRefAttr::get(ctx, root, nested);
}

Attribute Parser::parseExtendedAttr() {
  const char *loc = tok.getPtr();
  if (isAliasReference()) {
    StringRef name = tok.getSpelling().drop_front();
    auto it = attrAliases.find(name);
    if (it == attrAliases.end()) {
      return nullError(tok.getEndPtr(),
                       "undefined symbol alias id '" + name + "'");
    }
    consume();
    return it->second;
  }
  StringRef ns, body;
  if (failed(parseDialectSymbol(ns, body)))
    return {};
  if (!ctx->allowsUnregisteredDialects()) {
    return nullError(loc, "attribute '" +
                              getDialectSymbolSpelling(loc, ns, body) +
                              "' created with unregistered dialect '" + ns +
                              "'. If this is intended, use "
                              "--allow-unregistered-dialect");
  }
  return OpaqueAttr::get(ctx, ns, body);
}

/// Whether integer literal `spelling` (decimal or 0x hex) certainly does not
/// fit in `width` bits, judging by its number of significant digits.
static bool hasTooManyDigits(StringRef spelling, unsigned width) {
  bool isHex = spelling.size() > 1 && spelling[1] == 'x';
  StringRef digits = (isHex ? spelling.drop_front(2) : spelling).ltrim('0');
  // 2^width - 1 has floor(width * log10(2)) + 1 decimal digits.
  uint64_t maxDigits =
      isHex ? (uint64_t(width) + 3) / 4 : uint64_t(width) * 30103 / 100000 + 1;
  return digits.size() >
         std::min<uint64_t>(maxDigits, kMaxIntegerLiteralDigits);
}

/// The value of integer literal `spelling` (decimal or 0x hex), negated if
/// `negative`, in `width` bits; nullopt if it does not fit. Signless
/// integers accept both signed and unsigned values, as in MLIR.
static std::optional<llvm::APInt> buildIntegerValue(StringRef spelling,
                                                    bool negative,
                                                    unsigned width,
                                                    bool isSigned) {
  llvm::APInt value;
  bool isHex = spelling.size() > 1 && spelling[1] == 'x';
  if (hasTooManyDigits(spelling, width) ||
      spelling.getAsInteger(isHex ? 0 : 10, value))
    return std::nullopt;
  if (width > value.getBitWidth()) {
    value = value.zext(width);
  } else if (width < value.getBitWidth()) {
    // The literal may come with leading zero bits; other bits must not be
    // cut off.
    if (value.getActiveBits() > width)
      return std::nullopt;
    value = value.trunc(width);
  }
  if (width == 0)
    return negative ? std::nullopt : std::optional(value);
  if (negative) {
    value.negate();
    if (!value.isSignBitSet())
      return std::nullopt;
  } else if (isSigned && value.isSignBitSet()) {
    return std::nullopt;
  }
  return value;
}

/// Width and signedness of an integer or index type for literal checks.
static unsigned getIntegerWidth(Type type, bool &isSigned, bool &isUnsigned) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    isSigned = intType.isSigned();
    isUnsigned = intType.isUnsigned();
    return intType.getWidth();
  }
  isSigned = true;
  isUnsigned = false;
  return 64;
}

/// Splits a Float token into mantissa * 10^exponent; false if the mantissa
/// does not fit in 64 bits or the exponent is large.
static bool decomposeDecimal(StringRef spelling, uint64_t &mantissa,
                             int &exponent) {
  mantissa = 0;
  exponent = 0;
  size_t i = 0, e = spelling.size();
  bool inFraction = false;
  for (; i < e; ++i) {
    char c = spelling[i];
    if (c == '.') {
      inFraction = true;
      continue;
    }
    if (!llvm::isDigit(c))
      break;
    if (mantissa > (std::numeric_limits<uint64_t>::max() - 9) / 10)
      return false;
    mantissa = mantissa * 10 + (c - '0');
    exponent -= inFraction;
  }
  if (i == e)
    return true;
  // [eE][-+]?[0-9]+
  ++i;
  bool negativeExp = spelling[i] == '-';
  if (spelling[i] == '-' || spelling[i] == '+')
    ++i;
  int value = 0;
  for (; i < e; ++i) {
    value = value * 10 + (spelling[i] - '0');
    if (value > 1000)
      return false;
  }
  exponent += negativeExp ? -value : value;
  return true;
}

/// The value of a Float token, correctly rounded to `semantics`.
static llvm::APFloat parseFloatLiteral(const llvm::fltSemantics &semantics,
                                       StringRef spelling, bool negative) {
  // Clinger's fast path: when the mantissa and the power of ten are exact
  // in the target format, one division or multiplication rounds correctly.
  uint64_t mantissa;
  int exponent;
  if (decomposeDecimal(spelling, mantissa, exponent)) {
    if (&semantics == &llvm::APFloat::IEEEsingle() &&
        mantissa <= (uint64_t(1) << 24) && exponent >= -10 && exponent <= 10) {
      static constexpr float powers[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                         1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
      float value = float(mantissa);
      value =
          exponent < 0 ? value / powers[-exponent] : value * powers[exponent];
      return llvm::APFloat(negative ? -value : value);
    }
    if (&semantics == &llvm::APFloat::IEEEdouble() &&
        mantissa <= (uint64_t(1) << 53) && exponent >= -22 && exponent <= 22) {
      static constexpr double powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                          1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
                                          1e18, 1e19, 1e20, 1e21, 1e22};
      double value = double(mantissa);
      value =
          exponent < 0 ? value / powers[-exponent] : value * powers[exponent];
      return llvm::APFloat(negative ? -value : value);
    }
  }
  llvm::APFloat value(semantics);
  // The lexer only produces well-formed decimal literals, which cannot fail.
  auto status =
      value.convertFromString(spelling, llvm::APFloat::rmNearestTiesToEven);
  if (!status)
    llvm::consumeError(status.takeError());
  if (negative)
    value.changeSign();
  return value;
}

/// The bits of a hex literal (`0x7FC00000`) standing for a float of `width`
/// bits; nullopt if they do not fit.
static std::optional<llvm::APInt> parseHexFloatBits(StringRef spelling,
                                                    unsigned width) {
  llvm::APInt bits;
  if (hasTooManyDigits(spelling, width) || spelling.getAsInteger(0, bits) ||
      bits.getActiveBits() > width)
    return std::nullopt;
  return bits.zextOrTrunc(width);
}

Attribute Parser::parseNumberAttr(Type type) {
  bool negative = consumeIf(Token::Minus);
  const char *numLoc = tok.getPtr();
  if (tok.isNot(Token::Integer) && tok.isNot(Token::Float)) {
    return nullError(wrongTokenLoc(),
                     "expected constant integer or floating point value");
  }
  Token number = tok;
  consume();
  if (!type) {
    if (consumeIf(Token::Colon)) {
      type = parseType();
      if (!type)
        return {};
    } else if (number.is(Token::Float)) {
      type = FloatType::getF64(ctx);
    } else {
      type = IntegerType::get(ctx, 64);
    }
  }

  if (number.is(Token::Float)) {
    auto floatType = dyn_cast<FloatType>(type);
    if (!floatType) {
      return nullError("floating point value not valid for specified type");
    }
    return FloatAttr::get(type,
                          parseFloatLiteral(floatType.getFloatSemantics(),
                                            number.getSpelling(), negative));
  }

  StringRef spelling = number.getSpelling();
  if (auto floatType = dyn_cast<FloatType>(type)) {
    // Hex integers give the bit pattern (how NaN and inf are printed).
    if (spelling.size() < 2 || spelling[1] != 'x') {
      return nullError(
          numLoc, "unexpected decimal integer literal for a floating point "
                  "value");
    }
    if (negative) {
      return nullError(numLoc,
                       "hexadecimal float literal should not have a leading "
                       "minus");
    }
    std::optional<llvm::APInt> bits =
        parseHexFloatBits(spelling, floatType.getWidth());
    if (!bits) {
      return nullError(numLoc,
                       "hexadecimal float constant out of range for type");
    }
    return FloatAttr::get(type,
                          llvm::APFloat(floatType.getFloatSemantics(), *bits));
  }

  if (!type.isIntOrIndex()) {
    return nullError(numLoc, "integer literal not valid for specified type");
  }
  bool isSigned, isUnsigned;
  unsigned width = getIntegerWidth(type, isSigned, isUnsigned);
  if (negative && isUnsigned) {
    return nullError(
        numLoc, "negative integer literal not valid for unsigned integer type");
  }
  std::optional<llvm::APInt> value =
      buildIntegerValue(spelling, negative, width, isSigned);
  if (!value) {
    return nullError(numLoc, "integer constant out of range for attribute");
  }
  return IntegerAttr::get(type, *value);
}

ParseResult Parser::parseDenseElement() {
  bool negative = consumeIf(Token::Minus);
  if (tok.is(Token::Integer) || tok.is(Token::Float) ||
      (!negative && (tok.isKeyword("true") || tok.isKeyword("false")))) {
    denseElements.push_back({tok.getSpelling(), tok.getKind(), negative});
    consume();
    return success();
  }
  return emitError(negative ? "expected integer or floating point literal"
                            : "expected element literal of primitive type");
}

ParseResult Parser::parseDenseList(SmallVectorImpl<int64_t> &dims) {
  NestingScope nest(*this);
  if (failed(checkNesting()))
    return failure();
  consume(); // [
  // Every element must have the shape of the first.
  SmallVector<int64_t, 4> elementDims, dimsOfThis;
  int64_t size = 0;
  if (!consumeIf(Token::RSquare)) {
    do {
      dimsOfThis.clear();
      if (tok.is(Token::LSquare)) {
        if (failed(parseDenseList(dimsOfThis)))
          return failure();
      } else if (failed(parseDenseElement())) {
        return failure();
      }
      if (size++ == 0)
        elementDims = dimsOfThis;
      else if (dimsOfThis != elementDims)
        return emitError("tensor literal is invalid; ranks are not "
                         "consistent between elements");
    } while (consumeIf(Token::Comma));
    if (failed(expect(Token::RSquare, "expected ']'")))
      return failure();
  }
  dims.push_back(size);
  dims.append(elementDims.begin(), elementDims.end());
  return success();
}

ParseResult Parser::convertDenseElement(const DenseElement &elt, Type eltType,
                                        unsigned eltBytes, char *dst,
                                        const char *eltLoc) {
  bool isBool = elt.kind == Token::BareIdentifier;
  llvm::APInt bits;
  if (auto floatType = dyn_cast<FloatType>(eltType)) {
    if (elt.kind == Token::Float) {
      bits = parseFloatLiteral(floatType.getFloatSemantics(), elt.spelling,
                               elt.negative)
                 .bitcastToAPInt();
    } else if (isBool || elt.spelling.size() < 2 || elt.spelling[1] != 'x') {
      return emitError("expected floating-point elements, but parsed "
                       "integer");
    } else if (elt.negative) {
      return emitError(eltLoc, "hexadecimal float literal should not have a "
                               "leading minus");
    } else {
      std::optional<llvm::APInt> hexBits =
          parseHexFloatBits(elt.spelling, floatType.getWidth());
      if (!hexBits)
        return emitError(eltLoc,
                         "hexadecimal float constant out of range for type");
      bits = *hexBits;
    }
  } else {
    bool isSigned, isUnsigned;
    unsigned width = getIntegerWidth(eltType, isSigned, isUnsigned);
    if (elt.kind == Token::Float)
      return emitError(eltLoc, "expected integer elements, but parsed "
                               "floating-point");
    if (isBool) {
      if (width != 1)
        return emitError(eltLoc,
                         "expected i1 type for 'true' or 'false' values");
      bits = llvm::APInt(1, elt.spelling == "true");
    } else {
      if (elt.negative && isUnsigned)
        return emitError(eltLoc, "expected unsigned integer elements, but "
                                 "parsed negative value");
      std::optional<llvm::APInt> value =
          buildIntegerValue(elt.spelling, elt.negative, width, isSigned);
      if (!value)
        return emitError(eltLoc, "integer constant out of range for type");
      bits = *value;
    }
  }
  std::memset(dst, 0, eltBytes);
  if (bits.getBitWidth() != 0)
    llvm::StoreIntToMemory(bits, reinterpret_cast<uint8_t *>(dst), eltBytes);
  return success();
}

/// Keeps only the first element of `buffer` if all elements are equal, so
/// the attribute is stored as a splat, as MLIR does.
static void compressSplat(SmallVectorImpl<char> &buffer, size_t eltBytes) {
  if (eltBytes == 0 || buffer.size() <= eltBytes)
    return;
  for (size_t i = eltBytes, e = buffer.size(); i < e; i += eltBytes)
    if (std::memcmp(buffer.data(), buffer.data() + i, eltBytes) != 0)
      return;
  buffer.resize(eltBytes);
}

ParseResult Parser::unpackHexBits(const char *typeLoc, ShapedType type) {
  // As in MLIR: one byte of all zeros or all ones is a splat, and so is any
  // byte for one element; otherwise element i is bit i % 8 of byte i / 8.
  // Elements are stored one a byte.
  int64_t numElements = type.getNumElements();
  if (denseBuffer.size() == 1 && (numElements == 1 || denseBuffer[0] == 0 ||
                                  uint8_t(denseBuffer[0]) == 0xFF)) {
    denseBuffer[0] = denseBuffer[0] != 0;
    return success();
  }
  if (denseBuffer.size() != (uint64_t(numElements) + 7) / 8)
    return emitError(typeLoc, "elements hex data size is invalid for "
                              "provided type: '")
           << Type(type) << "'";
  SmallVector<char, 0> bits(denseBuffer.begin(), denseBuffer.end());
  denseBuffer.resize(numElements);
  for (int64_t i = 0; i < numElements; ++i)
    denseBuffer[i] = (bits[i / 8] >> (i % 8)) & 1;
  compressSplat(denseBuffer, 1);
  return success();
}

ParseResult Parser::decodeHexElements(const Token &str, const char *typeLoc,
                                      ShapedType type) {
  // The digits as written: escapes are no hex digits.
  StringRef hex = str.getSpelling().drop_front().drop_back();
  auto invalid = [&] {
    return emitError(str.getPtr(), "expected string containing hex digits "
                                   "starting with `0x`");
  };
  if (!hex.consume_front("0x") || hex.size() % 2 != 0)
    return invalid();
  // Decoded and checked in one pass: weights can be megabytes of hex.
  static const std::array<uint8_t, 256> digitValues = [] {
    std::array<uint8_t, 256> values;
    values.fill(0xFF);
    for (int c = 0; c < 256; ++c)
      if (llvm::isHexDigit(char(c)))
        values[c] = llvm::hexDigitValue(char(c));
    return values;
  }();
  denseBuffer.resize(hex.size() / 2);
  const uint8_t *digits = reinterpret_cast<const uint8_t *>(hex.data());
  uint8_t bad = 0;
  for (size_t i = 0, e = denseBuffer.size(); i < e; ++i) {
    uint8_t high = digitValues[digits[2 * i]],
            low = digitValues[digits[2 * i + 1]];
    bad |= high | low;
    denseBuffer[i] = char(high << 4 | low);
  }
  if (bad & 0xF0)
    return invalid();
  if (type.getElementType().isInteger(1))
    return unpackHexBits(typeLoc, type);
  bool isSplat;
  if (!DenseElementsAttr::isValidRawBuffer(type, denseBuffer.size(), isSplat))
    return emitError(typeLoc, "elements hex data size is invalid for "
                              "provided type: '")
           << Type(type) << "'";
  compressSplat(denseBuffer, getElementByteSize(type.getElementType()));
  return success();
}

/// Formats a shape as `[2, 3]` for diagnostics.
static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string result = "[";
  llvm::raw_string_ostream os(result);
  llvm::interleaveComma(shape, os);
  os << "]";
  return result;
}

Attribute Parser::parseDenseElementsAttr(Type type) {
  consume(); // dense
  if (failed(expect(Token::Less, "expected '<' after 'dense'")))
    return {};

  // The literal: empty, a hex string, nested lists or one splat element.
  denseElements.clear();
  SmallVector<int64_t, 4> literalShape;
  bool isList = false;
  std::optional<Token> hexString;
  if (tok.is(Token::String)) {
    hexString = tok;
    consume();
  } else if (tok.is(Token::LSquare)) {
    isList = true;
    if (failed(parseDenseList(literalShape)))
      return {};
  } else if (tok.isNot(Token::Greater) && failed(parseDenseElement())) {
    return {};
  }
  if (failed(expect(Token::Greater, "expected '>'")))
    return {};

  const char *typeLoc = tok.getPtr();
  if (!type) {
    if (failed(expect(Token::Colon, "expected ':'")))
      return {};
    type = parseType();
    if (!type)
      return {};
  }
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped) {
    return nullError("elements literal must be a shaped type");
  }
  if (!shaped.hasStaticShape()) {
    return nullError("elements literal type must have static shape");
  }
  // Sizes below are computed from the shape: reject ones that overflow.
  int64_t numElements = 1;
  for (int64_t dim : shaped.getShape()) {
    if (dim != 0 && numElements > std::numeric_limits<int64_t>::max() / dim) {
      return nullError(typeLoc, "elements literal type has too many elements");
    }
    numElements *= dim;
  }
  Type eltType = shaped.getElementType();
  if (!eltType.isIntOrIndex() && !eltType.isFloat()) {
    emitError(typeLoc, "dense elements of type '")
        << eltType << "' are not supported";
    return {};
  }
  unsigned eltBytes = getElementByteSize(eltType);

  if (hexString) {
    if (failed(decodeHexElements(*hexString, typeLoc, shaped)))
      return {};
    return DenseElementsAttr::getFromRawBuffer(shaped, denseBuffer);
  }
  if (isList && ArrayRef<int64_t>(literalShape) != shaped.getShape()) {
    return nullError(typeLoc, "inferred shape of elements literal (" +
                                  formatShape(literalShape) +
                                  ") does not match type (" +
                                  formatShape(shaped.getShape()) + ")");
  }
  if (!isList && denseElements.empty() && numElements != 0) {
    emitError(typeLoc, "parsed zero elements, but type ('")
        << type << "') expected at least 1";
    return {};
  }

  denseBuffer.resize(denseElements.size() * eltBytes);
  for (size_t i = 0, e = denseElements.size(); i < e; ++i)
    if (failed(convertDenseElement(denseElements[i], eltType, eltBytes,
                                   denseBuffer.data() + i * eltBytes,
                                   denseElements[i].spelling.data())))
      return {};
  compressSplat(denseBuffer, eltBytes);
  return DenseElementsAttr::getFromRawBuffer(shaped, denseBuffer);
}

//===----------------------------------------------------------------------===//
// Parser: locations
//===----------------------------------------------------------------------===//

ParseResult Parser::parseLocationSpecifier(Location &loc, bool allowDeferred) {
  consume(); // loc
  if (failed(expect(Token::LParen, "expected '(' in location")))
    return failure();
  if (allowDeferred && tok.is(Token::HashIdentifier) && isAliasReference()) {
    StringRef alias = tok.getSpelling().drop_front();
    auto it = attrAliases.find(alias);
    if (it != attrAliases.end()) {
      loc = dyn_cast<Location>(it->second);
      if (!loc)
        return emitError("expected location, but found '") << it->second << "'";
    } else {
      // Defined later (mlir-opt prints location aliases after the module):
      // stand in a placeholder, one per alias, replaced at the end.
      auto [indexIt, inserted] =
          deferredLocIndex.try_emplace(alias, deferredLocs.size());
      if (inserted)
        deferredLocs.push_back(
            {NameLoc::get(StringAttr::get(ctx, tok.getSpelling())), alias,
             tok.getPtr()});
      loc = deferredLocs[indexIt->second].placeholder;
    }
    consume();
  } else if (failed(parseLocationInstance(loc))) {
    return failure();
  }
  return expect(Token::RParen, "expected ')' in location");
}

ParseResult Parser::parseLocationInstance(Location &loc) {
  NestingScope nest(*this);
  if (failed(checkNesting()))
    return failure();

  if (tok.is(Token::HashIdentifier)) {
    Attribute attr = parseExtendedAttr();
    if (!attr)
      return failure();
    loc = dyn_cast<Location>(attr);
    if (!loc)
      return emitError("expected location attribute, but got '") << attr << "'";
    return success();
  }

  if (tok.is(Token::String)) {
    std::string name(tok.getStringValue(stringStorage));
    consume();
    if (consumeIf(Token::Colon)) {
      unsigned line, column;
      if (tok.isNot(Token::Integer) || tok.getSpelling().getAsInteger(10, line))
        return emitError("expected integer line number in FileLineColLoc");
      consume();
      if (failed(expect(Token::Colon, "expected ':' in FileLineColLoc")))
        return failure();
      if (tok.isNot(Token::Integer) ||
          tok.getSpelling().getAsInteger(10, column))
        return emitError("expected integer column number in FileLineColLoc");
      consume();
      loc = FileLineColLoc::get(ctx, name, line, column);
      return success();
    }
    Location child;
    if (consumeIf(Token::LParen)) {
      if (failed(parseLocationInstance(child)) ||
          failed(expect(Token::RParen,
                        "expected ')' after child location of NameLoc")))
        return failure();
    }
    loc = NameLoc::get(StringAttr::get(ctx, name), child);
    return success();
  }

  if (consumeKeywordIf("unknown")) {
    loc = UnknownLoc::get(ctx);
    return success();
  }

  if (consumeKeywordIf("callsite")) {
    Location callee, caller;
    if (failed(expect(Token::LParen, "expected '(' in callsite location")) ||
        failed(parseLocationInstance(callee)))
      return failure();
    if (!consumeKeywordIf("at"))
      return emitError(wrongTokenLoc(), "expected 'at' in callsite location");
    if (failed(parseLocationInstance(caller)) ||
        failed(expect(Token::RParen, "expected ')' in callsite location")))
      return failure();
    loc = CallSiteLoc::get(callee, caller);
    return success();
  }

  if (consumeKeywordIf("fused")) {
    Attribute metadata;
    if (consumeIf(Token::Less)) {
      metadata = parseAttribute();
      if (!metadata ||
          failed(expect(Token::Greater,
                        "expected '>' after fused location metadata")))
        return failure();
    }
    SmallVector<Location, 4> locations;
    if (failed(expect(Token::LSquare, "expected '[' in fused location")))
      return failure();
    if (!consumeIf(Token::RSquare)) {
      do {
        Location element;
        if (failed(parseLocationInstance(element)))
          return failure();
        locations.push_back(element);
      } while (consumeIf(Token::Comma));
      if (failed(expect(Token::RSquare, "expected ']' in fused location")))
        return failure();
    }
    loc = FusedLoc::get(ctx, locations, metadata);
    return success();
  }

  return emitError(wrongTokenLoc(), "expected location instance");
}

ParseResult Parser::parseTrailingLocation(Operation *op) {
  if (!tok.isKeyword("loc"))
    return success();
  Location loc;
  if (failed(parseLocationSpecifier(loc, /*allowDeferred=*/true)))
    return failure();
  op->setLoc(loc);
  return success();
}

ParseResult Parser::resolveDeferredLocations(Operation *topLevel) {
  if (deferredLocs.empty())
    return success();
  llvm::DenseMap<Attribute, Location> resolved;
  for (const DeferredLoc &deferred : deferredLocs) {
    auto it = attrAliases.find(deferred.alias);
    if (it == attrAliases.end())
      return emitError(deferred.loc,
                       "operation location alias was never defined");
    auto loc = dyn_cast<Location>(it->second);
    if (!loc)
      return emitError(deferred.loc, "expected location, but found '")
             << it->second << "'";
    resolved[deferred.placeholder] = loc;
  }
  topLevel->walk([&](Operation *op) {
    if (Location loc = resolved.lookup(op->getLoc()))
      op->setLoc(loc);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (Location loc = resolved.lookup(arg.getLoc()))
            arg.setLoc(loc);
  });
  return success();
}

//===----------------------------------------------------------------------===//
// Parser: SSA values
//===----------------------------------------------------------------------===//

void Parser::pushSSAScope(bool isolated) {
  regionIsolated.push_back(isolated);
  if (!isolated) {
    currentScope().nestedDefs.emplace_back();
    return;
  }
  if (numScopes == scopes.size())
    scopes.push_back(std::make_unique<IsolatedScope>());
  ++numScopes;
}

ParseResult Parser::popSSAScope() {
  IsolatedScope &scope = currentScope();
  if (!regionIsolated.pop_back_val()) {
    for (StringRef name : scope.nestedDefs.back())
      scope.erase(name);
    scope.nestedDefs.pop_back();
    return success();
  }
  if (!scope.forwardRefs.empty()) {
    const char *first = nullptr;
    for (auto &ref : scope.forwardRefs)
      if (!first || ref.second < first)
        first = ref.second;
    return emitError(first, "use of undeclared SSA value name");
  }
  scope.clear();
  --numScopes;
  return success();
}

ParseResult Parser::parseSSAUse(UnresolvedOperand &result) {
  if (tok.isNot(Token::PercentIdentifier))
    return emitError(wrongTokenLoc(), "expected SSA operand");
  result.location = tok.getLoc();
  result.name = tok.getSpelling();
  result.number = 0;
  consume();
  if (tok.is(Token::HashIdentifier)) {
    unsigned number;
    if (tok.getSpelling().drop_front().getAsInteger(10, number) ||
        number >= kMaxResultNumber)
      return emitError("invalid SSA value result number");
    result.number = number;
    consume();
  }
  return success();
}

Value Parser::resolveSSAUse(const UnresolvedOperand &use, Type type) {
  IsolatedScope &scope = currentScope();
  SSANameEntry &entry = scope.getEntry(use.name);
  if (use.number < entry.values.size()) {
    if (Value value = entry.values[use.number]) {
      if (value.getType() == type)
        return value;
      emitError(use.location.getPointer(),
                "use of value '" + use.name +
                    "' expects different type than prior uses: '")
          << type << "' vs '" << value.getType() << "'";
      return nullptr;
    }
  } else if (entry.defLoc) {
    return nullError(use.location.getPointer(),
                     "reference to invalid result number");
  }
  if (use.number >= entry.values.size())
    entry.values.resize(use.number + 1);
  Value placeholder = forwardRefBlock.addArgument(type, UnknownLoc::get(ctx));
  entry.values[use.number] = placeholder;
  scope.forwardRefs[placeholder.getImpl()] = use.location.getPointer();
  return placeholder;
}

ParseResult Parser::defineValues(StringRef name, ValueRange values,
                                 const char *loc) {
  IsolatedScope &scope = currentScope();
  SSANameEntry &entry = scope.getEntry(name);
  if (entry.defLoc) {
    InFlightDiagnostic diag =
        emitError(loc, "redefinition of SSA value '" + name + "'");
    diag.attachNote(getLocation(entry.defLoc)) << "previously defined here";
    return failure();
  }
  // Replace the placeholders of earlier uses.
  for (size_t i = 0, e = entry.values.size(); i < e; ++i) {
    Value placeholder = entry.values[i];
    if (!placeholder)
      continue;
    const char *useLoc = scope.forwardRefs.lookup(placeholder.getImpl());
    if (i >= values.size())
      return emitError(useLoc, "reference to invalid result number");
    Value value = values[i];
    if (value.getType() != placeholder.getType()) {
      InFlightDiagnostic diag =
          emitError(loc, "definition of SSA value '" + name + "#" +
                             llvm::Twine(i) + "' has type '");
      diag << value.getType() << "'";
      diag.attachNote(getLocation(useLoc))
          << "previously used here with type '" << placeholder.getType() << "'";
      return failure();
    }
    placeholder.replaceAllUsesWith(value);
    scope.forwardRefs.erase(placeholder.getImpl());
  }
  entry.values.assign(values.begin(), values.end());
  entry.defLoc = loc;
  if (!scope.nestedDefs.empty())
    scope.nestedDefs.back().push_back(name);
  return success();
}

//===----------------------------------------------------------------------===//
// Parser: operations and regions
//===----------------------------------------------------------------------===//

ParseResult Parser::parseAttributeAliasDef() {
  StringRef name = tok.getSpelling().drop_front();
  if (name.contains('.'))
    return emitError("attribute names with a '.' are reserved for "
                     "dialect-defined names");
  if (attrAliases.count(name))
    return emitError("redefinition of attribute alias id '" + name + "'");
  consume();
  if (failed(
          expect(Token::Equal, "expected '=' in attribute alias definition")))
    return failure();
  Attribute value = parseAttribute();
  if (!value)
    return failure();
  attrAliases[name] = value;
  return success();
}

ParseResult Parser::parseTypeAliasDef() {
  StringRef name = tok.getSpelling().drop_front();
  if (name.contains('.'))
    return emitError("type names with a '.' are reserved for "
                     "dialect-defined names");
  if (typeAliases.count(name))
    return emitError("redefinition of type alias id '" + name + "'");
  consume();
  if (failed(expect(Token::Equal, "expected '=' in type alias definition")))
    return failure();
  Type value = parseType();
  if (!value)
    return failure();
  typeAliases[name] = value;
  return success();
}

ParseResult Parser::parseTopLevelItems(Block *block) {
  while (true) {
    switch (tok.getKind()) {
    case Token::Eof:
      return success();
    case Token::HashIdentifier:
      if (failed(parseAttributeAliasDef()))
        return failure();
      break;
    case Token::ExclamationIdentifier:
      if (failed(parseTypeAliasDef()))
        return failure();
      break;
    default:
      if (failed(parseOperation(block)))
        return failure();
      break;
    }
  }
}

ParseResult Parser::parseOperation(Block *block) {
  const char *opLoc = tok.getPtr();
  SmallVector<ResultGroup, 1> results;
  uint64_t numBound = 0;
  if (tok.is(Token::PercentIdentifier)) {
    do {
      if (tok.isNot(Token::PercentIdentifier))
        return emitError("expected SSA result name");
      ResultGroup group{tok.getSpelling(), 1, tok.getPtr()};
      consume();
      if (consumeIf(Token::Colon)) {
        if (tok.isNot(Token::Integer) ||
            tok.getSpelling().getAsInteger(10, group.count))
          return emitError("expected integer number of results");
        if (group.count == 0)
          return emitError("expected named operation to have at least 1 "
                           "result");
        consume();
      }
      numBound += group.count;
      results.push_back(group);
    } while (consumeIf(Token::Comma));
    if (failed(expect(Token::Equal, "expected '=' after SSA name")))
      return failure();
  }

  Operation *op;
  if (tok.is(Token::String))
    op = parseGenericOperation(block);
  else if (tok.is(Token::BareIdentifier))
    op = parseCustomOperation(block);
  else
    return emitError(wrongTokenLoc(), "expected operation name in quotes");
  if (!op)
    return failure();

  if (results.empty())
    return success();
  if (numBound != op->getNumResults())
    return emitError(opLoc, "operation defines " +
                                llvm::Twine(op->getNumResults()) +
                                " results but was provided " +
                                llvm::Twine(numBound) + " to bind");
  ValueRange values = op->getResults();
  unsigned next = 0;
  for (const ResultGroup &group : results) {
    if (failed(defineValues(group.name, values.slice(next, group.count),
                            group.loc)))
      return failure();
    next += group.count;
  }
  return success();
}

OpInfo *Parser::lookupGenericOpInfo(StringRef name, const char *loc) {
  if (OpInfo *info = ctx->lookupRegisteredOp(name))
    return info;
  StringRef ns = name.split('.').first;
  if (ctx->getLoadedDialect(ns)) {
    return nullError(loc, "unregistered operation '" + name +
                              "' found in dialect ('" + ns +
                              "') that does not allow unknown operations");
  }
  if (!ctx->allowsUnregisteredDialects()) {
    return nullError(loc, "operation '" + name + "' of unregistered dialect '" +
                              ns +
                              "'. If this is intended, use "
                              "--allow-unregistered-dialect");
  }
  return ctx->getOrCreateOpInfo(name);
}

/// Frees the regions of an op that was never created, after dropping the
/// uses their ops hold so that they can go in any order.
static void dropRegionReferences(OperationState &state) {
  for (std::unique_ptr<Region> &region : state.regions)
    region->dropAllReferences();
}

Operation *Parser::parseGenericOperation(Block *block) {
  const char *nameLoc = tok.getPtr();
  OpInfo *&cached = opInfoCache[tok.getSpelling()];
  if (!cached) {
    StringRef name = tok.getStringValue(stringStorage);
    if (name.empty()) {
      return nullError("empty operation name is invalid");
    }
    if (name.contains('\0')) {
      return nullError("null character not allowed in operation name");
    }
    cached = lookupGenericOpInfo(name, nameLoc);
    if (!cached) {
      opInfoCache.erase(tok.getSpelling());
      return nullptr;
    }
  }
  OpInfo *info = cached;
  consume();

  OperationState state(getLocation(nameLoc), OperationName(info));
  bool created = false;
  auto cleanup = llvm::make_scope_exit([&] {
    if (!created)
      dropRegionReferences(state);
  });

  SmallVector<UnresolvedOperand, 4> operands;
  if (failed(expect(Token::LParen, "expected '(' to start operand list")))
    return nullptr;
  if (tok.is(Token::PercentIdentifier)) {
    do {
      UnresolvedOperand operand;
      if (failed(parseSSAUse(operand)))
        return nullptr;
      operands.push_back(operand);
    } while (consumeIf(Token::Comma));
  }
  if (failed(expect(Token::RParen, "expected ')' to end operand list")))
    return nullptr;
  if (tok.is(Token::LSquare)) {
    return nullError("block successors are not supported");
  }

  // Properties `<{...}>` are read as ordinary attributes.
  if (consumeIf(Token::Less)) {
    if (tok.isNot(Token::LBrace)) {
      return nullError("expected '{' to start properties");
    }
    if (failed(parseAttributeDict(state.attributes)) ||
        failed(expect(Token::Greater, "expected '>' to close properties")))
      return nullptr;
  }

  if (consumeIf(Token::LParen)) {
    bool isolated = info->hasTrait(OpTrait::IsolatedFromAbove);
    do {
      if (failed(parseRegion(*state.addRegion(), {}, isolated)))
        return nullptr;
    } while (consumeIf(Token::Comma));
    if (failed(expect(Token::RParen, "expected ')' to end region list")))
      return nullptr;
  }

  if (tok.is(Token::LBrace) && failed(parseAttributeDict(state.attributes)))
    return nullptr;

  if (failed(expect(Token::Colon, "expected ':' followed by operation type")))
    return nullptr;
  const char *typeLoc = tok.getPtr();
  Type type = parseType();
  if (!type)
    return nullptr;
  auto fnType = dyn_cast<FunctionType>(type);
  if (!fnType) {
    return nullError(typeLoc, "expected function type");
  }
  ArrayRef<Type> inputs = fnType.getInputs();
  if (inputs.size() != operands.size()) {
    return nullError(typeLoc, "expected " + llvm::Twine(operands.size()) +
                                  " operand type" +
                                  (operands.size() == 1 ? "" : "s") +
                                  " but had " + llvm::Twine(inputs.size()));
  }
  for (size_t i = 0, e = operands.size(); i < e; ++i) {
    Value value = resolveSSAUse(operands[i], inputs[i]);
    if (!value)
      return nullptr;
    state.operands.push_back(value);
  }
  state.addTypes(fnType.getResults());

  Operation *op = Operation::create(state);
  created = true;
  block->push_back(op);
  if (failed(parseTrailingLocation(op)))
    return nullptr;
  return op;
}

OpInfo *Parser::lookupCustomOpInfo(StringRef name, const char *loc) {
  if (OpInfo *info = ctx->lookupRegisteredOp(name))
    return info;
  if (!name.contains('.')) {
    // As in MLIR, a name without a dialect may belong to a default dialect.
    for (StringRef ns : {"func", "builtin"}) {
      llvm::SmallString<64> qualified(ns);
      qualified += '.';
      qualified += name;
      if (OpInfo *info = ctx->lookupRegisteredOp(qualified))
        return info;
    }
    return nullError(loc, "custom op '" + name + "' is unknown (tried 'func." +
                              name + "' and 'builtin." + name + "' as well)");
  }
  StringRef ns = name.split('.').first;
  if (!ctx->getLoadedDialect(ns))
    return nullError(loc, "Dialect `" + ns + "' not found for custom op '" +
                              name + "'");
  return nullError(loc, "custom op '" + name + "' is unknown");
}

//===----------------------------------------------------------------------===//
// CustomOpAsmParser
//===----------------------------------------------------------------------===//

/// What an op's parse hook sees: the parser's services, without the lexer.
namespace {

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
} // namespace

Operation *Parser::parseCustomOperation(Block *block) {
  const char *nameLoc = tok.getPtr();
  StringRef name = tok.getSpelling();
  OpInfo *&cached = opInfoCache[name];
  if (!cached) {
    cached = lookupCustomOpInfo(name, nameLoc);
    if (!cached) {
      opInfoCache.erase(name);
      return nullptr;
    }
  }
  OpInfo *info = cached;
  if (!info->parse) {
    return nullError("custom op '" + name + "' has no custom assembly form");
  }
  consume();

  OperationState state(getLocation(nameLoc), OperationName(info));
  bool created = false;
  auto cleanup = llvm::make_scope_exit([&] {
    if (!created)
      dropRegionReferences(state);
  });
  CustomOpAsmParser asmParser(*this, info);
  if (failed(info->parse(asmParser, state))) {
    // Hooks report their errors; make sure one is reported in any case.
    return nullError(nameLoc, "failed to parse custom op '" + name + "'");
  }
  Operation *op = Operation::create(state);
  created = true;
  block->push_back(op);
  if (failed(parseTrailingLocation(op)))
    return nullptr;
  return op;
}

ParseResult Parser::parseRegion(Region &region,
                                ArrayRef<OpAsmParser::Argument> entryArgs,
                                bool isolated) {
  NestingScope nest(*this);
  if (failed(checkNesting()) ||
      failed(expect(Token::LBrace, "expected '{' to begin a region")))
    return failure();
  pushSSAScope(isolated);

  if (tok.is(Token::RBrace) && entryArgs.empty()) {
    consume();
    return popSSAScope();
  }

  llvm::SmallDenseSet<StringRef, 4> blockNames;
  Block *block = region.emplaceBlock();
  if (!entryArgs.empty()) {
    if (tok.is(Token::CaretIdentifier))
      return emitError("invalid block name in region with named arguments");
    for (const OpAsmParser::Argument &arg : entryArgs) {
      const char *argLoc = arg.ssaName.location.getPointer();
      Location loc = arg.sourceLoc ? *arg.sourceLoc : getLocation(argLoc);
      BlockArgument value = block->addArgument(arg.type, loc);
      if (arg.ssaName.name.empty())
        continue;
      if (currentScope().getEntry(arg.ssaName.name).defLoc)
        return emitError(argLoc, "region entry argument '" + arg.ssaName.name +
                                     "' is already in use");
      if (failed(defineValues(arg.ssaName.name, Value(value), argLoc)))
        return failure();
    }
  } else if (tok.is(Token::CaretIdentifier) &&
             failed(parseBlockHeader(block, blockNames))) {
    return failure();
  }

  while (!consumeIf(Token::RBrace)) {
    if (tok.is(Token::CaretIdentifier)) {
      block = region.emplaceBlock();
      if (failed(parseBlockHeader(block, blockNames)))
        return failure();
      continue;
    }
    if (failed(parseOperation(block)))
      return failure();
  }
  return popSSAScope();
}

ParseResult Parser::parseBlockHeader(Block *block,
                                     llvm::SmallDenseSet<StringRef, 4> &names) {
  StringRef name = tok.getSpelling();
  if (!names.insert(name).second)
    return emitError("redefinition of block '" + name + "'");
  consume();
  if (consumeIf(Token::LParen) && !consumeIf(Token::RParen)) {
    do {
      if (tok.isNot(Token::PercentIdentifier))
        return emitError("expected SSA identifier");
      StringRef argName = tok.getSpelling();
      const char *argLoc = tok.getPtr();
      consume();
      if (failed(expect(Token::Colon, "expected ':' and type for SSA operand")))
        return failure();
      Type type = parseType();
      if (!type)
        return failure();
      Location loc = getLocation(argLoc);
      if (tok.isKeyword("loc") &&
          failed(parseLocationSpecifier(loc, /*allowDeferred=*/true)))
        return failure();
      if (failed(defineValues(argName, Value(block->addArgument(type, loc)),
                              argLoc)))
        return failure();
    } while (consumeIf(Token::Comma));
    if (failed(expect(Token::RParen, "expected ')' to end argument list")))
      return failure();
  }
  return expect(Token::Colon, "expected ':' after block name");
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

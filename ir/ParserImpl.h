//===- ParserImpl.h - The IR text parser's state ----------------*- C++ -*-===//
//
// The parser behind ir/Parser.h, shared by the files that implement it (as
// MLIR's AsmParser is split): Parser.cpp (state, diagnostics, entry points),
// TypeParser.cpp, AttributeParser.cpp, LocationParser.cpp,
// OperationParser.cpp (SSA names, aliases, operations, regions, blocks) and
// CustomOpAsmParser.cpp (what an op's parse hook sees). A recursive-descent
// parser: the first error is reported once at its file:line:col and parsing
// stops; recursion depth is bounded so that no input can overflow the stack.
// Not a public header: only ir/ includes it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Parser.h"

#include "ir/AttributeDetail.h"
#include "ir/Dialect.h"
#include "ir/Lexer.h"
#include "ir/OpAsm.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <array>
#include <memory>
#include <string>

namespace onyx {
namespace detail {

/// Nesting (regions, types, attributes, locations, dense lists) beyond this
/// is rejected, which bounds the parser's stack use on any input.
inline constexpr unsigned kMaxNestingDepth = 256;
/// `%name#N` with a larger N is rejected before anything is sized by it.
inline constexpr unsigned kMaxResultNumber = 1u << 20;
/// MLIR's limit on integer type widths.
inline constexpr unsigned kMaxIntegerWidth = 16777215;
/// Integer literals with more digits are rejected: converting them takes
/// time quadratic in their length.
inline constexpr size_t kMaxIntegerLiteralDigits = 20000;

using UnresolvedOperand = OpAsmParser::UnresolvedOperand;
using Delimiter = OpAsmParser::Delimiter;

/// `%N` names (no leading zero) below this are kept in a vector.
inline constexpr unsigned kMaxNumberedName = 1u << 18;

/// The number of a `%N` name that IsolatedScope keeps in its vector, or -1.
inline int64_t getNameNumber(StringRef name) {
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
  /// The value the alias reference at the current token names in `aliases`
  /// (the type or the attribute aliases), consumed; null with an error where
  /// the alias is not defined.
  template <typename T>
  T parseAliasReference(const llvm::StringMap<T> &aliases) {
    StringRef name = tok.getSpelling().drop_front();
    auto it = aliases.find(name);
    if (it == aliases.end())
      return nullError(tok.getEndPtr(),
                       "undefined symbol alias id '" + name + "'");
    consume();
    return it->second;
  }

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
  /// Modules being parsed that do not count toward the nesting limit (at
  /// most two: see parseOperation).
  unsigned freeModules = 0;
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
  /// The default dialect of each op in custom form being parsed (see
  /// lookupCustomOpInfo), under builtin's for the top level.
  SmallVector<StringRef, 8> defaultDialects{"builtin"};

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

//===----------------------------------------------------------------------===//
// Helpers shared by the parser's files
//===----------------------------------------------------------------------===//

/// Whether `spelling` is a builtin type's keyword (f32, index, tensor, ...).
bool isBuiltinTypeKeyword(StringRef spelling);
/// The text of a dialect type or attribute as the dialect's hook gets it.
StringRef getDialectSymbolSpelling(const char *start, StringRef ns,
                                   StringRef body);
/// The name of a `@symbol` token, unquoted into `storage` if needed.
StringRef getSymbolName(const Token &tok, std::string &storage);

/// An op being parsed, generic or custom. Where parsing fails before the op
/// is created, the regions parsed so far are freed after dropping the uses
/// their ops hold, so that they can go in any order.
class PendingOperation {
public:
  PendingOperation(Location loc, OperationName name) : state(loc, name) {}
  PendingOperation(const PendingOperation &) = delete;
  PendingOperation &operator=(const PendingOperation &) = delete;
  ~PendingOperation();

  /// Creates the op from `state` at the end of `block`.
  Operation *create(Block *block);

  OperationState state;

private:
  bool created = false;
};

} // namespace detail
} // namespace onyx

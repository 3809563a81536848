//===- Lexer.h - Tokens of the textual IR -----------------------*- C++ -*-===//
//
// Splits IR text into tokens for the parser. Tokens are views into the
// source buffer, so lexing allocates nothing. The lexer also keeps track of
// the current line so that the parser can attach file:line:col locations to
// every operation without searching the buffer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Support.h"

#include "llvm/Support/SMLoc.h"

#include <string>
#include <utility>

namespace onyx {

class Token {
public:
  enum Kind : uint8_t {
    Eof,
    /// Lexing failed; the lexer holds the message.
    Error,
    // Identifiers.
    BareIdentifier,        // foo, foo.bar, i32, tensor
    AtIdentifier,          // @foo, @"foo bar"
    HashIdentifier,        // #foo, #foo.bar, #0
    PercentIdentifier,     // %foo, %0
    CaretIdentifier,       // ^bb0
    ExclamationIdentifier, // !foo, !foo.bar
    // Literals.
    Integer, // 42, 0x2A (no sign: '-' is a token of its own)
    Float,   // 1.5, 1.0e-3, 2.
    String,  // "text", spelled with its quotes and escapes
    // Punctuation.
    Arrow,
    Colon,
    Comma,
    Ellipsis,
    Equal,
    Greater,
    Less,
    LBrace,
    RBrace,
    LParen,
    RParen,
    LSquare,
    RSquare,
    Minus,
    Plus,
    Question,
    Star,
  };

  Token() = default;
  Token(Kind kind, StringRef spelling) : kind(kind), spelling(spelling) {}

  Kind getKind() const { return kind; }
  bool is(Kind k) const { return kind == k; }
  bool isNot(Kind k) const { return kind != k; }
  bool isKeyword(StringRef keyword) const {
    return kind == BareIdentifier && spelling == keyword;
  }

  StringRef getSpelling() const { return spelling; }
  const char *getPtr() const { return spelling.data(); }
  const char *getEndPtr() const { return spelling.data() + spelling.size(); }
  llvm::SMLoc getLoc() const { return llvm::SMLoc::getFromPointer(getPtr()); }

  /// The contents of a String token (or of `@"..."`) with escapes decoded.
  /// Returns a view of the source when there is nothing to decode, otherwise
  /// decodes into `storage`.
  StringRef getStringValue(std::string &storage) const;

private:
  Kind kind = Eof;
  StringRef spelling;
};

class Lexer {
public:
  explicit Lexer(StringRef buffer);

  Token lexToken();
  /// Continues lexing at `ptr`, which must lie inside the buffer; used where
  /// one token is split into several (`2x3xf32`) or text is skipped.
  void resetPointer(const char *ptr);
  const char *getCurPtr() const { return curPtr; }
  const char *getBufferEnd() const { return bufferEnd; }

  /// 1-based line and column of `ptr`, a position in the buffer. Cheap for
  /// positions on the current line.
  std::pair<unsigned, unsigned> getLineAndColumn(const char *ptr) const;

  /// Where the last Error token's problem is, and what it is.
  const char *getErrorPtr() const { return errorPtr; }
  StringRef getErrorMessage() const { return errorMessage; }

private:
  Token formToken(Token::Kind kind, const char *start) const {
    return Token(kind, StringRef(start, curPtr - start));
  }
  Token formError(const char *where, const char *message);
  char peek(const char *ptr) const { return ptr < bufferEnd ? *ptr : 0; }
  /// Moves the line counter over the newlines in [from, to).
  void countLines(const char *from, const char *to);

  Token lexNumber(const char *start);
  Token lexString(const char *start);
  Token lexBareIdentifier(const char *start);
  Token lexAtIdentifier(const char *start);
  Token lexPrefixedIdentifier(const char *start);

  const char *bufferBegin;
  const char *bufferEnd;
  const char *curPtr;
  // The line of curPtr and where it starts.
  unsigned line = 1;
  const char *lineStart;

  const char *errorPtr = nullptr;
  const char *errorMessage = "";
};

} // namespace onyx

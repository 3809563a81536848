//===- Lexer.cpp - Tokens of the textual IR -------------------------------===//
//
// A hand-written lexer over the source buffer. It never reads past the end
// of the buffer (which need not be NUL-terminated) and reports malformed
// tokens as Error tokens, leaving the diagnostic to the parser.
//
//===----------------------------------------------------------------------===//

#include "ir/Lexer.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>

using namespace onyx;

StringRef Token::getStringValue(std::string &storage) const {
  // Drop the quotes and, for `@"name"`, the '@'.
  StringRef body = spelling;
  if (body.starts_with("@"))
    body = body.drop_front();
  body = body.drop_front().drop_back();
  if (!body.contains('\\'))
    return body;

  storage.clear();
  storage.reserve(body.size());
  for (size_t i = 0, e = body.size(); i < e; ++i) {
    char c = body[i];
    if (c != '\\') {
      storage.push_back(c);
      continue;
    }
    // The lexer accepted only these escapes.
    char next = body[++i];
    switch (next) {
    case 'n':
      storage.push_back('\n');
      break;
    case 't':
      storage.push_back('\t');
      break;
    case '"':
    case '\\':
      storage.push_back(next);
      break;
    default:
      storage.push_back(char(llvm::hexDigitValue(next) * 16 +
                             llvm::hexDigitValue(body[++i])));
      break;
    }
  }
  return storage;
}

Lexer::Lexer(StringRef buffer)
    : bufferBegin(buffer.begin()), bufferEnd(buffer.end()),
      curPtr(buffer.begin()), lineStart(buffer.begin()) {}

static bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
}

// Characters besides letters and digits allowed in `%`, `^`, `#` and `!`
// identifiers.
static bool isSuffixPunct(char c) {
  return c == '$' || c == '.' || c == '_' || c == '-';
}

Token Lexer::formError(const char *where, const char *message) {
  errorPtr = where;
  errorMessage = message;
  return Token(Token::Error,
               StringRef(where, curPtr > where ? curPtr - where : 0));
}

void Lexer::countLines(const char *from, const char *to) {
  for (const char *p = from; p < to; ++p) {
    if (*p == '\n') {
      ++line;
      lineStart = p + 1;
    }
  }
}

void Lexer::resetPointer(const char *ptr) {
  if (ptr >= curPtr) {
    countLines(curPtr, ptr);
  } else if (ptr < lineStart) {
    // Moving back over newlines: recount the lines in between.
    line -= std::count(ptr, lineStart, '\n');
    lineStart = ptr;
    while (lineStart > bufferBegin && lineStart[-1] != '\n')
      --lineStart;
  }
  curPtr = ptr;
}

std::pair<unsigned, unsigned> Lexer::getLineAndColumn(const char *ptr) const {
  if (ptr >= lineStart && ptr <= curPtr)
    return {line, unsigned(ptr - lineStart) + 1};
  if (ptr > curPtr) {
    // Ahead of the lexer, in text the parser scans itself (dialect bodies).
    unsigned ptrLine = line;
    const char *start = lineStart;
    for (const char *p = lineStart; p < ptr; ++p) {
      if (*p == '\n') {
        ++ptrLine;
        start = p + 1;
      }
    }
    return {ptrLine, unsigned(ptr - start) + 1};
  }
  unsigned ptrLine = line - std::count(ptr, lineStart, '\n');
  const char *start = ptr;
  while (start > bufferBegin && start[-1] != '\n')
    --start;
  return {ptrLine, unsigned(ptr - start) + 1};
}

Token Lexer::lexToken() {
  while (true) {
    const char *tokStart = curPtr;
    if (curPtr == bufferEnd)
      return formToken(Token::Eof, tokStart);
    char c = *curPtr++;
    switch (c) {
    case '\n':
      ++line;
      lineStart = curPtr;
      continue;
    case ' ':
    case '\t':
    case '\r':
    // A NUL byte inside the buffer is skipped like whitespace.
    case 0:
      continue;

    case '/':
      if (peek(curPtr) != '/')
        return formError(tokStart, "unexpected character");
      // A comment runs to the end of the line; the newline is counted above.
      curPtr = static_cast<const char *>(
          std::memchr(curPtr, '\n', bufferEnd - curPtr));
      if (!curPtr)
        curPtr = bufferEnd;
      continue;

    case ':':
      return formToken(Token::Colon, tokStart);
    case ',':
      return formToken(Token::Comma, tokStart);
    case '=':
      return formToken(Token::Equal, tokStart);
    case '>':
      return formToken(Token::Greater, tokStart);
    case '<':
      return formToken(Token::Less, tokStart);
    case '{':
      return formToken(Token::LBrace, tokStart);
    case '}':
      return formToken(Token::RBrace, tokStart);
    case '(':
      return formToken(Token::LParen, tokStart);
    case ')':
      return formToken(Token::RParen, tokStart);
    case '[':
      return formToken(Token::LSquare, tokStart);
    case ']':
      return formToken(Token::RSquare, tokStart);
    case '?':
      return formToken(Token::Question, tokStart);
    case '*':
      return formToken(Token::Star, tokStart);
    case '+':
      return formToken(Token::Plus, tokStart);
    case '-':
      if (peek(curPtr) == '>') {
        ++curPtr;
        return formToken(Token::Arrow, tokStart);
      }
      return formToken(Token::Minus, tokStart);
    case '.':
      if (peek(curPtr) == '.' && peek(curPtr + 1) == '.') {
        curPtr += 2;
        return formToken(Token::Ellipsis, tokStart);
      }
      return formError(tokStart, "unexpected character");

    case '"':
      return lexString(tokStart);
    case '@':
      return lexAtIdentifier(tokStart);
    case '%':
    case '^':
    case '#':
    case '!':
      return lexPrefixedIdentifier(tokStart);

    default:
      if (llvm::isDigit(c))
        return lexNumber(tokStart);
      if (llvm::isAlpha(c) || c == '_')
        return lexBareIdentifier(tokStart);
      return formError(tokStart, "unexpected character");
    }
  }
}

Token Lexer::lexNumber(const char *start) {
  // `0x` followed by a hex digit is a hex integer; `0xf32` in a shape is
  // split up by the parser.
  if (*start == '0' && peek(curPtr) == 'x' &&
      llvm::isHexDigit(peek(curPtr + 1))) {
    curPtr += 2;
    while (llvm::isHexDigit(peek(curPtr)))
      ++curPtr;
    return formToken(Token::Integer, start);
  }
  while (llvm::isDigit(peek(curPtr)))
    ++curPtr;
  if (peek(curPtr) != '.')
    return formToken(Token::Integer, start);

  // [0-9]+ '.' [0-9]* ([eE] [-+]? [0-9]+)?
  ++curPtr;
  while (llvm::isDigit(peek(curPtr)))
    ++curPtr;
  char e = peek(curPtr);
  if (e == 'e' || e == 'E') {
    char next = peek(curPtr + 1);
    if (llvm::isDigit(next) ||
        ((next == '-' || next == '+') && llvm::isDigit(peek(curPtr + 2)))) {
      curPtr += 2;
      while (llvm::isDigit(peek(curPtr)))
        ++curPtr;
    }
  }
  return formToken(Token::Float, start);
}

/// Whether a character needs a look inside a string literal; the others
/// are skipped in a tight loop (hex constants can be megabytes long).
static bool isStringSpecial(char c) {
  return c == '"' || c == '\\' || c == '\n' || c == '\v' || c == '\f';
}

Token Lexer::lexString(const char *start) {
  while (true) {
    while (curPtr != bufferEnd && !isStringSpecial(*curPtr))
      ++curPtr;
    if (curPtr == bufferEnd)
      return formError(curPtr, "expected '\"' in string literal");
    switch (*curPtr++) {
    case '"':
      return formToken(Token::String, start);
    case '\n':
    case '\v':
    case '\f':
      return formError(curPtr - 1, "expected '\"' in string literal");
    case '\\': {
      char c = peek(curPtr);
      if (c == '"' || c == '\\' || c == 'n' || c == 't') {
        ++curPtr;
      } else if (llvm::isHexDigit(c) && llvm::isHexDigit(peek(curPtr + 1))) {
        curPtr += 2;
      } else {
        return formError(curPtr - 1, "unknown escape in string literal");
      }
      continue;
    }
    default:
      continue;
    }
  }
}

Token Lexer::lexBareIdentifier(const char *start) {
  while (curPtr != bufferEnd && isIdentifierChar(*curPtr))
    ++curPtr;
  return formToken(Token::BareIdentifier, start);
}

Token Lexer::lexAtIdentifier(const char *start) {
  char c = peek(curPtr);
  if (c == '"') {
    ++curPtr;
    Token str = lexString(curPtr - 1);
    if (str.is(Token::Error))
      return str;
    return formToken(Token::AtIdentifier, start);
  }
  if (!llvm::isAlpha(c) && c != '_')
    return formError(curPtr,
                     "@ identifier expected to start with letter or '_'");
  while (curPtr != bufferEnd && isIdentifierChar(*curPtr))
    ++curPtr;
  return formToken(Token::AtIdentifier, start);
}

Token Lexer::lexPrefixedIdentifier(const char *start) {
  Token::Kind kind;
  const char *invalid;
  switch (*start) {
  case '%':
    kind = Token::PercentIdentifier;
    invalid = "invalid SSA name";
    break;
  case '^':
    kind = Token::CaretIdentifier;
    invalid = "invalid block name";
    break;
  case '#':
    kind = Token::HashIdentifier;
    invalid = "invalid attribute name";
    break;
  default:
    kind = Token::ExclamationIdentifier;
    invalid = "invalid type identifier";
    break;
  }

  // Either all digits, or a letter or punctuation followed by letters,
  // digits and punctuation.
  char c = peek(curPtr);
  if (llvm::isDigit(c)) {
    while (llvm::isDigit(peek(curPtr)))
      ++curPtr;
  } else if (llvm::isAlpha(c) || isSuffixPunct(c)) {
    do
      ++curPtr;
    while (curPtr != bufferEnd &&
           (llvm::isAlnum(*curPtr) || isSuffixPunct(*curPtr)));
  } else {
    return formError(start, invalid);
  }
  return formToken(kind, start);
}

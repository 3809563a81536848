//===- AttributeParser.cpp - Reading attributes
//-----------------------------===//
//
// Builtin attributes (numbers, strings, arrays, dictionaries, symbol
// references, types, unit) and dense elements, decoded straight into one byte
// buffer from decimal, float or hex literals; dialect attributes through their
// dialect's hook and `#alias` references.
//
//===----------------------------------------------------------------------===//

#include "ir/ParserImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"

#include <cstring>
#include <limits>

using namespace onyx;
using namespace onyx::detail;

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
  llvm::DenseSet<Attribute> seen;
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
StringRef detail::getSymbolName(const Token &tok, std::string &storage) {
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
  if (isAliasReference())
    return parseAliasReference(attrAliases);
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
  // An element is stored in a power-of-two number of bytes: an i644 in 128,
  // more than its APInt's 88 bytes, which StoreIntToMemory would read past.
  if (bits.getBitWidth() != 0 && bits.getBitWidth() < eltBytes * 8)
    bits = bits.zext(eltBytes * 8);
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

//===- OpAsm.h - Custom assembly forms of operations ------------*- C++ -*-===//
//
// The interfaces an op's custom print/parse hooks use. The printer and the
// parser implement them; ops never see the lexer or SSA numbering.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/OperationSupport.h"

#include "llvm/Support/SMLoc.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace onyx {

class Builder;

class OpAsmPrinter {
public:
  virtual ~OpAsmPrinter();
  virtual llvm::raw_ostream &getStream() = 0;

  virtual void printOperand(Value value) = 0;
  void printOperands(ValueRange values) {
    llvm::interleaveComma(values, getStream(),
                          [&](Value v) { printOperand(v); });
  }
  virtual void printType(Type type) = 0;
  /// Types separated by commas.
  template <typename RangeT> void printTypes(RangeT &&types) {
    llvm::interleaveComma(types, getStream(), [&](Type t) { printType(t); });
  }
  /// `-> type` or `-> (type, type)`; nothing for no types.
  void printOptionalArrowTypeList(ArrayRef<Type> types);
  /// With a type suffix where the attribute has one (`1 : i32`).
  virtual void printAttribute(Attribute attr) = 0;
  virtual void printAttributeWithoutType(Attribute attr) = 0;
  /// ` {a = 1, b = 2}` without the names in `elided`; nothing if empty.
  virtual void printOptionalAttrDict(ArrayRef<NamedAttribute> attrs,
                                     ArrayRef<StringRef> elided = {}) = 0;
  /// As above, preceded by the keyword ` attributes`.
  virtual void
  printOptionalAttrDictWithKeyword(ArrayRef<NamedAttribute> attrs,
                                   ArrayRef<StringRef> elided = {}) = 0;
  virtual void printSymbolName(StringRef name) = 0;
  /// `%arg0: type {attrs}` and its location when debug info is printed.
  virtual void printRegionArgument(BlockArgument arg,
                                   ArrayRef<NamedAttribute> argAttrs = {},
                                   bool omitType = false) = 0;
  /// `{ ... }` with nested blocks. The entry block's header is printed only
  /// if asked and it has arguments; terminators may be left implicit.
  virtual void printRegion(Region &region, bool printEntryBlockArgs = true,
                           bool printBlockTerminators = true,
                           bool printEmptyBlock = false) = 0;
  virtual void printNewline() = 0;

  OpAsmPrinter &operator<<(StringRef s) {
    getStream() << s;
    return *this;
  }
  OpAsmPrinter &operator<<(char c) {
    getStream() << c;
    return *this;
  }
  OpAsmPrinter &operator<<(Value v) {
    printOperand(v);
    return *this;
  }
  OpAsmPrinter &operator<<(Type t) {
    printType(t);
    return *this;
  }
  OpAsmPrinter &operator<<(Attribute a) {
    printAttribute(a);
    return *this;
  }
};

class OpAsmParser {
public:
  /// An SSA use whose definition is resolved once its type is known.
  struct UnresolvedOperand {
    llvm::SMLoc location;
    StringRef name;
    unsigned number = 0;
  };
  /// A region argument as written: `%name: type {attrs} loc(...)`.
  struct Argument {
    UnresolvedOperand ssaName;
    Type type;
    DictionaryAttr attrs;
    std::optional<Location> sourceLoc;
  };
  enum class Delimiter { None, Paren, Square, OptionalParen };

  virtual ~OpAsmParser();

  virtual Builder &getBuilder() const = 0;
  Context *getContext() const;
  virtual llvm::SMLoc getCurrentLocation() = 0;
  virtual Location getEncodedSourceLoc(llvm::SMLoc loc) = 0;
  virtual InFlightDiagnostic emitError(llvm::SMLoc loc,
                                       const llvm::Twine &message = {}) = 0;

  // Punctuation.
  virtual ParseResult parseArrow() = 0;
  virtual ParseResult parseOptionalArrow() = 0;
  virtual ParseResult parseColon() = 0;
  virtual ParseResult parseOptionalColon() = 0;
  virtual ParseResult parseComma() = 0;
  virtual ParseResult parseOptionalComma() = 0;
  virtual ParseResult parseEqual() = 0;
  virtual ParseResult parseLParen() = 0;
  virtual ParseResult parseOptionalLParen() = 0;
  virtual ParseResult parseRParen() = 0;
  virtual ParseResult parseOptionalRParen() = 0;
  virtual ParseResult parseLSquare() = 0;
  virtual ParseResult parseRSquare() = 0;
  virtual ParseResult parseLBrace() = 0;
  virtual ParseResult parseOptionalLBrace() = 0;
  virtual ParseResult parseRBrace() = 0;

  // Keywords and symbols.
  virtual ParseResult parseKeyword(StringRef keyword) = 0;
  virtual ParseResult parseOptionalKeyword(StringRef keyword) = 0;
  /// Any bare identifier; fails (without an error) if there is none.
  virtual ParseResult parseOptionalKeyword(StringRef *keyword) = 0;
  virtual ParseResult parseSymbolName(StringAttr &name) = 0;
  virtual ParseResult parseOptionalSymbolName(StringAttr &name) = 0;

  // Types and attributes.
  virtual ParseResult parseType(Type &type) = 0;
  virtual ParseResult parseColonType(Type &type) = 0;
  virtual ParseResult parseColonTypeList(SmallVectorImpl<Type> &types) = 0;
  /// `-> type` or `-> (type, ...)` where each type may carry `{attrs}`.
  virtual ParseResult
  parseFunctionResultTypes(SmallVectorImpl<Type> &types,
                           SmallVectorImpl<DictionaryAttr> &attrs) = 0;
  /// An attribute; `type` is used for literals without a `: type`.
  virtual ParseResult parseAttribute(Attribute &attr, Type type = {}) = 0;
  virtual ParseResult
  parseOptionalAttrDict(SmallVectorImpl<NamedAttribute> &attrs) = 0;
  virtual ParseResult
  parseOptionalAttrDictWithKeyword(SmallVectorImpl<NamedAttribute> &attrs) = 0;
  virtual ParseResult
  parseOptionalLocationSpecifier(std::optional<Location> &loc) = 0;

  // SSA values.
  virtual ParseResult parseOperand(UnresolvedOperand &operand) = 0;
  /// An SSA use if the next token is one; `present` says whether it was.
  virtual ParseResult parseOptionalOperand(UnresolvedOperand &operand,
                                           bool &present) = 0;
  virtual ParseResult
  parseOperandList(SmallVectorImpl<UnresolvedOperand> &operands,
                   Delimiter delimiter = Delimiter::None) = 0;
  virtual ParseResult resolveOperand(const UnresolvedOperand &operand,
                                     Type type,
                                     SmallVectorImpl<Value> &result) = 0;
  ParseResult resolveOperands(ArrayRef<UnresolvedOperand> operands,
                              ArrayRef<Type> types, llvm::SMLoc loc,
                              SmallVectorImpl<Value> &result);

  // Regions.
  /// `(%a: t {attrs} loc(..), ...)`. An entry may also be a bare type
  /// (`(i32, f32 {attrs})`, as external functions write their signature);
  /// then its ssaName.name is empty. Attributes only if `allowAttrs`.
  virtual ParseResult parseArgumentList(SmallVectorImpl<Argument> &args,
                                        Delimiter delimiter,
                                        bool allowAttrs) = 0;
  /// A region whose entry block takes `arguments` (if any are given).
  virtual ParseResult parseRegion(Region &region,
                                  ArrayRef<Argument> arguments = {}) = 0;
  virtual ParseResult parseOptionalRegion(Region &region,
                                          ArrayRef<Argument> arguments = {},
                                          bool *parsed = nullptr) = 0;
};

} // namespace onyx

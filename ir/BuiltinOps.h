//===- BuiltinOps.h - builtin.module, func.func, func.return ----*- C++ -*-===//
//
// The ops every program needs, with MLIR's custom forms:
//   module @name attributes {...} { ... }
//   func.func private @f(%arg0: t {attrs}) -> (t {attrs}) attributes {...}
//   return %0 : t
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Builder.h"
#include "ir/Dialect.h"
#include "ir/OpAsm.h"

namespace onyx {

class BuiltinDialect : public Dialect {
public:
  explicit BuiltinDialect(Context *ctx);
  static StringRef getDialectNamespace() { return "builtin"; }
};

class FuncDialect : public Dialect {
public:
  explicit FuncDialect(Context *ctx);
  static StringRef getDialectNamespace() { return "func"; }
};

class ModuleOp : public Op<ModuleOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "builtin.module"; }
  static constexpr OpTrait traits =
      OpTrait::IsolatedFromAbove | OpTrait::SymbolTable |
      OpTrait::NoTerminator | OpTrait::SingleBlock;
  static ArrayRef<StringRef> getPropertyNames();
  static StringRef getDefaultDialect() { return "builtin"; }

  static void build(OpBuilder &builder, OperationState &state,
                    std::optional<StringRef> name = std::nullopt);
  /// A new module with an empty body, outside any block.
  static ModuleOp create(Location loc,
                         std::optional<StringRef> name = std::nullopt);

  Block *getBody() { return &state->getRegion(0).front(); }
  std::optional<StringRef> getName();
  /// Looks up a symbol defined directly in this module.
  Operation *lookupSymbol(StringRef name);

  LogicalResult verify();
  void print(OpAsmPrinter &p);
  static ParseResult parse(OpAsmParser &parser, OperationState &result);
};

class FuncOp : public Op<FuncOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "func.func"; }
  static constexpr OpTrait traits =
      OpTrait::IsolatedFromAbove | OpTrait::Symbol;
  static ArrayRef<StringRef> getPropertyNames();
  static StringRef getDefaultDialect() { return "func"; }

  static void build(OpBuilder &builder, OperationState &state, StringRef name,
                    FunctionType type);

  StringRef getSymName();
  FunctionType getFunctionType();
  void setFunctionType(FunctionType type);
  bool isExternal() { return state->getRegion(0).empty(); }
  bool isPrivate();
  Region &getBody() { return state->getRegion(0); }
  Block &front() { return getBody().front(); }
  unsigned getNumArguments() { return getFunctionType().getInputs().size(); }
  BlockArgument getArgument(unsigned i) { return front().getArgument(i); }
  /// `arg_attrs` / `res_attrs` entries; null if none.
  DictionaryAttr getArgAttrDict(unsigned i);
  DictionaryAttr getResultAttrDict(unsigned i);
  /// Sets attribute `name` of argument `i` (in `arg_attrs`) to `value`.
  void setArgAttr(unsigned i, StringRef name, Attribute value);

  LogicalResult verify();
  void print(OpAsmPrinter &p);
  static ParseResult parse(OpAsmParser &parser, OperationState &result);
};

/// The functions of `module` that have a body, in order. A list, not a
/// view, so that a pass may add ops to the module while it goes through them.
SmallVector<FuncOp> getDefinedFunctions(ModuleOp module);

class ReturnOp : public Op<ReturnOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "func.return"; }
  static constexpr OpTrait traits =
      OpTrait::Pure | OpTrait::Terminator | OpTrait::ReturnLike;

  static void build(OpBuilder &builder, OperationState &state,
                    ValueRange operands = {});

  LogicalResult verify();
  void print(OpAsmPrinter &p);
  static ParseResult parse(OpAsmParser &parser, OperationState &result);
};

} // namespace onyx

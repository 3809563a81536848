//===- Dialect.h - A namespace of operations, types, attributes -*- C++ -*-===//
//
// A dialect registers its ops (with traits and hooks) in the Context and
// may materialize constants for folding and parse/print its own types.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Context.h"
#include "ir/OpDefinition.h"

namespace onyx {

class OpBuilder;

class Dialect {
public:
  virtual ~Dialect();
  StringRef getNamespace() const { return ns; }
  Context *getContext() const { return context; }

  /// Creates, through `builder` (placed where the folder wants the constant),
  /// an op producing constant `value` of `type`; nullptr if this dialect
  /// cannot.
  virtual Operation *materializeConstant(OpBuilder &builder, Attribute value,
                                         Type type, Location loc);
  /// Parses the body of `!ns.body` into a type of this dialect; reports an
  /// error at `loc` and returns null on failure.
  virtual Type parseType(StringRef body, Location loc);
  /// Prints the part of a type of this dialect after `!ns.`.
  virtual void printType(Type type, llvm::raw_ostream &os) const;
  /// Whether ops of this namespace that the dialect does not register are
  /// accepted (as unregistered ops), as MLIR's test dialect does; otherwise
  /// an unknown op of a loaded dialect is an error, being a typo.
  bool allowsUnknownOperations() const { return unknownOpsAllowed; }

protected:
  Dialect(StringRef ns, Context *context) : ns(ns), context(context) {}

  template <typename... OpTs> void addOperations() {
    (addOperation<OpTs>(), ...);
  }

  void allowUnknownOperations(bool allow = true) { unknownOpsAllowed = allow; }

  /// Registers an op that has no C++ class (a table-driven dialect) and
  /// returns its record, for the dialect to fill in the hooks.
  OpInfo *addOperation(StringRef name, OpTrait traits) {
    OpInfo *info = registerOp(name);
    info->traits = uint32_t(traits);
    return info;
  }

private:
  template <typename OpT> void addOperation() {
    OpInfo *info = registerOp(OpT::getOperationName());
    info->traits = uint32_t(OpT::traits);
    info->typeID = OpT::getTypeID();
    if constexpr (requires(OpT op) { op.verify(); })
      info->verify = [](Operation *op) { return OpT(op).verify(); };
    if constexpr (requires(OpT op) { op.verifyRegions(); })
      info->verifyRegions = [](Operation *op) {
        return OpT(op).verifyRegions();
      };
    if constexpr (requires(OpT op, ArrayRef<Attribute> operands,
                           SmallVectorImpl<OpFoldResult> & results) {
                    op.fold(operands, results);
                  })
      info->fold = [](Operation *op, ArrayRef<Attribute> operands,
                      SmallVectorImpl<OpFoldResult> &results) {
        return OpT(op).fold(operands, results);
      };
    if constexpr (requires { &OpT::getCanonicalizationPatterns; })
      info->getCanonicalizationPatterns = &OpT::getCanonicalizationPatterns;
    if constexpr (requires(OpT op, OpAsmPrinter & p) { op.print(p); })
      info->print = [](Operation *op, OpAsmPrinter &p) { OpT(op).print(p); };
    if constexpr (requires { &OpT::parse; })
      info->parse = &OpT::parse;
    if constexpr (requires { OpT::getDefaultDialect(); })
      info->defaultDialect = OpT::getDefaultDialect();
    if constexpr (requires { OpT::getPropertyNames(); })
      info->propertyNames = OpT::getPropertyNames();
  }
  OpInfo *registerOp(StringRef name);

  StringRef ns;
  Context *context;
  bool unknownOpsAllowed = false;
};

} // namespace onyx

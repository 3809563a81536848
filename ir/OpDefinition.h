//===- OpDefinition.h - Typed views of operations ---------------*- C++ -*-===//
//
// An op class is a thin value type wrapping an Operation*, with accessors
// for its operands and attributes and optional static members that a
// dialect registers as hooks:
//
//   static StringRef getOperationName();     // required
//   static constexpr OpTrait traits = ...;   // optional
//   LogicalResult verify();                  // optional
//   LogicalResult fold(ArrayRef<Attribute>, SmallVectorImpl<OpFoldResult>&);
//   static void getCanonicalizationPatterns(PatternSet &, Context *);
//   void print(OpAsmPrinter &);  static ParseResult parse(OpAsmParser &,
//                                                         OperationState &);
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Block.h"
#include "ir/Region.h"

namespace onyx {

class OpState {
public:
  explicit OpState(Operation *op = nullptr) : state(op) {}
  Operation *getOperation() const { return state; }
  operator Operation *() const { return state; }
  Operation *operator->() const { return state; }
  explicit operator bool() const { return state != nullptr; }
  bool operator==(const OpState &o) const { return state == o.state; }

  Location getLoc() const { return state->getLoc(); }
  Context *getContext() const { return state->getContext(); }
  InFlightDiagnostic emitOpError(const llvm::Twine &message = {}) const {
    return state->emitOpError(message);
  }
  InFlightDiagnostic emitError(const llvm::Twine &message = {}) const {
    return state->emitError(message);
  }

protected:
  Operation *state;
};

/// Base of typed ops. `classof` compares the registered class identity, so
/// isa<ConcreteOp> is one pointer comparison.
template <typename ConcreteOp> class Op : public OpState {
public:
  using OpState::OpState;
  static constexpr OpTrait traits = OpTrait::None;

  static bool classof(const Operation *op) {
    return op->getInfo()->typeID == getTypeID();
  }
  static const void *getTypeID() { return &typeTag; }

private:
  static inline char typeTag = 0;
};

} // namespace onyx

namespace llvm {
template <typename To>
struct CastInfo<To, onyx::Operation *,
                std::enable_if_t<std::is_base_of_v<onyx::OpState, To>>>
    : DefaultDoCastIfPossible<To, onyx::Operation *,
                              CastInfo<To, onyx::Operation *>> {
  static bool isPossible(onyx::Operation *op) { return To::classof(op); }
  static To doCast(onyx::Operation *op) { return To(op); }
  static To castFailed() { return To(); }
};
template <typename To>
struct CastInfo<To, onyx::Operation,
                std::enable_if_t<std::is_base_of_v<onyx::OpState, To>>>
    : DefaultDoCastIfPossible<To, onyx::Operation &,
                              CastInfo<To, onyx::Operation>> {
  static bool isPossible(onyx::Operation &op) { return To::classof(&op); }
  static To doCast(onyx::Operation &op) { return To(&op); }
  static To castFailed() { return To(); }
};
} // namespace llvm

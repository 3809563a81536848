//===- OwningOpRef.h - Owns a top-level operation ---------------*- C++ -*-===//
#pragma once

#include "ir/Operation.h"

namespace onyx {

/// Erases the op it holds when destroyed; for ops in no block, such as the
/// module a parser returns.
template <typename OpT> class OwningOpRef {
public:
  OwningOpRef(std::nullptr_t = nullptr) {}
  OwningOpRef(OpT op) : op(op) {}
  OwningOpRef(OwningOpRef &&other) : op(other.release()) {}
  OwningOpRef &operator=(OwningOpRef &&other) {
    reset(other.release());
    return *this;
  }
  ~OwningOpRef() { reset(); }

  OpT get() const { return op; }
  OpT operator*() const { return op; }
  auto operator->() { return op.operator->(); }
  explicit operator bool() const { return bool(op); }
  OpT release() {
    OpT result = op;
    op = OpT();
    return result;
  }
  void reset(OpT newOp = OpT()) {
    if (op)
      op->erase();
    op = newOp;
  }

private:
  OpT op = OpT();
};

} // namespace onyx

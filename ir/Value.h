//===- Value.h - SSA values and their use-lists -----------------*- C++ -*-===//
//
// A Value is an operation result or a block argument. Each value keeps an
// intrusive list of the OpOperands that use it, so replacing all uses and
// walking users never scans the IR.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Location.h"

#include "llvm/ADT/PointerUnion.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/iterator.h"
#include "llvm/ADT/iterator_range.h"

namespace onyx {

class OpOperand;

namespace detail {
/// Results of an operation sit right after it in memory, so a result finds
/// its owner from its index; block arguments store their owner.
struct alignas(8) ValueImpl {
  Type type;
  OpOperand *firstUse = nullptr;
  uint32_t index;
  bool isBlockArgument;
};
struct OpResultImpl : ValueImpl {
  Operation *getOwner() const;
};
struct BlockArgumentImpl : ValueImpl {
  Block *owner;
  Location loc;
};
} // namespace detail

/// Iterates over the OpOperands of a use-list.
class UseIterator
    : public llvm::iterator_facade_base<UseIterator, std::forward_iterator_tag,
                                        OpOperand> {
public:
  UseIterator(OpOperand *use = nullptr) : use(use) {}
  OpOperand &operator*() const { return *use; }
  using iterator_facade_base::operator++;
  UseIterator &operator++();
  bool operator==(const UseIterator &o) const { return use == o.use; }

private:
  OpOperand *use;
};

class Value {
public:
  Value(std::nullptr_t = nullptr) {}
  /*implicit*/ Value(detail::ValueImpl *impl) : impl(impl) {}

  explicit operator bool() const { return impl != nullptr; }
  bool operator==(Value o) const { return impl == o.impl; }
  bool operator!=(Value o) const { return impl != o.impl; }
  bool operator<(Value o) const { return impl < o.impl; }

  Type getType() const { return impl->type; }
  void setType(Type type) { impl->type = type; }
  Context *getContext() const { return getType().getContext(); }

  /// The operation that defines this value, or nullptr for block arguments.
  Operation *getDefiningOp() const;
  template <typename OpT> OpT getDefiningOp() const {
    return llvm::dyn_cast_or_null<OpT>(getDefiningOp());
  }
  Block *getParentBlock() const;
  Region *getParentRegion() const;
  Location getLoc() const;

  // Uses.
  using use_iterator = UseIterator;
  use_iterator use_begin() const { return UseIterator(impl->firstUse); }
  use_iterator use_end() const { return UseIterator(); }
  llvm::iterator_range<use_iterator> getUses() const {
    return {use_begin(), use_end()};
  }
  bool use_empty() const { return impl->firstUse == nullptr; }
  bool hasOneUse() const;
  /// The operations that use this value, once per use.
  auto getUsers() const;
  /// Makes every use of this value use `newValue` instead.
  void replaceAllUsesWith(Value newValue) const;
  /// Replaces the uses for which `shouldReplace` returns true.
  void replaceUsesWithIf(Value newValue,
                         llvm::function_ref<bool(OpOperand &)> shouldReplace);
  /// Replaces all uses except those by `exceptedUser`.
  void replaceAllUsesExcept(Value newValue, Operation *exceptedUser) const;
  void dropAllUses() const;

  detail::ValueImpl *getImpl() const { return impl; }
  void print(llvm::raw_ostream &os) const;
  void dump() const;

  friend llvm::hash_code hash_value(Value v) {
    return llvm::hash_value(static_cast<const void *>(v.impl));
  }

protected:
  detail::ValueImpl *impl = nullptr;
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Value value);

class OpResult : public Value {
public:
  using Value::Value;
  Operation *getOwner() const {
    return static_cast<detail::OpResultImpl *>(impl)->getOwner();
  }
  unsigned getResultNumber() const { return impl->index; }
  static bool classof(Value v) { return !v.getImpl()->isBlockArgument; }
};

class BlockArgument : public Value {
public:
  using Value::Value;
  Block *getOwner() const {
    return static_cast<detail::BlockArgumentImpl *>(impl)->owner;
  }
  unsigned getArgNumber() const { return impl->index; }
  Location getLoc() const {
    return static_cast<detail::BlockArgumentImpl *>(impl)->loc;
  }
  void setLoc(Location loc) {
    static_cast<detail::BlockArgumentImpl *>(impl)->loc = loc;
  }
  static bool classof(Value v) { return v.getImpl()->isBlockArgument; }
};

/// One operand slot of an operation, linked into its value's use-list.
class OpOperand {
public:
  OpOperand(Operation *owner, Value value) : owner(owner) { insert(value); }
  OpOperand(const OpOperand &) = delete;
  OpOperand &operator=(const OpOperand &) = delete;
  ~OpOperand() { removeFromList(); }

  Value get() const { return value; }
  void set(Value newValue) {
    removeFromList();
    insert(newValue);
  }
  /// Removes this use from its value's list and clears it.
  void drop() {
    removeFromList();
    value = nullptr;
  }
  Operation *getOwner() const { return owner; }
  unsigned getOperandNumber() const;
  OpOperand *getNextUse() const { return next; }

private:
  void insert(Value v) {
    value = v;
    if (!v)
      return;
    OpOperand *&head = v.getImpl()->firstUse;
    next = head;
    if (next)
      next->back = &next;
    back = &head;
    head = this;
  }
  void removeFromList() {
    if (!value)
      return;
    *back = next;
    if (next)
      next->back = back;
  }

  Value value;
  OpOperand *next = nullptr;
  OpOperand **back = nullptr;
  Operation *owner;
};

inline UseIterator &UseIterator::operator++() {
  use = use->getNextUse();
  return *this;
}

inline bool Value::hasOneUse() const {
  return impl->firstUse && !impl->firstUse->getNextUse();
}

inline auto Value::getUsers() const {
  return llvm::map_range(getUses(),
                         [](OpOperand &use) { return use.getOwner(); });
}

} // namespace onyx

namespace llvm {
template <> struct DenseMapInfo<onyx::Value> {
  static onyx::Value getEmptyKey() {
    return onyx::Value(static_cast<onyx::detail::ValueImpl *>(
        DenseMapInfo<void *>::getEmptyKey()));
  }
  static onyx::Value getTombstoneKey() {
    return onyx::Value(static_cast<onyx::detail::ValueImpl *>(
        DenseMapInfo<void *>::getTombstoneKey()));
  }
  static unsigned getHashValue(onyx::Value v) {
    return DenseMapInfo<void *>::getHashValue(v.getImpl());
  }
  static bool isEqual(onyx::Value a, onyx::Value b) { return a == b; }
};

template <typename To, typename From>
struct CastInfo<
    To, From,
    std::enable_if_t<std::is_same_v<onyx::Value, std::remove_const_t<From>> &&
                     std::is_base_of_v<onyx::Value, To>>>
    : NullableValueCastFailed<To>,
      DefaultDoCastIfPossible<To, From, CastInfo<To, From>> {
  static bool isPossible(From v) { return To::classof(v); }
  static To doCast(From v) { return To(v.getImpl()); }
};
} // namespace llvm

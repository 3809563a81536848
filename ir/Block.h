//===- Block.h - A list of operations with arguments ------------*- C++ -*-===//
//
// A Block owns its operations (an intrusive list, so insertion, removal and
// splicing are O(1)) and its arguments, and belongs to a Region.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Operation.h"

namespace onyx {

class Block final : public llvm::ilist_node_with_parent<Block, Region> {
public:
  using OpListType = llvm::iplist<Operation>;
  using iterator = OpListType::iterator;
  using reverse_iterator = OpListType::reverse_iterator;

  Block() = default;
  ~Block();
  Block(const Block &) = delete;

  Region *getParent() const { return parent; }
  Operation *getParentOp() const;
  /// Unlinks this block from its region and deletes it.
  void erase();

  // Arguments.
  ArrayRef<BlockArgument> getArguments() const { return arguments; }
  BlockArgument getArgument(unsigned i) const { return arguments[i]; }
  unsigned getNumArguments() const { return arguments.size(); }
  bool args_empty() const { return arguments.empty(); }
  BlockArgument addArgument(Type type, Location loc);
  void eraseArgument(unsigned index);
  auto getArgumentTypes() const {
    return llvm::map_range(arguments,
                           [](BlockArgument a) { return a.getType(); });
  }

  // Operations.
  OpListType &getOperations() { return operations; }
  iterator begin() { return operations.begin(); }
  iterator end() { return operations.end(); }
  reverse_iterator rbegin() { return operations.rbegin(); }
  reverse_iterator rend() { return operations.rend(); }
  bool empty() const { return operations.empty(); }
  Operation &front() { return operations.front(); }
  Operation &back() { return operations.back(); }
  void push_back(Operation *op) { operations.push_back(op); }
  void push_front(Operation *op) { operations.push_front(op); }
  /// The last op if it is a terminator.
  Operation *getTerminator();
  /// Moves all ops of `other` to the end of this block.
  void splice(Block *other);

  /// Drops operand references of all nested ops (see Operation).
  void dropAllReferences();

  // Op order, kept lazily with gaps so that inserting rarely renumbers.
  bool isOpOrderValid() const { return opOrderValid; }
  void invalidateOpOrder() { opOrderValid = false; }
  void recomputeOpOrder();

  void print(llvm::raw_ostream &os) const;
  void dump() const;

private:
  friend struct llvm::ilist_traits<Operation>;
  friend struct llvm::ilist_traits<Block>;
  static OpListType Block::*getSublistAccess(Operation *) {
    return &Block::operations;
  }
  friend class llvm::ilist_node_with_parent<Operation, Block>;

  OpListType operations;
  SmallVector<BlockArgument, 2> arguments;
  Region *parent = nullptr;
  bool opOrderValid = false;
};

} // namespace onyx

//===- Region.h - A list of blocks owned by an operation --------*- C++ -*-===//
#pragma once

#include "ir/Block.h"

namespace llvm {
template <> struct ilist_traits<onyx::Block> {
  using block_iterator = simple_ilist<onyx::Block>::iterator;
  static void deleteNode(onyx::Block *block);
  void addNodeToList(onyx::Block *block);
  void removeNodeFromList(onyx::Block *block);
  void transferNodesFromList(ilist_traits<onyx::Block> &otherList,
                             block_iterator first, block_iterator last);

private:
  onyx::Region *getParentRegion();
};
} // namespace llvm

namespace onyx {

class Region {
public:
  using BlockListType = llvm::iplist<Block>;
  using iterator = BlockListType::iterator;

  Region() = default;
  explicit Region(Operation *container) : container(container) {}
  ~Region();
  Region(const Region &) = delete;

  /// The operation that owns this region.
  Operation *getParentOp() const { return container; }
  Region *getParentRegion() const;
  Context *getContext() const;
  /// Index of this region in its parent op.
  unsigned getRegionNumber() const;

  BlockListType &getBlocks() { return blocks; }
  iterator begin() { return blocks.begin(); }
  iterator end() { return blocks.end(); }
  bool empty() const { return blocks.empty(); }
  Block &front() { return blocks.front(); }
  Block &back() { return blocks.back(); }
  void push_back(Block *block) { blocks.push_back(block); }
  bool hasOneBlock() const {
    return !empty() && &blocks.front() == &blocks.back();
  }
  /// Appends a new empty block and returns it.
  Block *emplaceBlock();

  /// Moves all blocks of `other` to the end of this region.
  void takeBody(Region &other);
  /// Clones the blocks of this region into `dest` at `destPos`.
  void cloneInto(Region *dest, Region::iterator destPos, IRMapping &mapper);
  void dropAllReferences();

  /// Whether `op` (or an ancestor of it) is in this region.
  bool isAncestor(Region *other) const;
  /// The op of this region that contains `op`, or nullptr.
  Operation *findAncestorOpInRegion(Operation &op);
  Block *findAncestorBlockInRegion(Block &block);

  template <WalkOrder Order = WalkOrder::PostOrder, typename FnT>
  void walk(FnT &&callback) {
    for (Block &b : blocks)
      for (Operation &op : llvm::make_early_inc_range(b))
        op.walk<Order>(callback);
  }

private:
  friend struct llvm::ilist_traits<Block>;
  friend class Operation;
  friend class llvm::ilist_node_with_parent<Block, Region>;
  static BlockListType Region::*getSublistAccess(Block *) {
    return &Region::blocks;
  }
  BlockListType blocks;
  Operation *container = nullptr;
};

inline Region &Operation::getRegion(unsigned i) { return getRegionsPtr()[i]; }
inline MutableArrayRef<Region> Operation::getRegions() {
  return {getRegionsPtr(), numRegions};
}

} // namespace onyx

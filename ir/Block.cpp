//===- Block.cpp - A list of operations with arguments --------------------===//
#include "ir/Region.h"

#include "llvm/Support/raw_ostream.h"

using namespace onyx;

//===----------------------------------------------------------------------===//
// Keeping each op's parent block up to date
//===----------------------------------------------------------------------===//

Block *llvm::ilist_traits<Operation>::getContainingBlock() {
  size_t offset = size_t(
      &(static_cast<Block *>(nullptr)->*Block::getSublistAccess(nullptr)));
  auto *list = static_cast<iplist<Operation> *>(this);
  return reinterpret_cast<Block *>(reinterpret_cast<char *>(list) - offset);
}

void llvm::ilist_traits<Operation>::deleteNode(Operation *op) { op->destroy(); }

void llvm::ilist_traits<Operation>::addNodeToList(Operation *op) {
  op->setBlock(getContainingBlock());
  op->orderIndex = Operation::kInvalidOrderIndex;
}

void llvm::ilist_traits<Operation>::removeNodeFromList(Operation *op) {
  op->setBlock(nullptr);
}

void llvm::ilist_traits<Operation>::transferNodesFromList(
    ilist_traits<Operation> &otherList, op_iterator first, op_iterator last) {
  Block *block = getContainingBlock();
  if (this == &otherList)
    block->invalidateOpOrder();
  for (; first != last; ++first) {
    first->setBlock(block);
    first->orderIndex = Operation::kInvalidOrderIndex;
  }
}

//===----------------------------------------------------------------------===//
// Block
//===----------------------------------------------------------------------===//

namespace onyx {

Block::~Block() {
  dropAllReferences();
  operations.clear();
  for (BlockArgument arg : arguments)
    delete static_cast<detail::BlockArgumentImpl *>(arg.getImpl());
}

Operation *Block::getParentOp() const {
  return parent ? parent->getParentOp() : nullptr;
}

void Block::erase() { parent->getBlocks().erase(this); }

BlockArgument Block::addArgument(Type type, Location loc) {
  auto *impl = new detail::BlockArgumentImpl();
  impl->type = type;
  impl->index = arguments.size();
  impl->isBlockArgument = true;
  impl->owner = this;
  impl->loc = loc;
  arguments.push_back(BlockArgument(impl));
  return arguments.back();
}

void Block::eraseArgument(unsigned index) {
  assert(arguments[index].use_empty() && "erasing a used block argument");
  delete static_cast<detail::BlockArgumentImpl *>(arguments[index].getImpl());
  arguments.erase(arguments.begin() + index);
  for (unsigned i = index, e = arguments.size(); i != e; ++i)
    arguments[i].getImpl()->index = i;
}

Operation *Block::getTerminator() {
  if (empty() || !back().hasTrait(OpTrait::Terminator))
    return nullptr;
  return &back();
}

void Block::splice(Block *other) {
  operations.splice(operations.end(), other->operations);
}

void Block::dropAllReferences() {
  for (Operation &op : operations)
    op.dropAllReferences();
}

void Block::recomputeOpOrder() {
  unsigned index = 0;
  for (Operation &op : operations)
    op.orderIndex = (index += 8);
  opOrderValid = true;
}

//===----------------------------------------------------------------------===//
// Region
//===----------------------------------------------------------------------===//

Region::~Region() {
  // Ops may use values of later blocks; drop every use before deleting.
  dropAllReferences();
  blocks.clear();
}

Region *Region::getParentRegion() const {
  return container ? container->getParentRegion() : nullptr;
}

Context *Region::getContext() const { return container->getContext(); }

unsigned Region::getRegionNumber() const {
  return this - container->getRegions().data();
}

Block *Region::emplaceBlock() {
  auto *block = new Block();
  blocks.push_back(block);
  return block;
}

void Region::takeBody(Region &other) {
  dropAllReferences();
  blocks.clear();
  blocks.splice(blocks.end(), other.blocks);
}

void Region::cloneInto(Region *dest, Region::iterator destPos,
                       IRMapping &mapper) {
  if (empty())
    return;
  SmallVector<std::pair<Block *, Block *>, 4> pairs;
  for (Block &block : *this) {
    auto *newBlock = new Block();
    for (BlockArgument arg : block.getArguments())
      mapper.map(arg, newBlock->addArgument(arg.getType(), arg.getLoc()));
    mapper.map(&block, newBlock);
    dest->getBlocks().insert(destPos, newBlock);
    pairs.push_back({&block, newBlock});
  }
  SmallVector<Operation *, 16> cloned;
  for (auto [block, newBlock] : pairs) {
    for (Operation &op : *block) {
      Operation *newOp = op.clone(mapper);
      newBlock->push_back(newOp);
      cloned.push_back(newOp);
    }
  }
  // Graph regions may use a value before its definition: remap such
  // operands now that every value has its clone.
  for (Operation *op : cloned)
    for (OpOperand &operand : op->getOpOperands())
      if (Value mapped = mapper.lookupOrNull(operand.get()))
        operand.set(mapped);
}

void Region::dropAllReferences() {
  for (Block &block : blocks)
    block.dropAllReferences();
}

bool Region::isAncestor(Region *other) const {
  for (; other; other = other->getParentRegion())
    if (other == this)
      return true;
  return false;
}

Operation *Region::findAncestorOpInRegion(Operation &op) {
  for (Operation *cur = &op; cur; cur = cur->getParentOp())
    if (cur->getParentRegion() == this)
      return cur;
  return nullptr;
}

Block *Region::findAncestorBlockInRegion(Block &block) {
  for (Block *cur = &block; cur;) {
    if (cur->getParent() == this)
      return cur;
    Operation *parentOp = cur->getParentOp();
    cur = parentOp ? parentOp->getBlock() : nullptr;
  }
  return nullptr;
}

} // namespace onyx

//===----------------------------------------------------------------------===//
// Keeping each block's parent region up to date
//===----------------------------------------------------------------------===//

Region *llvm::ilist_traits<Block>::getParentRegion() {
  size_t offset = size_t(
      &(static_cast<Region *>(nullptr)->*Region::getSublistAccess(nullptr)));
  auto *list = static_cast<iplist<Block> *>(this);
  return reinterpret_cast<Region *>(reinterpret_cast<char *>(list) - offset);
}

void llvm::ilist_traits<Block>::deleteNode(Block *block) { delete block; }

void llvm::ilist_traits<Block>::addNodeToList(Block *block) {
  block->parent = getParentRegion();
}

void llvm::ilist_traits<Block>::removeNodeFromList(Block *block) {
  block->parent = nullptr;
}

void llvm::ilist_traits<Block>::transferNodesFromList(ilist_traits<Block> &,
                                                      block_iterator first,
                                                      block_iterator last) {
  Region *region = getParentRegion();
  for (; first != last; ++first)
    first->parent = region;
}

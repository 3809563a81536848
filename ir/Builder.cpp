//===- Builder.cpp - Creating types, attributes and operations ------------===//
#include "ir/Builder.h"

namespace onyx {

IntegerType Builder::getIntegerType(unsigned width, bool isSigned) const {
  return IntegerType::get(
      context, width, isSigned ? IntegerType::Signed : IntegerType::Signless);
}

ArrayAttr Builder::getI64ArrayAttr(ArrayRef<int64_t> values) const {
  SmallVector<Attribute, 8> attrs;
  for (int64_t v : values)
    attrs.push_back(getI64IntegerAttr(v));
  return getArrayAttr(attrs);
}

OpBuilder::Listener::~Listener() = default;

Operation *OpBuilder::insert(Operation *op) {
  if (block)
    block->getOperations().insert(insertPoint, op);
  if (listener)
    listener->notifyOperationInserted(op);
  return op;
}

Block *OpBuilder::createBlock(Region *parent, ArrayRef<Type> argTypes,
                              ArrayRef<Location> argLocs) {
  assert(argLocs.empty() || argLocs.size() == argTypes.size());
  Block *newBlock = parent->emplaceBlock();
  for (unsigned i = 0, e = argTypes.size(); i != e; ++i)
    newBlock->addArgument(argTypes[i],
                          argLocs.empty() ? getUnknownLoc() : argLocs[i]);
  setInsertionPointToEnd(newBlock);
  if (listener)
    listener->notifyBlockInserted(newBlock);
  return newBlock;
}

Operation *OpBuilder::clone(Operation &op, IRMapping &mapper) {
  Operation *newOp = op.clone(mapper);
  if (block)
    block->getOperations().insert(insertPoint, newOp);
  // Nested ops are new too: tell the listener about each, outer first.
  if (listener)
    newOp->walk<WalkOrder::PreOrder>(
        [&](Operation *nested) { listener->notifyOperationInserted(nested); });
  return newOp;
}

} // namespace onyx

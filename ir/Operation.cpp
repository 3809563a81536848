//===- Operation.cpp - The generic operation ------------------------------===//
#include "ir/Operation.h"

#include "ir/Context.h"
#include "ir/Region.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace onyx {

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Operation *detail::OpResultImpl::getOwner() const {
  // Results are laid out right after their operation, in order.
  const OpResultImpl *first = this - index;
  return const_cast<Operation *>(reinterpret_cast<const Operation *>(first) -
                                 1);
}

Operation *Value::getDefiningOp() const {
  if (auto result = dyn_cast<OpResult>(*this))
    return result.getOwner();
  return nullptr;
}

Block *Value::getParentBlock() const {
  if (Operation *op = getDefiningOp())
    return op->getBlock();
  return cast<BlockArgument>(*this).getOwner();
}

Region *Value::getParentRegion() const {
  Block *block = getParentBlock();
  return block ? block->getParent() : nullptr;
}

Location Value::getLoc() const {
  if (Operation *op = getDefiningOp())
    return op->getLoc();
  return cast<BlockArgument>(*this).getLoc();
}

void Value::replaceAllUsesWith(Value newValue) const {
  while (impl->firstUse)
    impl->firstUse->set(newValue);
}

void Value::replaceUsesWithIf(
    Value newValue, llvm::function_ref<bool(OpOperand &)> shouldReplace) {
  for (OpOperand &use : llvm::make_early_inc_range(getUses()))
    if (shouldReplace(use))
      use.set(newValue);
}

void Value::replaceAllUsesExcept(Value newValue,
                                 Operation *exceptedUser) const {
  for (OpOperand &use : llvm::make_early_inc_range(getUses()))
    if (use.getOwner() != exceptedUser)
      use.set(newValue);
}

void Value::dropAllUses() const {
  while (impl->firstUse)
    impl->firstUse->drop();
}

unsigned OpOperand::getOperandNumber() const {
  return this - owner->getOpOperands().data();
}

ValueRange::ValueRange(OperandRange values)
    : RangeBaseT(values.getBase(), values.size()) {}
ValueRange::ValueRange(ResultRange values)
    : RangeBaseT(values.getBase(), values.size()) {}

ValueRange::OwnerT ValueRange::offset_base(const OwnerT &owner,
                                           ptrdiff_t index) {
  if (auto *values = llvm::dyn_cast_if_present<const Value *>(owner))
    return values + index;
  if (auto *operands = llvm::dyn_cast_if_present<OpOperand *>(owner))
    return operands + index;
  return llvm::cast<detail::OpResultImpl *>(owner) + index;
}

Value ValueRange::dereference_iterator(const OwnerT &owner, ptrdiff_t index) {
  if (auto *values = llvm::dyn_cast_if_present<const Value *>(owner))
    return values[index];
  if (auto *operands = llvm::dyn_cast_if_present<OpOperand *>(owner))
    return operands[index].get();
  return Value(llvm::cast<detail::OpResultImpl *>(owner) + index);
}

//===----------------------------------------------------------------------===//
// OperationState
//===----------------------------------------------------------------------===//

OperationState::OperationState(Location loc, StringRef name)
    : location(loc), name(name, loc.getContext()) {}
OperationState::OperationState(Location loc, OperationName name)
    : location(loc), name(name) {}
OperationState::~OperationState() = default;
OperationState::OperationState(OperationState &&) = default;

void OperationState::addAttribute(StringRef attrName, Attribute attr) {
  attributes.push_back({StringAttr::get(getContext(), attrName), attr});
}

Region *OperationState::addRegion() {
  regions.push_back(std::make_unique<Region>());
  return regions.back().get();
}

void OperationState::addRegion(std::unique_ptr<Region> &&region) {
  regions.push_back(std::move(region));
}

//===----------------------------------------------------------------------===//
// Creation and destruction
//===----------------------------------------------------------------------===//

Operation::Operation(Location loc, OperationName name, unsigned numResults,
                     unsigned numOperands, unsigned numRegions,
                     DictionaryAttr attrs)
    : name(name), location(loc), attrs(attrs), operands(nullptr),
      numOperands(numOperands), operandCapacity(numOperands),
      numResults(numResults), numRegions(numRegions) {}

OpOperand *Operation::getInlineOperands() const {
  return reinterpret_cast<OpOperand *>(getRegionsPtr() + numRegions);
}

Operation *Operation::create(Location loc, OperationName name,
                             ArrayRef<Type> resultTypes, ValueRange operands,
                             DictionaryAttr attributes, unsigned numRegions) {
  size_t size =
      sizeof(Operation) + resultTypes.size() * sizeof(detail::OpResultImpl) +
      numRegions * sizeof(Region) + operands.size() * sizeof(OpOperand);
  void *mem = std::malloc(size);
  if (!attributes)
    attributes = DictionaryAttr::getSorted(loc.getContext(), {});
  auto *op = new (mem) Operation(loc, name, resultTypes.size(), operands.size(),
                                 numRegions, attributes);
  for (unsigned i = 0, e = resultTypes.size(); i != e; ++i) {
    auto *result = new (op->getResultImpl(i)) detail::OpResultImpl();
    result->type = resultTypes[i];
    result->index = i;
    result->isBlockArgument = false;
  }
  for (unsigned i = 0; i != numRegions; ++i)
    new (op->getRegionsPtr() + i) Region(op);
  op->operands = op->getInlineOperands();
  for (unsigned i = 0, e = operands.size(); i != e; ++i)
    new (op->operands + i) OpOperand(op, operands[i]);
  return op;
}

Operation *Operation::create(OperationState &state) {
  Operation *op =
      create(state.location, state.name, state.types, state.operands,
             DictionaryAttr::get(state.getContext(), state.attributes),
             state.regions.size());
  for (unsigned i = 0, e = state.regions.size(); i != e; ++i)
    if (state.regions[i])
      op->getRegion(i).takeBody(*state.regions[i]);
  return op;
}

Operation::~Operation() {
  for (unsigned i = 0; i != numOperands; ++i)
    operands[i].~OpOperand();
  if (operands != getInlineOperands())
    std::free(operands);
  for (Region &region : getRegions())
    region.~Region();
  for (unsigned i = 0; i != numResults; ++i) {
    assert(getResultImpl(i)->firstUse == nullptr &&
           "erasing an operation whose results still have uses");
    getResultImpl(i)->~OpResultImpl();
  }
}

void Operation::destroy() {
  this->~Operation();
  std::free(this);
}

void Operation::erase() {
  if (block)
    block->getOperations().erase(this);
  else
    destroy();
}

void Operation::remove() {
  if (block)
    block->getOperations().remove(this);
}

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

Region *Operation::getParentRegion() const {
  return block ? block->getParent() : nullptr;
}

Operation *Operation::getParentOp() const {
  return block ? block->getParentOp() : nullptr;
}

bool Operation::isProperAncestor(Operation *other) const {
  while ((other = other->getParentOp()))
    if (other == this)
      return true;
  return false;
}

void Operation::setOperands(ValueRange values) {
  for (unsigned i = 0; i != numOperands; ++i)
    operands[i].~OpOperand();
  if (values.size() > operandCapacity) {
    if (operands != getInlineOperands())
      std::free(operands);
    operands = static_cast<OpOperand *>(
        std::malloc(values.size() * sizeof(OpOperand)));
    operandCapacity = values.size();
  }
  numOperands = values.size();
  for (unsigned i = 0; i != numOperands; ++i)
    new (operands + i) OpOperand(this, values[i]);
}

void Operation::insertOperands(unsigned index, ValueRange values) {
  SmallVector<Value, 8> all(getOperands().begin(), getOperands().end());
  all.insert(all.begin() + index, values.begin(), values.end());
  setOperands(all);
}

void Operation::eraseOperand(unsigned index) {
  SmallVector<Value, 8> all(getOperands().begin(), getOperands().end());
  all.erase(all.begin() + index);
  setOperands(all);
}

bool Operation::use_empty() const {
  return llvm::all_of(getResults(), [](OpResult r) { return r.use_empty(); });
}

void Operation::replaceAllUsesWith(ValueRange values) {
  assert(values.size() == numResults && "wrong number of replacement values");
  for (unsigned i = 0; i != numResults; ++i)
    getResult(i).replaceAllUsesWith(values[i]);
}

SmallVector<Operation *> Operation::getUsers() const {
  SmallVector<Operation *> users;
  for (OpResult result : getResults())
    for (OpOperand &use : result.getUses())
      users.push_back(use.getOwner());
  return users;
}

void Operation::setAttrs(ArrayRef<NamedAttribute> newAttrs) {
  attrs = DictionaryAttr::get(getContext(), newAttrs);
}

void Operation::setAttr(StringRef attrName, Attribute value) {
  setAttr(StringAttr::get(getContext(), attrName), value);
}

void Operation::setAttr(StringAttr attrName, Attribute value) {
  SmallVector<NamedAttribute, 8> list(attrs.begin(), attrs.end());
  auto it = llvm::partition_point(list, [&](const NamedAttribute &a) {
    return a.getName() < attrName.getValue();
  });
  if (it != list.end() && it->name == attrName)
    it->value = value;
  else
    list.insert(it, {attrName, value});
  attrs = DictionaryAttr::getSorted(getContext(), list);
}

Attribute Operation::removeAttr(StringRef attrName) {
  SmallVector<NamedAttribute, 8> list;
  Attribute removed;
  for (const NamedAttribute &a : attrs) {
    if (a.getName() == attrName)
      removed = a.value;
    else
      list.push_back(a);
  }
  if (removed)
    attrs = DictionaryAttr::getSorted(getContext(), list);
  return removed;
}

//===----------------------------------------------------------------------===//
// Order within a block
//===----------------------------------------------------------------------===//

/// Gap between the order indices of neighbouring ops, so that an op
/// inserted between two others usually gets a free index.
static constexpr unsigned kOrderStride = 8;

/// Gives `op` an order index between its neighbours' without renumbering
/// the block, if there is room.
static bool tryAssignOrderIndex(Operation *op) {
  Operation *prev = op->getPrevNode();
  Operation *next = op->getNextNode();
  unsigned invalid = Operation::kInvalidOrderIndex;
  unsigned lo = prev ? prev->orderIndex : 0;
  if (prev && lo == invalid)
    return false;
  if (!next) {
    if (uint64_t(lo) + kOrderStride >= invalid)
      return false;
    op->orderIndex = lo + kOrderStride;
    return true;
  }
  unsigned hi = next->orderIndex;
  if (hi == invalid || hi - lo < 2 || (prev && hi <= lo))
    return false;
  op->orderIndex = lo + (hi - lo) / 2;
  return true;
}

bool Operation::isBeforeInBlock(Operation *other) {
  assert(block && block == other->block && "ops must be in the same block");
  if (!block->isOpOrderValid()) {
    block->recomputeOpOrder();
  } else {
    if (orderIndex == kInvalidOrderIndex && !tryAssignOrderIndex(this))
      block->recomputeOpOrder();
    if (other->orderIndex == kInvalidOrderIndex && !tryAssignOrderIndex(other))
      block->recomputeOpOrder();
  }
  return orderIndex < other->orderIndex;
}

void Operation::moveBefore(Operation *existingOp) {
  moveBefore(existingOp->getBlock(), Block::iterator(existingOp));
}

void Operation::moveAfter(Operation *existingOp) {
  moveBefore(existingOp->getBlock(), ++Block::iterator(existingOp));
}

void Operation::moveBefore(Block *dest, llvm::iplist<Operation>::iterator pos) {
  dest->getOperations().splice(pos, block->getOperations(),
                               Block::iterator(this));
}

//===----------------------------------------------------------------------===//
// Walking and cloning
//===----------------------------------------------------------------------===//

WalkResult
Operation::walkImpl(WalkOrder order,
                    llvm::function_ref<WalkResult(Operation *)> callback) {
  if (order == WalkOrder::PreOrder) {
    WalkResult result = callback(this);
    if (result.wasInterrupted())
      return result;
    if (result.wasSkipped())
      return WalkResult::advance();
  }
  for (Region &region : getRegions())
    for (Block &b : region)
      for (Operation &op : llvm::make_early_inc_range(b))
        if (op.walkImpl(order, callback).wasInterrupted())
          return WalkResult::interrupt();
  if (order == WalkOrder::PostOrder)
    return callback(this);
  return WalkResult::advance();
}

Operation *Operation::cloneWithoutRegions(IRMapping &mapper) {
  SmallVector<Value, 8> newOperands;
  for (Value v : getOperands())
    newOperands.push_back(mapper.lookupOrDefault(v));
  SmallVector<Type, 4> types(getResultTypes().begin(), getResultTypes().end());
  Operation *newOp =
      create(location, name, types, newOperands, attrs, numRegions);
  for (unsigned i = 0; i != numResults; ++i)
    mapper.map(getResult(i), newOp->getResult(i));
  return newOp;
}

Operation *Operation::clone(IRMapping &mapper) {
  Operation *newOp = cloneWithoutRegions(mapper);
  for (unsigned i = 0; i != numRegions; ++i)
    getRegion(i).cloneInto(&newOp->getRegion(i), newOp->getRegion(i).end(),
                           mapper);
  return newOp;
}

Operation *Operation::clone() {
  IRMapping mapper;
  return clone(mapper);
}

void Operation::dropAllReferences() {
  for (OpOperand &operand : getOpOperands())
    operand.drop();
  for (Region &region : getRegions())
    region.dropAllReferences();
}

void Operation::dropAllUses() {
  for (OpResult result : getResults())
    result.dropAllUses();
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

/// `diag` with `message` written into it.
static InFlightDiagnostic withMessage(InFlightDiagnostic diag,
                                      const llvm::Twine &message) {
  diag << message;
  return diag;
}

InFlightDiagnostic Operation::emitError(const llvm::Twine &message) {
  return withMessage(onyx::emitError(location), message);
}

InFlightDiagnostic Operation::emitOpError(const llvm::Twine &message) {
  return withMessage(onyx::emitError(location),
                     "'" + name.getStringRef() + "' op " + message);
}

InFlightDiagnostic Operation::emitWarning(const llvm::Twine &message) {
  return withMessage(onyx::emitWarning(location), message);
}

InFlightDiagnostic Operation::emitRemark(const llvm::Twine &message) {
  return withMessage(onyx::emitRemark(location), message);
}

} // namespace onyx

//===- Operation.h - The generic operation ----------------------*- C++ -*-===//
//
// An Operation is a name, operands, results, an attribute dictionary,
// regions and a location. It is allocated in one piece: the object, then
// its results, its regions and its operands, so small ops cost one
// allocation. Typed op classes (OpDefinition.h) are thin views of it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostics.h"
#include "ir/OperationSupport.h"

#include "llvm/ADT/ilist.h"
#include "llvm/ADT/ilist_node.h"

namespace onyx {
class Operation;
} // namespace onyx

// Keeps each op's parent block pointer right as ops move between blocks.
namespace llvm {
template <> struct ilist_traits<onyx::Operation> {
  using op_iterator = simple_ilist<onyx::Operation>::iterator;
  static void deleteNode(onyx::Operation *op);
  void addNodeToList(onyx::Operation *op);
  void removeNodeFromList(onyx::Operation *op);
  void transferNodesFromList(ilist_traits<onyx::Operation> &otherList,
                             op_iterator first, op_iterator last);

private:
  onyx::Block *getContainingBlock();
};
} // namespace llvm

namespace onyx {

class OpPrintingFlags;

enum class WalkOrder { PreOrder, PostOrder };

/// What a walk callback may return to steer the walk.
class WalkResult {
public:
  enum Kind { Advance, Skip, Interrupt };
  WalkResult(Kind kind = Advance) : kind(kind) {}
  static WalkResult advance() { return Advance; }
  static WalkResult skip() { return Skip; }
  static WalkResult interrupt() { return Interrupt; }
  bool wasInterrupted() const { return kind == Interrupt; }
  bool wasSkipped() const { return kind == Skip; }

private:
  Kind kind;
};

class alignas(8) Operation final
    : public llvm::ilist_node_with_parent<Operation, Block> {
public:
  static Operation *create(Location loc, OperationName name,
                           ArrayRef<Type> resultTypes, ValueRange operands,
                           DictionaryAttr attributes, unsigned numRegions);
  /// Creates the op and moves the state's regions into it.
  static Operation *create(OperationState &state);

  /// Unlinks the op from its block (if any) and frees it. Its results must
  /// have no uses left.
  void erase();
  /// Unlinks the op from its block without freeing it.
  void remove();
  /// Frees an op that is in no block.
  void destroy();

  OperationName getName() const { return name; }
  OpInfo *getInfo() const { return name.getInfo(); }
  bool isRegistered() const { return name.isRegistered(); }
  Dialect *getDialect() const { return name.getInfo()->getDialect(); }
  bool hasTrait(OpTrait trait) const { return name.hasTrait(trait); }
  Context *getContext() const { return location.getContext(); }

  Location getLoc() const { return location; }
  void setLoc(Location loc) { location = loc; }

  Block *getBlock() const { return block; }
  /// The same as getBlock(), under the name LLVM's intrusive lists use.
  Block *getParent() const { return block; }
  Region *getParentRegion() const;
  Operation *getParentOp() const;
  template <typename OpT> OpT getParentOfType() const {
    for (Operation *op = getParentOp(); op; op = op->getParentOp())
      if (auto typed = llvm::dyn_cast<OpT>(op))
        return typed;
    return OpT();
  }
  /// Whether this op contains `other` in one of its regions (transitively).
  bool isProperAncestor(Operation *other) const;
  bool isAncestor(Operation *other) const {
    return this == other || isProperAncestor(other);
  }

  // Operands.
  unsigned getNumOperands() const { return numOperands; }
  Value getOperand(unsigned i) const { return operands[i].get(); }
  void setOperand(unsigned i, Value value) { operands[i].set(value); }
  OperandRange getOperands() const { return {operands, numOperands}; }
  MutableArrayRef<OpOperand> getOpOperands() { return {operands, numOperands}; }
  OpOperand &getOpOperand(unsigned i) { return operands[i]; }
  /// Replaces all operands, growing or shrinking the operand list.
  void setOperands(ValueRange values);
  void insertOperands(unsigned index, ValueRange values);
  void eraseOperand(unsigned index);

  // Results.
  unsigned getNumResults() const { return numResults; }
  OpResult getResult(unsigned i) const { return OpResult(getResultImpl(i)); }
  ResultRange getResults() const { return {getResultImpl(0), numResults}; }
  auto getResultTypes() const { return getResults().getTypes(); }
  bool use_empty() const;
  /// Makes every use of result i use values[i] instead.
  void replaceAllUsesWith(ValueRange values);
  void replaceAllUsesWith(Operation *op) {
    replaceAllUsesWith(op->getResults());
  }
  /// All operations that use any of the results, once per use.
  SmallVector<Operation *> getUsers() const;

  // Attributes.
  DictionaryAttr getAttrDictionary() const { return attrs; }
  void setAttrs(DictionaryAttr newAttrs) { attrs = newAttrs; }
  void setAttrs(ArrayRef<NamedAttribute> newAttrs);
  ArrayRef<NamedAttribute> getAttrs() const { return attrs.getValue(); }
  Attribute getAttr(StringRef attrName) const { return attrs.get(attrName); }
  template <typename AttrT> AttrT getAttrOfType(StringRef attrName) const {
    return llvm::dyn_cast_or_null<AttrT>(getAttr(attrName));
  }
  bool hasAttr(StringRef attrName) const { return bool(getAttr(attrName)); }
  void setAttr(StringRef attrName, Attribute value);
  void setAttr(StringAttr attrName, Attribute value);
  /// Returns the removed value, or null if there was none.
  Attribute removeAttr(StringRef attrName);

  // Regions.
  unsigned getNumRegions() const { return numRegions; }
  Region &getRegion(unsigned i);
  MutableArrayRef<Region> getRegions();

  // Position in the block.
  /// Whether this op comes before `other` in their common block.
  bool isBeforeInBlock(Operation *other);
  void moveBefore(Operation *existingOp);
  void moveAfter(Operation *existingOp);
  void moveBefore(Block *block, llvm::iplist<Operation>::iterator pos);

  // Traversal: a callback of type void(Operation *) or WalkResult(Operation *)
  // on this op and every nested op. Post-order by default, as in MLIR.
  template <WalkOrder Order = WalkOrder::PostOrder, typename FnT>
  auto walk(FnT &&callback) {
    using RetT = decltype(callback(std::declval<Operation *>()));
    if constexpr (std::is_same_v<RetT, void>) {
      walkImpl(Order, [&](Operation *op) {
        callback(op);
        return WalkResult::advance();
      });
    } else {
      return walkImpl(Order, callback);
    }
  }
  /// Walks only the ops of type OpT.
  template <typename OpT, WalkOrder Order = WalkOrder::PostOrder, typename FnT>
  void walkOps(FnT &&callback) {
    walk<Order>([&](Operation *op) {
      if (auto typed = llvm::dyn_cast<OpT>(op))
        callback(typed);
    });
  }

  // Cloning. Operands that are not in `mapper` are kept as they are.
  Operation *clone(IRMapping &mapper);
  Operation *clone();
  Operation *cloneWithoutRegions(IRMapping &mapper);

  /// Drops every operand of this op and of nested ops, so that a group of
  /// ops referring to each other can be erased in any order.
  void dropAllReferences();
  /// Drops all uses of this op's results.
  void dropAllUses();

  // Diagnostics at this op's location.
  InFlightDiagnostic emitError(const llvm::Twine &message = {});
  /// An error prefixed by `'name' op `, as MLIR's verifiers word them.
  InFlightDiagnostic emitOpError(const llvm::Twine &message = {});
  InFlightDiagnostic emitWarning(const llvm::Twine &message = {});
  InFlightDiagnostic emitRemark(const llvm::Twine &message = {});

  void print(llvm::raw_ostream &os) const;
  void print(llvm::raw_ostream &os, const OpPrintingFlags &flags) const;
  void dump() const;

  // Internals used by Block to keep op order.
  static constexpr unsigned kInvalidOrderIndex = ~0u;
  unsigned orderIndex = kInvalidOrderIndex;

private:
  Operation(Location loc, OperationName name, unsigned numResults,
            unsigned numOperands, unsigned numRegions, DictionaryAttr attrs);
  ~Operation();

  detail::OpResultImpl *getResultImpl(unsigned i) const {
    return const_cast<detail::OpResultImpl *>(
               reinterpret_cast<const detail::OpResultImpl *>(this + 1)) +
           i;
  }
  Region *getRegionsPtr() const {
    return reinterpret_cast<Region *>(getResultImpl(numResults));
  }
  OpOperand *getInlineOperands() const;
  WalkResult walkImpl(WalkOrder order,
                      llvm::function_ref<WalkResult(Operation *)> callback);

  friend struct llvm::ilist_traits<Operation>;
  friend class Block;
  void setBlock(Block *b) { block = b; }

  Block *block = nullptr;
  OperationName name;
  Location location;
  DictionaryAttr attrs;
  OpOperand *operands;
  unsigned numOperands;
  /// Operands that fit in the inline storage allocated with the op.
  unsigned operandCapacity;
  unsigned numResults;
  unsigned numRegions;
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Operation &op);

} // namespace onyx

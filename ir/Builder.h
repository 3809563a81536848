//===- Builder.h - Creating types, attributes and operations ----*- C++ -*-===//
//
// Builder is a convenience front to the Context for types and attributes.
// OpBuilder adds an insertion point and creates operations there, telling
// an optional listener (the rewriter's driver) about every insertion.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Context.h"
#include "ir/OpDefinition.h"

namespace onyx {

class Builder {
public:
  explicit Builder(Context *ctx) : context(ctx) {}
  Context *getContext() const { return context; }

  // Types.
  IntegerType getI1Type() const { return getIntegerType(1); }
  IntegerType getI32Type() const { return getIntegerType(32); }
  IntegerType getI64Type() const { return getIntegerType(64); }
  IntegerType getIntegerType(unsigned width, bool isSigned = false) const;
  IndexType getIndexType() const { return IndexType::get(context); }
  FloatType getF16Type() const { return FloatType::getF16(context); }
  FloatType getF32Type() const { return FloatType::getF32(context); }
  FloatType getF64Type() const { return FloatType::getF64(context); }
  NoneType getNoneType() const { return NoneType::get(context); }
  FunctionType getFunctionType(ArrayRef<Type> inputs,
                               ArrayRef<Type> results) const {
    return FunctionType::get(context, inputs, results);
  }

  // Attributes.
  StringAttr getStringAttr(StringRef s) const {
    return StringAttr::get(context, s);
  }
  IntegerAttr getI64IntegerAttr(int64_t v) const {
    return IntegerAttr::get(getI64Type(), v);
  }
  IntegerAttr getI32IntegerAttr(int32_t v) const {
    return IntegerAttr::get(getI32Type(), v);
  }
  IntegerAttr getIndexAttr(int64_t v) const {
    return IntegerAttr::get(getIndexType(), v);
  }
  FloatAttr getF32FloatAttr(float v) const {
    return FloatAttr::get(getF32Type(), v);
  }
  FloatAttr getF64FloatAttr(double v) const {
    return FloatAttr::get(getF64Type(), v);
  }
  BoolAttr getBoolAttr(bool v) const { return BoolAttr::get(context, v); }
  UnitAttr getUnitAttr() const { return UnitAttr::get(context); }
  TypeAttr getTypeAttr(Type t) const { return TypeAttr::get(t); }
  ArrayAttr getArrayAttr(ArrayRef<Attribute> v) const {
    return ArrayAttr::get(context, v);
  }
  ArrayAttr getI64ArrayAttr(ArrayRef<int64_t> v) const;
  DictionaryAttr getDictionaryAttr(ArrayRef<NamedAttribute> v) const {
    return DictionaryAttr::get(context, v);
  }
  NamedAttribute getNamedAttr(StringRef name, Attribute value) const {
    return {getStringAttr(name), value};
  }
  Location getUnknownLoc() const { return UnknownLoc::get(context); }
  Location getFileLineColLoc(StringRef file, unsigned line,
                             unsigned col) const {
    return FileLineColLoc::get(context, file, line, col);
  }

protected:
  Context *context;
};

class OpBuilder : public Builder {
public:
  /// Hears about ops and blocks the builder creates.
  struct Listener {
    virtual ~Listener();
    virtual void notifyOperationInserted(Operation *) {}
    virtual void notifyBlockInserted(Block *) {}
  };

  explicit OpBuilder(Context *ctx, Listener *listener = nullptr)
      : Builder(ctx), listener(listener) {}

  // Insertion point.
  void setInsertionPoint(Block *b, Block::iterator it) {
    block = b;
    insertPoint = it;
  }
  void setInsertionPoint(Operation *op) {
    setInsertionPoint(op->getBlock(), Block::iterator(op));
  }
  void setInsertionPointAfter(Operation *op) {
    setInsertionPoint(op->getBlock(), ++Block::iterator(op));
  }
  void setInsertionPointToStart(Block *b) { setInsertionPoint(b, b->begin()); }
  void setInsertionPointToEnd(Block *b) { setInsertionPoint(b, b->end()); }
  void clearInsertionPoint() { block = nullptr; }
  Block *getInsertionBlock() const { return block; }
  Block::iterator getInsertionPoint() const { return insertPoint; }

  /// Saves the insertion point and restores it when destroyed.
  class InsertionGuard {
  public:
    explicit InsertionGuard(OpBuilder &b)
        : builder(b), block(b.block), point(b.insertPoint) {}
    ~InsertionGuard() { builder.setInsertionPoint(block, point); }

  private:
    OpBuilder &builder;
    Block *block;
    Block::iterator point;
  };

  Listener *getListener() const { return listener; }
  void setListener(Listener *l) { listener = l; }

  /// Inserts `op` at the insertion point (if any) and notifies the listener.
  Operation *insert(Operation *op);
  Operation *create(OperationState &state) {
    return insert(Operation::create(state));
  }
  /// Creates an op of class OpT through its `build` method.
  template <typename OpT, typename... Args>
  OpT create(Location loc, Args &&...args) {
    OperationState state(loc, OperationName(OpT::getOperationName(), context));
    OpT::build(*this, state, std::forward<Args>(args)...);
    return llvm::cast<OpT>(create(state));
  }
  /// Appends a block to `parent` with the given arguments and moves the
  /// insertion point to its end.
  Block *createBlock(Region *parent, ArrayRef<Type> argTypes = {},
                     ArrayRef<Location> argLocs = {});
  /// Clones `op` at the insertion point.
  Operation *clone(Operation &op, IRMapping &mapper);
  Operation *clone(Operation &op) {
    IRMapping mapper;
    return clone(op, mapper);
  }

protected:
  Listener *listener;
  Block *block = nullptr;
  Block::iterator insertPoint;
};

} // namespace onyx

//===- OperationSupport.h - Op registry records, ranges, state --*- C++ -*-===//
//
// OpInfo is the one record per operation name: its dialect, traits and the
// hooks (verify, fold, canonicalization patterns, custom syntax) that the
// dialect registered. OperationState gathers what creating an op needs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Value.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>

namespace onyx {

class OpAsmParser;
class OpAsmPrinter;
class OperationState;
class PatternSet;

/// Properties of an op kind that generic code (verifier, folding, CSE, DCE)
/// relies on.
enum class OpTrait : uint32_t {
  None = 0,
  /// No side effects: dead ones may be erased, equal ones merged.
  Pure = 1u << 0,
  Commutative = 1u << 1,
  /// Its result is a constant held in its `value` attribute.
  ConstantLike = 1u << 2,
  /// Must be the last op of its block.
  Terminator = 1u << 3,
  /// Its regions do not use values defined outside them.
  IsolatedFromAbove = 1u << 4,
  /// Its region holds symbols whose names must be unique.
  SymbolTable = 1u << 5,
  /// Defines a symbol through its `sym_name` attribute.
  Symbol = 1u << 6,
  /// Its blocks need no terminator.
  NoTerminator = 1u << 7,
  /// Each of its regions has at most one block.
  SingleBlock = 1u << 8,
  /// Returns control (and values) to its parent op.
  ReturnLike = 1u << 9,
};
constexpr OpTrait operator|(OpTrait a, OpTrait b) {
  return OpTrait(uint32_t(a) | uint32_t(b));
}

/// What a fold produced for one result: an existing value or a constant.
struct OpFoldResult {
  OpFoldResult() = default;
  OpFoldResult(Value v) : value(v) {}
  OpFoldResult(Attribute a) : attr(a) {}
  Value value;
  Attribute attr;
};

class OpInfo {
public:
  using VerifyFn = LogicalResult (*)(Operation *);
  using FoldFn = LogicalResult (*)(Operation *, ArrayRef<Attribute>,
                                   SmallVectorImpl<OpFoldResult> &);
  using CanonicalizeFn = void (*)(PatternSet &, Context *);
  using PrintFn = void (*)(Operation *, OpAsmPrinter &);
  using ParseFn = ParseResult (*)(OpAsmParser &, OperationState &);

  OpInfo(StringRef name, Dialect *dialect, bool registered)
      : name(name), dialect(dialect), registered(registered) {}

  StringRef getName() const { return name; }
  StringRef getDialectNamespace() const { return name.split('.').first; }
  /// The dialect that registered the op; nullptr when unregistered.
  Dialect *getDialect() const { return dialect; }
  bool isRegistered() const { return registered; }
  bool hasTrait(OpTrait trait) const { return (traits & uint32_t(trait)) != 0; }

  uint32_t traits = 0;
  /// Identifies the C++ op class, for isa<OpT>.
  const void *typeID = nullptr;
  VerifyFn verify = nullptr;
  /// Verification that needs the regions verified first.
  VerifyFn verifyRegions = nullptr;
  FoldFn fold = nullptr;
  CanonicalizeFn getCanonicalizationPatterns = nullptr;
  /// Custom assembly form; ops without one print generically.
  PrintFn print = nullptr;
  ParseFn parse = nullptr;
  /// Names of attributes that MLIR prints as properties (`<{...}>`) in the
  /// generic form, for compatibility with MLIR's output.
  ArrayRef<StringRef> propertyNames;
  /// The dialect whose prefix may be omitted from op names in this op's
  /// regions (`return` for `func.return` inside func.func), as in MLIR.
  StringRef defaultDialect;

private:
  friend class Dialect;
  StringRef name;
  Dialect *dialect;
  bool registered;
};

/// A handle to an op's name and registry record.
class OperationName {
public:
  OperationName(OpInfo *info = nullptr) : info(info) {}
  OperationName(StringRef name, Context *ctx);
  StringRef getStringRef() const { return info->getName(); }
  StringRef getDialectNamespace() const { return info->getDialectNamespace(); }
  bool isRegistered() const { return info->isRegistered(); }
  bool hasTrait(OpTrait trait) const { return info->hasTrait(trait); }
  OpInfo *getInfo() const { return info; }
  bool operator==(OperationName o) const { return info == o.info; }
  bool operator!=(OperationName o) const { return info != o.info; }

private:
  OpInfo *info;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     OperationName name) {
  return os << name.getStringRef();
}

//===----------------------------------------------------------------------===//
// Ranges of values
//===----------------------------------------------------------------------===//

/// The operands of an operation, as Values.
class OperandRange final : public llvm::detail::indexed_accessor_range_base<
                               OperandRange, OpOperand *, Value, Value, Value> {
public:
  using RangeBaseT::RangeBaseT;
  OperandRange() : RangeBaseT(nullptr, 0) {}
  auto getTypes() const {
    return llvm::map_range(*this, [](Value v) { return v.getType(); });
  }

private:
  friend RangeBaseT;
  static OpOperand *offset_base(OpOperand *base, ptrdiff_t index) {
    return base + index;
  }
  static Value dereference_iterator(OpOperand *base, ptrdiff_t index) {
    return base[index].get();
  }
};

/// The results of an operation.
class ResultRange final
    : public llvm::detail::indexed_accessor_range_base<
          ResultRange, detail::OpResultImpl *, OpResult, OpResult, OpResult> {
public:
  using RangeBaseT::RangeBaseT;
  ResultRange() : RangeBaseT(nullptr, 0) {}
  auto getTypes() const {
    return llvm::map_range(*this, [](Value v) { return v.getType(); });
  }

private:
  friend RangeBaseT;
  static detail::OpResultImpl *offset_base(detail::OpResultImpl *base,
                                           ptrdiff_t index) {
    return base + index;
  }
  static OpResult dereference_iterator(detail::OpResultImpl *base,
                                       ptrdiff_t index) {
    return OpResult(base + index);
  }
};

/// Any contiguous list of values: an ArrayRef<Value>, operands or results.
class ValueRange final : public llvm::detail::indexed_accessor_range_base<
                             ValueRange,
                             llvm::PointerUnion<const Value *, OpOperand *,
                                                detail::OpResultImpl *>,
                             Value, Value, Value> {
public:
  using OwnerT =
      llvm::PointerUnion<const Value *, OpOperand *, detail::OpResultImpl *>;
  using RangeBaseT::RangeBaseT;

  ValueRange() : RangeBaseT(OwnerT(), 0) {}
  ValueRange(const Value &value) : RangeBaseT(&value, 1) {}
  ValueRange(ArrayRef<Value> values)
      : RangeBaseT(values.data(), values.size()) {}
  ValueRange(const SmallVectorImpl<Value> &values)
      : ValueRange(ArrayRef<Value>(values)) {}
  ValueRange(std::initializer_list<Value> values)
      : ValueRange(ArrayRef<Value>(values)) {}
  ValueRange(OperandRange values);
  ValueRange(ResultRange values);

  auto getTypes() const {
    return llvm::map_range(*this, [](Value v) { return v.getType(); });
  }

private:
  friend RangeBaseT;
  static OwnerT offset_base(const OwnerT &owner, ptrdiff_t index);
  static Value dereference_iterator(const OwnerT &owner, ptrdiff_t index);
};

/// Everything needed to create an operation.
class OperationState {
public:
  OperationState(Location loc, StringRef name);
  OperationState(Location loc, OperationName name);
  ~OperationState();
  OperationState(OperationState &&);

  Context *getContext() const { return location.getContext(); }
  void addOperands(ValueRange newOperands) {
    operands.append(newOperands.begin(), newOperands.end());
  }
  void addTypes(ArrayRef<Type> newTypes) {
    types.append(newTypes.begin(), newTypes.end());
  }
  void addAttribute(StringRef name, Attribute attr);
  void addAttribute(StringAttr name, Attribute attr) {
    attributes.push_back({name, attr});
  }
  /// Adds an empty region (or takes ownership of `region`'s blocks).
  Region *addRegion();
  void addRegion(std::unique_ptr<Region> &&region);

  Location location;
  OperationName name;
  SmallVector<Value, 4> operands;
  SmallVector<Type, 2> types;
  SmallVector<NamedAttribute, 4> attributes;
  SmallVector<std::unique_ptr<Region>, 1> regions;
};

/// A mapping from values and blocks to others, filled while cloning.
class IRMapping {
public:
  void map(Value from, Value to) { values[from] = to; }
  void map(Block *from, Block *to) { blocks[from] = to; }
  Value lookupOrDefault(Value from) const {
    auto it = values.find(from);
    return it == values.end() ? from : it->second;
  }
  Value lookupOrNull(Value from) const { return values.lookup(from); }
  Block *lookupOrDefault(Block *from) const {
    auto it = blocks.find(from);
    return it == blocks.end() ? from : it->second;
  }
  bool contains(Value from) const { return values.count(from); }

private:
  llvm::DenseMap<Value, Value> values;
  llvm::DenseMap<Block *, Block *> blocks;
};

} // namespace onyx

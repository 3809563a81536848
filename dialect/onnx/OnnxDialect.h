//===- OnnxDialect.h - The onnx dialect and its public API ------*- C++ -*-===//
//
// The onnx dialect: ONNX operators as IR ops, named and printed as onnx-mlir
// writes them (`"onnx.Add"(%a, %b) : (...) -> ...`, `onnx.Constant dense<..>`,
// `onnx.NoValue` for absent optional operands, `onnx.Return`).
//
// Each op has one canonical semantics, the one of the newest ONNX opset
// (the importer maps older versions onto it):
//  - axes, pads, splits, repeats, shapes, clip bounds are operands, never
//    attributes (ReduceX/Squeeze/Unsqueeze `axes`, Split `split`, Pad
//    `pads`, Clip `min`/`max`, Slice `starts`/`ends`/`axes`/`steps`);
//  - Softmax/LogSoftmax normalize along `axis` alone (opset 13);
//  - BatchNormalization and Dropout compute inference mode only;
//  - Cast's `to` is a TypeAttr holding the IR element type (`to = f32`).
// Trailing optional results (Dropout's mask, MaxPool's Indices,
// LayerNormalization's Mean and InvStdDev) may be left out when an op is
// created. Split has as many results as its `split` operand has entries, or
// `num_outputs`.
//
// Tensors are ranked; dimensions are dynamic (`?`) where an input's are or
// where they depend on the values of an operand known only at run time
// (Reshape's shape, Slice's starts, Range's bounds, ...). The rank is always
// known: a shape operand whose length gives the rank must have a static
// length. The importer folds shape computations as it builds ops.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/OpSchema.h"
#include "dialect/onnx/Tensor.h"

#include "ir/Dialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace onyx::onnx {

struct OpDef;

class OnnxDialect : public Dialect {
public:
  explicit OnnxDialect(Context *ctx);
  static StringRef getDialectNamespace() { return "onnx"; }

  /// An onnx.Constant for a DenseElementsAttr, an onnx.NoValue for a unit
  /// attribute of type none.
  Operation *materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                 Location loc) override;

  /// The definition of a registered op; null for other ops.
  const OpDef *lookupDef(OpInfo *info) const { return defs.lookup(info); }

private:
  llvm::DenseMap<OpInfo *, const OpDef *> defs;
};

/// The result types of op `opName` ("onnx.Add") applied to operands of
/// `operandTypes` (NoneType for absent optional operands) with `attrs`.
/// `constantOperands` holds, per operand, its value when it is a constant
/// (a DenseElementsAttr) or null; it may be empty when none is. Returns the
/// types of all results the op can have (callers creating the op may drop
/// trailing optional ones). Reports an error at `loc` naming the op, the
/// operand or attribute and the reason, and fails.
FailureOr<SmallVector<Type>>
inferResultTypes(Context *ctx, StringRef opName, ArrayRef<Type> operandTypes,
                 DictionaryAttr attrs, ArrayRef<Attribute> constantOperands,
                 Location loc);

/// The memory an evaluation may take. Results whose sizes come from values
/// (a shape operand known only at run time: Expand, Tile, ConstantOfShape,
/// Range, Pad, ...) are checked against it before they are allocated.
struct EvalBudget {
  /// Bytes of the tensors already live when the op runs.
  uint64_t liveBytes = 0;
  /// The most bytes live tensors may take (--max-memory).
  uint64_t maxBytes = UINT64_MAX;
};

/// The result types `op`, a supported onnx op, will have when it runs on
/// `inputs` (one per operand, as for evaluate): inference on their shapes
/// and, for inputs of at most kMaxInferredValues elements (shape operands,
/// Range's bounds), their values. Dimensions that only the other inputs'
/// values decide stay dynamic (NonZero's count). Reports an error at the op
/// where the inputs are wrong for it (a result whose size overflows, a
/// negative or mismatched size) and fails.
FailureOr<SmallVector<Type>> inferResultTypesFor(Operation *op,
                                                 ArrayRef<Tensor> inputs);
inline constexpr int64_t kMaxInferredValues = 64;

/// The tensors of values defined outside an op that its regions use (ONNX
/// subgraphs may read any value of an enclosing graph): null for a value
/// the caller does not know.
using CapturedValues = llvm::function_ref<const Tensor *(Value)>;

/// Computes the results of `op`, a supported onnx op, on `inputs` (one per
/// operand; a default-constructed Tensor for an absent optional operand).
/// `outputs` receives one tensor per result of `op`. Reports an error at the
/// op (unsupported element type, index out of range, a size that cannot
/// exist or does not fit `budget`, ...) and fails. An op with regions (If,
/// Loop, Scan) runs them, reading the values they capture from enclosing
/// scopes through `captured`.
LogicalResult evaluate(Operation *op, ArrayRef<Tensor> inputs,
                       SmallVectorImpl<Tensor> &outputs,
                       const EvalBudget &budget = {},
                       CapturedValues captured = {});

/// Creates op `opName` at the builder's insertion point with result types
/// from inferResultTypes (keeping the first `numResults` results, all if
/// zero) and normalized attributes; constant operands are found through
/// their defining onnx.Constant. Null after reporting an error.
Operation *createOp(OpBuilder &builder, Location loc, StringRef opName,
                    ValueRange operands, ArrayRef<NamedAttribute> attrs = {},
                    unsigned numResults = 0);
/// The first result of createOp, for builders that chain many ops and check
/// once at the end: null if an operand is null (an earlier op failed,
/// having reported why) or the op cannot be created (reported).
Value createChained(OpBuilder &builder, Location loc, StringRef opName,
                    ValueRange operands, ArrayRef<NamedAttribute> attrs = {});

/// Makes the uses of each result of `op` use the value at its place in
/// `values` instead, and erases `op`. An op may have left optional results
/// out: `values` may be longer than its results.
void replaceAndErase(Operation *op, ArrayRef<Value> values);

/// The value of `value` if an onnx.Constant defines it; null otherwise.
DenseElementsAttr getConstantValue(Value value);
/// Whether `value` is an absent optional operand (of type none).
bool isNoValue(Value value);

} // namespace onyx::onnx

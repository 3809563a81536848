//===- ReferenceBackend.cpp - onnx functions run on the CPU ---------------===//

#include "dialect/onnx/reference/ReferenceBackend.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/io/SignatureCheck.h"
#include "dialect/onnx/io/TensorLiteral.h"

#include "ir/Block.h"
#include "ir/Operation.h"
#include "ir/Region.h"

#include "llvm/ADT/DenseMap.h"

#include <unistd.h>

using namespace onyx;
using namespace onyx::onnx;

namespace {

/// The live tensors of a run, each dropped once its last user has run so
/// that peak memory is that of the live values, not of all of them.
class ValueTable {
public:
  /// `ownedBytes` is what the tensor allocated (0 for a constant's, which
  /// borrows its attribute's bytes); it counts towards the live bytes.
  void define(Value value, Tensor tensor, uint64_t ownedBytes = 0) {
    unsigned numUses = std::distance(value.use_begin(), value.use_end());
    if (numUses == 0)
      return;
    tensors[value] = std::move(tensor);
    remainingUses[value] = numUses;
    owned[value] = ownedBytes;
    liveBytes += ownedBytes;
  }
  const Tensor &lookup(Value value) const {
    return tensors.find(value)->second;
  }
  /// The tensor of `value` if it is live; null otherwise.
  const Tensor *find(Value value) const {
    auto it = tensors.find(value);
    return it == tensors.end() ? nullptr : &it->second;
  }
  /// Called once per use of `value` after its user ran.
  void release(Value value) {
    if (--remainingUses[value] == 0) {
      tensors.erase(value);
      liveBytes -= owned.lookup(value);
    }
  }
  uint64_t getLiveBytes() const { return liveBytes; }

private:
  llvm::DenseMap<Value, Tensor> tensors;
  llvm::DenseMap<Value, unsigned> remainingUses;
  llvm::DenseMap<Value, uint64_t> owned;
  uint64_t liveBytes = 0;
};

} // namespace

/// Evaluates one op of the onnx dialect into `outputs`.
static LogicalResult evaluateOp(Operation &op, const ValueTable &values,
                                SmallVectorImpl<Tensor> &outputs,
                                const EvalBudget &budget) {
  StringRef name = op.getName().getStringRef();
  if (name == "onnx.NoValue") {
    outputs.push_back(Tensor());
    return success();
  }
  if (name == "onnx.Constant") {
    DenseElementsAttr attr = getConstantValue(op.getResult(0));
    std::optional<Tensor> tensor = attr ? Tensor::fromAttr(attr) : std::nullopt;
    if (!tensor)
      return op.emitOpError("holds a value the reference backend cannot read");
    outputs.push_back(std::move(*tensor));
    return success();
  }
  SmallVector<Tensor> inputs;
  for (Value operand : op.getOperands())
    inputs.push_back(values.lookup(operand));
  // The regions of If, Loop and Scan read values of the function directly.
  auto captured = [&](Value value) { return values.find(value); };
  return evaluate(&op, inputs, outputs, budget, captured);
}

/// Calls `fn` for each use, inside the regions of `op`, of a value defined
/// outside `op` (what its subgraphs capture), once per use.
static void forEachCapturedUse(Operation &op,
                               llvm::function_ref<void(Value)> fn) {
  for (Region &region : op.getRegions())
    region.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *owner = operand.getDefiningOp();
        Block *block =
            owner ? owner->getBlock() : cast<BlockArgument>(operand).getOwner();
        Operation *parent = block ? block->getParentOp() : nullptr;
        bool inside = false;
        for (Operation *p = parent; p; p = p->getParentOp())
          if (p == &op) {
            inside = true;
            break;
          }
        if (!inside)
          fn(operand);
      }
    });
}

/// Whether `type` is a tensor whose size the type alone gives.
static bool hasStaticShape(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return !tensor || tensor.hasStaticShape();
}

uint64_t onyx::onnx::getPhysicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0)
    return UINT64_MAX;
  return uint64_t(pages) * uint64_t(pageSize);
}

/// Checks, before `op` runs, that the results `types` give a static size
/// fit in what is left of the budget; reports the first that does not.
static LogicalResult checkBudget(Operation &op, ArrayRef<Type> types,
                                 uint64_t liveBytes, uint64_t budget) {
  uint64_t needed = liveBytes;
  for (auto [i, resultType] : llvm::enumerate(types)) {
    auto type = dyn_cast<RankedTensorType>(resultType);
    if (!type || !type.hasStaticShape())
      continue;
    // The verifier refused types whose size overflows.
    uint64_t bytes = *getCheckedNumBytes(
        *getCheckedNumElements(type.getShape()), type.getElementType());
    needed += bytes;
    if (needed > budget)
      return op.emitOpError()
             << "result #" << unsigned(i) << " (" << type << ") needs " << bytes
             << " bytes; with " << liveBytes
             << " bytes of tensors live, that exceeds the memory budget of "
             << budget << " bytes (--max-memory)";
  }
  return success();
}

FailureOr<SmallVector<Tensor>>
onyx::onnx::runReference(FuncOp func, ArrayRef<Tensor> inputs,
                         const ReferenceOptions &options) {
  uint64_t budget = options.maxMemory ? options.maxMemory : getPhysicalMemory();
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return func.emitOpError("has no body with one block to run");
  Block &body = func.front();
  ValueTable values;
  for (auto [arg, tensor] : llvm::zip_equal(body.getArguments(), inputs))
    values.define(arg, tensor);

  for (Operation &op : body) {
    if (op.hasTrait(OpTrait::ReturnLike)) {
      SmallVector<Tensor> results;
      for (Value operand : op.getOperands())
        results.push_back(values.lookup(operand));
      return results;
    }
    if (op.getName().getDialectNamespace() != "onnx" || !op.isRegistered())
      return op.emitOpError("cannot run on the reference backend");

    bool isConstant = op.getName().getStringRef() == "onnx.Constant";
    SmallVector<Type> resultTypes(op.getResultTypes());
    // The sizes of If's, Loop's and Scan's results come from running their
    // regions; they are checked after the op, like NonZero's.
    if (!isConstant && op.getNumRegions() == 0 &&
        !llvm::all_of(resultTypes, hasStaticShape)) {
      // Results whose sizes the IR leaves to the run: infer them again
      // from the inputs' shapes and small values, so that a size that
      // cannot exist or cannot fit is reported before the op allocates.
      SmallVector<Tensor> inputs;
      for (Value operand : op.getOperands())
        inputs.push_back(values.lookup(operand));
      FailureOr<SmallVector<Type>> types = inferResultTypesFor(&op, inputs);
      if (failed(types))
        return failure();
      resultTypes.assign(
          types->begin(),
          types->begin() + std::min<size_t>(types->size(), op.getNumResults()));
    }
    if (!isConstant &&
        failed(checkBudget(op, resultTypes, values.getLiveBytes(), budget)))
      return failure();
    SmallVector<Tensor> outputs;
    if (failed(evaluateOp(op, values, outputs,
                          EvalBudget{values.getLiveBytes(), budget})))
      return failure();
    if (outputs.size() != op.getNumResults())
      return op.emitOpError("evaluated to ")
             << unsigned(outputs.size()) << " results instead of "
             << op.getNumResults();
    for (auto [i, result, tensor] : llvm::enumerate(op.getResults(), outputs)) {
      // An absent tensor is what an optional output like onnx.NoValue's is.
      bool fits = isa<NoneType>(result.getType())
                      ? !tensor
                      : tensor && matchesType(tensor, result.getType());
      if (!fits)
        return op.emitOpError("result ")
               << unsigned(i) << " evaluated to "
               << (tensor ? formatShapeAndType(tensor) : "no tensor")
               << " but its type is " << result.getType();
      uint64_t bytes = isConstant || !tensor ? 0 : tensor.getNumBytes();
      // Results with `?` dims were not checked before the op ran; those
      // whose sizes come from values the evaluator checked before
      // allocating, and the others (sizes from the inputs' shapes) are
      // checked here, before the next op runs.
      if (bytes && values.getLiveBytes() + bytes > budget)
        return op.emitOpError()
               << "result #" << unsigned(i) << " ("
               << formatShapeAndType(tensor) << ") needs " << bytes
               << " bytes; with " << values.getLiveBytes()
               << " bytes of tensors live, that exceeds the memory budget of "
               << budget << " bytes (--max-memory)";
      values.define(result, std::move(tensor), bytes);
    }
    for (Value operand : op.getOperands())
      values.release(operand);
    forEachCapturedUse(op, [&](Value value) { values.release(value); });
  }
  return func.emitOpError("has no terminator");
}

//===- FuseElementwise.cpp - onnx-fuse-elementwise ------------------------===//
//
// Grows a tree of elementwise ops backwards from each op that is not fused
// into a later one: an operand's producer joins the tree if it is itself
// elementwise and every use of its result is in the tree (a value used
// elsewhere is computed once, by its own kernel, rather than recomputed).
// Trees of two or more ops become an onnx.FusedElementwise whose body holds
// them; splat constants and Expand's shape are cloned into the body, other
// values become operands - as many as the target lets a kernel bind.
//
// A MatMul, Gemm, Conv or com.microsoft MatMulNBits whose result only the
// tree reads, of the tree's result shape, moves into the body as its first
// op: its kernel computes the product and applies the tree to each element
// as it stores it (an epilogue: bias, activation, residual), saving a
// dispatch and a round trip of the product through memory. Its operands
// count against the bindings too.
//
// Ops on shape values (ShapeValues.h: small integer tensors) are left alone:
// the host program computes them where they are shapes.
//
// A tree grows through an Unsqueeze too (the kernel reads its operand along
// the axes it keeps, where no value is read along two different axes:
// hasConsistentAxes) and reaches down to Ranges, whose elements the kernel
// computes from the output's coordinates. A causal mask built from Ranges
// of the run's lengths, compared, combined with the attention mask and
// turned into an additive bias is then one kernel reading only the
// attention mask, as it is where the lengths are known and the Ranges fold.
//
//===----------------------------------------------------------------------===//

#include "lowering/BlockQuantizedKernels.h"
#include "lowering/ElementwiseKernels.h"
#include "lowering/Passes.h"
#include "lowering/ShapeValues.h"
#include "lowering/TiledGemm.h"

#include "dialect/gpu/Target.h"
#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OnnxDialect.h"

#include "ir/Block.h"
#include "ir/BuiltinOps.h"
#include "ir/Region.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace onyx::lowering {

namespace {

/// Whether `value` is cloned into a fused body rather than bound.
bool isInlined(Value value) {
  if (onnx::isNoValue(value))
    return true;
  DenseElementsAttr constant = onnx::getConstantValue(value);
  return constant && (constant.isSplat() || constant.getNumElements() == 1);
}

class FuseElementwise : public PassWrapper<FuseElementwise> {
public:
  FuseElementwise()
      : PassWrapper("onnx-fuse-elementwise",
                    "Group trees of elementwise and broadcast ops into "
                    "onnx.FusedElementwise ops, each one kernel",
                    "builtin.module") {}
  void runOnOperation() override;

private:
  void fuseBlock(Block &block, unsigned maxBindings);
  PassStatistic numGroups{this, "num-groups", "Fused groups formed"};
  PassStatistic numFused{this, "num-fused-ops", "Ops moved into groups"};
};

/// The values `ops` read from outside, in first-use order, without those
/// cloned into the body.
llvm::SetVector<Value>
collectInputs(const llvm::SmallPtrSetImpl<Operation *> &group,
              ArrayRef<Operation *> ops) {
  llvm::SetVector<Value> inputs;
  for (Operation *op : ops)
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      Operation *def = operand.getDefiningOp();
      if (def && group.count(def))
        continue;
      if (isInlined(operand))
        continue;
      StringRef name = op->getName().getStringRef();
      if ((name == "onnx.Expand" || name == "onnx.Unsqueeze") && i == 1)
        continue;
      inputs.insert(operand);
    }
  return inputs;
}

/// A contraction that the kernel of `group` (a tree rooted at `root`, in
/// block order `ordered`) can compute first and apply the tree to as it
/// stores: only the tree reads its result, which has the shape of the
/// tree's, and the kernel's bindings stay within `maxBindings`. Null if
/// none.
Operation *findContraction(const llvm::SmallPtrSetImpl<Operation *> &group,
                           ArrayRef<Operation *> ordered, Operation *root,
                           unsigned maxBindings) {
  auto shapeOf = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  };
  // Its kernel stores elements without the coordinates a Range needs.
  if (llvm::any_of(ordered, [](Operation *op) {
        return op->getName().getStringRef() == "onnx.Range";
      }))
    return nullptr;
  // The tree's inputs, the contraction's result among them, are bound
  // besides the contraction's own operands and the result.
  unsigned treeInputs = collectInputs(group, ordered).size();
  for (Operation *op : ordered)
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || producer->getBlock() != root->getBlock() ||
          !(isGemmContraction(producer) || isNBitsContraction(producer)) ||
          shapeOf(producer->getResult(0)) != shapeOf(root->getResult(0)))
        continue;
      if (!llvm::all_of(producer->getResult(0).getUsers(),
                        [&](Operation *user) { return group.count(user); }))
        continue;
      if (getNumGemmBindings(producer) + treeInputs - 1 > maxBindings)
        continue;
      return producer;
    }
  return nullptr;
}

void FuseElementwise::fuseBlock(Block &block, unsigned maxBindings) {
  // One binding is the result.
  unsigned maxInputs = maxBindings - 1;
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  llvm::SmallPtrSet<Operation *, 16> done;
  for (Operation *root : llvm::reverse(ops)) {
    if (done.count(root) || !isFusibleElementwise(root) || isShapeOp(root))
      continue;
    llvm::SmallPtrSet<Operation *, 16> group;
    group.insert(root);
    SmallVector<Operation *> worklist{root};
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      // A Range's scalars stay outside: the host program computes them.
      if (op->getName().getStringRef() == "onnx.Range")
        continue;
      for (Value operand : op->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        if (!producer || producer->getBlock() != &block ||
            group.count(producer) || done.count(producer) ||
            !isFusibleIntoTree(producer) || isShapeOp(producer))
          continue;
        if (!llvm::all_of(producer->getResult(0).getUsers(),
                          [&](Operation *user) { return group.count(user); }))
          continue;
        group.insert(producer);
        SmallVector<Operation *> ordered;
        for (Operation *candidate : ops)
          if (group.count(candidate))
            ordered.push_back(candidate);
        if (collectInputs(group, ordered).size() > maxInputs ||
            !hasConsistentAxes(ordered, root->getResult(0))) {
          group.erase(producer);
          continue;
        }
        worklist.push_back(producer);
      }
    }
    for (Operation *op : group)
      done.insert(op);

    SmallVector<Operation *> ordered;
    for (Operation *candidate : ops)
      if (group.count(candidate))
        ordered.push_back(candidate);
    // The contraction comes first in the body (its kernel computes it
    // before the tree); its operands are arguments like the tree's inputs.
    if (Operation *contraction =
            findContraction(group, ordered, root, maxBindings)) {
      group.insert(contraction);
      done.insert(contraction);
      ordered.insert(ordered.begin(), contraction);
    }
    if (group.size() < 2)
      continue;
    llvm::SetVector<Value> inputs = collectInputs(group, ordered);

    OpBuilder builder(root->getContext());
    builder.setInsertionPoint(root);
    // With a contraction, the group names both it and the tree's root (as
    // onyx-run --profile shows).
    Location loc = root->getLoc();
    if (isGemmContraction(ordered.front()) ||
        isNBitsContraction(ordered.front()))
      loc = FusedLoc::get(root->getContext(), {ordered.front()->getLoc(), loc});
    OperationState state(loc, onnx::kFusedElementwiseName);
    state.addOperands(inputs.getArrayRef());
    state.addTypes({root->getResult(0).getType()});
    state.addRegion();
    Operation *fused = builder.create(state);
    Block *body = fused->getRegion(0).emplaceBlock();
    IRMapping mapping;
    for (Value input : inputs)
      mapping.map(input, body->addArgument(input.getType(), root->getLoc()));

    OpBuilder inner(root->getContext());
    inner.setInsertionPointToEnd(body);
    for (Operation *op : ordered)
      for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
        if (mapping.contains(operand))
          continue;
        Operation *def = operand.getDefiningOp();
        if (def && !group.count(def))
          mapping.map(operand, inner.clone(*def, mapping)->getResult(0));
      }
    for (Operation *op : ordered)
      inner.clone(*op, mapping);
    OperationState yield(root->getLoc(), onnx::kYieldName);
    yield.addOperands({mapping.lookupOrNull(root->getResult(0))});
    inner.create(yield);

    root->getResult(0).replaceAllUsesWith(fused->getResult(0));
    for (Operation *op : llvm::reverse(ordered))
      op->erase();
    ++numGroups;
    numFused += ordered.size();
  }
}

void FuseElementwise::runOnOperation() {
  FailureOr<gpu::TargetDesc> target =
      gpu::TargetDesc::lookup(getOperation(), /*report=*/true);
  if (onyx::failed(target))
    return signalPassFailure();
  for (FuncOp func : getDefinedFunctions(cast<ModuleOp>(getOperation())))
    fuseBlock(func.front(), target->maxPerStageDescriptorStorageBuffers);
}

} // namespace

std::unique_ptr<Pass> createFuseElementwisePass() {
  return std::make_unique<FuseElementwise>();
}

} // namespace onyx::lowering

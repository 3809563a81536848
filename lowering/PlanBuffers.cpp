//===- PlanBuffers.cpp - gpu-plan-buffers ---------------------------------===//
//
// Places every gpu.alloc of static shape of a function in one arena buffer,
// by liveness and first fit (dialect/gpu/AllocPlanning.h). Allocs with `?`
// dimensions, or with views of run-time offset or size, stay: the runtime
// places them for the dims of each run, as it does every tensor of a
// function with a gpu.loop. The dialect's verifier checks the
// result again (no two live views overlap).
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialect/gpu/AllocPlanning.h"
#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/Target.h"

#include "ir/Block.h"
#include "ir/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"

namespace onyx::lowering {

namespace {

class PlanBuffers : public PassWrapper<PlanBuffers> {
public:
  PlanBuffers()
      : PassWrapper(
            "gpu-plan-buffers",
            "Place gpu.alloc tensors in one arena by liveness (first fit)",
            "builtin.module") {}
  void runOnOperation() override;

private:
  void planFunction(FuncOp func, uint64_t alignment);
  PassStatistic arenaBytes{this, "arena-bytes", "Bytes of arena buffers"};
  PassStatistic tensorBytes{this, "tensor-bytes",
                            "Bytes of the tensors placed in them"};
};

/// Whether `value` or a view of it has a size or offset known only at run
/// time.
static bool hasDynamicView(Value value) {
  for (Operation *user : value.getUsers()) {
    auto view = dyn_cast<gpu::ViewOp>(user);
    if (!view || view.getSource() != value)
      continue;
    if (!view.hasStaticOffset() || !view.getType().hasStaticShape() ||
        hasDynamicView(view->getResult(0)))
      return true;
  }
  return false;
}

void PlanBuffers::planFunction(FuncOp func, uint64_t alignment) {
  Block &entry = func.front();
  // A function with a gpu.loop is placed by the runtime, with each loop's
  // body recorded once per iteration (runtime/LoopRecording.h): the
  // tensors used in the body are live through every iteration, which a
  // placement of the function's order would not see.
  if (llvm::any_of(entry, [](Operation &op) { return isa<gpu::LoopOp>(&op); }))
    return;
  // Tensors whose size or layout a run's dims decide stay gpu.allocs: the
  // runtime places them with the same algorithm for each set of dims.
  SmallVector<gpu::AllocLiveness> tensors;
  for (gpu::AllocLiveness &t : gpu::analyzeAllocs(entry))
    if (t.alloc.getType().hasStaticShape() &&
        !hasDynamicView(t.alloc->getResult(0)))
      tensors.push_back(t);
  if (tensors.empty())
    return;
  SmallVector<uint64_t> sizes, offsets;
  uint64_t total = 0;
  for (gpu::AllocLiveness &t : tensors) {
    sizes.push_back(t.alloc.getType().getSizeInBytes());
    total += sizes.back();
  }
  uint64_t arenaSize = gpu::placeFirstFit(tensors, sizes, alignment, offsets);

  OpBuilder builder(func->getContext());
  builder.setInsertionPointToStart(&entry);
  auto arena = builder.create<gpu::BufferOp>(
      func->getLoc(), gpu::BufferKind::Arena, std::max<uint64_t>(arenaSize, 1));
  for (auto [t, offset] : llvm::zip(tensors, offsets)) {
    builder.setInsertionPoint(t.alloc.getOperation());
    auto view = builder.create<gpu::ViewOp>(
        t.alloc->getLoc(), arena->getResult(0), offset, t.alloc.getType());
    t.alloc->getResult(0).replaceAllUsesWith(view->getResult(0));
    t.alloc->erase();
  }
  arenaBytes += arenaSize;
  tensorBytes += total;
}

void PlanBuffers::runOnOperation() {
  FailureOr<gpu::TargetDesc> target =
      gpu::TargetDesc::lookup(getOperation(), /*report=*/true);
  if (onyx::failed(target))
    return signalPassFailure();
  for (FuncOp func : getDefinedFunctions(cast<ModuleOp>(getOperation())))
    planFunction(func, target->minStorageBufferOffsetAlignment);
}

} // namespace

std::unique_ptr<Pass> createPlanBuffersPass() {
  return std::make_unique<PlanBuffers>();
}

} // namespace onyx::lowering

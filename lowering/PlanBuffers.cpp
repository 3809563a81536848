//===- PlanBuffers.cpp - gpu-plan-buffers ---------------------------------===//
//
// Places every gpu.alloc of a function in one arena buffer. A tensor is
// live from the first to the last op that uses it (directly or through a
// view aliasing it), in the function's order, which is the order the
// device runs. Tensors are placed in order of their first use, each at the
// lowest aligned offset that no tensor live at the same time occupies
// (first fit), so memory of dead tensors is reused. The dialect's verifier
// checks the result again (no two live views overlap).
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/Target.h"

#include "ir/Block.h"
#include "ir/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"

namespace onyx::lowering {

namespace {

struct Tensor {
  gpu::AllocOp alloc;
  uint64_t size = 0;
  unsigned first = 0, last = 0;
  uint64_t offset = 0;
};

class PlanBuffers : public Pass {
public:
  PlanBuffers() : Pass("builtin.module") {}
  StringRef getArgument() const override { return "gpu-plan-buffers"; }
  StringRef getDescription() const override {
    return "Place gpu.alloc tensors in one arena by liveness (first fit)";
  }
  std::unique_ptr<Pass> clone() const override {
    return std::make_unique<PlanBuffers>();
  }
  void runOnOperation() override;

private:
  void planFunction(FuncOp func, uint64_t alignment);
  PassStatistic arenaBytes{this, "arena-bytes", "Bytes of arena buffers"};
  PassStatistic tensorBytes{this, "tensor-bytes",
                            "Bytes of the tensors placed in them"};
};

/// Extends [first, last] over the uses of `value` and of views of it.
void extendOverUses(Value value,
                    const llvm::DenseMap<Operation *, unsigned> &order,
                    Tensor &t) {
  for (Operation *user : value.getUsers()) {
    if (auto view = dyn_cast<gpu::ViewOp>(user)) {
      extendOverUses(view->getResult(0), order, t);
      continue;
    }
    unsigned index = order.lookup(user);
    t.first = std::min(t.first, index);
    t.last = std::max(t.last, index);
  }
}

void PlanBuffers::planFunction(FuncOp func, uint64_t alignment) {
  Block &entry = func.front();
  llvm::DenseMap<Operation *, unsigned> order;
  SmallVector<Tensor> tensors;
  unsigned index = 0;
  for (Operation &op : entry) {
    order[&op] = index++;
    if (auto alloc = dyn_cast<gpu::AllocOp>(&op))
      tensors.push_back({alloc, 0, 0, 0, 0});
  }
  if (tensors.empty())
    return;
  SmallVector<Tensor *> placed;
  uint64_t arenaSize = 0, total = 0;
  for (Tensor &t : tensors) {
    t.first = ~0u;
    t.last = 0;
    extendOverUses(t.alloc->getResult(0), order, t);
    if (t.first == ~0u) // Unused: nothing to place.
      t.first = t.last = order.lookup(t.alloc.getOperation());
    t.size = (t.alloc.getType().getSizeInBytes() + alignment - 1) / alignment *
             alignment;
    total += t.alloc.getType().getSizeInBytes();
  }
  SmallVector<Tensor *> byStart;
  for (Tensor &t : tensors)
    byStart.push_back(&t);
  llvm::stable_sort(byStart, [](Tensor *a, Tensor *b) {
    return a->first != b->first ? a->first < b->first : a->size > b->size;
  });
  for (Tensor *t : byStart) {
    // Ranges taken by tensors live at the same time, by offset.
    SmallVector<std::pair<uint64_t, uint64_t>> taken;
    for (Tensor *other : placed)
      if (other->first <= t->last && t->first <= other->last)
        taken.push_back({other->offset, other->offset + other->size});
    llvm::sort(taken);
    uint64_t offset = 0;
    for (auto [begin, end] : taken) {
      if (offset + t->size <= begin)
        break;
      offset = std::max(offset, end);
    }
    t->offset = offset;
    arenaSize = std::max(arenaSize, offset + t->size);
    placed.push_back(t);
  }

  OpBuilder builder(func->getContext());
  builder.setInsertionPointToStart(&entry);
  auto arena = builder.create<gpu::BufferOp>(
      func->getLoc(), gpu::BufferKind::Arena, std::max<uint64_t>(arenaSize, 1));
  for (Tensor &t : tensors) {
    builder.setInsertionPoint(t.alloc.getOperation());
    auto view = builder.create<gpu::ViewOp>(
        t.alloc->getLoc(), arena->getResult(0), t.offset, t.alloc.getType());
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
  SmallVector<FuncOp> funcs;
  for (Operation &op : *cast<ModuleOp>(getOperation()).getBody())
    if (auto func = dyn_cast<FuncOp>(&op); func && !func.isExternal())
      funcs.push_back(func);
  for (FuncOp func : funcs)
    planFunction(func, target->minStorageBufferOffsetAlignment);
}

} // namespace

std::unique_ptr<Pass> createPlanBuffersPass() {
  return std::make_unique<PlanBuffers>();
}

} // namespace onyx::lowering

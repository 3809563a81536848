//===- BufferLiveness.cpp - Allocations in a buffer and their lifetimes ---===//
#include "dialect/gpu/BufferLiveness.h"

namespace onyx::gpu {

FailureOr<BufferLiveness> BufferLiveness::analyze(BufferOp buffer) {
  BufferLiveness result;
  Block *block = buffer->getBlock();
  if (!block)
    return result;
  llvm::DenseMap<Operation *, unsigned> positions;
  for (Operation &op : *block) {
    positions[&op] = result.order.size();
    result.order.push_back(&op);
  }
  bool isWeights = result.isWeights = buffer.getKind() == BufferKind::Weights;
  unsigned last = result.order.size() - 1;

  for (Operation *user : buffer->getUsers()) {
    bool placesAllocation = isWeights ? isa<WeightOp>(user) : isa<ViewOp>(user);
    std::optional<MemoryRange> range;
    if (placesAllocation && user->getNumResults() == 1)
      range = getMemoryRange(user->getResult(0));
    if (!range)
      continue;
    Allocation alloc{user, range->offset, range->size, std::nullopt};
    if (isWeights)
      alloc.live = {0, last};

    // Every non-view user of the allocation or of a view aliasing it.
    SmallVector<Value> worklist = {user->getResult(0)};
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (Operation *use : value.getUsers()) {
        // A use in a gpu.loop's body is a use of the loop: the memory is
        // live through every iteration.
        Operation *at = use;
        while (at && at->getBlock() != block)
          at = at->getParentOp();
        if (!at)
          return use->emitOpError()
                 << "uses memory of a gpu.buffer defined in another block";
        if (at != use) {
          unsigned pos = positions.lookup(at);
          if (!alloc.live)
            alloc.live = {pos, pos};
          alloc.live->first = std::min(alloc.live->first, pos);
          alloc.live->second = std::max(alloc.live->second, pos);
          if (isa<ViewOp>(use) && use->getNumResults() == 1)
            worklist.push_back(use->getResult(0));
          continue;
        }
        if (isa<ViewOp>(use)) {
          if (use->getNumResults() == 1)
            worklist.push_back(use->getResult(0));
          continue;
        }
        unsigned pos = positions.lookup(use);
        if (!alloc.live)
          alloc.live = {pos, pos};
        alloc.live->first = std::min(alloc.live->first, pos);
        alloc.live->second = std::max(alloc.live->second, pos);
      }
    }
    result.allocations.push_back(alloc);
  }
  return result;
}

LogicalResult BufferLiveness::verifyNoLiveOverlap() const {
  SmallVector<const Allocation *> byStart;
  for (const Allocation &a : allocations)
    if (a.live && a.size)
      byStart.push_back(&a);
  llvm::stable_sort(byStart, [](const Allocation *a, const Allocation *b) {
    return a->live->first < b->live->first;
  });
  // Sweep in order of first use, keeping the allocations still live.
  SmallVector<const Allocation *> active;
  for (const Allocation *a : byStart) {
    llvm::erase_if(active, [&](const Allocation *b) {
      return b->live->second < a->live->first;
    });
    for (const Allocation *b : active) {
      if (a->offset >= b->offset + b->size || b->offset >= a->offset + a->size)
        continue;
      StringRef what = isWeights ? "weights" : "arena";
      InFlightDiagnostic diag =
          a->op->emitOpError()
          << "bytes [" << a->offset << ", " << a->offset + a->size
          << ") of the " << what << " overlap bytes [" << b->offset << ", "
          << b->offset + b->size << ") of an allocation live at the same time";
      diag.attachNote(b->op->getLoc()) << "the other allocation";
      diag.attachNote(getOpAt(a->live->first)->getLoc())
          << "both are live here";
      return failure();
    }
    active.push_back(a);
  }
  return success();
}

} // namespace onyx::gpu

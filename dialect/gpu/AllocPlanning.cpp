//===- AllocPlanning.cpp - Placing gpu.alloc tensors by liveness ----------===//
#include "dialect/gpu/AllocPlanning.h"

#include "ir/Block.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

namespace onyx::gpu {

/// Extends [first, last] over the uses of `value` and of views of it.
static void extendOverUses(Value value,
                           const llvm::DenseMap<Operation *, unsigned> &order,
                           AllocLiveness &t) {
  for (Operation *user : value.getUsers()) {
    if (auto view = dyn_cast<ViewOp>(user); view && view.getSource() == value) {
      extendOverUses(view->getResult(0), order, t);
      continue;
    }
    unsigned index = order.lookup(user);
    t.first = std::min(t.first, index);
    t.last = std::max(t.last, index);
  }
}

SmallVector<AllocLiveness> analyzeAllocs(Block &block) {
  llvm::DenseMap<Operation *, unsigned> order;
  SmallVector<AllocLiveness> allocs;
  for (Operation &op : block) {
    order[&op] = order.size();
    // A state's memory is the runtime's, outside the arena.
    if (auto alloc = dyn_cast<AllocOp>(&op); alloc && !alloc.getStateArgument())
      allocs.push_back({alloc, 0, 0});
  }
  for (AllocLiveness &t : allocs) {
    t.first = ~0u;
    t.last = 0;
    extendOverUses(t.alloc->getResult(0), order, t);
    if (t.first == ~0u) // Unused: live only where it is made.
      t.first = t.last = order.lookup(t.alloc.getOperation());
  }
  return allocs;
}

uint64_t placeFirstFit(ArrayRef<AllocLiveness> allocs, ArrayRef<uint64_t> sizes,
                       uint64_t alignment, SmallVectorImpl<uint64_t> &offsets) {
  offsets.assign(allocs.size(), 0);
  SmallVector<unsigned> byStart;
  SmallVector<uint64_t> aligned;
  for (unsigned i = 0; i < allocs.size(); ++i) {
    byStart.push_back(i);
    aligned.push_back(llvm::alignTo(sizes[i], alignment));
  }
  llvm::stable_sort(byStart, [&](unsigned a, unsigned b) {
    return allocs[a].first != allocs[b].first
               ? allocs[a].first < allocs[b].first
               : aligned[a] > aligned[b];
  });
  // Tensors placed and still live at the current start: one that ends
  // before a start ends before every later one, so it leaves for good
  // (linear in the tensors times those live at once, not quadratic).
  SmallVector<unsigned> live;
  SmallVector<std::pair<uint64_t, uint64_t>> taken;
  uint64_t arenaSize = 0;
  for (unsigned t : byStart) {
    llvm::erase_if(live, [&](unsigned other) {
      return allocs[other].last < allocs[t].first;
    });
    // Ranges taken by tensors live at the same time, by offset.
    taken.clear();
    for (unsigned other : live)
      if (allocs[t].first <= allocs[other].last)
        taken.push_back({offsets[other], offsets[other] + aligned[other]});
    llvm::sort(taken);
    uint64_t offset = 0;
    for (auto [begin, end] : taken) {
      if (offset + aligned[t] <= begin)
        break;
      offset = std::max(offset, end);
    }
    offsets[t] = offset;
    arenaSize = std::max(arenaSize, offset + aligned[t]);
    live.push_back(t);
  }
  return arenaSize;
}

} // namespace onyx::gpu

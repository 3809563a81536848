//===- BufferLiveness.h - Allocations and their lifetimes -------*- C++ -*-===//
//
// An allocation is a gpu.view placed directly on an arena, or a gpu.weight
// placed on a weights buffer; views of views are aliases of the allocation
// they come from. An allocation is live from the first to the last op (in
// the order of the buffer's block, which is the dispatch order) that uses it
// or one of its aliases (a use in a gpu.loop's body is a use of the loop);
// weights are live throughout. Buffer planning must
// never give two allocations that are live at the same time overlapping
// bytes; gpu.buffer's verifier checks that with this analysis.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/GpuOps.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <utility>

namespace onyx::gpu {

struct Allocation {
  /// The gpu.view or gpu.weight that places it.
  Operation *op = nullptr;
  uint64_t offset = 0;
  uint64_t size = 0;
  /// Positions in the block of the first and the last op using it; none if
  /// nothing uses it.
  std::optional<std::pair<unsigned, unsigned>> live;
};

class BufferLiveness {
public:
  /// Collects the allocations of `buffer`. Reports uses outside the buffer's
  /// block and allocations whose placement is malformed (the latter quietly:
  /// their own verifiers report them).
  static FailureOr<BufferLiveness> analyze(BufferOp buffer);

  ArrayRef<Allocation> getAllocations() const { return allocations; }
  /// The op at `position` of the buffer's block.
  Operation *getOpAt(unsigned position) const { return order[position]; }

  /// Reports the first two allocations that overlap while both are live.
  LogicalResult verifyNoLiveOverlap() const;

private:
  bool isWeights = false;
  SmallVector<Operation *> order;
  SmallVector<Allocation> allocations;
};

} // namespace onyx::gpu

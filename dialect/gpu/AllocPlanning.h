//===- AllocPlanning.h - Placing gpu.alloc tensors by liveness --*- C++ -*-===//
//
// One algorithm places tensors in an arena, whether the compiler does it
// (gpu-plan-buffers, for tensors of static shape) or the runtime (for the
// tensors whose sizes a run's dims decide): a tensor is live from the first
// to the last op that uses it, directly or through a view aliasing it, in
// the order of the function's block; tensors are placed by first use, each
// at the lowest aligned offset that no tensor live at the same time
// occupies (first fit), so memory of dead tensors is reused.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/GpuOps.h"

namespace onyx::gpu {

/// A gpu.alloc and the positions, in its block, of its first and last use.
struct AllocLiveness {
  AllocOp alloc;
  unsigned first = 0, last = 0;
};

/// The allocs of `block` in order, with their live ranges.
SmallVector<AllocLiveness> analyzeAllocs(Block &block);

/// Offsets for tensors of `sizes` bytes (one per entry of `allocs`), each a
/// multiple of `alignment`; returns the arena's size.
uint64_t placeFirstFit(ArrayRef<AllocLiveness> allocs, ArrayRef<uint64_t> sizes,
                       uint64_t alignment, SmallVectorImpl<uint64_t> &offsets);

} // namespace onyx::gpu

//===- HazardTracker.h - Where a command stream needs barriers --*- C++ -*-===//
//
// Commands recorded into one command buffer may overlap on the device unless
// a barrier separates them. A barrier is needed only before a command that
// reads bytes an earlier command wrote (read-after-write), or writes bytes
// an earlier command read or wrote (write-after-read, write-after-write),
// where the earlier command comes after the last barrier. Everything else
// runs back to back (a barrier costs microseconds on a GPU; a dispatch
// without one, a fraction of that).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Support.h"

#include <cstdint>

namespace onyx::runtime {

/// Bytes [begin, end) of buffer number `buffer` that a command reads or
/// writes.
struct MemoryAccess {
  unsigned buffer = 0;
  uint64_t begin = 0, end = 0;
  bool write = false;

  bool overlaps(const MemoryAccess &o) const {
    return buffer == o.buffer && begin < o.end && o.begin < end;
  }
};

class HazardTracker {
public:
  /// Records a command's accesses; returns whether a barrier (making all
  /// earlier writes available and visible) must precede it.
  bool addCommand(ArrayRef<MemoryAccess> accesses);
  /// A barrier recorded for another reason orders everything before it.
  void addBarrier() { pending.clear(); }

private:
  /// Accesses since the last barrier.
  SmallVector<MemoryAccess> pending;
};

} // namespace onyx::runtime

//===- HazardTracker.cpp - Where a command stream needs barriers ----------===//
#include "runtime/HazardTracker.h"

namespace onyx::runtime {

bool HazardTracker::addCommand(ArrayRef<MemoryAccess> accesses) {
  bool hazard = llvm::any_of(accesses, [&](const MemoryAccess &next) {
    return llvm::any_of(pending, [&](const MemoryAccess &earlier) {
      return (earlier.write || next.write) && earlier.overlaps(next);
    });
  });
  if (hazard)
    pending.clear();
  pending.append(accesses.begin(), accesses.end());
  return hazard;
}

} // namespace onyx::runtime

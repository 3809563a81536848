//===- Recording.h - What a run needs for one set of shapes -----*- C++ -*-===//
//
// Private to the runtime: the state of one recording of an Executable (see
// Executable.h), and the host-side work that makes it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Executable.h"
#include "runtime/HazardTracker.h"

#include <chrono>
#include <ctime>

namespace onyx::runtime {

/// Adds the microseconds from its creation to its destruction to `total`,
/// a time of ExecutableCounters.
class ScopedMicroseconds {
public:
  explicit ScopedMicroseconds(double &total)
      : total(total), start(std::chrono::steady_clock::now()) {}
  ~ScopedMicroseconds() {
    total += std::chrono::duration<double, std::micro>(
                 std::chrono::steady_clock::now() - start)
                 .count();
  }
  ScopedMicroseconds(const ScopedMicroseconds &) = delete;
  ScopedMicroseconds &operator=(const ScopedMicroseconds &) = delete;

private:
  double &total;
  std::chrono::steady_clock::time_point start;
};

/// A barrier between any compute or transfer work and any later one: all
/// barriers the runtime records between commands are of this one kind, so
/// that everything before a barrier is ordered before everything after it.
void recordFullBarrier(const VulkanApi &api, VkCommandBuffer commands);

/// Whether a dispatch's grid does nothing.
inline bool isEmptyGrid(std::array<uint64_t, 3> grid) {
  return grid[0] == 0 || grid[1] == 0 || grid[2] == 0;
}

/// The CPU time the calling thread has used, in microseconds.
inline double getThreadCpuMicroseconds() {
  timespec now;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now))
    return 0;
  return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

/// A staging slot of an argument or a downloaded result.
struct Slot {
  uint64_t offset = 0, size = 0;
};

/// The values of a function's host ops for one recording, in the slots the
/// Executable numbered them with at load (HostProgram).
struct HostValues {
  const llvm::DenseMap<Value, unsigned> *slots = nullptr;
  std::vector<int64_t> data;

  /// 0 for a value that no host op defines.
  int64_t lookup(Value value) const {
    auto found = slots->find(value);
    return found == slots->end() ? 0 : data[found->second];
  }
};

/// Where each memory value (buffer, weight, alloc, view) of one recording
/// is, by the number the Executable gave it at load (memoryNumbers): a
/// recording starts from a copy of the places every recording shares (the
/// weights, fixed buffers and static views) and fills in the rest.
struct MemoryMap {
  const llvm::DenseMap<Value, unsigned> *numbers = nullptr;
  std::vector<MemoryAccess> places;

  /// An empty access for a value that has no number.
  MemoryAccess lookup(Value value) const {
    auto found = numbers->find(value);
    return found == numbers->end() ? MemoryAccess() : places[found->second];
  }
  const MemoryAccess &operator[](unsigned number) const {
    return places[number];
  }
  MemoryAccess &operator[](unsigned number) { return places[number]; }
  MemoryAccess &operator[](Value value) {
    return places[numbers->find(value)->second];
  }
};

struct Executable::Recording {
  /// The segment whose commands it holds (Executable::readCounts); its host
  /// values and places cover that segment and those before it.
  unsigned level = 0;
  /// Values of the host ops.
  HostValues values;
  /// Whether each dispatch (in order) runs: its grid is not empty.
  std::vector<bool> dispatched;
  /// Where each view (and weight) is, and its shape, for these dims.
  MemoryMap memory;
  llvm::DenseMap<Value, SmallVector<int64_t, 4>> shapes;
  /// Staging slots by argument number and by gpu.download.
  llvm::DenseMap<unsigned, Slot> inputSlots;
  llvm::DenseMap<Operation *, Slot> outputSlots;
  uint64_t inputBytes = 0, outputBytes = 0;
  /// Arguments read from and results kept in a state (index into the
  /// Executable's states); results of which only the last bytes are
  /// downloaded.
  llvm::DenseMap<unsigned, unsigned> argumentStates, resultStates;
  llvm::DenseMap<unsigned, uint64_t> lastElements;
  /// Results kept in a state that are downloaded too, and results not
  /// downloaded at all (RunOptions).
  SmallVector<unsigned, 2> downloadedStates, discarded;
  /// The staging set (Executable::inputStaging) its commands copy through,
  /// and the half of the query pool its timestamps go to.
  unsigned stagingSet = 0;
  /// The result number of each gpu.download.
  llvm::DenseMap<Operation *, unsigned> resultNumbers;
  /// One set per dispatch; null for a dispatch of an empty grid. Each is
  /// shared (Executable::SharedSet): `sharedSet` is its index among its
  /// dispatch's, -1 for none.
  std::vector<VkDescriptorSet> descriptorSets;
  std::vector<int> sharedSet;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  RecordingStats stats;
  /// When a run or prepare() last asked for it.
  uint64_t lastUse = 0;
};

/// The values of the host ops that read arguments, for `inputs`; nullopt
/// with the reason in `error` where the run cannot have one.
std::optional<int64_t> evaluateExtract(gpu::ExtractOp op,
                                       ArrayRef<HostTensorRef> inputs,
                                       std::string &error);
std::optional<int64_t> evaluateScaleDim(gpu::ScaleDimOp op, int64_t size,
                                        ArrayRef<HostTensorRef> inputs,
                                        std::string &error);
std::optional<int64_t> evaluateRangeCount(gpu::RangeCountOp op,
                                          ArrayRef<HostTensorRef> inputs,
                                          std::string &error);

/// The key of a run: argument shapes, then the argument values host ops
/// read (gpu.extract, gpu.scale_dim, gpu.range_count), then where arguments
/// and results come from and go (`options`).
std::vector<int64_t> getRecordingKey(ArrayRef<Operation *> readers,
                                     ArrayRef<HostTensorRef> inputs,
                                     const RunOptions &options);

} // namespace onyx::runtime

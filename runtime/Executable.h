//===- Executable.h - A gpu-dialect function loaded on a device -*- C++ -*-===//
//
// Loading validates the module for the device, creates the kernels'
// pipelines and the function's buffers, and uploads the weights, once.
// A *recording* is what a run needs for one set of argument shapes (and
// values of the arguments the host ops read): the values of the host ops
// (HostOps.h), the places of the gpu.allocs the compiler left to the runtime,
// descriptor sets and one command buffer that runs the whole function (input
// copies, dispatches with barriers only where a dependency needs one, output
// copies). Recordings are cached by that key, so a run at a shape seen
// before only copies the inputs in, re-submits and reads the outputs, and a
// run at a new shape creates no pipeline. A function without dynamic dims
// is recorded when it is loaded.
//
// The module must outlive the Executable.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/GpuOps.h"
#include "runtime/Device.h"
#include "runtime/KernelPipeline.h"

#include "ir/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <vector>

namespace onyx::runtime {

/// A tensor in host memory: row-major little-endian elements, as
/// DenseElementsAttr stores them (i1 takes a byte).
struct HostTensor {
  RankedTensorType type;
  std::vector<char> data;
};

/// A view of a host tensor's bytes, so that callers holding them elsewhere
/// (a NumPy array) feed a run without copying them first.
struct HostTensorRef {
  RankedTensorType type;
  ArrayRef<char> data;
};

struct LoadOptions {
  /// The function to run; empty for the only one, or else @main.
  std::string function;
  /// Time each dispatch with device timestamps.
  bool profile = false;
  /// The most bytes the module's buffers (arena and weights) may take
  /// together, checked before anything is allocated; 0 for the device's
  /// device-local heap size.
  uint64_t maxMemory = 0;
};

/// A result that a run may leave in device memory the Executable keeps, for
/// an argument of a later run: a decoder's present key/value cache is the
/// next step's past, and never goes through host memory.
struct StateBinding {
  unsigned result = 0;
  unsigned argument = 0;
};

/// What a run takes from and leaves in device memory instead of host
/// memory. By default every argument is copied in from the host and every
/// result out to it.
struct RunOptions {
  /// Arguments read from their state: what the last run that kept the bound
  /// result on the device left there. Their inputs give the shape and no
  /// data; the state must hold exactly the bytes of that shape.
  SmallVector<unsigned> argumentsFromState;
  /// Results kept in their state instead of downloaded; they come back with
  /// their shape and no data.
  SmallVector<unsigned> resultsToState;
  /// {result, N}: only the last N elements of the result are downloaded (a
  /// decoder's last-position logits); it comes back as a 1-D tensor of N.
  SmallVector<std::pair<unsigned, uint64_t>> lastElements;
};

struct DispatchTiming {
  gpu::DispatchOp op;
  double microseconds = 0;
  /// Whether the run dispatched it (its grid was not empty at the run's
  /// dims).
  bool ran = true;
};

/// What the last run's recorded command buffer holds.
struct RecordingStats {
  unsigned dispatches = 0;
  /// Dispatch commands: more than dispatches when grids are split.
  unsigned dispatchCalls = 0;
  unsigned copies = 0;
  /// Barriers between commands (not counting the one at the start and the
  /// one that makes outputs visible to the host).
  unsigned barriers = 0;
  /// Bytes of the tensors the runtime placed for this recording's dims
  /// (gpu.allocs with run-time sizes), and of the memory they took.
  uint64_t runtimeTensorBytes = 0, runtimeArenaBytes = 0;
};

/// What the Executable created over its life.
struct ExecutableCounters {
  /// Pipelines created (all at load time).
  unsigned pipelinesCreated = 0;
  /// Recordings made (one per distinct key of a run, while cached).
  unsigned recordings = 0;
  /// Runs that found their recording in the cache.
  unsigned recordingHits = 0;
  /// Microseconds spent making recordings (host ops, placement, descriptor
  /// sets, command recording), in total and for the last one made.
  double recordMicroseconds = 0, lastRecordMicroseconds = 0;
};

class Executable {
public:
  static FailureOr<std::unique_ptr<Executable>>
  load(const Device &device, ModuleOp module, const LoadOptions &options = {});
  ~Executable();
  Executable(const Executable &) = delete;
  Executable &operator=(const Executable &) = delete;

  FuncOp getFunction() const { return func; }
  /// Runs the function on `inputs` (one per argument, of the argument's
  /// type; a `?` dimension takes any size); reports mismatches at the
  /// function's location and run-time errors (a size that overflows or does
  /// not fit its source, a push constant out of its type's range) at the op.
  FailureOr<std::vector<HostTensor>> run(ArrayRef<HostTensor> inputs);
  /// The same from views; each input is copied once, into staging memory.
  /// `options` may keep results on the device for later runs.
  FailureOr<std::vector<HostTensor>> runViews(ArrayRef<HostTensorRef> inputs,
                                              const RunOptions &options = {});

  /// Declares which results may stay on the device for which arguments
  /// (RunOptions); each pair must have the same element type and rank. The
  /// states start empty.
  LogicalResult setStateBindings(ArrayRef<StateBinding> bindings);
  /// The bytes a state holds now, by binding number.
  uint64_t getStateBytes(unsigned binding) const {
    return states[binding].bytes;
  }

  /// The recording of the last run (or, before any, of the load).
  const RecordingStats &getStats() const;
  const ExecutableCounters &getCounters() const { return counters; }
  /// Dispatch times of the last run, in dispatch order; empty unless loaded
  /// with `profile` on a device with timestamps.
  ArrayRef<DispatchTiming> getProfile() const { return profile; }
  /// Microseconds from the start of the first dispatch to the end of the
  /// last in the last profiled run: the device's time for the function's
  /// work, barriers and gaps between dispatches included (input and output
  /// copies not); 0 without a profile.
  double getProfileSpan() const { return profileSpan; }

private:
  struct Recording;
  Executable(const Device &device, FuncOp func);
  LogicalResult createBuffers();
  LogicalResult uploadWeights();
  LogicalResult createPipelines();
  LogicalResult createProfiler(bool profile);
  /// The recording for `inputs` and `options`, from the cache or made now.
  FailureOr<Recording *> getRecording(ArrayRef<HostTensorRef> inputs,
                                      const RunOptions &options = {});
  /// Which state each argument and result of `options` uses, checked.
  LogicalResult resolveStates(Recording &r, const RunOptions &options);
  /// Makes state `index`'s buffer at least `size` bytes, keeping what it
  /// holds.
  LogicalResult ensureStateSize(unsigned index, uint64_t size);
  LogicalResult evaluateHostOps(Recording &r, ArrayRef<HostTensorRef> inputs);
  LogicalResult placeMemory(Recording &r);
  LogicalResult createDescriptorSets(Recording &r);
  LogicalResult record(Recording &r);
  /// Makes `buffer` at least `size` bytes; growing it drops every cached
  /// recording, since their commands name the old buffer.
  LogicalResult ensureSize(std::unique_ptr<Buffer> &buffer, uint64_t size,
                           MemoryKind kind);
  void dropRecordings();
  LogicalResult readProfile();

  const Device &device;
  FuncOp func;
  /// The function's gpu.buffer ops, by number, and their device buffers;
  /// the last buffer is the one the runtime places gpu.allocs in.
  llvm::DenseMap<Operation *, unsigned> bufferIndex;
  std::vector<std::unique_ptr<Buffer>> buffers;
  unsigned runtimeArena = 0;
  llvm::DenseMap<Operation *, std::unique_ptr<KernelPipeline>> pipelines;
  std::vector<gpu::DispatchOp> dispatches;

  /// Device memory kept between runs: one per StateBinding, each an index
  /// into `buffers`, with the bytes the last run that wrote it left.
  struct State {
    StateBinding binding;
    unsigned buffer = 0;
    uint64_t bytes = 0;
  };
  std::vector<State> states;

  /// Host-visible memory the inputs and outputs go through.
  std::unique_ptr<Buffer> inputStaging, outputStaging;

  /// Recordings by key (argument shapes, then the argument values the host
  /// ops read).
  std::map<std::vector<int64_t>, std::unique_ptr<Recording>> recordings;
  Recording *last = nullptr;

  VkQueryPool queryPool = VK_NULL_HANDLE;
  ExecutableCounters counters;
  std::vector<DispatchTiming> profile;
  double profileSpan = 0;
};

} // namespace onyx::runtime

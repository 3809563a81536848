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
#include "dialect/gpu/HostOps.h"
#include "runtime/Device.h"
#include "runtime/HazardTracker.h"
#include "runtime/KernelPipeline.h"

#include "dialect/gpu/AllocPlanning.h"

#include "ir/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace onyx::runtime {

class LoopRuns;

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
  /// The most recordings kept at once; the least recently used one goes
  /// when a new one would pass this (at least 2: the one a run uses and the
  /// one prepared for the next).
  unsigned maxRecordings = 8;
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
  /// Results kept in their state and downloaded as well: a decoder's next
  /// tokens, picked on the device, which the next step reads from the state
  /// and the host prints.
  SmallVector<unsigned> resultsToStateAndHost;
  /// Results neither downloaded nor kept: they come back with their shape
  /// and no data (a decoder's logits where the token is picked on the
  /// device).
  SmallVector<unsigned> discardedResults;
};

/// The most a dimension known only at run time (`?`) of an argument may
/// be: what Executable::planForBounds plans for.
struct DimBound {
  unsigned argument = 0;
  unsigned dim = 0;
  int64_t max = 0;
  /// What errors call the dimension (a symbolic dimension's name).
  std::string name;
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
  /// Of those, copies between a state and the arena: a cache copied in and
  /// out of its state (0 where it is appended in place).
  unsigned stateCopies = 0;
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
  /// The CPU time of the thread that made them, in microseconds: what the
  /// recordings cost the host whatever else runs on it (their wall time on
  /// a loaded host includes time waiting for a core).
  double recordCpuMicroseconds = 0;
  /// Where that time went, summed over recordings: the host ops, placing
  /// the gpu.allocs and views and the staging slots, descriptor sets, and
  /// recording the command buffer, of which deciding where barriers go is
  /// `hazardMicroseconds`.
  double hostOpsMicroseconds = 0, placeMicroseconds = 0,
         descriptorMicroseconds = 0, commandMicroseconds = 0,
         hazardMicroseconds = 0;
  /// Buffers grown (the arena, staging and states, by at least half each
  /// time) while recordings were made, and their microseconds (waiting for
  /// a run in flight included), which `placeMicroseconds` leaves out.
  unsigned bufferGrowths = 0;
  double growMicroseconds = 0;
  /// Dispatches recorded, summed over recordings.
  unsigned recordedDispatches = 0;
  /// Descriptor sets written for recordings, and those taken unchanged from
  /// an earlier recording whose dispatch bound the same bytes.
  unsigned descriptorSetsWritten = 0, descriptorSetsReused = 0;
  /// Recordings made ahead of their run while the device may run another:
  /// by prepare(), or by a launch while another run is in flight; and their
  /// microseconds. The rest were made by the run that needed them, on its
  /// critical path.
  unsigned recordingsAhead = 0;
  double aheadMicroseconds = 0;
  /// Recordings given up to keep at most LoadOptions::maxRecordings.
  unsigned recordingsEvicted = 0;
  /// Times the tensors placed at run time were placed (first fit by
  /// liveness): once per recording that has any, or with planForBounds
  /// once for all, then only for sizes that argument values decide.
  unsigned placements = 0;
};

struct HostValues;

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

  /// runViews in two halves: launch() copies the inputs in and submits the
  /// run; finish() waits for the oldest run launched and returns its
  /// outputs. Between them the host is free, e.g. to prepare() the next
  /// run, or to launch it: where canOverlapRuns(), up to kMaxRunsInFlight
  /// runs are in flight, each with its own staging memory, and the device
  /// runs them in order (a run reads what the one before it left in a
  /// state). A decoder thus submits step t + 1 before it reads step t's
  /// token, and the device does not wait for the host between steps.
  LogicalResult launch(ArrayRef<HostTensorRef> inputs,
                       const RunOptions &options = {});
  FailureOr<std::vector<HostTensor>> finish();
  static constexpr unsigned kMaxRunsInFlight = 2;
  /// Runs launched and not finished.
  unsigned getNumRunsInFlight() const { return inFlight.size(); }
  /// Whether a run may be launched while another is in flight: not for a
  /// function with gpu.loops or gpu.read_counts, whose launch waits for the
  /// device itself.
  bool canOverlapRuns() const { return !loops && readCounts.empty(); }
  /// Makes the recording that a run on inputs of these shapes with
  /// `options` will use, so that the run finds it made. Inputs need data
  /// only where host ops read argument values (gpu.extract). Safe while a
  /// run is in flight: if the recording needs a larger buffer, it first
  /// waits for that run (whose outputs finish() still returns). It is made
  /// for the staging memory the last run launched does not use, where the
  /// next launch will find it whether or not that run has finished.
  LogicalResult prepare(ArrayRef<HostTensorRef> inputs,
                        const RunOptions &options = {});
  /// Recordings kept now (at most LoadOptions::maxRecordings).
  unsigned getNumRecordings() const { return recordings.size(); }

  /// Declares which results may stay on the device for which arguments
  /// (RunOptions); each pair must have the same element type and rank. The
  /// states start empty.
  LogicalResult setStateBindings(ArrayRef<StateBinding> bindings);
  /// The bytes a state holds now, by binding number.
  uint64_t getStateBytes(unsigned binding) const {
    return states[binding].bytes;
  }
  /// Makes the memory of state binding `binding` at least `bytes` now
  /// (keeping what it holds) and fixes it there: no run grows it, and a run
  /// that needs more is an error. A decoder's cache preallocated to the
  /// longest sequence (--max-seq).
  LogicalResult reserveState(unsigned binding, uint64_t bytes);
  /// The memory of state binding `binding` now, in bytes.
  uint64_t getStateCapacity(unsigned binding) const;

  /// Places the tensors the runtime places (gpu.allocs of run-time sizes)
  /// once, for the arguments' `?` dimensions at their `bounds` (each needs
  /// one): every later run within the bounds finds them where they were
  /// planned, so no recording places them again and the arena does not
  /// grow. A run with a dimension above its bound fails with an error
  /// naming it. Tensors whose sizes argument values or counts read back
  /// decide (gpu.extract, gpu.scale_dim, gpu.range_count, gpu.read_count)
  /// cannot be planned from dims, and a tensor that needs more than its
  /// planned bytes at smaller dims (a size that does not grow with them):
  /// each recording places those above the planned ones.
  LogicalResult planForBounds(ArrayRef<DimBound> bounds);

  /// The recording of the last run (or, before any, of the load).
  const RecordingStats &getStats() const { return lastStats; }
  const ExecutableCounters &getCounters() const { return counters; }
  /// Starts the counters of runs and recordings again from zero (those of
  /// the load, the pipelines created, stay): what follows a warm-up is then
  /// counted on its own.
  void resetRunCounters() {
    unsigned pipelines = counters.pipelinesCreated;
    counters = {};
    counters.pipelinesCreated = pipelines;
  }
  /// Dispatch times of the last run, in dispatch order; empty unless loaded
  /// with `profile` on a device with timestamps.
  ArrayRef<DispatchTiming> getProfile() const { return profile; }
  /// Microseconds from the start of the first dispatch to the end of the
  /// last in the last profiled run: the device's time for the function's
  /// work, barriers and gaps between dispatches included (input and output
  /// copies not); 0 without a profile.
  double getProfileSpan() const { return profileSpan; }

private:
  friend class LoopRuns;
  struct Recording;
  struct MemoryStep;
  /// A descriptor set that recordings share: the one a dispatch uses in
  /// every recording where its bindings are these bytes.
  struct SharedSet {
    SmallVector<MemoryAccess, 4> bindings;
    VkDescriptorSet set = VK_NULL_HANDLE;
    /// Recordings that use it; at 0 it may be written for other bindings.
    unsigned users = 0;
    /// Its bindings name buffers that are gone.
    bool stale = false;
  };
  /// A launched run: its recording until finish(), then its outputs.
  struct InFlight {
    // Declared, so that the container below is constructible for clang
    // too: it checks before the member initializers are parsed.
    InFlight() {}
    Recording *recording = nullptr;
    /// Its device submission (Device::waitFor).
    uint64_t submission = 0;
    bool settled = false;
    LogicalResult status = success();
    std::vector<HostTensor> outputs;
  };

  Executable(const Device &device, FuncOp func, unsigned maxRecordings);
  LogicalResult createBuffers();
  LogicalResult uploadWeights();
  LogicalResult createPipelines();
  /// Numbers the host ops' values and lists them as a HostProgram.
  void buildHostProgram();
  /// The slot of a host value; one that stays 0 for a value that no host
  /// op defines.
  unsigned getSlot(Value value) const {
    auto found = hostSlots.find(value);
    return found == hostSlots.end() ? zeroSlot : found->second;
  }
  /// Numbers the memory values (buffers, weights, allocs, views), and
  /// lists what placing the allocs and views reads by number.
  void numberMemory();
  LogicalResult createProfiler(bool profile);
  /// Checks `inputs` against the function's arguments; data may be left out
  /// where a state gives it or, with `shapesOnly`, where no host op reads it.
  LogicalResult checkInputs(ArrayRef<HostTensorRef> inputs,
                            const RunOptions &options, bool shapesOnly);
  /// The recording for `inputs` and `options`, from the cache or made now,
  /// for a staging set that the last run launched does not use if it is
  /// still in flight. `counts` are the values of the first gpu.read_counts,
  /// read back by this run so far: the recording is of the segment after
  /// them.
  FailureOr<Recording *> getRecording(ArrayRef<HostTensorRef> inputs,
                                      const RunOptions &options = {},
                                      bool ahead = false,
                                      ArrayRef<int64_t> counts = {});
  /// launch() of a function with gpu.read_counts: runs each segment but the
  /// last and reads its count back, then submits the last.
  LogicalResult launchSegments(ArrayRef<HostTensorRef> inputs,
                               const RunOptions &options);
  /// Copies the inputs `r` stages, but those in `copied`, to staging.
  LogicalResult stageInputs(Recording &r, ArrayRef<HostTensorRef> inputs,
                            llvm::DenseSet<unsigned> &copied);
  /// Which state each argument and result of `options` uses, checked.
  LogicalResult resolveStates(Recording &r, const RunOptions &options);
  /// The state binding naming result (`isResult`) or argument `number`; -1
  /// if none does.
  int findState(bool isResult, unsigned number) const;
  /// Makes the buffer of each state {index, size} at least `size` bytes,
  /// keeping what it holds.
  LogicalResult ensureStateSizes(ArrayRef<std::pair<unsigned, uint64_t>> sizes);
  /// With `known` (planForBounds), the values read from arguments or the
  /// device are not read: they, and what is computed from them, are marked
  /// unknown in `known` (one flag per value slot), as are results the host
  /// arithmetic cannot give; checks are not evaluated.
  LogicalResult evaluateHostOps(Recording &r, ArrayRef<HostTensorRef> inputs,
                                ArrayRef<int64_t> counts,
                                std::vector<bool> *known = nullptr);
  /// Fails, naming the dimension, where `inputs` exceed planForBounds'
  /// bounds.
  LogicalResult checkBounds(ArrayRef<HostTensorRef> inputs);
  LogicalResult placeMemory(Recording &r);
  /// Places what `step` defines in `r` (a view, a state's memory, whose
  /// size goes to `stateSizes`), or checks a copy's sizes.
  LogicalResult
  placeStep(Recording &r, const MemoryStep &step,
            SmallVectorImpl<std::pair<unsigned, uint64_t>> &stateSizes);
  LogicalResult placeOp(Recording &r, Operation &op);
  LogicalResult createDescriptorSets(Recording &r);
  /// Dispatch `number`'s grid for a recording's host values; 0 in any
  /// dimension means the dispatch does nothing.
  FailureOr<std::array<uint64_t, 3>> getGrid(unsigned number,
                                             const HostValues &values) const;
  /// The grids of the dispatches up to `r`'s segment into `grids`, and
  /// which of them run into `r.dispatched`.
  LogicalResult computeGrids(Recording &r);
  /// Allocates `count` sets of `layouts` from the pools, adding one if
  /// needed for `descriptors` more descriptors.
  LogicalResult allocateSets(ArrayRef<VkDescriptorSetLayout> layouts,
                             uint32_t descriptors,
                             SmallVectorImpl<VkDescriptorSet> &sets);
  LogicalResult record(Recording &r);
  /// Records dispatch `number`, whose grid is in `grids` and not empty,
  /// into `r`'s commands; `beforeCommand` places a barrier where one is
  /// needed.
  LogicalResult recordDispatch(
      Recording &r, unsigned number,
      llvm::function_ref<void(ArrayRef<MemoryAccess>)> beforeCommand);
  /// Makes `buffer` at least `size` bytes; growing it drops every cached
  /// recording, since their commands name the old buffer.
  LogicalResult ensureSize(std::unique_ptr<Buffer> &buffer, uint64_t size,
                           MemoryKind kind);
  /// Waits for the runs in flight, if any, and takes their outputs, so
  /// that buffers and recordings may change.
  void settle();
  /// The same for one run.
  void settle(InFlight &run);
  /// Sets the bytes the states of `r`'s results will hold once it has run:
  /// a run launched after it, before it finished, reads them.
  void commitStateBytes(const Recording &r);
  /// Gives a recording's descriptor sets and command buffer back.
  void release(Recording &r);
  /// Drops every recording (their commands name buffers about to go).
  void dropRecordings();
  /// Marks the descriptor sets that bind buffer number `buffer` stale.
  void dropSetsOf(unsigned buffer);
  /// Drops least recently used recordings (never `keep` nor those in
  /// flight) until at most maxRecordings are left.
  void evictRecordings(Recording *keep);
  LogicalResult readProfile(const Recording &r);

  const Device &device;
  FuncOp func;
  unsigned maxRecordings;
  /// The memory budget (LoadOptions::maxMemory or the device-local heap),
  /// whether the option set it, and the bytes of the module's fixed buffers
  /// (weights, static arena): the tensors placed at run time get the rest.
  uint64_t memoryBudget = 0;
  bool budgetFromOption = false;
  uint64_t fixedBufferBytes = 0;
  /// The function's gpu.buffer ops, by number, and their device buffers;
  /// the last buffer is the one the runtime places gpu.allocs in.
  llvm::DenseMap<Operation *, unsigned> bufferIndex;
  std::vector<std::unique_ptr<Buffer>> buffers;
  unsigned runtimeArena = 0;
  llvm::DenseMap<Operation *, std::unique_ptr<KernelPipeline>> pipelines;
  std::vector<gpu::DispatchOp> dispatches;
  /// What recording a dispatch needs from its op and kernel, found once.
  /// Values are read by number: host values by their slot (HostProgram),
  /// views by their memory number (`memoryNumbers`). A recording visits
  /// every dispatch, most of them skipped variants, so neither their
  /// attributes nor hashed lookups are repeated per step.
  struct DispatchInfo {
    const KernelPipeline *pipeline = nullptr;
    /// Whether the kernel writes each binding.
    SmallVector<bool, 4> writable;
    /// The push constants with the dynamic words 0, and for each dynamic
    /// word its number, the slot of its value and whether its type is
    /// unsigned.
    SmallVector<char, 32> pushBytes;
    SmallVector<std::tuple<unsigned, unsigned, bool>, 4> dynamicPush;
    /// The bound views' memory numbers.
    SmallVector<unsigned, 8> bindings;
    /// Whether each binding is a state's gpu.alloc (bound whole).
    SmallVector<bool, 8> stateBindings;
  };
  std::vector<DispatchInfo> dispatchInfo;
  /// Each dispatch's grid: its static counts, and the slot of each dynamic
  /// one (-1 where static). Apart from DispatchInfo, so that finding the
  /// few dispatches that run reads only these.
  struct GridInfo {
    std::array<int64_t, 3> counts = {0, 0, 0};
    std::array<int, 3> slots = {-1, -1, -1};
  };
  std::vector<GridInfo> dispatchGrids;
  /// The grids of the recording being made, by dispatch.
  std::vector<std::array<uint64_t, 3>> grids;
  /// Bindings of all dispatches together: a descriptor pool's size.
  uint32_t numBindings = 0;
  /// The gpu.allocs with their live ranges (they do not depend on shapes),
  /// and for each its memory number, the slots of its `?` dims and whether
  /// a gpu.download reads it.
  SmallVector<gpu::AllocLiveness> allocs;
  struct AllocInfo {
    unsigned number = 0;
    /// Its type's shape (`?` where dynamic) and element size.
    SmallVector<int64_t, 4> shape;
    int64_t elementBytes = 0;
    SmallVector<unsigned, 4> dimSlots;
    bool downloaded = false;
  };
  std::vector<AllocInfo> allocInfo;
  /// The values gpu.downloads read: the only views whose shapes a run
  /// needs.
  llvm::DenseSet<Value> downloaded;
  /// The host ops that read argument values (gpu.extract, gpu.scale_dim,
  /// gpu.range_count), whose values are part of a recording's key.
  SmallVector<Operation *> valueReaders;
  /// Arguments whose state a gpu.alloc {state} is: read in place, never
  /// uploaded.
  SmallVector<unsigned> inPlaceArguments;
  /// The host ops as a flat program over numbered value slots, so that a
  /// recording evaluates them without hashing: each op's result slot and
  /// operand slots, and the constants' values filled in once.
  /// What a recording does with an op it visits, found once: the ops
  /// themselves lie scattered in memory, and reading each one's name per
  /// step cost more than the work done for most of them.
  enum class StepKind : uint8_t {
    Other,
    Dim,
    Extract,
    ScaleDim,
    RangeCount,
    ReadCount,
    Select,
    Assert,
    Upload,
    Download,
    Copy,
    Dispatch
  };
  struct HostStep {
    Operation *op;
    unsigned result;
    SmallVector<unsigned, 3> operands;
    /// A gpu.muli and the like: its function, looked up once.
    gpu::HostArithFn arith = nullptr;
    StepKind kind = StepKind::Other;
    /// A gpu.dim's argument and dimension.
    unsigned argument = 0, dim = 0;
  };
  /// The last placement of the run-time sized tensors: the segment's cut,
  /// the bytes reserved for each, and where they went.
  struct Placement {
    unsigned cut = ~0u;
    SmallVector<uint64_t> reserved, offsets;
    uint64_t arenaBytes = 0;
  };
  Placement lastPlacement;
  /// The memory of the weights, fixed buffers and views of static shape
  /// and offset into them, placed at the first recording; the other ops
  /// that placement visits, with their positions in the block.
  std::unique_ptr<Recording> staticMemory;
  struct MemoryStep {
    unsigned at = 0;
    Operation *op = nullptr;
    /// A gpu.view, a state's gpu.alloc, a gpu.copy (whose sizes are
    /// checked), or a buffer or weight (placeOp).
    enum Kind : uint8_t { Other, View, StateAlloc, Copy } kind = Other;
    /// The result's number (a copy's target's), the source's, a view's
    /// offset slot (-1 where static), the state's argument; the shape of a
    /// view or alloc (`?` where dynamic), its element size and the slots of
    /// its `?` dims, and whether a gpu.download reads it.
    unsigned result = 0, source = 0;
    int offsetSlot = -1;
    int64_t staticOffset = 0;
    unsigned stateArgument = 0;
    SmallVector<int64_t, 4> shape;
    int64_t elementBytes = 0;
    SmallVector<unsigned, 2> dimSlots;
    bool downloaded = false;
  };
  std::vector<MemoryStep> memoryOps;
  llvm::DenseMap<Value, unsigned> hostSlots;
  unsigned zeroSlot = 0;
  llvm::DenseMap<Value, unsigned> memoryNumbers;
  std::vector<HostStep> hostProgram;
  std::vector<int64_t> hostConstants;

  /// planForBounds' bounds, and for each entry of `allocs` its planned
  /// offset and bytes in the runtime arena (kUnplanned for a tensor whose
  /// size argument values decide); empty without bounds.
  static constexpr uint64_t kUnplanned = ~uint64_t(0);
  SmallVector<DimBound> dimBounds;
  SmallVector<uint64_t> plannedOffsets, plannedBytes;
  uint64_t plannedArenaBytes = 0;

  /// The gpu.read_counts in block order. They split the function into
  /// segments: segment k runs the ops after read count k - 1 up to read
  /// count k, and the last one the rest. `cuts` holds the block position of
  /// each read count, then the number of ops in the block; each dispatch's
  /// segment is in `dispatchSegment`. The counts come back through
  /// `countStaging`, 8 bytes each.
  SmallVector<gpu::ReadCountOp> readCounts;
  SmallVector<unsigned> cuts;
  /// The ops a recording turns into commands (uploads, downloads, copies
  /// and dispatches) with their block positions: the block is mostly the
  /// host program, which recording need not walk again.
  struct CommandStep {
    unsigned at = 0;
    Operation *op = nullptr;
    StepKind kind = StepKind::Other;
  };
  std::vector<CommandStep> commandOps;
  std::vector<unsigned> dispatchSegment;
  std::unique_ptr<Buffer> countStaging;

  /// Device memory kept between runs: one per StateBinding, each an index
  /// into `buffers`, with the bytes the last run that wrote it left.
  struct State {
    StateBinding binding;
    unsigned buffer = 0;
    uint64_t bytes = 0;
    /// Reserved (reserveState): its memory does not grow.
    bool reserved = false;
  };
  std::vector<State> states;

  /// Host-visible memory the inputs and outputs go through: a set per run
  /// that may be in flight, each recording's commands naming one set.
  std::unique_ptr<Buffer> inputStaging[kMaxRunsInFlight],
      outputStaging[kMaxRunsInFlight];

  /// Recordings by key (argument shapes, then the argument values the host
  /// ops read).
  std::map<std::vector<int64_t>, std::unique_ptr<Recording>> recordings;
  /// A function with gpu.loops runs through copies of itself with each
  /// body recorded once per iteration (LoopRecording.h); null otherwise.
  std::unique_ptr<LoopRuns> loops;
  /// What the last run's recording holds.
  RecordingStats lastStats;
  /// Counts uses of recordings, for eviction.
  uint64_t useClock = 0;
  /// Descriptor sets by dispatch number, kept across recordings, and the
  /// pools they come from (freed with the Executable).
  std::vector<SmallVector<SharedSet, 2>> sharedSets;
  std::vector<VkDescriptorPool> descriptorPools;
  uint32_t poolSetsLeft = 0, poolDescriptorsLeft = 0;
  /// Command buffers of recordings no longer kept, to record into again.
  std::vector<VkCommandBuffer> freeCommandBuffers;
  /// Oldest first.
  std::deque<InFlight> inFlight;

  VkQueryPool queryPool = VK_NULL_HANDLE;
  ExecutableCounters counters;
  std::vector<DispatchTiming> profile;
  double profileSpan = 0;
};

} // namespace onyx::runtime

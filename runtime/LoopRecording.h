//===- LoopRecording.h - Functions with gpu.loops ---------------*- C++ -*-===//
//
// Private to the runtime. A recorded command buffer has no branch, so a
// function with gpu.loops (an ONNX Loop whose trip count is known only at
// run time) runs as a copy of itself in which each loop's body is recorded
// once per iteration: the trip counts are evaluated from the run's inputs
// by the host ops that compute them, and the copy for those counts has each
// body cloned that many times, with the iteration number a gpu.constant of
// each clone. A trip count that kernels compute is a count read back
// (gpu.read_count): a probe, the function up to that count returning it,
// runs first (one more submission and wait per run). The copy is loaded as
// an Executable of its own (the kernels were compiled with the module:
// loading creates their pipelines, through the device's pipeline cache, and
// places every tensor, checked against the memory budget as any run's); the
// last two sets of trip counts keep theirs, so a run at counts seen before
// records nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Executable.h"

#include "ir/OwningOpRef.h"

namespace onyx::runtime {

class LoopRuns {
public:
  /// The most ops the bodies of one function's loops may be recorded as,
  /// all iterations together.
  static constexpr int64_t kMaxRecordedOps = int64_t(1) << 20;

  /// Whether `func` has a gpu.loop.
  static bool hasLoops(FuncOp func);
  /// An Executable running `func` (which has gpu.loops) through copies for
  /// each set of trip counts.
  static FailureOr<std::unique_ptr<Executable>>
  load(const Device &device, ModuleOp module, FuncOp func,
       const LoadOptions &options);

  LogicalResult launch(Executable &self, ArrayRef<HostTensorRef> inputs,
                       const RunOptions &options);
  FailureOr<std::vector<HostTensor>> finish(Executable &self);
  LogicalResult prepare(ArrayRef<HostTensorRef> inputs,
                        const RunOptions &options);

private:
  struct Copy {
    SmallVector<int64_t> counts;
    OwningOpRef<ModuleOp> module;
    std::unique_ptr<Executable> exe;
  };

  LoopRuns(const Device &device, ModuleOp module, FuncOp func,
           const LoadOptions &options)
      : device(device), module(module), func(func), options(options) {}
  /// The trip count of each loop, in order, for `inputs`.
  FailureOr<SmallVector<int64_t>> getTripCounts(ArrayRef<HostTensorRef> inputs);
  /// Loads the probe: the function up to the counts read back that trip
  /// counts need, returning them.
  LogicalResult loadProbe();
  /// The copy for `counts`, loaded now if it is not kept.
  FailureOr<Executable *> getCopy(ArrayRef<int64_t> counts);

  const Device &device;
  ModuleOp module;
  FuncOp func;
  LoadOptions options;
  SmallVector<gpu::LoopOp> loops;
  /// The host ops the trip counts are computed by, in order.
  SmallVector<Operation *> program;
  /// The gpu.read_counts that trip counts depend on, and the probe that
  /// reads them back before a run's copy is chosen.
  SmallVector<Operation *> readCounts;
  OwningOpRef<ModuleOp> probeModule;
  std::unique_ptr<Executable> probeExe;
  /// Most recently used first.
  std::vector<Copy> copies;
  Executable *inFlight = nullptr;
};

} // namespace onyx::runtime

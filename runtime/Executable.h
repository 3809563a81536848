//===- Executable.h - A gpu-dialect function loaded on a device -*- C++ -*-===//
//
// Loading validates the module for the device, creates the kernels'
// pipelines and the function's buffers, uploads the weights, and records
// one command buffer that runs the whole function: input copies, dispatches
// with barriers only where a dependency needs one, output copies. Each run
// copies the inputs in, re-submits that command buffer and reads the
// outputs; nothing is created per run.
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

#include <vector>

namespace onyx::runtime {

/// A tensor in host memory: row-major little-endian elements, as
/// DenseElementsAttr stores them (i1 takes a byte).
struct HostTensor {
  RankedTensorType type;
  std::vector<char> data;
};

struct LoadOptions {
  /// The function to run; empty for the only one, or else @main.
  std::string function;
  /// Time each dispatch with device timestamps.
  bool profile = false;
};

struct DispatchTiming {
  gpu::DispatchOp op;
  double microseconds = 0;
};

/// What the recorded command buffer holds.
struct RecordingStats {
  unsigned dispatches = 0;
  /// Dispatch commands: more than dispatches when grids are split.
  unsigned dispatchCalls = 0;
  unsigned copies = 0;
  /// Barriers between commands (not counting the one at the start and the
  /// one that makes outputs visible to the host).
  unsigned barriers = 0;
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
  /// type); reports mismatches at the function's location.
  FailureOr<std::vector<HostTensor>> run(ArrayRef<HostTensor> inputs);

  const RecordingStats &getStats() const { return stats; }
  /// Dispatch times of the last run, in dispatch order; empty unless loaded
  /// with `profile` on a device with timestamps.
  ArrayRef<DispatchTiming> getProfile() const { return profile; }
  /// Microseconds from the start of the first dispatch to the end of the
  /// last in the last profiled run: the device's time for the function's
  /// work, barriers and gaps between dispatches included (input and output
  /// copies not); 0 without a profile.
  double getProfileSpan() const { return profileSpan; }

private:
  Executable(const Device &device, FuncOp func) : device(device), func(func) {}
  LogicalResult createBuffers();
  LogicalResult uploadWeights();
  LogicalResult createPipelines();
  LogicalResult createDescriptorSets();
  LogicalResult createProfiler(bool profile);
  LogicalResult record();
  LogicalResult readProfile();

  /// A staging slot of an argument or a downloaded result.
  struct Slot {
    uint64_t offset = 0, size = 0;
  };

  const Device &device;
  FuncOp func;
  /// The function's gpu.buffer ops, by number, and their device buffers.
  llvm::DenseMap<Operation *, unsigned> bufferIndex;
  std::vector<std::unique_ptr<Buffer>> buffers;
  llvm::DenseMap<Operation *, std::unique_ptr<KernelPipeline>> pipelines;
  std::vector<gpu::DispatchOp> dispatches;
  std::vector<VkDescriptorSet> descriptorSets;
  VkDescriptorPool descriptorPool = VK_NULL_HANDLE;

  /// Host-visible memory the inputs go through, by argument number.
  std::unique_ptr<Buffer> inputStaging;
  llvm::DenseMap<unsigned, Slot> inputSlots;
  /// Host-visible memory the outputs come back through, by gpu.download.
  std::unique_ptr<Buffer> outputStaging;
  llvm::DenseMap<Operation *, Slot> outputSlots;

  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkQueryPool queryPool = VK_NULL_HANDLE;
  RecordingStats stats;
  std::vector<DispatchTiming> profile;
  double profileSpan = 0;
};

} // namespace onyx::runtime

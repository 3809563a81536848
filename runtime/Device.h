//===- Device.h - A Vulkan device with one compute queue --------*- C++ -*-===//
//
// Owns the VkDevice (with the optional features of gpu::Feature enabled
// where the device has them), its compute queue, a command pool, a fence per
// submission that may be in flight (two: a decoder runs its next step while
// the host reads the last one's token) and the pipeline cache that every
// loaded module's pipelines go through. Buffer is a VkBuffer with its own
// memory. A Device and what is loaded on it are used from one thread at a time.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"

#include "runtime/Instance.h"

namespace onyx::runtime {

class Device;

/// Where a buffer lives and what it is for.
enum class MemoryKind {
  /// Device memory for storage buffers and copies.
  Device,
  /// Host memory the device copies from (inputs, weights).
  Upload,
  /// Host memory the device copies into (outputs).
  Readback,
};

class Buffer {
public:
  ~Buffer();
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  VkBuffer getHandle() const { return buffer; }
  uint64_t getSize() const { return size; }
  /// The host address of an Upload or Readback buffer.
  char *getMapped() const { return mapped; }

private:
  friend class Device;
  explicit Buffer(const Device &device) : device(device) {}

  const Device &device;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint64_t size = 0;
  char *mapped = nullptr;
};

struct DeviceOptions {
  /// A directory that keeps the pipeline cache between processes (a file
  /// per device and driver version, read when the device is created and
  /// written when it is destroyed); empty: the cache lives in memory only.
  std::string pipelineCacheDirectory;
  /// How long a wait for the device may take before the device is given up
  /// as hung (and treated as lost); onyx-run's --gpu-timeout.
  uint64_t waitTimeoutSeconds = 30 * 60;
};

class Device {
public:
  static FailureOr<std::unique_ptr<Device>>
  create(const Instance &instance, const DeviceInfo &info,
         const DeviceOptions &options = {});
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  const DeviceInfo &getInfo() const { return info; }
  /// The size of the largest device-local memory heap (of the largest heap
  /// if none is device-local): the default memory budget of a module.
  uint64_t getDeviceLocalHeapSize() const;
  const gpu::TargetDesc &getTarget() const { return info.target; }
  const VulkanApi &getApi() const { return api; }
  Context *getContext() const { return instance.getContext(); }
  VkDevice getHandle() const { return device; }
  VkPipelineCache getPipelineCache() const { return pipelineCache; }
  VkCommandPool getCommandPool() const { return commandPool; }

  /// A buffer of `size` bytes (at least one); failures are reported at
  /// `loc`, the op the buffer is for.
  FailureOr<std::unique_ptr<Buffer>>
  createBuffer(uint64_t size, MemoryKind kind, Location loc) const;
  /// Submits `commands` and waits until the device has run them.
  LogicalResult submitAndWait(VkCommandBuffer commands, Location loc) const;
  /// The pipeline cache file of this device and driver in the cache
  /// directory, or "" without one.
  std::string getPipelineCachePath() const;
  /// The bytes of pipeline cache data read from the cache directory when
  /// the device was created (0: none, or none that matched this device).
  size_t getPipelineCacheBytesLoaded() const { return cacheBytesLoaded; }
  /// At most this many submissions are in flight at once.
  static constexpr unsigned kMaxSubmissions = 2;
  /// Submits `commands` and returns at once with the submission's number
  /// (increasing), which waitFor() takes. At most kMaxSubmissions run at a
  /// time: a submit beyond that is an error until one is waited for. The
  /// queue runs submissions in order, and every command buffer of the
  /// runtime starts with a barrier, so a submission's work follows that of
  /// the ones before it.
  FailureOr<uint64_t> submit(VkCommandBuffer commands, Location loc) const;
  /// Waits until submission `number`, and every one before it, has run;
  /// success at once for those already waited for.
  LogicalResult waitFor(uint64_t number, Location loc) const;
  /// Waits until every submission has run; success at once if none is
  /// running.
  LogicalResult wait(Location loc) const;
  /// Submissions in flight (submitted and not waited for).
  unsigned getNumPending() const { return pending.size(); }
  /// Records a command buffer with `record`, runs it once and waits for it
  /// (uploads and copies outside any recording).
  LogicalResult runOnce(llvm::function_ref<void(VkCommandBuffer)> record,
                        Location loc) const;

  /// Whether the device was lost (VK_ERROR_DEVICE_LOST, or a wait that
  /// timed out): nothing more runs on it, and what was loaded on it is to
  /// be freed and the device created again.
  bool isLost() const { return !lostReason.empty(); }

private:
  Device(const Instance &instance, const DeviceInfo &info,
         const DeviceOptions &options)
      : instance(instance), info(info), options(options),
        api(instance.getApi()) {}
  LogicalResult init();
  /// The cache file's data if it was written for this device and driver.
  std::vector<char> readPipelineCache() const;
  void writePipelineCache() const;
  std::optional<uint32_t> findMemoryType(uint32_t allowed,
                                         VkMemoryPropertyFlags required,
                                         VkMemoryPropertyFlags preferred) const;

  const Instance &instance;
  DeviceInfo info;
  DeviceOptions options;
  VkPhysicalDeviceProperties properties;
  size_t cacheBytesLoaded = 0;
  /// A copy with the device-level functions of this device.
  VulkanApi api;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkFence fences[kMaxSubmissions] = {};
  /// The submissions nobody waited for yet, oldest first: their numbers
  /// and the index of the fence each signals.
  mutable SmallVector<std::pair<uint64_t, unsigned>, kMaxSubmissions> pending;
  mutable uint64_t numSubmissions = 0;
  /// Why the device is lost; empty while it is not.
  mutable std::string lostReason;
  /// Reports that the device is lost if it is.
  LogicalResult checkNotLost(Location loc) const;
  /// Checks `result` of `call` and remembers a lost device.
  LogicalResult checkDeviceVk(VkResult result, StringRef call,
                              Location loc) const;
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memoryProperties;
};

/// Reports a failed Vulkan call at `loc`; success otherwise.
LogicalResult checkVk(VkResult result, StringRef call, Location loc);

} // namespace onyx::runtime

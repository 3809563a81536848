//===- Instance.h - The Vulkan instance and its devices ---------*- C++ -*-===//
//
// Opens the Vulkan loader, creates an instance (with the Khronos validation
// layer and synchronization validation if asked), and lists the physical
// devices with what onyx needs to know about them: name, kind, API version
// and the gpu::TargetDesc (features and limits) that lowering compiles for
// and that modules are checked against.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/Target.h"
#include "runtime/VulkanApi.h"

#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace onyx::runtime {

struct InstanceOptions {
  /// Enables the Khronos validation layer; so does the environment variable
  /// ONYX_VULKAN_VALIDATION=1.
  bool validation = false;
  /// The loader to open; tests point it elsewhere to check the error path.
  std::string loaderLibrary = "libvulkan.so.1";
};

/// What onyx knows about one physical device.
struct DeviceInfo {
  unsigned index = 0;
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t apiVersion = 0;
  std::string driver;
  /// Why onyx cannot use the device; empty if it can.
  std::string unusableReason;
  /// A queue family with compute support (valid if usable).
  uint32_t queueFamily = 0;
  bool hasTimestamps = false;
  float timestampPeriodNs = 1;
  uint32_t timestampValidBits = 0;
  std::array<uint32_t, 3> maxWorkGroupCount = {0, 0, 0};
  uint64_t maxMemoryAllocationSize = 0;
  gpu::TargetDesc target;

  bool isUsable() const { return unusableReason.empty(); }
  /// `llvmpipe (LLVM 15.0.6, 256 bits): CPU, Vulkan 1.3.230, llvmpipe`.
  std::string describe() const;
};

class Instance {
public:
  /// Reports a missing loader or driver as an error (at an unknown
  /// location: it concerns the machine, not the program).
  static FailureOr<std::unique_ptr<Instance>>
  create(Context *ctx, const InstanceOptions &options = {});
  ~Instance();
  Instance(const Instance &) = delete;
  Instance &operator=(const Instance &) = delete;

  Context *getContext() const { return ctx; }
  const VulkanApi &getApi() const { return api; }

  /// Every physical device, in the loader's order (the N of --device=N).
  ArrayRef<DeviceInfo> getDevices() const { return devices; }
  /// Device `index`, or without one the first usable discrete GPU, then
  /// integrated GPU, virtual GPU, CPU (lavapipe) and other device.
  FailureOr<const DeviceInfo *>
  selectDevice(std::optional<unsigned> index = std::nullopt) const;

  bool isValidationEnabled() const { return validation; }
  /// Warnings and errors the validation layer reported so far.
  std::vector<std::string> getValidationMessages() const;
  size_t getValidationMessageCount() const;

private:
  Instance(Context *ctx) : ctx(ctx) {}
  LogicalResult init(const InstanceOptions &options);
  LogicalResult enumerateDevices();
  static VKAPI_ATTR VkBool32 VKAPI_CALL
  onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
            VkDebugUtilsMessageTypeFlagsEXT types,
            const VkDebugUtilsMessengerCallbackDataEXT *data, void *self);

  Context *ctx;
  VulkanApi api;
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  bool validation = false;
  std::vector<DeviceInfo> devices;
  mutable std::mutex messagesMutex;
  std::vector<std::string> messages;
};

} // namespace onyx::runtime

//===- VulkanApi.h - The Vulkan functions the runtime calls -----*- C++ -*-===//
//
// The runtime opens the Vulkan loader with dlopen instead of linking it, so
// that a binary starts on a machine without Vulkan and says so clearly
// rather than failing in the dynamic linker. VulkanApi holds the function
// pointers, loaded in three steps as the loader requires: global functions,
// then per instance, then per device.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Support.h"

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <string>

namespace onyx::runtime {

#define ONYX_VK_GLOBAL_FUNCTIONS(X)                                            \
  X(vkCreateInstance)                                                          \
  X(vkEnumerateInstanceVersion)                                                \
  X(vkEnumerateInstanceLayerProperties)                                        \
  X(vkEnumerateInstanceExtensionProperties)

#define ONYX_VK_INSTANCE_FUNCTIONS(X)                                          \
  X(vkDestroyInstance)                                                         \
  X(vkEnumeratePhysicalDevices)                                                \
  X(vkGetPhysicalDeviceProperties)                                             \
  X(vkGetPhysicalDeviceProperties2)                                            \
  X(vkGetPhysicalDeviceFeatures2)                                              \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                  \
  X(vkGetPhysicalDeviceMemoryProperties)                                       \
  X(vkCreateDevice)                                                            \
  X(vkGetDeviceProcAddr)

// Present only when VK_EXT_debug_utils is enabled (with validation).
#define ONYX_VK_DEBUG_FUNCTIONS(X)                                             \
  X(vkCreateDebugUtilsMessengerEXT)                                            \
  X(vkDestroyDebugUtilsMessengerEXT)

#define ONYX_VK_DEVICE_FUNCTIONS(X)                                            \
  X(vkDestroyDevice)                                                           \
  X(vkGetDeviceQueue)                                                          \
  X(vkDeviceWaitIdle)                                                          \
  X(vkCreateBuffer)                                                            \
  X(vkDestroyBuffer)                                                           \
  X(vkGetBufferMemoryRequirements)                                             \
  X(vkAllocateMemory)                                                          \
  X(vkFreeMemory)                                                              \
  X(vkBindBufferMemory)                                                        \
  X(vkMapMemory)                                                               \
  X(vkUnmapMemory)                                                             \
  X(vkCreateShaderModule)                                                      \
  X(vkDestroyShaderModule)                                                     \
  X(vkCreateDescriptorSetLayout)                                               \
  X(vkDestroyDescriptorSetLayout)                                              \
  X(vkCreatePipelineLayout)                                                    \
  X(vkDestroyPipelineLayout)                                                   \
  X(vkCreatePipelineCache)                                                     \
  X(vkDestroyPipelineCache)                                                    \
  X(vkGetPipelineCacheData)                                                    \
  X(vkCreateComputePipelines)                                                  \
  X(vkDestroyPipeline)                                                         \
  X(vkCreateDescriptorPool)                                                    \
  X(vkDestroyDescriptorPool)                                                   \
  X(vkAllocateDescriptorSets)                                                  \
  X(vkUpdateDescriptorSets)                                                    \
  X(vkCreateCommandPool)                                                       \
  X(vkDestroyCommandPool)                                                      \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkFreeCommandBuffers)                                                      \
  X(vkBeginCommandBuffer)                                                      \
  X(vkEndCommandBuffer)                                                        \
  X(vkCmdBindPipeline)                                                         \
  X(vkCmdBindDescriptorSets)                                                   \
  X(vkCmdPushConstants)                                                        \
  X(vkCmdDispatch)                                                             \
  X(vkCmdDispatchBase)                                                         \
  X(vkCmdCopyBuffer)                                                           \
  X(vkCmdPipelineBarrier)                                                      \
  X(vkCmdWriteTimestamp)                                                       \
  X(vkCmdResetQueryPool)                                                       \
  X(vkCreateQueryPool)                                                         \
  X(vkDestroyQueryPool)                                                        \
  X(vkGetQueryPoolResults)                                                     \
  X(vkCreateFence)                                                             \
  X(vkDestroyFence)                                                            \
  X(vkResetFences)                                                             \
  X(vkWaitForFences)                                                           \
  X(vkQueueSubmit)

struct VulkanApi {
#define ONYX_VK_DECLARE(name) PFN_##name name = nullptr;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  ONYX_VK_GLOBAL_FUNCTIONS(ONYX_VK_DECLARE)
  ONYX_VK_INSTANCE_FUNCTIONS(ONYX_VK_DECLARE)
  ONYX_VK_DEBUG_FUNCTIONS(ONYX_VK_DECLARE)
  ONYX_VK_DEVICE_FUNCTIONS(ONYX_VK_DECLARE)
#undef ONYX_VK_DECLARE

  /// Opens `library` and loads the global functions; returns the reason on
  /// failure. The library stays open for the life of the process: drivers
  /// may keep threads running in it.
  LogicalResult loadGlobal(StringRef library, std::string &error);
  /// Loads the instance-level functions (and the debug ones if `debug`).
  LogicalResult loadInstance(VkInstance instance, bool debug,
                             std::string &error);
  LogicalResult loadDevice(VkDevice device, std::string &error);
};

/// A zero-initialized Vulkan struct of type `T` with its sType and pNext.
template <typename T>
T makeVkStruct(VkStructureType type, void *next = nullptr) {
  T value{};
  value.sType = type;
  value.pNext = next;
  return value;
}

/// `VK_ERROR_OUT_OF_DEVICE_MEMORY` and so on.
StringRef getResultName(VkResult result);

} // namespace onyx::runtime

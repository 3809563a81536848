//===- VulkanApi.cpp - The Vulkan functions the runtime calls -------------===//
#include "runtime/VulkanApi.h"

#include "llvm/ADT/Twine.h"

#include <dlfcn.h>

namespace onyx::runtime {

LogicalResult VulkanApi::loadGlobal(StringRef library, std::string &error) {
  void *handle = dlopen(library.str().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    error = reason ? reason : "unknown error";
    return failure();
  }
  vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(handle, "vkGetInstanceProcAddr"));
  if (!vkGetInstanceProcAddr) {
    error = (library + " does not export vkGetInstanceProcAddr").str();
    return failure();
  }
#define ONYX_VK_LOAD(name)                                                     \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(nullptr, #name));  \
  if (!name) {                                                                 \
    error = "the Vulkan loader lacks " #name;                                  \
    return failure();                                                          \
  }
  ONYX_VK_GLOBAL_FUNCTIONS(ONYX_VK_LOAD)
#undef ONYX_VK_LOAD
  return success();
}

LogicalResult VulkanApi::loadInstance(VkInstance instance, bool debug,
                                      std::string &error) {
#define ONYX_VK_LOAD(name)                                                     \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name)); \
  if (!name) {                                                                 \
    error = "the Vulkan instance lacks " #name;                                \
    return failure();                                                          \
  }
  ONYX_VK_INSTANCE_FUNCTIONS(ONYX_VK_LOAD)
  if (debug) {
    ONYX_VK_DEBUG_FUNCTIONS(ONYX_VK_LOAD)
  }
#undef ONYX_VK_LOAD
  return success();
}

LogicalResult VulkanApi::loadDevice(VkDevice device, std::string &error) {
#define ONYX_VK_LOAD(name)                                                     \
  name = reinterpret_cast<PFN_##name>(vkGetDeviceProcAddr(device, #name));     \
  if (!name) {                                                                 \
    error = "the Vulkan device lacks " #name;                                  \
    return failure();                                                          \
  }
  ONYX_VK_DEVICE_FUNCTIONS(ONYX_VK_LOAD)
#undef ONYX_VK_LOAD
  return success();
}

StringRef getResultName(VkResult result) {
  switch (result) {
#define ONYX_VK_RESULT(name)                                                   \
  case name:                                                                   \
    return #name;
    ONYX_VK_RESULT(VK_SUCCESS)
    ONYX_VK_RESULT(VK_NOT_READY)
    ONYX_VK_RESULT(VK_TIMEOUT)
    ONYX_VK_RESULT(VK_INCOMPLETE)
    ONYX_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    ONYX_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    ONYX_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    ONYX_VK_RESULT(VK_ERROR_DEVICE_LOST)
    ONYX_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    ONYX_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    ONYX_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    ONYX_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    ONYX_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    ONYX_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    ONYX_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    ONYX_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    ONYX_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    ONYX_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef ONYX_VK_RESULT
  default:
    return "VK_ERROR_UNKNOWN";
  }
}

} // namespace onyx::runtime

//===- Device.cpp - A logical Vulkan device with one compute queue --------===//
#include "runtime/Device.h"
#include "runtime/FaultInjection.h"
#include "support/FileUtilities.h"

#include "ir/Diagnostics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstring>

namespace onyx::runtime {

LogicalResult checkVk(VkResult result, StringRef call, Location loc) {
  if (result == VK_SUCCESS)
    return success();
  return emitError(loc) << call << " failed: " << getResultName(result);
}

FailureOr<std::unique_ptr<Device>>
Device::create(const Instance &instance, const DeviceInfo &info,
               const DeviceOptions &options) {
  std::unique_ptr<Device> device(new Device(instance, info, options));
  if (failed(device->init()))
    return failure();
  return device;
}

Device::~Device() {
  if (!device)
    return;
  api.vkDeviceWaitIdle(device);
  if (pipelineCache) {
    writePipelineCache();
    api.vkDestroyPipelineCache(device, pipelineCache, nullptr);
  }
  for (VkFence fence : fences)
    if (fence)
      api.vkDestroyFence(device, fence, nullptr);
  if (commandPool)
    api.vkDestroyCommandPool(device, commandPool, nullptr);
  api.vkDestroyDevice(device, nullptr);
}

LogicalResult Device::init() {
  Location loc = UnknownLoc::get(getContext());
  std::string faultError;
  if (failed(armFaultsFromEnvironment(faultError)))
    return emitError(loc) << faultError;
  // Enable the optional features onyx knows (gpu::Feature) that the device
  // has; nothing else, since features such as robust buffer access cost
  // speed.
  auto has12 = makeVkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto has11 = makeVkStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &has12);
  auto has = makeVkStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &has11);
  api.vkGetPhysicalDeviceFeatures2(info.handle, &has);

  auto use12 = makeVkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  use12.shaderFloat16 = has12.shaderFloat16;
  use12.shaderInt8 = has12.shaderInt8;
  use12.storageBuffer8BitAccess = has12.storageBuffer8BitAccess;
  use12.vulkanMemoryModel = has12.vulkanMemoryModel;
  use12.vulkanMemoryModelDeviceScope = has12.vulkanMemoryModelDeviceScope;
  auto use11 = makeVkStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &use12);
  use11.storageBuffer16BitAccess = has11.storageBuffer16BitAccess;
  auto use = makeVkStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &use11);
  use.features.shaderFloat64 = has.features.shaderFloat64;
  use.features.shaderInt64 = has.features.shaderInt64;
  use.features.shaderInt16 = has.features.shaderInt16;

  float priority = 1.0f;
  auto queueInfo = makeVkStruct<VkDeviceQueueCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueFamilyIndex = info.queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  auto createInfo = makeVkStruct<VkDeviceCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &use);
  createInfo.queueCreateInfoCount = 1;
  createInfo.pQueueCreateInfos = &queueInfo;
  if (failed(checkVk(
          api.vkCreateDevice(info.handle, &createInfo, nullptr, &device),
          "vkCreateDevice", loc)))
    return failure();
  std::string error;
  if (failed(api.loadDevice(device, error)))
    return emitError(loc) << error;
  api.vkGetDeviceQueue(device, info.queueFamily, 0, &queue);
  instance.getApi().vkGetPhysicalDeviceMemoryProperties(info.handle,
                                                        &memoryProperties);
  instance.getApi().vkGetPhysicalDeviceProperties(info.handle, &properties);

  auto poolInfo = makeVkStruct<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  poolInfo.queueFamilyIndex = info.queueFamily;
  // Executables record again into the command buffers of recordings they
  // no longer keep.
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  auto fenceInfo =
      makeVkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  auto cacheInfo = makeVkStruct<VkPipelineCacheCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
  std::vector<char> cacheData = readPipelineCache();
  cacheInfo.initialDataSize = cacheData.size();
  cacheInfo.pInitialData = cacheData.data();
  cacheBytesLoaded = cacheData.size();
  if (failed(checkVk(
          api.vkCreateCommandPool(device, &poolInfo, nullptr, &commandPool),
          "vkCreateCommandPool", loc)) ||
      llvm::any_of(fences,
                   [&](VkFence &fence) {
                     return failed(checkVk(
                         api.vkCreateFence(device, &fenceInfo, nullptr, &fence),
                         "vkCreateFence", loc));
                   }) ||
      failed(checkVk(api.vkCreatePipelineCache(device, &cacheInfo, nullptr,
                                               &pipelineCache),
                     "vkCreatePipelineCache", loc)))
    return failure();
  return success();
}

std::string Device::getPipelineCachePath() const {
  if (options.pipelineCacheDirectory.empty())
    return "";
  // Named by everything the data is valid for: a driver update or another
  // GPU gets a file of its own rather than one the driver would reject.
  char name[128];
  std::snprintf(name, sizeof(name), "pipelines-%04x-%04x-%08x-",
                properties.vendorID, properties.deviceID,
                properties.driverVersion);
  std::string file = name;
  for (uint8_t byte : properties.pipelineCacheUUID) {
    std::snprintf(name, sizeof(name), "%02x", byte);
    file += name;
  }
  llvm::SmallString<256> path(options.pipelineCacheDirectory);
  llvm::sys::path::append(path, file + ".bin");
  return std::string(path);
}

std::vector<char> Device::readPipelineCache() const {
  std::string path = getPipelineCachePath();
  if (path.empty())
    return {};
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return {};
  StringRef bytes = (*file)->getBuffer();
  // The header every pipeline cache starts with (VkPipelineCacheHeaderVersion
  // One): checked here so that a truncated file, or one of another device,
  // never reaches the driver, which need not validate it.
  VkPipelineCacheHeaderVersionOne header;
  if (bytes.size() < sizeof(header))
    return {};
  std::memcpy(&header, bytes.data(), sizeof(header));
  if (header.headerSize < sizeof(header) || header.headerSize > bytes.size() ||
      header.headerVersion != VK_PIPELINE_CACHE_HEADER_VERSION_ONE ||
      header.vendorID != properties.vendorID ||
      header.deviceID != properties.deviceID ||
      std::memcmp(header.pipelineCacheUUID, properties.pipelineCacheUUID,
                  VK_UUID_SIZE) != 0)
    return {};
  return std::vector<char>(bytes.begin(), bytes.end());
}

void Device::writePipelineCache() const {
  std::string path = getPipelineCachePath();
  size_t size = 0;
  if (path.empty() ||
      api.vkGetPipelineCacheData(device, pipelineCache, &size, nullptr) !=
          VK_SUCCESS ||
      size <= sizeof(VkPipelineCacheHeaderVersionOne) ||
      size == cacheBytesLoaded)
    return; // nothing cached, or nothing new since it was read
  std::vector<char> data(size);
  if (api.vkGetPipelineCacheData(device, pipelineCache, &size, data.data()) !=
      VK_SUCCESS)
    return;
  data.resize(size);
  if (llvm::sys::fs::create_directories(options.pipelineCacheDirectory))
    return;
  // A process starting meanwhile reads the old file or the whole new one. A
  // failure only loses the cache.
  writeFileAtomically(
      path, [&](llvm::raw_ostream &os) { os.write(data.data(), data.size()); });
}

std::optional<uint32_t>
Device::findMemoryType(uint32_t allowed, VkMemoryPropertyFlags required,
                       VkMemoryPropertyFlags preferred) const {
  std::optional<uint32_t> found;
  for (uint32_t i = 0; i < memoryProperties.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags flags = memoryProperties.memoryTypes[i].propertyFlags;
    if (!(allowed & (1u << i)) || (flags & required) != required)
      continue;
    if ((flags & preferred) == preferred)
      return i;
    if (!found)
      found = i;
  }
  return found;
}

Buffer::~Buffer() {
  const VulkanApi &api = device.getApi();
  if (mapped)
    api.vkUnmapMemory(device.getHandle(), memory);
  if (buffer)
    api.vkDestroyBuffer(device.getHandle(), buffer, nullptr);
  if (memory)
    api.vkFreeMemory(device.getHandle(), memory, nullptr);
}

uint64_t Device::getDeviceLocalHeapSize() const {
  uint64_t local = 0, any = 0;
  for (uint32_t i = 0; i < memoryProperties.memoryHeapCount; ++i) {
    const VkMemoryHeap &heap = memoryProperties.memoryHeaps[i];
    any = std::max<uint64_t>(any, heap.size);
    if (heap.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      local = std::max<uint64_t>(local, heap.size);
  }
  return local ? local : any;
}

FailureOr<std::unique_ptr<Buffer>>
Device::createBuffer(uint64_t size, MemoryKind kind, Location loc) const {
  if (failed(checkNotLost(loc)))
    return failure();
  std::unique_ptr<Buffer> result(new Buffer(*this));
  result->size = std::max<uint64_t>(size, 1);
  auto bufferInfo =
      makeVkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bufferInfo.size = result->size;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkMemoryPropertyFlags required = 0, preferred = 0;
  switch (kind) {
  case MemoryKind::Device:
    bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                       VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                       VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    break;
  case MemoryKind::Upload:
    bufferInfo.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    break;
  case MemoryKind::Readback:
    bufferInfo.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    break;
  }
  if (failed(checkVk(
          api.vkCreateBuffer(device, &bufferInfo, nullptr, &result->buffer),
          "vkCreateBuffer", loc)))
    return failure();
  VkMemoryRequirements needs;
  api.vkGetBufferMemoryRequirements(device, result->buffer, &needs);
  std::optional<uint32_t> type =
      findMemoryType(needs.memoryTypeBits, required, preferred);
  if (!type)
    return emitError(loc) << "the device has no memory type for a buffer of "
                          << size << " bytes";
  auto allocInfo = makeVkStruct<VkMemoryAllocateInfo>(
      VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocInfo.allocationSize = needs.size;
  allocInfo.memoryTypeIndex = *type;
  VkResult allocated = takeFault(FaultPoint::Alloc);
  if (allocated == VK_SUCCESS)
    allocated =
        api.vkAllocateMemory(device, &allocInfo, nullptr, &result->memory);
  if (failed(checkVk(allocated, "vkAllocateMemory", loc)) ||
      failed(checkVk(
          api.vkBindBufferMemory(device, result->buffer, result->memory, 0),
          "vkBindBufferMemory", loc)))
    return failure();
  if (kind != MemoryKind::Device) {
    void *ptr = nullptr;
    if (failed(checkVk(
            api.vkMapMemory(device, result->memory, 0, VK_WHOLE_SIZE, 0, &ptr),
            "vkMapMemory", loc)))
      return failure();
    result->mapped = static_cast<char *>(ptr);
  }
  return result;
}

LogicalResult Device::checkNotLost(Location loc) const {
  if (lostReason.empty())
    return success();
  return emitError(loc) << "device '" << info.name << "' was lost ("
                        << lostReason
                        << "); what ran on it is gone: create the device "
                           "and load the model again";
}

LogicalResult Device::checkDeviceVk(VkResult result, StringRef call,
                                    Location loc) const {
  if (result == VK_ERROR_DEVICE_LOST)
    lostReason = (call + " returned VK_ERROR_DEVICE_LOST").str();
  return checkVk(result, call, loc);
}

FailureOr<uint64_t> Device::submit(VkCommandBuffer commands,
                                   Location loc) const {
  if (failed(checkNotLost(loc)))
    return failure();
  if (pending.size() == kMaxSubmissions)
    return emitError(loc) << kMaxSubmissions << " submissions to device '"
                          << info.name
                          << "' are still running; wait for one first";
  // The fence no submission in flight signals.
  unsigned index = 0;
  while (llvm::any_of(pending, [&](auto p) { return p.second == index; }))
    ++index;
  VkFence fence = fences[index];
  auto submit = makeVkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  if (failed(
          checkVk(api.vkResetFences(device, 1, &fence), "vkResetFences", loc)))
    return failure();
  VkResult submitted = takeFault(FaultPoint::Submit);
  if (submitted == VK_SUCCESS)
    submitted = api.vkQueueSubmit(queue, 1, &submit, fence);
  if (failed(checkDeviceVk(submitted, "vkQueueSubmit", loc)))
    return failure();
  pending.push_back({++numSubmissions, index});
  return numSubmissions;
}

LogicalResult Device::waitFor(uint64_t number, Location loc) const {
  SmallVector<VkFence, kMaxSubmissions> waited;
  for (auto [n, index] : pending)
    if (n <= number)
      waited.push_back(fences[index]);
  if (waited.empty())
    return success();
  // Generous by default: a large model on a CPU device takes minutes, but
  // a hung device must not hang the caller forever.
  uint64_t seconds = options.waitTimeoutSeconds;
  uint64_t timeoutNs = seconds > UINT64_MAX / 1000000000ull
                           ? UINT64_MAX
                           : seconds * 1000000000ull;
  VkResult result = api.vkWaitForFences(device, waited.size(), waited.data(),
                                        VK_TRUE, timeoutNs);
  // An injected failure comes after the real wait, so that no work is
  // still running on what the caller frees next: the later submissions'
  // too, since the caller gives up on them as well.
  if (VkResult injected = takeFault(FaultPoint::Wait); injected != VK_SUCCESS) {
    if (result == VK_SUCCESS && waited.size() < pending.size()) {
      SmallVector<VkFence, kMaxSubmissions> all;
      for (auto [n, index] : pending)
        all.push_back(fences[index]);
      result = api.vkWaitForFences(device, all.size(), all.data(), VK_TRUE,
                                   timeoutNs);
    }
    if (result == VK_SUCCESS)
      result = injected;
  }
  if (result != VK_SUCCESS) {
    // A failed wait leaves nothing that a later wait could finish.
    pending.clear();
  } else {
    llvm::erase_if(pending, [&](auto p) { return p.first <= number; });
  }
  if (result == VK_TIMEOUT) {
    // The kernel may still be running and may never stop: nothing it
    // uses can be reused, so the device counts as lost.
    lostReason = "a wait timed out";
    return emitError(loc) << "device '" << info.name
                          << "' did not finish its work within " << seconds
                          << " s (--gpu-timeout); it is treated as lost";
  }
  return checkDeviceVk(result, "vkWaitForFences", loc);
}

LogicalResult Device::wait(Location loc) const {
  return waitFor(numSubmissions, loc);
}

LogicalResult Device::submitAndWait(VkCommandBuffer commands,
                                    Location loc) const {
  FailureOr<uint64_t> number = submit(commands, loc);
  if (failed(number))
    return failure();
  return waitFor(*number, loc);
}

LogicalResult Device::runOnce(llvm::function_ref<void(VkCommandBuffer)> record,
                              Location loc) const {
  auto allocInfo = makeVkStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocInfo.commandPool = commandPool;
  allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocInfo.commandBufferCount = 1;
  VkCommandBuffer commands;
  if (failed(
          checkVk(api.vkAllocateCommandBuffers(device, &allocInfo, &commands),
                  "vkAllocateCommandBuffers", loc)))
    return failure();
  auto begin = makeVkStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  LogicalResult result = checkVk(api.vkBeginCommandBuffer(commands, &begin),
                                 "vkBeginCommandBuffer", loc);
  if (succeeded(result)) {
    record(commands);
    result =
        checkVk(api.vkEndCommandBuffer(commands), "vkEndCommandBuffer", loc);
  }
  if (succeeded(result))
    result = submitAndWait(commands, loc);
  api.vkFreeCommandBuffers(device, commandPool, 1, &commands);
  return result;
}

} // namespace onyx::runtime

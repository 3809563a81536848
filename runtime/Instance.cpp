//===- Instance.cpp - The Vulkan instance and its devices -----------------===//
#include "runtime/Instance.h"

#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "support/Sanitizers.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>

#ifdef ONYX_LEAK_CHECKED
#include <dlfcn.h>
#include <link.h>
#endif

namespace onyx::runtime {

#ifdef ONYX_LEAK_CHECKED
/// LeakSanitizer reports at exit, after vkDestroyInstance has unloaded the
/// driver and the layers: the frames of their own leaks (the validation
/// layer's synchronization checks never free a command buffer's state, for
/// one) would then name no module, and the suppressions that name those
/// libraries (test/sanitize/lsan.supp) could not match. Sanitizer builds keep
/// every library loaded now mapped until the process exits.
static void keepLoadedLibrariesMapped() {
  std::vector<std::string> paths;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        if (info->dlpi_name && info->dlpi_name[0])
          static_cast<std::vector<std::string> *>(data)->push_back(
              info->dlpi_name);
        return 0;
      },
      &paths);
  // RTLD_NOLOAD opens only what is loaded and marks it never to unload.
  for (const std::string &path : paths)
    if (void *handle =
            dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE))
      dlclose(handle);
}
#endif

static constexpr const char *kValidationLayer = "VK_LAYER_KHRONOS_validation";
/// The oldest Vulkan whose features onyx queries and relies on
/// (VkPhysicalDeviceVulkan11/12Features, vkCmdDispatchBase).
static constexpr uint32_t kMinApiVersion = VK_API_VERSION_1_2;

static std::string formatVersion(uint32_t v) {
  return llvm::formatv("{0}.{1}.{2}", VK_API_VERSION_MAJOR(v),
                       VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

static StringRef getTypeName(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return "CPU";
  default:
    return "other";
  }
}

std::string DeviceInfo::describe() const {
  std::string text =
      llvm::formatv("{0}: {1}, Vulkan {2}, {3}", name, getTypeName(type),
                    formatVersion(apiVersion), driver);
  if (!isUsable())
    text += " (unusable: " + unusableReason + ")";
  return text;
}

FailureOr<std::unique_ptr<Instance>>
Instance::create(Context *ctx, const InstanceOptions &options) {
  std::unique_ptr<Instance> instance(new Instance(ctx));
  if (failed(instance->init(options)))
    return failure();
  return instance;
}

Instance::~Instance() {
  if (messenger)
    api.vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
  if (instance)
    api.vkDestroyInstance(instance, nullptr);
}

/// Whether the loader or `layer` offers instance extension `name`.
static bool hasInstanceExtension(const VulkanApi &api, const char *layer,
                                 StringRef name) {
  uint32_t count = 0;
  api.vkEnumerateInstanceExtensionProperties(layer, &count, nullptr);
  std::vector<VkExtensionProperties> props(count);
  api.vkEnumerateInstanceExtensionProperties(layer, &count, props.data());
  return llvm::any_of(props, [&](const VkExtensionProperties &p) {
    return name == p.extensionName;
  });
}

static bool hasLayer(const VulkanApi &api, StringRef name) {
  uint32_t count = 0;
  api.vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> props(count);
  api.vkEnumerateInstanceLayerProperties(&count, props.data());
  return llvm::any_of(
      props, [&](const VkLayerProperties &p) { return name == p.layerName; });
}

LogicalResult Instance::init(const InstanceOptions &options) {
  Location loc = UnknownLoc::get(ctx);
  std::string error;
  if (failed(api.loadGlobal(options.loaderLibrary, error)))
    return emitError(loc) << "cannot load the Vulkan loader '"
                          << options.loaderLibrary << "' (" << error
                          << "); install libvulkan1 and a Vulkan driver "
                             "(mesa-vulkan-drivers runs Vulkan on the CPU)";

  const char *env = std::getenv("ONYX_VULKAN_VALIDATION");
  validation = options.validation || (env && StringRef(env) == "1");

  uint32_t loaderVersion = VK_API_VERSION_1_0;
  api.vkEnumerateInstanceVersion(&loaderVersion);
  if (loaderVersion < kMinApiVersion)
    return emitError(loc) << "the Vulkan loader supports Vulkan "
                          << formatVersion(loaderVersion)
                          << "; onyx needs 1.2 or newer";

  SmallVector<const char *, 4> layers, extensions;
  auto features = makeVkStruct<VkValidationFeaturesEXT>(
      VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT);
  VkValidationFeatureEnableEXT syncValidation =
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  auto messengerInfo = makeVkStruct<VkDebugUtilsMessengerCreateInfoEXT>(
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  messengerInfo.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messengerInfo.pfnUserCallback = &Instance::onMessage;
  messengerInfo.pUserData = this;

  auto info = makeVkStruct<VkInstanceCreateInfo>(
      VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  if (validation) {
    if (!hasLayer(api, kValidationLayer))
      return emitError(loc)
             << "Vulkan validation was asked for but " << kValidationLayer
             << " is not installed (vulkan-validationlayers)";
    if (!hasInstanceExtension(api, kValidationLayer,
                              VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
      return emitError(loc) << "the validation layer does not offer "
                            << VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    // The messenger in the chain also hears about instance creation and
    // destruction; synchronization validation checks the barriers.
    info.pNext = &messengerInfo;
    if (hasInstanceExtension(api, kValidationLayer,
                             VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
      extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
      features.enabledValidationFeatureCount = 1;
      features.pEnabledValidationFeatures = &syncValidation;
      messengerInfo.pNext = &features;
    }
  }

  auto app =
      makeVkStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "onyx";
  app.pEngineName = "onyx";
  app.apiVersion = std::min<uint32_t>(loaderVersion, VK_API_VERSION_1_3);
  info.pApplicationInfo = &app;
  info.enabledLayerCount = layers.size();
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = extensions.size();
  info.ppEnabledExtensionNames = extensions.data();

  VkResult result = api.vkCreateInstance(&info, nullptr, &instance);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
    return emitError(loc) << "no Vulkan driver is installed; install one for "
                             "your GPU, or mesa-vulkan-drivers to run on the "
                             "CPU";
  if (result != VK_SUCCESS)
    return emitError(loc) << "vkCreateInstance failed: "
                          << getResultName(result);
#ifdef ONYX_LEAK_CHECKED
  keepLoadedLibrariesMapped();
#endif
  if (failed(api.loadInstance(instance, validation, error)))
    return emitError(loc) << error;
  if (validation) {
    messengerInfo.pNext = nullptr;
    result = api.vkCreateDebugUtilsMessengerEXT(instance, &messengerInfo,
                                                nullptr, &messenger);
    if (result != VK_SUCCESS)
      return emitError(loc) << "vkCreateDebugUtilsMessengerEXT failed: "
                            << getResultName(result);
  }
  return enumerateDevices();
}

VKAPI_ATTR VkBool32 VKAPI_CALL Instance::onMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity,
    VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *self) {
  auto *instance = static_cast<Instance *>(self);
  std::string text = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
                         ? "error: "
                         : "warning: ";
  text += data && data->pMessage ? data->pMessage : "(no message)";
  // Drivers may call back from their own threads.
  std::lock_guard<std::mutex> lock(instance->messagesMutex);
  instance->messages.push_back(std::move(text));
  return VK_FALSE;
}

std::vector<std::string> Instance::getValidationMessages() const {
  std::lock_guard<std::mutex> lock(messagesMutex);
  return messages;
}

size_t Instance::getValidationMessageCount() const {
  std::lock_guard<std::mutex> lock(messagesMutex);
  return messages.size();
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

/// The features and limits of a device as a target description.
static gpu::TargetDesc
getTarget(const VkPhysicalDeviceProperties &props,
          const VkPhysicalDeviceVulkan11Properties &props11,
          const VkPhysicalDeviceFeatures &core,
          const VkPhysicalDeviceVulkan11Features &f11,
          const VkPhysicalDeviceVulkan12Features &f12) {
  using gpu::Feature;
  gpu::TargetDesc target;
  if (props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
    target.kind = gpu::DeviceKind::Cpu;
  auto add = [&](bool supported, Feature feature) {
    if (supported)
      target.features.insert(feature);
  };
  add(f12.shaderFloat16, Feature::Float16);
  add(core.shaderFloat64, Feature::Float64);
  add(f12.shaderInt8, Feature::Int8);
  add(core.shaderInt16, Feature::Int16);
  add(core.shaderInt64, Feature::Int64);
  add(f12.storageBuffer8BitAccess, Feature::StorageBuffer8Bit);
  add(f11.storageBuffer16BitAccess, Feature::StorageBuffer16Bit);
  add(f12.vulkanMemoryModel && f12.vulkanMemoryModelDeviceScope,
      Feature::VulkanMemoryModel);
  if (props11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) {
    VkSubgroupFeatureFlags ops = props11.subgroupSupportedOperations;
    add(ops & VK_SUBGROUP_FEATURE_BASIC_BIT, Feature::SubgroupBasic);
    add(ops & VK_SUBGROUP_FEATURE_VOTE_BIT, Feature::SubgroupVote);
    add(ops & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, Feature::SubgroupArithmetic);
    add(ops & VK_SUBGROUP_FEATURE_BALLOT_BIT, Feature::SubgroupBallot);
    add(ops & VK_SUBGROUP_FEATURE_SHUFFLE_BIT, Feature::SubgroupShuffle);
    add(ops & VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT,
        Feature::SubgroupShuffleRelative);
    add(ops & VK_SUBGROUP_FEATURE_CLUSTERED_BIT, Feature::SubgroupClustered);
    add(ops & VK_SUBGROUP_FEATURE_QUAD_BIT, Feature::SubgroupQuad);
  }
  const VkPhysicalDeviceLimits &limits = props.limits;
  target.maxStorageBufferRange = limits.maxStorageBufferRange;
  target.maxPushConstantsSize = limits.maxPushConstantsSize;
  target.maxComputeSharedMemorySize = limits.maxComputeSharedMemorySize;
  target.maxComputeWorkGroupInvocations = limits.maxComputeWorkGroupInvocations;
  for (unsigned i = 0; i < 3; ++i)
    target.maxComputeWorkGroupSize[i] = limits.maxComputeWorkGroupSize[i];
  target.minStorageBufferOffsetAlignment =
      uint32_t(limits.minStorageBufferOffsetAlignment);
  target.maxPerStageDescriptorStorageBuffers =
      limits.maxPerStageDescriptorStorageBuffers;
  target.subgroupSize = props11.subgroupSize;
  return target;
}

namespace {

/// A query's struct (`head`) with its Vulkan 1.1 and 1.2 parts chained
/// behind it, the way both the properties and the features are queried.
template <typename Head, typename V11, typename V12> struct VersionChain {
  VersionChain(VkStructureType headType, VkStructureType v11Type,
               VkStructureType v12Type)
      : v12(makeVkStruct<V12>(v12Type)), v11(makeVkStruct<V11>(v11Type, &v12)),
        head(makeVkStruct<Head>(headType, &v11)) {}
  VersionChain(const VersionChain &) = delete;
  VersionChain &operator=(const VersionChain &) = delete;

  // Declared in this order so that each is built before what points to it.
  V12 v12;
  V11 v11;
  Head head;
};

} // namespace

/// Fills in what needs Vulkan 1.2 queries; the device is known to have it.
static void describeDevice(const VulkanApi &api, DeviceInfo &info) {
  VersionChain<VkPhysicalDeviceProperties2, VkPhysicalDeviceVulkan11Properties,
               VkPhysicalDeviceVulkan12Properties>
      props(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);
  api.vkGetPhysicalDeviceProperties2(info.handle, &props.head);
  info.driver = props.v12.driverName;

  VersionChain<VkPhysicalDeviceFeatures2, VkPhysicalDeviceVulkan11Features,
               VkPhysicalDeviceVulkan12Features>
      features(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  api.vkGetPhysicalDeviceFeatures2(info.handle, &features.head);

  const VkPhysicalDeviceLimits &limits = props.head.properties.limits;
  info.target = getTarget(props.head.properties, props.v11,
                          features.head.features, features.v11, features.v12);
  info.timestampPeriodNs = limits.timestampPeriod;
  for (unsigned i = 0; i < 3; ++i)
    info.maxWorkGroupCount[i] = limits.maxComputeWorkGroupCount[i];
  info.maxMemoryAllocationSize = props.v11.maxMemoryAllocationSize;

  // Prefer a compute queue that can also write timestamps.
  uint32_t count = 0;
  api.vkGetPhysicalDeviceQueueFamilyProperties(info.handle, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  api.vkGetPhysicalDeviceQueueFamilyProperties(info.handle, &count,
                                               families.data());
  std::optional<uint32_t> chosen;
  for (uint32_t i = 0; i < count; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
      continue;
    if (!chosen || (families[i].timestampValidBits &&
                    !families[*chosen].timestampValidBits))
      chosen = i;
  }
  if (!chosen) {
    info.unusableReason = "it has no compute queue";
    return;
  }
  info.queueFamily = *chosen;
  info.timestampValidBits = families[*chosen].timestampValidBits;
  info.hasTimestamps = info.timestampValidBits != 0;
}

LogicalResult Instance::enumerateDevices() {
  uint32_t count = 0;
  VkResult result = api.vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> handles(count);
  if (result == VK_SUCCESS)
    result = api.vkEnumeratePhysicalDevices(instance, &count, handles.data());
  if (result != VK_SUCCESS && result != VK_INCOMPLETE)
    return emitError(UnknownLoc::get(ctx))
           << "vkEnumeratePhysicalDevices failed: " << getResultName(result);
  for (uint32_t i = 0; i < count; ++i) {
    DeviceInfo info;
    info.index = i;
    info.handle = handles[i];
    VkPhysicalDeviceProperties props;
    api.vkGetPhysicalDeviceProperties(handles[i], &props);
    info.name = props.deviceName;
    info.type = props.deviceType;
    info.apiVersion = props.apiVersion;
    if (props.apiVersion < kMinApiVersion)
      info.unusableReason = "onyx needs Vulkan 1.2 or newer";
    else
      describeDevice(api, info);
    devices.push_back(std::move(info));
  }
  return success();
}

/// Lower is preferred: discrete GPUs first, the CPU (lavapipe) last.
static unsigned getPreference(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return 0;
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return 1;
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return 2;
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return 3;
  default:
    return 4;
  }
}

FailureOr<const DeviceInfo *>
Instance::selectDevice(std::optional<unsigned> index) const {
  Location loc = UnknownLoc::get(ctx);
  if (devices.empty())
    return emitError(loc) << "no Vulkan device found; install a driver for "
                             "your GPU, or mesa-vulkan-drivers to run on the "
                             "CPU";
  if (index) {
    if (*index >= devices.size())
      return emitError(loc)
             << "there is no Vulkan device " << *index << "; found "
             << unsigned(devices.size()) << " (list them with --list-devices)";
    const DeviceInfo &info = devices[*index];
    if (!info.isUsable())
      return emitError(loc) << "Vulkan device " << *index << " (" << info.name
                            << ") cannot run onyx: " << info.unusableReason;
    return &info;
  }
  const DeviceInfo *best = nullptr;
  for (const DeviceInfo &info : devices)
    if (info.isUsable() &&
        (!best || getPreference(info.type) < getPreference(best->type)))
      best = &info;
  if (best)
    return best;
  InFlightDiagnostic diag = emitError(loc) << "no Vulkan device can run onyx";
  for (const DeviceInfo &info : devices)
    diag.attachNote() << info.describe();
  return failure();
}

} // namespace onyx::runtime

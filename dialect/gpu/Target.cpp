//===- Target.cpp - What a gpu-dialect module needs from a device ---------===//
#include "dialect/gpu/Target.h"

#include "ir/Parser.h"

#include "ir/Builder.h"
#include "ir/Operation.h"

#include "llvm/Support/MathExtras.h"

#include <spirv/unified1/spirv.hpp>

namespace onyx::gpu {

namespace {
struct FeatureEntry {
  Feature feature;
  const char *name;
};
} // namespace

static constexpr FeatureEntry kFeatures[kNumFeatures] = {
    {Feature::Float16, "float16"},
    {Feature::Float64, "float64"},
    {Feature::Int8, "int8"},
    {Feature::Int16, "int16"},
    {Feature::Int64, "int64"},
    {Feature::StorageBuffer8Bit, "storage_buffer_8bit"},
    {Feature::StorageBuffer16Bit, "storage_buffer_16bit"},
    {Feature::SubgroupBasic, "subgroup_basic"},
    {Feature::SubgroupVote, "subgroup_vote"},
    {Feature::SubgroupArithmetic, "subgroup_arithmetic"},
    {Feature::SubgroupBallot, "subgroup_ballot"},
    {Feature::SubgroupShuffle, "subgroup_shuffle"},
    {Feature::SubgroupShuffleRelative, "subgroup_shuffle_relative"},
    {Feature::SubgroupClustered, "subgroup_clustered"},
    {Feature::SubgroupQuad, "subgroup_quad"},
    {Feature::VulkanMemoryModel, "vulkan_memory_model"},
};

StringRef getFeatureName(Feature feature) {
  for (const FeatureEntry &e : kFeatures)
    if (e.feature == feature)
      return e.name;
  llvm_unreachable("feature without a name");
}

std::optional<Feature> parseFeatureName(StringRef name) {
  for (const FeatureEntry &e : kFeatures)
    if (name == e.name)
      return e.feature;
  return std::nullopt;
}

CapabilityRequirement getCapabilityRequirement(uint32_t capability) {
  auto needs = [](Feature f) { return CapabilityRequirement{true, f}; };
  switch (spv::Capability(capability)) {
  case spv::CapabilityMatrix:
  case spv::CapabilityShader:
    return {true, std::nullopt};
  case spv::CapabilityFloat16:
    return needs(Feature::Float16);
  case spv::CapabilityFloat64:
    return needs(Feature::Float64);
  case spv::CapabilityInt8:
    return needs(Feature::Int8);
  case spv::CapabilityInt16:
    return needs(Feature::Int16);
  case spv::CapabilityInt64:
    return needs(Feature::Int64);
  case spv::CapabilityStorageBuffer8BitAccess:
    return needs(Feature::StorageBuffer8Bit);
  case spv::CapabilityStorageBuffer16BitAccess:
    return needs(Feature::StorageBuffer16Bit);
  case spv::CapabilityGroupNonUniform:
    return needs(Feature::SubgroupBasic);
  case spv::CapabilityGroupNonUniformVote:
    return needs(Feature::SubgroupVote);
  case spv::CapabilityGroupNonUniformArithmetic:
    return needs(Feature::SubgroupArithmetic);
  case spv::CapabilityGroupNonUniformBallot:
    return needs(Feature::SubgroupBallot);
  case spv::CapabilityGroupNonUniformShuffle:
    return needs(Feature::SubgroupShuffle);
  case spv::CapabilityGroupNonUniformShuffleRelative:
    return needs(Feature::SubgroupShuffleRelative);
  case spv::CapabilityGroupNonUniformClustered:
    return needs(Feature::SubgroupClustered);
  case spv::CapabilityGroupNonUniformQuad:
    return needs(Feature::SubgroupQuad);
  case spv::CapabilityVulkanMemoryModel:
  case spv::CapabilityVulkanMemoryModelDeviceScope:
    return needs(Feature::VulkanMemoryModel);
  default:
    return {false, std::nullopt};
  }
}

//===----------------------------------------------------------------------===//
// Kernel choices
//===----------------------------------------------------------------------===//

namespace {
struct DeviceKindEntry {
  DeviceKind kind;
  const char *name;
  KernelChoices choices;
};
} // namespace

static constexpr DeviceKindEntry kDeviceKinds[] = {
    // splitGemmK, minGemmWorkgroups, gemmThreadBlock, depthwiseRun,
    // kContiguousStepK
    {DeviceKind::Gpu, "gpu", {true, 64, 0, 0, 32}},
    // Measured on lavapipe (2 cores): a 240 x 128 x 960 product takes 420
    // ms split into 64 x 64 tiles of 4 x 4, 230 ms whole in 128 x 128
    // tiles of 8 x 8.
    {DeviceKind::Cpu, "cpu", {false, 2, 8, 8, 0}},
};

const KernelChoices &getKernelChoices(DeviceKind kind) {
  for (const DeviceKindEntry &e : kDeviceKinds)
    if (e.kind == kind)
      return e.choices;
  llvm_unreachable("device kind without kernel choices");
}

StringRef getDeviceKindName(DeviceKind kind) {
  for (const DeviceKindEntry &e : kDeviceKinds)
    if (e.kind == kind)
      return e.name;
  llvm_unreachable("device kind without a name");
}

std::optional<DeviceKind> parseDeviceKind(StringRef name) {
  for (const DeviceKindEntry &e : kDeviceKinds)
    if (name == e.name)
      return e.kind;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Attribute form
//===----------------------------------------------------------------------===//

namespace {
/// The limits of TargetDesc by attribute name, so that reading, writing and
/// comparing them cannot disagree.
struct LimitEntry {
  const char *name;
  uint64_t TargetDesc::*wide = nullptr;
  uint32_t TargetDesc::*narrow = nullptr;
  /// Device values at least as large as the module's satisfy it; otherwise
  /// (alignment) at most as large.
  bool largerIsBetter = true;

  uint64_t get(const TargetDesc &t) const { return wide ? t.*wide : t.*narrow; }
  void set(TargetDesc &t, uint64_t v) const {
    if (wide)
      t.*wide = v;
    else
      t.*narrow = uint32_t(v);
  }
  uint64_t getMax() const { return wide ? UINT64_MAX : UINT32_MAX; }
};
} // namespace

static const LimitEntry kLimits[] = {
    {"max_compute_shared_memory_size", nullptr,
     &TargetDesc::maxComputeSharedMemorySize},
    {"max_compute_workgroup_invocations", nullptr,
     &TargetDesc::maxComputeWorkGroupInvocations},
    {"max_per_stage_descriptor_storage_buffers", nullptr,
     &TargetDesc::maxPerStageDescriptorStorageBuffers},
    {"max_push_constants_size", nullptr, &TargetDesc::maxPushConstantsSize},
    {"max_storage_buffer_range", &TargetDesc::maxStorageBufferRange, nullptr},
    {"min_storage_buffer_offset_alignment", nullptr,
     &TargetDesc::minStorageBufferOffsetAlignment, /*largerIsBetter=*/false},
};
static constexpr StringRef kFeaturesKey = "features";
static constexpr StringRef kWorkGroupSizeKey = "max_compute_workgroup_size";
static constexpr StringRef kSubgroupSizeKey = "subgroup_size";
static constexpr StringRef kDeviceKindKey = "kind";

/// A non-negative integer that fits in `max`.
static std::optional<uint64_t> getUnsigned(Attribute attr, uint64_t max) {
  auto intAttr = dyn_cast<IntegerAttr>(attr);
  if (!intAttr || intAttr.getValue().isNegative() ||
      intAttr.getValue().getActiveBits() > 64 || intAttr.getUInt() > max)
    return std::nullopt;
  return intAttr.getUInt();
}

FailureOr<TargetDesc> TargetDesc::fromAttr(DictionaryAttr attr,
                                           std::optional<Location> loc) {
  auto fail = [&](const llvm::Twine &message) -> FailureOr<TargetDesc> {
    if (loc)
      emitError(*loc) << "'" << getAttrName() << "' " << message;
    return failure();
  };
  TargetDesc target;
  for (const NamedAttribute &entry : attr) {
    StringRef key = entry.getName();
    if (key == kFeaturesKey) {
      auto list = dyn_cast<ArrayAttr>(entry.value);
      if (!list)
        return fail("expects 'features' to be an array of strings");
      for (Attribute a : list) {
        auto name = dyn_cast<StringAttr>(a);
        if (!name)
          return fail("expects 'features' to be an array of strings");
        std::optional<Feature> feature = parseFeatureName(name.getValue());
        if (!feature)
          return fail("has unknown feature '" + name.getValue() + "'");
        target.features.insert(*feature);
      }
      continue;
    }
    if (key == kWorkGroupSizeKey) {
      auto list = dyn_cast<ArrayAttr>(entry.value);
      if (!list || list.size() != 3)
        return fail("expects '" + key + "' to be an array of 3 integers");
      for (unsigned i = 0; i < 3; ++i) {
        std::optional<uint64_t> v = getUnsigned(list[i], UINT32_MAX);
        if (!v || *v == 0)
          return fail("expects '" + key + "' to hold positive 32-bit integers");
        target.maxComputeWorkGroupSize[i] = uint32_t(*v);
      }
      continue;
    }
    if (key == kDeviceKindKey) {
      auto name = dyn_cast<StringAttr>(entry.value);
      std::optional<DeviceKind> kind =
          name ? parseDeviceKind(name.getValue()) : std::nullopt;
      if (!kind)
        return fail("expects 'kind' to be \"gpu\" or \"cpu\"");
      target.kind = *kind;
      continue;
    }
    if (key == kSubgroupSizeKey) {
      std::optional<uint64_t> v = getUnsigned(entry.value, UINT32_MAX);
      if (!v || !llvm::isPowerOf2_64(*v))
        return fail("expects 'subgroup_size' to be a power of two");
      target.subgroupSize = uint32_t(*v);
      continue;
    }
    const LimitEntry *limit = llvm::find_if(
        kLimits, [&](const LimitEntry &l) { return key == l.name; });
    if (limit == std::end(kLimits))
      return fail("has unknown entry '" + key + "'");
    std::optional<uint64_t> v = getUnsigned(entry.value, limit->getMax());
    if (!v || *v == 0)
      return fail("expects '" + key + "' to be a positive integer that fits " +
                  (limit->wide ? "64" : "32") + " bits");
    if (!limit->largerIsBetter && !llvm::isPowerOf2_64(*v))
      return fail("expects '" + key + "' to be a power of two");
    limit->set(target, *v);
  }
  return target;
}

/// Every optional feature: the devices below have them all.
static FeatureSet allFeatures() {
  FeatureSet set;
  for (unsigned i = 0; i < kNumFeatures; ++i)
    set.insert(Feature(1u << i));
  return set;
}

ArrayRef<StringRef> TargetDesc::getNamedTargets() {
  static const StringRef names[] = {"vulkan", "lavapipe", "nvidia"};
  return names;
}

FailureOr<TargetDesc> TargetDesc::parse(StringRef text, Context *ctx,
                                        std::string &error) {
  TargetDesc target;
  text = text.trim();
  if (text == "vulkan")
    return target;
  if (text == "lavapipe") {
    // Mesa 22 llvmpipe, as vulkaninfo reports it.
    target.kind = DeviceKind::Cpu;
    target.features = allFeatures();
    target.maxStorageBufferRange = uint64_t(1) << 27;
    target.maxPushConstantsSize = 128;
    target.maxComputeSharedMemorySize = 32768;
    target.maxComputeWorkGroupInvocations = 1024;
    target.maxComputeWorkGroupSize = {1024, 1024, 1024};
    target.minStorageBufferOffsetAlignment = 16;
    target.maxPerStageDescriptorStorageBuffers = 32;
    target.subgroupSize = 8;
    return target;
  }
  if (text == "nvidia") {
    // NVIDIA Hopper (H100, H200) with the 5xx Vulkan driver.
    target.features = allFeatures();
    target.maxStorageBufferRange = (uint64_t(1) << 32) - 1;
    target.maxPushConstantsSize = 256;
    target.maxComputeSharedMemorySize = 49152;
    target.maxComputeWorkGroupInvocations = 1024;
    target.maxComputeWorkGroupSize = {1024, 1024, 64};
    target.minStorageBufferOffsetAlignment = 16;
    target.maxPerStageDescriptorStorageBuffers = 1u << 20;
    target.subgroupSize = 32;
    return target;
  }
  if (!text.starts_with("{")) {
    error = "unknown target '" + text.str() +
            "'; expected vulkan, lavapipe, nvidia or a dictionary such as "
            "{features = [\"int64\"], max_compute_shared_memory_size = 32768}";
    return failure();
  }
  auto dict = dyn_cast_or_null<DictionaryAttr>(parseAttribute(text, ctx));
  if (!dict) {
    error = "expected a dictionary attribute describing the target";
    return failure();
  }
  // Report through the context's handler, like other IR errors.
  FailureOr<TargetDesc> parsed = fromAttr(dict, UnknownLoc::get(ctx));
  if (failed(parsed))
    error = "invalid target description";
  return parsed;
}

FailureOr<TargetDesc> TargetDesc::lookup(Operation *op, bool report) {
  for (; op; op = op->getParentOp()) {
    Attribute attr = op->getAttr(getAttrName());
    if (!attr)
      continue;
    std::optional<Location> loc;
    if (report)
      loc = op->getLoc();
    auto dict = dyn_cast<DictionaryAttr>(attr);
    if (!dict) {
      if (loc)
        emitError(*loc) << "'" << getAttrName()
                        << "' must be a dictionary attribute";
      return failure();
    }
    return fromAttr(dict, loc);
  }
  return TargetDesc();
}

DictionaryAttr TargetDesc::toAttr(Context *ctx) const {
  Builder b(ctx);
  const TargetDesc defaults;
  SmallVector<NamedAttribute> entries;
  if (!features.empty()) {
    SmallVector<Attribute> names;
    for (const FeatureEntry &e : kFeatures)
      if (features.contains(e.feature))
        names.push_back(b.getStringAttr(e.name));
    entries.push_back(b.getNamedAttr(kFeaturesKey, b.getArrayAttr(names)));
  }
  for (const LimitEntry &limit : kLimits)
    if (limit.get(*this) != limit.get(defaults))
      entries.push_back(b.getNamedAttr(
          limit.name, b.getI64IntegerAttr(int64_t(limit.get(*this)))));
  if (maxComputeWorkGroupSize != defaults.maxComputeWorkGroupSize)
    entries.push_back(b.getNamedAttr(
        kWorkGroupSizeKey, b.getI64ArrayAttr({maxComputeWorkGroupSize[0],
                                              maxComputeWorkGroupSize[1],
                                              maxComputeWorkGroupSize[2]})));
  if (subgroupSize)
    entries.push_back(
        b.getNamedAttr(kSubgroupSizeKey, b.getI64IntegerAttr(subgroupSize)));
  if (kind != defaults.kind)
    entries.push_back(b.getNamedAttr(kDeviceKindKey,
                                     b.getStringAttr(getDeviceKindName(kind))));
  return b.getDictionaryAttr(entries);
}

SmallVector<std::string>
TargetDesc::findUnmet(const TargetDesc &required) const {
  SmallVector<std::string> unmet;
  for (const FeatureEntry &e : kFeatures)
    if (required.features.contains(e.feature) && !features.contains(e.feature))
      unmet.push_back("feature '" + std::string(e.name) + "' is not supported");
  auto describe = [&](StringRef name, uint64_t need, uint64_t have) {
    unmet.push_back((name + ": the module needs " + llvm::Twine(need) +
                     ", the device has " + llvm::Twine(have))
                        .str());
  };
  for (const LimitEntry &limit : kLimits) {
    uint64_t need = limit.get(required), have = limit.get(*this);
    if (limit.largerIsBetter ? have < need : have > need)
      describe(limit.name, need, have);
  }
  for (unsigned i = 0; i < 3; ++i)
    if (maxComputeWorkGroupSize[i] < required.maxComputeWorkGroupSize[i])
      describe((kWorkGroupSizeKey + "[" + llvm::Twine(i) + "]").str(),
               required.maxComputeWorkGroupSize[i], maxComputeWorkGroupSize[i]);
  if (required.subgroupSize && required.subgroupSize != subgroupSize)
    describe(kSubgroupSizeKey, required.subgroupSize, subgroupSize);
  return unmet;
}

} // namespace onyx::gpu

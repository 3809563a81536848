//===- Target.h - What a gpu-dialect module needs from a device -*- C++ -*-===//
//
// A TargetDesc is the set of optional device features and the limits that a
// module assumes. Lowering compiles for one (the device onyx-run runs on, or
// a described target), records it on the module as the `gpu.target`
// dictionary attribute, the dialect's verifiers check kernels and dispatches
// against it, and the runtime checks at load that its device meets it.
// Limits missing from the attribute take the minimum every Vulkan device
// guarantees, so a module without the attribute runs anywhere.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Attributes.h"
#include "ir/Location.h"

#include <array>
#include <optional>
#include <string>

namespace onyx::gpu {

/// Optional device features a kernel may use. Each maps to Vulkan feature
/// bits the runtime enables and to SPIR-V capabilities the verifier accepts.
enum class Feature : uint32_t {
  Float16 = 1u << 0,
  Float64 = 1u << 1,
  Int8 = 1u << 2,
  Int16 = 1u << 3,
  Int64 = 1u << 4,
  StorageBuffer8Bit = 1u << 5,
  StorageBuffer16Bit = 1u << 6,
  SubgroupBasic = 1u << 7,
  SubgroupVote = 1u << 8,
  SubgroupArithmetic = 1u << 9,
  SubgroupBallot = 1u << 10,
  SubgroupShuffle = 1u << 11,
  SubgroupShuffleRelative = 1u << 12,
  SubgroupClustered = 1u << 13,
  SubgroupQuad = 1u << 14,
  VulkanMemoryModel = 1u << 15,
};
inline constexpr unsigned kNumFeatures = 16;

/// The spelling in the `features` list of `gpu.target`, e.g. "float16".
StringRef getFeatureName(Feature feature);
std::optional<Feature> parseFeatureName(StringRef name);

/// What using SPIR-V capability `capability` requires: nothing (capabilities
/// every Vulkan compute device has), one feature, or - for capabilities onyx
/// does not know - an error (nullopt with `known` false).
struct CapabilityRequirement {
  bool known = false;
  std::optional<Feature> feature;
};
CapabilityRequirement getCapabilityRequirement(uint32_t capability);

class FeatureSet {
public:
  FeatureSet() = default;
  void insert(Feature f) { bits |= uint32_t(f); }
  bool contains(Feature f) const { return bits & uint32_t(f); }
  bool empty() const { return bits == 0; }
  bool operator==(const FeatureSet &o) const { return bits == o.bits; }

private:
  uint32_t bits = 0;
};

struct TargetDesc {
  FeatureSet features;
  // Defaults: the minimum limits the Vulkan specification guarantees (and
  // the largest alignment it allows).
  uint64_t maxStorageBufferRange = uint64_t(1) << 27;
  uint32_t maxPushConstantsSize = 128;
  uint32_t maxComputeSharedMemorySize = 16384;
  uint32_t maxComputeWorkGroupInvocations = 128;
  std::array<uint32_t, 3> maxComputeWorkGroupSize = {128, 128, 64};
  uint32_t minStorageBufferOffsetAlignment = 256;
  /// Storage buffers one kernel may bind.
  uint32_t maxPerStageDescriptorStorageBuffers = 4;
  /// The subgroup size kernels were written for; 0 if they assume none.
  uint32_t subgroupSize = 0;

  /// The name of the module attribute that holds the description.
  static StringRef getAttrName() { return "gpu.target"; }

  /// Reads the attribute form. Reports problems at `loc` if given (silently
  /// fails otherwise, for callers that know someone else reports them).
  static FailureOr<TargetDesc> fromAttr(DictionaryAttr attr,
                                        std::optional<Location> loc);
  /// The target recorded on the module enclosing `op`, the defaults if none
  /// is. Reports a malformed attribute only if `report` is set.
  static FailureOr<TargetDesc> lookup(Operation *op, bool report);

  /// A target named on a command line (`--target=`): `vulkan` (what every
  /// Vulkan device guarantees: the defaults), `lavapipe` (Mesa's CPU
  /// driver, as in CI), `nvidia` (an H100/H200 class GPU), or the attribute
  /// form written out: `{features = ["int64"], subgroup_size = 32}`.
  static FailureOr<TargetDesc> parse(StringRef text, Context *ctx,
                                     std::string &error);
  /// The names parse() knows.
  static ArrayRef<StringRef> getNamedTargets();

  /// The attribute form; limits equal to the defaults are left out.
  DictionaryAttr toAttr(Context *ctx) const;

  /// Why a device described by `*this` cannot run a module that requires
  /// `required`: one line per missing feature or insufficient limit.
  SmallVector<std::string> findUnmet(const TargetDesc &required) const;
};

} // namespace onyx::gpu

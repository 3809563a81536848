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

/// The kind of processor a device is: kernels are shaped for it (see
/// KernelChoices).
enum class DeviceKind : uint8_t { Gpu, Cpu };

/// How the lowering shapes kernels for a kind of device: choices, not
/// limits (a module compiled for one kind runs on any device that meets its
/// limits, only slower). One row per DeviceKind (getKernelChoices), so that
/// what the lowering knows of a kind of device is in one place.
struct KernelChoices {
  /// Whether a GEMM with too few output tiles to fill the device shares k
  /// among workgroups (partial sums and a second kernel adding them). A
  /// GPU needs about a thousand workgroups in flight; a CPU device runs a
  /// workgroup per core, so splitting only adds the partial sums' traffic.
  bool splitGemmK;
  /// Large GEMM tiles are halved (128 x 128 to 64 x 64) where they would
  /// make fewer workgroups than this.
  unsigned minGemmWorkgroups;
  /// The outputs per invocation (tm x tn) of every float GEMM tile of 8 or
  /// more rows and columns, 0 for the size-dependent rule: on lavapipe each
  /// invocation's load of shared memory costs a loop over the SIMD lanes,
  /// so the most outputs per value loaded is fastest.
  unsigned gemmThreadBlock;
  /// Outputs along a row that one invocation of the direct depthwise
  /// convolution kernel computes, loading each input of their windows and
  /// each weight once; 0 to run depthwise convolutions as implicit GEMMs
  /// (a batch of one-row products through shared memory, which suits a
  /// GPU).
  unsigned depthwiseRun;
  /// The step along k of GEMM tiles of 8 x 8 outputs per invocation whose
  /// operands stay contiguous along k in shared memory (a B stored [n, k]):
  /// 32 reads 128 bytes of each row and column per step, whole cache lines
  /// of a GPU; 0 keeps the step of 16.
  unsigned kContiguousStepK;
};
const KernelChoices &getKernelChoices(DeviceKind kind);
/// The spelling of `kind` in `gpu.target` ("gpu", "cpu").
StringRef getDeviceKindName(DeviceKind kind);
/// The kind spelled `name`, if any.
std::optional<DeviceKind> parseDeviceKind(StringRef name);

struct TargetDesc {
  FeatureSet features;
  /// The kind of processor: how kernels are shaped, not what they may use.
  DeviceKind kind = DeviceKind::Gpu;
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

  const KernelChoices &getKernelChoices() const {
    return gpu::getKernelChoices(kind);
  }

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

//===- KernelPipeline.h - A gpu.kernel as a compute pipeline ----*- C++ -*-===//
//
// One per kernel a loaded function dispatches, created once at load time
// through the device's pipeline cache: the shader module, a descriptor set
// layout with one storage buffer per binding, the pipeline layout with the
// push-constant range, and the pipeline (allowed a base workgroup, so that
// grids larger than the device's limit can be issued in pieces).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/GpuOps.h"
#include "runtime/Device.h"

namespace onyx::runtime {

class KernelPipeline {
public:
  static FailureOr<std::unique_ptr<KernelPipeline>>
  create(const Device &device, gpu::KernelOp kernel);
  ~KernelPipeline();
  KernelPipeline(const KernelPipeline &) = delete;
  KernelPipeline &operator=(const KernelPipeline &) = delete;

  VkPipeline getPipeline() const { return pipeline; }
  VkPipelineLayout getLayout() const { return layout; }
  VkDescriptorSetLayout getSetLayout() const { return setLayout; }
  uint32_t getPushConstantsSize() const { return pushConstantsSize; }

private:
  explicit KernelPipeline(const Device &device) : device(device) {}

  const Device &device;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  uint32_t pushConstantsSize = 0;
};

} // namespace onyx::runtime

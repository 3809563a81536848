//===- KernelPipeline.cpp - A gpu.kernel as a Vulkan compute pipeline -----===//
#include "runtime/KernelPipeline.h"
#include "runtime/FaultInjection.h"

namespace onyx::runtime {

FailureOr<std::unique_ptr<KernelPipeline>>
KernelPipeline::create(const Device &device, gpu::KernelOp kernel) {
  const VulkanApi &api = device.getApi();
  VkDevice handle = device.getHandle();
  Location loc = kernel.getLoc();
  std::unique_ptr<KernelPipeline> result(new KernelPipeline(device));

  // validateModule refuses such a module first; this guards other callers.
  if (!kernel.hasSpirv())
    return emitError(loc) << "kernel @" << kernel.getSymName()
                          << " has no SPIR-V";
  ArrayRef<uint32_t> spirv = kernel.getSpirv();
  auto moduleInfo = makeVkStruct<VkShaderModuleCreateInfo>(
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  moduleInfo.codeSize = spirv.size() * sizeof(uint32_t);
  moduleInfo.pCode = spirv.data();
  if (failed(checkVk(api.vkCreateShaderModule(handle, &moduleInfo, nullptr,
                                              &result->module),
                     "vkCreateShaderModule", loc)))
    return failure();

  SmallVector<VkDescriptorSetLayoutBinding, 8> bindings;
  for (uint32_t i = 0, e = kernel.getNumBindings(); i < e; ++i) {
    VkDescriptorSetLayoutBinding binding{};
    binding.binding = i;
    binding.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    binding.descriptorCount = 1;
    binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    bindings.push_back(binding);
  }
  auto setInfo = makeVkStruct<VkDescriptorSetLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  setInfo.bindingCount = bindings.size();
  setInfo.pBindings = bindings.data();
  if (failed(checkVk(api.vkCreateDescriptorSetLayout(handle, &setInfo, nullptr,
                                                     &result->setLayout),
                     "vkCreateDescriptorSetLayout", loc)))
    return failure();

  result->pushConstantsSize = kernel.getPushConstantsSize();
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0,
                            result->pushConstantsSize};
  auto layoutInfo = makeVkStruct<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &result->setLayout;
  layoutInfo.pushConstantRangeCount = result->pushConstantsSize ? 1 : 0;
  layoutInfo.pPushConstantRanges = &range;
  if (failed(checkVk(api.vkCreatePipelineLayout(handle, &layoutInfo, nullptr,
                                                &result->layout),
                     "vkCreatePipelineLayout", loc)))
    return failure();

  std::string entryPoint = kernel.getEntryPoint().str();
  auto pipelineInfo = makeVkStruct<VkComputePipelineCreateInfo>(
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  pipelineInfo.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;
  pipelineInfo.stage.sType =
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = result->module;
  pipelineInfo.stage.pName = entryPoint.c_str();
  pipelineInfo.layout = result->layout;
  VkResult created = takeFault(FaultPoint::Pipeline);
  if (created == VK_SUCCESS)
    created =
        api.vkCreateComputePipelines(handle, device.getPipelineCache(), 1,
                                     &pipelineInfo, nullptr, &result->pipeline);
  if (failed(checkVk(created, "vkCreateComputePipelines", loc)))
    return failure();
  return result;
}

KernelPipeline::~KernelPipeline() {
  const VulkanApi &api = device.getApi();
  VkDevice handle = device.getHandle();
  if (pipeline)
    api.vkDestroyPipeline(handle, pipeline, nullptr);
  if (layout)
    api.vkDestroyPipelineLayout(handle, layout, nullptr);
  if (setLayout)
    api.vkDestroyDescriptorSetLayout(handle, setLayout, nullptr);
  if (module)
    api.vkDestroyShaderModule(handle, module, nullptr);
}

} // namespace onyx::runtime

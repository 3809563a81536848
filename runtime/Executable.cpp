//===- Executable.cpp - A gpu-dialect function loaded on a device ---------===//
#include "runtime/Executable.h"
#include "runtime/HazardTracker.h"
#include "runtime/ModuleValidation.h"

#include "ir/Diagnostics.h"

#include "llvm/Support/MathExtras.h"

#include <cstring>

namespace onyx::runtime {

/// Staging slots start at this alignment so that copies stay fast.
static constexpr uint64_t kSlotAlignment = 64;

/// A barrier between any compute or transfer work and any later one: all
/// barriers the runtime records between commands are of this one kind, so
/// that everything before a barrier is ordered before everything after it.
static void recordFullBarrier(const VulkanApi &api, VkCommandBuffer commands) {
  auto barrier =
      makeVkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask =
      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask =
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
      VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  VkPipelineStageFlags stages =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  api.vkCmdPipelineBarrier(commands, stages, stages, 0, 1, &barrier, 0, nullptr,
                           0, nullptr);
}

FailureOr<std::unique_ptr<Executable>>
Executable::load(const Device &device, ModuleOp module,
                 const LoadOptions &options) {
  FailureOr<FuncOp> func = findFunction(module, options.function);
  if (failed(func) || failed(validateModule(module, *func, device)))
    return failure();
  std::unique_ptr<Executable> exe(new Executable(device, *func));
  if (failed(exe->createBuffers()) || failed(exe->uploadWeights()) ||
      failed(exe->createPipelines()) || failed(exe->createDescriptorSets()) ||
      failed(exe->createProfiler(options.profile)) || failed(exe->record()))
    return failure();
  return exe;
}

Executable::~Executable() {
  const VulkanApi &api = device.getApi();
  VkDevice handle = device.getHandle();
  if (queryPool)
    api.vkDestroyQueryPool(handle, queryPool, nullptr);
  if (commands)
    api.vkFreeCommandBuffers(handle, device.getCommandPool(), 1, &commands);
  if (descriptorPool)
    api.vkDestroyDescriptorPool(handle, descriptorPool, nullptr);
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

LogicalResult Executable::createBuffers() {
  uint64_t inputBytes = 0, outputBytes = 0;
  auto addSlot = [](uint64_t &total, uint64_t size) {
    Slot slot{llvm::alignTo(total, kSlotAlignment), size};
    total = slot.offset + size;
    return slot;
  };
  for (Operation &op : func.front()) {
    if (auto buffer = dyn_cast<gpu::BufferOp>(&op)) {
      FailureOr<std::unique_ptr<Buffer>> created = device.createBuffer(
          buffer.getType().getSize(), MemoryKind::Device, buffer.getLoc());
      if (failed(created))
        return failure();
      bufferIndex[buffer] = buffers.size();
      buffers.push_back(std::move(*created));
    } else if (auto upload = dyn_cast<gpu::UploadOp>(&op)) {
      unsigned arg = cast<BlockArgument>(upload.getSource()).getArgNumber();
      if (!inputSlots.count(arg))
        inputSlots[arg] = addSlot(
            inputBytes, gpu::getMemorySize(upload.getTarget().getType()));
    } else if (auto download = dyn_cast<gpu::DownloadOp>(&op)) {
      outputSlots[download] = addSlot(
          outputBytes, gpu::getMemorySize(download.getSource().getType()));
    }
  }
  Location loc = func.getLoc();
  FailureOr<std::unique_ptr<Buffer>> in =
      device.createBuffer(inputBytes, MemoryKind::Upload, loc);
  FailureOr<std::unique_ptr<Buffer>> out =
      device.createBuffer(outputBytes, MemoryKind::Readback, loc);
  if (failed(in) || failed(out))
    return failure();
  inputStaging = std::move(*in);
  outputStaging = std::move(*out);
  return success();
}

/// Writes the bytes of `value` (expanding a splat) to `dst`.
static void writeDenseData(DenseElementsAttr value, char *dst) {
  ArrayRef<char> raw = value.getRawData();
  if (!value.isSplat()) {
    if (!raw.empty())
      std::memcpy(dst, raw.data(), raw.size());
    return;
  }
  for (int64_t i = 0, e = value.getNumElements(); i < e; ++i)
    std::memcpy(dst + i * raw.size(), raw.data(), raw.size());
}

LogicalResult Executable::uploadWeights() {
  const VulkanApi &api = device.getApi();
  Location loc = func.getLoc();
  std::vector<std::unique_ptr<Buffer>> staging;
  std::vector<std::pair<unsigned, Buffer *>> copies;
  for (Operation &op : func.front()) {
    auto buffer = dyn_cast<gpu::BufferOp>(&op);
    if (!buffer || buffer.getKind() != gpu::BufferKind::Weights)
      continue;
    FailureOr<std::unique_ptr<Buffer>> host = device.createBuffer(
        buffer.getType().getSize(), MemoryKind::Upload, buffer.getLoc());
    if (failed(host))
      return failure();
    for (Operation *user : buffer->getUsers())
      if (auto weight = dyn_cast<gpu::WeightOp>(user))
        writeDenseData(weight.getValue(),
                       (*host)->getMapped() + weight.getOffset());
    copies.push_back({bufferIndex.lookup(buffer), host->get()});
    staging.push_back(std::move(*host));
  }
  if (copies.empty())
    return success();

  auto allocInfo = makeVkStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocInfo.commandPool = device.getCommandPool();
  allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocInfo.commandBufferCount = 1;
  VkCommandBuffer upload;
  if (failed(checkVk(
          api.vkAllocateCommandBuffers(device.getHandle(), &allocInfo, &upload),
          "vkAllocateCommandBuffers", loc)))
    return failure();
  auto begin = makeVkStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  LogicalResult result = checkVk(api.vkBeginCommandBuffer(upload, &begin),
                                 "vkBeginCommandBuffer", loc);
  if (succeeded(result)) {
    for (auto [index, host] : copies) {
      VkBufferCopy region{0, 0, host->getSize()};
      api.vkCmdCopyBuffer(upload, host->getHandle(),
                          buffers[index]->getHandle(), 1, &region);
    }
    // Later submissions read the weights in shaders and copies.
    recordFullBarrier(api, upload);
    result = checkVk(api.vkEndCommandBuffer(upload), "vkEndCommandBuffer", loc);
  }
  if (succeeded(result))
    result = device.submitAndWait(upload, loc);
  api.vkFreeCommandBuffers(device.getHandle(), device.getCommandPool(), 1,
                           &upload);
  return result;
}

LogicalResult Executable::createPipelines() {
  for (Operation &op : func.front()) {
    auto dispatch = dyn_cast<gpu::DispatchOp>(&op);
    if (!dispatch)
      continue;
    dispatches.push_back(dispatch);
    gpu::KernelOp kernel = dispatch.lookupKernel();
    if (pipelines.count(kernel))
      continue;
    FailureOr<std::unique_ptr<KernelPipeline>> pipeline =
        KernelPipeline::create(device, kernel);
    if (failed(pipeline))
      return failure();
    pipelines[kernel] = std::move(*pipeline);
  }
  return success();
}

/// The buffer number and byte range a view names.
static MemoryAccess
getAccess(Value view, const llvm::DenseMap<Operation *, unsigned> &index,
          bool write) {
  gpu::MemoryRange range = *gpu::getMemoryRange(view);
  return {index.lookup(range.buffer), range.offset, range.end(), write};
}

LogicalResult Executable::createDescriptorSets() {
  if (dispatches.empty())
    return success();
  const VulkanApi &api = device.getApi();
  Location loc = func.getLoc();
  uint32_t numDescriptors = 0;
  SmallVector<VkDescriptorSetLayout> layouts;
  for (gpu::DispatchOp dispatch : dispatches) {
    numDescriptors += dispatch->getNumOperands();
    layouts.push_back(pipelines[dispatch.lookupKernel()]->getSetLayout());
  }
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                std::max<uint32_t>(numDescriptors, 1)};
  auto poolInfo = makeVkStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  poolInfo.maxSets = layouts.size();
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  if (failed(checkVk(api.vkCreateDescriptorPool(device.getHandle(), &poolInfo,
                                                nullptr, &descriptorPool),
                     "vkCreateDescriptorPool", loc)))
    return failure();
  auto allocInfo = makeVkStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  allocInfo.descriptorPool = descriptorPool;
  allocInfo.descriptorSetCount = layouts.size();
  allocInfo.pSetLayouts = layouts.data();
  descriptorSets.resize(layouts.size());
  if (failed(checkVk(api.vkAllocateDescriptorSets(
                         device.getHandle(), &allocInfo, descriptorSets.data()),
                     "vkAllocateDescriptorSets", loc)))
    return failure();

  std::vector<VkDescriptorBufferInfo> infos;
  infos.reserve(numDescriptors);
  std::vector<VkWriteDescriptorSet> writes;
  for (auto [set, dispatch] : llvm::zip(descriptorSets, dispatches)) {
    for (auto [i, view] : llvm::enumerate(dispatch.getBindings())) {
      MemoryAccess access = getAccess(view, bufferIndex, false);
      infos.push_back({buffers[access.buffer]->getHandle(), access.begin,
                       access.end - access.begin});
      auto write = makeVkStruct<VkWriteDescriptorSet>(
          VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
      write.dstSet = set;
      write.dstBinding = i;
      write.descriptorCount = 1;
      write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      write.pBufferInfo = &infos.back();
      writes.push_back(write);
    }
  }
  api.vkUpdateDescriptorSets(device.getHandle(), writes.size(), writes.data(),
                             0, nullptr);
  return success();
}

LogicalResult Executable::createProfiler(bool enable) {
  if (!enable || dispatches.empty())
    return success();
  if (!device.getInfo().hasTimestamps) {
    emitWarning(func.getLoc())
        << "device '" << device.getInfo().name
        << "' cannot time dispatches; running without a profile";
    return success();
  }
  auto info = makeVkStruct<VkQueryPoolCreateInfo>(
      VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2 * dispatches.size();
  return checkVk(device.getApi().vkCreateQueryPool(device.getHandle(), &info,
                                                   nullptr, &queryPool),
                 "vkCreateQueryPool", func.getLoc());
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

/// Issues a grid of workgroups in pieces that respect the device's
/// per-dimension limit; kernels see the true workgroup ids through the base.
static unsigned recordGrid(const VulkanApi &api, VkCommandBuffer commands,
                           std::array<uint64_t, 3> counts,
                           std::array<uint32_t, 3> max) {
  unsigned calls = 0;
  for (uint64_t z = 0; z < counts[2]; z += max[2])
    for (uint64_t y = 0; y < counts[1]; y += max[1])
      for (uint64_t x = 0; x < counts[0]; x += max[0]) {
        uint32_t nx = std::min<uint64_t>(max[0], counts[0] - x);
        uint32_t ny = std::min<uint64_t>(max[1], counts[1] - y);
        uint32_t nz = std::min<uint64_t>(max[2], counts[2] - z);
        // The same as a base dispatch at 0, but the validation layer's
        // synchronization checks see only plain dispatches (before 1.4.309).
        if (x == 0 && y == 0 && z == 0)
          api.vkCmdDispatch(commands, nx, ny, nz);
        else
          api.vkCmdDispatchBase(commands, x, y, z, nx, ny, nz);
        ++calls;
      }
  return calls;
}

LogicalResult Executable::record() {
  const VulkanApi &api = device.getApi();
  Location loc = func.getLoc();
  auto allocInfo = makeVkStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocInfo.commandPool = device.getCommandPool();
  allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocInfo.commandBufferCount = 1;
  auto begin = makeVkStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  if (failed(checkVk(api.vkAllocateCommandBuffers(device.getHandle(),
                                                  &allocInfo, &commands),
                     "vkAllocateCommandBuffers", loc)) ||
      failed(checkVk(api.vkBeginCommandBuffer(commands, &begin),
                     "vkBeginCommandBuffer", loc)))
    return failure();

  if (queryPool)
    api.vkCmdResetQueryPool(commands, queryPool, 0, 2 * dispatches.size());
  // The previous run (and the weight upload) used the same memory.
  recordFullBarrier(api, commands);

  HazardTracker hazards;
  auto beforeCommand = [&](ArrayRef<MemoryAccess> accesses) {
    if (hazards.addCommand(accesses)) {
      recordFullBarrier(api, commands);
      ++stats.barriers;
    }
  };
  auto copy = [&](VkBuffer from, uint64_t fromOffset, VkBuffer to,
                  uint64_t toOffset, uint64_t size) {
    VkBufferCopy region{fromOffset, toOffset, size};
    api.vkCmdCopyBuffer(commands, from, to, 1, &region);
    ++stats.copies;
  };

  unsigned dispatchNumber = 0;
  bool downloads = false;
  for (Operation &op : func.front()) {
    if (auto upload = dyn_cast<gpu::UploadOp>(&op)) {
      MemoryAccess to = getAccess(upload.getTarget(), bufferIndex, true);
      if (to.begin == to.end)
        continue;
      beforeCommand(to);
      Slot slot = inputSlots.lookup(
          cast<BlockArgument>(upload.getSource()).getArgNumber());
      copy(inputStaging->getHandle(), slot.offset,
           buffers[to.buffer]->getHandle(), to.begin, slot.size);
    } else if (auto download = dyn_cast<gpu::DownloadOp>(&op)) {
      MemoryAccess from = getAccess(download.getSource(), bufferIndex, false);
      downloads = true;
      if (from.begin == from.end)
        continue;
      beforeCommand(from);
      copy(buffers[from.buffer]->getHandle(), from.begin,
           outputStaging->getHandle(), outputSlots.lookup(download).offset,
           from.end - from.begin);
    } else if (auto copyOp = dyn_cast<gpu::CopyOp>(&op)) {
      MemoryAccess from = getAccess(copyOp.getSource(), bufferIndex, false);
      MemoryAccess to = getAccess(copyOp.getTarget(), bufferIndex, true);
      if (from.begin == from.end)
        continue;
      beforeCommand({from, to});
      copy(buffers[from.buffer]->getHandle(), from.begin,
           buffers[to.buffer]->getHandle(), to.begin, from.end - from.begin);
    } else if (auto dispatch = dyn_cast<gpu::DispatchOp>(&op)) {
      gpu::KernelOp kernel = dispatch.lookupKernel();
      SmallVector<MemoryAccess, 8> accesses;
      for (auto [i, view] : llvm::enumerate(dispatch.getBindings()))
        accesses.push_back(getAccess(
            view, bufferIndex, gpu::isWritable(kernel.getBindingAccess(i))));
      beforeCommand(accesses);
      const KernelPipeline &pipeline = *pipelines[kernel];
      api.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                            pipeline.getPipeline());
      api.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                                  pipeline.getLayout(), 0, 1,
                                  &descriptorSets[dispatchNumber], 0, nullptr);
      if (pipeline.getPushConstantsSize()) {
        SmallVector<char> bytes = dispatch.getPushConstantBytes();
        api.vkCmdPushConstants(commands, pipeline.getLayout(),
                               VK_SHADER_STAGE_COMPUTE_BIT, 0, bytes.size(),
                               bytes.data());
      }
      if (queryPool)
        api.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                queryPool, 2 * dispatchNumber);
      stats.dispatchCalls +=
          recordGrid(api, commands, dispatch.getWorkgroupCounts(),
                     device.getInfo().maxWorkGroupCount);
      if (queryPool)
        api.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                queryPool, 2 * dispatchNumber + 1);
      ++dispatchNumber;
      ++stats.dispatches;
    }
  }

  if (downloads) {
    auto toHost =
        makeVkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    api.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0,
                             nullptr, 0, nullptr);
  }
  return checkVk(api.vkEndCommandBuffer(commands), "vkEndCommandBuffer", loc);
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

FailureOr<std::vector<HostTensor>>
Executable::run(ArrayRef<HostTensor> inputs) {
  Location loc = func.getLoc();
  ArrayRef<Type> argTypes = func.getFunctionType().getInputs();
  if (inputs.size() != argTypes.size())
    return emitError(loc) << "@" << func.getSymName() << " takes "
                          << unsigned(argTypes.size()) << " inputs, got "
                          << unsigned(inputs.size());
  for (auto [i, input] : llvm::enumerate(inputs)) {
    auto expected = cast<RankedTensorType>(argTypes[i]);
    if (input.type != expected)
      return emitError(loc)
             << "input #" << unsigned(i) << " of @" << func.getSymName()
             << " must be " << expected << ", got " << Type(input.type);
    uint64_t bytes = expected.getNumElements() *
                     getElementByteSize(expected.getElementType());
    if (input.data.size() != bytes)
      return emitError(loc) << "input #" << unsigned(i) << " holds "
                            << uint64_t(input.data.size())
                            << " bytes; its type needs " << bytes;
  }
  // Empty tensors have no bytes (and maybe no data pointer) to copy.
  for (auto &[arg, slot] : inputSlots)
    if (slot.size)
      std::memcpy(inputStaging->getMapped() + slot.offset,
                  inputs[arg].data.data(), slot.size);

  if (failed(device.submitAndWait(commands, loc)))
    return failure();

  std::vector<HostTensor> outputs;
  Operation *ret = func.front().getTerminator();
  for (Value result : ret->getOperands()) {
    auto download = result.getDefiningOp<gpu::DownloadOp>();
    Slot slot = outputSlots.lookup(download);
    const char *data = outputStaging->getMapped() + slot.offset;
    outputs.push_back({cast<RankedTensorType>(result.getType()),
                       std::vector<char>(data, data + slot.size)});
  }
  if (queryPool && failed(readProfile()))
    return failure();
  return outputs;
}

LogicalResult Executable::readProfile() {
  std::vector<uint64_t> ticks(2 * dispatches.size());
  if (failed(checkVk(device.getApi().vkGetQueryPoolResults(
                         device.getHandle(), queryPool, 0, ticks.size(),
                         ticks.size() * sizeof(uint64_t), ticks.data(),
                         sizeof(uint64_t),
                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                     "vkGetQueryPoolResults", func.getLoc())))
    return failure();
  uint32_t bits = device.getInfo().timestampValidBits;
  uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  profile.clear();
  for (auto [i, dispatch] : llvm::enumerate(dispatches)) {
    uint64_t elapsed = (ticks[2 * i + 1] - ticks[2 * i]) & mask;
    profile.push_back(
        {dispatch, elapsed * device.getInfo().timestampPeriodNs / 1000.0});
  }
  profileSpan = 0;
  if (!dispatches.empty())
    profileSpan = ((ticks.back() - ticks.front()) & mask) *
                  device.getInfo().timestampPeriodNs / 1000.0;
  return success();
}

} // namespace onyx::runtime

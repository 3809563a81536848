//===- Executable.cpp - A gpu-dialect function loaded on a device ---------===//
#include "runtime/Executable.h"
#include "runtime/HazardTracker.h"
#include "runtime/ModuleValidation.h"
#include "runtime/Recording.h"

#include "dialect/gpu/HostOps.h"

#include "ir/Diagnostics.h"

#include "llvm/Support/MathExtras.h"

#include <chrono>
#include <cstring>

namespace onyx::runtime {

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
  if (failed(func) ||
      failed(validateModule(module, *func, device, options.maxMemory)))
    return failure();
  std::unique_ptr<Executable> exe(new Executable(device, *func));
  if (failed(exe->createBuffers()) || failed(exe->uploadWeights()) ||
      failed(exe->createPipelines()) ||
      failed(exe->createProfiler(options.profile)))
    return failure();
  // A function of static shapes is recorded now, as its only recording.
  bool isStatic = llvm::all_of(func->getFunctionType().getInputs(), [](Type t) {
    return cast<RankedTensorType>(t).hasStaticShape();
  });
  bool readsValues = false;
  for (Operation &op : func->front())
    readsValues |= isa<gpu::ExtractOp, gpu::RangeCountOp>(&op);
  if (isStatic && !readsValues) {
    std::vector<HostTensorRef> none;
    for (Type t : func->getFunctionType().getInputs())
      none.push_back({cast<RankedTensorType>(t), {}});
    FailureOr<Recording *> recording = exe->getRecording(none);
    if (failed(recording))
      return failure();
    exe->last = *recording;
  }
  return exe;
}

Executable::Executable(const Device &device, FuncOp func)
    : device(device), func(func) {}

Executable::~Executable() {
  dropRecordings();
  if (queryPool)
    device.getApi().vkDestroyQueryPool(device.getHandle(), queryPool, nullptr);
}

const RecordingStats &Executable::getStats() const {
  static const RecordingStats none;
  return last ? last->stats : none;
}

void Executable::dropRecordings() {
  if (recordings.empty())
    return;
  // Command buffers in flight finished: every run waits for its work.
  recordings.clear();
  last = nullptr;
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

LogicalResult Executable::createBuffers() {
  for (Operation &op : func.front()) {
    if (auto buffer = dyn_cast<gpu::BufferOp>(&op)) {
      FailureOr<std::unique_ptr<Buffer>> created = device.createBuffer(
          buffer.getType().getSize(), MemoryKind::Device, buffer.getLoc());
      if (failed(created))
        return failure();
      bufferIndex[buffer] = buffers.size();
      buffers.push_back(std::move(*created));
    }
  }
  // The memory of the gpu.allocs, sized for each run; and the staging
  // buffers, which grow with the shapes they carry.
  runtimeArena = buffers.size();
  buffers.emplace_back();
  if (failed(ensureSize(buffers.back(), 1, MemoryKind::Device)) ||
      failed(ensureSize(inputStaging, 1, MemoryKind::Upload)) ||
      failed(ensureSize(outputStaging, 1, MemoryKind::Readback)))
    return failure();
  return success();
}

LogicalResult Executable::ensureSize(std::unique_ptr<Buffer> &buffer,
                                     uint64_t size, MemoryKind kind) {
  if (buffer && buffer->getSize() >= size)
    return success();
  dropRecordings();
  // Grow by at least half, so that a sequence of growing shapes makes few
  // buffers.
  if (buffer)
    size = std::max(size, buffer->getSize() + buffer->getSize() / 2);
  buffer.reset();
  FailureOr<std::unique_ptr<Buffer>> created =
      device.createBuffer(size, kind, func.getLoc());
  if (failed(created))
    return failure();
  buffer = std::move(*created);
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

  return device.runOnce(
      [&](VkCommandBuffer upload) {
        for (auto [index, host] : copies) {
          VkBufferCopy region{0, 0, host->getSize()};
          api.vkCmdCopyBuffer(upload, host->getHandle(),
                              buffers[index]->getHandle(), 1, &region);
        }
        // Later submissions read the weights in shaders and copies.
        recordFullBarrier(api, upload);
      },
      loc);
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
    ++counters.pipelinesCreated;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Making a recording: host ops, placement, descriptor sets
//===----------------------------------------------------------------------===//

/// The counts of a dispatch's grid for a recording; 0 in any dimension
/// means the dispatch does nothing.
static FailureOr<std::array<uint64_t, 3>>
getGrid(gpu::DispatchOp dispatch,
        const llvm::DenseMap<Value, int64_t> &values) {
  std::array<uint64_t, 3> grid;
  OperandRange dynamic = dispatch.getDynamicWorkgroupCounts();
  unsigned next = 0;
  for (auto [i, count] : llvm::enumerate(dispatch.getStaticWorkgroupCounts())) {
    if (!ShapedType::isDynamic(count)) {
      grid[i] = count;
      continue;
    }
    int64_t value = values.lookup(dynamic[next++]);
    if (value < 0 || value > int64_t(UINT32_MAX))
      return dispatch.emitOpError()
             << "has " << value << " workgroups in dimension " << unsigned(i)
             << " at run time";
    grid[i] = value;
  }
  return grid;
}

static bool isEmptyGrid(std::array<uint64_t, 3> grid) {
  return grid[0] == 0 || grid[1] == 0 || grid[2] == 0;
}

LogicalResult Executable::createDescriptorSets(Recording &r) {
  r.descriptorSets.assign(dispatches.size(), VK_NULL_HANDLE);
  const VulkanApi &api = device.getApi();
  Location loc = func.getLoc();
  uint32_t numDescriptors = 0;
  SmallVector<VkDescriptorSetLayout> layouts;
  SmallVector<unsigned> numbers;
  for (auto [n, dispatch] : llvm::enumerate(dispatches)) {
    FailureOr<std::array<uint64_t, 3>> grid = getGrid(dispatch, r.values);
    if (failed(grid))
      return failure();
    if (isEmptyGrid(*grid))
      continue;
    for (auto [i, view] : llvm::enumerate(dispatch.getBindings())) {
      MemoryAccess access = r.memory.lookup(view);
      if (access.begin == access.end)
        return dispatch.emitOpError() << "binds an empty view as binding #"
                                      << unsigned(i) << " at run time";
    }
    numDescriptors += dispatch.getBindings().size();
    layouts.push_back(pipelines[dispatch.lookupKernel()]->getSetLayout());
    numbers.push_back(n);
  }
  if (layouts.empty())
    return success();
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                std::max<uint32_t>(numDescriptors, 1)};
  auto poolInfo = makeVkStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  poolInfo.maxSets = layouts.size();
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  if (failed(checkVk(api.vkCreateDescriptorPool(device.getHandle(), &poolInfo,
                                                nullptr, &r.descriptorPool),
                     "vkCreateDescriptorPool", loc)))
    return failure();
  auto allocInfo = makeVkStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  allocInfo.descriptorPool = r.descriptorPool;
  allocInfo.descriptorSetCount = layouts.size();
  allocInfo.pSetLayouts = layouts.data();
  SmallVector<VkDescriptorSet> sets(layouts.size());
  if (failed(checkVk(api.vkAllocateDescriptorSets(device.getHandle(),
                                                  &allocInfo, sets.data()),
                     "vkAllocateDescriptorSets", loc)))
    return failure();

  std::vector<VkDescriptorBufferInfo> infos;
  infos.reserve(numDescriptors);
  std::vector<VkWriteDescriptorSet> writes;
  for (auto [set, n] : llvm::zip(sets, numbers)) {
    r.descriptorSets[n] = set;
    for (auto [i, view] : llvm::enumerate(dispatches[n].getBindings())) {
      MemoryAccess access = r.memory.lookup(view);
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

FailureOr<Executable::Recording *>
Executable::getRecording(ArrayRef<HostTensorRef> inputs,
                         const RunOptions &options) {
  std::vector<int64_t> key = getRecordingKey(func, inputs, options);
  auto found = recordings.find(key);
  if (found != recordings.end()) {
    ++counters.recordingHits;
    return found->second.get();
  }
  auto start = std::chrono::steady_clock::now();
  auto r = std::make_unique<Recording>();
  r->device = &device;
  if (failed(resolveStates(*r, options)) ||
      failed(evaluateHostOps(*r, inputs)) || failed(placeMemory(*r)) ||
      failed(createDescriptorSets(*r)) || failed(record(*r)))
    return failure();
  double us = std::chrono::duration<double, std::micro>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  counters.recordMicroseconds += us;
  counters.lastRecordMicroseconds = us;
  ++counters.recordings;
  Recording *result = r.get();
  recordings[key] = std::move(r);
  return result;
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

/// The push constants of `dispatch` as bytes, the dynamic ones checked
/// against their 32-bit types.
static FailureOr<SmallVector<char>>
getPushConstantBytes(gpu::DispatchOp dispatch, gpu::KernelOp kernel,
                     const llvm::DenseMap<Value, int64_t> &values) {
  SmallVector<int64_t> dynamic;
  SmallVector<Type> types = kernel.getPushConstantTypes();
  OperandRange operands = dispatch.getDynamicPushConstants();
  unsigned next = 0;
  for (auto [i, value] : llvm::enumerate(dispatch.getPushConstants())) {
    if (!isa<UnitAttr>(value))
      continue;
    int64_t v = values.lookup(operands[next++]);
    auto intType = dyn_cast<IntegerType>(types[i]);
    bool isUnsigned = intType && intType.isUnsigned();
    int64_t lo = isUnsigned ? 0 : INT32_MIN;
    int64_t hi = isUnsigned ? int64_t(UINT32_MAX) : INT32_MAX;
    if (v < lo || v > hi)
      return dispatch.emitOpError()
             << "push constant #" << unsigned(i) << " is " << v
             << " at run time, out of the range of " << types[i];
    dynamic.push_back(v);
  }
  return dispatch.getPushConstantBytes(dynamic);
}

LogicalResult Executable::record(Recording &r) {
  const VulkanApi &api = device.getApi();
  Location loc = func.getLoc();
  auto allocInfo = makeVkStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocInfo.commandPool = device.getCommandPool();
  allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocInfo.commandBufferCount = 1;
  auto begin = makeVkStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  VkCommandBuffer &commands = r.commands;
  RecordingStats &stats = r.stats;
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
  auto access = [&](Value view, bool write) {
    MemoryAccess a = r.memory.lookup(view);
    a.write = write;
    return a;
  };

  unsigned dispatchNumber = 0;
  bool downloads = false;
  for (Operation &op : func.front()) {
    if (auto upload = dyn_cast<gpu::UploadOp>(&op)) {
      MemoryAccess to = access(upload.getTarget(), true);
      if (to.begin == to.end)
        continue;
      unsigned arg = cast<BlockArgument>(upload.getSource()).getArgNumber();
      auto state = r.argumentStates.find(arg);
      if (state != r.argumentStates.end()) {
        // From device memory a previous run left: no host copy.
        unsigned buffer = states[state->second].buffer;
        beforeCommand({to, {buffer, 0, to.end - to.begin, false}});
        copy(buffers[buffer]->getHandle(), 0, buffers[to.buffer]->getHandle(),
             to.begin, to.end - to.begin);
        continue;
      }
      beforeCommand(to);
      Slot slot = r.inputSlots.lookup(arg);
      copy(inputStaging->getHandle(), slot.offset,
           buffers[to.buffer]->getHandle(), to.begin, slot.size);
    } else if (auto download = dyn_cast<gpu::DownloadOp>(&op)) {
      MemoryAccess from = access(download.getSource(), false);
      if (from.begin == from.end)
        continue;
      auto state = r.resultStates.find(r.resultNumbers.lookup(download));
      if (state != r.resultStates.end()) {
        // Kept on the device for a later run.
        unsigned buffer = states[state->second].buffer;
        beforeCommand({from, {buffer, 0, from.end - from.begin, true}});
        copy(buffers[from.buffer]->getHandle(), from.begin,
             buffers[buffer]->getHandle(), 0, from.end - from.begin);
        continue;
      }
      downloads = true;
      Slot slot = r.outputSlots.lookup(download);
      MemoryAccess tail = from;
      tail.begin = from.end - slot.size;
      beforeCommand(tail);
      copy(buffers[from.buffer]->getHandle(), tail.begin,
           outputStaging->getHandle(), slot.offset, slot.size);
    } else if (auto copyOp = dyn_cast<gpu::CopyOp>(&op)) {
      MemoryAccess from = access(copyOp.getSource(), false);
      MemoryAccess to = access(copyOp.getTarget(), true);
      if (from.begin == from.end)
        continue;
      beforeCommand({from, to});
      copy(buffers[from.buffer]->getHandle(), from.begin,
           buffers[to.buffer]->getHandle(), to.begin, from.end - from.begin);
    } else if (auto dispatch = dyn_cast<gpu::DispatchOp>(&op)) {
      unsigned number = dispatchNumber++;
      gpu::KernelOp kernel = dispatch.lookupKernel();
      FailureOr<std::array<uint64_t, 3>> grid = getGrid(dispatch, r.values);
      if (failed(grid))
        return failure();
      if (queryPool)
        api.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                queryPool, 2 * number);
      if (!isEmptyGrid(*grid)) {
        SmallVector<MemoryAccess, 8> accesses;
        for (auto [i, view] : llvm::enumerate(dispatch.getBindings()))
          accesses.push_back(
              access(view, gpu::isWritable(kernel.getBindingAccess(i))));
        beforeCommand(accesses);
        const KernelPipeline &pipeline = *pipelines[kernel];
        api.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                              pipeline.getPipeline());
        api.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                                    pipeline.getLayout(), 0, 1,
                                    &r.descriptorSets[number], 0, nullptr);
        if (pipeline.getPushConstantsSize()) {
          FailureOr<SmallVector<char>> bytes =
              getPushConstantBytes(dispatch, kernel, r.values);
          if (failed(bytes))
            return failure();
          api.vkCmdPushConstants(commands, pipeline.getLayout(),
                                 VK_SHADER_STAGE_COMPUTE_BIT, 0, bytes->size(),
                                 bytes->data());
        }
        stats.dispatchCalls += recordGrid(api, commands, *grid,
                                          device.getInfo().maxWorkGroupCount);
        ++stats.dispatches;
      }
      if (queryPool)
        api.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                queryPool, 2 * number + 1);
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
  std::vector<HostTensorRef> refs;
  for (const HostTensor &input : inputs)
    refs.push_back({input.type, input.data});
  return runViews(refs);
}

FailureOr<std::vector<HostTensor>>
Executable::runViews(ArrayRef<HostTensorRef> inputs,
                     const RunOptions &options) {
  Location loc = func.getLoc();
  ArrayRef<Type> argTypes = func.getFunctionType().getInputs();
  if (inputs.size() != argTypes.size())
    return emitError(loc) << "@" << func.getSymName() << " takes "
                          << unsigned(argTypes.size()) << " inputs, got "
                          << unsigned(inputs.size());
  for (auto [i, input] : llvm::enumerate(inputs)) {
    auto expected = cast<RankedTensorType>(argTypes[i]);
    bool matches = input.type.getElementType() == expected.getElementType() &&
                   input.type.getRank() == expected.getRank() &&
                   input.type.hasStaticShape();
    for (unsigned d = 0; matches && d < expected.getRank(); ++d)
      matches = ShapedType::isDynamic(expected.getShape()[d]) ||
                expected.getShape()[d] == input.type.getShape()[d];
    if (!matches)
      return emitError(loc)
             << "input #" << unsigned(i) << " of @" << func.getSymName()
             << " must be " << Type(expected) << ", got " << Type(input.type);
    uint64_t bytes = input.type.getNumElements() *
                     getElementByteSize(expected.getElementType());
    if (llvm::is_contained(options.argumentsFromState, unsigned(i))) {
      // Read from device memory: checked against the state below.
      if (!input.data.empty())
        return emitError(loc) << "input #" << unsigned(i)
                              << " comes from a state and takes no data";
      continue;
    }
    if (input.data.size() != bytes)
      return emitError(loc) << "input #" << unsigned(i) << " holds "
                            << uint64_t(input.data.size())
                            << " bytes; its type needs " << bytes;
  }
  // Checked before the key, which reads the values host ops read.
  for (Operation &op : func.front())
    if (isa<gpu::ExtractOp, gpu::RangeCountOp>(&op))
      for (Value operand : op.getOperands())
        if (llvm::is_contained(options.argumentsFromState,
                               cast<BlockArgument>(operand).getArgNumber()))
          return op.emitOpError()
                 << "reads the values of an argument that comes from a state";
  FailureOr<Recording *> found = getRecording(inputs, options);
  if (failed(found))
    return failure();
  Recording &r = **found;
  last = &r;
  for (auto [arg, index] : r.argumentStates) {
    const State &state = states[index];
    uint64_t bytes = inputs[arg].type.getNumElements() *
                     getElementByteSize(inputs[arg].type.getElementType());
    if (bytes != state.bytes)
      return emitError(loc)
             << "input #" << arg << " comes from the state of result #"
             << state.binding.result << ", which holds " << state.bytes
             << " bytes; its type " << Type(inputs[arg].type) << " needs "
             << bytes;
  }
  // Empty tensors have no bytes (and maybe no data pointer) to copy.
  for (auto &[arg, slot] : r.inputSlots)
    if (slot.size)
      std::memcpy(inputStaging->getMapped() + slot.offset,
                  inputs[arg].data.data(), slot.size);

  if (failed(device.submitAndWait(r.commands, loc)))
    return failure();

  std::vector<HostTensor> outputs;
  Operation *ret = func.front().getTerminator();
  for (auto [number, result] : llvm::enumerate(ret->getOperands())) {
    auto download = result.getDefiningOp<gpu::DownloadOp>();
    auto type = cast<RankedTensorType>(result.getType());
    type = RankedTensorType::get(r.shapes.lookup(download.getSource()),
                                 type.getElementType());
    auto state = r.resultStates.find(number);
    if (state != r.resultStates.end()) {
      MemoryAccess from = r.memory.lookup(download.getSource());
      states[state->second].bytes = from.end - from.begin;
      outputs.push_back({type, {}});
      continue;
    }
    Slot slot = r.outputSlots.lookup(download);
    auto last = r.lastElements.find(number);
    if (last != r.lastElements.end())
      type =
          RankedTensorType::get({int64_t(last->second)}, type.getElementType());
    const char *data = outputStaging->getMapped() + slot.offset;
    outputs.push_back({type, std::vector<char>(data, data + slot.size)});
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
    FailureOr<std::array<uint64_t, 3>> grid = getGrid(dispatch, last->values);
    profile.push_back(
        {dispatch, elapsed * device.getInfo().timestampPeriodNs / 1000.0,
         succeeded(grid) && !isEmptyGrid(*grid)});
  }
  profileSpan = 0;
  if (!dispatches.empty())
    profileSpan = ((ticks.back() - ticks.front()) & mask) *
                  device.getInfo().timestampPeriodNs / 1000.0;
  return success();
}

} // namespace onyx::runtime

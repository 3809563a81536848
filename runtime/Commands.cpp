//===- Commands.cpp - A recording's command buffer ------------------------===//
//
// The commands of one recording: input copies, dispatches with barriers
// only where a dependency needs one, output copies. Recording visits every
// dispatch of the function; most are variants for other sizes, whose grid
// is empty at this recording's dims, and are skipped from what was read of
// them at load (DispatchInfo).
//
//===----------------------------------------------------------------------===//
#include "runtime/Recording.h"

#include "llvm/Support/Endian.h"

namespace onyx::runtime {

void recordFullBarrier(const VulkanApi &api, VkCommandBuffer commands) {
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
  // A command buffer of a recording no longer kept is recorded again (its
  // pool resets it on begin).
  if (!freeCommandBuffers.empty()) {
    commands = freeCommandBuffers.back();
    freeCommandBuffers.pop_back();
  } else if (failed(checkVk(api.vkAllocateCommandBuffers(device.getHandle(),
                                                         &allocInfo, &commands),
                            "vkAllocateCommandBuffers", loc))) {
    return failure();
  }
  if (failed(checkVk(api.vkBeginCommandBuffer(commands, &begin),
                     "vkBeginCommandBuffer", loc)))
    return failure();

  // A run's later segments add their timestamps to the first one's.
  uint32_t queryBase = 2 * dispatches.size() * r.stagingSet;
  if (queryPool && r.level == 0)
    api.vkCmdResetQueryPool(commands, queryPool, queryBase,
                            2 * dispatches.size());
  // The previous run (and the weight upload) used the same memory; a
  // segment after a read count, the segment before it.
  recordFullBarrier(api, commands);

  HazardTracker hazards;
  double hazardMicroseconds = 0;
  auto beforeCommand = [&](ArrayRef<MemoryAccess> accesses) {
    bool barrier;
    {
      ScopedMicroseconds timed(hazardMicroseconds);
      barrier = hazards.addCommand(accesses);
    }
    if (barrier) {
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
  // The ops of this recording's segment: from after the previous read
  // count to the next (the whole block without read counts).
  unsigned first = r.level ? cuts[r.level - 1] + 1 : 0, end = cuts[r.level];
  for (const CommandStep &step : commandOps) {
    if (step.at >= end)
      break;
    // Earlier segments' commands were recorded with them. A dispatch is
    // recorded from what its info holds: most are skipped variants, of
    // which nothing is read.
    if (step.kind == StepKind::Dispatch) {
      unsigned number = dispatchNumber++;
      if (step.at >= first && r.dispatched[number] &&
          failed(recordDispatch(r, number, beforeCommand)))
        return failure();
      continue;
    }
    if (step.at < first)
      continue;
    Operation &op = *step.op;
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
        ++stats.stateCopies;
        continue;
      }
      beforeCommand(to);
      Slot slot = r.inputSlots.lookup(arg);
      copy(inputStaging[r.stagingSet]->getHandle(), slot.offset,
           buffers[to.buffer]->getHandle(), to.begin, slot.size);
    } else if (auto download = dyn_cast<gpu::DownloadOp>(&op)) {
      MemoryAccess from = access(download.getSource(), false);
      if (from.begin == from.end)
        continue;
      // Written in place in its state: nothing to copy.
      if (!download.getPermutation().empty())
        continue;
      unsigned result = r.resultNumbers.lookup(download);
      if (llvm::is_contained(r.discarded, result))
        continue;
      auto state = r.resultStates.find(result);
      if (state != r.resultStates.end()) {
        // Kept on the device for a later run.
        unsigned buffer = states[state->second].buffer;
        beforeCommand({from, {buffer, 0, from.end - from.begin, true}});
        copy(buffers[from.buffer]->getHandle(), from.begin,
             buffers[buffer]->getHandle(), 0, from.end - from.begin);
        ++stats.stateCopies;
        if (!llvm::is_contained(r.downloadedStates, result))
          continue;
      }
      downloads = true;
      Slot slot = r.outputSlots.lookup(download);
      MemoryAccess tail = from;
      tail.begin = from.end - slot.size;
      beforeCommand(tail);
      copy(buffers[from.buffer]->getHandle(), tail.begin,
           outputStaging[r.stagingSet]->getHandle(), slot.offset, slot.size);
    } else if (auto copyOp = dyn_cast<gpu::CopyOp>(&op)) {
      MemoryAccess from = access(copyOp.getSource(), false);
      MemoryAccess to = access(copyOp.getTarget(), true);
      if (from.begin == from.end)
        continue;
      beforeCommand({from, to});
      copy(buffers[from.buffer]->getHandle(), from.begin,
           buffers[to.buffer]->getHandle(), to.begin, from.end - from.begin);
    }
  }

  if (r.level < readCounts.size()) {
    // The count this segment computed goes to the host.
    MemoryAccess from = access(readCounts[r.level].getView(), false);
    beforeCommand(from);
    copy(buffers[from.buffer]->getHandle(), from.begin,
         countStaging->getHandle(), 8 * r.level, from.end - from.begin);
    downloads = true;
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
  counters.hazardMicroseconds += hazardMicroseconds;
  return checkVk(api.vkEndCommandBuffer(commands), "vkEndCommandBuffer", loc);
}

LogicalResult Executable::recordDispatch(
    Recording &r, unsigned number,
    llvm::function_ref<void(ArrayRef<MemoryAccess>)> beforeCommand) {
  const VulkanApi &api = device.getApi();
  VkCommandBuffer commands = r.commands;
  RecordingStats &stats = r.stats;
  const DispatchInfo &info = dispatchInfo[number];
  const std::array<uint64_t, 3> &grid = grids[number];
  // Only dispatches that run are timed: a timestamp at the compute stage
  // waits for the work before it, so the variants a run skips (a
  // kernel's forms for other sizes) would otherwise stall the device
  // between the ones it runs. readProfile reads only these queries.
  if (queryPool)
    api.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            queryPool,
                            2 * (dispatches.size() * r.stagingSet + number));
  SmallVector<MemoryAccess, 8> accesses;
  for (auto [i, memory] : llvm::enumerate(info.bindings)) {
    accesses.push_back(r.memory[memory]);
    accesses.back().write = info.writable[i];
  }
  beforeCommand(accesses);
  const KernelPipeline &pipeline = *info.pipeline;
  api.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                        pipeline.getPipeline());
  api.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                              pipeline.getLayout(), 0, 1,
                              &r.descriptorSets[number], 0, nullptr);
  if (pipeline.getPushConstantsSize()) {
    SmallVector<char, 32> bytes = info.pushBytes;
    for (auto [word, slot, isUnsigned] : info.dynamicPush) {
      // Checked against the word's 32-bit type.
      int64_t v = r.values.data[slot];
      int64_t lo = isUnsigned ? 0 : INT32_MIN;
      int64_t hi = isUnsigned ? int64_t(UINT32_MAX) : INT32_MAX;
      if (v < lo || v > hi)
        return dispatches[number].emitOpError()
               << "push constant #" << word << " is " << v
               << " at run time, out of the range of "
               << dispatches[number]
                      .lookupKernel()
                      .getPushConstantTypes()[word];
      llvm::support::endian::write32le(bytes.data() + 4 * word, uint32_t(v));
    }
    api.vkCmdPushConstants(commands, pipeline.getLayout(),
                           VK_SHADER_STAGE_COMPUTE_BIT, 0, bytes.size(),
                           bytes.data());
  }
  stats.dispatchCalls +=
      recordGrid(api, commands, grid, device.getInfo().maxWorkGroupCount);
  ++stats.dispatches;
  if (queryPool)
    api.vkCmdWriteTimestamp(
        commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, queryPool,
        2 * (dispatches.size() * r.stagingSet + number) + 1);
  return success();
}

} // namespace onyx::runtime

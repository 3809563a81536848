//===- Executable.cpp - A gpu-dialect function loaded on a device ---------===//
#include "runtime/Executable.h"
#include "runtime/HazardTracker.h"
#include "runtime/LoopRecording.h"
#include "runtime/ModuleValidation.h"
#include "runtime/Recording.h"

#include "dialect/gpu/HostOps.h"

#include "ir/Diagnostics.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <chrono>
#include <cstring>

namespace onyx::runtime {

/// Staging buffers start at this size: host memory is cheap, and a growth
/// drops every recording (a decoder's attention mask grows by a few bytes
/// per step).
static constexpr uint64_t kMinStagingBytes = 64 * 1024;

FailureOr<std::unique_ptr<Executable>>
Executable::load(const Device &device, ModuleOp module,
                 const LoadOptions &options) {
  FailureOr<FuncOp> func = findFunction(module, options.function);
  if (succeeded(func) && LoopRuns::hasLoops(*func))
    return LoopRuns::load(device, module, *func, options);
  if (failed(func) ||
      failed(validateModule(module, *func, device, options.maxMemory)))
    return failure();
  std::unique_ptr<Executable> exe(
      new Executable(device, *func, std::max(2u, options.maxRecordings)));
  exe->budgetFromOption = options.maxMemory != 0;
  exe->memoryBudget =
      options.maxMemory ? options.maxMemory : device.getDeviceLocalHeapSize();
  for (Operation &op : func->front())
    if (auto buffer = dyn_cast<gpu::BufferOp>(&op))
      exe->fixedBufferBytes += buffer.getType().getSize();
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
    readsValues |= isa<gpu::ExtractOp, gpu::RangeCountOp, gpu::ScaleDimOp,
                       gpu::ReadCountOp>(&op);
  if (isStatic && !readsValues) {
    std::vector<HostTensorRef> none;
    for (Type t : func->getFunctionType().getInputs())
      none.push_back({cast<RankedTensorType>(t), {}});
    FailureOr<Recording *> recording = exe->getRecording(none);
    if (failed(recording))
      return failure();
    exe->lastStats = (*recording)->stats;
  }
  return exe;
}

Executable::Executable(const Device &device, FuncOp func,
                       unsigned maxRecordings)
    : device(device), func(func), maxRecordings(maxRecordings) {}

Executable::~Executable() {
  dropRecordings();
  const VulkanApi &api = device.getApi();
  if (!freeCommandBuffers.empty())
    api.vkFreeCommandBuffers(device.getHandle(), device.getCommandPool(),
                             freeCommandBuffers.size(),
                             freeCommandBuffers.data());
  for (VkDescriptorPool pool : descriptorPools)
    api.vkDestroyDescriptorPool(device.getHandle(), pool, nullptr);
  if (queryPool)
    api.vkDestroyQueryPool(device.getHandle(), queryPool, nullptr);
}

void Executable::release(Recording &r) {
  for (auto [n, index] : llvm::enumerate(r.sharedSet))
    if (index >= 0)
      --sharedSets[n][index].users;
  r.sharedSet.clear();
  r.descriptorSets.clear();
  if (r.commands)
    freeCommandBuffers.push_back(r.commands);
  r.commands = VK_NULL_HANDLE;
}

void Executable::dropRecordings() {
  // Nothing may still run what is dropped.
  settle();
  for (auto &[key, r] : recordings)
    release(*r);
  recordings.clear();
}

void Executable::dropSetsOf(unsigned buffer) {
  for (SmallVector<SharedSet, 2> &sets : sharedSets)
    for (SharedSet &set : sets)
      set.stale |= llvm::any_of(set.bindings, [&](const MemoryAccess &a) {
        return a.buffer == buffer;
      });
}

void Executable::evictRecordings(Recording *keep) {
  auto running = [&](Recording *r) {
    return llvm::any_of(inFlight, [&](const InFlight &run) {
      return !run.settled && run.recording == r;
    });
  };
  while (recordings.size() > maxRecordings) {
    auto victim = recordings.end();
    for (auto it = recordings.begin(); it != recordings.end(); ++it) {
      Recording *r = it->second.get();
      if (r == keep || running(r))
        continue;
      if (victim == recordings.end() || r->lastUse < victim->second->lastUse)
        victim = it;
    }
    if (victim == recordings.end())
      return;
    release(*victim->second);
    recordings.erase(victim);
    ++counters.recordingsEvicted;
  }
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
  if (failed(ensureSize(buffers.back(), 1, MemoryKind::Device)))
    return failure();
  for (unsigned set = 0; set < kMaxRunsInFlight; ++set)
    if (failed(ensureSize(inputStaging[set], kMinStagingBytes,
                          MemoryKind::Upload)) ||
        failed(ensureSize(outputStaging[set], kMinStagingBytes,
                          MemoryKind::Readback)))
      return failure();
  unsigned numReadCounts = 0;
  for (Operation &op : func.front())
    numReadCounts += isa<gpu::ReadCountOp>(&op);
  if (numReadCounts &&
      failed(ensureSize(countStaging, 8 * numReadCounts, MemoryKind::Readback)))
    return failure();
  return success();
}

LogicalResult Executable::ensureSize(std::unique_ptr<Buffer> &buffer,
                                     uint64_t size, MemoryKind kind) {
  if (buffer && buffer->getSize() >= size)
    return success();
  ++counters.bufferGrowths;
  ScopedMicroseconds timed(counters.growMicroseconds);
  // Waits for a run in flight, which may use the buffer.
  dropRecordings();
  // Sets that bind it must not be found again (staging buffers are bound
  // by none).
  for (auto [index, owned] : llvm::enumerate(buffers))
    if (&owned == &buffer)
      dropSetsOf(index);
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
  // What the recordings read of the function, once.
  allocs = gpu::analyzeAllocs(func.front());
  unsigned position = 0;
  for (Operation &op : func.front()) {
    if (isa<gpu::DispatchOp>(&op))
      dispatchSegment.push_back(readCounts.size());
    if (isa<gpu::UploadOp>(&op))
      commandOps.push_back({position, &op, StepKind::Upload});
    if (isa<gpu::DownloadOp>(&op))
      commandOps.push_back({position, &op, StepKind::Download});
    if (isa<gpu::CopyOp>(&op))
      commandOps.push_back({position, &op, StepKind::Copy});
    if (isa<gpu::DispatchOp>(&op))
      commandOps.push_back({position, &op, StepKind::Dispatch});
    if (auto count = dyn_cast<gpu::ReadCountOp>(&op)) {
      readCounts.push_back(count);
      cuts.push_back(position);
    }
    ++position;
    if (auto download = dyn_cast<gpu::DownloadOp>(&op))
      downloaded.insert(download.getSource());
    if (isa<gpu::ExtractOp, gpu::RangeCountOp, gpu::ScaleDimOp>(&op))
      valueReaders.push_back(&op);
    if (auto alloc = dyn_cast<gpu::AllocOp>(&op))
      if (std::optional<unsigned> arg = alloc.getStateArgument())
        inPlaceArguments.push_back(*arg);
  }
  cuts.push_back(position);
  buildHostProgram();
  numberMemory();
  for (Operation &op : func.front()) {
    auto dispatch = dyn_cast<gpu::DispatchOp>(&op);
    if (!dispatch)
      continue;
    dispatches.push_back(dispatch);
    gpu::KernelOp kernel = dispatch.lookupKernel();
    std::unique_ptr<KernelPipeline> &pipeline = pipelines[kernel];
    if (!pipeline) {
      FailureOr<std::unique_ptr<KernelPipeline>> created =
          KernelPipeline::create(device, kernel);
      if (failed(created))
        return failure();
      pipeline = std::move(*created);
      ++counters.pipelinesCreated;
    }
    DispatchInfo info;
    info.pipeline = pipeline.get();
    for (unsigned i = 0, e = dispatch.getBindings().size(); i < e; ++i)
      info.writable.push_back(gpu::isWritable(kernel.getBindingAccess(i)));
    numBindings += dispatch.getBindings().size();
    // The static words now; the dynamic ones per recording.
    llvm::append_range(info.pushBytes,
                       dispatch.getPushConstantBytes(SmallVector<int64_t>(
                           dispatch.getDynamicPushConstants().size(), 0)));
    SmallVector<Type> types = kernel.getPushConstantTypes();
    OperandRange operands = dispatch.getDynamicPushConstants();
    unsigned next = 0;
    for (auto [i, value] : llvm::enumerate(dispatch.getPushConstants())) {
      if (!isa<UnitAttr>(value))
        continue;
      auto intType = dyn_cast<IntegerType>(types[i]);
      info.dynamicPush.push_back({unsigned(i), getSlot(operands[next++]),
                                  intType && intType.isUnsigned()});
    }
    OperandRange dynamicCounts = dispatch.getDynamicWorkgroupCounts();
    unsigned nextCount = 0;
    GridInfo grid;
    for (auto [i, count] :
         llvm::enumerate(dispatch.getStaticWorkgroupCounts())) {
      grid.counts[i] = count;
      if (ShapedType::isDynamic(count))
        grid.slots[i] = getSlot(dynamicCounts[nextCount++]);
    }
    dispatchGrids.push_back(grid);
    for (Value view : dispatch.getBindings()) {
      // Numbered if no op here defines it: it is then never placed, and
      // binding it is an error at run time.
      info.bindings.push_back(
          memoryNumbers.try_emplace(view, memoryNumbers.size()).first->second);
      auto alloc = view.getDefiningOp<gpu::AllocOp>();
      info.stateBindings.push_back(alloc && alloc.getStateArgument());
    }
    dispatchInfo.push_back(std::move(info));
  }
  sharedSets.resize(dispatches.size());
  return success();
}

//===----------------------------------------------------------------------===//
// Making a recording: host ops, placement, descriptor sets
//===----------------------------------------------------------------------===//

/// The counts of a dispatch's grid for a recording; 0 in any dimension
/// means the dispatch does nothing.
FailureOr<std::array<uint64_t, 3>>
Executable::getGrid(unsigned number, const HostValues &values) const {
  const GridInfo &info = dispatchGrids[number];
  std::array<uint64_t, 3> grid;
  for (unsigned i = 0; i < 3; ++i) {
    if (info.slots[i] < 0) {
      grid[i] = info.counts[i];
      continue;
    }
    int64_t value = values.data[info.slots[i]];
    if (value < 0 || value > int64_t(UINT32_MAX))
      return dispatches[number].emitOpError()
             << "has " << value << " workgroups in dimension " << i
             << " at run time";
    grid[i] = value;
  }
  return grid;
}

LogicalResult Executable::computeGrids(Recording &r) {
  r.dispatched.assign(dispatches.size(), false);
  grids.resize(dispatches.size());
  // Later segments' dispatches wait for counts not read yet.
  for (unsigned n = 0, e = dispatches.size();
       n < e && dispatchSegment[n] <= r.level; ++n) {
    FailureOr<std::array<uint64_t, 3>> grid = getGrid(n, r.values);
    if (failed(grid))
      return failure();
    grids[n] = *grid;
    r.dispatched[n] = !isEmptyGrid(*grid);
  }
  return success();
}

static bool sameBytes(ArrayRef<MemoryAccess> a, ArrayRef<MemoryAccess> b) {
  return a.size() == b.size() && llvm::all_of(llvm::zip(a, b), [](auto pair) {
           auto [x, y] = pair;
           return x.buffer == y.buffer && x.begin == y.begin && x.end == y.end;
         });
}

LogicalResult Executable::allocateSets(ArrayRef<VkDescriptorSetLayout> layouts,
                                       uint32_t descriptors,
                                       SmallVectorImpl<VkDescriptorSet> &sets) {
  const VulkanApi &api = device.getApi();
  Location loc = func.getLoc();
  if (poolSetsLeft < layouts.size() || poolDescriptorsLeft < descriptors) {
    // A pool holds a whole recording's sets: few pools over a generation,
    // since sets outlive recordings and are written again.
    uint32_t maxSets = std::max<uint32_t>(layouts.size(), dispatches.size());
    uint32_t maxDescriptors = std::max({descriptors, numBindings, 1u});
    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                  maxDescriptors};
    auto poolInfo = makeVkStruct<VkDescriptorPoolCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    poolInfo.maxSets = maxSets;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &poolSize;
    VkDescriptorPool pool;
    if (failed(checkVk(api.vkCreateDescriptorPool(device.getHandle(), &poolInfo,
                                                  nullptr, &pool),
                       "vkCreateDescriptorPool", loc)))
      return failure();
    descriptorPools.push_back(pool);
    poolSetsLeft = maxSets;
    poolDescriptorsLeft = maxDescriptors;
  }
  auto allocInfo = makeVkStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  allocInfo.descriptorPool = descriptorPools.back();
  allocInfo.descriptorSetCount = layouts.size();
  allocInfo.pSetLayouts = layouts.data();
  sets.resize(layouts.size());
  if (failed(checkVk(api.vkAllocateDescriptorSets(device.getHandle(),
                                                  &allocInfo, sets.data()),
                     "vkAllocateDescriptorSets", loc)))
    return failure();
  poolSetsLeft -= layouts.size();
  poolDescriptorsLeft -= descriptors;
  return success();
}

LogicalResult Executable::createDescriptorSets(Recording &r) {
  r.descriptorSets.assign(dispatches.size(), VK_NULL_HANDLE);
  r.sharedSet.assign(dispatches.size(), -1);
  // Dispatches that need a new set, and those whose set is to be written.
  SmallVector<unsigned> fresh, toWrite;
  SmallVector<VkDescriptorSetLayout> freshLayouts;
  uint32_t freshDescriptors = 0;
  SmallVector<MemoryAccess, 8> bindings;
  for (auto [n, dispatch] : llvm::enumerate(dispatches)) {
    // Earlier segments' recordings bound theirs; dispatches of an empty
    // grid bind nothing.
    if (dispatchSegment[n] != r.level || !r.dispatched[n])
      continue;
    bindings.clear();
    const DispatchInfo &info = dispatchInfo[n];
    for (auto [i, number] : llvm::enumerate(info.bindings)) {
      MemoryAccess access = r.memory[number];
      if (access.begin == access.end)
        return dispatch.emitOpError() << "binds an empty view as binding #"
                                      << unsigned(i) << " at run time";
      access.write = false;
      // A state's memory is bound whole, at its capacity, so that the
      // dispatches reading a cache keep their set while it grows step by
      // step (the kernels index only the run's positions).
      if (info.stateBindings[i])
        access.end = std::max(
            access.end, std::min(buffers[access.buffer]->getSize(),
                                 device.getTarget().maxStorageBufferRange));
      bindings.push_back(access);
    }
    // The set of another recording that binds the same bytes; else one no
    // recording uses, written again; else a new one.
    SmallVector<SharedSet, 2> &sets = sharedSets[n];
    int chosen = -1, idle = -1;
    for (auto [i, set] : llvm::enumerate(sets)) {
      if (!set.stale && sameBytes(set.bindings, bindings)) {
        chosen = i;
        break;
      }
      if (!set.users && idle < 0)
        idle = i;
    }
    if (chosen >= 0) {
      ++counters.descriptorSetsReused;
    } else if (idle >= 0) {
      chosen = idle;
      sets[idle].bindings.assign(bindings.begin(), bindings.end());
      sets[idle].stale = false;
      toWrite.push_back(n);
    } else {
      chosen = sets.size();
      sets.emplace_back();
      sets.back().bindings.assign(bindings.begin(), bindings.end());
      fresh.push_back(n);
      freshLayouts.push_back(info.pipeline->getSetLayout());
      freshDescriptors += bindings.size();
      toWrite.push_back(n);
    }
    ++sets[chosen].users;
    r.sharedSet[n] = chosen;
    r.descriptorSets[n] = sets[chosen].set;
  }

  if (!fresh.empty()) {
    SmallVector<VkDescriptorSet> created;
    if (failed(allocateSets(freshLayouts, freshDescriptors, created))) {
      // Entries without a set must not be found later.
      for (unsigned n : fresh) {
        sharedSets[n].pop_back();
        r.sharedSet[n] = -1;
      }
      return failure();
    }
    for (auto [n, set] : llvm::zip(fresh, created)) {
      sharedSets[n][r.sharedSet[n]].set = set;
      r.descriptorSets[n] = set;
    }
  }

  std::vector<VkDescriptorBufferInfo> infos;
  infos.reserve(numBindings);
  std::vector<VkWriteDescriptorSet> writes;
  for (unsigned n : toWrite) {
    const SharedSet &set = sharedSets[n][r.sharedSet[n]];
    for (auto [i, access] : llvm::enumerate(set.bindings)) {
      infos.push_back({buffers[access.buffer]->getHandle(), access.begin,
                       access.end - access.begin});
      auto write = makeVkStruct<VkWriteDescriptorSet>(
          VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
      write.dstSet = set.set;
      write.dstBinding = i;
      write.descriptorCount = 1;
      write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      write.pBufferInfo = &infos.back();
      writes.push_back(write);
    }
  }
  counters.descriptorSetsWritten += toWrite.size();
  if (!writes.empty())
    device.getApi().vkUpdateDescriptorSets(device.getHandle(), writes.size(),
                                           writes.data(), 0, nullptr);
  return success();
}

FailureOr<Executable::Recording *>
Executable::getRecording(ArrayRef<HostTensorRef> inputs,
                         const RunOptions &options, bool ahead,
                         ArrayRef<int64_t> counts) {
  std::vector<int64_t> key = getRecordingKey(valueReaders, inputs, options);
  if (!readCounts.empty()) {
    key.push_back(-1);
    llvm::append_range(key, counts);
  }
  // The staging set is the key's last entry. A run in flight uses its set
  // until it finishes; the last one launched may still be, when this
  // recording runs (before it finishes, or after: it then finds a set
  // free, whichever this one took).
  int busySet = !inFlight.empty() && !inFlight.back().settled
                    ? int(inFlight.back().recording->stagingSet)
                    : -1;
  key.push_back(0);
  for (unsigned set = 0; set < kMaxRunsInFlight; ++set) {
    if (int(set) == busySet)
      continue;
    key.back() = set;
    auto found = recordings.find(key);
    if (found == recordings.end())
      continue;
    if (!ahead)
      ++counters.recordingHits;
    found->second->lastUse = ++useClock;
    return found->second.get();
  }
  key.back() = busySet == 0 ? 1 : 0;
  // Made by a launch while another run keeps the device busy: ahead of
  // its run as much as one prepare() makes.
  bool overlapped =
      llvm::any_of(inFlight, [](const InFlight &run) { return !run.settled; });
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  double cpuStart = getThreadCpuMicroseconds();
  auto r = std::make_unique<Recording>();
  r->level = counts.size();
  r->stagingSet = key.back();
  if (failed(checkBounds(inputs)) || failed(resolveStates(*r, options)) ||
      failed(evaluateHostOps(*r, inputs, counts)))
    return failure();
  auto placing = Clock::now();
  double grown = counters.growMicroseconds;
  if (failed(placeMemory(*r)))
    return failure();
  auto describing = Clock::now();
  LogicalResult made = computeGrids(*r);
  if (succeeded(made))
    made = createDescriptorSets(*r);
  auto recording = Clock::now();
  if (succeeded(made))
    made = record(*r);
  if (failed(made)) {
    release(*r);
    return failure();
  }
  auto end = Clock::now();
  auto micros = [](Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::micro>(to - from).count();
  };
  counters.hostOpsMicroseconds += micros(start, placing);
  counters.placeMicroseconds +=
      micros(placing, describing) - (counters.growMicroseconds - grown);
  counters.descriptorMicroseconds += micros(describing, recording);
  counters.commandMicroseconds += micros(recording, end);
  double us = micros(start, end);
  counters.recordMicroseconds += us;
  counters.lastRecordMicroseconds = us;
  counters.recordCpuMicroseconds += getThreadCpuMicroseconds() - cpuStart;
  counters.recordedDispatches += r->stats.dispatches;
  ++counters.recordings;
  if (ahead || overlapped) {
    ++counters.recordingsAhead;
    counters.aheadMicroseconds += us;
  }
  r->lastUse = ++useClock;
  Recording *result = r.get();
  recordings[key] = std::move(r);
  evictRecordings(result);
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
  // Two timestamps per dispatch, for each staging set: a run in flight
  // writes its half while the host reads the other's.
  info.queryCount = 2 * dispatches.size() * kMaxRunsInFlight;
  return checkVk(device.getApi().vkCreateQueryPool(device.getHandle(), &info,
                                                   nullptr, &queryPool),
                 "vkCreateQueryPool", func.getLoc());
}

} // namespace onyx::runtime

//===- Recording.cpp - Placing the tensors of one recording --------------===//
#include "runtime/Recording.h"
#include "runtime/LoopRecording.h"

#include "dialect/gpu/AllocPlanning.h"
#include "dialect/gpu/HostOps.h"

#include "ir/Diagnostics.h"

#include "llvm/Support/MathExtras.h"

namespace onyx::runtime {

/// Staging slots start at this alignment so that copies stay fast.
static constexpr uint64_t kSlotAlignment = 64;

/// Bytes of a tensor of `shape` and `elementType`; an error at `op` if a
/// dimension is negative or the size overflows.
static FailureOr<uint64_t> getByteSize(Operation *op, ArrayRef<int64_t> shape,
                                       int64_t elementBytes);
static FailureOr<uint64_t> getByteSize(Operation *op, ArrayRef<int64_t> shape,
                                       Type elementType) {
  return getByteSize(op, shape, int64_t(getElementByteSize(elementType)));
}

/// The same for elements of `elementBytes` each.
static FailureOr<uint64_t> getByteSize(Operation *op, ArrayRef<int64_t> shape,
                                       int64_t elementBytes) {
  int64_t bytes = elementBytes;
  for (int64_t dim : shape) {
    if (dim < 0)
      return op->emitOpError() << "has dimension " << dim << " at run time";
    if (llvm::MulOverflow(bytes, dim, bytes))
      return op->emitOpError() << "is larger than 2^63 bytes at run time";
  }
  return uint64_t(bytes);
}

void Executable::numberMemory() {
  Block &block = func.front();
  for (Operation &op : block) {
    // A view's source is numbered even where no op here defines it: it is
    // then empty, as a lookup of a value never placed is.
    if (auto view = dyn_cast<gpu::ViewOp>(&op))
      memoryNumbers.try_emplace(view.getSource(), memoryNumbers.size());
    if (isa<gpu::BufferOp, gpu::WeightOp, gpu::AllocOp, gpu::ViewOp>(&op))
      memoryNumbers.try_emplace(op.getResult(0), memoryNumbers.size());
  }
  for (gpu::AllocLiveness t : allocs) {
    AllocInfo info;
    info.number = memoryNumbers.lookup(t.alloc->getResult(0));
    gpu::ViewType type = t.alloc.getType();
    info.shape.assign(type.getShape().begin(), type.getShape().end());
    info.elementBytes = getElementByteSize(type.getElementType());
    for (Value dim : t.alloc.getDynamicDims())
      info.dimSlots.push_back(getSlot(dim));
    info.downloaded = downloaded.contains(t.alloc->getResult(0));
    allocInfo.push_back(std::move(info));
  }
  // What placement visits: the first one places the fixed ones and keeps
  // the rest (placeMemory). Allocs other than states' are placed by
  // liveness, not here.
  unsigned position = 0;
  for (Operation &op : block) {
    MemoryStep step;
    step.at = position++;
    step.op = &op;
    auto view = dyn_cast<gpu::ViewOp>(&op);
    auto alloc = dyn_cast<gpu::AllocOp>(&op);
    auto copy = dyn_cast<gpu::CopyOp>(&op);
    auto setShape = [&](gpu::ViewType type, OperandRange dims) {
      step.shape.assign(type.getShape().begin(), type.getShape().end());
      step.elementBytes = getElementByteSize(type.getElementType());
      for (Value dim : dims)
        step.dimSlots.push_back(getSlot(dim));
    };
    // Copies may name values no op here defines: they are then empty.
    auto numberOf = [&](Value value) {
      return memoryNumbers.try_emplace(value, memoryNumbers.size())
          .first->second;
    };
    if (view) {
      step.kind = MemoryStep::View;
      step.result = memoryNumbers.lookup(view->getResult(0));
      step.source = memoryNumbers.lookup(view.getSource());
      if (view.hasStaticOffset())
        step.staticOffset = view.getOffset();
      else
        step.offsetSlot = getSlot(view.getDynamicOffset());
      setShape(view.getType(), view.getDynamicDims());
      step.downloaded = downloaded.contains(view->getResult(0));
    } else if (std::optional<unsigned> arg =
                   alloc ? alloc.getStateArgument() : std::nullopt) {
      step.kind = MemoryStep::StateAlloc;
      step.stateArgument = *arg;
      step.result = memoryNumbers.lookup(alloc->getResult(0));
      setShape(alloc.getType(), alloc.getDynamicDims());
    } else if (copy) {
      step.kind = MemoryStep::Copy;
      step.source = numberOf(copy.getSource());
      step.result = numberOf(copy.getTarget());
    } else if (!isa<gpu::BufferOp, gpu::WeightOp>(&op)) {
      continue;
    }
    memoryOps.push_back(std::move(step));
  }
}

/// The bytes a run-time sized tensor of `bytes` is placed in: rounded up to
/// one of four sizes per power of two (at most a quarter more), so that a
/// size growing step by step (a decoder's past length) moves the tensors
/// placed after it only now and then, and the descriptor sets of most
/// dispatches stay as they were (Executable::SharedSet).
static uint64_t roundToSizeClass(uint64_t bytes) {
  if (bytes <= 1024)
    return llvm::alignTo(bytes, 256);
  uint64_t granule = uint64_t(1) << (llvm::Log2_64(bytes) - 2);
  return llvm::alignTo(bytes, granule);
}

/// The shape of a view type with its `?` dimensions taken from `dims`.
static SmallVector<int64_t, 4>
resolveShape(gpu::ViewType type, OperandRange dims, const HostValues &values) {
  SmallVector<int64_t, 4> shape(type.getShape());
  unsigned next = 0;
  for (int64_t &dim : shape)
    if (ShapedType::isDynamic(dim))
      dim = values.lookup(dims[next++]);
  return shape;
}

/// The shape of a `shape` with its `?` dimensions read from `slots`.
static SmallVector<int64_t, 4> resolveShape(ArrayRef<int64_t> shape,
                                            ArrayRef<unsigned> slots,
                                            ArrayRef<int64_t> values) {
  SmallVector<int64_t, 4> resolved(shape);
  unsigned next = 0;
  for (int64_t &dim : resolved)
    if (ShapedType::isDynamic(dim))
      dim = values[slots[next++]];
  return resolved;
}

/// Places `op`'s memory in `r`: a buffer or a weight. (The other ops that
/// placement visits: placeStep.)
LogicalResult Executable::placeOp(Recording &r, Operation &op) {
  if (auto buffer = dyn_cast<gpu::BufferOp>(&op)) {
    r.memory[buffer->getResult(0)] = {bufferIndex.lookup(buffer), 0,
                                      buffer.getType().getSize(), false};
  } else if (auto weight = dyn_cast<gpu::WeightOp>(&op)) {
    MemoryAccess base = r.memory.lookup(weight.getBuffer());
    uint64_t size = weight.getType().getSizeInBytes();
    r.memory[weight->getResult(0)] = {
        base.buffer, base.begin + weight.getOffset(),
        base.begin + weight.getOffset() + size, false};
    if (downloaded.contains(weight->getResult(0)))
      r.shapes[weight->getResult(0)] =
          SmallVector<int64_t, 4>(weight.getType().getShape());
  }
  return success();
}

LogicalResult Executable::placeStep(
    Recording &r, const MemoryStep &step,
    SmallVectorImpl<std::pair<unsigned, uint64_t>> &stateSizes) {
  ArrayRef<int64_t> v = r.values.data;
  if (step.kind == MemoryStep::Copy) {
    MemoryAccess from = r.memory[step.source], to = r.memory[step.result];
    if (from.end - from.begin != to.end - to.begin)
      return step.op->emitOpError()
             << "copies " << from.end - from.begin << " bytes into a view of "
             << to.end - to.begin << " bytes at run time";
    return success();
  }
  if (step.kind == MemoryStep::StateAlloc) {
    // A state's memory, from its start (the other allocs are placed above).
    int index = findState(/*isResult=*/false, step.stateArgument);
    if (index < 0)
      return step.op->emitOpError()
             << "holds the state of argument #" << step.stateArgument
             << ", but no state binding names that argument";
    SmallVector<int64_t, 4> shape = resolveShape(step.shape, step.dimSlots, v);
    FailureOr<uint64_t> bytes = getByteSize(step.op, shape, step.elementBytes);
    if (failed(bytes))
      return failure();
    stateSizes.push_back({unsigned(index), *bytes});
    r.memory[step.result] = {states[index].buffer, 0, *bytes, false};
    r.shapes[step.op->getResult(0)] = shape;
    return success();
  }
  if (step.kind != MemoryStep::View)
    return placeOp(r, *step.op);
  Operation *view = step.op;
  MemoryAccess base = r.memory[step.source];
  int64_t offset = step.offsetSlot < 0 ? step.staticOffset : v[step.offsetSlot];
  SmallVector<int64_t, 4> shape = resolveShape(step.shape, step.dimSlots, v);
  FailureOr<uint64_t> size = getByteSize(view, shape, step.elementBytes);
  if (failed(size))
    return failure();
  uint64_t sourceSize = base.end - base.begin;
  if (offset < 0 || uint64_t(offset) > sourceSize ||
      *size > sourceSize - uint64_t(offset))
    return view->emitOpError()
           << "bytes [" << offset << ", " << offset + int64_t(*size)
           << ") exceed the " << sourceSize
           << " bytes of its source at run time";
  r.memory[step.result] = {base.buffer, base.begin + uint64_t(offset),
                           base.begin + uint64_t(offset) + *size, false};
  // Only the results' shapes are read back.
  if (step.downloaded)
    r.shapes[view->getResult(0)] = shape;
  return success();
}

LogicalResult Executable::placeMemory(Recording &r) {
  SmallVector<std::pair<unsigned, uint64_t>> stateSizes;
  // Weights, fixed buffers and the views of static shape and offset into
  // them are where they were: placed once, copied in.
  if (!staticMemory) {
    auto fixed = std::make_unique<Recording>();
    fixed->values.slots = &hostSlots;
    fixed->memory.numbers = &memoryNumbers;
    fixed->memory.places.assign(memoryNumbers.size(), {});
    std::vector<bool> isFixed(memoryNumbers.size());
    std::vector<MemoryStep> rest;
    for (const MemoryStep &step : memoryOps) {
      bool fixedStep = step.kind == MemoryStep::Other ||
                       (step.kind == MemoryStep::View && step.offsetSlot < 0 &&
                        step.dimSlots.empty() && isFixed[step.source]);
      if (!fixedStep) {
        rest.push_back(step);
        continue;
      }
      isFixed[step.kind == MemoryStep::View
                  ? step.result
                  : memoryNumbers.lookup(step.op->getResult(0))] = true;
      if (failed(placeStep(*fixed, step, stateSizes)))
        return failure();
    }
    staticMemory = std::move(fixed);
    memoryOps = std::move(rest);
  }
  r.memory = staticMemory->memory;
  for (const auto &entry : staticMemory->shapes)
    r.shapes.insert(entry);
  ArrayRef<int64_t> v = r.values.data;

  // Only the ops before the recording's cut have their host values. The
  // allocs first used there are placed as the whole function's plan places
  // them (by first use, first fit), so every segment finds the tensors of
  // the segments before it where they left them.
  unsigned cut = cuts[r.level];
  SmallVector<gpu::AllocLiveness> allocs;
  SmallVector<unsigned> allocIndices;
  for (auto [i, t] : llvm::enumerate(this->allocs)) {
    if (t.first >= cut)
      continue;
    allocs.push_back(t);
    allocIndices.push_back(i);
  }
  // The gpu.allocs, sized for these dims and placed by liveness.
  SmallVector<uint64_t> sizes, reserved, offsets;
  sizes.reserve(allocs.size());
  reserved.reserve(allocs.size());
  for (auto [t, i] : llvm::zip(allocs, allocIndices)) {
    const AllocInfo &info = allocInfo[i];
    SmallVector<int64_t, 4> shape = resolveShape(info.shape, info.dimSlots, v);
    FailureOr<uint64_t> bytes = getByteSize(t.alloc, shape, info.elementBytes);
    if (failed(bytes))
      return failure();
    sizes.push_back(*bytes);
    reserved.push_back(info.dimSlots.empty() ? *bytes
                                             : roundToSizeClass(*bytes));
    r.stats.runtimeTensorBytes += *bytes;
    if (info.downloaded)
      r.shapes[t.alloc->getResult(0)] = shape;
  }
  uint64_t alignment = device.getTarget().minStorageBufferOffsetAlignment;
  uint64_t arenaBytes = 0;
  if (plannedOffsets.empty() && lastPlacement.cut == cut &&
      lastPlacement.reserved == reserved) {
    // Consecutive runs (a decoder's steps) mostly reserve the same sizes:
    // the last placement is reused as it is.
    offsets = lastPlacement.offsets;
    arenaBytes = lastPlacement.arenaBytes;
  } else if (plannedOffsets.empty()) {
    arenaBytes = gpu::placeFirstFit(allocs, reserved, alignment, offsets);
    counters.placements += !allocs.empty();
    lastPlacement = {cut, reserved, offsets, arenaBytes};
  } else {
    // Planned for the bounds (planForBounds): those tensors stay where they
    // were planned. Sizes that argument values decide, and sizes that do
    // not grow with the dims and need more in this run than at the bounds
    // (a GEMM's partial sums, used only below some number of rows), go
    // above them.
    SmallVector<gpu::AllocLiveness> rest;
    SmallVector<uint64_t> restBytes, restOffsets;
    SmallVector<unsigned> restAt;
    offsets.assign(allocs.size(), 0);
    for (auto [k, i] : llvm::enumerate(allocIndices)) {
      if (plannedOffsets[i] == kUnplanned || sizes[k] > plannedBytes[i]) {
        rest.push_back(allocs[k]);
        restBytes.push_back(reserved[k]);
        restAt.push_back(k);
        continue;
      }
      offsets[k] = plannedOffsets[i];
    }
    arenaBytes = plannedArenaBytes;
    if (!rest.empty()) {
      uint64_t base = llvm::alignTo(plannedArenaBytes, alignment);
      arenaBytes =
          base + gpu::placeFirstFit(rest, restBytes, alignment, restOffsets);
      for (auto [k, offset] : llvm::zip(restAt, restOffsets))
        offsets[k] = base + offset;
      ++counters.placements;
    }
  }
  r.stats.runtimeArenaBytes = arenaBytes;
  // Checked before the arena grows: validateModule checked the fixed
  // buffers at load, the rest of the budget is the arena's.
  if (arenaBytes > memoryBudget - std::min(memoryBudget, fixedBufferBytes)) {
    size_t largest = 0;
    for (size_t i = 1; i < sizes.size(); ++i)
      if (sizes[i] > sizes[largest])
        largest = i;
    gpu::AllocOp alloc = allocs[largest].alloc;
    SmallVector<int64_t, 4> shape =
        resolveShape(alloc.getType(), alloc.getDynamicDims(), r.values);
    return emitError(alloc.getLoc())
           << "the tensors placed at run time need " << arenaBytes
           << " bytes (the largest, the result of the op at this location: "
           << Type(RankedTensorType::get(shape,
                                         alloc.getType().getElementType()))
           << ", " << sizes[largest] << " bytes); with the " << fixedBufferBytes
           << " bytes of weights and fixed buffers, that exceeds the memory "
              "budget of "
           << memoryBudget << " bytes ("
           << (budgetFromOption ? "--max-memory"
                                : "the device's device-local heap")
           << ")";
  }
  if (arenaBytes > device.getInfo().maxMemoryAllocationSize)
    return emitError(func.getLoc())
           << "tensors placed at run time need " << arenaBytes
           << " bytes, more than device '" << device.getInfo().name
           << "' allocates at once";
  if (failed(ensureSize(buffers[runtimeArena], arenaBytes, MemoryKind::Device)))
    return failure();
  for (auto [i, offset, size] : llvm::zip(allocIndices, offsets, sizes))
    r.memory[allocInfo[i].number] = {runtimeArena, offset, offset + size,
                                     false};

  for (const MemoryStep &step : memoryOps) {
    if (step.at >= cut)
      break;
    if (failed(placeStep(r, step, stateSizes)))
      return failure();
  }

  // Staging slots, sized for these shapes.
  auto addSlot = [](uint64_t &total, uint64_t size) {
    Slot slot{llvm::alignTo(total, kSlotAlignment), size};
    total = slot.offset + size;
    return slot;
  };
  for (const CommandStep &step : commandOps) {
    if (step.at >= cut)
      break;
    if (step.kind != StepKind::Upload && step.kind != StepKind::Download)
      continue;
    Operation &op = *step.op;
    if (auto upload = dyn_cast<gpu::UploadOp>(&op)) {
      unsigned arg = cast<BlockArgument>(upload.getSource()).getArgNumber();
      MemoryAccess to = r.memory.lookup(upload.getTarget());
      if (!r.inputSlots.count(arg) && !r.argumentStates.count(arg))
        r.inputSlots[arg] = addSlot(r.inputBytes, to.end - to.begin);
    } else if (auto download = dyn_cast<gpu::DownloadOp>(&op)) {
      MemoryAccess from = r.memory.lookup(download.getSource());
      uint64_t bytes = from.end - from.begin;
      unsigned result = r.resultNumbers.lookup(download);
      auto state = r.resultStates.find(result);
      if (auto alloc = download.getSource().getDefiningOp<gpu::AllocOp>();
          alloc && alloc.getStateArgument()) {
        // Written in place: it must stay in the state the argument reads.
        unsigned arg = *alloc.getStateArgument();
        if (state == r.resultStates.end() ||
            states[state->second].binding.argument != arg)
          return download.emitOpError()
                 << "returns result #" << result
                 << " in the state of argument #" << arg
                 << ": the run must keep it there, with a state binding "
                    "from that result to that argument";
        continue;
      }
      if (llvm::is_contained(r.discarded, result))
        continue;
      if (state != r.resultStates.end()) {
        // Kept on the device: its state must hold this run's bytes.
        stateSizes.push_back({state->second, bytes});
        if (!llvm::is_contained(r.downloadedStates, result))
          continue;
      }
      auto last = r.lastElements.find(result);
      if (last != r.lastElements.end()) {
        uint64_t lastBytes =
            last->second *
            getElementByteSize(
                cast<gpu::ViewType>(download.getSource().getType())
                    .getElementType());
        if (lastBytes > bytes)
          return download.emitOpError()
                 << "downloads its last " << last->second
                 << " elements, but result #" << result << " has only " << bytes
                 << " bytes at run time";
        bytes = lastBytes;
      }
      r.outputSlots[download] = addSlot(r.outputBytes, bytes);
    }
  }
  if (failed(ensureStateSizes(stateSizes)) ||
      failed(ensureSize(inputStaging[r.stagingSet], r.inputBytes,
                        MemoryKind::Upload)) ||
      failed(ensureSize(outputStaging[r.stagingSet], r.outputBytes,
                        MemoryKind::Readback)))
    return failure();
  return success();
}

LogicalResult Executable::checkBounds(ArrayRef<HostTensorRef> inputs) {
  for (const DimBound &bound : dimBounds) {
    if (bound.argument >= inputs.size() ||
        bound.dim >= inputs[bound.argument].type.getRank())
      continue;
    int64_t size = inputs[bound.argument].type.getShape()[bound.dim];
    if (size > bound.max)
      return emitError(func.getLoc())
             << "dimension '" << bound.name << "' is " << size
             << " in this run (dimension " << bound.dim << " of argument #"
             << bound.argument << "), above its declared maximum " << bound.max;
  }
  return success();
}

LogicalResult Executable::planForBounds(ArrayRef<DimBound> bounds) {
  FunctionType type = func.getFunctionType();
  if (loops)
    return emitError(func.getLoc())
           << "@" << func.getSymName()
           << " has gpu.loops, whose tensors are placed for each set of trip "
              "counts; it cannot be planned for bounds";
  SmallVector<SmallVector<int64_t, 4>> shapes;
  for (Type input : type.getInputs())
    shapes.emplace_back(cast<RankedTensorType>(input).getShape());
  for (const DimBound &bound : bounds) {
    if (bound.argument >= shapes.size() ||
        bound.dim >= shapes[bound.argument].size() ||
        !ShapedType::isDynamic(
            cast<RankedTensorType>(type.getInputs()[bound.argument])
                .getShape()[bound.dim]))
      return emitError(func.getLoc())
             << "the bound of '" << bound.name << "' names dimension "
             << bound.dim << " of argument #" << bound.argument
             << ", which is not a dimension known only at run time";
    if (bound.max < 0)
      return emitError(func.getLoc()) << "the bound of '" << bound.name
                                      << "' is negative: " << bound.max;
    int64_t &size = shapes[bound.argument][bound.dim];
    size = ShapedType::isDynamic(size) ? bound.max : std::min(size, bound.max);
  }
  std::vector<HostTensorRef> inputs;
  for (auto [i, shape] : llvm::enumerate(shapes)) {
    for (auto [d, size] : llvm::enumerate(shape))
      if (ShapedType::isDynamic(size))
        return emitError(func.getLoc())
               << "dimension " << d << " of argument #" << i
               << " is known only at run time and has no bound";
    inputs.push_back(
        {RankedTensorType::get(
             shape,
             cast<RankedTensorType>(type.getInputs()[i]).getElementType()),
         {}});
  }
  // Recordings made so far placed their tensors otherwise.
  settle();
  dropRecordings();
  Recording r;
  std::vector<bool> known;
  if (failed(evaluateHostOps(r, inputs, {}, &known)))
    return failure();
  SmallVector<gpu::AllocLiveness> planned;
  SmallVector<uint64_t> bytes, offsets;
  SmallVector<unsigned> plannedAt;
  for (auto [i, t] : llvm::enumerate(allocs)) {
    bool fromDims = llvm::all_of(t.alloc.getDynamicDims(), [&](Value dim) {
      auto slot = hostSlots.find(dim);
      return slot != hostSlots.end() && known[slot->second];
    });
    if (!fromDims)
      continue;
    SmallVector<int64_t, 4> shape =
        resolveShape(t.alloc.getType(), t.alloc.getDynamicDims(), r.values);
    FailureOr<uint64_t> size =
        getByteSize(t.alloc, shape, t.alloc.getType().getElementType());
    if (failed(size))
      return failure();
    planned.push_back(t);
    bytes.push_back(*size);
    plannedAt.push_back(i);
  }
  uint64_t arenaBytes = gpu::placeFirstFit(
      planned, bytes, device.getTarget().minStorageBufferOffsetAlignment,
      offsets);
  if (arenaBytes > memoryBudget - std::min(memoryBudget, fixedBufferBytes))
    return emitError(func.getLoc())
           << "the tensors planned for the dims' bounds need " << arenaBytes
           << " bytes; with the " << fixedBufferBytes
           << " bytes of weights and fixed buffers, that exceeds the memory "
              "budget of "
           << memoryBudget << " bytes";
  if (arenaBytes > device.getInfo().maxMemoryAllocationSize)
    return emitError(func.getLoc())
           << "the tensors planned for the dims' bounds need " << arenaBytes
           << " bytes, more than device '" << device.getInfo().name
           << "' allocates at once";
  if (failed(ensureSize(buffers[runtimeArena], arenaBytes, MemoryKind::Device)))
    return failure();
  plannedOffsets.assign(allocs.size(), kUnplanned);
  plannedBytes.assign(allocs.size(), 0);
  for (auto [i, offset, size] : llvm::zip(plannedAt, offsets, bytes)) {
    plannedOffsets[i] = offset;
    plannedBytes[i] = size;
  }
  plannedArenaBytes = arenaBytes;
  dimBounds.assign(bounds.begin(), bounds.end());
  ++counters.placements;
  return success();
}

} // namespace onyx::runtime

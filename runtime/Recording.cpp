//===- Recording.cpp - Host ops and tensor placement for one run ----------===//
#include "runtime/Recording.h"
#include "runtime/LoopRecording.h"

#include "dialect/gpu/AllocPlanning.h"
#include "dialect/gpu/HostOps.h"

#include "ir/Diagnostics.h"

#include "llvm/Support/MathExtras.h"

#include <cstdio>
#include <cstring>

namespace onyx::runtime {

/// Staging slots start at this alignment so that copies stay fast.
static constexpr uint64_t kSlotAlignment = 64;

/// Bytes of a tensor of `shape` and `elementType`; an error at `op` if a
/// dimension is negative or the size overflows.
static FailureOr<uint64_t> getByteSize(Operation *op, ArrayRef<int64_t> shape,
                                       Type elementType) {
  int64_t bytes = getElementByteSize(elementType);
  for (int64_t dim : shape) {
    if (dim < 0)
      return op->emitOpError() << "has dimension " << dim << " at run time";
    if (llvm::MulOverflow(bytes, dim, bytes))
      return op->emitOpError() << "is larger than 2^63 bytes at run time";
  }
  return uint64_t(bytes);
}

/// Reads element `index` of an integer tensor as an int64.
static int64_t readInteger(const HostTensorRef &tensor, int64_t index) {
  Type type = tensor.type.getElementType();
  unsigned width = getElementByteSize(type);
  const char *at = tensor.data.data() + index * width;
  bool isUnsigned = cast<IntegerType>(type).isUnsigned();
  switch (width) {
  case 1:
    return isUnsigned ? int64_t(uint8_t(*at)) : int64_t(int8_t(*at));
  case 2: {
    uint16_t v;
    std::memcpy(&v, at, 2);
    return isUnsigned ? int64_t(v) : int64_t(int16_t(v));
  }
  case 4: {
    uint32_t v;
    std::memcpy(&v, at, 4);
    return isUnsigned ? int64_t(v) : int64_t(int32_t(v));
  }
  default: {
    int64_t v;
    std::memcpy(&v, at, 8);
    return v;
  }
  }
}

/// Reads element `index` of a float tensor, widened to double.
static double readFloat(const HostTensorRef &tensor, int64_t index = 0) {
  auto type = cast<FloatType>(tensor.type.getElementType());
  unsigned width = getElementByteSize(type);
  uint64_t bits = 0;
  std::memcpy(&bits, tensor.data.data() + index * width, width);
  llvm::APFloat value(type.getFloatSemantics(), llvm::APInt(width * 8, bits));
  bool lost;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
  return value.convertToDouble();
}

/// The value of `op`, a gpu.range_count, for `inputs`; nullopt with the
/// reason in `error` where the run cannot have one.
std::optional<int64_t> evaluateRangeCount(gpu::RangeCountOp op,
                                          ArrayRef<HostTensorRef> inputs,
                                          std::string &error) {
  double bounds[3];
  for (unsigned i = 0; i < 3; ++i)
    bounds[i] = readFloat(
        inputs[cast<BlockArgument>(op->getOperand(i)).getArgNumber()]);
  std::optional<int64_t> count =
      gpu::evaluateRangeCount(bounds[0], bounds[1], bounds[2], error);
  if (!count) {
    char text[128];
    std::snprintf(text, sizeof(text),
                  "a range of start %g, limit %g and delta %g: ", bounds[0],
                  bounds[1], bounds[2]);
    error = text + error;
  }
  return count;
}

/// The value of `op`, a gpu.extract, for `inputs`; nullopt with the reason
/// in `error` where a float element has no integer value.
std::optional<int64_t> evaluateExtract(gpu::ExtractOp op,
                                       ArrayRef<HostTensorRef> inputs,
                                       std::string &error) {
  const HostTensorRef &tensor =
      inputs[cast<BlockArgument>(op.getTensor()).getArgNumber()];
  if (!isa<FloatType>(tensor.type.getElementType()))
    return readInteger(tensor, op.getIndex());
  double value = readFloat(tensor, op.getIndex());
  std::optional<int64_t> result = gpu::evaluateFloatExtract(value, error);
  if (!result) {
    char text[64];
    std::snprintf(text, sizeof(text), "%g", value);
    error =
        "element " + std::to_string(op.getIndex()) + " (" + text + ") " + error;
  }
  return result;
}

/// The value of `op`, a gpu.scale_dim of `size`, for `inputs`; nullopt with
/// the reason in `error` where it fails.
std::optional<int64_t> evaluateScaleDim(gpu::ScaleDimOp op, int64_t size,
                                        ArrayRef<HostTensorRef> inputs,
                                        std::string &error) {
  double scale =
      readFloat(inputs[cast<BlockArgument>(op.getTensor()).getArgNumber()],
                op.getIndex());
  std::optional<int64_t> result = gpu::evaluateScaleDim(size, scale, error);
  if (!result) {
    char text[64];
    std::snprintf(text, sizeof(text), "%g", scale);
    error = std::string("a scale of ") + text + " " + error;
  }
  return result;
}

void Executable::buildHostProgram() {
  auto slotOf = [&](Value value) {
    auto [it, inserted] = hostSlots.try_emplace(value, hostConstants.size());
    if (inserted)
      hostConstants.push_back(0);
    return it->second;
  };
  for (Operation &op : func.front()) {
    if (auto constant = dyn_cast<gpu::ConstantOp>(&op)) {
      unsigned slot = slotOf(constant->getResult(0));
      hostConstants[slot] = constant.getValue();
      continue;
    }
    if (!isa<gpu::DimOp, gpu::ExtractOp, gpu::RangeCountOp, gpu::ScaleDimOp,
             gpu::ReadCountOp, gpu::HostArithOp, gpu::SelectOp, gpu::AssertOp>(
            &op))
      continue;
    HostStep step{&op, 0, {}};
    // Dims, extracts and range counts read block arguments, and read counts
    // a view, which have no slot; an assert's operands are its condition,
    // then the values its message shows.
    for (Value operand : op.getOperands())
      if (!isa<BlockArgument>(operand) && operand.getType().isIndex())
        step.operands.push_back(slotOf(operand));
    if (op.getNumResults())
      step.result = slotOf(op.getResult(0));
    if (auto arith = dyn_cast<gpu::HostArithOp>(&op))
      step.arith = arith.getFunction();
    hostProgram.push_back(std::move(step));
  }
}

LogicalResult Executable::evaluateHostOps(Recording &r,
                                          ArrayRef<HostTensorRef> inputs,
                                          ArrayRef<int64_t> counts,
                                          std::vector<bool> *known) {
  r.values.slots = &hostSlots;
  std::vector<int64_t> &v = r.values.data;
  v = hostConstants;
  if (known)
    known->assign(v.size(), true);
  unsigned readCount = 0;
  for (const HostStep &step : hostProgram) {
    // Integer arithmetic, most of the program, first (planning for bounds
    // tracks what is known below).
    if (step.arith && !known) {
      std::string error;
      int64_t lhs = v[step.operands[0]], rhs = v[step.operands[1]];
      std::optional<int64_t> result = step.arith(lhs, rhs, error);
      if (!result)
        return step.op->emitOpError()
               << "of " << lhs << " and " << rhs << " " << error;
      v[step.result] = *result;
      continue;
    }
    Operation &op = *step.op;
    if (known) {
      // Planning for bounds: only what the dims decide is known.
      if (isa<gpu::AssertOp>(&op))
        continue;
      bool isKnown =
          !isa<gpu::ReadCountOp, gpu::ExtractOp, gpu::ScaleDimOp,
               gpu::RangeCountOp>(&op) &&
          llvm::all_of(step.operands, [&](unsigned s) { return (*known)[s]; });
      if (auto arith = dyn_cast<gpu::HostArithOp>(&op); arith && isKnown) {
        std::string error;
        FailureOr<int64_t> result =
            arith.evaluate(v[step.operands[0]], v[step.operands[1]], error);
        isKnown = succeeded(result);
        if (isKnown)
          v[step.result] = *result;
        (*known)[step.result] = isKnown;
        continue;
      }
      if (!isKnown) {
        (*known)[step.result] = false;
        continue;
      }
    }
    if (isa<gpu::ReadCountOp>(&op)) {
      // The ops after a count not read yet wait for a later segment.
      if (readCount == counts.size())
        break;
      v[step.result] = counts[readCount++];
    } else if (auto dim = dyn_cast<gpu::DimOp>(&op)) {
      unsigned arg = cast<BlockArgument>(dim.getTensor()).getArgNumber();
      v[step.result] = inputs[arg].type.getShape()[dim.getIndex()];
    } else if (auto extract = dyn_cast<gpu::ExtractOp>(&op)) {
      std::string error;
      std::optional<int64_t> value = evaluateExtract(extract, inputs, error);
      if (!value)
        return emitError(op.getLoc()) << error;
      v[step.result] = *value;
    } else if (auto scale = dyn_cast<gpu::ScaleDimOp>(&op)) {
      std::string error;
      std::optional<int64_t> value =
          evaluateScaleDim(scale, v[step.operands[0]], inputs, error);
      if (!value)
        return emitError(op.getLoc()) << error;
      v[step.result] = *value;
    } else if (auto count = dyn_cast<gpu::RangeCountOp>(&op)) {
      std::string error;
      std::optional<int64_t> value = evaluateRangeCount(count, inputs, error);
      // The location is the onnx node's.
      if (!value)
        return emitError(op.getLoc()) << error;
      v[step.result] = *value;
    } else if (isa<gpu::SelectOp>(&op)) {
      v[step.result] = v[step.operands[v[step.operands[0]] ? 1 : 2]];
    } else if (auto check = dyn_cast<gpu::AssertOp>(&op)) {
      if (v[step.operands[0]])
        continue;
      SmallVector<int64_t> values;
      for (unsigned slot : ArrayRef<unsigned>(step.operands).drop_front())
        values.push_back(v[slot]);
      // The message names the op it checks for (the onnx node).
      return emitError(op.getLoc()) << check.formatMessage(values);
    }
  }
  return success();
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

/// Places `op`'s memory in `r`: a state's alloc, a buffer, a weight or a
/// view; checks a copy's sizes.
LogicalResult Executable::placeOp(
    Recording &r, Operation &op,
    SmallVectorImpl<std::pair<unsigned, uint64_t>> &stateSizes) {
  if (auto alloc = dyn_cast<gpu::AllocOp>(&op)) {
    // A state's memory, from its start (the others are placed above).
    std::optional<unsigned> arg = alloc.getStateArgument();
    if (!arg)
      return success();
    int index = findState(/*isResult=*/false, *arg);
    if (index < 0)
      return alloc.emitOpError()
             << "holds the state of argument #" << *arg
             << ", but no state binding names that argument";
    SmallVector<int64_t, 4> shape =
        resolveShape(alloc.getType(), alloc.getDynamicDims(), r.values);
    FailureOr<uint64_t> bytes =
        getByteSize(alloc, shape, alloc.getType().getElementType());
    if (failed(bytes))
      return failure();
    stateSizes.push_back({unsigned(index), *bytes});
    r.memory[alloc->getResult(0)] = {states[index].buffer, 0, *bytes, false};
    r.shapes[alloc->getResult(0)] = shape;
  } else if (auto buffer = dyn_cast<gpu::BufferOp>(&op)) {
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
  } else if (auto view = dyn_cast<gpu::ViewOp>(&op)) {
    MemoryAccess base = r.memory.lookup(view.getSource());
    int64_t offset = view.hasStaticOffset()
                         ? int64_t(view.getOffset())
                         : r.values.lookup(view.getDynamicOffset());
    SmallVector<int64_t, 4> shape =
        resolveShape(view.getType(), view.getDynamicDims(), r.values);
    FailureOr<uint64_t> size =
        getByteSize(view, shape, view.getType().getElementType());
    if (failed(size))
      return failure();
    uint64_t sourceSize = base.end - base.begin;
    if (offset < 0 || uint64_t(offset) > sourceSize ||
        *size > sourceSize - uint64_t(offset))
      return view.emitOpError()
             << "bytes [" << offset << ", " << offset + int64_t(*size)
             << ") exceed the " << sourceSize
             << " bytes of its source at run time";
    r.memory[view->getResult(0)] = {base.buffer, base.begin + offset,
                                    base.begin + offset + *size, false};
    // Only the results' shapes are read back.
    if (downloaded.contains(view->getResult(0)))
      r.shapes[view->getResult(0)] = shape;
  } else if (auto copy = dyn_cast<gpu::CopyOp>(&op)) {
    MemoryAccess from = r.memory.lookup(copy.getSource());
    MemoryAccess to = r.memory.lookup(copy.getTarget());
    if (from.end - from.begin != to.end - to.begin)
      return copy.emitOpError()
             << "copies " << from.end - from.begin << " bytes into a view of "
             << to.end - to.begin << " bytes at run time";
  }
  return success();
}

LogicalResult Executable::placeMemory(Recording &r) {
  Block &block = func.front();
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
  r.memory.own.reserve(allocs.size() + memoryOps.size());
  SmallVector<uint64_t> sizes, reserved, offsets;
  for (gpu::AllocLiveness t : allocs) {
    SmallVector<int64_t, 4> shape =
        resolveShape(t.alloc.getType(), t.alloc.getDynamicDims(), r.values);
    FailureOr<uint64_t> bytes =
        getByteSize(t.alloc, shape, t.alloc.getType().getElementType());
    if (failed(bytes))
      return failure();
    sizes.push_back(*bytes);
    reserved.push_back(
        t.alloc.getDynamicDims().empty() ? *bytes : roundToSizeClass(*bytes));
    r.stats.runtimeTensorBytes += *bytes;
    if (downloaded.contains(t.alloc->getResult(0)))
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
  for (auto [t, offset, size] : llvm::zip(allocs, offsets, sizes))
    r.memory[t.alloc->getResult(0)] = {runtimeArena, offset, offset + size,
                                       false};

  SmallVector<std::pair<unsigned, uint64_t>> stateSizes;
  // Weights, fixed buffers and the views of static shape and offset into
  // them are where they were: placed once, copied in.
  if (!staticMemory) {
    staticMemory = std::make_unique<Recording>();
    staticMemory->values.slots = &hostSlots;
    unsigned position = 0;
    for (Operation &op : block) {
      unsigned at = position++;
      auto view = dyn_cast<gpu::ViewOp>(&op);
      bool fixed =
          isa<gpu::BufferOp, gpu::WeightOp>(&op) ||
          (view && view.hasStaticOffset() && view.getDynamicDims().empty() &&
           staticMemory->memory.contains(view.getSource()));
      if (!fixed) {
        if (isa<gpu::AllocOp, gpu::ViewOp, gpu::CopyOp>(&op))
          memoryOps.push_back({at, &op});
        continue;
      }
      if (failed(placeOp(*staticMemory, op, stateSizes)))
        return failure();
    }
  }
  r.memory.fixed = &staticMemory->memory.own;
  for (const auto &entry : staticMemory->shapes)
    r.shapes.insert(entry);
  for (auto [at, op] : memoryOps) {
    if (at >= cut)
      break;
    if (failed(placeOp(r, *op, stateSizes)))
      return failure();
  }

  // Staging slots, sized for these shapes.
  auto addSlot = [](uint64_t &total, uint64_t size) {
    Slot slot{llvm::alignTo(total, kSlotAlignment), size};
    total = slot.offset + size;
    return slot;
  };
  for (auto [at, opPointer] : commandOps) {
    Operation &op = *opPointer;
    if (at >= cut)
      break;
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
      if (state != r.resultStates.end()) {
        // Kept on the device: its state must hold this run's bytes.
        stateSizes.push_back({state->second, bytes});
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
      failed(ensureSize(inputStaging, r.inputBytes, MemoryKind::Upload)) ||
      failed(ensureSize(outputStaging, r.outputBytes, MemoryKind::Readback)))
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

std::vector<int64_t> getRecordingKey(ArrayRef<Operation *> readers,
                                     ArrayRef<HostTensorRef> inputs,
                                     const RunOptions &options) {
  std::vector<int64_t> key;
  for (const HostTensorRef &input : inputs) {
    key.push_back(input.type.getRank());
    llvm::append_range(key, input.type.getShape());
  }
  for (Operation *op : readers) {
    // An integer element is its value; a float one (gpu.extract of a
    // float, gpu.scale_dim) its bits as a double.
    Value tensor;
    int64_t index = 0;
    if (auto extract = dyn_cast<gpu::ExtractOp>(op)) {
      tensor = extract.getTensor();
      index = extract.getIndex();
    } else if (auto scale = dyn_cast<gpu::ScaleDimOp>(op)) {
      tensor = scale.getTensor();
      index = scale.getIndex();
    }
    if (tensor) {
      const HostTensorRef &t =
          inputs[cast<BlockArgument>(tensor).getArgNumber()];
      if (isa<FloatType>(t.type.getElementType())) {
        double value = readFloat(t, index);
        int64_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        key.push_back(bits);
      } else {
        key.push_back(readInteger(t, index));
      }
    }
    // A count that fails is reported when the host ops run.
    if (auto count = dyn_cast<gpu::RangeCountOp>(op)) {
      std::string error;
      key.push_back(evaluateRangeCount(count, inputs, error).value_or(-1));
    }
  }
  // Where arguments come from and results go: -1 separates the lists.
  key.push_back(-1);
  llvm::append_range(key, options.argumentsFromState);
  key.push_back(-1);
  llvm::append_range(key, options.resultsToState);
  for (auto [result, count] : options.lastElements) {
    key.push_back(-1);
    key.push_back(result);
    key.push_back(int64_t(count));
  }
  return key;
}

} // namespace onyx::runtime

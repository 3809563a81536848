//===- Running.cpp - Launching a run, waiting for it, preparing ahead -----===//
//
// A run copies its inputs into staging memory and submits its recording
// (launch), then waits and copies the outputs out (finish). Between the two
// the host may make the recording of a later run (prepare), or launch it: a
// second run in flight copies through the other set of staging memory, and
// the queue runs it after the first. Anything that must change a buffer a
// run in flight uses waits for them first (settle).
//
//===----------------------------------------------------------------------===//
#include "runtime/LoopRecording.h"
#include "runtime/Recording.h"

#include "ir/Diagnostics.h"

#include "llvm/ADT/DenseSet.h"

#include <cstring>
#include <optional>

namespace onyx::runtime {

FailureOr<std::vector<HostTensor>>
Executable::run(ArrayRef<HostTensor> inputs) {
  std::vector<HostTensorRef> refs;
  for (const HostTensor &input : inputs)
    refs.push_back({input.type, input.data});
  return runViews(refs);
}

LogicalResult Executable::checkInputs(ArrayRef<HostTensorRef> inputs,
                                      const RunOptions &options,
                                      bool shapesOnly) {
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
      // Read from device memory: checked against the state at launch.
      if (!input.data.empty())
        return emitError(loc) << "input #" << unsigned(i)
                              << " comes from a state and takes no data";
      continue;
    }
    // The first run has nothing in the state yet: an empty input.
    if (llvm::is_contained(inPlaceArguments, unsigned(i)) &&
        input.type.getNumElements() != 0)
      return emitError(loc)
             << "input #" << unsigned(i) << " of @" << func.getSymName()
             << " is read in place from its state; it must come from the "
                "state (RunOptions::argumentsFromState) or be empty, got "
             << Type(input.type);
    if (shapesOnly && input.data.empty())
      continue;
    if (input.data.size() != bytes)
      return emitError(loc) << "input #" << unsigned(i) << " holds "
                            << uint64_t(input.data.size())
                            << " bytes; its type needs " << bytes;
  }
  // Checked before the key, which reads the values host ops read.
  for (Operation *op : valueReaders) {
    for (Value operand : op->getOperands()) {
      // gpu.scale_dim's size is a host value, not an input.
      auto argument = dyn_cast<BlockArgument>(operand);
      if (!argument)
        continue;
      unsigned arg = argument.getArgNumber();
      if (llvm::is_contained(options.argumentsFromState, arg))
        return op->emitOpError()
               << "reads the values of an argument that comes from a state";
      if (inputs[arg].data.empty() && inputs[arg].type.getNumElements())
        return op->emitOpError()
               << "reads the values of input #" << arg
               << ", which a recording made ahead of its run must be given";
    }
  }
  return success();
}

LogicalResult Executable::launch(ArrayRef<HostTensorRef> inputs,
                                 const RunOptions &options) {
  if (loops)
    return loops->launch(*this, inputs, options);
  Location loc = func.getLoc();
  if (!inFlight.empty() &&
      (!canOverlapRuns() || inFlight.size() == kMaxRunsInFlight))
    return emitError(loc) << "a run of @" << func.getSymName()
                          << " is in flight; finish it before the next";
  if (failed(checkInputs(inputs, options, /*shapesOnly=*/false)))
    return failure();
  if (!readCounts.empty())
    return launchSegments(inputs, options);
  FailureOr<Recording *> found = getRecording(inputs, options);
  if (failed(found))
    return failure();
  Recording &r = **found;
  lastStats = r.stats;
  llvm::DenseSet<unsigned> copied;
  if (failed(stageInputs(r, inputs, copied)))
    return failure();
  FailureOr<uint64_t> submission = device.submit(r.commands, loc);
  if (failed(submission))
    return failure();
  commitStateBytes(r);
  InFlight &run = inFlight.emplace_back();
  run.recording = &r;
  run.submission = *submission;
  return success();
}

LogicalResult Executable::launchSegments(ArrayRef<HostTensorRef> inputs,
                                         const RunOptions &options) {
  Location loc = func.getLoc();
  // Making a later segment's recording may grow a buffer, which loses what
  // the earlier segments left there: the run then starts again, and finds
  // every buffer large enough up to that segment (the sizes are the same
  // each time), so each attempt gets further than the one before.
  for (unsigned attempt = 0; attempt <= readCounts.size(); ++attempt) {
    SmallVector<int64_t> counts;
    llvm::DenseSet<unsigned> copied;
    RecordingStats total;
    unsigned growths = counters.bufferGrowths;
    bool restart = false;
    for (unsigned level = 0;; ++level) {
      FailureOr<Recording *> found = getRecording(inputs, options,
                                                  /*ahead=*/false, counts);
      if (failed(found))
        return failure();
      Recording &r = **found;
      if (level && counters.bufferGrowths != growths) {
        restart = true;
        break;
      }
      total.dispatches += r.stats.dispatches;
      total.dispatchCalls += r.stats.dispatchCalls;
      total.copies += r.stats.copies;
      total.barriers += r.stats.barriers;
      total.runtimeTensorBytes = r.stats.runtimeTensorBytes;
      total.runtimeArenaBytes = r.stats.runtimeArenaBytes;
      if (failed(stageInputs(r, inputs, copied)))
        return failure();
      FailureOr<uint64_t> submission = device.submit(r.commands, loc);
      if (failed(submission))
        return failure();
      if (level == readCounts.size()) {
        lastStats = total;
        commitStateBytes(r);
        InFlight &run = inFlight.emplace_back();
        run.recording = &r;
        run.submission = *submission;
        return success();
      }
      if (failed(device.wait(loc)))
        return failure();
      gpu::ReadCountOp readCount = readCounts[level];
      const char *at = countStaging->getMapped() + 8 * level;
      int64_t count;
      if (cast<gpu::ViewType>(readCount.getView().getType())
              .getElementType()
              .getIntOrFloatBitWidth() == 32) {
        int32_t narrow;
        std::memcpy(&narrow, at, 4);
        count = narrow;
      } else {
        std::memcpy(&count, at, 8);
      }
      if (count < 0)
        return readCount.emitOpError()
               << "read a count of " << count << " at run time";
      counts.push_back(count);
    }
    if (!restart)
      break;
  }
  return emitError(loc) << "@" << func.getSymName()
                        << " grew its buffers at every segment of a run";
}

LogicalResult Executable::stageInputs(Recording &r,
                                      ArrayRef<HostTensorRef> inputs,
                                      llvm::DenseSet<unsigned> &copied) {
  Location loc = func.getLoc();
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
    if (slot.size && copied.insert(arg).second)
      std::memcpy(inputStaging[r.stagingSet]->getMapped() + slot.offset,
                  inputs[arg].data.data(), slot.size);
  return success();
}

void Executable::commitStateBytes(const Recording &r) {
  Operation *ret = func.front().getTerminator();
  for (auto [number, state] : r.resultStates) {
    auto download = ret->getOperand(number).getDefiningOp<gpu::DownloadOp>();
    MemoryAccess from = r.memory.lookup(download.getSource());
    states[state].bytes = from.end - from.begin;
  }
}

void Executable::settle() {
  for (InFlight &run : inFlight)
    settle(run);
}

void Executable::settle(InFlight &run) {
  if (run.settled)
    return;
  run.settled = true;
  Recording &r = *run.recording;
  run.recording = nullptr;
  if (failed(device.waitFor(run.submission, func.getLoc()))) {
    // The device gave up on the runs after it too.
    for (InFlight &other : inFlight) {
      other.settled = true;
      other.recording = nullptr;
      other.status = failure();
    }
    return;
  }
  std::vector<HostTensor> &outputs = run.outputs;
  Operation *ret = func.front().getTerminator();
  for (auto [number, result] : llvm::enumerate(ret->getOperands())) {
    auto download = result.getDefiningOp<gpu::DownloadOp>();
    auto type = cast<RankedTensorType>(result.getType());
    SmallVector<int64_t, 4> shape = r.shapes.lookup(download.getSource());
    // A state's memory holds the result's dims in another order.
    SmallVector<int64_t, 4> permutation = download.getPermutation();
    if (!permutation.empty()) {
      SmallVector<int64_t, 4> permuted;
      for (int64_t d : permutation)
        permuted.push_back(shape[d]);
      shape = permuted;
    }
    type = RankedTensorType::get(shape, type.getElementType());
    bool kept = r.resultStates.count(number) &&
                !llvm::is_contained(r.downloadedStates, unsigned(number));
    if (kept || llvm::is_contained(r.discarded, unsigned(number))) {
      outputs.push_back({type, {}});
      continue;
    }
    Slot slot = r.outputSlots.lookup(download);
    auto last = r.lastElements.find(number);
    if (last != r.lastElements.end())
      type =
          RankedTensorType::get({int64_t(last->second)}, type.getElementType());
    const char *data = outputStaging[r.stagingSet]->getMapped() + slot.offset;
    outputs.push_back({type, std::vector<char>(data, data + slot.size)});
  }
  // Another run in flight writes the other half of the query pool.
  if (queryPool && failed(readProfile(r)))
    run.status = failure();
}

FailureOr<std::vector<HostTensor>> Executable::finish() {
  if (loops)
    return loops->finish(*this);
  if (inFlight.empty())
    return emitError(func.getLoc())
           << "no run of @" << func.getSymName() << " to finish";
  settle(inFlight.front());
  InFlight done = std::move(inFlight.front());
  inFlight.pop_front();
  if (failed(done.status))
    return failure();
  return std::move(done.outputs);
}

LogicalResult Executable::prepare(ArrayRef<HostTensorRef> inputs,
                                  const RunOptions &options) {
  if (loops)
    return loops->prepare(inputs, options);
  if (failed(checkInputs(inputs, options, /*shapesOnly=*/true)))
    return failure();
  if (failed(getRecording(inputs, options, /*ahead=*/true)))
    return failure();
  return success();
}

FailureOr<std::vector<HostTensor>>
Executable::runViews(ArrayRef<HostTensorRef> inputs,
                     const RunOptions &options) {
  if (failed(launch(inputs, options)))
    return failure();
  return finish();
}

LogicalResult Executable::readProfile(const Recording &r) {
  // Only the dispatches that ran wrote their timestamps (record): the
  // others' queries stay unavailable and are not read.
  std::vector<uint64_t> ticks(2 * dispatches.size(), 0);
  uint32_t base = 2 * dispatches.size() * r.stagingSet;
  auto ran = [&](size_t i) {
    return i < r.dispatched.size() && r.dispatched[i];
  };
  for (size_t i = 0; i < dispatches.size();) {
    if (!ran(i)) {
      ++i;
      continue;
    }
    // A stretch of dispatches that ran, read at once.
    size_t end = i;
    while (end < dispatches.size() && ran(end))
      ++end;
    uint32_t count = 2 * (end - i);
    if (failed(checkVk(device.getApi().vkGetQueryPoolResults(
                           device.getHandle(), queryPool, base + 2 * i, count,
                           count * sizeof(uint64_t), ticks.data() + 2 * i,
                           sizeof(uint64_t),
                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                       "vkGetQueryPoolResults", func.getLoc())))
      return failure();
    i = end;
  }
  uint32_t bits = device.getInfo().timestampValidBits;
  uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  double period = device.getInfo().timestampPeriodNs;
  profile.clear();
  std::optional<size_t> first, last;
  for (auto [i, dispatch] : llvm::enumerate(dispatches)) {
    double us = 0;
    if (ran(i)) {
      us = ((ticks[2 * i + 1] - ticks[2 * i]) & mask) * period / 1000.0;
      if (!first)
        first = i;
      last = i;
    }
    profile.push_back({dispatch, us, ran(i)});
  }
  // From the first dispatch that ran to the end of the last one.
  profileSpan = 0;
  if (first)
    profileSpan =
        ((ticks[2 * *last + 1] - ticks[2 * *first]) & mask) * period / 1000.0;
  return success();
}

} // namespace onyx::runtime

//===- States.cpp - Device memory an Executable keeps between runs --------===//
//
// A state is a device buffer that one run's result is copied into and a
// later run's argument is copied from, so that a decoder's key/value cache
// stays on the device for a whole generation: the present of step t is the
// past of step t+1, and only the logits go to the host. Both copies are
// device-to-device and are part of the recorded command buffer, so a
// recording is made per combination of shapes and state use, like any other.
//
//===----------------------------------------------------------------------===//
#include "runtime/LoopRecording.h"
#include "runtime/Recording.h"

#include "ir/Diagnostics.h"

namespace onyx::runtime {

/// Element types and ranks must agree for a result to feed an argument.
static bool areCompatible(RankedTensorType result, RankedTensorType argument) {
  return result.getElementType() == argument.getElementType() &&
         result.getRank() == argument.getRank();
}

LogicalResult Executable::setStateBindings(ArrayRef<StateBinding> bindings) {
  Location loc = func.getLoc();
  if (loops && !bindings.empty())
    return emitError(loc) << "@" << func.getSymName()
                          << " has gpu.loops, whose runs keep no state";
  ArrayRef<Type> argTypes = func.getFunctionType().getInputs();
  ArrayRef<Type> resultTypes = func.getFunctionType().getResults();
  for (auto [i, binding] : llvm::enumerate(bindings)) {
    if (binding.result >= resultTypes.size() ||
        binding.argument >= argTypes.size())
      return emitError(loc)
             << "state binding #" << unsigned(i) << " names result #"
             << binding.result << " and argument #" << binding.argument << "; @"
             << func.getSymName() << " has " << unsigned(resultTypes.size())
             << " results and " << unsigned(argTypes.size()) << " arguments";
    auto result = cast<RankedTensorType>(resultTypes[binding.result]);
    auto argument = cast<RankedTensorType>(argTypes[binding.argument]);
    if (!areCompatible(result, argument))
      return emitError(loc) << "state binding #" << unsigned(i) << ": result #"
                            << binding.result << " of type " << Type(result)
                            << " cannot feed argument #" << binding.argument
                            << " of type " << Type(argument);
    for (const StateBinding &other : bindings.take_front(i))
      if (other.result == binding.result || other.argument == binding.argument)
        return emitError(loc) << "state binding #" << unsigned(i)
                              << " reuses a result or argument of another";
  }
  dropRecordings();
  // A binding set again keeps its buffer (the memory, not what it held), so
  // that sessions made one after another on one Executable (a warm-up, then
  // the measured generation) do not pile up caches. Buffers of other old
  // states stay allocated, their indices in use by nothing, until the
  // Executable goes.
  std::vector<State> old = std::move(states);
  states.clear();
  for (const StateBinding &binding : bindings) {
    State state;
    state.binding = binding;
    auto same = llvm::find_if(old, [&](const State &o) {
      return o.binding.result == binding.result &&
             o.binding.argument == binding.argument;
    });
    if (same != old.end()) {
      state.buffer = same->buffer;
    } else {
      state.buffer = buffers.size();
      buffers.emplace_back();
    }
    states.push_back(state);
    if (failed(ensureStateSizes({{unsigned(states.size() - 1), 1}})))
      return failure();
  }
  return success();
}

LogicalResult
Executable::ensureStateSizes(ArrayRef<std::pair<unsigned, uint64_t>> sizes) {
  SmallVector<std::pair<unsigned, uint64_t>> growing;
  for (auto [index, size] : sizes) {
    const std::unique_ptr<Buffer> &buffer = buffers[states[index].buffer];
    if (buffer && buffer->getSize() >= size)
      continue;
    if (states[index].reserved)
      return emitError(func.getLoc())
             << "the state of argument #" << states[index].binding.argument
             << " was reserved at " << buffer->getSize()
             << " bytes; this run needs " << size;
    growing.push_back({index, size});
  }
  if (growing.empty())
    return success();
  ++counters.bufferGrowths;
  ScopedMicroseconds timed(counters.growMicroseconds);
  // A run in flight may use the buffers, and sets the bytes they hold.
  settle();
  Location loc = func.getLoc();
  SmallVector<std::unique_ptr<Buffer>> created;
  for (auto [index, size] : growing) {
    const std::unique_ptr<Buffer> &buffer = buffers[states[index].buffer];
    // Grow by doubling, so that a cache growing by one position per step
    // reallocates (and is recorded again) rarely.
    if (buffer)
      size = std::max(size, 2 * buffer->getSize());
    FailureOr<std::unique_ptr<Buffer>> grown =
        device.createBuffer(size, MemoryKind::Device, loc);
    if (failed(grown))
      return failure();
    created.push_back(std::move(*grown));
  }
  // What the states hold moves to the new buffers, in one submission (a
  // decoder's states all grow at the same step).
  bool copies = llvm::any_of(growing, [&](auto entry) {
    return buffers[states[entry.first].buffer] && states[entry.first].bytes;
  });
  if (copies) {
    const VulkanApi &api = device.getApi();
    // Every run starts with a barrier that orders these copies before it.
    if (failed(device.runOnce(
            [&](VkCommandBuffer commands) {
              for (auto [entry, to] : llvm::zip(growing, created)) {
                const State &state = states[entry.first];
                if (!buffers[state.buffer] || !state.bytes)
                  continue;
                VkBufferCopy region{0, 0, state.bytes};
                api.vkCmdCopyBuffer(commands,
                                    buffers[state.buffer]->getHandle(),
                                    to->getHandle(), 1, &region);
              }
            },
            loc)))
      return failure();
  }
  // Recordings name the old buffers.
  dropRecordings();
  for (auto [entry, to] : llvm::zip(growing, created))
    buffers[states[entry.first].buffer] = std::move(to);
  return success();
}

int Executable::findState(bool isResult, unsigned number) const {
  for (auto [index, state] : llvm::enumerate(states))
    if ((isResult ? state.binding.result : state.binding.argument) == number)
      return index;
  return -1;
}

LogicalResult Executable::reserveState(unsigned binding, uint64_t bytes) {
  if (binding >= states.size())
    return emitError(func.getLoc())
           << "state binding #" << binding << " does not exist; there are "
           << unsigned(states.size());
  if (failed(ensureStateSizes({{binding, bytes}})))
    return failure();
  states[binding].reserved = true;
  return success();
}

uint64_t Executable::getStateCapacity(unsigned binding) const {
  const std::unique_ptr<Buffer> &buffer = buffers[states[binding].buffer];
  return buffer ? buffer->getSize() : 0;
}

LogicalResult Executable::resolveStates(Recording &r,
                                        const RunOptions &options) {
  Location loc = func.getLoc();
  Operation *ret = func.front().getTerminator();
  for (auto [number, result] : llvm::enumerate(ret->getOperands()))
    r.resultNumbers[result.getDefiningOp()] = number;
  unsigned numArgs = func.getNumArguments();
  unsigned numResults = ret->getNumOperands();
  for (unsigned arg : options.argumentsFromState) {
    int index = arg < numArgs ? findState(false, arg) : -1;
    if (index < 0)
      return emitError(loc) << "argument #" << arg
                            << " is to come from a state, but no state "
                               "binding names it";
    r.argumentStates[arg] = index;
  }
  auto toState = [&](unsigned result) -> LogicalResult {
    int index = result < numResults ? findState(true, result) : -1;
    if (index < 0)
      return emitError(loc) << "result #" << result
                            << " is to stay in a state, but no state "
                               "binding names it";
    r.resultStates[result] = index;
    return success();
  };
  for (unsigned result : options.resultsToState)
    if (failed(toState(result)))
      return failure();
  for (unsigned result : options.resultsToStateAndHost) {
    if (r.resultStates.count(result))
      return emitError(loc) << "result #" << result
                            << " is both kept in its state only and "
                               "downloaded too";
    if (failed(toState(result)))
      return failure();
    r.downloadedStates.push_back(result);
  }
  for (unsigned result : options.discardedResults) {
    if (result >= numResults || r.resultStates.count(result))
      return emitError(loc) << "result #" << result << " cannot be discarded: "
                            << (result >= numResults ? "there is no such result"
                                                     : "it is kept in a state");
    r.discarded.push_back(result);
  }
  for (auto [result, count] : options.lastElements) {
    if (result >= numResults || r.resultStates.count(result) ||
        llvm::is_contained(r.discarded, result) || count == 0)
      return emitError(loc) << "cannot download the last " << count
                            << " elements of result #" << result;
    r.lastElements[result] = count;
  }
  return success();
}

} // namespace onyx::runtime

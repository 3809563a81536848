//===- DeviceCacheSession.cpp - A decoder whose cache stays on the GPU ----===//
#include "tools/onyx-run/DeviceCacheSession.h"
#include "tools/onyx-run/VulkanBackend.h"

#include <chrono>
#include <cstring>
#include <fmt/format.h>

#include <numeric>

using namespace onyx;
using namespace onyx::onnx;
using namespace onyx::run;

FailureOr<std::unique_ptr<DeviceCacheSession>>
DeviceCacheSession::create(DecoderInterface interface, runtime::Executable &exe,
                           int64_t maxSeq, ErrorFunction report) {
  if (exe.getFunction().getNumArguments() != interface.numInputs) {
    report(fmt::format("the compiled model takes {} inputs; its signature "
                       "names {}",
                       exe.getFunction().getNumArguments(),
                       interface.numInputs));
    return failure();
  }
  SmallVector<runtime::StateBinding> bindings;
  for (const DecoderInterface::CacheEntry &entry : interface.cache)
    bindings.push_back({entry.output, entry.input});
  if (failed(exe.setStateBindings(bindings)))
    return failure();
  // The whole cache at once: no step grows it (batch 1).
  if (maxSeq)
    for (auto [binding, entry] : llvm::enumerate(interface.cache)) {
      auto argType = cast<RankedTensorType>(
          exe.getFunction().getArgument(entry.input).getType());
      uint64_t bytes = uint64_t(maxSeq) * entry.heads * entry.headDim *
                       getElementByteSize(argType.getElementType());
      if (failed(exe.reserveState(binding, bytes)))
        return failure();
    }
  return std::unique_ptr<DeviceCacheSession>(
      new DeviceCacheSession(std::move(interface), exe, std::move(report)));
}

std::vector<runtime::HostTensorRef>
DeviceCacheSession::makeStep(int64_t seq, runtime::RunOptions &options,
                             ArrayRef<runtime::HostTensor> tokens) const {
  FuncOp func = exe.getFunction();
  int64_t total = pastLength + seq;
  std::vector<runtime::HostTensorRef> inputs(interface.numInputs);
  auto setToken = [&](unsigned input, unsigned number, int64_t size) {
    if (number < tokens.size()) {
      inputs[input] = {tokens[number].type, tokens[number].data};
      return;
    }
    // Shape only: the data comes when the step runs.
    auto argType = cast<RankedTensorType>(func.getArgument(input).getType());
    inputs[input] = {RankedTensorType::get({1, size}, argType.getElementType()),
                     {}};
  };
  setToken(interface.inputIds, 0, seq);
  setToken(interface.attentionMask, 1, total);
  if (interface.positionIds)
    setToken(*interface.positionIds, 2, seq);
  for (const DecoderInterface::CacheEntry &entry : interface.cache) {
    auto argType =
        cast<RankedTensorType>(func.getArgument(entry.input).getType());
    inputs[entry.input] = {
        RankedTensorType::get({1, entry.heads, pastLength, entry.headDim},
                              argType.getElementType()),
        {}};
    // The prefill's past is empty: nothing to read from a state.
    if (pastLength)
      options.argumentsFromState.push_back(entry.input);
    options.resultsToState.push_back(entry.output);
  }
  // Only the last position's logits are read back when the vocabulary is
  // known; otherwise all of them, and the last row is taken here.
  if (interface.vocabSize)
    options.lastElements.push_back({interface.logits, *interface.vocabSize});
  return inputs;
}

FailureOr<SmallVector<float>> DeviceCacheSession::forward(ArrayRef<int64_t> ids,
                                                          unsigned nextTokens) {
  auto seq = int64_t(ids.size());
  int64_t total = pastLength + seq;
  FuncOp func = exe.getFunction();
  Context *ctx = func->getContext();

  // The token inputs go through the host, in the order makeStep takes
  // them; the cache is shape only.
  SmallVector<Tensor> tokens;
  tokens.push_back(Tensor::fromInts(interface.idType, {1, seq}, ids));
  tokens.push_back(Tensor::fromInts(interface.maskType, {1, total},
                                    SmallVector<int64_t>(total, 1)));
  if (interface.positionIds) {
    SmallVector<int64_t> positions(seq);
    std::iota(positions.begin(), positions.end(), pastLength);
    tokens.push_back(
        Tensor::fromInts(interface.positionType, {1, seq}, positions));
  }
  std::vector<runtime::HostTensor> hostTokens;
  for (const Tensor &token : tokens)
    hostTokens.push_back(toHostTensor(token, token.getType(ctx)));
  runtime::RunOptions options;
  std::vector<runtime::HostTensorRef> inputs =
      makeStep(seq, options, hostTokens);

  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point start) {
    return std::chrono::duration<double, std::micro>(Clock::now() - start)
        .count();
  };
  bool decode = pastLength > 0;
  StepTimes step;
  Clock::time_point start = Clock::now();
  if (failed(exe.launch(inputs, options)))
    return failure();
  step.launch = since(start);
  start = Clock::now();
  if (nextTokens) {
    // The next step's shapes are known before its tokens: record it while
    // the device runs this one.
    int64_t past = pastLength;
    pastLength = total;
    runtime::RunOptions nextOptions;
    std::vector<runtime::HostTensorRef> next =
        makeStep(nextTokens, nextOptions, {});
    pastLength = past;
    if (failed(exe.prepare(next, nextOptions))) {
      (void)exe.finish();
      return failure();
    }
  }
  step.prepare = since(start);
  start = Clock::now();
  FailureOr<std::vector<runtime::HostTensor>> outputs = exe.finish();
  if (failed(outputs))
    return failure();
  step.wait = since(start);
  start = Clock::now();

  for (const DecoderInterface::CacheEntry &entry : interface.cache) {
    ArrayRef<int64_t> shape = (*outputs)[entry.output].type.getShape();
    SmallVector<int64_t> expected = {1, entry.heads, total, entry.headDim};
    if (shape != ArrayRef<int64_t>(expected)) {
      report(fmt::format("the present of '{}' is [{}], expected [{}]",
                         entry.pastName, fmt::join(shape, ", "),
                         fmt::join(expected, ", ")));
      return failure();
    }
  }
  FailureOr<Tensor> logits = fromHostTensor((*outputs)[interface.logits]);
  if (failed(logits)) {
    report("output 'logits' has an element type onyx cannot sample from");
    return failure();
  }
  ArrayRef<int64_t> shape = logits->getShape();
  int64_t vocab = shape.empty() ? 0 : shape.back();
  bool lastOnly = interface.vocabSize.has_value();
  if (lastOnly ? shape.size() != 1
               : (shape.size() != 3 || shape[0] != 1 || shape[1] != seq)) {
    report(fmt::format("output 'logits' is [{}], expected [1, {}, vocab]",
                       fmt::join(shape, ", "), seq));
    return failure();
  }
  SmallVector<float> last(vocab);
  int64_t offset = lastOnly ? 0 : (seq - 1) * vocab;
  // f32 logits (the common case) are copied as they are: converting each
  // element was a tenth of a GPT-2 decode step.
  if (logits->getElementType() == onnx::ElementType::F32)
    std::memcpy(last.data(),
                logits->getBytes().data() + offset * sizeof(float),
                vocab * sizeof(float));
  else
    for (int64_t i = 0; i < vocab; ++i)
      last[i] = float(logits->getDouble(offset + i));
  pastLength = total;
  if (decode) {
    step.logits = since(start);
    ++times.steps;
    times.launch += step.launch;
    times.prepare += step.prepare;
    times.wait += step.wait;
    times.logits += step.logits;
  }
  return last;
}

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
                           int64_t maxSeq, ErrorFunction report,
                           int64_t batch) {
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
  // The whole cache at once: no step grows it.
  if (maxSeq)
    for (auto [binding, entry] : llvm::enumerate(interface.cache)) {
      auto argType = cast<RankedTensorType>(
          exe.getFunction().getArgument(entry.input).getType());
      uint64_t bytes = uint64_t(maxSeq) * uint64_t(batch) * entry.heads *
                       entry.headDim *
                       getElementByteSize(argType.getElementType());
      if (failed(exe.reserveState(binding, bytes)))
        return failure();
    }
  return std::unique_ptr<DeviceCacheSession>(new DeviceCacheSession(
      std::move(interface), exe, std::move(report), batch));
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
    inputs[input] = {
        RankedTensorType::get({batch, size}, argType.getElementType()), {}};
  };
  setToken(interface.inputIds, 0, seq);
  setToken(interface.attentionMask, 1, total);
  if (interface.positionIds)
    setToken(*interface.positionIds, 2, seq);
  for (const DecoderInterface::CacheEntry &entry : interface.cache) {
    auto argType =
        cast<RankedTensorType>(func.getArgument(entry.input).getType());
    inputs[entry.input] = {
        RankedTensorType::get({batch, entry.heads, pastLength, entry.headDim},
                              argType.getElementType()),
        {}};
    // The prefill's past is empty: nothing to read from a state.
    if (pastLength)
      options.argumentsFromState.push_back(entry.input);
    options.resultsToState.push_back(entry.output);
  }
  // Only the last position's logits are read back when the vocabulary is
  // known and they are the last elements: a step of one position, or of one
  // row. Otherwise all of them, and each row's last is taken here.
  if (lastOnly(seq))
    options.lastElements.push_back(
        {interface.logits, uint64_t(batch * *interface.vocabSize)});
  return inputs;
}

FailureOr<SmallVector<float>>
DeviceCacheSession::forward(const DecoderStep &step, unsigned nextTokens) {
  int64_t seq = step.seq;
  int64_t total = pastLength + seq;
  FuncOp func = exe.getFunction();
  Context *ctx = func->getContext();
  if (step.batch != batch) {
    report(fmt::format("a step of {} sequences in a generation of {}",
                       step.batch, batch));
    return failure();
  }

  // The token inputs go through the host, in the order makeStep takes
  // them; the cache is shape only.
  SmallVector<Tensor> tokens;
  tokens.push_back(Tensor::fromInts(interface.idType, {batch, seq}, step.ids));
  tokens.push_back(
      Tensor::fromInts(interface.maskType, {batch, total}, step.mask));
  if (interface.positionIds)
    tokens.push_back(
        Tensor::fromInts(interface.positionType, {batch, seq}, step.positions));
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
  StepTimes stepTimes;
  Clock::time_point start = Clock::now();
  if (failed(exe.launch(inputs, options)))
    return failure();
  stepTimes.launch = since(start);
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
  stepTimes.prepare = since(start);
  start = Clock::now();
  FailureOr<std::vector<runtime::HostTensor>> outputs = exe.finish();
  if (failed(outputs))
    return failure();
  stepTimes.wait = since(start);
  start = Clock::now();

  for (const DecoderInterface::CacheEntry &entry : interface.cache) {
    ArrayRef<int64_t> shape = (*outputs)[entry.output].type.getShape();
    SmallVector<int64_t> expected = {batch, entry.heads, total, entry.headDim};
    if (shape != ArrayRef<int64_t>(expected)) {
      report(fmt::format("the present of '{}' is [{}], expected [{}]",
                         entry.pastName, fmt::join(shape, ", "),
                         fmt::join(expected, ", ")));
      return failure();
    }
  }
  // f32 logits (the common case) are read from the downloaded bytes as
  // they are: each copy or conversion of a vocabulary's logits costs a
  // visible part of a decode step.
  const runtime::HostTensor &hostLogits = (*outputs)[interface.logits];
  bool isF32 = hostLogits.type.getElementType().isF32();
  FailureOr<Tensor> logits = Tensor();
  if (!isF32)
    logits = fromHostTensor(hostLogits);
  if (failed(logits)) {
    report("output 'logits' has an element type onyx cannot sample from");
    return failure();
  }
  ArrayRef<int64_t> shape = hostLogits.type.getShape();
  bool lastRead = lastOnly(seq);
  int64_t vocab = lastRead            ? *interface.vocabSize
                  : shape.size() == 3 ? shape[2]
                                      : 0;
  if (lastRead ? shape.size() != 1 || shape[0] != batch * vocab
               : (shape.size() != 3 || shape[0] != batch || shape[1] != seq)) {
    report(fmt::format("output 'logits' is [{}], expected [{}, {}, vocab]",
                       fmt::join(shape, ", "), batch, seq));
    return failure();
  }
  if (isF32 && hostLogits.data.size() !=
                   uint64_t(hostLogits.type.getNumElements()) * sizeof(float)) {
    report("output 'logits' came back with a wrong number of bytes");
    return failure();
  }
  SmallVector<float> last(batch * vocab);
  for (int64_t row = 0; row < batch; ++row) {
    int64_t offset = lastRead ? row * vocab : (row * seq + seq - 1) * vocab;
    // (Converting each element was a tenth of a GPT-2 decode step.)
    if (isF32)
      std::memcpy(last.data() + row * vocab,
                  hostLogits.data.data() + offset * sizeof(float),
                  vocab * sizeof(float));
    else
      for (int64_t i = 0; i < vocab; ++i)
        last[row * vocab + i] = float(logits->getDouble(offset + i));
  }
  pastLength = total;
  if (decode) {
    stepTimes.logits = since(start);
    ++times.steps;
    times.launch += stepTimes.launch;
    times.prepare += stepTimes.prepare;
    times.wait += stepTimes.wait;
    times.logits += stepTimes.logits;
  }
  return last;
}

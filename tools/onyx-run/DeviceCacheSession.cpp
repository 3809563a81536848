//===- DeviceCacheSession.cpp - A decoder whose cache stays on the GPU ----===//
#include "tools/onyx-run/DeviceCacheSession.h"
#include "tools/onyx-run/VulkanBackend.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Diagnostics.h"

#include <chrono>
#include <cstring>
#include <fmt/format.h>

#include <limits>
#include <numeric>

using namespace onyx;
using namespace onyx::onnx;
using namespace onyx::run;

FailureOr<unsigned>
onyx::run::appendGreedyTokens(FuncOp main, const DecoderInterface &interface) {
  Context *ctx = main->getContext();
  Operation *ret = main.front().getTerminator();
  if (interface.logits >= ret->getNumOperands())
    return emitError(main.getLoc()) << "@main does not return the logits";
  OpBuilder b(ctx);
  b.setInsertionPoint(ret);
  Location loc = main.getLoc();
  // ArgMax keeps the first largest and passes over a NaN unless it is the
  // first element, as the host's pick does (the lowering's kernel and the
  // reference evaluator both): [batch, seq], a step of one position's
  // tokens as the next step's input_ids. (A prefill's last position would
  // take a Slice, a dispatch of its own in every decode step: a prefill
  // reads its logits back instead.)
  Value picked = onnx::createChained(
      b, loc, "onnx.ArgMax", {ret->getOperand(interface.logits)},
      {{b.getStringAttr("axis"), onnx::getIntAttr(ctx, 2)},
       {b.getStringAttr("keepdims"), onnx::getIntAttr(ctx, 0)}});
  if (picked && interface.idType != ElementType::I64)
    picked = onnx::createChained(
        b, loc, "onnx.Cast", {picked},
        {{b.getStringAttr("to"),
          TypeAttr::get(getIRType(ctx, interface.idType))}});
  if (!picked)
    return failure();
  unsigned number = ret->getNumOperands();
  ret->insertOperands(number, {picked});
  SmallVector<Type> results(main.getFunctionType().getResults());
  results.push_back(picked.getType());
  main.setFunctionType(
      FunctionType::get(ctx, main.getFunctionType().getInputs(), results));
  // One attribute dictionary per result, the new one named as the others.
  if (auto old = main->getAttrOfType<ArrayAttr>("res_attrs")) {
    SmallVector<Attribute> list(old.getValue());
    list.push_back(
        DictionaryAttr::get(ctx, {{b.getStringAttr("onnx.name"),
                                   b.getStringAttr("onyx_greedy_tokens")}}));
    main->setAttr("res_attrs", ArrayAttr::get(ctx, list));
  }
  return number;
}

FailureOr<std::unique_ptr<DeviceCacheSession>>
DeviceCacheSession::create(DecoderInterface interface, runtime::Executable &exe,
                           int64_t maxSeq, ErrorFunction report, int64_t batch,
                           std::optional<unsigned> tokenResult) {
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
  // The tokens a step picks are the next step's input_ids (after the cache
  // entries, whose binding numbers reserveState takes below).
  if (tokenResult && !exe.canOverlapRuns())
    tokenResult = std::nullopt;
  if (tokenResult)
    bindings.push_back({*tokenResult, interface.inputIds});
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
      std::move(interface), exe, std::move(report), batch, tokenResult));
}

std::vector<runtime::HostTensorRef>
DeviceCacheSession::makeStep(int64_t seq, runtime::RunOptions &options,
                             ArrayRef<runtime::HostTensor> tokens, bool picking,
                             bool idsFromDevice) const {
  FuncOp func = exe.getFunction();
  int64_t total = pastLength + seq;
  std::vector<runtime::HostTensorRef> inputs(interface.numInputs);
  unsigned nextToken = 0;
  auto setToken = [&](unsigned input, int64_t size) {
    unsigned number = nextToken++;
    if (number < tokens.size()) {
      inputs[input] = {tokens[number].type, tokens[number].data};
      return;
    }
    // Shape only: the data comes when the step runs.
    auto argType = cast<RankedTensorType>(func.getArgument(input).getType());
    inputs[input] = {
        RankedTensorType::get({batch, size}, argType.getElementType()), {}};
  };
  if (idsFromDevice) {
    auto argType =
        cast<RankedTensorType>(func.getArgument(interface.inputIds).getType());
    inputs[interface.inputIds] = {
        RankedTensorType::get({batch, seq}, argType.getElementType()), {}};
    options.argumentsFromState.push_back(interface.inputIds);
  } else {
    setToken(interface.inputIds, seq);
  }
  setToken(interface.attentionMask, total);
  if (interface.positionIds)
    setToken(*interface.positionIds, seq);
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
  if (picking) {
    // Only the tokens come back; they stay on the device for the next step.
    options.resultsToStateAndHost.push_back(*tokenResult);
    options.discardedResults.push_back(interface.logits);
    return inputs;
  }
  // The tokens of every position: not needed where the host samples.
  if (tokenResult)
    options.discardedResults.push_back(*tokenResult);
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
  lastTokenCopies = 0;
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

  if (failed(checkCache(*outputs, total)))
    return failure();
  FailureOr<SmallVector<float>> last = readLastLogits(*outputs, seq);
  if (failed(last))
    return failure();
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

FailureOr<SmallVector<float>>
DeviceCacheSession::readLastLogits(ArrayRef<runtime::HostTensor> outputs,
                                   int64_t seq) const {
  // f32 logits (the common case) are read from the downloaded bytes as
  // they are: each copy or conversion of a vocabulary's logits costs a
  // visible part of a decode step.
  const runtime::HostTensor &hostLogits = outputs[interface.logits];
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
  return last;
}

LogicalResult
DeviceCacheSession::checkCache(ArrayRef<runtime::HostTensor> outputs,
                               int64_t total) const {
  for (const DecoderInterface::CacheEntry &entry : interface.cache) {
    ArrayRef<int64_t> shape = outputs[entry.output].type.getShape();
    SmallVector<int64_t> expected = {batch, entry.heads, total, entry.headDim};
    if (shape != ArrayRef<int64_t>(expected)) {
      report(fmt::format("the present of '{}' is [{}], expected [{}]",
                         entry.pastName, fmt::join(shape, ", "),
                         fmt::join(expected, ", ")));
      return failure();
    }
  }
  return success();
}

using Clock = std::chrono::steady_clock;
static double microsecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start)
      .count();
}

LogicalResult DeviceCacheSession::launchGreedy(const DecoderStep &step,
                                               bool idsFromDevice) {
  assert(tokenResult && "the session does not pick tokens on the device");
  int64_t seq = step.seq;
  int64_t total = pastLength + seq;
  if (step.batch != batch) {
    report(fmt::format("a step of {} sequences in a generation of {}",
                       step.batch, batch));
    return failure();
  }
  Context *ctx = exe.getFunction()->getContext();
  SmallVector<Tensor> tokens;
  if (!idsFromDevice)
    tokens.push_back(
        Tensor::fromInts(interface.idType, {batch, seq}, step.ids));
  tokens.push_back(
      Tensor::fromInts(interface.maskType, {batch, total}, step.mask));
  if (interface.positionIds)
    tokens.push_back(
        Tensor::fromInts(interface.positionType, {batch, seq}, step.positions));
  std::vector<runtime::HostTensor> hostTokens;
  for (const Tensor &token : tokens)
    hostTokens.push_back(toHostTensor(token, token.getType(ctx)));
  runtime::RunOptions options;
  // A step of one position picks its tokens on the device; a prefill's come
  // from its last logits, read back.
  bool picking = seq == 1;
  std::vector<runtime::HostTensorRef> inputs =
      makeStep(seq, options, hostTokens, picking, idsFromDevice);
  Clock::time_point start = Clock::now();
  // Recorded here if it was not before: the step before runs meanwhile.
  if (failed(exe.launch(inputs, options)))
    return failure();
  if (pastLength)
    times.launch += microsecondsSince(start);
  launched.push_back({total, seq, picking});
  lastTokenCopies = unsigned(picking) + unsigned(idsFromDevice);
  pastLength = total;
  return success();
}

FailureOr<SmallVector<int64_t>> DeviceCacheSession::finishGreedy() {
  assert(!launched.empty() && "no step to finish");
  auto [total, seq, picking] = launched.front();
  launched.pop_front();
  Clock::time_point start = Clock::now();
  FailureOr<std::vector<runtime::HostTensor>> outputs = exe.finish();
  if (failed(outputs))
    return failure();
  double wait = microsecondsSince(start);
  start = Clock::now();
  if (failed(checkCache(*outputs, total)))
    return failure();
  SmallVector<int64_t> ids;
  if (picking) {
    const runtime::HostTensor &picked = (*outputs)[*tokenResult];
    if (picked.type.getShape() != ArrayRef<int64_t>{batch, 1}) {
      report(fmt::format("the tokens picked on the device are [{}], expected "
                         "[{}, 1]",
                         fmt::join(picked.type.getShape(), ", "), batch));
      return failure();
    }
    FailureOr<Tensor> values = fromHostTensor(picked);
    if (failed(values))
      return failure();
    for (int64_t row = 0; row < batch; ++row)
      ids.push_back(values->getInt(row));
  } else {
    FailureOr<SmallVector<float>> logits = readLastLogits(*outputs, seq);
    if (failed(logits))
      return failure();
    int64_t vocab = int64_t(logits->size()) / batch;
    Sampler greedy(SamplingOptions{});
    for (int64_t row = 0; row < batch; ++row)
      ids.push_back(
          greedy.sample(ArrayRef<float>(*logits).slice(row * vocab, vocab)));
  }
  // The first step finished is the prefill; the rest are decode steps.
  if (finishedSteps++) {
    ++times.steps;
    times.wait += wait;
    times.logits += microsecondsSince(start);
  }
  return ids;
}

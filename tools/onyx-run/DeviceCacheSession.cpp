//===- DeviceCacheSession.cpp - A decoder whose cache stays on the GPU ----===//
#include "tools/onyx-run/DeviceCacheSession.h"
#include "tools/onyx-run/VulkanBackend.h"

#include <fmt/format.h>

#include <numeric>

using namespace onyx;
using namespace onyx::onnx;
using namespace onyx::run;

FailureOr<std::unique_ptr<DeviceCacheSession>>
DeviceCacheSession::create(DecoderInterface interface, runtime::Executable &exe,
                           ErrorFunction report) {
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
  return std::unique_ptr<DeviceCacheSession>(
      new DeviceCacheSession(std::move(interface), exe, std::move(report)));
}

FailureOr<SmallVector<float>>
DeviceCacheSession::forward(ArrayRef<int64_t> ids) {
  auto seq = int64_t(ids.size());
  int64_t total = pastLength + seq;
  FuncOp func = exe.getFunction();
  Context *ctx = func->getContext();

  // The token inputs go through the host; the cache is shape only.
  SmallVector<Tensor> tokens;
  SmallVector<unsigned> tokenInputs;
  auto addToken = [&](unsigned input, Tensor tensor) {
    tokenInputs.push_back(input);
    tokens.push_back(std::move(tensor));
  };
  addToken(interface.inputIds,
           Tensor::fromInts(interface.idType, {1, seq}, ids));
  addToken(interface.attentionMask,
           Tensor::fromInts(interface.maskType, {1, total},
                            SmallVector<int64_t>(total, 1)));
  if (interface.positionIds) {
    SmallVector<int64_t> positions(seq);
    std::iota(positions.begin(), positions.end(), pastLength);
    addToken(*interface.positionIds,
             Tensor::fromInts(interface.positionType, {1, seq}, positions));
  }
  std::vector<runtime::HostTensor> hostTokens;
  for (const Tensor &token : tokens)
    hostTokens.push_back(toHostTensor(token, token.getType(ctx)));

  std::vector<runtime::HostTensorRef> inputs(interface.numInputs);
  for (auto [input, host] : llvm::zip(tokenInputs, hostTokens))
    inputs[input] = {host.type, host.data};
  runtime::RunOptions options;
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

  FailureOr<std::vector<runtime::HostTensor>> outputs =
      exe.runViews(inputs, options);
  if (failed(outputs))
    return failure();

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
  for (int64_t i = 0; i < vocab; ++i)
    last[i] = float(logits->getDouble(offset + i));
  pastLength = total;
  return last;
}

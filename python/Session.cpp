//===- Session.cpp - A model loaded for running from Python ---------------===//

#include "python/Session.h"

#include "dialect/onnx/io/ModelLoader.h"
#include "dialect/onnx/io/SignatureCheck.h"
#include "dialect/onnx/reference/ReferenceBackend.h"
#include "runtime/Executable.h"
#include "tools/onyx-run/DeviceCacheSession.h"

#include <fmt/format.h>

#include <cstring>

using namespace onyx;
using namespace onyx::python;

/// Compiled variants kept per session: a model run at many shapes keeps
/// the most recent ones (each holds a copy of the weights).
static constexpr size_t kMaxVariants = 4;

struct Session::Variant {
  /// Declared first, destroyed last: the module and the Executable live in
  /// it.
  CapturingContext context;
  OwningOpRef<ModuleOp> module;
  FuncOp main;
  std::unique_ptr<runtime::Executable> executable;
};

Session::Session(std::string bytes, std::string name, std::string baseDir,
                 SessionOptions options)
    : bytes(std::move(bytes)), name(std::move(name)),
      baseDir(std::move(baseDir)), options(std::move(options)) {
  FailureOr<onnx::ModelSignature> read =
      onnx::readOnnxSignatureBuffer(this->bytes, this->name, context.get());
  if (failed(read))
    context.fail(ErrorKind::Model, "cannot read the model");
  signature = std::move(*read);

  if (!this->options.reference)
    openDevice();

  // A model whose input shapes are all known compiles now, so that what
  // cannot be compiled is reported here rather than at the first run.
  ShapeKey shapes;
  for (const onnx::ValueSignature &input : signature.inputs) {
    std::vector<int64_t> shape;
    for (auto [dim, dimName] : llvm::zip(input.shape, input.dimNames)) {
      auto bound = this->options.dimBindings.find(dimName);
      if (!ShapedType::isDynamic(dim))
        shape.push_back(dim);
      else if (!dimName.empty() && bound != this->options.dimBindings.end())
        shape.push_back(bound->second);
      else
        return;
    }
    shapes.push_back(std::move(shape));
  }
  getVariant(shapes);
}

Session::~Session() = default;

void Session::openDevice() {
  run::VulkanOptions vulkanOptions;
  vulkanOptions.deviceIndex = options.deviceIndex;
  FailureOr<std::unique_ptr<run::VulkanBackend>> created =
      run::VulkanBackend::create(context.get(), vulkanOptions);
  if (failed(created))
    context.fail(ErrorKind::Device, "cannot open the Vulkan device");
  backend = std::move(*created);
  validationMessagesSeen = 0;
}

void Session::recoverIfLost(Variant *variant) {
  if (!backend || !backend->getDevice().isLost())
    return;
  std::string text = context.take();
  if (variant)
    text += variant->context.take();
  // Everything loaded on the lost device goes before the device does.
  variants.clear();
  symbolic.reset();
  triedSymbolic = false;
  // Destroyed first, so that the validation layer reports anything of it
  // that was not freed.
  backend->closeDevice();
  std::vector<std::string> messages = backend->getValidationMessages();
  for (size_t i = validationMessagesSeen; i < messages.size(); ++i)
    text += "the Vulkan validation layer reported: " + messages[i] + "\n";
  backend.reset();
  text += "the Vulkan device was lost; ";
  try {
    openDevice();
    text += "the session opened it again and compiles the model anew at the "
            "next run";
  } catch (const Error &error) {
    text += "opening it again failed (the next run tries again): " +
            error.getMessage();
  }
  throw Error(ErrorKind::Device, text);
}

std::string Session::getDeviceDescription() const {
  return backend ? backend->getDeviceInfo().describe() : "reference";
}

Session::Variant &Session::getVariant(const ShapeKey &shapes) {
  if (backend && !triedSymbolic) {
    triedSymbolic = true;
    symbolic = compileSymbolic();
  }
  if (symbolic)
    return *symbolic;
  for (auto it = variants.begin(); it != variants.end(); ++it) {
    if (it->first != shapes)
      continue;
    variants.splice(variants.begin(), variants, it);
    return *variants.front().second;
  }
  std::unique_ptr<Variant> variant = compile(shapes);
  if (variants.size() == kMaxVariants)
    variants.pop_back();
  variants.emplace_front(shapes, std::move(variant));
  return *variants.front().second;
}

std::unique_ptr<Session::Variant> Session::compile(const ShapeKey &shapes) {
  auto variant = std::make_unique<Variant>();
  Context *ctx = variant->context.get();
  onnx::ModelLoadOptions loadOptions;
  loadOptions.dimBindings = options.dimBindings;
  SmallVector<SmallVector<int64_t>> inputShapes;
  for (const std::vector<int64_t> &shape : shapes)
    inputShapes.emplace_back(shape.begin(), shape.end());
  variant->module = onnx::loadOnnxModelBuffer(bytes, name, baseDir, ctx,
                                              inputShapes, loadOptions);
  if (!variant->module)
    fail(variant.get(), ErrorKind::Model, "cannot import the model");
  variant->main = cast<FuncOp>(variant->module.get().lookupSymbol("main"));
  if (!backend)
    return variant;

  SmallVector<ArrayRef<int64_t>> shapeRefs(shapes.begin(), shapes.end());
  run::refineArgumentTypes(variant->main, shapeRefs);
  if (failed(backend->lower(*variant->module, /*irDump=*/nullptr)))
    fail(variant.get(), ErrorKind::Model, "cannot lower the model");
  FailureOr<std::unique_ptr<runtime::Executable>> executable =
      runtime::Executable::load(backend->getDevice(), *variant->module);
  if (failed(executable))
    fail(variant.get(), ErrorKind::Device, "cannot load the model");
  variant->executable = std::move(*executable);
  return variant;
}

std::unique_ptr<Session::Variant> Session::compileSymbolic() {
  auto variant = std::make_unique<Variant>();
  Context *ctx = variant->context.get();
  onnx::ModelLoadOptions loadOptions;
  loadOptions.dimBindings = options.dimBindings;
  variant->module =
      onnx::loadOnnxModelBuffer(bytes, name, baseDir, ctx, {}, loadOptions);
  if (!variant->module ||
      failed(backend->lower(*variant->module, /*irDump=*/nullptr))) {
    // Compiled per set of shapes instead, which reports its own errors.
    variant->context.take();
    return nullptr;
  }
  variant->main = cast<FuncOp>(variant->module.get().lookupSymbol("main"));
  FailureOr<std::unique_ptr<runtime::Executable>> executable =
      runtime::Executable::load(backend->getDevice(), *variant->module);
  if (failed(executable)) {
    variant->context.take();
    return nullptr;
  }
  variant->executable = std::move(*executable);
  return variant;
}

std::string Session::takeWarnings() {
  std::lock_guard<std::mutex> lock(mutex);
  std::string text = context.take();
  for (auto &entry : variants)
    text += entry.second->context.take();
  if (symbolic)
    text += symbolic->context.take();
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return text;
}

std::vector<OutputTensor> Session::run(ArrayRef<InputView> inputs) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!options.reference && !backend)
    openDevice(); // lost, and not opened again yet
  ShapeKey shapes;
  for (const InputView &input : inputs)
    shapes.emplace_back(input.shape.begin(), input.shape.end());
  Variant &variant = getVariant(shapes);
  return backend ? runVulkan(variant, inputs) : runReference(variant, inputs);
}

std::vector<OutputTensor> Session::runReference(Variant &variant,
                                                ArrayRef<InputView> inputs) {
  SmallVector<onnx::Tensor> tensors;
  for (const InputView &input : inputs) {
    onnx::Tensor tensor(input.elementType, input.shape);
    MutableArrayRef<char> destination = tensor.getMutableBytes();
    if (destination.size() != input.bytes.size())
      throw Error(ErrorKind::InvalidArgument,
                  "an input's size does not match its shape");
    if (!destination.empty())
      std::memcpy(destination.data(), input.bytes.data(), destination.size());
    tensors.push_back(std::move(tensor));
  }
  std::string error;
  if (failed(onnx::checkInputs(variant.main.getFunctionType().getInputs(),
                               tensors, error)))
    throw Error(ErrorKind::InvalidArgument, error);
  FailureOr<SmallVector<onnx::Tensor>> results =
      onnx::runReference(variant.main, tensors);
  if (failed(results))
    fail(&variant, ErrorKind::Run, "the run failed");
  std::vector<OutputTensor> outputs;
  for (const onnx::Tensor &result : *results) {
    ArrayRef<char> data = result.getBytes();
    outputs.push_back({result.getElementType(),
                       SmallVector<int64_t>(result.getShape()),
                       std::vector<char>(data.begin(), data.end())});
  }
  return outputs;
}

std::vector<OutputTensor> Session::runVulkan(Variant &variant,
                                             ArrayRef<InputView> inputs) {
  std::vector<runtime::HostTensorRef> refs;
  // A `?` dimension of the variant takes the input's size.
  for (auto [input, type] :
       llvm::zip(inputs, variant.main.getFunctionType().getInputs()))
    refs.push_back(
        {RankedTensorType::get(input.shape,
                               cast<RankedTensorType>(type).getElementType()),
         input.bytes});
  FailureOr<std::vector<runtime::HostTensor>> results =
      variant.executable->runViews(refs);
  if (failed(results)) {
    recoverIfLost(&variant);
    fail(&variant, ErrorKind::Run, "the run failed");
  }
  checkValidation();
  std::vector<OutputTensor> outputs;
  for (runtime::HostTensor &result : *results) {
    std::optional<onnx::ElementType> elementType =
        onnx::getElementType(result.type.getElementType());
    if (!elementType)
      throw Error(ErrorKind::Run,
                  fmt::format("an output's element type has no tensor type"));
    outputs.push_back({*elementType,
                       SmallVector<int64_t>(result.type.getShape()),
                       std::move(result.data)});
  }
  return outputs;
}

/// The ids of each sequence of `result`.
static std::vector<std::vector<int64_t>>
toLists(const run::GenerationResult &result) {
  std::vector<std::vector<int64_t>> lists;
  for (ArrayRef<int64_t> ids : result.ids)
    lists.emplace_back(ids.begin(), ids.end());
  return lists;
}

std::vector<std::vector<int64_t>>
Session::generate(ArrayRef<SmallVector<int64_t>> prompts,
                  const run::GenerationOptions &options) {
  std::string error;
  FailureOr<run::DecoderInterface> interface =
      run::DecoderInterface::find(signature, error);
  if (failed(interface))
    throw Error(ErrorKind::InvalidArgument, name + ": " + error);
  if (failed(run::checkPrompts(*interface, prompts, options, error)) ||
      failed(run::checkEndId(*interface, options, error)))
    throw Error(ErrorKind::InvalidArgument, error);
  std::string reported;
  auto report = [&](const std::string &message) { reported += message; };
  std::unique_lock<std::mutex> lock(mutex);
  if (!this->options.reference && !backend)
    openDevice(); // lost, and not opened again yet
  if (backend && !triedSymbolic) {
    triedSymbolic = true;
    symbolic = compileSymbolic();
  }
  if (symbolic) {
    // One plan for every step, the cache on the device (the lock held).
    FailureOr<std::unique_ptr<run::DeviceCacheSession>> decoder =
        run::DeviceCacheSession::create(*interface, *symbolic->executable,
                                        options.maxSeq, report,
                                        int64_t(prompts.size()));
    if (failed(decoder))
      fail(symbolic.get(), ErrorKind::Run, reported);
    FailureOr<run::GenerationResult> result =
        run::generate(**decoder, prompts, options);
    if (failed(result)) {
      decoder->reset(); // holds buffers of the device
      recoverIfLost(symbolic.get());
    }
    if (failed(result))
      fail(symbolic.get(), ErrorKind::Run,
           reported.empty() ? "the generation failed" : reported);
    checkValidation();
    return toLists(*result);
  }
  // Each step through run(), which takes the lock itself.
  lock.unlock();
  run::StepFunction step = [&](ArrayRef<onnx::Tensor> inputs) {
    SmallVector<InputView> views;
    for (const onnx::Tensor &input : inputs)
      views.push_back(
          {input.getElementType(), input.getShape(), input.getBytes()});
    SmallVector<onnx::Tensor> results;
    for (OutputTensor &output : run(views)) {
      onnx::Tensor tensor(output.elementType, output.shape);
      MutableArrayRef<char> bytes = tensor.getMutableBytes();
      if (!bytes.empty())
        std::memcpy(bytes.data(), output.bytes.data(), bytes.size());
      results.push_back(std::move(tensor));
    }
    return FailureOr<SmallVector<onnx::Tensor>>(std::move(results));
  };
  run::HostCacheSession decoder(std::move(*interface), step, report);
  FailureOr<run::GenerationResult> result =
      run::generate(decoder, prompts, options);
  if (failed(result))
    throw Error(ErrorKind::Run,
                reported.empty() ? "the generation failed" : reported);
  return toLists(*result);
}

void Session::checkValidation() {
  std::vector<std::string> messages = backend->getValidationMessages();
  if (messages.size() <= validationMessagesSeen)
    return;
  std::string text =
      fmt::format("the Vulkan validation layer reported {} message(s):",
                  messages.size() - validationMessagesSeen);
  for (size_t i = validationMessagesSeen; i < messages.size(); ++i)
    text += "\n  " + messages[i];
  validationMessagesSeen = messages.size();
  throw Error(ErrorKind::Run, text);
}

void Session::fail(Variant *variant, ErrorKind kind,
                   const std::string &fallback) {
  std::string text = context.take();
  if (variant)
    text += variant->context.take();
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  throw Error(kind, text.empty() ? fallback : text);
}

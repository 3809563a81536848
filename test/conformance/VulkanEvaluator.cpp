//===- VulkanEvaluator.cpp - Conformance cases on a Vulkan device ---------===//

#include "test/conformance/VulkanEvaluator.h"

#include "tools/onyx-run/VulkanBackend.h"

#include "llvm/Support/Regex.h"

using namespace onyx;
using namespace onyx::conformance;

/// How much of a validation message a case's detail keeps.
static constexpr size_t kMaxMessage = 600;

std::unique_ptr<VulkanEvaluator> VulkanEvaluator::create(std::string &error) {
  std::unique_ptr<VulkanEvaluator> evaluator(new VulkanEvaluator());
  ScopedDiagnosticCollector diagnostics(&evaluator->ctx);
  run::VulkanOptions options;
  options.validation = true;
  FailureOr<std::unique_ptr<run::VulkanBackend>> backend =
      run::VulkanBackend::create(&evaluator->ctx, options);
  if (failed(backend)) {
    error = formatDiagnostics(diagnostics.getDiagnostics());
    return nullptr;
  }
  evaluator->backend = std::move(*backend);
  return evaluator;
}

VulkanEvaluator::~VulkanEvaluator() = default;

/// Sorts a lowering error: an op no generator handles makes the case
/// unsupported, with the op in the reason so that the summary counts cases
/// by missing generator; anything else is a failure.
static CaseResult classifyLoweringError(StringRef text) {
  static const llvm::Regex noGenerator(
      "'([A-Za-z0-9_.]+)' op has no GPU kernel generator");
  SmallVector<StringRef, 2> matches;
  if (noGenerator.match(text, &matches))
    return {Status::Unsupported,
            ("no kernel generator for " + matches[1]).str(), text.str()};
  return {Status::Fail, "lowering error", text.str()};
}

CaseResult VulkanEvaluator::run(ModuleOp module, ArrayRef<onnx::Tensor> inputs,
                                SmallVectorImpl<onnx::Tensor> &outputs) {
  // Errors about the module arrive in its Context, errors about the
  // machine in the backend's.
  ScopedDiagnosticCollector moduleDiagnostics(module->getContext());
  ScopedDiagnosticCollector deviceDiagnostics(&ctx);
  auto diagText = [&] {
    std::string text = formatDiagnostics(moduleDiagnostics.getDiagnostics());
    std::string device = formatDiagnostics(deviceDiagnostics.getDiagnostics());
    return text.empty() ? device : device.empty() ? text : text + "\n" + device;
  };
  size_t messagesBefore = backend->getValidationMessageCount();

  CaseResult result{Status::Pass, "", ""};
  if (auto main = dyn_cast_or_null<FuncOp>(module.lookupSymbol("main")))
    run::refineArgumentTypes(main, inputs);
  if (failed(backend->lower(module, /*irDump=*/nullptr))) {
    result = classifyLoweringError(diagText());
  } else {
    FailureOr<std::unique_ptr<runtime::Executable>> exe =
        runtime::Executable::load(backend->getDevice(), module);
    if (failed(exe)) {
      result = {Status::Fail, "load error", diagText()};
    } else {
      FailureOr<SmallVector<onnx::Tensor>> results =
          run::runExecutable(**exe, inputs);
      if (failed(results))
        result = {Status::Fail, "run error", diagText()};
      else
        outputs.assign(results->begin(), results->end());
    }
  }

  // Checked after the Executable is gone, so that its destruction is
  // validated too.
  std::vector<std::string> messages = backend->getValidationMessages();
  if (messages.size() > messagesBefore) {
    std::string first = messages[messagesBefore];
    if (first.size() > kMaxMessage)
      first = first.substr(0, kMaxMessage) + "...";
    return {Status::Fail, "validation error",
            std::to_string(messages.size() - messagesBefore) +
                " message(s); the first: " + first};
  }
  return result;
}

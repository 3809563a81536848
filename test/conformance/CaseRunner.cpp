//===- CaseRunner.cpp - One ONNX node test on a backend -------------------===//

#include "test/conformance/CaseRunner.h"
#include "test/conformance/VulkanEvaluator.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/import/Importer.h"
#include "dialect/onnx/io/ModelLoader.h"
#include "dialect/onnx/io/SignatureCheck.h"
#include "dialect/onnx/io/TensorLiteral.h"
#include "dialect/onnx/reference/ReferenceBackend.h"

#include "ir/Context.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

using namespace onyx;
using namespace onyx::conformance;
using namespace onyx::onnx;

std::string onyx::conformance::formatDiagnostics(ArrayRef<Diagnostic> diags) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const Diagnostic &diag : diags) {
    os << diag.str() << '\n';
    for (const std::unique_ptr<Diagnostic> &note : diag.getNotes())
      os << "  note: " << note->str() << '\n';
  }
  return StringRef(text).rtrim().str();
}

/// The sorted test_data_set_* directories of case `dir`.
static std::vector<std::string> findDataSets(StringRef dir) {
  std::vector<std::string> sets;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::filename(it->path()).starts_with("test_data_set_"))
      sets.push_back(it->path());
  llvm::sort(sets);
  return sets;
}

/// Reads `prefix_0.pb`, `prefix_1.pb`, ... of `dir` until one is missing.
static LogicalResult readTensors(StringRef dir, StringRef prefix, Context &ctx,
                                 SmallVectorImpl<Tensor> &tensors) {
  for (unsigned i = 0;; ++i) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, prefix + "_" + llvm::Twine(i) + ".pb");
    if (!llvm::sys::fs::exists(path))
      return success();
    FailureOr<Tensor> tensor = readTensorProtoFile(path, &ctx);
    if (failed(tensor))
      return failure();
    tensors.push_back(std::move(*tensor));
  }
}

static CaseResult fail(Status status, StringRef reason, StringRef detail) {
  return {status, reason.str(), detail.str()};
}

/// Describes how `actual` misses `expected`.
static std::string describeMismatch(const ComparisonResult &comparison,
                                    const Tensor &actual,
                                    const Tensor &expected) {
  int64_t first = comparison.firstMismatched;
  return fmt::format("max abs error {:.2g}, max rel error {:.2g}; {} of {} "
                     "elements out of tolerance, first at index {}: got {}, "
                     "expected {}",
                     comparison.maxAbsError, comparison.maxRelError,
                     comparison.numMismatched, expected.getNumElements(), first,
                     formatElement(actual, first),
                     formatElement(expected, first));
}

/// Whether `input` looks like a shape operand (a Reshape's shape, Slice's
/// starts, Range's limit, ...): a scalar, or a vector of integers.
static bool isShapeLike(const Tensor &input) {
  return input.getRank() == 0 ||
         (input.getRank() == 1 && !isFloat(input.getElementType()));
}

/// Runs one data set in a fresh Context, so that nothing of one run (types,
/// constants, a half-built module) can affect the next. ONNX's node tests
/// feed shape operands (a Reshape's shape, a ReduceSum's axes) as graph
/// inputs, and they are run that way, as a user would. With
/// `shapeInputsAsConstants` (Vulkan only, while lowering needs static
/// shapes), the shape-like inputs are imported as constants of their values
/// instead, as a model exported with those values would hold them.
CaseResult CaseRunner::runDataSet(StringRef modelPath, const CaseInfo &info,
                                  StringRef setDir,
                                  bool shapeInputsAsConstants) {
  Context ctx;
  ctx.loadDialect<OnnxDialect>();
  ScopedDiagnosticCollector diagnostics(&ctx);
  auto diagText = [&] {
    return formatDiagnostics(diagnostics.getDiagnostics());
  };

  SmallVector<Tensor> inputs, outputs;
  if (failed(readTensors(setDir, "input", ctx, inputs)) ||
      failed(readTensors(setDir, "output", ctx, outputs)))
    return fail(Status::Fail, "unreadable test data", diagText());

  ModelLoadOptions options;
  SmallVector<Tensor> arguments;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    if (shapeInputsAsConstants && i < info.inputNames.size() &&
        isShapeLike(input))
      options.constantInputs[info.inputNames[i]] = input;
    else
      arguments.push_back(input);
  }
  OwningOpRef<ModuleOp> module =
      loadOnnxModel(modelPath, &ctx, arguments, options);
  if (!module) {
    std::string text = diagText();
    // The importer's words for models outside what onyx supports.
    if (StringRef(text).contains("unsupported ONNX operators"))
      return fail(Status::Unsupported, "unsupported op", text);
    if (StringRef(text).contains("is not supported (onyx imports opsets"))
      return fail(Status::Unsupported, "unsupported opset", text);
    return fail(Status::Fail, "import or canonicalization error", text);
  }
  auto main = dyn_cast_or_null<FuncOp>(module.get().lookupSymbol("main"));
  if (!main)
    return fail(Status::Fail, "no @main", "");
  std::string error;
  if (failed(checkInputs(main.getFunctionType().getInputs(), arguments, error)))
    return fail(Status::Fail, "inputs do not fit @main", error);

  SmallVector<Tensor> results;
  if (backend == Backend::Reference) {
    FailureOr<SmallVector<Tensor>> evaluated = runReference(main, arguments);
    if (failed(evaluated))
      return fail(Status::Fail, "evaluation error", diagText());
    results = std::move(*evaluated);
  } else {
    CaseResult result = vulkan->run(*module, arguments, results);
    if (result.status != Status::Pass)
      return result;
  }
  if (results.size() != outputs.size())
    return fail(
        Status::Fail, "wrong number of outputs",
        fmt::format("{} outputs, expected {}", results.size(), outputs.size()));
  for (auto [i, actual, expected] : llvm::enumerate(results, outputs)) {
    ComparisonResult comparison = compareTensors(actual, expected, tolerance);
    if (!comparison.mismatch.empty())
      return fail(Status::Fail, "wrong shape or type",
                  fmt::format("output {}: {}", i, comparison.mismatch));
    if (!comparison.passed())
      return fail(Status::Fail, "wrong values",
                  fmt::format("output {}: {}", i,
                              describeMismatch(comparison, actual, expected)));
  }
  return {Status::Pass, "", ""};
}

/// Whether lowering failed for want of static shapes or constant shape
/// operands (the onnx-static-shapes check, a generator that needs an
/// operand's values), which importing shape inputs as constants may
/// satisfy.
static bool needsStaticShapes(const CaseResult &result) {
  StringRef detail = result.detail;
  return result.reason == "lowering error" &&
         (detail.contains("static shape") ||
          detail.contains("must be a constant to lower") ||
          detail.contains("computable on the host") ||
          detail.contains("needs constant"));
}

CaseRunner::CaseRunner(Backend backend, Tolerance tolerance)
    : backend(backend), tolerance(tolerance) {}

CaseRunner::~CaseRunner() = default;

CaseResult CaseRunner::run(StringRef dir, const CaseInfo &info) {
  if (!info.error.empty())
    return fail(Status::Fail, "unreadable model", info.error);
  // Types a Tensor cannot hold (strings, float8, int4, ...) are skipped
  // rather than failed: they are outside what onyx means to support.
  if (!info.representable)
    return fail(Status::Unsupported, "unsupported element type",
                llvm::join(info.elemTypes, ", "));

  llvm::SmallString<256> modelPath(dir);
  llvm::sys::path::append(modelPath, "model.onnx");
  std::vector<std::string> dataSets = findDataSets(dir);
  if (dataSets.empty())
    return fail(Status::Fail, "no test data", "");
  if (backend == Backend::Vulkan && !vulkan) {
    std::string error;
    vulkan = VulkanEvaluator::create(error);
    if (!vulkan)
      return fail(Status::Fail, kNoVulkanDevice, error);
  }
  CaseResult passed{Status::Pass, "", ""};
  for (const std::string &setDir : dataSets) {
    CaseResult result =
        runDataSet(modelPath, info, setDir, /*shapeInputsAsConstants=*/false);
    if (backend == Backend::Vulkan && needsStaticShapes(result)) {
      result =
          runDataSet(modelPath, info, setDir, /*shapeInputsAsConstants=*/true);
      result.shapeInputsAsConstants = true;
    }
    if (result.status != Status::Pass) {
      if (dataSets.size() > 1)
        result.detail =
            llvm::sys::path::filename(setDir).str() + ": " + result.detail;
      return result;
    }
    passed.shapeInputsAsConstants |= result.shapeInputsAsConstants;
  }
  return passed;
}

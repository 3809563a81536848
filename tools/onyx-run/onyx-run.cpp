//===- onyx-run.cpp - Run a model and print or check its outputs ----------===//
//
// onyx-run MODEL.onnx|MODULE.mlir [--backend=ref|vulkan] [--input=...]...
//     [--expected-output=...]... [--rtol=R] [--atol=A] [--output=@F.npy]...
//     [--bind-dims=NAME=N,...] [--print-ir-after-all]
//
// An ONNX model is imported with its symbolic dimensions bound (from
// --bind-dims, else from the inputs' shapes) and canonicalized; a .mlir
// module is parsed and verified. Then `@main` runs on the inputs, which are
// checked against its argument types first. Outputs are printed, written to
// .npy files, or compared with expected ones. Tools and tests depend on
// this command line: extend it, do not change it.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/import/Importer.h"
#include "dialect/onnx/io/ModelLoader.h"
#include "dialect/onnx/io/NpyFile.h"
#include "dialect/onnx/io/SignatureCheck.h"
#include "dialect/onnx/io/TensorComparison.h"
#include "dialect/onnx/io/TensorLiteral.h"
#include "dialect/onnx/reference/ReferenceBackend.h"

#include "ir/Context.h"
#include "ir/Parser.h"
#include "ir/SourceMgrDiagnostics.h"
#include "ir/Verifier.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <string>
#include <vector>

using namespace onyx;
using namespace onyx::onnx;
namespace cl = llvm::cl;

namespace {

enum class Backend { Reference, Vulkan };

/// What the command line asks for, so that running needs no globals.
struct Options {
  std::string modelPath;
  Backend backend = Backend::Reference;
  std::vector<std::string> inputs;
  std::vector<std::string> expectedOutputs;
  std::vector<std::string> outputs;
  Tolerance tolerance;
  std::string bindDims;
  bool printIRAfterAll = false;
};

} // namespace

/// How many elements of an output are printed.
static constexpr int64_t kPrintedElements = 8;

static constexpr const char *kOverview = R"(onyx model runner

Runs the function @main of an ONNX model or of an onnx-dialect module and
prints its outputs, writes them to .npy files, or compares them with
expected ones (exit status 0 only if every output matches).

A tensor is given as @FILE.npy (NumPy), @FILE.pb (ONNX TensorProto) or
inline as SHAPExTYPE=VALUES with IR type names, one value for all elements
or one per element in row-major order:
  --input=2x3xf32=1,2,3,4,5,6   --input=1x3x224x224xf32=0.5   --input=i64=7

Example:
  onyx-run model.onnx --input=@x.npy --expected-output=@y.npy --rtol=1e-4
)";

static Options parseCommandLine(int argc, char **argv) {
  static cl::OptionCategory category("onyx-run options");
  static cl::opt<std::string> modelPath(cl::Positional, cl::Required,
                                        cl::desc("<MODEL.onnx | MODULE.mlir>"),
                                        cl::cat(category));
  static cl::opt<Backend> backend(
      "backend", cl::desc("Where to run the model (default: ref)"),
      cl::values(clEnumValN(Backend::Reference, "ref",
                            "the reference evaluator on the CPU"),
                 clEnumValN(Backend::Vulkan, "vulkan", "a Vulkan device")),
      cl::init(Backend::Reference), cl::cat(category));
  static cl::list<std::string> inputs(
      "input",
      cl::desc("A graph input, in order: @FILE.npy, @FILE.pb or "
               "SHAPExTYPE=VALUES (repeat for each input)"),
      cl::value_desc("tensor"), cl::cat(category));
  static cl::list<std::string> expectedOutputs(
      "expected-output",
      cl::desc("The expected value of an output, in order: @FILE.npy, "
               "@FILE.pb or SHAPExTYPE=VALUES; prints PASS or FAIL per output"),
      cl::value_desc("tensor"), cl::cat(category));
  static cl::opt<double> rtol(
      "rtol",
      cl::desc("Relative tolerance: |actual - expected| <= atol + rtol * "
               "|expected| (default 1e-3)"),
      cl::init(Tolerance().rtol), cl::cat(category));
  static cl::opt<double> atol("atol",
                              cl::desc("Absolute tolerance (default 1e-7)"),
                              cl::init(Tolerance().atol), cl::cat(category));
  static cl::list<std::string> outputs(
      "output",
      cl::desc("Write an output to a .npy file instead of printing it, in "
               "order: @FILE.npy"),
      cl::value_desc("@file"), cl::cat(category));
  static cl::opt<std::string> bindDims(
      "bind-dims",
      cl::desc("Sizes of symbolic dimensions of an ONNX model's inputs "
               "(default: the sizes of the given inputs)"),
      cl::value_desc("NAME=N,..."), cl::cat(category));
  static cl::opt<bool> printIRAfterAll(
      "print-ir-after-all",
      cl::desc("Print the IR after the import and after each pass"),
      cl::cat(category));

  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, kOverview);

  Options options;
  options.modelPath = modelPath;
  options.backend = backend;
  options.inputs = inputs;
  options.expectedOutputs = expectedOutputs;
  options.outputs = outputs;
  options.tolerance = {rtol, atol};
  options.bindDims = bindDims;
  options.printIRAfterAll = printIRAfterAll;
  return options;
}

static void reportError(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "onyx-run") << message << '\n';
}

/// Reads a tensor given as @FILE.npy, @FILE.pb or a literal. `what` names
/// it in errors ("input 0"). Problems with .pb files are reported by their
/// reader through `ctx`.
static FailureOr<Tensor> readTensorArgument(StringRef text, StringRef what,
                                            Context &ctx) {
  std::string error;
  FailureOr<Tensor> tensor = failure();
  if (text.consume_front("@")) {
    StringRef extension = llvm::sys::path::extension(text);
    if (extension == ".npy")
      tensor = readNpyFile(text, error);
    else if (extension == ".pb")
      return readTensorProtoFile(text, &ctx);
    else
      error = fmt::format("'{}' is neither a .npy nor a .pb file", text);
  } else {
    tensor = parseTensorLiteral(text, error);
  }
  if (failed(tensor))
    reportError(what + ": " + error);
  return tensor;
}

static FailureOr<SmallVector<Tensor>>
readTensorArguments(ArrayRef<std::string> texts, StringRef what, Context &ctx) {
  SmallVector<Tensor> tensors;
  for (auto [i, text] : llvm::enumerate(texts)) {
    FailureOr<Tensor> tensor =
        readTensorArgument(text, (what + " " + llvm::Twine(i)).str(), ctx);
    if (failed(tensor))
      return failure();
    tensors.push_back(std::move(*tensor));
  }
  return tensors;
}

/// Imports and canonicalizes an ONNX model, or parses and verifies a module.
static OwningOpRef<ModuleOp> loadModule(const Options &options,
                                        ArrayRef<Tensor> inputs, Context &ctx,
                                        llvm::SourceMgr &sourceMgr) {
  StringRef extension = llvm::sys::path::extension(options.modelPath);
  if (extension == ".onnx") {
    ModelLoadOptions loadOptions;
    std::string error;
    if (failed(parseDimBindings(options.bindDims, loadOptions.dimBindings,
                                error))) {
      reportError("--bind-dims: " + error);
      return nullptr;
    }
    if (options.printIRAfterAll)
      loadOptions.irDump = &llvm::errs();
    return loadOnnxModel(options.modelPath, &ctx, inputs, loadOptions);
  }
  if (extension != ".mlir") {
    reportError("'" + options.modelPath +
                "' is neither an ONNX model (.onnx) nor a module (.mlir)");
    return nullptr;
  }
  if (!options.bindDims.empty()) {
    reportError("--bind-dims applies to ONNX models only");
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(options.modelPath);
  if (!buffer) {
    reportError("cannot read '" + options.modelPath +
                "': " + buffer.getError().message());
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile(sourceMgr, &ctx);
  if (!module || failed(verify(*module)))
    return nullptr;
  return module;
}

/// Compares each output with its expected value, printing one line each;
/// succeeds if all match.
static LogicalResult checkOutputs(ArrayRef<Tensor> results,
                                  ArrayRef<Tensor> expected,
                                  Tolerance tolerance) {
  bool allPassed = true;
  for (auto [i, actual, reference] : llvm::enumerate(results, expected)) {
    ComparisonResult comparison = compareTensors(actual, reference, tolerance);
    llvm::outs() << "output " << i << ": ";
    if (!comparison.mismatch.empty()) {
      llvm::outs() << comparison.mismatch << ": FAIL\n";
      allPassed = false;
      continue;
    }
    llvm::outs() << fmt::format("max abs error {:.2g}, max rel error {:.2g}: ",
                                comparison.maxAbsError, comparison.maxRelError);
    if (comparison.passed()) {
      llvm::outs() << "PASS\n";
      continue;
    }
    allPassed = false;
    int64_t first = comparison.firstMismatched;
    llvm::outs() << "FAIL (" << comparison.numMismatched << " of "
                 << reference.getNumElements()
                 << " elements out of tolerance; first at index " << first
                 << ": " << formatElement(actual, first) << ", expected "
                 << formatElement(reference, first) << ")\n";
  }
  return success(allPassed);
}

/// Writes the outputs that have a file and prints the others.
static LogicalResult emitOutputs(ArrayRef<Tensor> results,
                                 ArrayRef<std::string> files, Context &ctx) {
  for (auto [i, result] : llvm::enumerate(results)) {
    if (i < files.size()) {
      std::string error;
      if (failed(
              writeNpyFile(StringRef(files[i]).drop_front(), result, error))) {
        reportError("output " + llvm::Twine(i) + ": " + error);
        return failure();
      }
      continue;
    }
    llvm::outs() << "output " << i << ": " << result.getType(&ctx) << " = "
                 << formatElements(result, kPrintedElements) << '\n';
  }
  return success();
}

static LogicalResult run(const Options &options) {
  if (options.backend == Backend::Vulkan) {
    reportError("the vulkan backend is not built yet; use --backend=ref");
    return failure();
  }
  for (StringRef file : options.outputs) {
    if (!file.starts_with("@") || !file.ends_with(".npy")) {
      reportError("--output=" + file + ": expected --output=@FILE.npy");
      return failure();
    }
  }

  Context ctx;
  ctx.loadDialect<OnnxDialect>();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);

  FailureOr<SmallVector<Tensor>> inputs =
      readTensorArguments(options.inputs, "input", ctx);
  if (failed(inputs))
    return failure();
  FailureOr<SmallVector<Tensor>> expected =
      readTensorArguments(options.expectedOutputs, "expected output", ctx);
  if (failed(expected))
    return failure();

  OwningOpRef<ModuleOp> module = loadModule(options, *inputs, ctx, sourceMgr);
  if (!module)
    return failure();
  auto main = dyn_cast_or_null<FuncOp>(module.get().lookupSymbol("main"));
  if (!main) {
    reportError("'" + options.modelPath + "' has no func.func @main");
    return failure();
  }
  FunctionType type = main.getFunctionType();
  std::string error;
  if (failed(checkInputs(type.getInputs(), *inputs, error))) {
    reportError(error);
    return failure();
  }
  size_t numResults = type.getResults().size();
  if (!expected->empty() && expected->size() != numResults) {
    reportError("got " + llvm::Twine(expected->size()) +
                " expected outputs for the " + llvm::Twine(numResults) +
                " outputs of @main");
    return failure();
  }
  if (options.outputs.size() > numResults) {
    reportError("got " + llvm::Twine(options.outputs.size()) +
                " --output files for the " + llvm::Twine(numResults) +
                " outputs of @main");
    return failure();
  }

  FailureOr<SmallVector<Tensor>> results = runReference(main, *inputs);
  if (failed(results) || failed(emitOutputs(*results, options.outputs, ctx)))
    return failure();
  if (expected->empty())
    return success();
  return checkOutputs(*results, *expected, options.tolerance);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options options = parseCommandLine(argc, argv);
  return failed(run(options)) ? 1 : 0;
}

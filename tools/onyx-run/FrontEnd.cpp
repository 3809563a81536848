//===- FrontEnd.cpp - onyx-run's model and tensors, checked ---------------===//

#include "tools/onyx-run/FrontEnd.h"
#include "tools/onyx-run/RunReport.h"
#include "tools/onyx-run/VulkanBackend.h"

#include "dialect/onnx/import/Importer.h"
#include "dialect/onnx/import/Signature.h"
#include "dialect/onnx/io/ModelLoader.h"
#include "dialect/onnx/io/NpyFile.h"
#include "dialect/onnx/io/SignatureCheck.h"
#include "dialect/onnx/io/TensorLiteral.h"

#include "ir/Context.h"
#include "ir/Parser.h"
#include "ir/Verifier.h"
#include "rewrite/PassManager.h"
#include "rewrite/Passes.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

using namespace onyx;
using namespace onyx::onnx;
using namespace onyx::run;

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

/// Canonicalizes and CSEs an onnx-dialect module read from text, as the
/// import does for ONNX models, so that both reach lowering alike.
static LogicalResult canonicalize(ModuleOp module, llvm::raw_ostream *irDump) {
  PassManager pm(module->getContext());
  if (irDump) {
    PassManager::IRPrinting printing;
    printing.afterAll = true;
    printing.os = irDump;
    pm.enableIRPrinting(std::move(printing));
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  return pm.run(module);
}

/// Imports and canonicalizes an ONNX model, or parses and verifies a module
/// (and canonicalizes it if it is in the onnx dialect and bound for the
/// Vulkan backend).
static OwningOpRef<ModuleOp> loadModule(const Options &options,
                                        ArrayRef<Tensor> inputs,
                                        ArrayRef<SmallVector<Tensor>> inputSets,
                                        Context &ctx,
                                        llvm::SourceMgr &sourceMgr) {
  llvm::raw_ostream *irDump = options.printIRAfterAll ? &llvm::errs() : nullptr;
  StringRef extension = llvm::sys::path::extension(options.modelPath);
  if (extension == ".onnx") {
    ModelLoadOptions loadOptions;
    std::string error;
    if (failed(parseDimBindings(options.bindDims, loadOptions.dimBindings,
                                error))) {
      reportError("--bind-dims: " + error);
      return nullptr;
    }
    loadOptions.irDump = irDump;
    // Ifs decided by the runs' input values take their branch while
    // importing: those of the one run, or those all of --input-set's sets
    // agree on (a model's sample rate, say, the same for every frame).
    loadOptions.decideControlFlow = true;
    if (!inputSets.empty())
      return loadOnnxModelForInputSets(options.modelPath, &ctx, inputSets,
                                       loadOptions);
    loadOptions.decideControlFlow = !inputs.empty();
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
  if (options.backend == Backend::Vulkan && !isGpuModule(*module) &&
      failed(canonicalize(*module, irDump)))
    return nullptr;
  return module;
}

FailureOr<Prepared> onyx::run::prepare(const Options &options, Context &ctx,
                                       llvm::SourceMgr &sourceMgr) {
  Prepared prepared;
  FailureOr<SmallVector<Tensor>> inputs =
      readTensorArguments(options.inputs, "input", ctx);
  if (failed(inputs))
    return failure();
  FailureOr<SmallVector<Tensor>> expected =
      readTensorArguments(options.expectedOutputs, "expected output", ctx);
  if (failed(expected))
    return failure();
  prepared.inputs = std::move(*inputs);
  prepared.expected = std::move(*expected);
  if (!options.inputSets.empty() &&
      (!options.inputs.empty() || !options.expectedOutputs.empty() ||
       !options.outputs.empty())) {
    reportError("--input-set cannot be combined with --input, "
                "--expected-output or --output");
    return failure();
  }
  for (StringRef set : options.inputSets) {
    SmallVector<StringRef> parts;
    set.split(parts, ';', -1, /*KeepEmpty=*/false);
    std::vector<std::string> specs(parts.begin(), parts.end());
    FailureOr<SmallVector<Tensor>> tensors =
        readTensorArguments(specs, "input", ctx);
    if (failed(tensors))
      return failure();
    prepared.inputSets.push_back(std::move(*tensors));
  }

  prepared.module =
      loadModule(options, prepared.inputs, prepared.inputSets, ctx, sourceMgr);
  if (!prepared.module)
    return failure();
  prepared.main =
      dyn_cast_or_null<FuncOp>(prepared.module.get().lookupSymbol("main"));
  if (!prepared.main) {
    reportError("'" + options.modelPath + "' has no func.func @main");
    return failure();
  }
  FunctionType type = prepared.main.getFunctionType();
  std::string error;
  if (prepared.inputSets.empty() &&
      failed(checkInputs(type.getInputs(), prepared.inputs, error))) {
    reportError(error);
    return failure();
  }
  for (auto [i, set] : llvm::enumerate(prepared.inputSets)) {
    if (failed(checkInputs(type.getInputs(), set, error))) {
      reportError("input set " + llvm::Twine(i) + ": " + error);
      return failure();
    }
  }
  size_t numResults = type.getResults().size();
  if (!prepared.expected.empty() && prepared.expected.size() != numResults) {
    reportError("got " + llvm::Twine(prepared.expected.size()) +
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
  return prepared;
}

FailureOr<std::vector<runtime::DimBound>>
onyx::run::getDimBounds(const Options &options, FuncOp main, Context &ctx) {
  llvm::StringMap<int64_t> maxima;
  std::string error;
  if (failed(onnx::parseDimBindings(options.maxDims, maxima, error))) {
    reportError("--max-dims: " + error);
    return failure();
  }
  FailureOr<onnx::ModelSignature> signature =
      onnx::readOnnxSignature(options.modelPath, &ctx);
  if (failed(signature))
    return failure();
  ArrayRef<Type> types = main.getFunctionType().getInputs();
  if (signature->inputs.size() != types.size()) {
    reportError("--max-dims: @main has " + llvm::Twine(types.size()) +
                " arguments for the model's " +
                llvm::Twine(signature->inputs.size()) + " inputs");
    return failure();
  }
  std::vector<runtime::DimBound> bounds;
  llvm::StringSet<> used;
  for (auto [i, input] : llvm::enumerate(signature->inputs)) {
    auto type = cast<RankedTensorType>(types[i]);
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!ShapedType::isDynamic(type.getShape()[d]))
        continue;
      StringRef name = d < int64_t(input.dimNames.size())
                           ? StringRef(input.dimNames[d])
                           : StringRef();
      std::string where =
          fmt::format("dimension {} of input '{}'", d, input.name);
      if (name.empty()) {
        reportError("--max-dims: " + where +
                    " has no name, so no bound can name it");
        return failure();
      }
      auto found = maxima.find(name);
      if (found == maxima.end()) {
        reportError("--max-dims: no bound for '" + name + "' (" + where + ")");
        return failure();
      }
      used.insert(name);
      bounds.push_back({unsigned(i), unsigned(d), found->second, name.str()});
    }
  }
  for (const auto &entry : maxima) {
    if (!used.contains(entry.getKey())) {
      reportError("--max-dims: '" + entry.getKey() +
                  "' is not a symbolic dimension of the model's inputs (or "
                  "--bind-dims binds it)");
      return failure();
    }
  }
  return bounds;
}

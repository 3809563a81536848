//===- onyx-opt.cpp - Read, verify, transform and print IR ----------------===//
//
// The driver behind the lit tests: reads IR text, verifies it, runs the
// passes its flags name (rewrite/PassManagerOptions.h) and prints it back,
// with mlir-opt's flags and behaviour (--split-input-file,
// --verify-diagnostics, generic and debug-info printing) so that test files
// and habits carry over. Each input chunk gets its own Context and source
// manager, as in mlir-opt, so chunks cannot affect each other. ONNX models
// (`.onnx`, or any input with --import-onnx) are imported instead of parsed.
//
//===----------------------------------------------------------------------===//

#include "dialect/gpu/GpuDialect.h"
#include "dialect/gpu/Target.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/import/Importer.h"
#include "ir/AsmPrinter.h"
#include "ir/Context.h"
#include "ir/Parser.h"
#include "ir/SourceMgrDiagnostics.h"
#include "ir/Verifier.h"
#include "lowering/Passes.h"
#include "rewrite/PassManagerOptions.h"
#include "rewrite/Passes.h"
#ifdef ONYX_INCLUDE_TESTS
#include "test/dialect/TestDialect.h"
#include "test/pass/TestPasses.h"
#endif

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

using namespace onyx;
namespace cl = llvm::cl;

namespace {

/// What the command line asks for, so that processing needs no globals.
struct Options {
  std::string inputFilename;
  std::string outputFilename;
  bool allowUnregisteredDialects = false;
  bool splitInputFile = false;
  bool verifyDiagnostics = false;
  bool verifyEach = true;
  bool importOnnx = false;
  /// `--list-unsupported`: report the model's unsupported ops instead.
  bool listUnsupported = false;
  onnx::ImportOptions importOptions;
  /// `--target=`: recorded on the module as gpu.target before passes run.
  std::string target;
  OpPrintingFlags printingFlags;
};

} // namespace

/// Parses the command line; only onyx-opt's own flags appear in --help.
static Options parseCommandLine(int argc, char **argv) {
  static cl::OptionCategory category("onyx-opt options");
  static cl::opt<std::string> inputFilename(cl::Positional,
                                            cl::desc("<input file>"),
                                            cl::init("-"), cl::cat(category));
  static cl::opt<std::string> outputFilename("o", cl::desc("Output filename"),
                                             cl::value_desc("filename"),
                                             cl::init("-"), cl::cat(category));
  static cl::opt<bool> allowUnregisteredDialects(
      "allow-unregistered-dialect",
      cl::desc("Allow operations of dialects that are not loaded"),
      cl::cat(category));
  static cl::opt<bool> printGeneric(
      "print-generic", cl::desc("Print all operations in the generic form"),
      cl::cat(category));
  static cl::alias printGenericAlias(
      "mlir-print-op-generic", cl::desc("Alias for --print-generic"),
      cl::aliasopt(printGeneric), cl::cat(category));
  static cl::opt<bool> printDebugInfo(
      "print-debuginfo", cl::desc("Print the locations of operations"),
      cl::cat(category));
  static cl::alias printDebugInfoAlias(
      "mlir-print-debuginfo", cl::desc("Alias for --print-debuginfo"),
      cl::aliasopt(printDebugInfo), cl::cat(category));
  static cl::opt<int64_t> hexThreshold(
      "print-elementsattrs-with-hex-if-larger",
      cl::desc("Print dense elements attributes with more elements than "
               "this as a hex string"),
      cl::cat(category));
  static cl::alias hexThresholdAlias(
      "mlir-print-elementsattrs-with-hex-if-larger",
      cl::desc("Alias for --print-elementsattrs-with-hex-if-larger"),
      cl::aliasopt(hexThreshold), cl::cat(category));
  static cl::opt<bool> splitInputFile(
      "split-input-file",
      cl::desc("Split the input at '// -----' markers and process each chunk "
               "on its own"),
      cl::cat(category));
  static cl::opt<bool> verifyDiagnostics(
      "verify-diagnostics",
      cl::desc("Check that emitted diagnostics match the expected-* comments "
               "of the input"),
      cl::cat(category));
  static cl::opt<bool> verifyEach(
      "verify-each",
      cl::desc("Verify the IR after parsing and after each pass"),
      cl::init(true), cl::cat(category));
  static cl::opt<bool> importOnnx(
      "import-onnx",
      cl::desc("Read the input as an ONNX model (the default for .onnx files)"),
      cl::cat(category));
  static cl::opt<bool> listUnsupported(
      "list-unsupported",
      cl::desc("Read the input as an ONNX model and list the ONNX operators "
               "onyx does not support, with their nodes (subgraphs "
               "included), instead of importing it; exits with 0 either way"),
      cl::cat(category));
  static cl::opt<std::string> bindDims(
      "bind-dims",
      cl::desc("Sizes of the symbolic dimensions of an ONNX model"),
      cl::value_desc("NAME=N,..."), cl::cat(category));

  static cl::opt<std::string> target(
      "target",
      cl::desc("The device to lower for (sets the module's gpu.target): "
               "vulkan, lavapipe, nvidia, or a dictionary of features and "
               "limits"),
      cl::value_desc("name|{...}"), cl::cat(category));

  std::vector<const cl::OptionCategory *> categories =
      getPassManagerCLCategories();
  categories.push_back(&category);
  cl::HideUnrelatedOptions(categories);
  cl::ParseCommandLineOptions(argc, argv, "onyx modular optimizer driver\n");

  Options options;
  options.inputFilename = inputFilename;
  options.outputFilename = outputFilename;
  options.allowUnregisteredDialects = allowUnregisteredDialects;
  options.splitInputFile = splitInputFile;
  options.verifyDiagnostics = verifyDiagnostics;
  options.verifyEach = verifyEach;
  options.importOnnx =
      importOnnx || llvm::sys::path::extension(inputFilename) == ".onnx";
  options.listUnsupported = listUnsupported;
  std::string error;
  if (failed(onnx::parseDimBindings(bindDims, options.importOptions.dimBindings,
                                    error))) {
    llvm::errs() << argv[0] << ": for the --bind-dims option: " << error
                 << '\n';
    std::exit(1);
  }
  options.target = target;
  if (!options.target.empty()) {
    Context ctx;
    if (failed(gpu::TargetDesc::parse(options.target, &ctx, error))) {
      llvm::errs() << argv[0] << ": for the --target option: " << error << '\n';
      std::exit(1);
    }
  }
  options.printingFlags.printGenericOpForm(printGeneric)
      .enableDebugInfo(printDebugInfo);
  // Left alone unless given, so the printer's default applies.
  if (hexThreshold.getNumOccurrences())
    options.printingFlags.printElementsWithHexIfLarger(hexThreshold);
  return options;
}

/// Builds the pipeline that the pass flags ask for.
static LogicalResult buildPassManager(PassManager &pm, const Options &options) {
  pm.enableVerifier(options.verifyEach);
  return applyPassManagerCLOptions(pm, options.printingFlags, llvm::errs());
}

/// The IR of the main buffer of `sourceMgr`: parsed, or imported from ONNX.
static OwningOpRef<ModuleOp> readModule(const llvm::SourceMgr &sourceMgr,
                                        Context &ctx, const Options &options) {
  if (!options.importOnnx)
    return parseSourceFile(sourceMgr, &ctx);
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  return onnx::importOnnxBuffer(
      buffer->getBuffer(), buffer->getBufferIdentifier(),
      llvm::sys::path::parent_path(options.inputFilename), &ctx,
      options.importOptions);
}

/// Reads, verifies, transforms and prints the IR of the main buffer of
/// `sourceMgr`. Diagnostics go to whatever handler the caller installed in
/// `ctx`.
static LogicalResult runActions(const llvm::SourceMgr &sourceMgr, Context &ctx,
                                llvm::raw_ostream &os, const Options &options) {
  if (options.listUnsupported) {
    const llvm::MemoryBuffer *buffer =
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
    FailureOr<std::vector<onnx::UnsupportedOp>> ops = onnx::findUnsupportedOps(
        buffer->getBuffer(), buffer->getBufferIdentifier(), &ctx);
    if (failed(ops))
      return failure();
    onnx::printUnsupportedOps(*ops, buffer->getBufferIdentifier(), os);
    return success();
  }
  OwningOpRef<ModuleOp> module = readModule(sourceMgr, ctx, options);
  if (!module)
    return failure();
  if (options.verifyEach && failed(verify(*module)))
    return failure();
  if (!options.target.empty()) {
    std::string error;
    FailureOr<gpu::TargetDesc> target =
        gpu::TargetDesc::parse(options.target, &ctx, error);
    if (failed(target))
      return failure();
    (*module)->setAttr(gpu::TargetDesc::getAttrName(), target->toAttr(&ctx));
  }
  PassManager pm(&ctx);
  if (failed(buildPassManager(pm, options)) || failed(pm.run(*module)))
    return failure();
  module->print(os, options.printingFlags);
  os << '\n';
  return success();
}

/// Processes one input (a whole file or one chunk of it) in a fresh Context.
/// Under --verify-diagnostics, success means that the diagnostics matched
/// the expectations, whether or not the actions succeeded.
static LogicalResult processBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                   llvm::raw_ostream &os,
                                   const Options &options) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  Context ctx;
  ctx.allowUnregisteredDialects(options.allowUnregisteredDialects);
#ifdef ONYX_INCLUDE_TESTS
  // As in an mlir-opt built with its tests: the test dialect for lit tests
  // (whose unknown `test.*` ops parse as unregistered ops).
  ctx.loadDialect<test::TestDialect>();
#endif
  ctx.loadDialect<onnx::OnnxDialect>();
  ctx.loadDialect<gpu::GpuDialect>();
  if (!options.verifyDiagnostics) {
    SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
    return runActions(sourceMgr, ctx, os, options);
  }
  SourceMgrDiagnosticVerifierHandler handler(sourceMgr, &ctx);
  (void)runActions(sourceMgr, ctx, os, options);
  return handler.verify();
}

/// Splits `buffer` as mlir-opt does, so that test files behave the same with
/// both tools: at each `// ---` followed by at least two more dashes and
/// something else, anywhere in a line; the next chunk starts right after
/// the marker. A marker with too few dashes is probably a typo: warn about
/// it and keep it in the chunk. A chunk is named after the line of its
/// marker and its diagnostics count lines from there, as mlir-opt's do.
/// Outputs are joined by `// -----` lines.
static LogicalResult
splitAndProcessBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                      llvm::raw_ostream &os, const Options &options) {
  static constexpr StringRef kMarker = "// -----";
  static constexpr StringRef kMarkerStart = "// ---";
  static constexpr StringRef kMarkerEnd = "--";

  StringRef identifier = buffer->getBufferIdentifier();
  llvm::SourceMgr fileMgr;
  unsigned fileID =
      fileMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SmallVector<StringRef> pieces;
  fileMgr.getMemoryBuffer(fileID)->getBuffer().split(pieces, kMarkerStart);

  SmallVector<StringRef> chunks;
  StringRef chunk = pieces.front();
  for (StringRef piece : llvm::drop_begin(pieces)) {
    if (piece.size() > kMarkerEnd.size() && piece.starts_with(kMarkerEnd)) {
      chunks.push_back(chunk);
      chunk = piece.drop_front(kMarkerEnd.size());
      continue;
    }
    fileMgr.PrintMessage(
        llvm::errs(), llvm::SMLoc::getFromPointer(piece.data()),
        llvm::SourceMgr::DK_Warning, "near miss with file split marker");
    chunk = StringRef(chunk.data(), piece.end() - chunk.data());
  }
  chunks.push_back(chunk);

  bool hadFailure = false;
  llvm::interleave(
      chunks,
      [&](StringRef text) {
        unsigned line =
            fileMgr.getLineAndColumn(llvm::SMLoc::getFromPointer(text.data()))
                .first;
        std::string name = ("within split at " + identifier + ":" +
                            llvm::Twine(line) + " offset ")
                               .str();
        if (failed(processBuffer(
                llvm::MemoryBuffer::getMemBufferCopy(text, name), os, options)))
          hadFailure = true;
      },
      [&] { os << kMarker << '\n'; });
  return failure(hadFailure);
}

static void reportToolError(const llvm::Twine &message) {
  llvm::errs() << "onyx-opt: " << message << '\n';
}

/// The input file, or standard input for "-"; null after reporting why not.
static std::unique_ptr<llvm::MemoryBuffer> openInput(StringRef filename) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(filename);
  if (buffer)
    return std::move(*buffer);
  reportToolError("could not open input file '" + filename +
                  "': " + buffer.getError().message());
  return nullptr;
}

/// The output file, or standard output for "-"; null after reporting why
/// not. The file is removed again unless kept.
static std::unique_ptr<llvm::ToolOutputFile> openOutput(StringRef filename) {
  std::error_code ec;
  auto output = std::make_unique<llvm::ToolOutputFile>(filename, ec,
                                                       llvm::sys::fs::OF_None);
  if (!ec)
    return output;
  reportToolError("could not open output file '" + filename +
                  "': " + ec.message());
  return nullptr;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerRewritePasses();
#ifdef ONYX_INCLUDE_TESTS
  registerTestPasses();
#endif
  lowering::registerLoweringPasses();
  registerPassManagerCLOptions();
  Options options = parseCommandLine(argc, argv);
  // Bad pass flags are reported once, before any input is read, rather
  // than once per input chunk.
  {
    Context ctx;
    PassManager pm(&ctx);
    if (failed(buildPassManager(pm, options)))
      return 1;
  }
  std::unique_ptr<llvm::MemoryBuffer> input = openInput(options.inputFilename);
  if (!input)
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutput(options.outputFilename);
  if (!output)
    return 1;
  LogicalResult result =
      options.splitInputFile
          ? splitAndProcessBuffer(std::move(input), output->os(), options)
          : processBuffer(std::move(input), output->os(), options);
  if (failed(result))
    return 1;
  output->keep();
  return 0;
}

//===- ModelLoader.cpp - An ONNX model ready to run -----------------------===//

#include "dialect/onnx/io/ModelLoader.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/import/Importer.h"

#include "ir/Context.h"
#include "rewrite/PassManager.h"
#include "rewrite/Passes.h"

#include "llvm/Support/raw_ostream.h"

using namespace onyx;
using namespace onyx::onnx;

static ImportOptions getImportOptions(const ModelLoadOptions &options) {
  ImportOptions importOptions;
  importOptions.dimBindings = options.dimBindings;
  importOptions.constantInputs = options.constantInputs;
  return importOptions;
}

/// Dumps the imported `module` if asked, then canonicalizes and CSEs it.
static OwningOpRef<ModuleOp> canonicalize(OwningOpRef<ModuleOp> module,
                                          Context *ctx,
                                          const ModelLoadOptions &options) {
  if (!module)
    return nullptr;
  if (options.irDump) {
    *options.irDump << "// -----// IR Dump After ONNX import (import-onnx) "
                       "//----- //\n";
    module->print(*options.irDump);
    *options.irDump << "\n\n";
  }

  PassManager pm(ctx);
  if (options.irDump) {
    PassManager::IRPrinting printing;
    printing.afterAll = true;
    printing.os = options.irDump;
    pm.enableIRPrinting(std::move(printing));
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (failed(pm.run(*module)))
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp>
onyx::onnx::loadOnnxModel(StringRef path, Context *ctx, ArrayRef<Tensor> inputs,
                          const ModelLoadOptions &options) {
  ctx->loadDialect<OnnxDialect>();
  ImportOptions importOptions = getImportOptions(options);
  for (const Tensor &input : inputs)
    importOptions.inputShapes.emplace_back(input.getShape());
  if (options.decideControlFlow)
    importOptions.inputValues.assign(inputs.begin(), inputs.end());
  return canonicalize(importOnnxFile(path, ctx, importOptions), ctx, options);
}

OwningOpRef<ModuleOp>
onyx::onnx::loadOnnxModelBuffer(StringRef bytes, StringRef bufferName,
                                StringRef baseDir, Context *ctx,
                                ArrayRef<SmallVector<int64_t>> inputShapes,
                                const ModelLoadOptions &options) {
  ctx->loadDialect<OnnxDialect>();
  ImportOptions importOptions = getImportOptions(options);
  importOptions.inputShapes.assign(inputShapes.begin(), inputShapes.end());
  return canonicalize(
      importOnnxBuffer(bytes, bufferName, baseDir, ctx, importOptions), ctx,
      options);
}

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

/// Whether `a` and `b` are the same tensor: type, shape and bytes.
static bool isSameTensor(const Tensor &a, const Tensor &b) {
  return a.getElementType() == b.getElementType() &&
         a.getShape() == b.getShape() && a.getBytes() == b.getBytes();
}

OwningOpRef<ModuleOp>
onyx::onnx::loadOnnxModelForInputSets(StringRef path, Context *ctx,
                                      ArrayRef<SmallVector<Tensor>> inputSets,
                                      const ModelLoadOptions &options) {
  ctx->loadDialect<OnnxDialect>();
  ImportOptions importOptions = getImportOptions(options);
  importOptions.bindNamedDims = false;
  if (!inputSets.empty()) {
    for (auto [i, first] : llvm::enumerate(inputSets.front())) {
      // Sizes all sets agree on; -1 where they differ (every size, where
      // even the ranks do: the check of each set against @main names it).
      SmallVector<int64_t> shape(first.getShape());
      bool sameValue = options.decideControlFlow && first.getNumElements() == 1;
      for (const SmallVector<Tensor> &set : inputSets.drop_front()) {
        if (i >= set.size() || set[i].getRank() != first.getRank()) {
          shape.assign(first.getRank(), -1);
          sameValue = false;
          break;
        }
        for (auto [size, other] : llvm::zip(shape, set[i].getShape()))
          if (size != other)
            size = -1;
        sameValue = sameValue && isSameTensor(first, set[i]);
      }
      importOptions.inputShapes.push_back(std::move(shape));
      importOptions.inputValues.push_back(sameValue ? first : Tensor());
    }
  }
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

//===- Pipeline.cpp - The `lower` pipeline and pass registration ----------===//

#include "lowering/Passes.h"

#include "rewrite/Passes.h"

namespace onyx::lowering {

void buildLoweringPipeline(OpPassManager &pm, const LoweringOptions &options) {
  pm.addPass(createFlattenControlFlowPass());
  pm.addPass(createUnrollRecurrentPass());
  pm.addPass(createExpandQuantizationPass());
  pm.addPass(createStaticShapesPass());
  pm.addPass(createMergeProjectionsPass());
  pm.addPass(createTransposeGemvWeightsPass());
  pm.addPass(createFuseElementwisePass());
  std::unique_ptr<Pass> convert = createConvertOnnxToGpuPass();
  if (options.precision != "f32") {
    // An invalid value is reported when the pass runs.
    std::string error;
    (void)convert->setOptions("precision=" + options.precision, error);
  }
  pm.addPass(std::move(convert));
  // Each op's generator spells the host arithmetic of its sizes on its own:
  // the same products, maxima and constants recur for every dispatch. The
  // runtime evaluates and walks that host program at every new shape (every
  // decode step), so it is deduplicated before buffers are planned.
  pm.addPass(createCSEPass());
  pm.addPass(createPlanBuffersPass());
  pm.addPass(createCompileKernelsPass());
}

void registerLoweringPasses() {
  registerPass(createFlattenControlFlowPass);
  registerPass(createUnrollRecurrentPass);
  registerPass(createExpandQuantizationPass);
  registerPass(createStaticShapesPass);
  registerPass(createMergeProjectionsPass);
  registerPass(createTransposeGemvWeightsPass);
  registerPass(createFuseElementwisePass);
  registerPass(createConvertOnnxToGpuPass);
  registerPass(createPlanBuffersPass);
  registerPass(createCompileKernelsPass);
  registerPassPipeline("lower",
                       "Lower onnx to gpu: flattened control flow, unrolled "
                       "recurrent layers, expanded quantization, static "
                       "shapes, merged projections, "
                       "elementwise fusion, "
                       "kernel generation, cse of the host arithmetic, buffer "
                       "planning, shader "
                       "compilation",
                       [](OpPassManager &pm) { buildLoweringPipeline(pm); });
}

} // namespace onyx::lowering

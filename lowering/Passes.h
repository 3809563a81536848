//===- Passes.h - The onnx -> gpu lowering pipeline -------------*- C++ -*-===//
//
// `--lower` is one named pipeline of passes that each run on the module
// and can be printed around (`--print-ir-after-all`):
//
//   onnx-flatten-control-flow  If/Loop/Scan become straight-line ops
//   onnx-unroll-recurrent      RNN/GRU/LSTM become their steps' ops
//   onnx-expand-quantization   Q/DQ become f32 elementwise ops
//   onnx-static-shapes      every `?` reaches only generators that handle it
//   onnx-merge-projections  MatMuls of one A by constant weights -> one + Split
//   onnx-transpose-gemv-weights  weights of few-row products stored [n, k]
//   onnx-fuse-elementwise   elementwise trees become onnx.FusedElementwise
//   convert-onnx-to-gpu     each op becomes gpu.dispatch of generated GLSL
//   gpu-plan-buffers        static gpu.alloc -> views of one arena (first fit)
//   gpu-compile-kernels     GLSL -> SPIR-V with shaderc, cached by source
//
// The passes compile for the module's `gpu.target` (dialect/gpu/Target.h):
// onyx-run sets it to the device it runs on, onyx-opt to `--target=`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "rewrite/PassManager.h"

#include <string>

namespace onyx::lowering {

std::unique_ptr<Pass> createFlattenControlFlowPass();
std::unique_ptr<Pass> createUnrollRecurrentPass();
std::unique_ptr<Pass> createExpandQuantizationPass();
std::unique_ptr<Pass> createStaticShapesPass();
std::unique_ptr<Pass> createMergeProjectionsPass();
std::unique_ptr<Pass> createTransposeGemvWeightsPass();
std::unique_ptr<Pass> createFuseElementwisePass();
std::unique_ptr<Pass> createConvertOnnxToGpuPass();
std::unique_ptr<Pass> createPlanBuffersPass();
std::unique_ptr<Pass> createCompileKernelsPass();

/// After a pass replaced ops by ones of more static types (an unrolled loop
/// or recurrent layer, whose values have a size in each step): makes the
/// onnx ops' result types in each function of `module` as static as
/// inference gives them, and each function's result types those its return
/// gives.
void refineFunctionTypes(Operation *module);

/// What the lowering may choose besides the target.
struct LoweringOptions {
  /// The precision of products (convert-onnx-to-gpu's `precision`): "f32",
  /// or "f16" to run the MatMuls, Gemms and Convs of f32 tensors on f16
  /// operands (weights stored as f16, activations rounded as they are
  /// loaded) with f32 accumulation, everything else staying f32.
  std::string precision = "f32";
};

/// Adds the passes of `--lower` to `pm` (anchored on builtin.module).
void buildLoweringPipeline(OpPassManager &pm,
                           const LoweringOptions &options = {});

/// Registers each pass and the `lower` pipeline.
void registerLoweringPasses();

/// GLSL compilations (shaderc runs, not cache hits) in this process so far,
/// by gpu-compile-kernels.
unsigned getNumKernelsCompiled();
/// Kernels gpu-compile-kernels read from the cache directory in this
/// process so far instead of compiling them.
unsigned getNumKernelsFromDiskCache();
/// Makes gpu-compile-kernels keep compiled kernels in `directory` too, so
/// that later processes read them instead of compiling (empty: no disk
/// cache, the default).
void setKernelCacheDirectory(StringRef directory);

} // namespace onyx::lowering

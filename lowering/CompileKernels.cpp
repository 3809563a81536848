//===- CompileKernels.cpp - gpu-compile-kernels ---------------------------===//
//
// Compiles each kernel's GLSL to SPIR-V with shaderc, at compile time (the
// runtime never compiles). One compiler serves the whole process, so its
// cache (by a hash of the source) spans modules: the conformance runner and
// onyx-run with many functions compile each distinct kernel once. The
// module's target then lists exactly the optional features its kernels'
// SPIR-V uses, which is what the runtime checks a device against.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/SpirvReflection.h"
#include "dialect/gpu/Target.h"
#include "shader/ShaderCompiler.h"

#include "ir/BuiltinOps.h"

namespace onyx::lowering {

namespace {

shader::ShaderCompiler &getCompiler() {
  static shader::ShaderCompiler compiler;
  return compiler;
}

class CompileKernels : public PassWrapper<CompileKernels> {
public:
  CompileKernels()
      : PassWrapper("gpu-compile-kernels",
                    "Compile the GLSL of gpu.kernel ops to SPIR-V (shaderc)",
                    "builtin.module") {}
  void runOnOperation() override;

private:
  PassStatistic numCompiled{this, "num-compiled", "Kernels compiled"};
};

void CompileKernels::runOnOperation() {
  auto module = cast<ModuleOp>(getOperation());
  FailureOr<gpu::TargetDesc> target =
      gpu::TargetDesc::lookup(module, /*report=*/true);
  if (onyx::failed(target))
    return signalPassFailure();
  gpu::FeatureSet used;
  for (Operation &op : *module.getBody()) {
    auto kernel = dyn_cast<gpu::KernelOp>(&op);
    if (!kernel)
      continue;
    if (!kernel.hasSpirv()) {
      FailureOr<ArrayRef<uint32_t>> words =
          getCompiler().compile(kernel.getGlsl(), kernel->getLoc());
      if (onyx::failed(words))
        return signalPassFailure();
      kernel.setSpirv(*words);
      ++numCompiled;
    }
    std::string error;
    FailureOr<gpu::SpirvInfo> info =
        gpu::reflectSpirv(kernel.getSpirv(), kernel.getEntryPoint(), error);
    if (onyx::failed(info)) {
      kernel.emitOpError() << "SPIR-V " << error;
      return signalPassFailure();
    }
    for (uint32_t capability : info->capabilities) {
      gpu::CapabilityRequirement req =
          gpu::getCapabilityRequirement(capability);
      if (!req.feature)
        continue;
      if (!target->features.contains(*req.feature)) {
        kernel.emitOpError()
            << "needs device feature '" << gpu::getFeatureName(*req.feature)
            << "' (SPIR-V capability " << capability
            << "), which the target does not have";
        return signalPassFailure();
      }
      used.insert(*req.feature);
    }
  }
  gpu::TargetDesc required = *target;
  required.features = used;
  module->setAttr(gpu::TargetDesc::getAttrName(),
                  required.toAttr(module->getContext()));
}

} // namespace

unsigned getNumKernelsCompiled() {
  return getCompiler().getStatistics().compiles;
}

unsigned getNumKernelsFromDiskCache() {
  return getCompiler().getStatistics().diskHits;
}

void setKernelCacheDirectory(StringRef directory) {
  getCompiler().setCacheDirectory(directory);
}

std::unique_ptr<Pass> createCompileKernelsPass() {
  return std::make_unique<CompileKernels>();
}

} // namespace onyx::lowering

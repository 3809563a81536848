//===- ModuleValidation.cpp - Can this device run this module? ------------===//
#include "runtime/ModuleValidation.h"
#include "runtime/Device.h"

#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/HostOps.h"
#include "dialect/gpu/SpirvReflection.h"

#include "ir/Verifier.h"

namespace onyx::runtime {

FailureOr<FuncOp> findFunction(ModuleOp module, StringRef name) {
  SmallVector<FuncOp> funcs;
  for (Operation &op : *module.getBody())
    if (auto func = dyn_cast<FuncOp>(&op))
      funcs.push_back(func);
  if (name.empty() && funcs.size() == 1)
    return funcs.front();
  StringRef wanted = name.empty() ? StringRef("main") : name;
  for (FuncOp func : funcs)
    if (func.getSymName() == wanted)
      return func;
  return emitError(module.getLoc()) << "the module has no function @" << wanted;
}

/// The newest SPIR-V version, as {major, minor}, that a Vulkan version
/// consumes.
static std::array<uint32_t, 2> getMaxSpirvVersion(uint32_t apiVersion) {
  switch (VK_API_VERSION_MINOR(apiVersion)) {
  case 0:
    return {1, 0};
  case 1:
    return {1, 3};
  case 2:
    return {1, 5};
  default:
    return {1, 6};
  }
}

static LogicalResult validateKernel(gpu::KernelOp kernel,
                                    const Device &device) {
  if (!kernel.hasSpirv())
    return kernel.emitOpError()
           << "has GLSL but no SPIR-V: the runtime loads compiled kernels "
              "(onyx-opt --gpu-compile-kernels compiles them)";
  std::string error;
  FailureOr<gpu::SpirvInfo> info =
      gpu::reflectSpirv(kernel.getSpirv(), kernel.getEntryPoint(), error);
  if (failed(info))
    return kernel.emitOpError() << "SPIR-V " << error;
  std::array<uint32_t, 2> max = getMaxSpirvVersion(device.getInfo().apiVersion);
  if (info->version > max)
    return kernel.emitOpError()
           << "is SPIR-V " << info->version[0] << "." << info->version[1]
           << " but device '" << device.getInfo().name << "' reads up to "
           << max[0] << "." << max[1];
  return success();
}

/// The ops of the function body, its arguments and its results.
static LogicalResult validateFunction(FuncOp func, const Device &device,
                                      uint64_t maxMemory) {
  uint64_t budget = maxMemory ? maxMemory : device.getDeviceLocalHeapSize();
  uint64_t total = 0;
  if (func.isExternal())
    return func.emitOpError("has no body to run");
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    auto type =
        dyn_cast<RankedTensorType>(func.getFunctionType().getInputs()[i]);
    if (!type)
      return func.emitOpError()
             << "argument #" << i
             << " must be a ranked tensor to run on the device";
  }
  for (Operation &op : func.front()) {
    if (auto buffer = dyn_cast<gpu::BufferOp>(&op)) {
      uint64_t size = buffer.getType().getSize();
      if (size > device.getInfo().maxMemoryAllocationSize)
        return buffer.emitOpError()
               << "needs " << size << " bytes, more than device '"
               << device.getInfo().name << "' allocates at once ("
               << device.getInfo().maxMemoryAllocationSize << ")";
      // Checked before anything is allocated: the sum of all buffers.
      if (size > budget || total > budget - size) {
        // The tensor that weighs most in it, by its location (the onnx
        // initializer or node it holds).
        gpu::WeightOp largest;
        for (Operation &other : func.front())
          if (auto weight = dyn_cast<gpu::WeightOp>(&other);
              weight && weight.getBuffer() == buffer->getResult(0) &&
              (!largest || weight.getType().getSizeInBytes() >
                               largest.getType().getSizeInBytes()))
            largest = weight;
        InFlightDiagnostic diag =
            buffer.emitOpError()
            << "("
            << (buffer.getKind() == gpu::BufferKind::Weights ? "weights"
                                                             : "arena")
            << ") needs " << size << " bytes; with the " << total
            << " bytes of the buffers before it, that exceeds the memory "
               "budget of "
            << budget << " bytes ("
            << (maxMemory ? "--max-memory" : "the device's device-local heap")
            << ")";
        if (largest)
          diag.attachNote(largest.getLoc())
              << "the largest tensor in it: " << Type(largest.getType()) << ", "
              << largest.getType().getSizeInBytes() << " bytes";
        return diag;
      }
      total += size;
      continue;
    }
    // gpu.allocs the compiler left are placed by the runtime for each run.
    if (isa<gpu::ViewOp, gpu::WeightOp, gpu::DispatchOp, gpu::CopyOp,
            gpu::UploadOp, gpu::DownloadOp, gpu::AllocOp>(&op) ||
        gpu::isHostOp(&op))
      continue;
    if (isa<ReturnOp>(&op)) {
      for (Value result : op.getOperands())
        if (!result.getDefiningOp<gpu::DownloadOp>())
          return op.emitOpError("may only return tensors read back with "
                                "gpu.download");
      continue;
    }
    return op.emitOpError("is not supported by the Vulkan runtime");
  }
  return success();
}

LogicalResult validateModule(ModuleOp module, FuncOp func, const Device &device,
                             uint64_t maxMemory) {
  if (failed(onyx::verify(module)))
    return failure();
  for (Operation &op : *module.getBody()) {
    if (auto kernel = dyn_cast<gpu::KernelOp>(&op)) {
      if (failed(validateKernel(kernel, device)))
        return failure();
      continue;
    }
    if (!isa<FuncOp>(&op))
      return op.emitOpError("is not supported by the Vulkan runtime");
  }
  FailureOr<gpu::TargetDesc> required =
      gpu::TargetDesc::lookup(module, /*report=*/true);
  if (failed(required))
    return failure();
  SmallVector<std::string> unmet = device.getTarget().findUnmet(*required);
  if (!unmet.empty()) {
    InFlightDiagnostic diag = emitError(module.getLoc())
                              << "device '" << device.getInfo().name
                              << "' cannot run this module";
    for (const std::string &reason : unmet)
      diag.attachNote() << reason;
    return failure();
  }
  return validateFunction(func, device, maxMemory);
}

} // namespace onyx::runtime

//===- VulkanBackend.h - onnx modules run on a Vulkan device ----*- C++ -*-===//
//
// The Vulkan half of onyx-run, shared with the conformance runner: one
// Vulkan instance and device per process, onnx-dialect modules lowered for
// that device (`gpu.target` set to its description, then the `--lower`
// pipeline), and onnx Tensors moved in and out of runtime::Executable.
//
// The instance lives in a Context of its own (the backend's), so that it
// can outlive the Contexts of the modules it runs: errors about the
// machine are reported there, errors about a module at its ops.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/Target.h"
#include "dialect/onnx/Tensor.h"
#include "runtime/Executable.h"

#include "ir/Context.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace onyx::run {

struct VulkanOptions {
  /// The device to run on (an index into Instance::getDevices()); without
  /// one, Instance::selectDevice picks.
  std::optional<unsigned> deviceIndex;
  /// Enables the Khronos validation layer (so does
  /// ONYX_VULKAN_VALIDATION=1).
  bool validation = false;
  /// The Vulkan loader to open (tests point it at a missing one).
  std::string loaderLibrary = runtime::InstanceOptions().loaderLibrary;
  /// Where the device's pipeline cache persists (empty: in memory only).
  std::string pipelineCacheDirectory;
  /// runtime::DeviceOptions::waitTimeoutSeconds.
  uint64_t waitTimeoutSeconds = runtime::DeviceOptions().waitTimeoutSeconds;
  /// The kind of processor the lowering shapes kernels for, in place of the
  /// device's own: its limits and features still apply.
  std::optional<gpu::DeviceKind> kernelKind;
  /// The precision of products (lowering::LoweringOptions::precision).
  std::string precision = "f32";
};

class VulkanBackend {
public:
  /// Opens the loader, creates the instance and the device. Errors are
  /// reported through `ctx`, which must outlive the backend.
  static FailureOr<std::unique_ptr<VulkanBackend>>
  create(Context *ctx, const VulkanOptions &options);
  ~VulkanBackend();

  const runtime::Instance &getInstance() const { return *instance; }
  const runtime::Device &getDevice() const { return *device; }
  const runtime::DeviceInfo &getDeviceInfo() const { return device->getInfo(); }

  /// Lowers onnx-dialect `module` in place for this device: records the
  /// device's TargetDesc as the module's `gpu.target` and runs the lowering
  /// pipeline, printing the IR after each pass to `irDump` if set.
  LogicalResult lower(ModuleOp module, llvm::raw_ostream *irDump) const;

  /// Destroys the device before the backend goes (everything loaded on it
  /// must be gone), so that the validation messages of its destruction,
  /// such as objects never freed, can be read; nothing runs after it.
  void closeDevice() { device.reset(); }

  /// Validation messages reported so far (empty without validation).
  std::vector<std::string> getValidationMessages() const {
    return instance->getValidationMessages();
  }
  size_t getValidationMessageCount() const {
    return instance->getValidationMessageCount();
  }

private:
  VulkanBackend() = default;

  std::unique_ptr<runtime::Instance> instance;
  std::unique_ptr<runtime::Device> device;
  std::optional<gpu::DeviceKind> kernelKind;
  std::string precision;
};

/// A Vulkan device of the machine, and whether it is the one a backend
/// without a device index picks.
struct ListedDevice {
  runtime::DeviceInfo info;
  bool isDefault = false;
};
/// Every Vulkan device in the loader's order (`--device=N` is the N-th);
/// `options.deviceIndex` is ignored. Errors (no loader, no driver) are
/// reported through `ctx`.
FailureOr<std::vector<ListedDevice>> listDevices(Context *ctx,
                                                 const VulkanOptions &options);

/// Whether `module` is already in the gpu dialect: it holds gpu.kernel or
/// gpu.dispatch ops and no onnx op, so it runs without lowering.
bool isGpuModule(ModuleOp module);

/// Gives each dynamic dimension of @main's arguments the size of the
/// corresponding input (which checkInputs accepted), so that lowering sees
/// static shapes; the ops' result types are inferred again by lowering.
void refineArgumentTypes(FuncOp main, ArrayRef<onnx::Tensor> inputs);
/// The same given the inputs' shapes.
void refineArgumentTypes(FuncOp main, ArrayRef<ArrayRef<int64_t>> shapes);

/// Moves tensors between onnx's and the runtime's representations (both
/// hold row-major little-endian bytes, a bool in a byte).
runtime::HostTensor toHostTensor(const onnx::Tensor &tensor,
                                 RankedTensorType type);
FailureOr<onnx::Tensor> fromHostTensor(const runtime::HostTensor &tensor);
/// `inputs` as the arguments of `func`, whose types they fit.
std::vector<runtime::HostTensor> toHostTensors(FuncOp func,
                                               ArrayRef<onnx::Tensor> inputs);

/// Runs `executable` on `inputs` and returns its outputs as onnx Tensors.
FailureOr<SmallVector<onnx::Tensor>>
runExecutable(runtime::Executable &exe, ArrayRef<onnx::Tensor> inputs);

} // namespace onyx::run

//===- VulkanBackend.cpp - onnx modules run on a Vulkan device ------------===//

#include "tools/onyx-run/VulkanBackend.h"

#include "dialect/gpu/GpuDialect.h"
#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/Target.h"
#include "lowering/Passes.h"

#include "ir/BuiltinOps.h"
#include "rewrite/PassManager.h"

#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace onyx;
using namespace onyx::run;

/// The instance `options` ask for (validation, loader); failure after
/// reporting why not.
static FailureOr<std::unique_ptr<runtime::Instance>>
createInstance(Context *ctx, const VulkanOptions &options) {
  runtime::InstanceOptions instanceOptions;
  instanceOptions.validation = options.validation;
  instanceOptions.loaderLibrary = options.loaderLibrary;
  return runtime::Instance::create(ctx, instanceOptions);
}

FailureOr<std::unique_ptr<VulkanBackend>>
VulkanBackend::create(Context *ctx, const VulkanOptions &options) {
  std::unique_ptr<VulkanBackend> backend(new VulkanBackend());
  FailureOr<std::unique_ptr<runtime::Instance>> instance =
      createInstance(ctx, options);
  if (failed(instance))
    return failure();
  backend->instance = std::move(*instance);
  FailureOr<const runtime::DeviceInfo *> info =
      backend->instance->selectDevice(options.deviceIndex);
  if (failed(info))
    return failure();
  runtime::DeviceOptions deviceOptions;
  deviceOptions.pipelineCacheDirectory = options.pipelineCacheDirectory;
  deviceOptions.waitTimeoutSeconds = options.waitTimeoutSeconds;
  FailureOr<std::unique_ptr<runtime::Device>> device =
      runtime::Device::create(*backend->instance, **info, deviceOptions);
  if (failed(device))
    return failure();
  backend->device = std::move(*device);
  backend->kernelKind = options.kernelKind;
  backend->precision = options.precision;
  return backend;
}

// The device goes before the instance it was created from.
VulkanBackend::~VulkanBackend() { device.reset(); }

LogicalResult VulkanBackend::lower(ModuleOp module,
                                   llvm::raw_ostream *irDump) const {
  Context *ctx = module->getContext();
  // The lowering creates gpu ops in the module's Context.
  ctx->loadDialect<gpu::GpuDialect>();
  gpu::TargetDesc target = device->getTarget();
  if (kernelKind)
    target.kind = *kernelKind;
  module->setAttr(gpu::TargetDesc::getAttrName(), target.toAttr(ctx));
  PassManager pm(ctx);
  if (irDump) {
    PassManager::IRPrinting printing;
    printing.afterAll = true;
    printing.os = irDump;
    pm.enableIRPrinting(std::move(printing));
  }
  lowering::LoweringOptions lowering;
  lowering.precision = precision;
  lowering::buildLoweringPipeline(pm, lowering);
  return pm.run(module);
}

bool onyx::run::isGpuModule(ModuleOp module) {
  bool hasGpuWork = false, hasOnnx = false;
  module->walk([&](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    hasOnnx |= dialect == "onnx";
    hasGpuWork |= isa<gpu::KernelOp, gpu::DispatchOp>(op);
  });
  return hasGpuWork && !hasOnnx;
}

FailureOr<std::vector<ListedDevice>>
onyx::run::listDevices(Context *ctx, const VulkanOptions &options) {
  FailureOr<std::unique_ptr<runtime::Instance>> instance =
      createInstance(ctx, options);
  if (failed(instance))
    return failure();
  const runtime::DeviceInfo *chosen = nullptr;
  {
    // Without a usable device, selectDevice reports why; the list says it.
    ScopedDiagnosticCollector quiet(ctx);
    FailureOr<const runtime::DeviceInfo *> selected =
        (*instance)->selectDevice();
    if (succeeded(selected))
      chosen = *selected;
  }
  std::vector<ListedDevice> devices;
  for (const runtime::DeviceInfo &info : (*instance)->getDevices())
    devices.push_back({info, &info == chosen});
  return devices;
}

void onyx::run::refineArgumentTypes(FuncOp main,
                                    ArrayRef<onnx::Tensor> inputs) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (const onnx::Tensor &input : inputs)
    shapes.push_back(input.getShape());
  refineArgumentTypes(main, shapes);
}

void onyx::run::refineArgumentTypes(FuncOp main,
                                    ArrayRef<ArrayRef<int64_t>> shapes) {
  bool changed = false;
  for (auto [argument, shape] :
       llvm::zip(main.front().getArguments(), shapes)) {
    BlockArgument arg = argument;
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || type.hasStaticShape())
      continue;
    arg.setType(RankedTensorType::get(shape, type.getElementType()));
    changed = true;
  }
  if (!changed)
    return;
  FunctionType type = main.getFunctionType();
  main.setFunctionType(FunctionType::get(
      main->getContext(), llvm::to_vector(main.front().getArgumentTypes()),
      type.getResults()));
}

runtime::HostTensor onyx::run::toHostTensor(const onnx::Tensor &tensor,
                                            RankedTensorType type) {
  ArrayRef<char> bytes = tensor.getBytes();
  return {type, std::vector<char>(bytes.begin(), bytes.end())};
}

FailureOr<onnx::Tensor>
onyx::run::fromHostTensor(const runtime::HostTensor &tensor) {
  std::optional<onnx::ElementType> elementType =
      onnx::getElementType(tensor.type.getElementType());
  if (!elementType)
    return failure();
  onnx::Tensor result(*elementType, tensor.type.getShape());
  MutableArrayRef<char> bytes = result.getMutableBytes();
  if (bytes.size() != tensor.data.size())
    return failure();
  if (!bytes.empty())
    std::memcpy(bytes.data(), tensor.data.data(), bytes.size());
  return result;
}

std::vector<runtime::HostTensor>
onyx::run::toHostTensors(FuncOp func, ArrayRef<onnx::Tensor> inputs) {
  // Each tensor has its own shape: a `?` dimension of the function takes
  // the input's size.
  std::vector<runtime::HostTensor> hostInputs;
  for (const onnx::Tensor &input : inputs)
    hostInputs.push_back(
        toHostTensor(input, input.getType(func->getContext())));
  return hostInputs;
}

FailureOr<SmallVector<onnx::Tensor>>
onyx::run::runExecutable(runtime::Executable &exe,
                         ArrayRef<onnx::Tensor> inputs) {
  FailureOr<std::vector<runtime::HostTensor>> outputs =
      exe.run(toHostTensors(exe.getFunction(), inputs));
  if (failed(outputs))
    return failure();
  SmallVector<onnx::Tensor> results;
  for (auto [i, output] : llvm::enumerate(*outputs)) {
    FailureOr<onnx::Tensor> tensor = fromHostTensor(output);
    if (failed(tensor))
      return emitError(exe.getFunction().getLoc())
             << "output " << unsigned(i) << " has type " << Type(output.type)
             << ", which an onnx tensor cannot hold";
    results.push_back(std::move(*tensor));
  }
  return results;
}

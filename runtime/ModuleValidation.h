//===- ModuleValidation.h - Can this device run this module? ----*- C++ -*-===//
//
// Checks at load time, before anything is created on the device, that a
// gpu-dialect function can run on a device: the IR verifies (the dialect's
// verifiers check kernels, bindings, sizes and buffer overlap), every op is
// one the runtime executes, the function's interface is host tensors in and
// downloaded tensors out, and the device has the features, limits, SPIR-V
// version and allocation size the module needs. Every problem is a located
// diagnostic.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/BuiltinOps.h"

namespace onyx::runtime {

class Device;

/// The function of `module` named `name`; without a name, the only
/// function, or else @main. Reports at the module's location if absent.
FailureOr<FuncOp> findFunction(ModuleOp module, StringRef name);

/// `maxMemory` bounds the bytes of the function's buffers (arena and
/// weights) together; 0 for the device's device-local heap size.
LogicalResult validateModule(ModuleOp module, FuncOp func, const Device &device,
                             uint64_t maxMemory = 0);

} // namespace onyx::runtime

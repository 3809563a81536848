//===- VulkanEvaluator.h - Conformance cases on a Vulkan device -*- C++ -*-===//
//
// Lowers a case's canonicalized module for the process's one Vulkan
// device (created with the validation layer on) and runs it, turning what
// goes wrong into a case result: an op without a kernel generator makes
// the case unsupported (by op, so the summary says which generators are
// missing); a lowering, loading or running error, or any message of the
// validation layer, makes it fail.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "test/conformance/CaseRunner.h"

#include "dialect/onnx/Tensor.h"

#include "ir/BuiltinOps.h"
#include "ir/Context.h"

#include <memory>

namespace onyx::run {
class VulkanBackend;
} // namespace onyx::run

namespace onyx::conformance {

class VulkanEvaluator {
public:
  /// Sets up the device; null with a message in `error` if there is none.
  static std::unique_ptr<VulkanEvaluator> create(std::string &error);
  ~VulkanEvaluator();

  /// Lowers `module` for the device and runs its @main on `inputs`,
  /// filling `outputs`; a pass, or why the case does not pass.
  CaseResult run(ModuleOp module, ArrayRef<onnx::Tensor> inputs,
                 SmallVectorImpl<onnx::Tensor> &outputs);

private:
  VulkanEvaluator() = default;

  /// The backend's own Context: it outlives the cases' Contexts.
  Context ctx;
  std::unique_ptr<run::VulkanBackend> backend;
};

} // namespace onyx::conformance

//===- CaseRunner.h - One ONNX node test on a backend -----------*- C++ -*-===//
//
// A case is a directory with `model.onnx` and `test_data_set_*/` holding
// `input_K.pb` and `output_K.pb`. Running it imports the model with the
// data set's inputs (as onyx-run does), canonicalizes it, runs it on the
// reference backend or lowers it and runs it on a Vulkan device, and
// compares every output with ONNX's rule. The outcome says why a case did
// not pass, in words that group well in a summary ("unsupported op",
// "wrong values", ...).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "test/conformance/CaseInfo.h"

#include "dialect/onnx/io/TensorComparison.h"

#include "ir/Diagnostics.h"

#include <memory>
#include <string>

namespace onyx::conformance {

enum class Status { Pass, Fail, Unsupported };

struct CaseResult {
  Status status = Status::Fail;
  /// A short category ("unsupported op", "wrong values"); empty on a pass.
  std::string reason;
  /// The first diagnostic or mismatch, for a human.
  std::string detail;
  /// Whether the case's shape-like inputs were imported as constants
  /// because lowering needed static shapes (Vulkan only, until lowering
  /// takes symbolic dimensions). Such a pass does not count toward the
  /// target.
  bool shapeInputsAsConstants = false;
};

enum class Backend { Reference, Vulkan };

/// The reason of every case when no Vulkan device could be set up; the
/// runner stops at the first.
inline constexpr StringRef kNoVulkanDevice = "no Vulkan device";

/// The messages of `diags`, one per line with notes. Locations are left
/// out: they name the node, which the importer's messages already do, and
/// the model file, which the case name does.
std::string formatDiagnostics(ArrayRef<Diagnostic> diags);

class VulkanEvaluator;

/// Runs cases on one backend. The Vulkan device (with validation on) is
/// created for the first case and serves every later one of the process.
class CaseRunner {
public:
  CaseRunner(Backend backend, onnx::Tolerance tolerance);
  ~CaseRunner();

  /// Runs the case in `dir`, whose model `info` describes.
  CaseResult run(StringRef dir, const CaseInfo &info);

private:
  CaseResult runDataSet(StringRef modelPath, const CaseInfo &info,
                        StringRef setDir, bool shapeInputsAsConstants);

  Backend backend;
  onnx::Tolerance tolerance;
  std::unique_ptr<VulkanEvaluator> vulkan;
};

} // namespace onyx::conformance

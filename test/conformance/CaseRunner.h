//===- CaseRunner.h - One ONNX node test, reference backend -----*- C++ -*-===//
//
// A case is a directory with `model.onnx` and `test_data_set_*/` holding
// `input_K.pb` and `output_K.pb`. Running it imports the model with the
// data set's inputs (as onyx-run does), canonicalizes it, runs it on the
// reference backend and compares every output with ONNX's rule. The
// outcome says why a case did not pass, in words that group well in a
// summary ("unsupported op", "wrong values", ...).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "test/conformance/CaseInfo.h"

#include "dialect/onnx/io/TensorComparison.h"

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
  /// because an op needed their values.
  bool shapeInputsAsConstants = false;
};

/// Runs the case in `dir`, whose model `info` describes, comparing with
/// `tolerance`.
CaseResult runCase(StringRef dir, const CaseInfo &info,
                   onnx::Tolerance tolerance);

} // namespace onyx::conformance

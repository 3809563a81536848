//===- CaseInfo.h - What a test case's model declares -----------*- C++ -*-===//
//
// The op types and element types of a case's graph, read straight from the
// protobuf rather than through onyx's importer: the runner sorts cases by
// op and decides whether a case is in onyx's target even when onyx cannot
// import it, so this must not depend on the code under test.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Support.h"

#include <string>
#include <vector>

namespace onyx::conformance {

struct CaseInfo {
  /// The distinct op types of the main graph, sorted; ops outside the
  /// default domain are qualified (`com.microsoft.Gelu`).
  std::vector<std::string> ops;
  /// The distinct element types of the graph's inputs and outputs, by
  /// their ONNX names ("float", "int64", "float8e4m3fn"), sorted.
  std::vector<std::string> elemTypes;
  /// The names of the graph inputs that are not initializers, in order:
  /// the inputs that input_0.pb, input_1.pb, ... hold.
  std::vector<std::string> inputNames;
  /// Whether an onyx Tensor can hold every one of those element types.
  bool representable = true;
  /// Why the model could not be read; empty if it was.
  std::string error;
};

/// Reads `modelPath`.
CaseInfo readCaseInfo(StringRef modelPath);

} // namespace onyx::conformance

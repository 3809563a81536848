//===- TargetScope.h - The ops and types onyx must support ------*- C++ -*-===//
//
// The reference backend's target: every case whose ops and element types
// are all in these lists must pass, and any that does not is an exception
// written down with its reason (EXCEPTIONS.md). Cases outside the target
// are still run and counted, but they are allowed to fail.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Support.h"

namespace onyx::conformance {

/// Whether ONNX op type `op` ("Add") is in onyx's op list.
bool isTargetOp(StringRef op);

/// Whether ONNX element type `type` ("float", "int64") is one the
/// evaluator must support: float, double, float16, int64, int32, int8,
/// uint8 and bool.
bool isTargetElemType(StringRef type);

} // namespace onyx::conformance

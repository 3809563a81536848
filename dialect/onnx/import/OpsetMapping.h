//===- OpsetMapping.h - ONNX opset versions onto canonical ops --*- C++ -*-===//
//
// Every onnx dialect op has the semantics of its newest ONNX version. ONNX
// models import opsets from 1 on, and between versions ops changed: inputs
// that were attributes (axes, pads, split, starts/ends, clip bounds),
// Softmax's flattening, attributes that inference ignores. The mapping
// rewrites a node of an older version into the canonical form before it is
// built; it is one table in OpsetMapping.cpp, one row per op and range of
// versions.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/import/NodeImporter.h"

namespace onyx::onnx {

/// The ai.onnx opsets the importer maps: all, up to the newest that ONNX
/// 1.22 defines.
constexpr int64_t kMinOpset = 1;
constexpr int64_t kMaxOpset = 27;

/// Whether nodes of `opType` in the ai.onnx domain can be imported.
bool isSupportedOp(StringRef opType);

/// Rewrites `node` from the model's opset into the dialect's canonical form.
LogicalResult mapToCanonicalForm(NodeImporter &node);

} // namespace onyx::onnx

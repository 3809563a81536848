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

/// The domain of ONNX Runtime's contrib ops (version 1 is the only one).
constexpr const char *kMicrosoftDomain = "com.microsoft";

/// Whether `domain` is ONNX's default domain ("" or "ai.onnx").
bool isOnnxDomain(StringRef domain);

/// The dialect op that nodes of `opType` in `domain` import as: `onnx.Add`
/// for the ai.onnx domain, `onnx.com.microsoft.GroupQueryAttention` for
/// ONNX Runtime's contrib ops (the domain spelled out, so that an op name
/// says which (domain, op type) it is); empty for a domain onyx does not
/// import.
std::string getDialectOpName(StringRef domain, StringRef opType);

/// Whether nodes of `opType` in `domain` can be imported.
bool isSupportedOp(StringRef domain, StringRef opType);

/// Rewrites `node` from the model's opset into the dialect's canonical form
/// (nodes of other domains than ai.onnx are left as they are).
LogicalResult mapToCanonicalForm(NodeImporter &node);

} // namespace onyx::onnx

//===- Verifier.h - Checking that IR is well formed -------------*- C++ -*-===//
//
// Structural checks (operands defined before use in their block, dominance
// across nested regions, isolated regions not using outer values,
// terminators, symbol uniqueness, single-block regions) plus each op's own
// verify hooks. Every problem is a located diagnostic.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Support.h"

namespace onyx {

/// Verifies `op` and everything nested in it.
LogicalResult verify(Operation *op);

} // namespace onyx

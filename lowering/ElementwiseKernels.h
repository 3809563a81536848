//===- ElementwiseKernels.h - What elementwise kernels can hold -*- C++ -*-===//
#pragma once

#include "ir/Operation.h"

namespace onyx::lowering {

/// Whether the elementwise kernel generator can evaluate `op` per element:
/// a row of the elementwise table, Cast, Clip, Where, or an Expand.
bool isFusibleElementwise(Operation *op);

} // namespace onyx::lowering

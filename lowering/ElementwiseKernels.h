//===- ElementwiseKernels.h - What elementwise kernels can hold -*- C++ -*-===//
#pragma once

#include "ir/Operation.h"

namespace onyx::lowering {

/// Whether the elementwise kernel generator can evaluate `op` per element:
/// a row of the elementwise table, Cast, Clip, Where, or an Expand.
bool isFusibleElementwise(Operation *op);

/// Whether onnx-fuse-elementwise may grow a tree through `op`, an operand's
/// producer: an op isFusibleElementwise accepts, an Unsqueeze of constant
/// axes (the kernel reads its operand along the axes it keeps), or a Range
/// (element i is start + i * delta, computed where the tree reads it, so
/// that a mask built from Ranges of the run's lengths costs no kernel and
/// no memory of its own).
bool isFusibleIntoTree(Operation *op);

/// Whether the kernel of a tree of `ops` (in block order, the last one
/// producing `result`) reads every value of it at one place per output
/// element: broadcasting lines an operand's dims up with its op's result's
/// last ones, an Unsqueeze's operand skips the axes it inserts, and a value
/// that two paths reach along different axes of the result cannot be
/// computed once per element.
bool hasConsistentAxes(ArrayRef<Operation *> ops, Value result);

} // namespace onyx::lowering

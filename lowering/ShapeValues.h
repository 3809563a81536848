//===- ShapeValues.h - The host shape program of the lowering ---*- C++ -*-===//
//
// A model whose sizes are known only at run time computes shapes with ops on
// small integer tensors: Shape -> Gather -> Concat -> Reshape, the
// `past + seq` of a KV cache, Range's bounds. Such a tensor is a *shape
// value*: its elements are index values of the gpu dialect's host program
// (dialect/gpu/HostOps.h), which the runtime evaluates on the CPU before it
// records a run, not a tensor on the GPU:
//
//   %s = onnx.Shape(%x)                 %d0 = gpu.dim %arg0[0]
//   %g = onnx.Gather(%s, 0)     -->     (the element %d0 itself)
//   %m = onnx.Mul(%g, 4)                %m = gpu.muli %d0, %c4
//
// LoweringContext::getShapeValue gives the elements of one, computed on first
// request at the op that defines it (so an error of the run names that
// node), and emitting no kernel. A kernel that reads a shape value as data
// gets it materialized by a tiny kernel whose push constants are the
// elements (materializeShapeValue). The ops the host program evaluates are
// the rows of the table in ShapeValues.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lowering/KernelGenerator.h"

namespace onyx::lowering {

/// The most elements a shape value has (the rank of any tensor fits).
constexpr int64_t kMaxShapeValueElements = 16;

/// Whether `type` can hold a shape value: integer (or bool) elements, rank
/// 0 or 1, a static length of at most kMaxShapeValueElements.
bool isShapeValueType(Type type);

/// Whether the host program evaluates `op` (it is a row of the table) when
/// its results are shape values.
bool isShapeOp(Operation *op);

/// Whether the lowering evaluates `op` on the host instead of lowering it to
/// a kernel: a shape op whose results are shape values and whose operands
/// are already shape values or constants (Shape and Size read only dims).
/// Arguments enter the host program only where an op needs a shape operand
/// (getShapeValue), so that integer data a kernel reads keeps its kernel.
bool isEvaluatedOnHost(Operation *op, LoweringContext &ctx);

/// The elements of shape value `value`, the result of `op` (a shape op),
/// with host ops at the op being lowered; nullopt if the host program
/// cannot compute them (an index not known when compiling, say).
std::optional<SmallVector<Size>> evaluateShapeOp(Operation *op, Value value,
                                                 LoweringContext &ctx);

/// A new tensor of `type` holding `elements`, written by a kernel whose
/// push constants are the elements known only at run time.
Value materializeShapeValue(LoweringContext &ctx, RankedTensorType type,
                            ArrayRef<Size> elements);

} // namespace onyx::lowering

namespace onyx::lowering {

/// Axes of a tensor of rank `rank`, given as a shape value whose elements
/// may be known only at run time (a Reduce op's or Squeeze's `axes`): each
/// normalized to [0, rank), with a check of the run (a gpu.assert at the
/// op) that it is in [-rank, rank); `what` names the operand in the error.
/// nullopt after an error (an axis known now to be out of range).
std::optional<SmallVector<Size>> normalizeAxesAtRunTime(LoweringContext &ctx,
                                                        ArrayRef<Size> axes,
                                                        int64_t rank,
                                                        StringRef what);

/// For each dimension of a tensor of rank `rank`: 1 where it is one of the
/// normalized `axes`, else 0, with a check of the run that no dimension is
/// named twice. nullopt after an error.
std::optional<SmallVector<Size>>
getAxisFlags(LoweringContext &ctx, ArrayRef<Size> axes, int64_t rank);

/// The elements of `dims` whose flag (0 or 1, maybe known only at run time)
/// is 0, in order: `count` of them, each a gpu.select over the positions it
/// may come from. Where fewer than `count` are kept at run time, the last
/// ones are 0 (callers check the count).
SmallVector<Size> selectUnflagged(LoweringContext &ctx, ArrayRef<Size> dims,
                                  ArrayRef<Size> flags, int64_t count);

} // namespace onyx::lowering

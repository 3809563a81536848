//===- ReshapeViews.cpp - Reshape-like ops as views -----------------------===//
//
// Reshape, Flatten, Squeeze, Unsqueeze, Identity and Dropout (inference) only
// reinterpret row-major data: their result is a view of the operand's memory.
// Where a dim is known only at run time, the view's dims are index values of
// the host program: Reshape's shape is a shape value (ShapeValues.h) whose 0
// (copy the input's dim, unless allowzero) and -1 (inferred) are resolved
// with gpu.select where the entry itself is known only at run time, and a
// gpu.assert at the node checks that the element counts agree.
//
//===----------------------------------------------------------------------===//
#include "lowering/KernelGenerator.h"
#include "lowering/KernelSizes.h"
#include "lowering/ShapeValues.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"
#include "dialect/onnx/OpSchema.h"

#include "llvm/ADT/SmallBitVector.h"

namespace onyx::lowering {

namespace {

/// Reshape's dims from the shape value `spec` and the input's `in`.
std::optional<SmallVector<Size>> reshapeDims(LoweringContext &ctx,
                                             ArrayRef<Size> in,
                                             ArrayRef<Size> spec,
                                             bool allowZero) {
  Size total = getNumElements(ctx, in);
  SmallVector<Size> dims;
  for (auto [i, e] : llvm::enumerate(spec)) {
    if (allowZero)
      dims.push_back(e);
    else if (e.isStatic())
      dims.push_back(e.constant == 0 && i < in.size() ? in[i] : e);
    else
      dims.push_back(
          i < in.size() ? ctx.select(ctx.arith("gpu.eqi", e, 0), in[i], e) : e);
  }
  // The product of the others infers a -1.
  Size known(1);
  SmallVector<Size> isInferred;
  for (Size d : dims) {
    Size minusOne = ctx.arith("gpu.eqi", d, -1);
    isInferred.push_back(minusOne);
    known = ctx.mul(known, ctx.select(minusOne, 1, d));
  }
  if (llvm::any_of(isInferred,
                   [](Size s) { return !s.isStatic() || s.constant; })) {
    // 1 where nothing is inferred or the rest has no elements, so that the
    // division is defined; the count check below reports what is wrong.
    Size divisor = ctx.select(ctx.arith("gpu.eqi", known, 0), 1, known);
    Size inferred = ctx.arith("gpu.divi", total, divisor);
    for (auto [d, minusOne] : llvm::zip(dims, isInferred))
      d = ctx.select(minusOne, inferred, d);
  }
  return dims;
}

/// Squeeze's or Unsqueeze's dims where its axes are known only at run time:
/// the ranks are static, so each dimension of the larger side gets a flag
/// of the host program saying whether it is one of the axes (checked in
/// range and not named twice), and the dims move with gpu.selects.
std::optional<SmallVector<Size>>
getDimsForRunTimeAxes(LoweringContext &ctx, Operation *op, ArrayRef<Size> in) {
  std::optional<SmallVector<Size>> axes = ctx.getShapeValue(op->getOperand(1));
  if (!axes) {
    ctx.emitError() << "operand 'axes' must be a constant or computable on "
                       "the host (from constants, shapes and arguments) to "
                       "lower the op";
    return std::nullopt;
  }
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  bool unsqueeze = op->getName().getStringRef() == "onnx.Unsqueeze";
  int64_t rank = unsqueeze ? type.getRank() : int64_t(in.size());
  std::optional<SmallVector<Size>> normalized =
      normalizeAxesAtRunTime(ctx, *axes, rank, "axis");
  if (!normalized)
    return std::nullopt;
  std::optional<SmallVector<Size>> flags = getAxisFlags(ctx, *normalized, rank);
  if (!flags)
    return std::nullopt;
  if (!unsqueeze) {
    // The removed dims must be 1 at run time.
    for (auto [d, dim] : llvm::enumerate(in))
      if (failed(ctx.check(
              ctx.select((*flags)[d], ctx.arith("gpu.eqi", dim, 1), 1),
              "squeezes dimension {0} of size {1}, not 1", {int64_t(d), dim})))
        return std::nullopt;
    return selectUnflagged(ctx, in, *flags, type.getRank());
  }
  // Result dimension d is 1 where flagged, else the input's next dim.
  SmallVector<Size> dims;
  Size position(0);
  for (Size flag : *flags) {
    Size kept = ctx.arith("gpu.subi", 1, flag);
    Size dim(1);
    for (auto [i, inDim] : llvm::enumerate(in))
      dim =
          ctx.select(ctx.mul(kept, ctx.arith("gpu.eqi", position, int64_t(i))),
                     inDim, dim);
    dims.push_back(dim);
    position = ctx.arith("gpu.addi", position, kept);
  }
  return dims;
}

/// The result's dims of reshape-like `op`, whose input has dims `in`.
std::optional<SmallVector<Size>>
getAliasDims(LoweringContext &ctx, Operation *op, ArrayRef<Size> in) {
  StringRef name = op->getName().getStringRef();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (name == "onnx.Identity" || name == "onnx.Dropout")
    return SmallVector<Size>(in.begin(), in.end());
  if (name == "onnx.Flatten") {
    int64_t axis = onnx::OpAttrs(op).getInt("axis");
    if (axis < 0)
      axis += in.size();
    return SmallVector<Size>{getNumElements(ctx, in.take_front(axis)),
                             getNumElements(ctx, in.drop_front(axis))};
  }
  if (name == "onnx.Reshape") {
    std::optional<SmallVector<Size>> spec =
        ctx.getShapeValue(op->getOperand(1));
    if (!spec) {
      ctx.emitError() << "operand 'shape' must be computable on the host "
                         "(from constants, shapes and arguments) to lower "
                         "the op";
      return std::nullopt;
    }
    return reshapeDims(ctx, in, *spec, onnx::OpAttrs(op).getInt("allowzero"));
  }
  // Squeeze and Unsqueeze with axes known when compiling: the result type's
  // rank tells which dims remain.
  std::optional<SmallVector<int64_t>> axes;
  bool hasAxes =
      op->getNumOperands() > 1 && !onnx::isNoValue(op->getOperand(1));
  if (hasAxes)
    axes = onnx::getConstantInts(op->getOperand(1));
  if (!axes && (name == "onnx.Unsqueeze" || hasAxes))
    return getDimsForRunTimeAxes(ctx, op, in);
  if (name == "onnx.Unsqueeze") {
    int64_t rank = type.getRank();
    llvm::SmallBitVector inserted(rank);
    for (int64_t a : *axes)
      inserted.set(a < 0 ? a + rank : a);
    SmallVector<Size> dims;
    const Size *next = in.begin();
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(inserted.test(d) ? Size(1) : *next++);
    return dims;
  }
  // Squeeze: the removed dims must be 1 at run time.
  int64_t rank = in.size();
  llvm::SmallBitVector removed(rank);
  if (axes) {
    for (int64_t a : *axes)
      removed.set(a < 0 ? a + rank : a);
  } else {
    for (int64_t d = 0; d < rank; ++d)
      removed[d] = in[d].isStatic() && in[d].constant == 1;
  }
  SmallVector<Size> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (!removed.test(d)) {
      dims.push_back(in[d]);
      continue;
    }
    if (failed(ctx.check(ctx.arith("gpu.eqi", in[d], 1),
                         "squeezes dimension {0} of size {1}, not 1",
                         {d, in[d]})))
      return std::nullopt;
  }
  return dims;
}

} // namespace

LogicalResult lowerReshapeView(Operation *op, LoweringContext &ctx) {
  Value input = op->getOperand(0);
  Value view = ctx.getView(input);
  if (!view)
    return failure();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  auto inputType = cast<RankedTensorType>(input.getType());
  if (type.hasStaticShape() && inputType.hasStaticShape()) {
    ctx.setResult(op->getResult(0), ctx.reinterpret(view, type));
    return success();
  }
  SmallVector<Size> in = ctx.getDims(input);
  if (in.size() != size_t(inputType.getRank()))
    return failure();
  std::optional<SmallVector<Size>> dims = getAliasDims(ctx, op, in);
  if (!dims)
    return failure();
  if (dims->size() != size_t(type.getRank()))
    return ctx.emitError() << "has " << uint64_t(dims->size())
                           << " dimensions at run time, not the rank of "
                           << Type(type);
  // Dims the result type knows are those; the others come from the run.
  for (auto [d, dim] : llvm::enumerate(type.getShape()))
    if (!ShapedType::isDynamic(dim))
      (*dims)[d] = dim;
  // A Reshape's shape comes from the run: check it (the other ops move the
  // input's dims, which are right by construction).
  if (op->getName().getStringRef() == "onnx.Reshape") {
    for (Size d : *dims)
      if (failed(ctx.check(ctx.arith("gpu.lei", 0, d),
                           "has a negative dimension {0} at run time", {d})))
        return failure();
    Size count = getNumElements(ctx, *dims), total = getNumElements(ctx, in);
    if (failed(ctx.check(ctx.arith("gpu.eqi", count, total),
                         "reshapes {0} elements into a shape of {1} elements",
                         {total, count})))
      return failure();
  }
  ctx.setResult(op->getResult(0), ctx.reinterpret(view, type, *dims));
  return success();
}

} // namespace onyx::lowering

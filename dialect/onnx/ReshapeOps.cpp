//===- ReshapeOps.cpp - Reshape, Flatten, Squeeze, Unsqueeze, Expand ------===//
//
// The first four only reinterpret the shape of row-major data, so they are
// one kind of op ("reshape-like") to the patterns: one that changes nothing
// folds away, a chain of them collapses into one Reshape (or nothing), and
// Flatten becomes the Reshape it is, so that Reshape is the one canonical
// form. Squeeze without axes removes every dimension of size 1; Squeeze and
// Unsqueeze take their axes as an operand (opset 13 form). Expand
// broadcasts its input to a shape (both ways, as numpy broadcasting does).
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include "llvm/ADT/SmallBitVector.h"

namespace onyx::onnx {

namespace {

using ErrorFn = llvm::function_ref<InFlightDiagnostic()>;

/// Reshape's result shape for input `in` and shape operand `spec` (0 copies
/// the input's dimension unless allowzero, -1 is inferred). Entries of
/// `spec` may be unknown (a shape computed at run time): their dimensions
/// are dynamic, and so is a -1 that cannot be resolved.
FailureOr<SmallVector<int64_t>> computeReshape(ArrayRef<int64_t> in,
                                               const KnownInts &spec,
                                               bool allowZero,
                                               ErrorFn emitError) {
  SmallVector<int64_t> out;
  int64_t inferred = -1, known = 1;
  bool dynamic = llvm::any_of(in, ShapedType::isDynamic);
  bool hasZero = false;
  for (size_t i = 0; i < spec.size(); ++i) {
    if (!spec[i]) {
      out.push_back(ShapedType::kDynamic);
      dynamic = true;
      continue;
    }
    int64_t d = *spec[i];
    if (d == -1) {
      if (inferred >= 0)
        return emitError() << "has more than one -1";
      inferred = i;
      out.push_back(-1);
      continue;
    }
    if (d < -1)
      return emitError() << "has an invalid dimension " << d;
    hasZero |= d == 0;
    if (d == 0 && !allowZero) {
      if (i >= in.size())
        return emitError() << "copies dimension " << uint64_t(i)
                           << " (0) that the input of rank "
                           << uint64_t(in.size()) << " does not have";
      d = in[i];
    }
    out.push_back(d);
    if (ShapedType::isDynamic(d))
      dynamic = true;
    else if (llvm::MulOverflow(known, d, known))
      return emitError() << "asks for more elements than fit in 64 bits";
  }
  if (allowZero && inferred >= 0 && hasZero)
    return emitError() << "has both 0 and -1 with allowzero";
  if (dynamic) {
    if (inferred >= 0)
      out[inferred] = ShapedType::kDynamic;
    return out;
  }
  int64_t total = getNumElements(in);
  if (inferred >= 0) {
    if (known == 0 || total % known != 0)
      return emitError() << "cannot infer the -1 dimension: " << total
                         << " elements do not divide by " << known;
    out[inferred] = total / known;
  } else if (known != total) {
    return emitError() << "asks for " << known
                       << " elements, but the input has " << total;
  }
  return out;
}

/// The dimensions that Squeeze removes: `axes`, or every size-1 one.
FailureOr<SmallVector<int64_t>>
computeSqueeze(ArrayRef<int64_t> in, std::optional<ArrayRef<int64_t>> axes,
               ErrorFn emitError) {
  int64_t rank = in.size();
  llvm::SmallBitVector removed(rank);
  if (!axes) {
    for (int64_t d = 0; d < rank; ++d) {
      if (ShapedType::isDynamic(in[d]))
        return emitError() << "cannot squeeze without axes: dimension " << d
                           << " is dynamic";
      removed[d] = in[d] == 1;
    }
  } else {
    for (int64_t axis : *axes) {
      if (axis < -rank || axis >= rank)
        return emitError() << "axis " << axis << " is out of range for rank "
                           << rank;
      int64_t a = axis < 0 ? axis + rank : axis;
      if (in[a] != 1 && !ShapedType::isDynamic(in[a]))
        return emitError() << "cannot squeeze dimension " << a << " of size "
                           << in[a];
      removed.set(a);
    }
  }
  SmallVector<int64_t> out;
  for (int64_t d = 0; d < rank; ++d)
    if (!removed[d])
      out.push_back(in[d]);
  return out;
}

FailureOr<SmallVector<int64_t>> computeUnsqueeze(ArrayRef<int64_t> in,
                                                 ArrayRef<int64_t> axes,
                                                 ErrorFn emitError) {
  int64_t rank = in.size() + axes.size();
  llvm::SmallBitVector inserted(rank);
  for (int64_t axis : axes) {
    if (axis < -rank || axis >= rank)
      return emitError() << "axis " << axis
                         << " is out of range for the result rank " << rank;
    int64_t a = axis < 0 ? axis + rank : axis;
    if (inserted[a])
      return emitError() << "axis " << axis << " appears twice";
    inserted.set(a);
  }
  SmallVector<int64_t> out;
  for (int64_t d = 0, next = 0; d < rank; ++d)
    out.push_back(inserted[d] ? 1 : in[next++]);
  return out;
}

SmallVector<int64_t> computeFlatten(ArrayRef<int64_t> in, int64_t axis) {
  auto product = [](ArrayRef<int64_t> dims) {
    return llvm::any_of(dims, ShapedType::isDynamic) ? ShapedType::kDynamic
                                                     : getNumElements(dims);
  };
  return {product(in.take_front(axis)), product(in.drop_front(axis))};
}

/// Checks that operand `i` is a 1-D i64 tensor (a shape or axes operand).
LogicalResult checkIndexVector(InferState &s, unsigned i) {
  if (s.getRank(i) != 1 || s.getElementKind(i) != ElementType::I64)
    return s.emitOperandError(i)
           << "must be a 1-D tensor of i64, got " << s.getType(i);
  return success();
}

LogicalResult inferReshape(InferState &s) {
  if (failed(checkIndexVector(s, 1)) ||
      failed(s.getStaticLength(1, "the result's rank")))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = computeReshape(
      s.getShape(0), *s.getKnownInts(1), s.getAttrs().getInt("allowzero"),
      [&] { return s.emitOperandError(1); });
  if (failed(shape))
    return failure();
  s.addResult(*shape, s.getElementType(0));
  return success();
}

LogicalResult evalReshape(EvalState &s) {
  FailureOr<SmallVector<int64_t>> shape = computeReshape(
      s.input(0).getShape(), toKnownInts(s.input(1).toInts()),
      s.getAttrs().getInt("allowzero"), [&] { return s.emitError(); });
  if (failed(shape))
    return failure();
  s.addOutput(s.input(0).reshape(*shape));
  return success();
}

LogicalResult inferFlatten(InferState &s) {
  int64_t axis = s.getAttrs().getInt("axis");
  int64_t rank = s.getRank(0);
  // Flatten's axis may also be the rank itself (all dimensions outer).
  if (axis < -rank || axis > rank)
    return s.emitAttrError("axis")
           << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  s.addResult(computeFlatten(s.getShape(0), axis), s.getElementType(0));
  return success();
}

LogicalResult evalFlatten(EvalState &s) {
  int64_t axis = s.getAttrs().getInt("axis");
  if (axis < 0)
    axis += s.input(0).getRank();
  s.addOutput(s.input(0).reshape(computeFlatten(s.input(0).getShape(), axis)));
  return success();
}

/// The dimensions of `in` that are not 1 and not dynamic: those that no
/// Squeeze can remove.
SmallVector<int64_t> getNonUnitDims(ArrayRef<int64_t> in) {
  SmallVector<int64_t> dims;
  for (int64_t d : in)
    if (d != 1 && !ShapedType::isDynamic(d))
      dims.push_back(d);
  return dims;
}

LogicalResult inferSqueeze(InferState &s) {
  std::optional<SmallVector<int64_t>> axes;
  if (s.hasOperand(1)) {
    if (failed(checkIndexVector(s, 1)))
      return failure();
    axes = s.getConstantInts(1);
    if (!axes) {
      FailureOr<int64_t> n = s.getStaticLength(1, "the result's rank");
      if (failed(n))
        return failure();
      int64_t rank = s.getRank(0) - *n;
      if (rank < 0)
        return s.emitOperandError(1)
               << "has " << *n << " axes, more than the rank of "
               << s.getType(0);
      // Which dimensions go is known at run time; if exactly the ones that
      // cannot go are left, they are the result.
      SmallVector<int64_t> kept = getNonUnitDims(s.getShape(0));
      if (int64_t(kept.size()) > rank)
        return s.emitOperandError(1)
               << "has " << *n << " axes, but only "
               << int64_t(s.getRank(0) - kept.size()) << " dimensions of "
               << s.getType(0) << " can be squeezed";
      if (int64_t(kept.size()) != rank)
        kept.assign(rank, ShapedType::kDynamic);
      s.addResult(kept, s.getElementType(0));
      return success();
    }
  }
  FailureOr<SmallVector<int64_t>> shape = computeSqueeze(
      s.getShape(0), axes ? std::optional(ArrayRef(*axes)) : std::nullopt,
      [&] { return s.emitError(); });
  if (failed(shape))
    return failure();
  s.addResult(*shape, s.getElementType(0));
  return success();
}

LogicalResult evalSqueeze(EvalState &s) {
  std::optional<SmallVector<int64_t>> axes;
  if (s.hasInput(1))
    axes = s.input(1).toInts();
  FailureOr<SmallVector<int64_t>> shape =
      computeSqueeze(s.input(0).getShape(),
                     axes ? std::optional(ArrayRef(*axes)) : std::nullopt,
                     [&] { return s.emitError(); });
  if (failed(shape))
    return failure();
  s.addOutput(s.input(0).reshape(*shape));
  return success();
}

LogicalResult inferUnsqueeze(InferState &s) {
  if (failed(checkIndexVector(s, 1)))
    return failure();
  std::optional<SmallVector<int64_t>> axes = s.getConstantInts(1);
  if (!axes) {
    FailureOr<int64_t> n = s.getStaticLength(1, "the result's rank");
    if (failed(n))
      return failure();
    // Where the 1s go is known at run time; if every dimension is 1, all
    // of the result's are.
    ArrayRef<int64_t> in = s.getShape(0);
    bool allOnes = llvm::all_of(in, [](int64_t d) { return d == 1; });
    s.addResult(SmallVector<int64_t>(in.size() + *n,
                                     allOnes ? 1 : ShapedType::kDynamic),
                s.getElementType(0));
    return success();
  }
  FailureOr<SmallVector<int64_t>> shape = computeUnsqueeze(
      s.getShape(0), *axes, [&] { return s.emitOperandError(1); });
  if (failed(shape))
    return failure();
  s.addResult(*shape, s.getElementType(0));
  return success();
}

LogicalResult evalUnsqueeze(EvalState &s) {
  FailureOr<SmallVector<int64_t>> shape =
      computeUnsqueeze(s.input(0).getShape(), s.input(1).toInts(),
                       [&] { return s.emitError(); });
  if (failed(shape))
    return failure();
  s.addOutput(s.input(0).reshape(*shape));
  return success();
}

/// Expand's result shape for an input of shape `in` and a target shape
/// whose entries may be unknown: numpy broadcasting of the two, where a
/// dimension the target leaves unknown is the input's unless that is 1 or
/// dynamic.
FailureOr<SmallVector<int64_t>> computeExpand(ArrayRef<int64_t> in,
                                              const KnownInts &target,
                                              ErrorFn emitError) {
  size_t rank = std::max(in.size(), target.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Aligned from the end; 1 where a side has no such dimension.
    std::optional<int64_t> t = 1;
    if (i + target.size() >= rank)
      t = target[i + target.size() - rank];
    int64_t d = i + in.size() >= rank ? in[i + in.size() - rank] : 1;
    if (t && *t < 0)
      return emitError() << "has a negative dimension " << *t;
    if (!t) {
      out[i] = d == 1 || ShapedType::isDynamic(d) ? ShapedType::kDynamic : d;
    } else if (ShapedType::isDynamic(d)) {
      out[i] = *t == 1 ? ShapedType::kDynamic : *t;
    } else if (d == *t || *t == 1 || d == 1) {
      out[i] = d == 1 ? *t : d;
    } else {
      return emitError() << "dimension " << *t << " does not broadcast with "
                         << d;
    }
  }
  return out;
}

LogicalResult inferExpand(InferState &s) {
  if (failed(checkIndexVector(s, 1)) ||
      failed(s.getStaticLength(1, "the result's rank")))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = computeExpand(
      s.getShape(0), *s.getKnownInts(1), [&] { return s.emitOperandError(1); });
  if (failed(shape))
    return failure();
  s.addResult(*shape, s.getElementType(0));
  return success();
}

LogicalResult evalExpand(EvalState &s) {
  FailureOr<SmallVector<int64_t>> shape =
      computeExpand(s.input(0).getShape(), toKnownInts(s.input(1).toInts()),
                    [&] { return s.emitError() << "shape "; });
  if (failed(shape) ||
      failed(s.checkResultSize(0, *shape, s.input(0).getElementType())))
    return failure();
  s.addOutput(broadcastTo(s.input(0), *shape));
  return success();
}

//===----------------------------------------------------------------------===//
// Folds and patterns
//===----------------------------------------------------------------------===//

/// An op that changes nothing about its operand's type changes nothing.
OpFoldResult foldNoOp(Operation *op, ArrayRef<Attribute>) {
  Value input = op->getOperand(0);
  auto type = dyn_cast<RankedTensorType>(input.getType());
  if (!type || !type.hasStaticShape() || !haveSameType(input, op->getResult(0)))
    return {};
  return input;
}

bool isReshapeLike(Operation *op) {
  return isOp(op, "onnx.Reshape") || isOp(op, "onnx.Flatten") ||
         isOp(op, "onnx.Squeeze") || isOp(op, "onnx.Unsqueeze");
}

/// Replaces `op` by a Reshape of `input` to its result's shape, with a
/// constant shape operand (-1 standing for at most one dynamic dimension).
LogicalResult replaceWithReshape(Operation *op, Value input,
                                 PatternRewriter &rewriter) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || llvm::count_if(type.getShape(), ShapedType::isDynamic) > 1)
    return failure();
  auto inType = dyn_cast<RankedTensorType>(input.getType());
  if (!inType)
    return failure();
  // A -1 is only resolved to the dynamic result if the input is dynamic.
  if (!type.hasStaticShape() && inType.hasStaticShape())
    return failure();
  if (type.hasStaticShape() && !inType.hasStaticShape())
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d : type.getShape())
    shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
  // 0 would copy an input dimension: say so with allowzero.
  bool hasZero = llvm::is_contained(shape, 0);
  Context *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(op);
  Tensor shapeTensor =
      Tensor::fromInts(ElementType::I64, {int64_t(shape.size())}, shape);
  Value shapeValue =
      createConstant(rewriter, op->getLoc(), shapeTensor.toAttr(ctx));
  SmallVector<NamedAttribute, 1> attrs;
  if (hasZero)
    attrs.push_back({StringAttr::get(ctx, "allowzero"), getIntAttr(ctx, 1)});
  if (succeeded(replaceWithNewOp(rewriter, op, "onnx.Reshape",
                                 {input, shapeValue}, attrs)))
    return success();
  rewriter.eraseOp(shapeValue.getDefiningOp());
  return failure();
}

/// reshape-like(reshape-like(x)) -> x or Reshape(x).
LogicalResult collapseReshapes(Operation *op, PatternRewriter &rewriter) {
  Operation *producer = op->getOperand(0).getDefiningOp();
  if (!producer || !isReshapeLike(producer))
    return failure();
  Value input = producer->getOperand(0);
  if (haveSameType(input, op->getResult(0)) &&
      cast<ShapedType>(input.getType()).hasStaticShape()) {
    rewriter.replaceOp(op, input);
    return success();
  }
  return replaceWithReshape(op, input, rewriter);
}

LogicalResult flattenToReshape(Operation *op, PatternRewriter &rewriter) {
  return replaceWithReshape(op, op->getOperand(0), rewriter);
}

void addReshapePatterns(PatternSet &patterns, Context *) {
  addPattern(patterns, "onnx.Reshape", collapseReshapes, "collapse-reshapes");
}
void addFlattenPatterns(PatternSet &patterns, Context *) {
  addPattern(patterns, "onnx.Flatten", collapseReshapes, "collapse-reshapes",
             2);
  addPattern(patterns, "onnx.Flatten", flattenToReshape, "flatten-to-reshape");
}
void addSqueezePatterns(PatternSet &patterns, Context *) {
  addPattern(patterns, "onnx.Squeeze", collapseReshapes, "collapse-reshapes");
}
void addUnsqueezePatterns(PatternSet &patterns, Context *) {
  addPattern(patterns, "onnx.Unsqueeze", collapseReshapes, "collapse-reshapes");
}

const ValueSpec reshapeOperands[] = {{"data"}, {"shape"}};
const ValueSpec reshapeResults[] = {{"reshaped"}};
const AttrSpec reshapeAttrs[] = {intAttr("allowzero", 0)};
const ValueSpec flattenOperands[] = {{"input"}};
const ValueSpec flattenResults[] = {{"output"}};
const AttrSpec flattenAttrs[] = {intAttr("axis", 1)};
const ValueSpec squeezeOperands[] = {{"data"}, {"axes", Presence::Optional}};
const ValueSpec squeezeResults[] = {{"squeezed"}};
const ValueSpec unsqueezeOperands[] = {{"data"}, {"axes"}};
const ValueSpec unsqueezeResults[] = {{"expanded"}};
const ValueSpec expandOperands[] = {{"input"}, {"shape"}};
const ValueSpec expandResults[] = {{"output"}};

/// A reshape-like op keeps its input's values in order.
std::optional<KnownInts> knownIntsOfInput(Operation *op, unsigned depth) {
  return getKnownInts(op->getOperand(0), depth);
}

const OpDef reshapeDefs[] = {
    {.schema = {"onnx.Reshape", reshapeOperands, reshapeResults, reshapeAttrs,
                OpTrait::Pure},
     .infer = inferReshape,
     .evaluate = evalReshape,
     .fold = foldNoOp,
     .canonicalize = addReshapePatterns,
     .knownInts = knownIntsOfInput},
    {.schema = {"onnx.Flatten", flattenOperands, flattenResults, flattenAttrs,
                OpTrait::Pure},
     .infer = inferFlatten,
     .evaluate = evalFlatten,
     .fold = foldNoOp,
     .canonicalize = addFlattenPatterns,
     .knownInts = knownIntsOfInput},
    {.schema =
         {"onnx.Squeeze", squeezeOperands, squeezeResults, {}, OpTrait::Pure},
     .infer = inferSqueeze,
     .evaluate = evalSqueeze,
     .fold = foldNoOp,
     .canonicalize = addSqueezePatterns,
     .knownInts = knownIntsOfInput},
    {.schema = {"onnx.Unsqueeze",
                unsqueezeOperands,
                unsqueezeResults,
                {},
                OpTrait::Pure},
     .infer = inferUnsqueeze,
     .evaluate = evalUnsqueeze,
     .fold = foldNoOp,
     .canonicalize = addUnsqueezePatterns,
     .knownInts = knownIntsOfInput},
    {.schema =
         {"onnx.Expand", expandOperands, expandResults, {}, OpTrait::Pure},
     .infer = inferExpand,
     .evaluate = evalExpand,
     .fold = foldNoOp},
};

} // namespace

void appendReshapeOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : reshapeDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

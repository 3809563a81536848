//===- Slice.cpp - onnx.Slice ---------------------------------------------===//
//
// Takes a strided range of each listed axis (opset 10 form: starts, ends,
// axes and steps are operands). Out-of-range starts and ends are clamped as
// the spec says, so that e.g. ends = INT64_MAX means "to the end", and a
// negative step walks backwards. A Slice that keeps everything in order
// folds to its input.
//
// A Slice of a constant by sizes known only at run time (the causal mask a
// model cuts to the sequence length) cannot fold; an elementwise op applied
// to what it cuts is moved before it, onto the constant, where it folds:
// Not(Equal(Slice(mask, 0, seq), 0)) becomes Slice(mask', 0, seq) with
// mask' a constant, as the whole chain folds when seq is known.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Elementwise.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"
#include "dialect/onnx/SlicePad.h"

#include "ir/Operation.h"

namespace onyx::onnx {

std::pair<int64_t, int64_t> sliceAxis(int64_t dim, int64_t start, int64_t end,
                                      int64_t step) {
  if (start < 0)
    start = start < -dim ? 0 : start + dim;
  if (end < 0)
    end = end < -dim ? -1 : end + dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    return {start, end > start ? 1 + (end - start - 1) / step : 0};
  }
  if (dim == 0)
    return {0, 0};
  start = std::clamp<int64_t>(start, 0, dim - 1);
  end = std::clamp<int64_t>(end, -1, dim - 1);
  uint64_t magnitude = uint64_t(0) - uint64_t(step);
  return {start,
          start > end ? int64_t(1 + uint64_t(start - end - 1) / magnitude) : 0};
}

namespace {

const ValueSpec sliceOperands[] = {{"data"},
                                   {"starts"},
                                   {"ends"},
                                   {"axes", Presence::Optional},
                                   {"steps", Presence::Optional}};
const ValueSpec sliceResults[] = {{"output"}};

/// Per dimension of the data: first index, step and element count.
struct SliceParams {
  SmallVector<int64_t> start, step, count;
};

FailureOr<SliceParams>
computeSlice(ArrayRef<int64_t> shape, ArrayRef<int64_t> starts,
             ArrayRef<int64_t> ends, std::optional<ArrayRef<int64_t>> axes,
             std::optional<ArrayRef<int64_t>> steps,
             llvm::function_ref<InFlightDiagnostic()> emitError) {
  int64_t rank = shape.size();
  size_t n = starts.size();
  if (ends.size() != n || (axes && axes->size() != n) ||
      (steps && steps->size() != n))
    return emitError() << "starts, ends, axes and steps must have the same "
                          "length";
  SliceParams p;
  p.start.assign(rank, 0);
  p.step.assign(rank, 1);
  p.count.assign(shape.begin(), shape.end());
  SmallVector<bool> seen(rank, false);
  for (size_t i = 0; i < n; ++i) {
    int64_t axis = axes ? (*axes)[i] : int64_t(i);
    if (axis < -rank || axis >= rank)
      return emitError() << "axis " << axis << " is out of range for rank "
                         << rank;
    if (axis < 0)
      axis += rank;
    if (seen[axis])
      return emitError() << "axis " << axis << " appears twice";
    seen[axis] = true;
    int64_t step = steps ? (*steps)[i] : 1;
    if (step == 0)
      return emitError() << "step must not be 0";
    p.step[axis] = step;
    int64_t dim = shape[axis];
    if (ShapedType::isDynamic(dim)) {
      p.count[axis] = ShapedType::kDynamic;
      continue;
    }
    std::tie(p.start[axis], p.count[axis]) =
        sliceAxis(dim, starts[i], ends[i], step);
  }
  return p;
}

/// Slice's result when some of starts, ends, axes and steps are known only
/// at run time: the rank is the data's; a dimension no axis names keeps its
/// size; a sliced one is known where its start, end and step are.
LogicalResult inferPartialSlice(InferState &s) {
  SmallVector<int64_t> shape(s.getShape(0));
  int64_t rank = shape.size();
  std::optional<KnownInts> known[5];
  std::optional<int64_t> length;
  for (unsigned i = 1; i < s.getNumOperands() && i < 5; ++i) {
    if (!s.hasOperand(i))
      continue;
    known[i] = s.getKnownInts(i);
    if (!known[i])
      continue;
    if (length && *length != int64_t(known[i]->size()))
      return s.emitError()
             << "starts, ends, axes and steps must have the same length";
    length = known[i]->size();
  }
  std::optional<SmallVector<int64_t>> axes;
  if (known[3])
    axes = getAllKnown(*known[3]);
  else if (!s.hasOperand(3) && length) {
    axes.emplace();
    for (int64_t i = 0; i < *length; ++i)
      axes->push_back(i);
  }
  if (!axes || !known[1] || !known[2] || (s.hasOperand(4) && !known[4])) {
    // Which dimensions are sliced is known at run time.
    s.addResult(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                s.getElementType(0));
    return success();
  }
  for (auto [i, axis] : llvm::enumerate(*axes)) {
    if (failed(s.normalizeAxis(axis, rank, "axis")))
      return failure();
    std::optional<int64_t> start = (*known[1])[i], end = (*known[2])[i];
    std::optional<int64_t> step = known[4] ? (*known[4])[i] : 1;
    if (step && *step == 0)
      return s.emitError() << "step must not be 0";
    int64_t dim = shape[axis];
    if (!start || !end || !step || ShapedType::isDynamic(dim)) {
      shape[axis] = ShapedType::kDynamic;
      continue;
    }
    // One axis whose parameters are all known: the full computation.
    SmallVector<int64_t> one = {dim};
    FailureOr<SliceParams> p =
        computeSlice(one, {*start}, {*end}, std::nullopt,
                     ArrayRef<int64_t>{*step}, [&] { return s.emitError(); });
    if (failed(p))
      return failure();
    shape[axis] = p->count[0];
  }
  s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult inferSlice(InferState &s) {
  SmallVector<std::optional<SmallVector<int64_t>>, 4> values(5);
  bool allKnown = true;
  for (unsigned i = 1; i < s.getNumOperands(); ++i) {
    if (!s.hasOperand(i))
      continue;
    ElementType t = s.getElementKind(i);
    if (s.getRank(i) != 1 || (t != ElementType::I64 && t != ElementType::I32))
      return s.emitOperandError(i)
             << "must be a 1-D tensor of i32 or i64, got " << s.getType(i);
    values[i] = s.getConstantInts(i);
    allKnown &= values[i].has_value();
  }
  if (!allKnown)
    return inferPartialSlice(s);
  auto optional = [&](unsigned i) -> std::optional<ArrayRef<int64_t>> {
    if (!values[i])
      return std::nullopt;
    return ArrayRef<int64_t>(*values[i]);
  };
  FailureOr<SliceParams> p =
      computeSlice(s.getShape(0), *values[1], *values[2], optional(3),
                   optional(4), [&] { return s.emitError(); });
  if (failed(p))
    return failure();
  s.addResult(p->count, s.getElementType(0));
  return success();
}

LogicalResult evalSlice(EvalState &s) {
  const Tensor &data = s.input(0);
  SmallVector<int64_t> axes, steps;
  if (s.hasInput(3))
    axes = s.input(3).toInts();
  if (s.hasInput(4))
    steps = s.input(4).toInts();
  FailureOr<SliceParams> p = computeSlice(
      data.getShape(), s.input(1).toInts(), s.input(2).toInts(),
      s.hasInput(3) ? std::optional(ArrayRef(axes)) : std::nullopt,
      s.hasInput(4) ? std::optional(ArrayRef(steps)) : std::nullopt,
      [&] { return s.emitError(); });
  if (failed(p))
    return failure();
  Tensor out(data.getElementType(), p->count);
  size_t size = getByteSize(data.getElementType());
  SmallVector<int64_t> strides = getStrides(data.getShape());
  int64_t rank = data.getRank();
  int64_t base = 0;
  for (int64_t d = 0; d < rank; ++d)
    base += p->start[d] * strides[d];
  const char *src = data.getBytes().data();
  char *dst = out.getMutableBytes().data();
  SmallVector<int64_t> index(rank, 0);
  int64_t offset = base;
  for (int64_t i = 0, e = out.getNumElements(); i < e; ++i) {
    std::memcpy(dst + i * size, src + offset * size, size);
    // Steps only to elements that exist: a step past the end (INT64_MAX,
    // with one element along the axis) times the stride would overflow.
    for (int64_t d = rank; d-- > 0;) {
      if (++index[d] < p->count[d]) {
        offset += p->step[d] * strides[d];
        break;
      }
      offset -= (p->count[d] - 1) * p->step[d] * strides[d];
      index[d] = 0;
    }
  }
  s.addOutput(std::move(out));
  return success();
}

/// A Slice with unit steps that keeps the whole static shape is the identity.
OpFoldResult foldSlice(Operation *op, ArrayRef<Attribute>) {
  Value data = op->getOperand(0);
  auto type = dyn_cast<RankedTensorType>(data.getType());
  if (!type || !type.hasStaticShape() || !haveSameType(data, op->getResult(0)))
    return {};
  if (op->getNumOperands() > 4 && !isNoValue(op->getOperand(4))) {
    std::optional<SmallVector<int64_t>> steps =
        getConstantInts(op->getOperand(4));
    if (!steps || llvm::any_of(*steps, [](int64_t s) { return s != 1; }))
      return {};
  }
  return data;
}

/// A constant Slice of a partially known vector (Shape(x)[1:]) picks what
/// is known of the entries it keeps.
std::optional<KnownInts> knownIntsOfSlice(Operation *op, unsigned depth) {
  std::optional<KnownInts> data = getKnownInts(op->getOperand(0), depth);
  if (!data || cast<ShapedType>(op->getOperand(0).getType()).getRank() != 1)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> params[5];
  for (unsigned i = 1; i < op->getNumOperands(); ++i) {
    if (isNoValue(op->getOperand(i)))
      continue;
    params[i] = getConstantInts(op->getOperand(i));
    if (!params[i])
      return std::nullopt;
  }
  auto optional = [&](unsigned i) -> std::optional<ArrayRef<int64_t>> {
    if (!params[i])
      return std::nullopt;
    return ArrayRef<int64_t>(*params[i]);
  };
  ScopedDiagnosticCollector silence(op->getContext());
  SmallVector<int64_t> shape = {int64_t(data->size())};
  FailureOr<SliceParams> p =
      computeSlice(shape, *params[1], *params[2], optional(3), optional(4),
                   [&] { return op->emitOpError(); });
  if (failed(p))
    return std::nullopt;
  KnownInts result;
  for (int64_t i = 0; i < p->count[0]; ++i)
    result.push_back((*data)[p->start[0] + i * p->step[0]]);
  return result;
}

/// Whether `value` is a constant, or a Slice (of one reader) of such a
/// value: a chain at whose end an elementwise op folds.
bool isSliceOfConstant(Value value, unsigned depth = 0) {
  if (getConstantValue(value))
    return true;
  Operation *slice = getDefiningOp(value, "onnx.Slice");
  return slice && depth < 8 && value.hasOneUse() &&
         isSliceOfConstant(slice->getOperand(0), depth + 1);
}

/// Constants of this many elements or fewer may be copied (the folded
/// result beside the original, which other ops still read).
constexpr int64_t kMaxCopiedConstant = int64_t(1) << 20;

/// E(Slice(x, ...), k...) -> Slice(E(x, k...), ...) for an elementwise op
/// (or Cast) E that reads the Slice alone, whose other operands are
/// constants of one element that broadcast to no larger a rank, and where
/// `x` is a constant or a chain of Slices of one (isSliceOfConstant): E
/// moves down the chain one Slice at a time and folds on the constant.
/// Each element of the result is E of the same element of `x`, so the
/// result is the same for every value of the Slice's operands.
LogicalResult moveElementwiseBeforeSlice(Operation *slice,
                                         PatternRewriter &rewriter) {
  Value sliced = slice->getResult(0);
  if (!sliced.hasOneUse())
    return failure();
  Operation *user = sliced.getUses().begin()->getOwner();
  StringRef name = user->getName().getStringRef();
  if ((name != "onnx.Cast" && !lookupElementwiseInfo(name)) ||
      user->getNumResults() != 1 || user->getNumRegions() != 0)
    return failure();
  Value data = slice->getOperand(0);
  auto dataType = dyn_cast<RankedTensorType>(data.getType());
  auto resultType = dyn_cast<RankedTensorType>(user->getResult(0).getType());
  if (!dataType || !resultType || !isSliceOfConstant(data))
    return failure();
  if (DenseElementsAttr constant = getConstantValue(data))
    if (!data.hasOneUse() && constant.getNumElements() > kMaxCopiedConstant)
      return failure();
  SmallVector<Value> operands;
  for (Value operand : user->getOperands()) {
    if (operand == sliced) {
      operands.push_back(data);
      continue;
    }
    DenseElementsAttr k = getConstantValue(operand);
    auto kType = dyn_cast<RankedTensorType>(operand.getType());
    if (!k || !kType || k.getNumElements() != 1 ||
        kType.getRank() > dataType.getRank())
      return failure();
    operands.push_back(operand);
  }
  // The result has the Slice's shape (the constants broadcast to any) and
  // the op's element type; before the Slice, the data's shape.
  auto moved =
      RankedTensorType::get(dataType.getShape(), resultType.getElementType());
  if (sliced.getType() !=
      RankedTensorType::get(resultType.getShape(), dataType.getElementType()))
    return failure();
  rewriter.setInsertionPoint(user);
  OperationState elementwise(user->getLoc(), name);
  elementwise.addOperands(operands);
  elementwise.addTypes(moved);
  for (const NamedAttribute &attr : user->getAttrs())
    elementwise.addAttribute(attr.name, attr.value);
  Operation *applied = rewriter.create(elementwise);
  OperationState cut(slice->getLoc(), "onnx.Slice");
  cut.addOperands(applied->getResult(0));
  cut.addOperands(slice->getOperands().drop_front());
  cut.addTypes(resultType);
  rewriter.replaceOp(user, rewriter.create(cut)->getResults());
  return success();
}

void addSlicePatterns(PatternSet &patterns, Context *) {
  addPattern(patterns, "onnx.Slice", moveElementwiseBeforeSlice,
             "elementwise-before-slice-of-constant");
}

const OpDef sliceDef = {
    .schema = {"onnx.Slice", sliceOperands, sliceResults, {}, OpTrait::Pure},
    .infer = inferSlice,
    .evaluate = evalSlice,
    .fold = foldSlice,
    .canonicalize = addSlicePatterns,
    .knownInts = knownIntsOfSlice,
};

} // namespace

void appendSliceOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&sliceDef);
}

} // namespace onyx::onnx

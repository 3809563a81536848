//===- ConcatSplit.cpp - onnx.Concat and onnx.Split -----------------------===//
//
// Concat joins tensors along `axis`; Split cuts one into parts along `axis`,
// of the sizes in its `split` operand, or into `num_outputs` parts of
// ceil(size / num_outputs) elements (the last one smaller) as opset 18
// defines it. The importer gives Split without either a `num_outputs`
// equal to its node's output count.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include "llvm/Support/MathExtras.h"

namespace onyx::onnx {

namespace {

//===----------------------------------------------------------------------===//
// Concat
//===----------------------------------------------------------------------===//

const ValueSpec concatOperands[] = {{"inputs", Presence::Variadic}};
const ValueSpec concatResults[] = {{"concat_result"}};
const AttrSpec concatAttrs[] = {requiredAttr("axis", AttrType::Int)};

LogicalResult inferConcat(InferState &s) {
  if (s.getNumOperands() == 0)
    return s.emitError() << "needs at least one operand";
  int64_t rank = s.getRank(0);
  int64_t axis = s.getAttrs().getInt("axis");
  if (failed(s.normalizeAxis(axis, rank, "axis")))
    return failure();
  SmallVector<int64_t> shape(s.getShape(0));
  for (unsigned i = 1; i < s.getNumOperands(); ++i) {
    if (failed(s.checkSameElementType(0, i)) || failed(s.checkRank(i, rank)))
      return failure();
    ArrayRef<int64_t> other = s.getShape(i);
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis) {
        shape[d] =
            ShapedType::isDynamic(shape[d]) || ShapedType::isDynamic(other[d])
                ? ShapedType::kDynamic
                : shape[d] + other[d];
        continue;
      }
      if (ShapedType::isDynamic(shape[d]))
        shape[d] = other[d];
      else if (!ShapedType::isDynamic(other[d]) && other[d] != shape[d])
        return s.emitOperandError(i)
               << "#" << i << " of type " << s.getType(i) << " differs from "
               << s.getType(0) << " in dimension " << d
               << ", which is not the concatenation axis";
    }
  }
  s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult evalConcat(EvalState &s) {
  ArrayRef<Tensor> inputs = s.getInputs();
  int64_t rank = inputs[0].getRank();
  int64_t axis = s.getAttrs().getInt("axis");
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> shape(inputs[0].getShape());
  shape[axis] = 0;
  for (const Tensor &t : inputs)
    shape[axis] += t.getShape()[axis];
  Tensor out(inputs[0].getElementType(), shape);
  size_t size = getByteSize(out.getElementType());
  int64_t outer = getNumElements(ArrayRef(shape).take_front(axis));
  char *dst = out.getMutableBytes().data();
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor &t : inputs) {
      int64_t chunk = getNumElements(t.getShape().drop_front(axis)) * size;
      std::memcpy(dst, t.getBytes().data() + o * chunk, chunk);
      dst += chunk;
    }
  }
  s.addOutput(std::move(out));
  return success();
}

/// Concat of one tensor is that tensor.
OpFoldResult foldConcat(Operation *op, ArrayRef<Attribute>) {
  if (op->getNumOperands() != 1 ||
      !haveSameType(op->getOperand(0), op->getResult(0)))
    return {};
  return op->getOperand(0);
}

//===----------------------------------------------------------------------===//
// Split
//===----------------------------------------------------------------------===//

const ValueSpec splitOperands[] = {{"input"}, {"split", Presence::Optional}};
const ValueSpec splitResults[] = {{"outputs", Presence::Variadic}};
const AttrSpec splitAttrs[] = {intAttr("axis", 0),
                               optionalAttr("num_outputs", AttrType::Int)};

/// Sizes of `count` parts of `size` elements as num_outputs cuts them.
SmallVector<int64_t> getEvenSplit(int64_t size, int64_t count) {
  int64_t chunk = (size + count - 1) / count;
  SmallVector<int64_t> sizes;
  for (int64_t i = 0, left = size; i < count; ++i) {
    sizes.push_back(std::min(chunk, left));
    left -= sizes.back();
  }
  return sizes;
}

LogicalResult inferSplit(InferState &s) {
  int64_t axis = s.getAttrs().getInt("axis");
  if (failed(s.normalizeAxis(axis, s.getRank(0), "axis")))
    return failure();
  int64_t dim = s.getShape(0)[axis];
  std::optional<SmallVector<int64_t>> sizes;
  int64_t count = s.getResultCountHint();
  if (s.hasOperand(1)) {
    if (s.getRank(1) != 1 || s.getElementKind(1) != ElementType::I64)
      return s.emitOperandError(1)
             << "must be a 1-D tensor of i64, got " << s.getType(1);
    // One size per result, and a Split has at least one.
    if (s.getShape(1)[0] == 0)
      return s.emitOperandError(1)
             << "must have at least one element (one size per result), got "
             << s.getType(1);
    sizes = s.getConstantInts(1);
    if (!sizes) {
      if (!ShapedType::isDynamic(s.getShape(1)[0]))
        count = s.getShape(1)[0];
      else if (!count)
        return s.emitOperandError(1)
               << "must have a static length, which gives the number of "
                  "results, got "
               << s.getType(1);
      // The sizes known now are those parts' sizes.
      if (std::optional<KnownInts> known = s.getKnownInts(1)) {
        SmallVector<int64_t> shape(s.getShape(0));
        for (std::optional<int64_t> n : *known) {
          if (n && *n < 0)
            return s.emitOperandError(1) << "has a negative size " << *n;
          shape[axis] = n ? *n : ShapedType::kDynamic;
          s.addResult(shape, s.getElementType(0));
        }
        return success();
      }
    }
  } else if (s.getAttrs().has("num_outputs")) {
    count = s.getAttrs().getInt("num_outputs");
    if (count < 1)
      return s.emitAttrError("num_outputs") << "must be positive";
    if (!ShapedType::isDynamic(dim)) {
      if (count > dim)
        return s.emitAttrError("num_outputs")
               << count << " is more than the " << dim << " elements to split";
      sizes = getEvenSplit(dim, count);
    }
  } else {
    return s.emitError()
           << "needs a 'split' operand or a 'num_outputs' attribute";
  }
  SmallVector<int64_t> shape(s.getShape(0));
  if (sizes) {
    int64_t total = 0;
    for (int64_t n : *sizes) {
      if (n < 0)
        return s.emitOperandError(1) << "has a negative size " << n;
      if (llvm::AddOverflow(total, n, total))
        return s.emitOperandError(1) << "has sizes whose sum overflows 64 bits";
    }
    if (!ShapedType::isDynamic(dim) && total != dim)
      return s.emitOperandError(1)
             << "sizes add up to " << total << ", but the axis has " << dim
             << " elements";
    for (int64_t n : *sizes) {
      shape[axis] = n;
      s.addResult(shape, s.getElementType(0));
    }
    return success();
  }
  // Sizes unknown (verifying an op whose split is not constant, or a
  // dynamic axis): the parts have dynamic sizes.
  shape[axis] = ShapedType::kDynamic;
  for (int64_t i = 0; i < count; ++i)
    s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult evalSplit(EvalState &s) {
  const Tensor &in = s.input(0);
  int64_t rank = in.getRank();
  int64_t axis = s.getAttrs().getInt("axis");
  if (axis < 0)
    axis += rank;
  int64_t dim = in.getShape()[axis];
  int64_t count = s.getAttrs().has("num_outputs")
                      ? s.getAttrs().getInt("num_outputs")
                      : s.getOp()->getNumResults();
  SmallVector<int64_t> sizes =
      s.hasInput(1) ? s.input(1).toInts() : getEvenSplit(dim, count);
  // Sizes given at run time: one per result, none negative, and a sum
  // that does not overflow (huge sizes that wrap around to the dim would
  // copy far beyond the input).
  unsigned numResults = s.getOp()->getNumResults();
  if (sizes.size() != numResults)
    return s.emitError() << "split sizes number " << uint64_t(sizes.size())
                         << ", but the op has " << numResults << " results";
  int64_t total = 0;
  for (int64_t n : sizes)
    if (n < 0 || llvm::AddOverflow(total, n, total))
      return s.emitError() << "split sizes do not add up to " << dim;
  if (total != dim)
    return s.emitError() << "split sizes do not add up to " << dim;
  size_t size = getByteSize(in.getElementType());
  int64_t outer = getNumElements(in.getShape().take_front(axis));
  int64_t inner = getNumElements(in.getShape().drop_front(axis + 1)) * size;
  int64_t offset = 0;
  for (int64_t n : sizes) {
    SmallVector<int64_t> shape(in.getShape());
    shape[axis] = n;
    Tensor out(in.getElementType(), shape);
    char *dst = out.getMutableBytes().data();
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(dst + o * n * inner,
                  in.getBytes().data() + (o * dim + offset) * inner, n * inner);
    offset += n;
    s.addOutput(std::move(out));
  }
  return success();
}

/// A Concat of vectors (a shape built from parts) is known where its parts
/// are.
std::optional<KnownInts> knownIntsOfConcat(Operation *op, unsigned depth) {
  KnownInts result;
  for (Value operand : op->getOperands()) {
    std::optional<KnownInts> part = getKnownInts(operand, depth);
    if (!part || cast<ShapedType>(operand.getType()).getRank() != 1)
      return std::nullopt;
    result.append(part->begin(), part->end());
  }
  return result;
}

const OpDef concatSplitDefs[] = {
    {.schema = {"onnx.Concat", concatOperands, concatResults, concatAttrs,
                OpTrait::Pure},
     .infer = inferConcat,
     .evaluate = evalConcat,
     .fold = foldConcat,
     .knownInts = knownIntsOfConcat},
    {{"onnx.Split", splitOperands, splitResults, splitAttrs, OpTrait::Pure},
     inferSplit,
     evalSplit},
};

} // namespace

void appendConcatSplitOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : concatSplitDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

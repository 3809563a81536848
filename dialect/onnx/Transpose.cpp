//===- Transpose.cpp - onnx.Transpose -------------------------------------===//
//
// Permutes dimensions: output dimension i is input dimension perm[i];
// without `perm` the dimensions are reversed. An identity permutation folds
// away and two Transposes in a row become one (or none).
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include "llvm/ADT/SmallBitVector.h"

#include <numeric>

namespace onyx::onnx {

namespace {

const ValueSpec transposeOperands[] = {{"data"}};
const ValueSpec transposeResults[] = {{"transposed"}};
const AttrSpec transposeAttrs[] = {optionalAttr("perm", AttrType::Ints)};

SmallVector<int64_t> getPermutation(const OpAttrs &attrs, int64_t rank) {
  if (std::optional<SmallVector<int64_t>> perm = attrs.getInts("perm"))
    return *perm;
  SmallVector<int64_t> reversed(rank);
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  return reversed;
}

bool isIdentity(ArrayRef<int64_t> perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != int64_t(i))
      return false;
  return true;
}

LogicalResult inferTranspose(InferState &s) {
  int64_t rank = s.getRank(0);
  SmallVector<int64_t> perm = getPermutation(s.getAttrs(), rank);
  llvm::SmallBitVector seen(rank);
  bool valid = int64_t(perm.size()) == rank;
  for (int64_t p : perm) {
    valid = valid && p >= 0 && p < rank && !seen[p];
    if (valid)
      seen.set(p);
  }
  if (!valid)
    return s.emitAttrError("perm") << "is not a permutation of the " << rank
                                   << " dimensions of " << s.getType(0);
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(s.getShape(0)[p]);
  s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult evalTranspose(EvalState &s) {
  const Tensor &in = s.input(0);
  ArrayRef<int64_t> inShape = in.getShape();
  int64_t rank = inShape.size();
  SmallVector<int64_t> perm = getPermutation(s.getAttrs(), rank);
  SmallVector<int64_t> outShape, strides, inStrides = getStrides(inShape);
  for (int64_t p : perm) {
    outShape.push_back(inShape[p]);
    strides.push_back(inStrides[p]);
  }
  Tensor out(in.getElementType(), outShape);
  size_t size = getByteSize(in.getElementType());
  const char *src = in.getBytes().data();
  char *dst = out.getMutableBytes().data();
  SmallVector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (int64_t i = 0, e = out.getNumElements(); i < e; ++i) {
    std::memcpy(dst + i * size, src + offset * size, size);
    for (int64_t d = rank; d-- > 0;) {
      offset += strides[d];
      if (++index[d] < outShape[d])
        break;
      offset -= strides[d] * outShape[d];
      index[d] = 0;
    }
  }
  s.addOutput(std::move(out));
  return success();
}

OpFoldResult foldTranspose(Operation *op, ArrayRef<Attribute>) {
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type || !isIdentity(getPermutation(OpAttrs(op), type.getRank())) ||
      !haveSameType(op->getOperand(0), op->getResult(0)))
    return {};
  return op->getOperand(0);
}

/// Transpose(Transpose(x, p1), p2) reads x[p1[p2[i]]]: one Transpose, or
/// none if that is the identity.
LogicalResult composeTransposes(Operation *op, PatternRewriter &rewriter) {
  Operation *inner = getDefiningOp(op->getOperand(0), "onnx.Transpose");
  if (!inner)
    return failure();
  Value x = inner->getOperand(0);
  auto type = dyn_cast<RankedTensorType>(x.getType());
  if (!type)
    return failure();
  int64_t rank = type.getRank();
  SmallVector<int64_t> p1 = getPermutation(OpAttrs(inner), rank);
  SmallVector<int64_t> p2 = getPermutation(OpAttrs(op), rank);
  SmallVector<int64_t> combined;
  for (int64_t p : p2)
    combined.push_back(p1[p]);
  if (isIdentity(combined)) {
    if (!haveSameType(x, op->getResult(0)))
      return failure();
    rewriter.replaceOp(op, x);
    return success();
  }
  Context *ctx = rewriter.getContext();
  return replaceWithNewOp(
      rewriter, op, "onnx.Transpose", {x},
      {{StringAttr::get(ctx, "perm"), getIntsAttr(ctx, combined)}});
}

const OpDef transposeDef = {
    {"onnx.Transpose", transposeOperands, transposeResults, transposeAttrs,
     OpTrait::Pure},
    inferTranspose,
    evalTranspose,
    foldTranspose,
    [](PatternSet &patterns, Context *) {
      addPattern(patterns, "onnx.Transpose", composeTransposes,
                 "compose-transposes");
    },
};

} // namespace

void appendTransposeOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&transposeDef);
}

} // namespace onyx::onnx

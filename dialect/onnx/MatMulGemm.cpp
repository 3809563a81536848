//===- MatMulGemm.cpp - onnx.MatMul and onnx.Gemm -------------------------===//
//
// MatMul follows numpy's matmul: 1-D operands are promoted to matrices and
// the added dimension removed again, batch dimensions broadcast. Gemm is
// alpha * A' * B' + beta * C on 2-D operands, A' and B' optionally
// transposed, C broadcast to the result.
//
// A Transpose feeding a 2-D MatMul or a Gemm is absorbed into Gemm's transA /
// transB, so that no transposed copy is ever made.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Contraction.h"

#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

//===----------------------------------------------------------------------===//
// Matrix products, computed in double for floats and in wrapping 64-bit
// arithmetic for integers
//===----------------------------------------------------------------------===//

/// C (m x n) = A (m x k) * B (k x n); strides in elements, so that
/// transposed operands are read in place.
template <typename C>
void multiply(const C *a, int64_t aRowStride, int64_t aColStride, const C *b,
              int64_t bRowStride, int64_t bColStride, C *out, int64_t m,
              int64_t n, int64_t k) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      C acc = 0;
      for (int64_t l = 0; l < k; ++l) {
        C x = a[i * aRowStride + l * aColStride];
        C y = b[l * bRowStride + j * bColStride];
        if constexpr (std::is_integral_v<C>)
          acc = C(uint64_t(acc) + uint64_t(x) * uint64_t(y));
        else
          acc += x * y;
      }
      out[i * n + j] = acc;
    }
  }
}

/// The type products are computed in for element type `type`.
ElementType getComputeType(ElementType type) {
  if (isFloat(type))
    return ElementType::F64;
  return isUnsignedInteger(type) ? ElementType::U64 : ElementType::I64;
}

//===----------------------------------------------------------------------===//
// MatMul
//===----------------------------------------------------------------------===//

} // namespace

std::optional<SmallVector<int64_t>>
getMatMulShape(ArrayRef<int64_t> a, ArrayRef<int64_t> b, std::string &why) {
  if (a.empty() || b.empty()) {
    why = "operands must have rank 1 or more";
    return std::nullopt;
  }
  SmallVector<int64_t> aShape(a), bShape(b);
  if (a.size() == 1)
    aShape.insert(aShape.begin(), 1);
  if (b.size() == 1)
    bShape.push_back(1);
  int64_t ka = aShape.back(), kb = bShape[bShape.size() - 2];
  if (ka != kb && !ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb)) {
    why = "inner dimensions differ (" + std::to_string(ka) + " and " +
          std::to_string(kb) + ")";
    return std::nullopt;
  }
  std::optional<SmallVector<int64_t>> batch = broadcastShapes(
      ArrayRef(aShape).drop_back(2), ArrayRef(bShape).drop_back(2));
  if (!batch) {
    why = "batch dimensions are not broadcast-compatible";
    return std::nullopt;
  }
  SmallVector<int64_t> result = *batch;
  if (a.size() > 1)
    result.push_back(aShape[aShape.size() - 2]);
  if (b.size() > 1)
    result.push_back(bShape.back());
  return result;
}

Tensor multiplyMatrices(const Tensor &a, const Tensor &b) {
  SmallVector<int64_t> aShape(a.getShape()), bShape(b.getShape());
  if (aShape.size() == 1)
    aShape.insert(aShape.begin(), 1);
  if (bShape.size() == 1)
    bShape.push_back(1);
  int64_t m = aShape[aShape.size() - 2], k = aShape.back(), n = bShape.back();
  ArrayRef<int64_t> aBatch = ArrayRef(aShape).drop_back(2);
  ArrayRef<int64_t> bBatch = ArrayRef(bShape).drop_back(2);
  SmallVector<int64_t> batch = *broadcastShapes(aBatch, bBatch);
  ElementType computeType = getComputeType(a.getElementType());
  Tensor ac = convertTensor(a, computeType), bc = convertTensor(b, computeType);
  SmallVector<int64_t> outShape(batch);
  outShape.append({m, n});
  Tensor out(computeType, outShape);
  dispatchType(computeType, [&](auto tag) {
    using C = decltype(tag);
    if constexpr (std::is_same_v<C, double> || std::is_same_v<C, int64_t> ||
                  std::is_same_v<C, uint64_t>) {
      const C *x = ac.getValues<C>().data(), *y = bc.getValues<C>().data();
      C *o = out.getMutableValues<C>().data();
      BroadcastIterator it(batch, {aBatch, bBatch});
      for (int64_t i = 0, e = getNumElements(batch); i < e; ++i, it.next())
        multiply(x + it.offset(0) * m * k, k, 1, y + it.offset(1) * k * n, n, 1,
                 o + i * m * n, m, n, k);
    }
  });
  std::string why;
  return out.reshape(*getMatMulShape(a.getShape(), b.getShape(), why));
}

namespace {

const ValueSpec matMulOperands[] = {{"A"}, {"B"}};
const ValueSpec matMulResults[] = {{"Y"}};

LogicalResult inferMatMul(InferState &s) {
  if (failed(s.checkNumeric(0)) || failed(s.checkSameElementType(0, 1)))
    return failure();
  std::string why;
  std::optional<SmallVector<int64_t>> shape =
      getMatMulShape(s.getShape(0), s.getShape(1), why);
  if (!shape)
    return s.emitError() << "cannot multiply " << s.getType(0) << " by "
                         << s.getType(1) << ": " << why;
  s.addResult(*shape, s.getElementType(0));
  return success();
}

LogicalResult evalMatMul(EvalState &s) {
  const Tensor &a = s.input(0), &b = s.input(1);
  std::string why;
  if (!getMatMulShape(a.getShape(), b.getShape(), why) ||
      a.getElementType() == ElementType::Bool)
    return s.emitError() << "cannot multiply: " << why;
  s.addOutput(convertTensor(multiplyMatrices(a, b), a.getElementType()));
  return success();
}

/// A 2-D MatMul with a transposed operand becomes a Gemm that reads the
/// operand transposed.
LogicalResult absorbTransposeIntoMatMul(Operation *op,
                                        PatternRewriter &rewriter);

const OpDef matMulDef = {
    {"onnx.MatMul", matMulOperands, matMulResults, {}, OpTrait::Pure},
    inferMatMul,
    evalMatMul,
    nullptr,
    [](PatternSet &patterns, Context *) {
      addPattern(patterns, "onnx.MatMul", absorbTransposeIntoMatMul,
                 "absorb-transpose-into-gemm");
      addAttentionPattern(patterns, "onnx.MatMul");
    },
};

//===----------------------------------------------------------------------===//
// Gemm
//===----------------------------------------------------------------------===//

const ValueSpec gemmOperands[] = {{"A"}, {"B"}, {"C", Presence::Optional}};
const AttrSpec gemmAttrs[] = {floatAttr("alpha", 1.0), floatAttr("beta", 1.0),
                              intAttr("transA", 0), intAttr("transB", 0)};

LogicalResult inferGemm(InferState &s) {
  if (failed(s.checkNumeric(0)) || failed(s.checkSameElementType(0, 1)) ||
      failed(s.checkRank(0, 2)) || failed(s.checkRank(1, 2)))
    return failure();
  const OpAttrs &attrs = s.getAttrs();
  bool transA = attrs.getInt("transA"), transB = attrs.getInt("transB");
  ArrayRef<int64_t> a = s.getShape(0), b = s.getShape(1);
  int64_t m = a[transA ? 1 : 0], ka = a[transA ? 0 : 1];
  int64_t kb = b[transB ? 1 : 0], n = b[transB ? 0 : 1];
  if (ka != kb && !ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb))
    return s.emitError() << "cannot multiply " << s.getType(0) << " by "
                         << s.getType(1)
                         << " (with transA = " << int64_t(transA)
                         << ", transB = " << int64_t(transB)
                         << "): inner dimensions differ";
  SmallVector<int64_t> shape = {m, n};
  if (s.hasOperand(2)) {
    if (failed(s.checkSameElementType(0, 2)))
      return failure();
    std::optional<SmallVector<int64_t>> b2 =
        broadcastShapes(shape, s.getShape(2));
    if (s.getRank(2) > 2 || !b2 || *b2 != shape)
      return s.emitOperandError(2)
             << "of type " << s.getType(2) << " does not broadcast to " << m
             << "x" << n;
  }
  s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult evalGemm(EvalState &s) {
  const Tensor &a = s.input(0), &b = s.input(1);
  const OpAttrs &attrs = s.getAttrs();
  bool transA = attrs.getInt("transA"), transB = attrs.getInt("transB");
  double alpha = attrs.getFloat("alpha"), beta = attrs.getFloat("beta");
  int64_t m = a.getShape()[transA ? 1 : 0], k = a.getShape()[transA ? 0 : 1];
  int64_t n = b.getShape()[transB ? 0 : 1];
  if (b.getShape()[transB ? 1 : 0] != k)
    return s.emitError() << "inner dimensions differ";
  ElementType computeType = getComputeType(a.getElementType());
  Tensor ac = convertTensor(a, computeType), bc = convertTensor(b, computeType);
  Tensor out(computeType, {m, n});
  Tensor c;
  if (s.hasInput(2))
    c = convertTensor(broadcastTo(s.input(2), {m, n}), computeType);
  dispatchType(computeType, [&](auto tag) {
    using C = decltype(tag);
    if constexpr (std::is_same_v<C, double> || std::is_same_v<C, int64_t> ||
                  std::is_same_v<C, uint64_t>) {
      MutableArrayRef<C> o = out.getMutableValues<C>();
      multiply(ac.getValues<C>().data(), transA ? 1 : k, transA ? m : 1,
               bc.getValues<C>().data(), transB ? 1 : n, transB ? k : 1,
               o.data(), m, n, k);
      for (int64_t i = 0; i < m * n; ++i) {
        C v = C(alpha * double(o[i]));
        if (c)
          v += C(beta * double(c.getValues<C>()[i]));
        o[i] = v;
      }
    }
  });
  s.addOutput(convertTensor(out, a.getElementType()));
  return success();
}

/// The operand of a 2-D Transpose swapping the two dimensions; null if
/// `value` is not one.
Value getTransposedOperand(Value value) {
  Operation *transpose = getDefiningOp(value, "onnx.Transpose");
  if (!transpose)
    return {};
  auto type = dyn_cast<RankedTensorType>(transpose->getOperand(0).getType());
  if (!type || type.getRank() != 2)
    return {};
  // Without perm a Transpose reverses the dimensions, which for a matrix is
  // the swap.
  std::optional<SmallVector<int64_t>> perm = OpAttrs(transpose).getInts("perm");
  if (perm && *perm != SmallVector<int64_t>{1, 0})
    return {};
  return transpose->getOperand(0);
}

LogicalResult absorbTransposeIntoGemm(Operation *op,
                                      PatternRewriter &rewriter) {
  OpAttrs attrs(op);
  Value a = op->getOperand(0), b = op->getOperand(1);
  int64_t transA = attrs.getInt("transA"), transB = attrs.getInt("transB");
  Value innerA = getTransposedOperand(a), innerB = getTransposedOperand(b);
  if (!innerA && !innerB)
    return failure();
  if (innerA) {
    a = innerA;
    transA = !transA;
  }
  if (innerB) {
    b = innerB;
    transB = !transB;
  }
  Context *ctx = rewriter.getContext();
  SmallVector<NamedAttribute> newAttrs;
  for (const NamedAttribute &named : op->getAttrs())
    if (named.getName() != "transA" && named.getName() != "transB")
      newAttrs.push_back(named);
  newAttrs.push_back({StringAttr::get(ctx, "transA"), getIntAttr(ctx, transA)});
  newAttrs.push_back({StringAttr::get(ctx, "transB"), getIntAttr(ctx, transB)});
  SmallVector<Value> operands = {a, b};
  if (op->getNumOperands() > 2)
    operands.push_back(op->getOperand(2));
  return replaceWithNewOp(rewriter, op, "onnx.Gemm", operands, newAttrs);
}

LogicalResult absorbTransposeIntoMatMul(Operation *op,
                                        PatternRewriter &rewriter) {
  auto a = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto b = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  if (!a || !b || a.getRank() != 2 || b.getRank() != 2)
    return failure();
  Value innerA = getTransposedOperand(op->getOperand(0));
  Value innerB = getTransposedOperand(op->getOperand(1));
  if (!innerA && !innerB)
    return failure();
  Context *ctx = rewriter.getContext();
  SmallVector<NamedAttribute> attrs = {
      {StringAttr::get(ctx, "transA"), getIntAttr(ctx, innerA ? 1 : 0)},
      {StringAttr::get(ctx, "transB"), getIntAttr(ctx, innerB ? 1 : 0)}};
  return replaceWithNewOp(rewriter, op, "onnx.Gemm",
                          {innerA ? innerA : op->getOperand(0),
                           innerB ? innerB : op->getOperand(1)},
                          attrs);
}

const OpDef gemmDef = {
    {"onnx.Gemm", gemmOperands, matMulResults, gemmAttrs, OpTrait::Pure},
    inferGemm,
    evalGemm,
    nullptr,
    [](PatternSet &patterns, Context *) {
      addPattern(patterns, "onnx.Gemm", absorbTransposeIntoGemm,
                 "absorb-transpose-into-gemm");
    },
};

} // namespace

void appendMatMulOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&matMulDef);
  defs.push_back(&gemmDef);
}

} // namespace onyx::onnx

//===- TransposeGemvWeights.cpp - onnx-transpose-gemv-weights -------------===//
//
// A decode step multiplies one row (a few, or a number only the run knows)
// by each constant weight matrix, and that product's speed is how fast the
// weights stream from memory. Exporters store a Linear's weights as MatMul's
// B [k, n], so a column's elements lie n apart; the matrix-vector kernel
// then has to spread a workgroup's threads across rows and add their sums
// in shared memory. With the weights stored [n, k] instead (as llama.cpp and
// ONNX Runtime's MatMulNBits keep them), each column is one contiguous run:
// a subgroup reads it in whole cache lines and adds its sums in registers
// (Gemv.cpp, B's k contiguous).
//
// This pass stores such weights transposed at compile time and reads them
// back through a Transpose that the MatMul absorbs (isTransposeAbsorbed:
// the kernel reads B through the transposed strides), or, for a Gemm, by
// setting transB. The values are the same, element for element; only the
// layout of the weights in memory changes. It applies where the matrix-
// vector kernel may run: A's rows (all of A's dims but the last) at most 4
// or known only at run time, f32 weights of at least 64 x 256 elements
// with k a multiple of 4, each read only as such a product's B.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Block.h"
#include "ir/BuiltinOps.h"

#include <cstring>

namespace onyx::lowering {

namespace {

class TransposeGemvWeights : public PassWrapper<TransposeGemvWeights> {
public:
  TransposeGemvWeights()
      : PassWrapper(
            "onnx-transpose-gemv-weights",
            "Store the constant weights of products of few rows transposed, "
            "so that each column is contiguous",
            "builtin.module") {}
  void runOnOperation() override;

private:
  PassStatistic numTransposed{this, "num-transposed",
                              "weight matrices stored transposed"};
};

/// Whether `op`'s A has few rows (at most 4) or rows known only at run
/// time: the products the matrix-vector kernel may compute.
bool hasFewRows(Operation *op, bool transA) {
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type || type.getRank() < 2)
    return false;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rows = 1;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (i == (transA ? 0 : type.getRank() - 1))
      continue;
    if (ShapedType::isDynamic(shape[i]))
      return true;
    rows *= shape[i];
  }
  return rows <= 4;
}

/// The constant weights `use` reads as B [k, n] of a product of few rows
/// that would gain from them transposed, or null.
DenseElementsAttr getGemvWeights(OpOperand &use) {
  Operation *op = use.getOwner();
  StringRef name = op->getName().getStringRef();
  if (use.getOperandNumber() != 1 ||
      (name != "onnx.MatMul" && name != "onnx.Gemm"))
    return {};
  onnx::OpAttrs attrs(op);
  if (name == "onnx.Gemm" && attrs.getInt("transB") != 0)
    return {};
  bool transA = name == "onnx.Gemm" && attrs.getInt("transA") != 0;
  if (!hasFewRows(op, transA))
    return {};
  DenseElementsAttr weights = onnx::getConstantValue(use.get());
  if (!weights || weights.isSplat() || weights.getType().getRank() != 2 ||
      !weights.getElementType().isF32())
    return {};
  int64_t k = weights.getType().getShape()[0];
  int64_t n = weights.getType().getShape()[1];
  if (k < 64 || k % 4 != 0 || n * k < 16384)
    return {};
  return weights;
}

/// `weights` [k, n] stored as [n, k].
DenseElementsAttr transpose(DenseElementsAttr weights) {
  int64_t k = weights.getType().getShape()[0];
  int64_t n = weights.getType().getShape()[1];
  const float *from =
      reinterpret_cast<const float *>(weights.getRawData().data());
  std::vector<float> to(size_t(k) * n);
  // Blocks of 64 x 64 so that both sides stay in cache.
  constexpr int64_t kBlock = 64;
  for (int64_t r0 = 0; r0 < k; r0 += kBlock)
    for (int64_t c0 = 0; c0 < n; c0 += kBlock)
      for (int64_t r = r0; r < std::min(k, r0 + kBlock); ++r)
        for (int64_t c = c0; c < std::min(n, c0 + kBlock); ++c)
          to[size_t(c) * k + r] = from[size_t(r) * n + c];
  return DenseElementsAttr::getFromRawBuffer(
      RankedTensorType::get({n, k}, weights.getElementType()),
      ArrayRef<char>(reinterpret_cast<const char *>(to.data()),
                     to.size() * sizeof(float)));
}

void TransposeGemvWeights::runOnOperation() {
  // Each constant once: all of its readers must qualify, since the
  // untransposed copy would otherwise stay too.
  SmallVector<Operation *> constants;
  cast<ModuleOp>(getOperation())->walk([&](Operation *op) {
    if (op->getName().getStringRef() == "onnx.Constant" &&
        op->getNumResults() == 1 && !op->getResult(0).use_empty())
      constants.push_back(op);
  });
  for (Operation *constant : constants) {
    Value value = constant->getResult(0);
    DenseElementsAttr weights;
    bool all = true;
    for (OpOperand &use : value.getUses()) {
      weights = getGemvWeights(use);
      all &= bool(weights);
    }
    if (!all || !weights)
      continue;
    Context *ctx = constant->getContext();
    OpBuilder builder(ctx);
    builder.setInsertionPoint(constant);
    Location loc = constant->getLoc();
    Value transposed = onnx::createConstant(builder, loc, transpose(weights));
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : value.getUses())
      uses.push_back(&use);
    for (OpOperand *use : uses) {
      Operation *user = use->getOwner();
      if (user->getName().getStringRef() == "onnx.Gemm") {
        user->setAttr("transB", onnx::getIntAttr(ctx, 1));
        use->set(transposed);
        continue;
      }
      // A MatMul reads the weights back through a Transpose of its own
      // (one reader each, as isTransposeAbsorbed wants).
      builder.setInsertionPoint(user);
      OperationState state(loc, "onnx.Transpose");
      state.addOperands({transposed});
      state.addAttribute("perm", onnx::getIntsAttr(ctx, {1, 0}));
      state.addTypes({weights.getType()});
      use->set(builder.create(state)->getResult(0));
    }
    constant->erase();
    ++numTransposed;
  }
}

} // namespace

std::unique_ptr<Pass> createTransposeGemvWeightsPass() {
  return std::make_unique<TransposeGemvWeights>();
}

} // namespace onyx::lowering

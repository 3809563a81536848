//===- MatMulKernels.cpp - Kernel generators of the MatMul family ---------===//
//
// onnx.MatMul and onnx.Gemm become one dispatch of the tiled GEMM kernel
// (TiledGemm.h). MatMul's batch dimensions are the grid's z, each operand
// offset by its broadcast batch index; when only A has a batch, it folds
// into A's rows so that one large product replaces many small ones (where
// A's batch steps through memory as its rows do). Operands are read
// through strides, so Gemm's transA / transB and a Transpose of any
// permutation that only a MatMul reads (isTransposeAbsorbed: the Transpose
// emits nothing, the MatMul reads its input with the permuted strides) are
// read in place. Gemm applies alpha, beta and C as it stores.
//
//===----------------------------------------------------------------------===//
#include "lowering/Glsl.h"
#include "lowering/TiledGemm.h"

#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OnnxDialect.h"

#include "ir/Block.h"
#include "ir/Operation.h"
#include "ir/Region.h"

#include "llvm/ADT/Twine.h"

#include <cmath>

namespace onyx::lowering {

namespace {

using gpu::Access;

std::string u(uint64_t value) { return std::to_string(value) + "u"; }

int64_t product(ArrayRef<int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= d;
  return p;
}

/// Fails with an error naming the element type if the kernel cannot
/// compute in it.
LogicalResult checkElementType(LoweringContext &ctx, Type elementType) {
  if (glsl::isSupported(elementType) && !elementType.isInteger(1))
    return success();
  return ctx.emitError() << "element type " << elementType
                         << " is not supported by the GEMM kernel";
}

LogicalResult checkBindings(LoweringContext &ctx, Operation *op) {
  for (Value v : op->getOperands())
    if (auto type = dyn_cast<RankedTensorType>(v.getType()))
      if (failed(checkBindingSize(ctx, type)))
        return failure();
  return checkBindingSize(ctx,
                          cast<RankedTensorType>(op->getResult(0).getType()));
}

/// How a matrix operand is laid out: the distance in elements between
/// neighbours along its rows (row stride) and columns (column stride).
struct MatrixStrides {
  int64_t row, col;
};

/// `base` plus index `a` times `strideA` plus `b` times `strideB`, the
/// larger stride first.
std::string stridedIndex(StringRef base, StringRef a, int64_t strideA,
                         StringRef b, int64_t strideB) {
  auto term = [](StringRef name, int64_t stride) {
    return stride == 1 ? name.str() : name.str() + " * " + u(stride);
  };
  if (strideA < strideB)
    return base.str() + " + " + term(b, strideB) + " + " + term(a, strideA);
  return base.str() + " + " + term(a, strideA) + " + " + term(b, strideB);
}

/// The functions reading A (m x k) and B (k x n) at offsets aBase and
/// bBase with strides `sa` and `sb`, from buffers `a` and `b`. An operand
/// is copied along its column when its column stride is 1 or at most its
/// row stride, else along its rows (transposed).
void addOperandFunctions(GemmProblem &p, MatrixStrides sa, MatrixStrides sb) {
  Type et = p.elementType;
  std::string ct = glsl::computeType(et);
  std::string aIndex = stridedIndex("aBase", "row", sa.row, "k", sa.col);
  std::string bIndex = stridedIndex("bBase", "k", sb.row, "col", sb.col);
  std::string aValue = p.aVector ? vectorBufferElement("a", aIndex)
                                 : glsl::load(et, "a", aIndex);
  std::string bValue = p.bVector ? vectorBufferElement("b", bIndex)
                                 : glsl::load(et, "b", bIndex);
  p.functions += ct + " loadA(uint row, uint k) { return " + aValue + "; }\n";
  p.functions += ct + " loadB(uint k, uint col) { return " + bValue + "; }\n";
  if (p.aVector)
    p.functions += "vec4 loadA4(uint row, uint k) { return a.d[(" + aIndex +
                   ") / 4u]; }\n";
  if (p.bVector)
    p.functions += "vec4 loadB4(uint k, uint col) { return b.d[(" + bIndex +
                   ") / 4u]; }\n";
}

bool isRowMajor(MatrixStrides s) { return s.col == 1 || s.col <= s.row; }

MatrixStrides plainStrides(int64_t cols, bool transposed) {
  return transposed ? MatrixStrides{1, cols} : MatrixStrides{cols, 1};
}

/// Declares A (binding 0) and B (binding 1), as vec4s where the kernel
/// reads them so: the contiguous dimension (stride 1) must hold whole
/// vectors, and every other stride of the operand (`aOther`, `bOther`: the
/// other dimension's and the batch's) must keep them aligned.
void declareOperands(LoweringContext &ctx, GemmProblem &p, MatrixStrides sa,
                     MatrixStrides sb, bool aOther = true, bool bOther = true) {
  bool vectors = canLoadVectors(ctx, p.elementType);
  p.aRowMajor = isRowMajor(sa);
  p.bRowMajor = isRowMajor(sb);
  auto aligned = [](int64_t stride) { return stride % 4 == 0; };
  p.aVector = vectors && aOther &&
              (p.aRowMajor ? sa.col == 1 && p.k % 4 == 0 && aligned(sa.row)
                           : sa.row == 1 && p.m % 4 == 0 && aligned(sa.col));
  p.bVector = vectors && bOther &&
              (p.bRowMajor ? sb.col == 1 && p.n % 4 == 0 && aligned(sb.row)
                           : sb.row == 1 && p.k % 4 == 0 && aligned(sb.col));
  p.declarations += p.aVector
                        ? vectorBuffer(0, "a")
                        : glsl::buffer(0, Access::Read, p.elementType, "a");
  p.declarations += p.bVector
                        ? vectorBuffer(1, "b")
                        : glsl::buffer(1, Access::Read, p.elementType, "b");
}

//===----------------------------------------------------------------------===//
// MatMul
//===----------------------------------------------------------------------===//

/// The permutation of a Transpose (reversed dimensions without `perm`).
SmallVector<int64_t> getPermutation(Operation *transpose) {
  if (std::optional<SmallVector<int64_t>> perm =
          onnx::OpAttrs(transpose).getInts("perm"))
    return *perm;
  auto type = cast<RankedTensorType>(transpose->getOperand(0).getType());
  SmallVector<int64_t> perm;
  for (int64_t d = type.getRank() - 1; d >= 0; --d)
    perm.push_back(d);
  return perm;
}

/// The strides, in the memory its view holds, of MatMul operand `i` of
/// (promoted) shape `shape`: row-major, or for an absorbed Transpose's
/// result (through a fused body's argument too), its input's strides
/// permuted.
SmallVector<int64_t> getOperandStrides(Operation *op, unsigned i,
                                       ArrayRef<int64_t> shape) {
  Value value = op->getOperand(i);
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (Operation *fused = arg.getOwner()->getParentOp();
        fused && fused->getName().getStringRef() == onnx::kFusedElementwiseName)
      value = fused->getOperand(arg.getArgNumber());
  Operation *transpose = value.getDefiningOp();
  if (!transpose || !isTransposeAbsorbed(transpose))
    return glsl::strides(shape);
  auto inputType = cast<RankedTensorType>(transpose->getOperand(0).getType());
  SmallVector<int64_t> inputStrides = glsl::strides(inputType.getShape());
  SmallVector<int64_t> strides;
  for (int64_t d : getPermutation(transpose))
    strides.push_back(inputStrides[d]);
  return strides;
}

LogicalResult generateMatMul(Operation *op, LoweringContext &ctx,
                             const GemmEpilogue *epilogue) {
  auto aType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto bType = cast<RankedTensorType>(op->getOperand(1).getType());
  Type et = aType.getElementType();
  if (failed(checkElementType(ctx, et)) || failed(checkBindings(ctx, op)))
    return failure();

  // numpy's promotion of 1-D operands; the result has the same layout.
  SmallVector<int64_t> aShape(aType.getShape()), bShape(bType.getShape());
  if (aShape.size() == 1)
    aShape.insert(aShape.begin(), 1);
  if (bShape.size() == 1)
    bShape.push_back(1);
  ArrayRef<int64_t> aBatch = ArrayRef(aShape).drop_back(2);
  ArrayRef<int64_t> bBatch = ArrayRef(bShape).drop_back(2);
  unsigned batchRank = std::max(aBatch.size(), bBatch.size());
  SmallVector<int64_t> batch(batchRank, 1);
  for (unsigned i = 0; i < batchRank; ++i) {
    if (i + aBatch.size() >= batchRank)
      batch[i] = aBatch[i + aBatch.size() - batchRank];
    if (i + bBatch.size() >= batchRank && batch[i] == 1)
      batch[i] = bBatch[i + bBatch.size() - batchRank];
  }

  // Where each operand's elements are: row-major, or the input of a
  // Transpose the MatMul absorbs read through the permutation.
  SmallVector<int64_t> aStrides = getOperandStrides(op, 0, aShape);
  SmallVector<int64_t> bStrides = getOperandStrides(op, 1, bShape);
  bool aPlain = aStrides == glsl::strides(aShape);
  bool bPlain = bStrides == glsl::strides(bShape);
  MatrixStrides sa = {aStrides[aShape.size() - 2], aStrides.back()};
  MatrixStrides sb = {bStrides[bShape.size() - 2], bStrides.back()};

  GemmProblem p;
  p.elementType = et;
  p.m = aShape[aShape.size() - 2];
  p.k = aShape.back();
  p.n = bShape.back();
  p.batch = product(batch);
  std::string prologue;
  // A's matrices stack into one when its batch dimensions step through
  // memory as its rows do.
  bool aStacks = true;
  for (size_t d = 0; d + 2 < aShape.size(); ++d)
    aStacks &= aShape[d] == 1 || aStrides[d] == aStrides[d + 1] * aShape[d + 1];
  // vec4 loads need every batch stride a multiple of 4 too.
  auto batchAligned = [](ArrayRef<int64_t> shape, ArrayRef<int64_t> strides) {
    for (size_t d = 0; d + 2 < shape.size(); ++d)
      if (shape[d] != 1 && strides[d] % 4 != 0)
        return false;
    return true;
  };
  if (product(bBatch) == 1 && aStacks) {
    // Every product uses the same B: stack A's matrices into one.
    p.m *= product(aBatch);
    p.batch = 1;
    prologue = "  aBase = 0u; bBase = 0u; yBase = 0u;\n";
  } else {
    prologue = "  yBase = z * " + u(p.m * p.n) + ";\n";
    auto baseOf = [&](ArrayRef<int64_t> operandBatch, int64_t matrixSize) {
      if (product(operandBatch) == 1)
        return std::string("0u");
      if (ArrayRef<int64_t>(batch) == operandBatch)
        return "z * " + u(matrixSize);
      std::string index = glsl::broadcastIndex(operandBatch, batchRank, "bz");
      return (llvm::Twine("(") + index + ") * " + u(matrixSize)).str();
    };
    // An absorbed Transpose's batch offset: each batch coordinate times
    // its stride.
    auto stridedBaseOf = [&](ArrayRef<int64_t> operandBatch,
                             ArrayRef<int64_t> strides) {
      std::string base;
      for (size_t d = 0; d < operandBatch.size(); ++d) {
        if (operandBatch[d] == 1)
          continue;
        base += (base.empty() ? "" : " + ") + std::string("bz") +
                std::to_string(d + batchRank - operandBatch.size()) + " * " +
                u(strides[d]);
      }
      return base.empty() ? std::string("0u") : base;
    };
    std::string aBase =
        aPlain ? baseOf(aBatch, p.m * p.k) : stridedBaseOf(aBatch, aStrides);
    std::string bBase =
        bPlain ? baseOf(bBatch, p.k * p.n) : stridedBaseOf(bBatch, bStrides);
    if (aBase.find("bz") != std::string::npos ||
        bBase.find("bz") != std::string::npos)
      prologue += glsl::unflatten(batch, "z", "bz");
    prologue += "  aBase = " + aBase + ";\n  bBase = " + bBase + ";\n";
  }
  p.prologue = prologue;

  declareOperands(ctx, p, sa, sb, batchAligned(aShape, aStrides),
                  batchAligned(bShape, bStrides));
  p.globals = "uint aBase, bBase, yBase;\n";
  addOperandFunctions(p, sa, sb);
  p.outputIndex = "yBase + row * " + u(p.n) + " + col";
  p.outputValue = glsl::computeType(et) + " v = acc;";
  p.epilogue = epilogue;

  Value a = ctx.getView(op->getOperand(0));
  Value b = ctx.getView(op->getOperand(1));
  if (!a || !b)
    return failure();
  return dispatchGemm(ctx, "matmul", p, a, b, op->getResult(0));
}

//===----------------------------------------------------------------------===//
// Gemm
//===----------------------------------------------------------------------===//

/// `acc` scaled by `factor` in the compute type of `et`; integers take
/// only whole factors.
FailureOr<std::string> scale(LoweringContext &ctx, Type et, double factor,
                             StringRef what, std::string acc) {
  if (factor == 1.0)
    return acc;
  if (glsl::isFloat(et))
    return glsl::literal(et, factor) + " * " + acc;
  if (factor != std::trunc(factor))
    return ctx.emitError() << "'" << what << "' = " << factor
                           << " is not a whole number, which the GEMM kernel "
                              "needs for element type "
                           << et;
  return glsl::integerLiteral(et, int64_t(factor)) + " * " + acc;
}

LogicalResult generateGemm(Operation *op, LoweringContext &ctx,
                           const GemmEpilogue *epilogue) {
  auto aType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto bType = cast<RankedTensorType>(op->getOperand(1).getType());
  Type et = aType.getElementType();
  if (failed(checkElementType(ctx, et)) || failed(checkBindings(ctx, op)))
    return failure();
  onnx::OpAttrs attrs(op);
  bool transA = attrs.getInt("transA"), transB = attrs.getInt("transB");
  double alpha = attrs.getFloat("alpha"), beta = attrs.getFloat("beta");
  bool hasC = op->getNumOperands() > 2 && !onnx::isNoValue(op->getOperand(2));

  GemmProblem p;
  p.elementType = et;
  p.m = aType.getShape()[transA ? 1 : 0];
  p.k = aType.getShape()[transA ? 0 : 1];
  p.n = bType.getShape()[transB ? 0 : 1];
  p.prologue = "  aBase = 0u; bBase = 0u;\n";
  MatrixStrides sa = plainStrides(aType.getShape()[1], transA);
  MatrixStrides sb = plainStrides(bType.getShape()[1], transB);
  declareOperands(ctx, p, sa, sb);
  // With beta = 0, C is not bound at all (the result differs from the
  // reference evaluator's only where C holds an infinity or a NaN).
  bool useC = hasC && beta != 0.0;
  p.globals = "uint aBase, bBase;\n";
  addOperandFunctions(p, sa, sb);

  FailureOr<std::string> value = scale(ctx, et, alpha, "alpha", "acc");
  if (failed(value))
    return failure();
  std::string ct = glsl::computeType(et);
  p.outputIndex = "row * " + u(p.n) + " + col";
  if (useC) {
    auto cType = cast<RankedTensorType>(op->getOperand(2).getType());
    std::string cIndex = glsl::broadcastIndex(cType.getShape(), 2, "o");
    FailureOr<std::string> c =
        scale(ctx, et, beta, "beta",
              (llvm::Twine("(") + glsl::load(et, "cIn", cIndex) + ")").str());
    if (failed(c))
      return failure();
    p.outputValue =
        "uint o0 = row, o1 = col; " + ct + " v = " + *value + " + " + *c + ";";
    p.storeInputs.push_back({"cIn", et, ctx.getView(op->getOperand(2))});
  } else {
    p.outputValue = ct + " v = " + *value + ";";
  }
  p.epilogue = epilogue;

  Value a = ctx.getView(op->getOperand(0));
  Value b = ctx.getView(op->getOperand(1));
  if (!a || !b)
    return failure();
  return dispatchGemm(ctx, "gemm", p, a, b, op->getResult(0));
}

LogicalResult generatePlainMatMul(Operation *op, LoweringContext &ctx) {
  return generateMatMul(op, ctx, nullptr);
}
LogicalResult generatePlainGemm(Operation *op, LoweringContext &ctx) {
  return generateGemm(op, ctx, nullptr);
}

const KernelGenerator generators[] = {
    {"onnx.Gemm", generatePlainGemm},
    {"onnx.MatMul", generatePlainMatMul},
};

} // namespace

// Defined with Conv's generator.
LogicalResult lowerConv(Operation *op, LoweringContext &ctx,
                        const GemmEpilogue *epilogue);

bool isTransposeAbsorbed(Operation *op) {
  if (op->getName().getStringRef() != "onnx.Transpose")
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || type.getRank() < 2 || !op->getResult(0).hasOneUse())
    return false;
  OpOperand *use = &*op->getResult(0).getUses().begin();
  Operation *user = use->getOwner();
  unsigned index = use->getOperandNumber();
  if (user->getName().getStringRef() == onnx::kFusedElementwiseName) {
    // The contraction first in the body (after cloned constants) must be
    // the argument's only reader.
    Block &body = user->getRegion(0).front();
    BlockArgument arg = body.getArgument(index);
    if (!arg.hasOneUse())
      return false;
    use = &*arg.getUses().begin();
    user = use->getOwner();
    index = use->getOperandNumber();
    auto first = llvm::find_if(
        body, [](Operation &inner) { return inner.getNumOperands() != 0; });
    if (first == body.end() || &*first != user)
      return false;
  }
  return user->getName().getStringRef() == "onnx.MatMul" && index < 2 &&
         isGemmContraction(user);
}

bool isGemmContraction(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name != "onnx.MatMul" && name != "onnx.Gemm" && name != "onnx.Conv")
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !glsl::isSupported(type.getElementType()) ||
      type.getElementType().isInteger(1))
    return false;
  return name != "onnx.Conv" || glsl::isFloat(type.getElementType());
}

unsigned getNumGemmBindings(Operation *op) {
  unsigned n = 1;
  for (Value operand : op->getOperands())
    n += !onnx::isNoValue(operand);
  return n;
}

LogicalResult lowerGemmContraction(Operation *op, LoweringContext &ctx,
                                   const GemmEpilogue *epilogue) {
  StringRef name = op->getName().getStringRef();
  if (name == "onnx.MatMul")
    return generateMatMul(op, ctx, epilogue);
  if (name == "onnx.Gemm")
    return generateGemm(op, ctx, epilogue);
  return lowerConv(op, ctx, epilogue);
}

ArrayRef<KernelGenerator> getMatMulGenerators() { return generators; }

} // namespace onyx::lowering

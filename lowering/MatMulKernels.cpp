//===- MatMulKernels.cpp - Kernel generators of the MatMul family ---------===//
//
// onnx.MatMul and onnx.Gemm become one dispatch of the tiled GEMM kernel
// (TiledGemm.h). MatMul's batch dimensions are the grid's z, each operand
// offset by its broadcast batch index; when only A has a batch, it folds
// into A's rows so that one large product replaces many small ones. Gemm
// reads transposed operands in place (transA / transB, also what a
// Transpose feeding a MatMul becomes) and applies alpha, beta and C as it
// stores.
//
//===----------------------------------------------------------------------===//
#include "lowering/Glsl.h"
#include "lowering/TiledGemm.h"

#include "dialect/onnx/OnnxDialect.h"

#include "ir/Operation.h"

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

/// The functions reading A (m x k) and B (k x n) at offsets aBase and
/// bBase, either transposed, from buffers `a` and `b`.
void addOperandFunctions(GemmProblem &p, bool transA, bool transB) {
  Type et = p.elementType;
  std::string ct = glsl::computeType(et);
  std::string aIndex = transA ? "aBase + k * " + u(p.m) + " + row"
                              : "aBase + row * " + u(p.k) + " + k";
  std::string bIndex = transB ? "bBase + col * " + u(p.k) + " + k"
                              : "bBase + k * " + u(p.n) + " + col";
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
  p.aRowMajor = !transA;
  p.bRowMajor = !transB;
}

/// Declares A (binding 0) and B (binding 1), as vec4s where the kernel
/// reads them so: the contiguous dimension must hold whole vectors.
void declareOperands(LoweringContext &ctx, GemmProblem &p, bool transA,
                     bool transB) {
  bool vectors = canLoadVectors(ctx, p.elementType);
  p.aVector = vectors && (transA ? p.m : p.k) % 4 == 0;
  p.bVector = vectors && (transB ? p.k : p.n) % 4 == 0;
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

  GemmProblem p;
  p.elementType = et;
  p.m = aShape[aShape.size() - 2];
  p.k = aShape.back();
  p.n = bShape.back();
  p.batch = product(batch);
  std::string prologue;
  if (product(bBatch) == 1) {
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
    std::string aBase = baseOf(aBatch, p.m * p.k);
    std::string bBase = baseOf(bBatch, p.k * p.n);
    if (aBase.find("bz") != std::string::npos ||
        bBase.find("bz") != std::string::npos)
      prologue += glsl::unflatten(batch, "z", "bz");
    prologue += "  aBase = " + aBase + ";\n  bBase = " + bBase + ";\n";
  }
  p.prologue = prologue;

  declareOperands(ctx, p, false, false);
  p.globals = "uint aBase, bBase, yBase;\n";
  addOperandFunctions(p, false, false);
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
  declareOperands(ctx, p, transA, transB);
  // With beta = 0, C is not bound at all (the result differs from the
  // reference evaluator's only where C holds an infinity or a NaN).
  bool useC = hasC && beta != 0.0;
  p.globals = "uint aBase, bBase;\n";
  addOperandFunctions(p, transA, transB);

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

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
#include "lowering/BlockQuantizedKernels.h"
#include "lowering/Glsl.h"
#include "lowering/MatMulOperands.h"
#include "lowering/TiledGemm.h"

#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OnnxDialect.h"

#include "ir/Block.h"
#include "ir/Operation.h"
#include "ir/Region.h"

#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/Twine.h"

#include <cmath>

namespace onyx::lowering {

namespace {

using gpu::Access;

/// Short, as kernels spell many literals.
std::string (&u)(int64_t) = glsl::uintLiteral;

constexpr auto product = onnx::getNumElements;

/// Fails with an error naming the element type if the kernel cannot
/// compute in it.
LogicalResult checkElementType(LoweringContext &ctx, Type elementType) {
  if (glsl::isSupported(elementType) && !elementType.isInteger(1))
    return success();
  return ctx.emitError() << "element type " << elementType
                         << " is not supported by the GEMM kernel";
}

/// Checks the size of the bindings of static type (a tensor whose size
/// only the run knows is checked then, as the runtime places it).
LogicalResult checkBindings(LoweringContext &ctx, Operation *op) {
  SmallVector<Value> values(op->getOperands());
  values.push_back(op->getResult(0));
  for (Value v : values)
    if (auto type = dyn_cast<RankedTensorType>(v.getType()))
      if (type.hasStaticShape() && failed(checkBindingSize(ctx, type)))
        return failure();
  return success();
}

/// How a matrix operand is laid out: the distance in elements between
/// neighbours along its rows (row stride) and columns (column stride).
struct MatrixStrides {
  Size row, col;
};

/// Whether `a` is known to be smaller than `b` (a run-time size counts as
/// larger than any constant; two of them compare as equal).
bool isLess(Size a, Size b) {
  if (a.isStatic() && b.isStatic())
    return a.constant < b.constant;
  return a.isStatic();
}

bool isOne(Size size) { return size.isStatic() && size.constant == 1; }

/// `base` plus index `a` times `strideA` plus `b` times `strideB`, the
/// larger stride first.
std::string stridedIndex(KernelSizes &sizes, StringRef base, StringRef a,
                         Size strideA, StringRef b, Size strideB) {
  auto term = [&](StringRef name, Size stride) {
    return isOne(stride) ? name.str() : name.str() + " * " + sizes.get(stride);
  };
  if (isLess(strideA, strideB))
    return base.str() + " + " + term(b, strideB) + " + " + term(a, strideA);
  return base.str() + " + " + term(a, strideA) + " + " + term(b, strideB);
}

/// The functions reading A (m x k) and B (k x n) at offsets aBase and
/// bBase with strides `sa` and `sb`, from buffers `a` and `b`. An operand
/// is copied along its column when its column stride is 1 or at most its
/// row stride, else along its rows (transposed).
/// A fused normalization's loadX (`loadAName`) reads A unrounded: loadA
/// rounds the normalized value (addRowNorm).
void addOperandFunctions(GemmProblem &p, const ProductOperand &a,
                         const ProductOperand &b, MatrixStrides sa,
                         MatrixStrides sb, StringRef loadAName = "loadA") {
  std::string ct = glsl::computeType(p.elementType);
  KernelSizes &sizes = *p.sizes;
  std::string aIndex = stridedIndex(sizes, "aBase", "row", sa.row, "k", sa.col);
  std::string bIndex = stridedIndex(sizes, "bBase", "k", sb.row, "col", sb.col);
  ProductOperand aRead = a;
  if (loadAName != "loadA")
    aRead.roundTo = nullptr;
  std::string aValue = loadProductOperand(aRead, "a", aIndex, p.aVector);
  std::string bValue = loadProductOperand(b, "b", bIndex, p.bVector);
  p.functions += ct + " " + loadAName.str() + "(uint row, uint k) { return " +
                 aValue + "; }\n";
  p.functions += ct + " loadB(uint k, uint col) { return " + bValue + "; }\n";
  if (p.aVector)
    p.functions += "vec4 loadA4(uint row, uint k) { return " +
                   loadProductOperand4(a, "a", aIndex) + "; }\n";
  if (p.bVector)
    p.functions += "vec4 loadB4(uint k, uint col) { return " +
                   loadProductOperand4(b, "b", bIndex) + "; }\n";
}

bool isRowMajor(MatrixStrides s) {
  return isOne(s.col) || !isLess(s.row, s.col);
}

MatrixStrides plainStrides(Size cols, bool transposed) {
  return transposed ? MatrixStrides{1, cols} : MatrixStrides{cols, 1};
}

/// Declares A (binding 0) and B (binding 1), as vec4s where the kernel
/// reads them so: the contiguous dimension (stride 1) must hold whole
/// vectors, and every other stride of the operand (`aOther`, `bOther`: the
/// other dimension's and the batch's) must keep them aligned.
void declareOperands(LoweringContext &ctx, GemmProblem &p,
                     const ProductOperand &a, const ProductOperand &b,
                     MatrixStrides sa, MatrixStrides sb, bool aOther = true,
                     bool bOther = true) {
  bool vectors = canLoadVectors(ctx, p.elementType);
  p.aRowMajor = isRowMajor(sa);
  p.bRowMajor = isRowMajor(sb);
  // A size only the run knows may be any: no vectors along or across it.
  auto aligned = [](Size size) {
    return size.isStatic() && size.constant % 4 == 0;
  };
  p.aVector = vectors && aOther &&
              (p.aRowMajor ? isOne(sa.col) && aligned(p.k) && aligned(sa.row)
                           : isOne(sa.row) && aligned(p.m) && aligned(sa.col));
  p.bVector = vectors && bOther &&
              (p.bRowMajor ? isOne(sb.col) && aligned(p.n) && aligned(sb.row)
                           : isOne(sb.row) && aligned(p.k) && aligned(sb.col));
  p.declarations += declareProductOperand(a, 0, "a", p.aVector);
  p.declarations += declareProductOperand(b, 1, "b", p.bVector);
}

/// Operands A and B of the product `op` being lowered, read in the
/// lowering's precision (getProductOperand), which `p` records.
std::pair<ProductOperand, ProductOperand>
getOperands(LoweringContext &ctx, Operation *op, GemmProblem &p) {
  if (p.elementType.isF32())
    p.productType = ctx.getProductType();
  return {getProductOperand(ctx, op->getOperand(0), p.elementType),
          getProductOperand(ctx, op->getOperand(1), p.elementType)};
}

/// Dispatches the product `p` of `op` with operands `a` and `b`.
LogicalResult dispatch(LoweringContext &ctx, StringRef name, Operation *op,
                       const GemmProblem &p, const ProductOperand &a,
                       const ProductOperand &b) {
  Value aView = getProductOperandView(ctx, a);
  Value bView = getProductOperandView(ctx, b);
  if (!aView || !bView)
    return failure();
  return dispatchGemm(ctx, name, p, aView, bView, op->getResult(0));
}

//===----------------------------------------------------------------------===//
// MatMul
//===----------------------------------------------------------------------===//

/// The sizes of `layout`: its base and strides as constants.
SmallVector<Size> toSizes(ArrayRef<int64_t> values) {
  return SmallVector<Size>(values.begin(), values.end());
}

bool isAllOnes(ArrayRef<Size> dims) { return llvm::all_of(dims, isOne); }

bool isSameDims(ArrayRef<Size> a, ArrayRef<Size> b) {
  return a.size() == b.size() &&
         llvm::all_of(llvm::seq<size_t>(0, a.size()),
                      [&](size_t d) { return a[d].isSameAs(b[d]); });
}

LogicalResult generateMatMul(Operation *op, LoweringContext &ctx,
                             const GemmEpilogue *epilogue) {
  auto aType = cast<RankedTensorType>(op->getOperand(0).getType());
  Type et = aType.getElementType();
  if (failed(checkElementType(ctx, et)) || failed(checkBindings(ctx, op)))
    return failure();
  SmallVector<Size> aShape = ctx.getDims(op->getOperand(0));
  SmallVector<Size> bShape = ctx.getDims(op->getOperand(1));
  if (aShape.empty() || bShape.empty())
    return failure();
  KernelSizes sizes(ctx);

  // numpy's promotion of 1-D operands; the result has the same layout.
  bool aVectorOperand = aShape.size() == 1, bVectorOperand = bShape.size() == 1;
  if (aVectorOperand)
    aShape.insert(aShape.begin(), Size(1));
  if (bVectorOperand)
    bShape.push_back(Size(1));
  ArrayRef<Size> aBatch = ArrayRef(aShape).drop_back(2);
  ArrayRef<Size> bBatch = ArrayRef(bShape).drop_back(2);
  unsigned batchRank = std::max(aBatch.size(), bBatch.size());
  // The batch broadcasts; dims only the run knows are checked then.
  SmallVector<Size> batch(batchRank, Size(1));
  for (unsigned i = 0; i < batchRank; ++i) {
    Size a = 1, b = 1;
    if (i + aBatch.size() >= batchRank)
      a = aBatch[i + aBatch.size() - batchRank];
    if (i + bBatch.size() >= batchRank)
      b = bBatch[i + bBatch.size() - batchRank];
    batch[i] = ctx.broadcast(
        a, b,
        "has batch dimensions {0} and {1} at run time, which do not "
        "broadcast");
  }

  // Where each operand's elements are: row-major, or a window of a Split's
  // input and/or the input of a Transpose the MatMul absorbs, read through
  // the permutation (only ever for static shapes).
  auto layoutOf = [&](unsigned i, ArrayRef<Size> shape) {
    if (llvm::all_of(shape, [](Size d) { return d.isStatic(); })) {
      SmallVector<int64_t> dims;
      for (Size d : shape)
        dims.push_back(d.constant);
      return getOperandLayout(op, i, dims);
    }
    return StridedLayout{};
  };
  StridedLayout aLayout = layoutOf(0, aShape);
  StridedLayout bLayout = layoutOf(1, bShape);
  SmallVector<Size> aRowMajor = getStrides(ctx, aShape);
  SmallVector<Size> bRowMajor = getStrides(ctx, bShape);
  SmallVector<Size> aStrides =
      aLayout.strides.empty() ? aRowMajor : toSizes(aLayout.strides);
  SmallVector<Size> bStrides =
      bLayout.strides.empty() ? bRowMajor : toSizes(bLayout.strides);
  bool aPlain = aLayout.base == 0 && isSameDims(aStrides, aRowMajor);
  bool bPlain = bLayout.base == 0 && isSameDims(bStrides, bRowMajor);
  // A Transpose reading only the result makes the kernel store it with
  // permuted strides: the result's dimension perm[d] steps as the
  // Transpose's dimension d does.
  Value stored = epilogue ? epilogue->result : op->getResult(0);
  SmallVector<Size> yStrides;
  if (Operation *transpose = getWrittenTranspose(stored)) {
    SmallVector<int64_t> perm = getPermutation(transpose);
    SmallVector<int64_t> tStrides =
        onnx::getStrides(shapeOf(transpose->getResult(0)));
    yStrides.resize(perm.size());
    for (size_t d = 0; d < perm.size(); ++d)
      yStrides[perm[d]] = tStrides[d];
  }
  MatrixStrides sa = {aStrides[aShape.size() - 2], aStrides.back()};
  MatrixStrides sb = {bStrides[bShape.size() - 2], bStrides.back()};

  GemmProblem p;
  p.sizes = &sizes;
  p.elementType = et;
  p.m = aShape[aShape.size() - 2];
  p.k = ctx.same(aShape.back(), bShape[bShape.size() - 2],
                 "has inner dimensions {0} and {1} at run time, which differ");
  p.n = bShape.back();
  p.batch = getNumElements(ctx, batch);
  p.resultDims = batch;
  if (!aVectorOperand)
    p.resultDims.push_back(p.m);
  if (!bVectorOperand)
    p.resultDims.push_back(p.n);
  std::string prologue;
  // A's matrices stack into one when its batch dimensions step through
  // memory as its rows do.
  bool aStacks = yStrides.empty();
  for (size_t d = 0; d + 2 < aShape.size(); ++d)
    aStacks &= isOne(aShape[d]) || aPlain ||
               aStrides[d].constant ==
                   aStrides[d + 1].constant * aShape[d + 1].constant;
  // vec4 loads need every batch stride a multiple of 4 too.
  auto batchAligned = [](ArrayRef<Size> shape, ArrayRef<Size> strides) {
    for (size_t d = 0; d + 2 < shape.size(); ++d)
      if (!isOne(shape[d]) &&
          !(strides[d].isStatic() && strides[d].constant % 4 == 0))
        return false;
    return true;
  };
  if (isAllOnes(bBatch) && aStacks) {
    // Every product uses the same B: stack A's matrices into one.
    p.m = ctx.mul(p.m, getNumElements(ctx, aBatch));
    p.batch = 1;
    prologue = "  aBase = " + u(aLayout.base) + "; bBase = " + u(bLayout.base) +
               "; yBase = 0u;\n";
  } else {
    prologue = "  yBase = z * " + sizes.get(ctx.mul(p.m, p.n)) + ";\n";
    auto baseOf = [&](ArrayRef<Size> operandBatch, Size matrixSize) {
      if (isAllOnes(operandBatch))
        return std::string("0u");
      if (isSameDims(batch, operandBatch))
        return "z * " + sizes.get(matrixSize);
      std::string index = sizes.broadcastIndex(operandBatch, batchRank, "bz");
      return (llvm::Twine("(") + index + ") * " + sizes.get(matrixSize)).str();
    };
    // An absorbed Transpose's batch offset: each batch coordinate times
    // its stride (static shapes only).
    auto stridedBaseOf = [&](ArrayRef<Size> operandBatch,
                             ArrayRef<Size> strides) {
      std::string base;
      for (size_t d = 0; d < operandBatch.size(); ++d) {
        if (isOne(operandBatch[d]))
          continue;
        base += (base.empty() ? "" : " + ") + std::string("bz") +
                std::to_string(d + batchRank - operandBatch.size()) + " * " +
                sizes.get(strides[d]);
      }
      return base.empty() ? std::string("0u") : base;
    };
    std::string aBase =
        aPlain ? baseOf(aBatch, ctx.mul(p.m, p.k))
               : u(aLayout.base) + " + " + stridedBaseOf(aBatch, aStrides);
    std::string bBase =
        bPlain ? baseOf(bBatch, ctx.mul(p.k, p.n))
               : u(bLayout.base) + " + " + stridedBaseOf(bBatch, bStrides);
    std::string sBase =
        yStrides.empty()
            ? "0u"
            : stridedBaseOf(batch, ArrayRef(yStrides).drop_back(2));
    if (aBase.find("bz") != std::string::npos ||
        bBase.find("bz") != std::string::npos ||
        sBase.find("bz") != std::string::npos)
      prologue += sizes.unflatten(batch, "z", "bz");
    prologue += "  aBase = " + aBase + ";\n  bBase = " + bBase +
                ";\n  sBase = " + sBase + ";\n";
  }
  p.prologue = prologue;

  // A normalization fused into the loads of A (isNormFusedIntoMatMuls):
  // A's view is the norm's input, which loadX reads.
  Operation *norm = getFusedNorm(op, ctx.getTarget());
  auto [a, b] = getOperands(ctx, op, p);
  // vec4 loads need the window's offset a multiple of 4 too.
  declareOperands(ctx, p, a, b, sa, sb,
                  !norm && aLayout.base % 4 == 0 &&
                      batchAligned(aShape, aStrides),
                  bLayout.base % 4 == 0 && batchAligned(bShape, bStrides));
  p.globals = "uint aBase, bBase, yBase, sBase;\n";
  addOperandFunctions(p, a, b, sa, sb, norm ? "loadX" : "loadA");
  if (norm && failed(addRowNorm(ctx, p, norm)))
    return failure();
  p.outputIndex = "yBase + row * " + sizes.get(p.n) + " + col";
  if (stored.hasOneUse())
    if (Operation *split = stored.getUses().begin()->getOwner();
        isSplitWrittenByMatMul(split, ctx.getTarget()))
      p.splitResults.append(split->getResults().begin(),
                            split->getResults().end());
  if (!yStrides.empty())
    p.storeIndex =
        stridedIndex(sizes, "sBase", "row", yStrides[yStrides.size() - 2],
                     "col", yStrides.back());
  p.outputValue = glsl::computeType(et) + " v = acc;";
  p.epilogue = epilogue;
  return dispatch(ctx, "matmul", op, p, a, b);
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
  Type et = aType.getElementType();
  if (failed(checkElementType(ctx, et)) || failed(checkBindings(ctx, op)))
    return failure();
  onnx::OpAttrs attrs(op);
  bool transA = attrs.getInt("transA"), transB = attrs.getInt("transB");
  double alpha = attrs.getFloat("alpha"), beta = attrs.getFloat("beta");
  bool hasC = op->getNumOperands() > 2 && !onnx::isNoValue(op->getOperand(2));
  SmallVector<Size> aDims = ctx.getDims(op->getOperand(0));
  SmallVector<Size> bDims = ctx.getDims(op->getOperand(1));
  if (aDims.empty() || bDims.empty())
    return failure();
  KernelSizes sizes(ctx);

  GemmProblem p;
  p.sizes = &sizes;
  p.elementType = et;
  p.m = aDims[transA ? 1 : 0];
  p.k = ctx.same(aDims[transA ? 0 : 1], bDims[transB ? 1 : 0],
                 "has inner dimensions {0} and {1} at run time, which differ");
  p.n = bDims[transB ? 0 : 1];
  p.resultDims = {p.m, p.n};
  p.prologue = "  aBase = 0u; bBase = 0u;\n";
  MatrixStrides sa = plainStrides(aDims[1], transA);
  MatrixStrides sb = plainStrides(bDims[1], transB);
  auto [a, b] = getOperands(ctx, op, p);
  declareOperands(ctx, p, a, b, sa, sb);
  // With beta = 0, C is not bound at all (the result differs from the
  // reference evaluator's only where C holds an infinity or a NaN).
  bool useC = hasC && beta != 0.0;
  p.globals = "uint aBase, bBase;\n";
  addOperandFunctions(p, a, b, sa, sb);

  FailureOr<std::string> value = scale(ctx, et, alpha, "alpha", "acc");
  if (failed(value))
    return failure();
  std::string ct = glsl::computeType(et);
  p.outputIndex = "row * " + sizes.get(p.n) + " + col";
  if (useC) {
    auto cType = cast<RankedTensorType>(op->getOperand(2).getType());
    SmallVector<Size> cDims = ctx.getDims(op->getOperand(2));
    if (cDims.empty() && cType.getRank() != 0)
      return failure();
    // C broadcasts to the result; a size only the run knows is checked then.
    for (size_t d = 0; d < cDims.size(); ++d)
      if (!cDims[d].isStatic())
        ctx.broadcast(cDims[d], p.resultDims[d + 2 - cDims.size()],
                      "has C of dimension {0} at run time, which does not "
                      "broadcast to {1}");
    std::string cIndex = sizes.broadcastIndex(cDims, 2, "o");
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
  return dispatch(ctx, "gemm", op, p, a, b);
}

LogicalResult generatePlainMatMul(Operation *op, LoweringContext &ctx) {
  return generateMatMul(op, ctx, nullptr);
}
LogicalResult generatePlainGemm(Operation *op, LoweringContext &ctx) {
  return generateGemm(op, ctx, nullptr);
}

const KernelGenerator generators[] = {
    {"onnx.Gemm", generatePlainGemm, /*dynamicDims=*/true},
    {"onnx.MatMul", generatePlainMatMul, /*dynamicDims=*/true},
};

} // namespace

LogicalResult addRowNorm(LoweringContext &ctx, GemmProblem &p,
                         Operation *norm) {
  StringRef name = norm->getName().getStringRef();
  GemmRowNorm rowNorm;
  rowNorm.rms = name != "onnx.LayerNormalization";
  rowNorm.epsilon = onnx::OpAttrs(norm).getFloat("epsilon");
  p.rowNorm = rowNorm;
  bool hasBias = !rowNorm.rms && norm->getNumOperands() > 2 &&
                 !onnx::isNoValue(norm->getOperand(2));
  Type et = p.elementType;
  std::string value =
      rowNorm.rms ? "loadX(row, k)" : "(loadX(row, k) - nStats[nr])";
  value += " * nStats[nr + 1u] * " + glsl::load(et, "nscale", "k");
  for (unsigned i = 1; i < (hasBias ? 3u : 2u); ++i) {
    std::string buffer = i == 1 ? "nscale" : "nbias";
    Value view = ctx.getView(norm->getOperand(i));
    if (!view)
      return failure();
    p.declarations +=
        glsl::buffer(2 + p.loadInputs.size(), gpu::Access::Read, et, buffer);
    p.loadInputs.push_back({buffer, et, view});
  }
  if (hasBias)
    value += " + " + glsl::load(et, "nbias", "k");
  p.functions += "float loadA(uint row, uint k) {\n"
                 "  uint nr = 2u * (row - nRow0);\n"
                 "  return " +
                 roundProductOperand(p.productType, value) + ";\n}\n";
  return success();
}

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

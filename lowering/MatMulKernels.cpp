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
void addOperandFunctions(GemmProblem &p, MatrixStrides sa, MatrixStrides sb,
                         StringRef loadAName = "loadA") {
  Type et = p.elementType;
  std::string ct = glsl::computeType(et);
  KernelSizes &sizes = *p.sizes;
  std::string aIndex = stridedIndex(sizes, "aBase", "row", sa.row, "k", sa.col);
  std::string bIndex = stridedIndex(sizes, "bBase", "k", sb.row, "col", sb.col);
  std::string aValue = p.aVector ? vectorBufferElement("a", aIndex)
                                 : glsl::load(et, "a", aIndex);
  std::string bValue = p.bVector ? vectorBufferElement("b", bIndex)
                                 : glsl::load(et, "b", bIndex);
  p.functions += ct + " " + loadAName.str() + "(uint row, uint k) { return " +
                 aValue + "; }\n";
  p.functions += ct + " loadB(uint k, uint col) { return " + bValue + "; }\n";
  if (p.aVector)
    p.functions += "vec4 loadA4(uint row, uint k) { return a.d[(" + aIndex +
                   ") / 4u]; }\n";
  if (p.bVector)
    p.functions += "vec4 loadB4(uint k, uint col) { return b.d[(" + bIndex +
                   ") / 4u]; }\n";
}

/// Makes `p` normalize A's rows with `norm` as it loads them: its scale
/// and bias are load inputs (bindings 2 and 3), and loadA applies them to
/// loadX with the statistics the kernel computes first (GemmRowNorm).
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
        glsl::buffer(2 + p.loadInputs.size(), Access::Read, et, buffer);
    p.loadInputs.push_back({buffer, et, view});
  }
  if (hasBias)
    value += " + " + glsl::load(et, "nbias", "k");
  p.functions += "float loadA(uint row, uint k) {\n"
                 "  uint nr = 2u * (row - nRow0);\n"
                 "  return " +
                 value + ";\n}\n";
  return success();
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
void declareOperands(LoweringContext &ctx, GemmProblem &p, MatrixStrides sa,
                     MatrixStrides sb, bool aOther = true, bool bOther = true) {
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

/// Ops whose result is their operand's elements in the same order with
/// another shape.
bool isReshapeLike(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "onnx.Reshape" || name == "onnx.Flatten" ||
         name == "onnx.Squeeze" || name == "onnx.Unsqueeze" ||
         name == "onnx.Identity";
}

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// Where the elements of a tensor lie in the memory its view holds:
/// element i is at base + sum(i[d] * strides[d]).
struct StridedLayout {
  int64_t base = 0;
  SmallVector<int64_t> strides;
};

/// The strides of `newShape` over the elements of `oldShape` laid out with
/// `oldStrides` (numpy's reshape without a copy): dimensions are grouped
/// into runs of equal product, and each old run must be contiguous in
/// itself. None if the reshape would need a copy.
std::optional<SmallVector<int64_t>> reshapeStrides(ArrayRef<int64_t> oldShape,
                                                   ArrayRef<int64_t> oldStrides,
                                                   ArrayRef<int64_t> newShape) {
  SmallVector<int64_t> shape, strides;
  for (size_t d = 0; d < oldShape.size(); ++d)
    if (oldShape[d] != 1) {
      shape.push_back(oldShape[d]);
      strides.push_back(oldStrides[d]);
    }
  SmallVector<int64_t> result(newShape.size(), 1);
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newShape.size() && oi < shape.size()) {
    int64_t np = newShape[ni], op = shape[oi];
    while (np != op) {
      if (np < op) {
        if (nj == newShape.size())
          return std::nullopt;
        np *= newShape[nj++];
      } else {
        if (oj == shape.size())
          return std::nullopt;
        op *= shape[oj++];
      }
    }
    for (size_t ok = oi; ok + 1 < oj; ++ok)
      if (strides[ok] != shape[ok + 1] * strides[ok + 1])
        return std::nullopt;
    result[nj - 1] = strides[oj - 1];
    for (size_t nk = nj - 1; nk > ni; --nk)
      result[nk - 1] = result[nk] * newShape[nk];
    ni = nj++;
    oi = oj++;
  }
  return result;
}

/// Whether `use` is operand A or B (of rank 2 or more) of a MatMul lowered
/// to the GEMM kernel, directly or through the argument of a fused body
/// that only its contraction reads.
bool isMatMulOperandUse(OpOperand &operand) {
  OpOperand *use = &operand;
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
         shapeOf(use->get()).size() >= 2 && isGemmContraction(user);
}

/// Whether every reader of `value`, laid out with `strides`, reads it as a
/// MatMul operand: directly, through an absorbed Transpose (any strides
/// permute), or through a reshape whose strides compose.
bool isReadOnlyByMatMuls(Value value, ArrayRef<int64_t> strides) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (isTransposeAbsorbed(user) || isMatMulOperandUse(use))
      continue;
    if (!isReshapeLike(user) || use.getOperandNumber() != 0)
      return false;
    Value result = user->getResult(0);
    if (!cast<RankedTensorType>(result.getType()).hasStaticShape())
      return false;
    std::optional<SmallVector<int64_t>> next =
        reshapeStrides(shapeOf(value), strides, shapeOf(result));
    if (!next || !isReadOnlyByMatMuls(result, *next))
      return false;
  }
  return true;
}

/// Result `i` of Split `split` as a window of its input: the offset of its
/// first element and the input's strides.
StridedLayout getSplitWindow(Operation *split, unsigned i) {
  ArrayRef<int64_t> inShape = shapeOf(split->getOperand(0));
  int64_t axis = onnx::OpAttrs(split).getInt("axis");
  if (axis < 0)
    axis += inShape.size();
  StridedLayout layout;
  layout.strides = onnx::getStrides(inShape);
  for (unsigned r = 0; r < i; ++r)
    layout.base += shapeOf(split->getResult(r))[axis] * layout.strides[axis];
  return layout;
}

/// Where the elements of `value`, an operand a MatMul reads, lie in the
/// memory its view holds: row-major, a window of an absorbed Split, an
/// absorbed Transpose's input permuted, or a reshape of such a window.
StridedLayout getLayout(Value value) {
  Operation *def = value.getDefiningOp();
  if (def && isTransposeAbsorbed(def)) {
    StridedLayout input = getLayout(def->getOperand(0));
    StridedLayout layout{input.base, {}};
    for (int64_t d : getPermutation(def))
      layout.strides.push_back(input.strides[d]);
    return layout;
  }
  if (def && isReshapeLike(def) && isSplitWindow(def->getOperand(0))) {
    // isSplitAbsorbed checked that the strides compose.
    StridedLayout input = getLayout(def->getOperand(0));
    return {input.base, *reshapeStrides(shapeOf(def->getOperand(0)),
                                        input.strides, shapeOf(value))};
  }
  if (def && isSplitAbsorbed(def))
    return getSplitWindow(def, cast<OpResult>(value).getResultNumber());
  return {0, onnx::getStrides(shapeOf(value))};
}

/// The layout of MatMul operand `i` of (promoted) shape `shape`, through a
/// fused body's argument too.
StridedLayout getOperandLayout(Operation *op, unsigned i,
                               ArrayRef<int64_t> shape) {
  Value value = op->getOperand(i);
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (Operation *fused = arg.getOwner()->getParentOp();
        fused && fused->getName().getStringRef() == onnx::kFusedElementwiseName)
      value = fused->getOperand(arg.getArgNumber());
  // A promoted 1-D operand is never a window or transposed.
  if (shapeOf(value).size() != shape.size())
    return {0, onnx::getStrides(shape)};
  return getLayout(value);
}

/// The Transpose that writes-through `stored` (the value a contraction
/// stores) if isTransposeWrittenByMatMul accepts it.
Operation *getWrittenTranspose(Value stored) {
  if (!stored.hasOneUse())
    return nullptr;
  Operation *user = stored.getUses().begin()->getOwner();
  return isTransposeWrittenByMatMul(user) ? user : nullptr;
}

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
  // vec4 loads need the window's offset a multiple of 4 too.
  declareOperands(ctx, p, sa, sb,
                  !norm && aLayout.base % 4 == 0 &&
                      batchAligned(aShape, aStrides),
                  bLayout.base % 4 == 0 && batchAligned(bShape, bStrides));
  p.globals = "uint aBase, bBase, yBase, sBase;\n";
  addOperandFunctions(p, sa, sb, norm ? "loadX" : "loadA");
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
    {"onnx.Gemm", generatePlainGemm, /*dynamicDims=*/true},
    {"onnx.MatMul", generatePlainMatMul, /*dynamicDims=*/true},
};

} // namespace

// Defined with Conv's generator.
LogicalResult lowerConv(Operation *op, LoweringContext &ctx,
                        const GemmEpilogue *epilogue);

bool isTransposeAbsorbed(Operation *op) {
  if (op->getName().getStringRef() != "onnx.Transpose")
    return false;
  // Strides are baked in: a Transpose of sizes known only at run time is a
  // kernel of its own.
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return type && type.getRank() >= 2 && type.hasStaticShape() &&
         op->getResult(0).hasOneUse() &&
         isMatMulOperandUse(*op->getResult(0).getUses().begin());
}

bool isSplitWindow(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isReshapeLike(def))
    return isSplitWindow(def->getOperand(0));
  return isSplitAbsorbed(def);
}

bool isSplitAbsorbed(Operation *op) {
  if (op->getName().getStringRef() != "onnx.Split")
    return false;
  auto inType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!inType || !inType.hasStaticShape() || inType.getNumElements() == 0)
    return false;
  for (unsigned i = 0; i < op->getNumResults(); ++i) {
    Value result = op->getResult(i);
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() == 0 ||
        result.use_empty() ||
        !isReadOnlyByMatMuls(result, getSplitWindow(op, i).strides))
      return false;
  }
  return true;
}

bool isTransposeWrittenByMatMul(Operation *op) {
  if (op->getName().getStringRef() != "onnx.Transpose" ||
      isTransposeAbsorbed(op))
    return false;
  Value input = op->getOperand(0);
  auto type = dyn_cast<RankedTensorType>(input.getType());
  if (!type || type.getRank() < 2 || !type.hasStaticShape() ||
      !input.hasOneUse())
    return false;
  Operation *def = input.getDefiningOp();
  if (def && def->getName().getStringRef() == onnx::kFusedElementwiseName) {
    // The contraction first in the body stores the fused result.
    Block &body = def->getRegion(0).front();
    auto first = llvm::find_if(
        body, [](Operation &inner) { return inner.getNumOperands() != 0; });
    def = first == body.end() ? nullptr : &*first;
  }
  // Both operands of rank 2 or more: the result has the batch dimensions
  // and then m and n.
  return def && def->getName().getStringRef() == "onnx.MatMul" &&
         isGemmContraction(def) && shapeOf(def->getOperand(0)).size() >= 2 &&
         shapeOf(def->getOperand(1)).size() >= 2;
}

Operation *getFusedNorm(Operation *op, const gpu::TargetDesc &target) {
  Value value = op->getOperand(0);
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (Operation *fused = arg.getOwner()->getParentOp();
        fused && fused->getName().getStringRef() == onnx::kFusedElementwiseName)
      value = fused->getOperand(arg.getArgNumber());
  Operation *def = value.getDefiningOp();
  return def && isNormFusedIntoMatMuls(def, target) ? def : nullptr;
}

/// Whether `use` reads a value as A of a MatMulNBits that takes an
/// epilogue, directly or as the argument of a fused body it starts and
/// alone reads. The bindings its kernels need are `bindings`.
static bool isNBitsInputUse(OpOperand &use, unsigned &bindings) {
  Operation *user = use.getOwner();
  unsigned index = use.getOperandNumber();
  bindings = 0;
  if (user->getName().getStringRef() == onnx::kFusedElementwiseName) {
    Block &body = user->getRegion(0).front();
    BlockArgument arg = body.getArgument(index);
    if (!arg.hasOneUse())
      return false;
    OpOperand &inner = *arg.getUses().begin();
    auto first = llvm::find_if(
        body, [](Operation &op) { return op.getNumOperands() != 0; });
    if (first == body.end() || &*first != inner.getOwner())
      return false;
    bindings = user->getNumOperands() + 1;
    user = inner.getOwner();
    index = inner.getOperandNumber();
  } else {
    bindings = isNBitsContraction(user) ? getNumNBitsBindings(user) : 0;
  }
  return index == 0 && isNBitsContraction(user);
}

bool isNormFusedIntoMatMuls(Operation *op, const gpu::TargetDesc &target) {
  StringRef name = op->getName().getStringRef();
  bool layerNorm = name == "onnx.LayerNormalization";
  if (!layerNorm && name != "onnx.RMSNormalization" &&
      name != "onnx.SimplifiedLayerNormalization")
    return false;
  for (Value stats : op->getResults().drop_front())
    if (!stats.use_empty())
      return false;
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type || !type.getElementType().isF32() || type.getRank() < 2 ||
      ShapedType::isDynamic(type.getShape().back()) ||
      type.getShape().back() == 0)
    return false;
  int64_t axis = onnx::OpAttrs(op).getInt("axis");
  if (axis != -1 && axis != type.getRank() - 1)
    return false;
  // Scale and bias hold one value per element of a row.
  unsigned parameters = 1;
  for (unsigned i = 1; i < op->getNumOperands(); ++i) {
    if (onnx::isNoValue(op->getOperand(i)))
      continue;
    auto parameter = dyn_cast<RankedTensorType>(op->getOperand(i).getType());
    if (!parameter || !parameter.hasStaticShape() ||
        !parameter.getElementType().isF32() ||
        parameter.getNumElements() != type.getShape().back())
      return false;
    parameters += i > 1;
  }
  Value result = op->getResult(0);
  bool readByMatMul = false;
  for (OpOperand &use : result.getUses()) {
    // Shape and Size read only its dims, which it keeps from its input (a
    // model exported with symbolic dims reshapes the product's result by
    // the norm's Shape).
    if (isDimsOnlyUse(use))
      continue;
    // MatMulNBits' kernels normalize A as MatMul's do.
    if (unsigned bindings; isNBitsInputUse(use, bindings)) {
      readByMatMul = true;
      if (bindings + parameters > target.maxPerStageDescriptorStorageBuffers)
        return false;
      continue;
    }
    if (!isMatMulOperandUse(use))
      return false;
    readByMatMul = true;
    // A, not B, of the contraction (through the fused body's argument).
    Operation *user = use.getOwner();
    unsigned bindings = getNumGemmBindings(user);
    if (user->getName().getStringRef() == onnx::kFusedElementwiseName) {
      OpOperand &inner = *user->getRegion(0)
                              .front()
                              .getArgument(use.getOperandNumber())
                              .getUses()
                              .begin();
      if (inner.getOperandNumber() != 0)
        return false;
      bindings = user->getNumOperands() + 1;
    } else if (use.getOperandNumber() != 0) {
      return false;
    }
    if (bindings + parameters > target.maxPerStageDescriptorStorageBuffers)
      return false;
  }
  return readByMatMul;
}

bool isSplitWrittenByMatMul(Operation *op, const gpu::TargetDesc &target) {
  if (op->getName().getStringRef() != "onnx.Split" || isSplitAbsorbed(op))
    return false;
  Value input = op->getOperand(0);
  auto type = dyn_cast<RankedTensorType>(input.getType());
  if (!type || type.getRank() < 2 || !input.hasOneUse() ||
      ShapedType::isDynamic(type.getShape().back()))
    return false;
  int64_t axis = onnx::OpAttrs(op).getInt("axis");
  if (axis != -1 && axis != type.getRank() - 1)
    return false;
  for (Value result : op->getResults()) {
    auto part = dyn_cast<RankedTensorType>(result.getType());
    if (!part || ShapedType::isDynamic(part.getShape().back()) ||
        part.getShape().back() == 0)
      return false;
  }
  Operation *def = input.getDefiningOp();
  unsigned bindings = 0;
  if (def && def->getName().getStringRef() == onnx::kFusedElementwiseName) {
    // The contraction first in the body stores the fused result.
    bindings = def->getNumOperands() + 1;
    Block &body = def->getRegion(0).front();
    auto first = llvm::find_if(
        body, [](Operation &inner) { return inner.getNumOperands() != 0; });
    def = first == body.end() ? nullptr : &*first;
  } else if (def) {
    bindings = isNBitsContraction(def) ? getNumNBitsBindings(def)
                                       : getNumGemmBindings(def);
  }
  // MatMulNBits' kernels write the parts as the GEMM kernel does (B, a
  // weight of rank 3, is not the MatMul's).
  bool nbits = def && isNBitsContraction(def);
  // Room for a part per result, and for a fused norm's scale and bias.
  if (!def ||
      (!nbits &&
       (def->getName().getStringRef() != "onnx.MatMul" ||
        !isGemmContraction(def) || shapeOf(def->getOperand(1)).size() < 2)) ||
      shapeOf(def->getOperand(0)).size() < 2 ||
      bindings + op->getNumResults() - 1 + 2 >
          target.maxPerStageDescriptorStorageBuffers)
    return false;
  return true;
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

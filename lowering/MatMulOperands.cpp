//===- MatMulOperands.cpp - How MatMul reads its operands in place -------===//
//
// A MatMul reads its operands through strides, so data movement around it
// costs no dispatch: a Transpose that only MatMuls read is its input read
// with permuted strides (isTransposeAbsorbed), a Split feeding MatMuls is
// windows of its input (isSplitAbsorbed), Reshapes between them compose
// their strides, a Transpose of a MatMul's result is that MatMul storing
// with permuted strides (isTransposeWrittenByMatMul), a MatMul's result
// split along its columns is written part by part (isSplitWrittenByMatMul),
// and a LayerNormalization or RMSNormalization read only by products is
// applied as they load A (isNormFusedIntoMatMuls). The MatMul kernel's
// generator (MatMulKernels.cpp) reads the resulting layouts.
//
//===----------------------------------------------------------------------===//

#include "lowering/MatMulOperands.h"

#include "lowering/BlockQuantizedKernels.h"
#include "lowering/Glsl.h"
#include "lowering/TiledGemm.h"

#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OnnxDialect.h"

#include "ir/Block.h"
#include "ir/Region.h"

namespace onyx::lowering {

namespace {

/// Ops whose result is their operand's elements in the same order with
/// another shape.
bool isReshapeLike(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "onnx.Reshape" || name == "onnx.Flatten" ||
         name == "onnx.Squeeze" || name == "onnx.Unsqueeze" ||
         name == "onnx.Identity";
}

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

} // namespace

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

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

/// The constant whose memory operand `value` of a product reads in place,
/// as its view does: the value itself, or the root of the reshapes,
/// absorbed Transposes and absorbed Splits it is read through (each names
/// the whole memory of its input); null if there is none.
static Value getReadConstant(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (Operation *fused = arg.getOwner()->getParentOp();
        fused && fused->getName().getStringRef() == onnx::kFusedElementwiseName)
      value = fused->getOperand(arg.getArgNumber());
  while (true) {
    if (onnx::getConstantValue(value))
      return value;
    Operation *def = value.getDefiningOp();
    if (!def || !(isReshapeLike(def) || isTransposeAbsorbed(def) ||
                  isSplitAbsorbed(def)))
      return nullptr;
    value = def->getOperand(0);
  }
}

ProductOperand getProductOperand(LoweringContext &ctx, Value value, Type et) {
  Type half = ctx.getProductType();
  if (!half || !et.isF32())
    return {value, nullptr, et, nullptr};
  if (Value constant = getReadConstant(value))
    return {value, constant, half, nullptr};
  return {value, nullptr, et, half};
}

Value getProductOperandView(LoweringContext &ctx,
                            const ProductOperand &operand) {
  if (!operand.weight)
    return ctx.getView(operand.value);
  Value weight = ctx.getConvertedWeight(operand.weight, operand.storedType);
  if (!weight)
    ctx.emitError() << "cannot convert the constant it reads to "
                    << operand.storedType;
  return weight;
}

std::string declareProductOperand(const ProductOperand &operand,
                                  unsigned binding, StringRef name,
                                  bool vector) {
  if (!vector)
    return glsl::buffer(binding, gpu::Access::Read, operand.storedType, name);
  if (!operand.storedType.isF16())
    return vectorBuffer(binding, name);
  std::string b = std::to_string(binding);
  return "layout(set = 0, binding = " + b + ", std430) readonly buffer B" + b +
         " { f16vec4 d[]; } " + name.str() + ";\n";
}

std::string roundProductOperand(Type roundTo, StringRef value) {
  if (!roundTo)
    return value.str();
  return "float(" + glsl::storageType(roundTo) + "(" + value.str() + "))";
}

std::string loadProductOperand(const ProductOperand &operand, StringRef name,
                               StringRef index, bool vector) {
  std::string value = vector ? vectorBufferElement(name, index)
                             : glsl::load(operand.storedType, name, index);
  if (vector && operand.storedType.isF16())
    value = "float(" + value + ")";
  return roundProductOperand(operand.roundTo, value);
}

std::string loadProductOperand4(const ProductOperand &operand, StringRef name,
                                StringRef index) {
  std::string value = name.str() + ".d[(" + index.str() + ") / 4u]";
  if (operand.storedType.isF16())
    return "vec4(" + value + ")";
  if (operand.roundTo)
    return "vec4(f16vec4(" + value + "))";
  return value;
}

} // namespace onyx::lowering

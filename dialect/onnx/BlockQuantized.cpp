//===- BlockQuantized.cpp - MatMulNBits and GatherBlockQuantized ----------===//
//
// ONNX Runtime's contrib ops (domain com.microsoft) for block-quantized
// weights, in which ONNX Runtime GenAI distributes small LLMs; written from
// ONNX Runtime's contrib-op specification (docs/CONTRIB-OPS.md has the
// tables we follow).
//
// MatMulNBits(A, B, scales, zero_points?, g_idx?, bias?) is A [..., K] times
// a K x N weight stored as N rows (one per output column) of ceil(K /
// block_size) blocks of block_size values of `bits` bits, packed along K
// within each block, low bits first (for 4 bits: element 2i in the low
// nibble of byte i). Value k of column n dequantizes to
//   (q[n, k] - zero_point[n, b]) * scale[n, b],   b = k / block_size
// (b = g_idx[k] where g_idx is given), zero points packed the same way per
// row, or floats, or 2^(bits - 1) when absent. Values past K in the last
// block are padding.
//
// GatherBlockQuantized(data, indices, scales, zero_points?) gathers rows of
// a uint8 table packed like B along its last axis (gather_axis 0,
// quantize_axis the last, as ONNX Runtime requires for uint8 data) and
// dequantizes them; an index out of [-rows, rows) gives a row of zeros.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include "llvm/Support/MathExtras.h"

namespace onyx::onnx {

namespace {

/// Whether `value` is a block size the ops accept: a power of two of at
/// least 16.
bool isValidBlockSize(int64_t value) {
  return value >= 16 && llvm::isPowerOf2_64(uint64_t(value));
}

bool isValidBits(int64_t bits) { return bits == 2 || bits == 4 || bits == 8; }

bool sameOrDynamic(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

/// Checks that operand `i` has shape `[n * inner]` or `[n, inner]` (the 1-D
/// form is what older exporters wrote).
LogicalResult checkRowsShape(InferState &s, unsigned i, int64_t n,
                             int64_t inner) {
  ArrayRef<int64_t> shape = s.getShape(i);
  bool fits = (shape.size() == 2 && sameOrDynamic(shape[0], n) &&
               sameOrDynamic(shape[1], inner)) ||
              (shape.size() == 1 && sameOrDynamic(shape[0], n * inner));
  if (!fits)
    return s.emitOperandError(i)
           << "must have shape " << formatShape({n, inner}) << " or "
           << formatShape({n * inner}) << ", got " << s.getType(i);
  return success();
}

/// The value of `bits` bits at element index `index` of packed bytes.
int64_t unpack(ArrayRef<uint8_t> bytes, int64_t index, int64_t bits) {
  int64_t perByte = 8 / bits;
  uint8_t byte = bytes[index / perByte];
  return (byte >> ((index % perByte) * bits)) & ((1 << bits) - 1);
}

//===----------------------------------------------------------------------===//
// MatMulNBits
//===----------------------------------------------------------------------===//

const ValueSpec matMulNBitsOperands[] = {{"A"},
                                         {"B"},
                                         {"scales"},
                                         {"zero_points", Presence::Optional},
                                         {"g_idx", Presence::Optional},
                                         {"bias", Presence::Optional}};
const ValueSpec matMulNBitsResults[] = {{"Y"}};
const AttrSpec matMulNBitsAttrs[] = {requiredAttr("K", AttrType::Int),
                                     requiredAttr("N", AttrType::Int),
                                     intAttr("accuracy_level", 0),
                                     intAttr("bits", 4),
                                     requiredAttr("block_size", AttrType::Int),
                                     intAttr("weight_prepacked", 0)};

LogicalResult inferMatMulNBits(InferState &s) {
  const OpAttrs &attrs = s.getAttrs();
  int64_t k = attrs.getInt("K"), n = attrs.getInt("N");
  int64_t bits = attrs.getInt("bits"), blockSize = attrs.getInt("block_size");
  if (k <= 0 || n <= 0)
    return s.emitError() << "attributes 'K' and 'N' must be positive, got K = "
                         << k << ", N = " << n;
  if (!isValidBits(bits))
    return s.emitAttrError("bits") << "must be 2, 4 or 8, got " << bits;
  if (!isValidBlockSize(blockSize))
    return s.emitAttrError("block_size")
           << "must be a power of two of at least 16, got " << blockSize;
  int64_t level = attrs.getInt("accuracy_level");
  if (level < 0 || level > 4)
    return s.emitAttrError("accuracy_level")
           << "must be between 0 and 4, got " << level;
  if (attrs.getInt("weight_prepacked") != 0)
    return s.emitAttrError("weight_prepacked")
           << "is not supported: B must be in the portable layout (the "
              "prepacked layouts are ONNX Runtime CUDA's)";
  // K and N come from attributes, so every size below is known.
  if (k > (int64_t(1) << 40) || n > (int64_t(1) << 40))
    return s.emitError() << "K and N must be at most 2^40";
  if (failed(s.checkFloat(0)))
    return failure();
  ElementType type = s.getElementKind(0);
  if (type != ElementType::F32 && type != ElementType::F16)
    return s.emitOperandError(0) << "must be f32 or f16, got " << s.getType(0);
  if (s.getRank(0) < 1 || !sameOrDynamic(s.getShape(0).back(), k))
    return s.emitOperandError(0)
           << "must have K = " << k << " as its last dimension, got "
           << s.getType(0);
  int64_t blocks = llvm::divideCeil(k, blockSize);
  int64_t blobSize = blockSize * bits / 8;
  ArrayRef<int64_t> b = s.getShape(1);
  if (s.getElementKind(1) != ElementType::U8 || b.size() != 3 ||
      !sameOrDynamic(b[0], n) || !sameOrDynamic(b[1], blocks) ||
      !sameOrDynamic(b[2], blobSize))
    return s.emitOperandError(1)
           << "must be ui8 of shape [N, ceil(K / block_size), block_size * "
              "bits / 8] = "
           << formatShape({n, blocks, blobSize}) << ", got " << s.getType(1);
  if (failed(s.checkSameElementType(0, 2)) ||
      failed(checkRowsShape(s, 2, n, blocks)))
    return failure();
  if (s.hasOperand(3)) {
    if (s.getElementKind(3) == ElementType::U8) {
      if (failed(checkRowsShape(s, 3, n, llvm::divideCeil(blocks * bits, 8))))
        return failure();
    } else if (s.getElementType(3) != s.getElementType(2)) {
      return s.emitOperandError(3)
             << "must be ui8 (packed) or of the scales' element type, got "
             << s.getType(3);
    } else if (failed(checkRowsShape(s, 3, n, blocks))) {
      return failure();
    }
  }
  if (s.hasOperand(4)) {
    ArrayRef<int64_t> g = s.getShape(4);
    if (s.getElementKind(4) != ElementType::I32 || g.size() != 1 ||
        (!sameOrDynamic(g[0], k) && !sameOrDynamic(g[0], blocks * blockSize)))
      return s.emitOperandError(4)
             << "must be i32 of shape [K] or [ceil(K / block_size) * "
                "block_size], got "
             << s.getType(4);
  }
  if (s.hasOperand(5)) {
    if (failed(s.checkSameElementType(0, 5)))
      return failure();
    if (s.getRank(5) != 1 || !sameOrDynamic(s.getShape(5)[0], n))
      return s.emitOperandError(5)
             << "must have shape [N] = [" << n << "], got " << s.getType(5);
  }
  SmallVector<int64_t> shape(s.getShape(0));
  shape.back() = n;
  s.addResult(shape, s.getElementType(0));
  return success();
}

/// The K x N weight of a MatMulNBits, dequantized, in row-major order.
FailureOr<std::vector<double>> dequantizeMatMulNBits(EvalState &s) {
  const OpAttrs &attrs = s.getAttrs();
  int64_t k = attrs.getInt("K"), n = attrs.getInt("N");
  int64_t bits = attrs.getInt("bits"), blockSize = attrs.getInt("block_size");
  int64_t blocks = llvm::divideCeil(k, blockSize);
  int64_t blobSize = blockSize * bits / 8;
  ArrayRef<uint8_t> b = s.input(1).getValues<uint8_t>();
  Tensor scales = convertTensor(s.input(2), ElementType::F64);
  ArrayRef<double> scale = scales.getValues<double>();
  bool packedZeros =
      s.hasInput(3) && s.input(3).getElementType() == ElementType::U8;
  int64_t zeroRow = llvm::divideCeil(blocks * bits, 8);
  Tensor zeros;
  if (s.hasInput(3))
    zeros =
        packedZeros ? s.input(3) : convertTensor(s.input(3), ElementType::F64);
  std::vector<int64_t> groups;
  if (s.hasInput(4)) {
    for (int32_t g : s.input(4).getValues<int32_t>()) {
      if (g < 0 || g >= blocks)
        return s.emitError() << "g_idx value " << int64_t(g)
                             << " is outside [0, " << blocks << ")";
      groups.push_back(g);
    }
  }
  double defaultZero = double(int64_t(1) << (bits - 1));
  std::vector<double> weight(size_t(k * n));
  for (int64_t col = 0; col < n; ++col) {
    ArrayRef<uint8_t> row = b.slice(col * blocks * blobSize, blocks * blobSize);
    for (int64_t i = 0; i < k; ++i) {
      int64_t block = groups.empty() ? i / blockSize : groups[i];
      double zero = defaultZero;
      if (packedZeros)
        zero = double(unpack(zeros.getValues<uint8_t>().slice(col * zeroRow),
                             block, bits));
      else if (zeros)
        zero = zeros.getValues<double>()[col * blocks + block];
      double q = double(unpack(row, i, bits));
      weight[i * n + col] = (q - zero) * scale[col * blocks + block];
    }
  }
  return weight;
}

LogicalResult evalMatMulNBits(EvalState &s) {
  FailureOr<std::vector<double>> weight = dequantizeMatMulNBits(s);
  if (failed(weight))
    return failure();
  const OpAttrs &attrs = s.getAttrs();
  int64_t k = attrs.getInt("K"), n = attrs.getInt("N");
  const Tensor &a = s.input(0);
  if (a.getShape().back() != k)
    return s.emitError() << "A's last dimension is " << a.getShape().back()
                         << ", not K = " << k;
  Tensor bias;
  if (s.hasInput(5))
    bias = convertTensor(s.input(5), ElementType::F64);
  int64_t rows = a.getNumElements() / k;
  SmallVector<int64_t> shape(a.getShape());
  shape.back() = n;
  F64Evaluation f(s, shape);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t col = 0; col < n; ++col) {
      double acc = bias ? bias.getValues<double>()[col] : 0.0;
      for (int64_t i = 0; i < k; ++i)
        acc += f.x[r * k + i] * (*weight)[i * n + col];
      f.y[r * n + col] = acc;
    }
  }
  f.addOutput();
  return success();
}

/// Leaves out a constant g_idx that maps each k to its own block, k /
/// block_size: the op without it computes the same.
LogicalResult dropTrivialGroupIndex(Operation *op, PatternRewriter &rewriter) {
  if (op->getNumOperands() < 5 || isNoValue(op->getOperand(4)))
    return failure();
  std::optional<SmallVector<int64_t>> groups =
      getConstantInts(op->getOperand(4));
  if (!groups)
    return failure();
  int64_t blockSize = OpAttrs(op).getInt("block_size");
  for (size_t i = 0; i < groups->size(); ++i)
    if ((*groups)[i] != int64_t(i) / blockSize)
      return failure();
  SmallVector<Value> operands(op->getOperands());
  if (operands.size() == 5) {
    operands.pop_back();
  } else {
    Context *ctx = rewriter.getContext();
    OperationState state(op->getLoc(), "onnx.NoValue");
    state.addAttribute("value", UnitAttr::get(ctx));
    state.addTypes(NoneType::get(ctx));
    operands[4] = rewriter.create(state)->getResult(0);
  }
  return replaceWithNewOp(rewriter, op, "onnx.com.microsoft.MatMulNBits",
                          operands, op->getAttrs());
}

/// Add(MatMulNBits(...), c) with c a constant vector of N values (of any
/// rank whose other dims are 1, on either side) is MatMulNBits with bias c,
/// added to the bias it has if that is a constant too: the kernels add the
/// bias as they store, which saves a dispatch per product in a decoder
/// whose linear layers have biases.
LogicalResult absorbBiasAdd(Operation *op, PatternRewriter &rewriter) {
  for (unsigned side = 0; side < 2; ++side) {
    Value product = op->getOperand(side), other = op->getOperand(1 - side);
    Operation *matmul =
        getDefiningOp(product, "onnx.com.microsoft.MatMulNBits");
    if (!matmul || !product.hasOneUse() ||
        !haveSameType(product, op->getResult(0)))
      continue;
    DenseElementsAttr constant = getConstantValue(other);
    auto type = dyn_cast<RankedTensorType>(other.getType());
    auto resultType = cast<RankedTensorType>(product.getType());
    int64_t n = OpAttrs(matmul).getInt("N");
    if (!constant || !type ||
        type.getElementType() != resultType.getElementType() ||
        type.getRank() > resultType.getRank() || type.getNumElements() != n ||
        (type.getRank() > 0 && type.getShape().back() != n))
      continue;
    std::optional<Tensor> add = Tensor::fromAttr(constant);
    if (!add)
      continue;
    Tensor bias = add->reshape({n});
    bool hasBias =
        matmul->getNumOperands() > 5 && !isNoValue(matmul->getOperand(5));
    if (hasBias) {
      DenseElementsAttr old = getConstantValue(matmul->getOperand(5));
      std::optional<Tensor> oldBias =
          old ? Tensor::fromAttr(old) : std::nullopt;
      if (!oldBias)
        continue;
      // Rounded once to the element type, as the Add would round it.
      Tensor sum(bias.getElementType(), {n});
      for (int64_t i = 0; i < n; ++i)
        sum.setDouble(i, oldBias->getDouble(i) + bias.getDouble(i));
      bias = std::move(sum);
    }
    SmallVector<Value> operands(matmul->getOperands());
    SmallVector<Operation *> created;
    Context *ctx = rewriter.getContext();
    while (operands.size() < 5) {
      OperationState state(matmul->getLoc(), "onnx.NoValue");
      state.addAttribute("value", UnitAttr::get(ctx));
      state.addTypes(NoneType::get(ctx));
      created.push_back(rewriter.create(state));
      operands.push_back(created.back()->getResult(0));
    }
    Value biasValue = createConstant(rewriter, op->getLoc(), bias.toAttr(ctx));
    created.push_back(biasValue.getDefiningOp());
    if (operands.size() == 5)
      operands.push_back(biasValue);
    else
      operands[5] = biasValue;
    Operation *fused = createOpOrNull(rewriter, matmul->getLoc(),
                                      "onnx.com.microsoft.MatMulNBits",
                                      operands, matmul->getAttrs());
    if (!fused || !haveSameType(fused->getResult(0), op->getResult(0))) {
      // Leaves the IR as it was.
      if (fused)
        rewriter.eraseOp(fused);
      for (Operation *c : llvm::reverse(created))
        rewriter.eraseOp(c);
      return failure();
    }
    rewriter.replaceOp(op, fused->getResults());
    rewriter.eraseOp(matmul);
    return success();
  }
  return failure();
}

const OpDef matMulNBitsDef = {
    {"onnx.com.microsoft.MatMulNBits", matMulNBitsOperands, matMulNBitsResults,
     matMulNBitsAttrs, OpTrait::Pure},
    inferMatMulNBits,
    evalMatMulNBits,
    nullptr,
    [](PatternSet &patterns, Context *) {
      addPattern(patterns, "onnx.com.microsoft.MatMulNBits",
                 dropTrivialGroupIndex, "drop-trivial-g-idx");
      addPattern(patterns, "onnx.Add", absorbBiasAdd,
                 "absorb-bias-add-into-matmul-nbits");
    },
};

//===----------------------------------------------------------------------===//
// GatherBlockQuantized
//===----------------------------------------------------------------------===//

const ValueSpec gatherBlockOperands[] = {
    {"data"}, {"indices"}, {"scales"}, {"zero_points", Presence::Optional}};
const ValueSpec gatherBlockResults[] = {{"output"}};
const AttrSpec gatherBlockAttrs[] = {
    intAttr("bits", 4), intAttr("block_size", 128), intAttr("gather_axis", 0),
    intAttr("quantize_axis", 1)};

LogicalResult inferGatherBlockQuantized(InferState &s) {
  const OpAttrs &attrs = s.getAttrs();
  int64_t bits = attrs.getInt("bits"), blockSize = attrs.getInt("block_size");
  if (s.getElementKind(0) != ElementType::U8)
    return s.emitOperandError(0)
           << "must be ui8 (values packed along the last axis; int4, uint4 "
              "and float8 tables are not supported), got "
           << s.getType(0);
  if (!isValidBits(bits))
    return s.emitAttrError("bits") << "must be 2, 4 or 8, got " << bits;
  if (!isValidBlockSize(blockSize))
    return s.emitAttrError("block_size")
           << "must be a power of two of at least 16, got " << blockSize;
  if (failed(s.checkMinRank(0, 2)))
    return failure();
  int64_t rank = s.getRank(0);
  int64_t gatherAxis = attrs.getInt("gather_axis");
  int64_t quantizeAxis = attrs.getInt("quantize_axis");
  if (failed(s.normalizeAxis(gatherAxis, rank, "gather_axis")) ||
      failed(s.normalizeAxis(quantizeAxis, rank, "quantize_axis")))
    return failure();
  if (gatherAxis != 0)
    return s.emitAttrError("gather_axis")
           << "must be 0 for ui8 data, got " << attrs.getInt("gather_axis");
  if (quantizeAxis != rank - 1)
    return s.emitAttrError("quantize_axis")
           << "must be the last axis for ui8 data, got "
           << attrs.getInt("quantize_axis");
  ElementType indexType = s.getElementKind(1);
  if (indexType != ElementType::I32 && indexType != ElementType::I64)
    return s.emitOperandError(1) << "must be i32 or i64, got " << s.getType(1);
  ElementType type = s.getElementKind(2);
  if (type != ElementType::F32 && type != ElementType::F16)
    return s.emitOperandError(2) << "must be f32 or f16, got " << s.getType(2);
  ArrayRef<int64_t> data = s.getShape(0);
  int64_t perByte = 8 / bits;
  int64_t length = ShapedType::isDynamic(data.back()) ? ShapedType::kDynamic
                                                      : data.back() * perByte;
  SmallVector<int64_t> scaleShape(data);
  scaleShape.back() = ShapedType::isDynamic(length)
                          ? ShapedType::kDynamic
                          : llvm::divideCeil(length, blockSize);
  auto matches = [](ArrayRef<int64_t> shape, ArrayRef<int64_t> expected) {
    if (shape.size() != expected.size())
      return false;
    for (size_t i = 0; i < shape.size(); ++i)
      if (!sameOrDynamic(shape[i], expected[i]))
        return false;
    return true;
  };
  if (!matches(s.getShape(2), scaleShape))
    return s.emitOperandError(2)
           << "must have shape " << formatShape(scaleShape)
           << " (data's, with ceil(values / block_size) blocks along the "
              "last axis), got "
           << s.getType(2);
  if (s.hasOperand(3)) {
    SmallVector<int64_t> zeroShape(scaleShape);
    if (!ShapedType::isDynamic(zeroShape.back()))
      zeroShape.back() = llvm::divideCeil(zeroShape.back(), perByte);
    if (s.getElementKind(3) != ElementType::U8 ||
        !matches(s.getShape(3), zeroShape))
      return s.emitOperandError(3)
             << "must be ui8 of shape " << formatShape(zeroShape)
             << " (packed like data), got " << s.getType(3);
  }
  SmallVector<int64_t> shape(s.getShape(1));
  shape.append(data.begin() + 1, data.end());
  shape.back() = length;
  s.addResult(shape, s.getElementType(2));
  return success();
}

LogicalResult evalGatherBlockQuantized(EvalState &s) {
  const OpAttrs &attrs = s.getAttrs();
  int64_t bits = attrs.getInt("bits"), blockSize = attrs.getInt("block_size");
  const Tensor &data = s.input(0), &indices = s.input(1);
  ArrayRef<int64_t> dataShape = data.getShape();
  int64_t perByte = 8 / bits;
  int64_t rows = dataShape[0];
  int64_t rowBytes = data.getNumElements() / std::max<int64_t>(rows, 1);
  int64_t lastBytes = dataShape.back();
  int64_t length = lastBytes * perByte;
  int64_t blocks = llvm::divideCeil(length, blockSize);
  int64_t zeroBytes = llvm::divideCeil(blocks, perByte);
  // A row of data is `rowBytes / lastBytes` lines of the last axis.
  int64_t lines = lastBytes ? rowBytes / lastBytes : 0;
  Tensor scales = convertTensor(s.input(2), ElementType::F64);
  ArrayRef<double> scale = scales.getValues<double>();
  ArrayRef<uint8_t> bytes = data.getValues<uint8_t>();
  std::optional<ArrayRef<uint8_t>> zeros;
  if (s.hasInput(3))
    zeros = s.input(3).getValues<uint8_t>();
  SmallVector<int64_t> shape(indices.getShape());
  shape.append(dataShape.begin() + 1, dataShape.end());
  shape.back() = length;
  Tensor out(ElementType::F64, shape);
  MutableArrayRef<double> y = out.getMutableValues<double>();
  int64_t outRow = lines * length;
  for (int64_t i = 0, e = indices.getNumElements(); i < e; ++i) {
    int64_t index = indices.getInt(i);
    if (index < -rows || index >= rows) {
      std::fill_n(y.begin() + i * outRow, outRow, 0.0);
      continue;
    }
    if (index < 0)
      index += rows;
    for (int64_t line = 0; line < lines; ++line) {
      int64_t l = index * lines + line;
      ArrayRef<uint8_t> values = bytes.slice(l * lastBytes, lastBytes);
      for (int64_t j = 0; j < length; ++j) {
        int64_t block = j / blockSize;
        double zero =
            zeros ? double(unpack(zeros->slice(l * zeroBytes), block, bits))
                  : double(int64_t(1) << (bits - 1));
        y[i * outRow + line * length + j] =
            (double(unpack(values, j, bits)) - zero) *
            scale[l * blocks + block];
      }
    }
  }
  s.addOutput(convertTensor(out, s.input(2).getElementType()));
  return success();
}

const OpDef gatherBlockQuantizedDef = {
    {"onnx.com.microsoft.GatherBlockQuantized", gatherBlockOperands,
     gatherBlockResults, gatherBlockAttrs, OpTrait::Pure},
    inferGatherBlockQuantized,
    evalGatherBlockQuantized,
};

} // namespace

void appendBlockQuantizedOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&matMulNBitsDef);
  defs.push_back(&gatherBlockQuantizedDef);
}

} // namespace onyx::onnx

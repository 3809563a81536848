//===- MergeProjections.cpp - onnx-merge-projections ----------------------===//
//
// A decoder layer projects one normalized row three times (queries, keys
// and values; exporters of Llama-style models keep them as separate
// MatMuls) and each projection is a dispatch that reads the row again.
// MatMuls of one A by constant weights become one MatMul by the weights
// side by side (concatenated along n at compile time) and a Split of its
// result along the last axis into the original products, which the GEMM
// kernel writes directly (isSplitWrittenByMatMul): one dispatch, A read
// once. The values are the same: every output element is the same dot
// product.
//
// com.microsoft MatMulNBits of one A are merged alike when they agree on K,
// bits, block size and on which optional inputs they have: B is stored as
// [N, k_blocks, blob], the scales (and float zero points) as N rows of
// k_blocks, uint8 zero points as N rows of ceil(k_blocks * bits / 8) bytes
// (each row byte-aligned) and the bias as N values, so every input of the
// merged product is its parts' inputs one after the other, N outermost, and
// each output column is dequantized exactly as before. The MatMulNBits
// kernels write the Split's results as the GEMM kernel does.
//
// Only products whose results nothing fuses into are merged: an
// elementwise reader (a bias, an activation, the SiLU gate) makes the
// product its kernel's first op (onnx-fuse-elementwise), which a merged
// product could not be for each part.
//
//===----------------------------------------------------------------------===//

#include "lowering/BlockQuantizedKernels.h"
#include "lowering/ElementwiseKernels.h"
#include "lowering/Passes.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"
#include "dialect/onnx/OpSchema.h"
#include "dialect/onnx/Tensor.h"

#include "ir/Block.h"
#include "ir/BuiltinOps.h"

#include "llvm/ADT/MapVector.h"

#include <cstring>

namespace onyx::lowering {

namespace {

class MergeProjections : public PassWrapper<MergeProjections> {
public:
  MergeProjections()
      : PassWrapper(
            "onnx-merge-projections",
            "Merge MatMuls (and MatMulNBits) of one operand by constant "
            "weights into one product and a Split of its result",
            "builtin.module") {}
  void runOnOperation() override;

private:
  void merge(ArrayRef<Operation *> products);
  void mergeNBits(ArrayRef<Operation *> products);
  /// The Split of `merged`'s result into the results of `products`, which
  /// it replaces (erasing them and the constants only they used).
  void splitInto(Operation *merged, ArrayRef<Operation *> products);
  PassStatistic numMerged{this, "num-merged", "MatMuls merged into others"};
};

/// The weights of `op` if it is a MatMul that can be merged: A of rank 2 or
/// more, B a constant matrix (not a splat), both f32, a result of static
/// width that something reads and no elementwise op does.
DenseElementsAttr getMergeableWeights(Operation *op) {
  if (op->getName().getStringRef() != "onnx.MatMul")
    return {};
  auto aType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  DenseElementsAttr weights = onnx::getConstantValue(op->getOperand(1));
  if (!aType || !type || !weights || aType.getRank() < 2 ||
      !aType.getElementType().isF32() || weights.isSplat() ||
      weights.getType().getRank() != 2 || !weights.getElementType().isF32() ||
      ShapedType::isDynamic(type.getShape().back()) ||
      op->getResult(0).use_empty())
    return {};
  for (Operation *user : op->getResult(0).getUsers())
    if (isFusibleElementwise(user))
      return {};
  return weights;
}

/// Whether nothing but non-fusible ops reads `op`'s result, which something
/// reads.
bool hasOnlyUnfusedReaders(Operation *op) {
  if (op->getResult(0).use_empty())
    return false;
  for (Operation *user : op->getResult(0).getUsers())
    if (isFusibleElementwise(user))
      return false;
  return true;
}

/// MatMulNBits' inputs by position.
enum NBitsInput { kA, kB, kScales, kZeros, kGroups, kBias };

bool hasNBitsInput(Operation *op, unsigned i) {
  return op->getNumOperands() > i && !onnx::isNoValue(op->getOperand(i));
}

/// Whether `op` is a MatMulNBits that can be merged: A of rank 2 or more,
/// constant B, scales, zero points and bias, no g_idx, a result that
/// something reads and no elementwise op does.
bool isMergeableNBits(Operation *op) {
  if (op->getName().getStringRef() != "onnx.com.microsoft.MatMulNBits" ||
      !isNBitsContraction(op) || hasNBitsInput(op, kGroups) ||
      !hasOnlyUnfusedReaders(op))
    return false;
  auto aType = dyn_cast<RankedTensorType>(op->getOperand(kA).getType());
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!aType || !type || aType.getRank() < 2 ||
      ShapedType::isDynamic(type.getShape().back()))
    return false;
  for (unsigned i : {kB, kScales, kZeros, kBias})
    if ((i < kZeros || hasNBitsInput(op, i)) &&
        !onnx::getConstantValue(op->getOperand(i)))
      return false;
  return true;
}

/// Whether MatMulNBits `a` and `b` (both mergeable) can be one product:
/// the same sizes along k, quantization, optional inputs and their forms.
bool areMergeableNBits(Operation *a, Operation *b) {
  onnx::OpAttrs x(a), y(b);
  for (StringRef name : {"K", "bits", "block_size"})
    if (x.getInt(name) != y.getInt(name))
      return false;
  for (unsigned i : {kZeros, kBias})
    if (hasNBitsInput(a, i) != hasNBitsInput(b, i))
      return false;
  for (unsigned i : {kB, kScales, kZeros, kBias}) {
    if (!hasNBitsInput(a, i))
      continue;
    auto p = cast<RankedTensorType>(a->getOperand(i).getType());
    auto q = cast<RankedTensorType>(b->getOperand(i).getType());
    if (p.getElementType() != q.getElementType() ||
        p.getRank() != q.getRank() ||
        p.getShape().drop_front() != q.getShape().drop_front())
      return false;
  }
  return cast<RankedTensorType>(a->getResult(0).getType()).getElementType() ==
         cast<RankedTensorType>(b->getResult(0).getType()).getElementType();
}

void MergeProjections::merge(ArrayRef<Operation *> products) {
  Operation *first = products.front();
  Context *ctx = first->getContext();
  SmallVector<DenseElementsAttr> weights;
  SmallVector<int64_t> widths;
  SmallVector<Location> locs;
  int64_t n = 0;
  for (Operation *op : products) {
    weights.push_back(getMergeableWeights(op));
    widths.push_back(weights.back().getType().getShape()[1]);
    locs.push_back(op->getLoc());
    n += widths.back();
  }
  int64_t k = weights.front().getType().getShape()[0];
  // Row r of the merged weights is row r of each, side by side.
  std::vector<char> data(size_t(k) * n * sizeof(float));
  for (int64_t r = 0; r < k; ++r) {
    int64_t column = 0;
    for (auto [w, width] : llvm::zip(weights, widths)) {
      std::memcpy(data.data() + (r * n + column) * sizeof(float),
                  w.getRawData().data() + r * width * sizeof(float),
                  width * sizeof(float));
      column += width;
    }
  }
  auto f32 = FloatType::getF32(ctx);
  auto merged = DenseElementsAttr::getFromRawBuffer(
      RankedTensorType::get({k, n}, f32), ArrayRef<char>(data));
  OpBuilder builder(ctx);
  builder.setInsertionPoint(first);
  Location loc = FusedLoc::get(ctx, locs);
  auto type = cast<RankedTensorType>(first->getResult(0).getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = n;
  OperationState product(loc, "onnx.MatMul");
  product.addOperands(
      {first->getOperand(0), onnx::createConstant(builder, loc, merged)});
  product.addTypes({RankedTensorType::get(shape, f32)});
  splitInto(builder.create(product), products);
}

void MergeProjections::splitInto(Operation *merged,
                                 ArrayRef<Operation *> products) {
  Context *ctx = merged->getContext();
  SmallVector<llvm::APInt> sizes;
  for (Operation *op : products)
    sizes.push_back(llvm::APInt(
        64,
        cast<RankedTensorType>(op->getResult(0).getType()).getShape().back(),
        /*isSigned=*/true));
  auto i64 = IntegerType::get(ctx, 64, IntegerType::Signless);
  auto splitSizes = DenseElementsAttr::get(
      RankedTensorType::get({int64_t(sizes.size())}, i64), sizes);
  OpBuilder builder(ctx);
  builder.setInsertionPointAfter(merged);
  Location loc = merged->getLoc();
  auto type = cast<RankedTensorType>(merged->getResult(0).getType());
  OperationState split(loc, "onnx.Split");
  split.addOperands(
      {merged->getResult(0), onnx::createConstant(builder, loc, splitSizes)});
  split.addAttribute("axis", onnx::getIntAttr(ctx, type.getRank() - 1));
  for (Operation *op : products)
    split.addTypes({op->getResult(0).getType()});
  Operation *parts = builder.create(split);
  for (auto [i, op] : llvm::enumerate(products)) {
    op->getResult(0).replaceAllUsesWith(parts->getResult(i));
    SmallVector<Operation *> inputs;
    for (Value operand : op->getOperands().drop_front())
      if (Operation *def = operand.getDefiningOp())
        inputs.push_back(def);
    op->erase();
    for (Operation *def : inputs)
      if (def->getResult(0).use_empty())
        def->erase();
  }
  numMerged += products.size() - 1;
}

void MergeProjections::mergeNBits(ArrayRef<Operation *> products) {
  Operation *first = products.front();
  Context *ctx = first->getContext();
  int64_t n = 0;
  SmallVector<Location> locs;
  for (Operation *op : products) {
    n += onnx::OpAttrs(op).getInt("N");
    locs.push_back(op->getLoc());
  }
  OpBuilder builder(ctx);
  builder.setInsertionPoint(first);
  Location loc = FusedLoc::get(ctx, locs);
  // Input i of the merged product: the parts' inputs i one after the other
  // (N outermost in each), shaped as the first part's with its first
  // dimension (N, or the flat length) summed.
  auto concat = [&](unsigned i) -> Value {
    SmallVector<onnx::Tensor> parts;
    int64_t outer = 0;
    for (Operation *op : products) {
      std::optional<onnx::Tensor> part =
          onnx::Tensor::fromAttr(onnx::getConstantValue(op->getOperand(i)));
      if (!part)
        return {};
      outer += part->getShape().front();
      parts.push_back(std::move(*part));
    }
    SmallVector<int64_t> shape(parts.front().getShape());
    shape.front() = outer;
    onnx::Tensor whole(parts.front().getElementType(), shape);
    char *out = whole.getMutableBytes().data();
    for (const onnx::Tensor &part : parts) {
      ArrayRef<char> bytes = part.getBytes();
      std::memcpy(out, bytes.data(), bytes.size());
      out += bytes.size();
    }
    return onnx::createConstant(builder, loc, whole.toAttr(ctx));
  };
  auto none = [&]() {
    OperationState state(loc, "onnx.NoValue");
    state.addAttribute("value", UnitAttr::get(ctx));
    state.addTypes(NoneType::get(ctx));
    return builder.create(state)->getResult(0);
  };
  SmallVector<Value> operands = {first->getOperand(kA), concat(kB),
                                 concat(kScales)};
  bool zeros = hasNBitsInput(first, kZeros), bias = hasNBitsInput(first, kBias);
  if (zeros || bias)
    operands.push_back(zeros ? concat(kZeros) : none());
  if (bias) {
    operands.push_back(none());
    operands.push_back(concat(kBias));
  }
  if (llvm::any_of(operands, [](Value v) { return !v; })) {
    // A constant that is not a tensor of known bytes: leave the products.
    for (Value v : ArrayRef(operands).drop_front())
      if (Operation *def = v ? v.getDefiningOp() : nullptr;
          def && def->getResult(0).use_empty())
        def->erase();
    return;
  }
  OperationState product(loc, "onnx.com.microsoft.MatMulNBits");
  product.addOperands(operands);
  for (const NamedAttribute &attr : first->getAttrs())
    product.addAttribute(attr.getName(), attr.getName() == "N"
                                             ? onnx::getIntAttr(ctx, n)
                                             : attr.value);
  auto type = cast<RankedTensorType>(first->getResult(0).getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = n;
  product.addTypes({RankedTensorType::get(shape, type.getElementType())});
  splitInto(builder.create(product), products);
}

void MergeProjections::runOnOperation() {
  SmallVector<FuncOp> funcs;
  for (Operation &op : *cast<ModuleOp>(getOperation()).getBody())
    if (auto func = dyn_cast<FuncOp>(&op); func && !func.isExternal())
      funcs.push_back(func);
  for (FuncOp func : funcs) {
    // The mergeable products of each A, in block order; MatMulNBits in
    // groups that agree on their quantization.
    llvm::MapVector<Value, SmallVector<Operation *>> groups;
    llvm::MapVector<Value, SmallVector<SmallVector<Operation *>, 1>> nbits;
    for (Operation &op : func.front()) {
      if (getMergeableWeights(&op)) {
        groups[op.getOperand(0)].push_back(&op);
        continue;
      }
      if (!isMergeableNBits(&op))
        continue;
      auto &kinds = nbits[op.getOperand(kA)];
      auto *kind = llvm::find_if(kinds, [&](ArrayRef<Operation *> kind) {
        return areMergeableNBits(kind.front(), &op);
      });
      if (kind != kinds.end())
        kind->push_back(&op);
      else
        kinds.push_back({&op});
    }
    for (auto &[a, products] : groups)
      if (products.size() > 1)
        merge(products);
    for (auto &[a, kinds] : nbits)
      for (ArrayRef<Operation *> products : kinds)
        if (products.size() > 1)
          mergeNBits(products);
  }
}

} // namespace

std::unique_ptr<Pass> createMergeProjectionsPass() {
  return std::make_unique<MergeProjections>();
}

} // namespace onyx::lowering

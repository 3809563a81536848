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
// Only products whose results nothing fuses into are merged: an
// elementwise reader (a bias, an activation, the SiLU gate) makes the
// product its kernel's first op (onnx-fuse-elementwise), which a merged
// product could not be for each part.
//
//===----------------------------------------------------------------------===//

#include "lowering/ElementwiseKernels.h"
#include "lowering/Passes.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Block.h"
#include "ir/BuiltinOps.h"

#include "llvm/ADT/MapVector.h"

#include <cstring>

namespace onyx::lowering {

namespace {

class MergeProjections : public Pass {
public:
  MergeProjections() : Pass("builtin.module") {}
  StringRef getArgument() const override { return "onnx-merge-projections"; }
  StringRef getDescription() const override {
    return "Merge MatMuls of one operand by constant weights into one MatMul "
           "and a Split of its result";
  }
  std::unique_ptr<Pass> clone() const override {
    return std::make_unique<MergeProjections>();
  }
  void runOnOperation() override;

private:
  void merge(ArrayRef<Operation *> products);
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
  SmallVector<llvm::APInt> sizes;
  for (int64_t width : widths)
    sizes.push_back(llvm::APInt(64, width, /*isSigned=*/true));
  auto i64 = IntegerType::get(ctx, 64, IntegerType::Signless);
  auto splitSizes = DenseElementsAttr::get(
      RankedTensorType::get({int64_t(widths.size())}, i64), sizes);

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
  Operation *matmul = builder.create(product);
  OperationState split(loc, "onnx.Split");
  split.addOperands(
      {matmul->getResult(0), onnx::createConstant(builder, loc, splitSizes)});
  split.addAttribute("axis", onnx::getIntAttr(ctx, type.getRank() - 1));
  for (Operation *op : products)
    split.addTypes({op->getResult(0).getType()});
  Operation *parts = builder.create(split);
  for (auto [i, op] : llvm::enumerate(products)) {
    op->getResult(0).replaceAllUsesWith(parts->getResult(i));
    Operation *old = op->getOperand(1).getDefiningOp();
    op->erase();
    if (old && old->getResult(0).use_empty())
      old->erase();
  }
  numMerged += products.size() - 1;
}

void MergeProjections::runOnOperation() {
  SmallVector<FuncOp> funcs;
  for (Operation &op : *cast<ModuleOp>(getOperation()).getBody())
    if (auto func = dyn_cast<FuncOp>(&op); func && !func.isExternal())
      funcs.push_back(func);
  for (FuncOp func : funcs) {
    // The mergeable products of each A, in block order.
    llvm::MapVector<Value, SmallVector<Operation *>> groups;
    for (Operation &op : func.front())
      if (getMergeableWeights(&op))
        groups[op.getOperand(0)].push_back(&op);
    for (auto &[a, products] : groups)
      if (products.size() > 1)
        merge(products);
  }
}

} // namespace

std::unique_ptr<Pass> createMergeProjectionsPass() {
  return std::make_unique<MergeProjections>();
}

} // namespace onyx::lowering

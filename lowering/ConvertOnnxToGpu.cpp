//===- ConvertOnnxToGpu.cpp - convert-onnx-to-gpu -------------------------===//
//
// Rewrites each function of onnx ops into what the device does, in order:
// arguments are uploaded into new tensors, constants become weights when a
// kernel first binds them, Reshape-like ops become views of their operand's
// memory (no copy), every other op becomes the dispatches its kernel
// generator (KernelGenerator.h) emits, and results are downloaded and
// returned. Ops folded away earlier emit nothing; constants only shape
// computations used emit nothing either, and shape computations left
// (Shape, Gather, Concat, ... on small integer tensors) become host ops of
// the gpu dialect, evaluated before a run is recorded (ShapeValues.h). New
// tensors are gpu.alloc ops: gpu-plan-buffers places them.
//
//===----------------------------------------------------------------------===//

#include "lowering/KernelGenerator.h"
#include "lowering/Passes.h"
#include "lowering/ShapeValues.h"

#include "dialect/gpu/HostOps.h"
#include "lowering/TiledGemm.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"

#include "ir/Block.h"
#include "ir/BuiltinOps.h"

#include "llvm/ADT/StringExtras.h"

#include <numeric>

namespace onyx::lowering {

namespace {

/// Ops whose result is their first operand's bytes with another shape.
bool isAlias(StringRef name) { return isReshapeLike(name); }

class ConvertOnnxToGpu : public PassWrapper<ConvertOnnxToGpu> {
public:
  ConvertOnnxToGpu()
      : PassWrapper("convert-onnx-to-gpu",
                    "Turn onnx ops into gpu dispatches of generated kernels",
                    "builtin.module") {}
  void runOnOperation() override;

private:
  LogicalResult convertFunction(FuncOp func, LoweringContext &ctx);
  LogicalResult convertOp(Operation *op, LoweringContext &ctx);

  PassOption<std::string> precision{
      this, "precision",
      "The precision of the products (MatMul, Gemm, Conv) of f32 tensors: "
      "f32, or f16 for f16 operands (weights stored as f16) with f32 "
      "accumulation",
      "f32"};
  PassStatistic numKernels{this, "num-kernels", "Kernels generated"};
  PassStatistic numDispatches{this, "num-dispatches", "Dispatches emitted"};
};

LogicalResult ConvertOnnxToGpu::convertOp(Operation *op, LoweringContext &ctx) {
  StringRef name = op->getName().getStringRef();
  ctx.beginOp(op);
  if (name == "onnx.Constant" || name == "onnx.NoValue")
    return success();
  // A Loop of a run-time trip count: a gpu.loop of its body lowered once.
  if (name == "onnx.Loop")
    return lowerLoop(op, ctx,
                     [&](Operation *inner) { return convertOp(inner, ctx); });
  if (op->hasTrait(OpTrait::ReturnLike)) {
    SmallVector<Value> results;
    for (Value operand : op->getOperands()) {
      Value view = ctx.getView(operand);
      if (!view)
        return failure();
      // A cache kept in its state, positions outermost (CacheAppend.cpp).
      SmallVector<int64_t> permutation;
      if (isReadFromCache(operand))
        permutation = {1, 2, 0, 3};
      results.push_back(
          (permutation.empty()
               ? ctx.getBuilder().create<gpu::DownloadOp>(op->getLoc(), view)
               : ctx.getBuilder().create<gpu::DownloadOp>(op->getLoc(), view,
                                                          permutation))
              ->getResult(0));
    }
    ctx.getBuilder().create<ReturnOp>(op->getLoc(), ValueRange(results));
    return success();
  }
  // Data movement a MatMul does itself is not materialized; its results
  // name the operand's memory:
  //  - a Transpose the MatMul reading it absorbs (isTransposeAbsorbed),
  //    read through the permuted strides;
  //  - a Split only MatMuls read (isSplitAbsorbed), and reshapes of its
  //    results, read as windows of the whole input;
  //  - a Transpose of a MatMul's result that the MatMul already stored
  //    permuted (isTransposeWrittenByMatMul), a view of the new shape.
  //  - a Transpose of Attention's Q (isTransposeReadByAttention), read in
  //    place, and of its result (isTransposeWrittenByAttention), stored in
  //    the Transpose's order by the Attention kernel.
  //  - a Transpose only Concats read (isTransposeReadByCopies), copied
  //    from its input through permuted strides, or only RotaryEmbeddings
  //    (isHeadsTransposeReadByRotary), which read its input in place;
  //  - an Expand of a rotary embedding's cos or sin (isExpandReadByRotary),
  //    whose rows the rotary kernel reads as they broadcast;
  //  - a LayerNormalization or RMSNormalization only MatMuls read as A
  //    (isNormFusedIntoMatMuls), which normalize A's rows as they load
  //    them from the norm's input.
  //  - a Split of a MatMul's result that the MatMul wrote part by part
  //    into the Split's results (isSplitWrittenByMatMul).
  if (isSplitWrittenByMatMul(op, ctx.getTarget()))
    return success();
  if (isNormFusedIntoMatMuls(op, ctx.getTarget())) {
    Value view = ctx.getView(op->getOperand(0));
    SmallVector<Size> dims = ctx.getDims(op->getOperand(0));
    if (!view || dims.empty())
      return failure();
    ctx.setResult(op->getResult(0), view);
    ctx.setDims(op->getResult(0), dims);
    return success();
  }
  if (isExpandReadByRotary(op)) {
    Value view = ctx.getView(op->getOperand(0));
    if (!view)
      return failure();
    ctx.setResult(op->getResult(0), view);
    return success();
  }
  if (isTransposeWrittenByAttention(op) || isTransposeReadByCopies(op) ||
      isHeadsTransposeReadByRotary(op)) {
    Value view = ctx.getView(op->getOperand(0));
    SmallVector<Size> dims = ctx.getDims(op->getOperand(0));
    std::optional<SmallVector<int64_t>> perm =
        onnx::OpAttrs(op).getInts("perm");
    SmallVector<int64_t> order(dims.size());
    std::iota(order.rbegin(), order.rend(), 0);
    if (perm)
      order = *perm;
    if (!view || order.size() != dims.size())
      return failure();
    Value result = op->getResult(0);
    // The Attention kernel stores its result permuted: what the view
    // holds is the Transpose's result.
    SmallVector<Size> permuted;
    for (int64_t d : order)
      permuted.push_back(dims[d]);
    ctx.setResult(
        result, ctx.reinterpret(view, cast<RankedTensorType>(result.getType()),
                                permuted));
    return success();
  }
  bool writtenByMatMul = isTransposeWrittenByMatMul(op);
  bool split = isSplitAbsorbed(op);
  if (split || isTransposeAbsorbed(op) || isTransposeReadByAttention(op) ||
      (isAlias(name) && isSplitWindow(op->getResult(0))) || writtenByMatMul) {
    // In half precision the products read a converted copy of a constant
    // (getProductOperand): the constant itself is placed only if read.
    if (ctx.getProductType() && (split || isTransposeAbsorbed(op)) &&
        onnx::getConstantValue(op->getOperand(0))) {
      for (Value result :
           op->getResults().take_front(split ? op->getNumResults() : 1))
        ctx.mapLazily(result, op->getOperand(0));
      return success();
    }
    Value view = ctx.getView(op->getOperand(0));
    if (!view)
      return failure();
    // A Split names its input for every result, the others for their one.
    for (Value result :
         op->getResults().take_front(split ? op->getNumResults() : 1))
      ctx.setResult(result, writtenByMatMul
                                ? ctx.reinterpret(view, cast<RankedTensorType>(
                                                            result.getType()))
                                : view);
    return success();
  }
  // Shape computations run on the host (ShapeValues.h): no kernel, and the
  // result is materialized only if a kernel reads it.
  if (isEvaluatedOnHost(op, ctx) && ctx.getShapeValue(op->getResult(0)))
    return success();
  if (isAlias(name)) {
    if (name == "onnx.Dropout" && op->getNumResults() > 1 &&
        !op->getResult(1).use_empty())
      return op->emitOpError("mask result cannot be lowered (inference mode "
                             "has no use for it)");
    // Only inference mode runs on the GPU: a training_mode known only at
    // run time might ask for the other.
    if (name == "onnx.Dropout" && op->getNumOperands() > 2 &&
        !onnx::isNoValue(op->getOperand(2))) {
      std::optional<SmallVector<int64_t>> mode =
          onnx::getConstantInts(op->getOperand(2));
      if (!mode || llvm::any_of(*mode, [](int64_t m) { return m != 0; }))
        return op->emitOpError("operand 'training_mode' must be a constant "
                               "false to lower the op to GPU kernels");
    }
    return lowerReshapeView(op, ctx);
  }
  if (!name.starts_with("onnx."))
    return op->emitOpError("cannot be lowered to the GPU: only onnx ops can");
  const KernelGenerator *generator = lookupKernelGenerator(name);
  if (!generator)
    return op->emitOpError("has no GPU kernel generator");
  // Empty results need memory of their own but no work.
  if (llvm::all_of(op->getResults(), [](Value r) {
        auto t = dyn_cast<RankedTensorType>(r.getType());
        return t && t.hasStaticShape() && t.getNumElements() == 0;
      })) {
    for (Value r : op->getResults())
      ctx.setResult(r, ctx.allocate(cast<RankedTensorType>(r.getType())));
    return success();
  }
  return generator->generate(op, ctx);
}

LogicalResult ConvertOnnxToGpu::convertFunction(FuncOp func,
                                                LoweringContext &ctx) {
  Block &entry = func.front();
  ctx.setWeightsInsertionPoint(&entry);
  SmallVector<Operation *> ops;
  for (Operation &op : entry)
    ops.push_back(&op);

  OpBuilder builder(func->getContext());
  builder.setInsertionPointToStart(&entry);
  for (BlockArgument arg : entry.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      return func.emitOpError() << "argument of type " << arg.getType()
                                << " is not a tensor the GPU can take";
    if (arg.use_empty())
      continue;
    // A dimension known only at run time is read from the argument.
    SmallVector<Size> dims;
    SmallVector<Value> dynamic;
    for (auto [d, dim] : llvm::enumerate(type.getShape())) {
      if (!ShapedType::isDynamic(dim)) {
        dims.push_back(dim);
        continue;
      }
      dynamic.push_back(
          builder.create<gpu::DimOp>(func->getLoc(), arg, int64_t(d))
              ->getResult(0));
      dims.push_back(dynamic.back());
    }
    ctx.setDims(arg, dims);
    // A cache past already in its state: nothing to upload.
    if (isCacheArgument(arg))
      continue;
    Value view = builder
                     .create<gpu::AllocOp>(func->getLoc(),
                                           gpu::ViewType::get(type), dynamic)
                     ->getResult(0);
    builder.create<gpu::UploadOp>(func->getLoc(), arg, view);
    ctx.map(arg, view);
  }

  for (Operation *op : ops)
    if (op->getName().getStringRef() == "onnx.Loop")
      prepareLoopTripCount(op, ctx);
  for (Operation *op : ops)
    if (onyx::failed(convertOp(op, ctx)))
      return failure();
  // The onnx ops are all replaced; erase them, users first.
  for (Operation *op : llvm::reverse(ops)) {
    for (Value result : op->getResults())
      result.dropAllUses();
    op->erase();
  }
  return success();
}

void ConvertOnnxToGpu::runOnOperation() {
  auto module = cast<ModuleOp>(getOperation());
  FailureOr<gpu::TargetDesc> target =
      gpu::TargetDesc::lookup(module, /*report=*/true);
  if (onyx::failed(target))
    return signalPassFailure();
  // The module records what it was compiled for.
  module->setAttr(gpu::TargetDesc::getAttrName(),
                  target->toAttr(module->getContext()));
  Type productType;
  if (precision.getValue() == "f16") {
    // Half-precision operands are stored as float16_t and converted to and
    // from float: both need the device's 16-bit floats.
    SmallVector<std::string> missing;
    for (gpu::Feature feature :
         {gpu::Feature::Float16, gpu::Feature::StorageBuffer16Bit})
      if (!target->features.contains(feature))
        missing.push_back(gpu::getFeatureName(feature).str());
    if (!missing.empty()) {
      module->emitError() << "precision=f16 needs 16-bit floats, which the "
                             "target lacks (features "
                          << llvm::join(missing, ", ") << ")";
      return signalPassFailure();
    }
    productType = FloatType::getF16(module->getContext());
  } else if (precision.getValue() != "f32") {
    module->emitError() << "unknown precision '" << precision.getValue()
                        << "' (expected f32 or f16)";
    return signalPassFailure();
  }
  for (FuncOp func : getDefinedFunctions(module)) {
    LoweringContext ctx(module, *target);
    ctx.setProductType(productType);
    if (onyx::failed(convertFunction(func, ctx)))
      return signalPassFailure();
    ctx.finish();
    numKernels += ctx.getNumKernelsCreated();
    numDispatches += ctx.getNumDispatches();
  }
}

} // namespace

bool isDimsOnlyUse(OpOperand &use) {
  StringRef name = use.getOwner()->getName().getStringRef();
  return name == "onnx.Shape" || name == "onnx.Size";
}

std::unique_ptr<Pass> createConvertOnnxToGpuPass() {
  return std::make_unique<ConvertOnnxToGpu>();
}

} // namespace onyx::lowering

//===- FillKernels.cpp - Range and ConstantOfShape ------------------------===//
//
// Ops whose results do not depend on their operands' data, except Range's
// scalars. With static shapes, ConstantOfShape folds away during
// canonicalization; where it is still there (a module lowered without
// canonicalizing) a small kernel writes the value. (Shape and Size are
// shape values of the host program, ShapeValues.h.) Range
// computes start + i * delta on the device, in the element type's compute
// type (floats in float, or double for f64; integers exactly). A Range that
// an elementwise tree reads is computed by the tree's kernel instead
// (ElementwiseKernels.cpp), with the count getRangeCount gives here.
//
//===----------------------------------------------------------------------===//
#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"
#include "lowering/KernelSizes.h"

#include "dialect/gpu/HostOps.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Operation.h"

#include <cmath>

namespace onyx::lowering::datamovement {

namespace {

/// The result's type after checking what kernels can hold, and its dims:
/// those known only at run time are the elements of shape value `shape`
/// (null: all are static).
std::optional<std::pair<RankedTensorType, SmallVector<Size>>>
getResultDims(LoweringContext &ctx, Operation *op, Value shape) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (type && !type.hasStaticShape()) {
    std::optional<SmallVector<Size>> dims;
    if (shape)
      dims = ctx.getShapeValue(shape);
    if (!dims || dims->size() != size_t(type.getRank())) {
      ctx.emitError() << "the shape of the result must be computable on the "
                         "host (from constants, shapes and arguments) to "
                         "lower the op";
      return std::nullopt;
    }
    if (!glsl::isSupported(type.getElementType()) ||
        !getByteSize(type.getElementType())) {
      ctx.emitError() << "the result has element type " << type.getElementType()
                      << ", which GPU kernels do not support";
      return std::nullopt;
    }
    for (auto [d, dim] : llvm::enumerate(type.getShape()))
      if (!ShapedType::isDynamic(dim))
        (*dims)[d] = dim;
    return std::make_pair(type, *dims);
  }
  type = checkTensor(ctx, op->getResult(0), "the result");
  if (!type)
    return std::nullopt;
  return std::make_pair(
      type, SmallVector<Size>(type.getShape().begin(), type.getShape().end()));
}

/// Writes `value` (a literal of bitsType(byteSize)) to every element of the
/// result, whose dims are `dims`.
LogicalResult fill(LoweringContext &ctx, Operation *op, unsigned byteSize,
                   StringRef value, RankedTensorType type,
                   ArrayRef<Size> dims) {
  Value out = ctx.allocate(type, dims);
  ctx.setResult(op->getResult(0), out);
  Size total = getNumElements(ctx, dims);
  if (total.isZero())
    return success();
  KernelSizes sizes(ctx);
  std::string count = sizes.get(total);
  KernelSpec spec;
  spec.name = "fill";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::Write};
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() +
              bitsBuffer(0, gpu::Access::Write, byteSize, "y") +
              "void main() {\n"
              "uint i = gl_GlobalInvocationID.x;\n"
              "if (i < " +
              count + ")\ny.d[i] = " + value.str() + ";\n}\n";
  sizes.dispatch(spec, total, {out});
  return success();
}

} // namespace

LogicalResult lowerConstantOfShape(Operation *op, LoweringContext &ctx) {
  Type elementType =
      cast<ShapedType>(op->getResult(0).getType()).getElementType();
  unsigned byteSize = getByteSize(elementType);
  if (!byteSize)
    return ctx.emitError() << "has element type " << elementType
                           << ", which GPU kernels do not support";
  // Without a value the op fills with f32 zeros, whose bits are zero.
  DenseElementsAttr value = onnx::OpAttrs(op).getTensor("value");
  if (value && value.getElementType() != elementType)
    return ctx.emitError() << "has a value of another element type than its "
                              "result";
  auto result = getResultDims(ctx, op, op->getOperand(0));
  if (!result)
    return failure();
  return fill(ctx, op, byteSize,
              value ? bitsLiteral(value, 0) : bitsZero(byteSize), result->first,
              result->second);
}

/// A float Range's bound as an integer of the host program, where it is one:
/// a constant of integral value, or a Cast to the float type of an integer
/// shape value, checked at run time to be exact in that type (within
/// 2^digits), so that the double arithmetic of the reference and the
/// integer arithmetic of the host agree. nullopt otherwise.
static std::optional<Size> getIntegralBound(LoweringContext &ctx,
                                            Value operand) {
  auto type = cast<FloatType>(
      cast<RankedTensorType>(operand.getType()).getElementType());
  if (DenseElementsAttr v = onnx::getConstantValue(operand)) {
    double value = v.getFloatValue(0).convertToDouble();
    if (!(std::abs(value) <= 0x1p53) || value != std::trunc(value))
      return std::nullopt;
    return Size(int64_t(value));
  }
  Operation *cast = operand.getDefiningOp();
  if (!cast || cast->getName().getStringRef() != "onnx.Cast")
    return std::nullopt;
  std::optional<SmallVector<Size>> value =
      ctx.getShapeValue(cast->getOperand(0));
  if (!value)
    return std::nullopt;
  Size v = (*value)[0];
  int64_t limit =
      int64_t(1) << std::min<unsigned>(
          62, llvm::APFloat::semanticsPrecision(type.getFloatSemantics()));
  // One statement per host op: the order of a call's arguments is
  // unspecified, and the IR must not depend on the compiler.
  Size belowLimit = ctx.arith("gpu.lei", v, limit);
  if (failed(ctx.check(ctx.mul(ctx.arith("gpu.lei", -limit, v), belowLimit),
                       "bound {0} is beyond the integers its float type holds "
                       "exactly (magnitude at most {1}) on the GPU",
                       {v, limit})))
    return std::nullopt;
  return v;
}

std::optional<Size> getRangeCount(LoweringContext &ctx, Operation *op,
                                  llvm::function_ref<Value(Value)> outer) {
  Type elementType =
      cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  SmallVector<Value, 3> operands;
  for (Value operand : op->getOperands())
    operands.push_back(outer(operand));
  if (glsl::isFloat(elementType) &&
      llvm::all_of(operands, [](Value v) { return isa<BlockArgument>(v); })) {
    // Float bounds the user gives: the count is a host op reading them.
    return Size(ctx.getBuilder()
                    .create<gpu::RangeCountOp>(ctx.getLoc(), operands[0],
                                               operands[1], operands[2])
                    ->getResult(0));
  }
  std::optional<SmallVector<Size>> start, limit, delta;
  if (glsl::isFloat(elementType)) {
    // Integral float bounds (a window's Range to a Cast size): the count
    // is the integer Range's.
    auto bound = [&](unsigned i) -> std::optional<SmallVector<Size>> {
      if (std::optional<Size> v = getIntegralBound(ctx, operands[i]))
        return SmallVector<Size>{*v};
      return std::nullopt;
    };
    start = bound(0);
    limit = start ? bound(1) : std::nullopt;
    delta = limit ? bound(2) : std::nullopt;
  } else {
    start = ctx.getShapeValue(operands[0]);
    limit = ctx.getShapeValue(operands[1]);
    delta = ctx.getShapeValue(operands[2]);
  }
  if (!start || !limit || !delta || !glsl::isSupported(elementType)) {
    ctx.emitError() << "start, limit and delta must be integers "
                       "computable on the host (from constants, "
                       "shapes and arguments), floats that are "
                       "all arguments, or integral floats (constants "
                       "and Casts of such integers), for a result "
                       "whose length is known only at run time";
    return std::nullopt;
  }
  if (failed(ctx.check(
          ctx.arith("gpu.subi", 1, ctx.arith("gpu.eqi", (*delta)[0], 0)),
          "delta must not be 0")))
    return std::nullopt;
  Size span = ctx.arith("gpu.subi", (*limit)[0], (*start)[0]);
  return ctx.arith("gpu.maxi", ctx.arith("gpu.ceildivi", span, (*delta)[0]), 0);
}

LogicalResult lowerRange(Operation *op, LoweringContext &ctx) {
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType)
    return ctx.emitError() << "the result must be a ranked tensor";
  Type elementType = resultType.getElementType();
  if (elementType.isInteger(1))
    return ctx.emitError() << "has element type i1, which is not numeric";
  // An integer Range's count may be known only at run time: max(ceil((limit
  // - start) / delta), 0) on the host, from its scalars as shape values.
  Size total;
  RankedTensorType type = resultType;
  if (resultType.hasStaticShape()) {
    type = checkTensor(ctx, op->getResult(0), "the result");
    if (!type)
      return failure();
    total = type.getNumElements();
  } else {
    std::optional<Size> count =
        getRangeCount(ctx, op, [](Value v) { return v; });
    if (!count)
      return failure();
    total = *count;
  }
  Value out = ctx.allocate(type, {total});
  ctx.setResult(op->getResult(0), out);
  if (total.isZero())
    return success();
  // Start and delta baked in where they are constants, push constants where
  // they are integers the host computes, read from memory otherwise.
  KernelSizes sizes(ctx);
  SmallVector<Value> bindings;
  std::string buffers;
  std::string c = glsl::computeType(elementType);
  auto scalar = [&](unsigned i, StringRef name) -> std::optional<std::string> {
    Value operand = op->getOperand(i);
    if (DenseElementsAttr v = onnx::getConstantValue(operand)) {
      if (glsl::isFloat(elementType))
        return glsl::literal(elementType, v.getFloatValue(0).convertToDouble());
      bool isUnsigned = cast<IntegerType>(elementType).isUnsigned();
      llvm::APInt bits = v.getIntValue(0);
      return glsl::integerLiteral(elementType,
                                  isUnsigned ? int64_t(bits.getZExtValue())
                                             : bits.getSExtValue());
    }
    if (!glsl::isFloat(elementType) && ctx.hasShapeValue(operand))
      return c + "(" + sizes.getInt((*ctx.getShapeValue(operand))[0]) + ")";
    Value view = ctx.getView(operand);
    if (!view)
      return std::nullopt;
    buffers +=
        glsl::buffer(bindings.size(), gpu::Access::Read, elementType, name);
    bindings.push_back(view);
    return glsl::load(elementType, name, "0");
  };
  std::optional<std::string> start = scalar(0, "startBuffer");
  std::optional<std::string> delta =
      start ? scalar(2, "deltaBuffer") : std::nullopt;
  if (!delta)
    return failure();
  std::string count = sizes.get(total);
  KernelSpec spec;
  spec.name = "range";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings.assign(bindings.size(), gpu::Access::Read);
  spec.bindings.push_back(gpu::Access::Write);
  spec.glsl =
      glsl::header(spec.workgroupSize) + sizes.declaration() + buffers +
      glsl::buffer(bindings.size(), gpu::Access::Write, elementType, "y") +
      "void main() {\n"
      "uint i = gl_GlobalInvocationID.x;\n"
      "if (i >= " +
      count + ") return;\n" + c + " value = " + *start + " + " + c + "(i) * " +
      *delta + ";\n" + glsl::store(elementType, "y", "i", "value") + "\n}\n";
  bindings.push_back(out);
  sizes.dispatch(spec, total, bindings);
  return success();
}

} // namespace onyx::lowering::datamovement

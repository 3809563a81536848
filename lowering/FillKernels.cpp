//===- FillKernels.cpp - Range and ConstantOfShape ------------------------===//
//
// Ops whose results do not depend on their operands' data, except Range's
// scalars. With static shapes, ConstantOfShape folds away during
// canonicalization; where it is still there (a module lowered without
// canonicalizing) a small kernel writes the value. (Shape and Size are
// shape values of the host program, ShapeValues.h.) Range
// computes start + i * delta on the device, in the element type's compute
// type (floats in float, or double for f64; integers exactly).
//
//===----------------------------------------------------------------------===//
#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Operation.h"

namespace onyx::lowering::datamovement {

namespace {

/// The bits of an i64 as a uvec2 literal.
std::string int64Literal(int64_t value) {
  return "uvec2(" + uintLiteral(value) + ", " +
         uintLiteral(int64_t(uint64_t(value) >> 32)) + ")";
}

/// Writes `values` (literals of bitsType(byteSize)) to the result: one
/// value to every element, or one each.
LogicalResult fill(LoweringContext &ctx, Operation *op, unsigned byteSize,
                   ArrayRef<std::string> values) {
  RankedTensorType type = checkTensor(ctx, op->getResult(0), "the result");
  if (!type)
    return failure();
  Value out = ctx.allocate(type);
  ctx.setResult(op->getResult(0), out);
  uint64_t total = type.getNumElements();
  if (total == 0)
    return success();
  if (values.size() != 1 && values.size() != total)
    return ctx.emitError() << "computes " << uint64_t(values.size())
                           << " values for a result of type " << type;
  std::string t = bitsType(byteSize), value = values[0];
  std::string table;
  if (values.size() > 1) {
    table = "const " + t + " values[" + std::to_string(values.size()) +
            "] = " + t + "[](";
    for (size_t i = 0; i < values.size(); ++i)
      table += (i ? ", " : "") + values[i];
    table += ");\n";
    value = "values[i]";
  }
  KernelSpec spec;
  spec.name = "fill";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::Write};
  spec.glsl = glsl::header(spec.workgroupSize) +
              bitsBuffer(0, gpu::Access::Write, byteSize, "y") + table +
              "void main() {\n"
              "uint i = gl_GlobalInvocationID.x;\n"
              "if (i < " +
              uintLiteral(total) +
              ")\n"
              "y.d[i] = " +
              value +
              ";\n"
              "}\n";
  ctx.dispatch(ctx.getOrCreateKernel(spec),
               {glsl::ceilDiv(total, spec.workgroupSize[0]), 1, 1}, {out});
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
  return fill(ctx, op, byteSize,
              {value ? bitsLiteral(value, 0) : bitsZero(byteSize)});
}

LogicalResult lowerRange(Operation *op, LoweringContext &ctx) {
  RankedTensorType type = checkTensor(ctx, op->getResult(0), "the result");
  if (!type)
    return failure();
  Type elementType = type.getElementType();
  if (elementType.isInteger(1))
    return ctx.emitError() << "has element type i1, which is not numeric";
  Value out = ctx.allocate(type);
  ctx.setResult(op->getResult(0), out);
  uint64_t total = type.getNumElements();
  if (total == 0)
    return success();
  // Start and delta baked in where they are constants, read otherwise.
  SmallVector<Value> bindings;
  std::string buffers;
  auto scalar = [&](unsigned i, StringRef name) -> std::optional<std::string> {
    Value operand = op->getOperand(i);
    if (DenseElementsAttr c = onnx::getConstantValue(operand)) {
      if (glsl::isFloat(elementType))
        return glsl::literal(elementType, c.getFloatValue(0).convertToDouble());
      bool isUnsigned = cast<IntegerType>(elementType).isUnsigned();
      llvm::APInt v = c.getIntValue(0);
      return glsl::integerLiteral(elementType, isUnsigned
                                                   ? int64_t(v.getZExtValue())
                                                   : v.getSExtValue());
    }
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
  std::string c = glsl::computeType(elementType);
  KernelSpec spec;
  spec.name = "range";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings.assign(bindings.size(), gpu::Access::Read);
  spec.bindings.push_back(gpu::Access::Write);
  spec.glsl =
      glsl::header(spec.workgroupSize) + buffers +
      glsl::buffer(bindings.size(), gpu::Access::Write, elementType, "y") +
      "void main() {\n"
      "uint i = gl_GlobalInvocationID.x;\n"
      "if (i >= " +
      uintLiteral(total) + ") return;\n" + c + " value = " + *start + " + " +
      c + "(i) * " + *delta + ";\n" +
      glsl::store(elementType, "y", "i", "value") + "\n}\n";
  bindings.push_back(out);
  ctx.dispatch(ctx.getOrCreateKernel(spec),
               {glsl::ceilDiv(total, spec.workgroupSize[0]), 1, 1}, bindings);
  return success();
}

} // namespace onyx::lowering::datamovement

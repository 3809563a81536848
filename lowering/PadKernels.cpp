//===- PadKernels.cpp - Pad and Trilu -------------------------------------===//
//
// Both write every output element from the input element it maps to, or a
// constant where there is none: Pad maps each coordinate through its mode
// (constant, edge, reflect, wrap), Trilu keeps a triangle and writes zeros
// elsewhere. Constants are bits (DataMovement.h), so zero is zero in every
// element type, and a constant_value or k that is not a constant is read
// from its binding.
//
// The begin and end amounts of Pad are expanded from its pads and axes
// operands as dialect/onnx/TilePad.cpp defines them; the result type, which
// the dialect inferred, is checked against them.
//
//===----------------------------------------------------------------------===//
#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering::datamovement {

namespace {

/// GLSL statements turning `int j`, a coordinate of the input that may be
/// out of [0, n), into one inside it as `mode` says; constant mode clears
/// `inside` instead. `lowest` is the smallest value j takes.
std::string mapCoordinate(StringRef mode, std::string j, int64_t n,
                          int64_t lowest) {
  std::string size = std::to_string(n);
  if (mode == "constant")
    return "inside = inside && " + j + " >= 0 && " + j + " < " + size + ";\n";
  if (mode == "edge")
    return j + " = clamp(" + j + ", 0, " + size + " - 1);\n";
  if (n == 1)
    return j + " = 0;\n";
  // GLSL's % is undefined for negative operands: shift j by a multiple of
  // the period that makes it non-negative first.
  int64_t period = mode == "wrap" ? n : 2 * (n - 1);
  int64_t shift = lowest < 0 ? (-lowest + period - 1) / period * period : 0;
  std::string wrapped =
      "(" + j + " + " + std::to_string(shift) + ") % " + std::to_string(period);
  if (mode == "wrap")
    return j + " = " + wrapped + ";\n";
  // Reflect: a mirror image without the edge, of period 2 (n - 1).
  return j + " = " + wrapped + ";\n" + j + " = " + j + " < " + size + " ? " +
         j + " : " + std::to_string(period) + " - " + j + ";\n";
}

} // namespace

LogicalResult lowerPad(Operation *op, LoweringContext &ctx) {
  RankedTensorType inType =
      checkTensor(ctx, op->getOperand(0), "operand 'data'");
  RankedTensorType outType =
      inType ? checkTensor(ctx, op->getResult(0), "the result") : nullptr;
  if (!outType)
    return failure();
  ArrayRef<int64_t> inShape = inType.getShape();
  int64_t rank = inType.getRank();
  StringRef mode = onnx::OpAttrs(op).getString("mode");
  std::optional<SmallVector<int64_t>> pads =
      getConstantOperandInts(ctx, op, 1, "pads");
  if (!pads)
    return failure();
  // As expandPads in dialect/onnx/TilePad.cpp.
  SmallVector<int64_t> axes;
  if (hasOperand(op, 3)) {
    std::optional<SmallVector<int64_t>> given =
        getConstantOperandInts(ctx, op, 3, "axes");
    if (!given)
      return failure();
    for (int64_t axis : *given)
      axes.push_back(axis < 0 ? axis + rank : axis);
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  if (pads->size() != 2 * axes.size())
    return ctx.emitError() << "pads must have two entries per padded axis";
  SmallVector<int64_t> begin(rank, 0), end(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= rank)
      return ctx.emitError() << "pads an axis out of range";
    begin[axes[i]] = (*pads)[i];
    end[axes[i]] = (*pads)[axes.size() + i];
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (inShape[d] + begin[d] + end[d] != outType.getShape()[d])
      return ctx.emitError() << "pads do not give the result type " << outType;
    if (mode != "constant" && inShape[d] == 0 && outType.getShape()[d] > 0)
      return ctx.emitError()
             << "cannot pad an empty dimension in mode " << mode;
    if (mode == "reflect" && inShape[d] == 1 && (begin[d] > 0 || end[d] > 0))
      return ctx.emitError() << "cannot reflect a dimension of size 1";
  }

  unsigned byteSize = getByteSize(inType.getElementType());
  // An empty input (constant mode) is not bound: views are never empty.
  bool empty = inType.getNumElements() == 0;
  SmallVector<Value> bindings;
  if (!empty) {
    Value in = ctx.getView(op->getOperand(0));
    if (!in)
      return failure();
    bindings.push_back(in);
  }
  std::string fill = bitsZero(byteSize);
  int cBinding = -1;
  if (mode == "constant" && hasOperand(op, 2)) {
    if (DenseElementsAttr value = onnx::getConstantValue(op->getOperand(2))) {
      fill = bitsLiteral(value, 0);
    } else {
      Value view = ctx.getView(op->getOperand(2));
      if (!view)
        return failure();
      cBinding = bindings.size();
      bindings.push_back(view);
      fill = "c.d[0]";
    }
  }
  Value out = ctx.allocate(outType);
  ctx.setResult(op->getResult(0), out);
  if (outType.getNumElements() == 0)
    return success();
  bindings.push_back(out);

  // Each output coordinate minus the begin amount is an input coordinate,
  // unless it falls outside, where the mode maps or drops it.
  ArrayRef<int64_t> outShape = outType.getShape();
  SmallVector<int64_t> inStrides = onnx::getStrides(inShape);
  bool constant = mode == "constant";
  std::string map = constant ? "bool inside = true;\n" : "", source;
  for (int64_t d = 0; d < rank; ++d) {
    if (inShape[d] == 1 && !constant)
      continue; // Every coordinate maps to 0.
    std::string j = fmt::format("j{}", d);
    map += "int " + j + " = int(c" + std::to_string(d) + ") - " +
           std::to_string(begin[d]) + ";\n";
    if (begin[d] > 0 || end[d] > 0)
      map += mapCoordinate(mode, j, inShape[d], -begin[d]);
    source += (source.empty() ? "uint(" : " + uint(") + j + ")";
    if (inStrides[d] != 1)
      source += " * " + uintLiteral(inStrides[d]);
  }
  if (source.empty())
    source = "0u";

  KernelSpec spec;
  spec.name = "pad_" + mode.str();
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings.assign(bindings.size(), gpu::Access::Read);
  spec.bindings.back() = gpu::Access::Write;
  std::string code = glsl::header(spec.workgroupSize);
  if (!empty)
    code += bitsBuffer(0, gpu::Access::Read, byteSize, "x");
  if (cBinding >= 0)
    code += bitsBuffer(cBinding, gpu::Access::Read, byteSize, "c");
  uint64_t total = outType.getNumElements();
  std::string body;
  if (empty)
    body = "y.d[i] = " + fill + ";\n";
  else
    body = coordinates(outShape, "i", "c") + map +
           (constant ? "if (inside)\n" : "") + "y.d[i] = x.d[" + source +
           "];\n" + (constant ? "else\ny.d[i] = " + fill + ";\n" : "");
  code += bitsBuffer(bindings.size() - 1, gpu::Access::Write, byteSize, "y") +
          "void main() {\n"
          "uint i = gl_GlobalInvocationID.x;\n"
          "if (i >= " +
          uintLiteral(total) + ") return;\n" + body + "}\n";
  spec.glsl = std::move(code);
  ctx.dispatch(ctx.getOrCreateKernel(spec),
               {glsl::ceilDiv(total, spec.workgroupSize[0]), 1, 1}, bindings);
  return success();
}

LogicalResult lowerTrilu(Operation *op, LoweringContext &ctx) {
  RankedTensorType type =
      checkTensor(ctx, op->getOperand(0), "operand 'input'");
  if (!type || !checkTensor(ctx, op->getResult(0), "the result"))
    return failure();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  bool upper = onnx::OpAttrs(op).getInt("upper");
  Value in = ctx.getView(op->getOperand(0));
  if (!in)
    return failure();
  SmallVector<Value> bindings = {in};
  // Diagonals beyond the matrix keep all or nothing: clamping k there keeps
  // it in 32 bits.
  int64_t bound = rows + cols + 1;
  std::string k = "0";
  std::string kCode;
  if (hasOperand(op, 1)) {
    if (std::optional<SmallVector<int64_t>> value =
            getConstantInts(op->getOperand(1))) {
      k = std::to_string(std::clamp((*value)[0], -bound, bound));
    } else {
      Value view = ctx.getView(op->getOperand(1));
      if (!view)
        return failure();
      bindings.push_back(view);
      k = "k";
      kCode = readIndex(IntegerType::get(ctx.getContext(), 64), "kBuffer", "0",
                        "k") +
              "if (!kFits) k = kWords.y < 0 ? -" + std::to_string(bound) +
              " : " + std::to_string(bound) + ";\nk = clamp(k, -" +
              std::to_string(bound) + ", " + std::to_string(bound) + ");\n";
    }
  }
  Value out = ctx.allocate(type);
  ctx.setResult(op->getResult(0), out);
  if (type.getNumElements() == 0)
    return success();
  bindings.push_back(out);

  unsigned byteSize = getByteSize(type.getElementType());
  uint64_t total = type.getNumElements();
  KernelSpec spec;
  spec.name = upper ? "triu" : "tril";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings.assign(bindings.size(), gpu::Access::Read);
  spec.bindings.back() = gpu::Access::Write;
  std::string code = glsl::header(spec.workgroupSize) +
                     bitsBuffer(0, gpu::Access::Read, byteSize, "x");
  if (bindings.size() == 3)
    code += indexBuffer(1, IntegerType::get(ctx.getContext(), 64), "kBuffer");
  code += bitsBuffer(bindings.size() - 1, gpu::Access::Write, byteSize, "y") +
          "void main() {\n"
          "uint i = gl_GlobalInvocationID.x;\n"
          "if (i >= " +
          uintLiteral(total) + ") return;\n" + kCode + "int col = int(i % " +
          uintLiteral(cols) +
          ");\n"
          "int row = int((i / " +
          uintLiteral(cols) + ") % " + uintLiteral(rows) +
          ");\n"
          "if (col - row " +
          (upper ? ">=" : "<=") + " " + k +
          ")\n"
          "y.d[i] = x.d[i];\n"
          "else\n"
          "y.d[i] = " +
          bitsZero(byteSize) +
          ";\n"
          "}\n";
  spec.glsl = std::move(code);
  ctx.dispatch(ctx.getOrCreateKernel(spec),
               {glsl::ceilDiv(total, spec.workgroupSize[0]), 1, 1}, bindings);
  return success();
}

} // namespace onyx::lowering::datamovement

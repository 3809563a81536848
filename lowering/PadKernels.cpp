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
#include "lowering/ShapeValues.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"
#include "dialect/onnx/SlicePad.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering::datamovement {

namespace {

/// GLSL statements turning `int j`, a coordinate of the input that may be
/// out of [0, n), into one inside it as `mode` says; constant mode clears
/// `inside` instead. `begin` is the padding before: j >= -begin.
std::string mapCoordinate(Symbols &symbols, KernelSizes &sizes, StringRef mode,
                          std::string j, const Poly &n, const Poly &begin) {
  std::string size = symbols.intText(n, sizes);
  if (mode == "constant")
    return "inside = inside && " + j + " >= 0 && " + j + " < " + size + ";\n";
  if (mode == "edge")
    return j + " = clamp(" + j + ", 0, " + size + " - 1);\n";
  if (n.isConstant(1))
    return j + " = 0;\n";
  // GLSL's % is undefined for negative operands: shift j by a multiple of
  // the period that makes it non-negative first (computed on the host for
  // a run-time n, where a period of 0 is an error of the run).
  Poly period = mode == "wrap" ? n : Poly(2) * (n - Poly(1));
  Poly shift(0);
  if (!begin.isStatic())
    shift = symbols.ceilDiv(begin, period) * period;
  else if (begin.getConstant() > 0)
    shift = period.isStatic()
                ? Poly((begin.getConstant() + period.getConstant() - 1) /
                       period.getConstant() * period.getConstant())
                : symbols.ceilDiv(begin, period) * period;
  std::string p = symbols.intText(period, sizes);
  std::string wrapped =
      "(" + j + " + " + symbols.intText(shift, sizes) + ") % " + p;
  if (mode == "wrap")
    return j + " = " + wrapped + ";\n";
  // Reflect: a mirror image without the edge, of period 2 (n - 1).
  return j + " = " + wrapped + ";\n" + j + " = " + j + " < " + size + " ? " +
         j + " : " + p + " - " + j + ";\n";
}

/// Whether a pad amount may add elements.
bool mayBePositive(const Poly &amount) {
  return !amount.isStatic() || amount.getConstant() > 0;
}

} // namespace

LogicalResult lowerPad(Operation *op, LoweringContext &ctx) {
  RankedTensorType inType =
      checkTensor(ctx, op->getOperand(0), "operand 'data'", true);
  RankedTensorType outType =
      inType ? checkTensor(ctx, op->getResult(0), "the result", true) : nullptr;
  if (!outType)
    return failure();
  int64_t rank = inType.getRank();
  StringRef mode = onnx::OpAttrs(op).getString("mode");
  // Pads may be known only at run time (shape values of the host program).
  Symbols symbols(ctx);
  std::optional<SmallVector<Size>> padSizes =
      getOperandSizes(ctx, op, 1, "pads");
  if (!padSizes)
    return failure();
  SmallVector<Poly> pads = symbols.get(*padSizes);
  // Static axes expand as in the dialect (onnx::expandPads). Axes known only
  // at run time make each dimension's amounts a selection among the pads (0
  // where no axis names it).
  std::optional<SmallVector<Size>> given;
  if (hasOperand(op, 3) && !(given = getOperandSizes(ctx, op, 3, "axes")))
    return failure();
  SmallVector<Poly> begin(rank, Poly(0)), end(rank, Poly(0));
  if (!given || llvm::all_of(*given, [](Size a) { return a.isStatic(); })) {
    std::optional<SmallVector<int64_t>> axes;
    if (given)
      axes = llvm::to_vector(
          llvm::map_range(*given, [](Size a) { return a.constant; }));
    FailureOr<SmallVector<Poly>> amounts =
        onnx::expandPads(ArrayRef<Poly>(pads),
                         axes ? std::optional(ArrayRef(*axes)) : std::nullopt,
                         rank, [&] { return ctx.emitError(); });
    if (failed(amounts))
      return failure();
    begin.assign(amounts->begin(), amounts->begin() + rank);
    end.assign(amounts->begin() + rank, amounts->end());
  } else {
    SmallVector<Poly> axes;
    for (Size axis : *given)
      axes.push_back(axis.isStatic() && axis.constant < 0
                         ? Poly(axis.constant + rank)
                         : symbols.get(axis));
    if (pads.size() != 2 * axes.size())
      return ctx.emitError() << "pads must have two entries per padded axis";
    std::optional<SmallVector<Size>> normalized =
        normalizeAxesAtRunTime(ctx, symbols.materialize(axes), rank, "axis");
    if (!normalized || !getAxisFlags(ctx, *normalized, rank))
      return failure();
    for (int64_t d = 0; d < rank; ++d)
      for (size_t i = 0; i < axes.size(); ++i) {
        Poly named = symbols.arith("gpu.eqi", symbols.get((*normalized)[i]), d);
        begin[d] = symbols.select(named, pads[i], begin[d]);
        end[d] = symbols.select(named, pads[axes.size() + i], end[d]);
      }
  }
  // Run-time pads that crop (negative) would need signed push constants.
  for (const Poly &p : pads)
    if (!p.isStatic() &&
        failed(ctx.check(
            symbols.materialize(symbols.arith("gpu.lei", 0, p)),
            "pads known only at run time must not be negative on the GPU, "
            "got {0}",
            {symbols.materialize(p)})))
      return failure();
  SmallVector<Poly> inShape = getDims(symbols, op->getOperand(0));
  if (inShape.size() != size_t(rank))
    return failure();
  SmallVector<Poly> computed;
  for (int64_t d = 0; d < rank; ++d) {
    Poly size = inShape[d] + begin[d] + end[d];
    computed.push_back(size);
    if (!ShapedType::isDynamic(outType.getShape()[d]) &&
        !size.isConstant(outType.getShape()[d]))
      return ctx.emitError() << "pads do not give the result type " << outType;
    if (!inShape[d].isStatic())
      continue;
    if (mode != "constant" && inShape[d].isConstant(0) &&
        outType.getShape()[d] != 0)
      return ctx.emitError()
             << "cannot pad an empty dimension in mode " << mode;
    if (mode != "reflect" || !inShape[d].isConstant(1))
      continue;
    if ((begin[d].isStatic() && begin[d].getConstant() > 0) ||
        (end[d].isStatic() && end[d].getConstant() > 0))
      return ctx.emitError() << "cannot reflect a dimension of size 1";
    // Amounts known only at run time (not negative, checked above) must
    // be 0 there.
    Poly amount = begin[d] + end[d];
    if (!amount.isStatic() &&
        failed(
            ctx.check(symbols.materialize(symbols.arith("gpu.eqi", amount, 0)),
                      "cannot reflect dimension " + std::to_string(d) +
                          " of size 1 by {0} elements",
                      {symbols.materialize(amount)})))
      return failure();
  }
  SmallVector<Poly> outShape = resultDims(outType, computed);

  unsigned byteSize = getByteSize(inType.getElementType());
  // An empty input (constant mode) is not bound: views are never empty.
  bool empty = getNumElements(inShape).isConstant(0);
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
  Value out = allocateResult(symbols, op->getResult(0), outShape);
  Poly total = getNumElements(outShape);
  if (total.isConstant(0))
    return success();
  bindings.push_back(out);

  // Each output coordinate minus the begin amount is an input coordinate,
  // unless it falls outside, where the mode maps or drops it.
  KernelSizes sizes(ctx);
  SmallVector<Poly> inStrides = getStrides(inShape);
  bool constant = mode == "constant";
  std::string map = constant ? "bool inside = true;\n" : "", source;
  for (int64_t d = 0; d < rank; ++d) {
    if (inShape[d].isConstant(1) && !constant)
      continue; // Every coordinate maps to 0.
    std::string j = fmt::format("j{}", d);
    map += "int " + j + " = int(c" + std::to_string(d) + ") - " +
           symbols.intText(begin[d], sizes) + ";\n";
    if (mayBePositive(begin[d]) || mayBePositive(end[d]))
      map += mapCoordinate(symbols, sizes, mode, j, inShape[d], begin[d]);
    source += (source.empty() ? "uint(" : " + uint(") + j + ")";
    if (!inStrides[d].isConstant(1))
      source += " * " + symbols.text(inStrides[d], sizes);
  }
  if (source.empty())
    source = "0u";

  KernelSpec spec;
  spec.name = "pad_" + mode.str();
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings.assign(bindings.size(), gpu::Access::Read);
  spec.bindings.back() = gpu::Access::Write;
  std::string code;
  if (!empty)
    code += bitsBuffer(0, gpu::Access::Read, byteSize, "x");
  if (cBinding >= 0)
    code += bitsBuffer(cBinding, gpu::Access::Read, byteSize, "c");
  std::string body;
  if (empty) {
    body = "y.d[i] = " + fill + ";\n";
  } else if (outShape.empty()) {
    // A scalar has nothing to pad: its one element is copied.
    body = "y.d[i] = x.d[i];\n";
  } else {
    SmallVector<std::string> dims = {""};
    for (const Poly &d : ArrayRef<Poly>(outShape).drop_front())
      dims.push_back(symbols.text(d, sizes));
    body = coordinates(dims, "i", "c") + map +
           (constant ? "if (inside)\n" : "") + "y.d[i] = x.d[" + source +
           "];\n" + (constant ? "else\ny.d[i] = " + fill + ";\n" : "");
  }
  code += bitsBuffer(bindings.size() - 1, gpu::Access::Write, byteSize, "y") +
          "void main() {\n"
          "uint i = gl_GlobalInvocationID.x;\n"
          "if (i >= " +
          symbols.text(total, sizes) + ") return;\n" + body + "}\n";
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() + code;
  dispatchLinear(symbols, spec, sizes, total, bindings);
  return success();
}

LogicalResult lowerTrilu(Operation *op, LoweringContext &ctx) {
  RankedTensorType type =
      checkTensor(ctx, op->getOperand(0), "operand 'input'", true);
  if (!type || !checkTensor(ctx, op->getResult(0), "the result", true))
    return failure();
  Symbols symbols(ctx);
  SmallVector<Poly> shape = getDims(symbols, op->getOperand(0));
  if (shape.size() != size_t(type.getRank()) || shape.size() < 2)
    return failure();
  Poly rows = shape[shape.size() - 2], cols = shape.back();
  bool upper = onnx::OpAttrs(op).getInt("upper");
  Value in = ctx.getView(op->getOperand(0));
  if (!in)
    return failure();
  SmallVector<Value> bindings = {in};
  KernelSizes sizes(ctx);
  // Diagonals beyond the matrix keep all or nothing: clamping k there keeps
  // it in 32 bits. With run-time dims a constant k is clamped to what an
  // int holds, beyond every diagonal of a matrix a kernel can index.
  Poly bound = rows + cols + Poly(1);
  std::string k = "0";
  std::string kCode;
  if (hasOperand(op, 1)) {
    if (std::optional<SmallVector<int64_t>> value =
            getConstantInts(op->getOperand(1))) {
      int64_t limit = bound.isStatic() ? bound.getConstant() : INT32_MAX;
      k = std::to_string(std::clamp((*value)[0], -limit, limit));
    } else {
      Value view = ctx.getView(op->getOperand(1));
      if (!view)
        return failure();
      bindings.push_back(view);
      k = std::string("k");
      std::string b = symbols.intText(bound, sizes);
      kCode = readIndex(IntegerType::get(ctx.getContext(), 64), "kBuffer", "0",
                        "k") +
              "if (!kFits) k = kWords.y < 0 ? -" + b + " : " + b +
              ";\nk = clamp(k, -" + b + ", " + b + ");\n";
    }
  }
  Value out = allocateResult(symbols, op->getResult(0), shape);
  Poly total = getNumElements(shape);
  if (total.isConstant(0))
    return success();
  bindings.push_back(out);

  unsigned byteSize = getByteSize(type.getElementType());
  KernelSpec spec;
  spec.name = upper ? "triu" : "tril";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings.assign(bindings.size(), gpu::Access::Read);
  spec.bindings.back() = gpu::Access::Write;
  std::string code = bitsBuffer(0, gpu::Access::Read, byteSize, "x");
  if (bindings.size() == 3)
    code += indexBuffer(1, IntegerType::get(ctx.getContext(), 64), "kBuffer");
  // Each text in a statement of its own, the last first: a text may create
  // host ops, and the order of a `+`'s operands is unspecified (the host
  // program must not depend on the compiler).
  std::string colsText = symbols.text(cols, sizes);
  std::string rowsText = symbols.text(rows, sizes);
  code += bitsBuffer(bindings.size() - 1, gpu::Access::Write, byteSize, "y") +
          "void main() {\n"
          "uint i = gl_GlobalInvocationID.x;\n"
          "if (i >= " +
          symbols.text(total, sizes) + ") return;\n" + kCode +
          "int col = int(i % " + colsText +
          ");\n"
          "int row = int((i / " +
          colsText + ") % " + rowsText +
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
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() + code;
  dispatchLinear(symbols, spec, sizes, total, bindings);
  return success();
}

} // namespace onyx::lowering::datamovement

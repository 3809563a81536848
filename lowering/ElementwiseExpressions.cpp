//===- ElementwiseExpressions.cpp - One element of a tree as GLSL ---------===//
//
// ExpressionWriter: one statement per op of an elementwise tree, in order.
// A row of the elementwise table is its expression with the operands and
// attributes substituted; a float product by a constant 0 and 0 divided
// keep IEEE's NaN and sign, and conversions of floats to integers saturate
// as the reference backend's do. Also which ops these statements can
// evaluate (isFusibleElementwise, isFusibleIntoTree).
//
//===----------------------------------------------------------------------===//

#include "lowering/ElementwiseExpressions.h"
#include "lowering/ElementwiseKernels.h"
#include "lowering/Glsl.h"

#include "dialect/onnx/Elementwise.h"
#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"

#include <fmt/format.h>

namespace onyx::lowering {

std::string splatLiteral(Value value) {
  DenseElementsAttr attr = onnx::getConstantValue(value);
  if (!attr || !(attr.isSplat() || attr.getNumElements() == 1))
    return {};
  std::optional<onnx::Tensor> t = onnx::Tensor::fromAttr(attr);
  if (!t)
    return {};
  Type type = attr.getElementType();
  if (glsl::isFloat(type))
    return glsl::literal(type, t->getDouble(0));
  return glsl::integerLiteral(type, t->getInt(0));
}

/// Whether `value` is a one-element or splat float constant equal to 0.
static bool isZeroFloatSplat(Value value) {
  DenseElementsAttr attr = onnx::getConstantValue(value);
  if (!attr || !(attr.isSplat() || attr.getNumElements() == 1) ||
      !glsl::isFloat(attr.getElementType()))
    return false;
  std::optional<onnx::Tensor> t = onnx::Tensor::fromAttr(attr);
  return t && t->getDouble(0) == 0.0;
}

std::string ExpressionWriter::get(Value value) {
  auto it = names.find(value);
  if (it != names.end())
    return it->second;
  std::string literal = splatLiteral(value);
  if (literal.empty())
    ctx.emitError() << "elementwise operand has no value in the kernel";
  return literal;
}

std::string ExpressionWriter::define(Value result, const std::string &expr) {
  Type type = elementTypeOf(result);
  std::string name = fmt::format("v{}", counter++);
  std::string typeName = glsl::computeType(type);
  // `precise` keeps results bit-identical to the reference: no FMA
  // contraction or reassociation.
  code += fmt::format("  {}{} {} = {}({});\n",
                      glsl::isFloat(type) ? "precise " : "", typeName, name,
                      typeName, expr);
  names[result] = name;
  return name;
}

/// `$name` in a row's expression: the attribute's value (schema default
/// applied) as GLSL text.
static std::string attributeText(Operation *op, StringRef name,
                                 Type computeAs) {
  onnx::OpAttrs attrs(op);
  const onnx::AttrSpec *spec = attrs.getSchema().lookupAttribute(name);
  if (!spec)
    return {};
  switch (spec->type) {
  case onnx::AttrType::Float:
    return glsl::literal(computeAs, attrs.getFloat(name));
  case onnx::AttrType::Int:
    return std::to_string(attrs.getInt(name));
  case onnx::AttrType::String:
    return attrs.getString(name).str();
  default:
    return {};
  }
}

/// Replaces `$0`, `$1` and `$name` in `pattern`.
static std::string substitute(StringRef pattern, ArrayRef<std::string> args,
                              Operation *op, Type computeAs) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '$') {
      out += pattern[i];
      continue;
    }
    size_t j = i + 1;
    if (j < pattern.size() && isdigit(pattern[j])) {
      out += "(" + args[pattern[j] - '0'] + ")";
      i = j;
      continue;
    }
    while (j < pattern.size() && (isalnum(pattern[j]) || pattern[j] == '_'))
      ++j;
    out += attributeText(op, pattern.slice(i + 1, j), computeAs);
    i = j - 1;
  }
  return out;
}

/// The float variable `value` converted to the integer type `to` as the
/// reference backend converts (onnx::convertElement): NaN gives 0 and a value
/// beyond the type's range its nearest bound, where GLSL leaves the
/// conversion undefined.
static std::string saturatingConvert(Type to, StringRef value) {
  auto type = cast<IntegerType>(to);
  unsigned width = type.getWidth();
  bool isSigned = !type.isUnsigned();
  // -2^(width-1) from unsigned bits: negating INT64_MIN would overflow.
  int64_t lo = isSigned ? int64_t(~uint64_t(0) << (width - 1)) : 0;
  // The largest value as int64 bits: all ones for uint64.
  int64_t hi = isSigned      ? int64_t((uint64_t(1) << (width - 1)) - 1)
               : width == 64 ? int64_t(-1)
                             : int64_t((uint64_t(1) << width) - 1);
  double hiValue = isSigned || width < 64 ? double(hi) : 0x1p64;
  Type f32 = FloatType::getF32(to.getContext());
  // The bounds compare as floats: 2^63 (INT64_MAX rounded up) and above give
  // the maximum, so the last conversion is always in range.
  return fmt::format("isnan({0}) ? {1}(0) : {0} <= {2} ? {3} : {0} >= {4} "
                     "? {5} : {1}({0})",
                     value.str(), glsl::computeType(to),
                     glsl::literal(f32, double(lo)),
                     glsl::integerLiteral(to, lo), glsl::literal(f32, hiValue),
                     glsl::integerLiteral(to, hi));
}

LogicalResult ExpressionWriter::emitRow(Operation *op,
                                        const onnx::ElementwiseInfo &row) {
  SmallVector<std::string> args;
  for (Value operand : op->getOperands()) {
    args.push_back(get(operand));
    if (args.back().empty())
      return failure();
  }
  Type computeAs = elementTypeOf(op->getOperand(0));
  // GLSL's pow takes floats only (no double or integer overloads), and
  // integers do not convert to float implicitly when 64 bits wide.
  if (row.name == "onnx.Pow") {
    for (std::string &arg : args)
      arg = "float(" + arg + ")";
    // An integer base's power converts as the reference backend converts
    // it: 0 to a negative power (infinite), a negative base to a fraction
    // (NaN) and overflowing powers have no defined GLSL conversion.
    // With an integer exponent too, the reference computes exactly and
    // 0 to a negative power is 0 there (as in numpy and ONNX Runtime).
    Type resultType = elementTypeOf(op->getResult(0));
    if (!glsl::isFloat(resultType)) {
      std::string power = fmt::format("v{}", counter++);
      std::string value = substitute(row.shader, args, op, computeAs);
      if (!glsl::isFloat(elementTypeOf(op->getOperand(1))))
        value = fmt::format("({0}) == 0.0 && ({1}) < 0.0 ? 0.0 : {2}", args[0],
                            args[1], value);
      code += fmt::format("  precise float {} = {};\n", power, value);
      define(op->getResult(0), saturatingConvert(resultType, power));
      return success();
    }
  }
  // A float product by a constant 0, and 0 divided, go through onyx_scale
  // and onyx_over: compilers fold them to 0, where an infinite or NaN
  // factor, and a 0 or NaN divisor, give NaN.
  if (row.name == "onnx.Mul" && glsl::isFloat(computeAs))
    for (unsigned i = 0; i < 2; ++i)
      if (isZeroFloatSplat(op->getOperand(i))) {
        define(op->getResult(0),
               fmt::format("onyx_scale({}, {})", args[i], args[1 - i]));
        return success();
      }
  if (row.name == "onnx.Div" && glsl::isFloat(computeAs) &&
      isZeroFloatSplat(op->getOperand(0))) {
    define(op->getResult(0),
           fmt::format("onyx_over({}, {})", args[0], args[1]));
    return success();
  }
  if (row.arity != 0) {
    define(op->getResult(0), substitute(row.shader, args, op, computeAs));
    return success();
  }
  // Variadic: fold left to right; Mean divides by the count.
  // Each step is a variable of its own: expressions may name an operand
  // several times, so pasting the running result would grow
  // exponentially with the operand count.
  Type resultType = elementTypeOf(op->getResult(0));
  std::string typeName = glsl::computeType(resultType);
  std::string acc = args[0];
  for (unsigned i = 1; i < args.size(); ++i) {
    std::string step = substitute(row.shader, {acc, args[i]}, op, computeAs);
    if (i + 1 == args.size()) {
      acc = step;
      break;
    }
    acc = fmt::format("v{}", counter++);
    code += fmt::format("  {}{} {} = {}({});\n",
                        glsl::isFloat(resultType) ? "precise " : "", typeName,
                        acc, typeName, step);
  }
  if (row.name == "onnx.Mean")
    acc = fmt::format("({}) / {}", acc,
                      glsl::literal(computeAs, double(args.size())));
  define(op->getResult(0), acc);
  return success();
}

LogicalResult ExpressionWriter::emit(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name == "onnx.Constant" || name == onnx::kYieldName)
    return success();
  if (const onnx::ElementwiseInfo *row = onnx::lookupElementwiseInfo(name))
    return emitRow(op, *row);
  auto arg = [&](unsigned i) { return get(op->getOperand(i)); };
  if (name == "onnx.Cast") {
    std::string x = arg(0);
    if (x.empty())
      return failure();
    Type from = elementTypeOf(op->getOperand(0));
    Type to = elementTypeOf(op->getResult(0));
    // GLSL leaves a float's conversion to an integer undefined for NaN and
    // out-of-range values (lavapipe gives the signed minimum); the reference
    // backend gives 0 for NaN and saturates the rest.
    if (glsl::isFloat(from) && isa<IntegerType>(to) && !to.isInteger(1)) {
      define(op->getResult(0), saturatingConvert(to, x));
      return success();
    }
    std::string converted = glsl::convert(from, to, x);
    // Narrow floats round here, so that later ops see the rounded value.
    if (to.isF16() && !from.isF16())
      converted =
          "unpackHalf2x16(packHalf2x16(vec2(" + converted + ", 0.0))).x";
    else if (to.isBF16() && !from.isBF16())
      converted = "uintBitsToFloat((floatBitsToUint(" + converted +
                  ") + 0x7fffu + ((floatBitsToUint(" + converted +
                  ") >> 16) & 1u)) & 0xffff0000u)";
    define(op->getResult(0), converted);
    return success();
  }
  if (name == "onnx.Clip") {
    std::string x = arg(0);
    if (x.empty())
      return failure();
    std::string expr = x;
    if (op->getNumOperands() > 1 && !onnx::isNoValue(op->getOperand(1))) {
      std::string lo = arg(1);
      if (lo.empty())
        return failure();
      expr = fmt::format("max({}, {})", expr, lo);
    }
    if (op->getNumOperands() > 2 && !onnx::isNoValue(op->getOperand(2))) {
      std::string hi = arg(2);
      if (hi.empty())
        return failure();
      expr = fmt::format("min({}, {})", expr, hi);
    }
    define(op->getResult(0), expr);
    return success();
  }
  if (name == "onnx.Where") {
    std::string c = arg(0), a = arg(1), b = arg(2);
    if (c.empty() || a.empty() || b.empty())
      return failure();
    define(op->getResult(0), fmt::format("({}) ? ({}) : ({})", c, a, b));
    return success();
  }
  if (name == "onnx.Range") {
    auto index = rangeIndices.find(op->getResult(0));
    std::string start = arg(0), delta = arg(2);
    if (start.empty() || delta.empty())
      return failure();
    if (index == rangeIndices.end())
      return ctx.emitError() << "a Range in an elementwise kernel needs the "
                                "output's coordinates";
    std::string c = glsl::computeType(elementTypeOf(op->getResult(0)));
    define(op->getResult(0), fmt::format("{0}({1}) + {0}({2}) * {0}({3})", c,
                                         start, index->second, delta));
    return success();
  }
  if (name == "onnx.Expand" || name == "onnx.Identity" ||
      name == "onnx.Dropout" || name == "onnx.Unsqueeze") {
    std::string x = arg(0);
    if (x.empty())
      return failure();
    names[op->getResult(0)] = x;
    return success();
  }
  return ctx.emitError() << "'" << name
                         << "' cannot be part of an elementwise kernel";
}

bool isFusibleElementwise(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return false;
  if (onnx::lookupElementwiseInfo(name))
    return true;
  if (name == "onnx.Expand")
    return onnx::getConstantValue(op->getOperand(1)) != nullptr;
  return name == "onnx.Cast" || name == "onnx.Clip" || name == "onnx.Where";
}

bool isFusibleIntoTree(Operation *op) {
  if (isFusibleElementwise(op))
    return true;
  StringRef name = op->getName().getStringRef();
  auto type = op->getNumResults() == 1
                  ? dyn_cast<RankedTensorType>(op->getResult(0).getType())
                  : nullptr;
  if (!type)
    return false;
  if (name == "onnx.Unsqueeze")
    return op->getNumOperands() == 2 &&
           onnx::getConstantInts(op->getOperand(1)).has_value();
  if (name == "onnx.Range")
    return type.getRank() == 1 && !type.getElementType().isInteger(1) &&
           glsl::isSupported(type.getElementType());
  return false;
}

LogicalResult checkElementTypes(ArrayRef<Operation *> ops,
                                LoweringContext &ctx) {
  for (Operation *op : ops)
    for (Value v : op->getResults())
      if (auto t = dyn_cast<RankedTensorType>(v.getType());
          t && !glsl::isSupported(t.getElementType()))
        return ctx.emitError() << "element type " << t.getElementType()
                               << " is not supported by GPU kernels";
  return success();
}

} // namespace onyx::lowering

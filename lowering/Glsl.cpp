//===- Glsl.cpp - Pieces of GLSL that kernel generators share -------------===//

#include "lowering/Glsl.h"

#include "dialect/onnx/Tensor.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <limits>

namespace onyx::lowering::glsl {

namespace {
enum class Kind { F32, F16, BF16, F64, Signed, Unsigned, Bool, Unsupported };
}

static Kind classify(Type t) {
  if (t.isF32())
    return Kind::F32;
  if (t.isF16())
    return Kind::F16;
  if (t.isBF16())
    return Kind::BF16;
  if (t.isF64())
    return Kind::F64;
  if (auto i = dyn_cast<IntegerType>(t)) {
    unsigned w = i.getWidth();
    if (w == 1)
      return Kind::Bool;
    if (w != 8 && w != 16 && w != 32 && w != 64)
      return Kind::Unsupported;
    return i.isUnsigned() ? Kind::Unsigned : Kind::Signed;
  }
  return Kind::Unsupported;
}

static unsigned widthOf(Type t) { return cast<IntegerType>(t).getWidth(); }

bool isSupported(Type t) { return classify(t) != Kind::Unsupported; }

bool isFloat(Type t) {
  Kind k = classify(t);
  return k == Kind::F32 || k == Kind::F16 || k == Kind::BF16 || k == Kind::F64;
}

std::string storageType(Type t) {
  switch (classify(t)) {
  case Kind::F32:
    return "float";
  case Kind::F16:
    return "float16_t";
  case Kind::BF16:
    return "uint16_t";
  case Kind::F64:
    return "double";
  case Kind::Bool:
    return "uint8_t";
  case Kind::Signed:
    switch (widthOf(t)) {
    case 8:
      return "int8_t";
    case 16:
      return "int16_t";
    case 32:
      return "int";
    default:
      return "int64_t";
    }
  case Kind::Unsigned:
    switch (widthOf(t)) {
    case 8:
      return "uint8_t";
    case 16:
      return "uint16_t";
    case 32:
      return "uint";
    default:
      return "uint64_t";
    }
  case Kind::Unsupported:
    break;
  }
  return "<unsupported>";
}

std::string computeType(Type t) {
  switch (classify(t)) {
  case Kind::F32:
  case Kind::F16:
  case Kind::BF16:
    return "float";
  case Kind::F64:
    return "double";
  case Kind::Bool:
    return "bool";
  case Kind::Signed:
    return widthOf(t) == 64 ? "int64_t" : "int";
  case Kind::Unsigned:
    return widthOf(t) == 64 ? "uint64_t" : "uint";
  case Kind::Unsupported:
    break;
  }
  return "<unsupported>";
}

std::string header(std::array<uint32_t, 3> size, ArrayRef<StringRef> extra) {
  std::string s =
      "#version 450\n"
      "#extension GL_EXT_shader_explicit_arithmetic_types : require\n"
      "#extension GL_EXT_shader_16bit_storage : require\n"
      "#extension GL_EXT_shader_8bit_storage : require\n";
  for (StringRef extension : extra)
    s += "#extension " + extension.str() + " : require\n";
  return s + fmt::format("layout(local_size_x = {}, local_size_y = {}, "
                         "local_size_z = {}) in;\n",
                         size[0], size[1], size[2]);
}

void insertAfterHeader(std::string &glsl, StringRef text) {
  size_t at = glsl.find("local_size_z");
  assert(at != std::string::npos && "kernel source without a header");
  glsl.insert(glsl.find('\n', at) + 1, text.str());
}

std::string buffer(unsigned binding, gpu::Access access, Type elementType,
                   StringRef name) {
  StringRef qualifier = access == gpu::Access::Read    ? "readonly "
                        : access == gpu::Access::Write ? "writeonly "
                                                       : "";
  return fmt::format("layout(set = 0, binding = {}, std430) {}buffer B{} {{ "
                     "{} d[]; }} {};\n",
                     binding, qualifier.str(), binding,
                     storageType(elementType), name.str());
}

std::string load(Type t, StringRef name, StringRef index) {
  std::string ref = fmt::format("{}.d[{}]", name.str(), index.str());
  switch (classify(t)) {
  case Kind::F16:
    return "float(" + ref + ")";
  case Kind::BF16:
    return "uintBitsToFloat(uint(" + ref + ") << 16)";
  case Kind::Bool:
    return "(uint(" + ref + ") != 0u)";
  case Kind::Signed:
    return widthOf(t) < 32 ? "int(" + ref + ")" : ref;
  case Kind::Unsigned:
    return widthOf(t) < 32 ? "uint(" + ref + ")" : ref;
  default:
    return ref;
  }
}

std::string store(Type t, StringRef name, StringRef index, StringRef value) {
  std::string ref = fmt::format("{}.d[{}]", name.str(), index.str());
  std::string v = value.str();
  switch (classify(t)) {
  case Kind::F16:
    return ref + " = float16_t(" + v + ");";
  case Kind::BF16:
    // Round to nearest even; NaN stays a (quiet) NaN.
    return "{ float bf_v = " + v +
           "; uint bf_u = floatBitsToUint(bf_v); "
           "bf_u = isnan(bf_v) ? 0x7fc00000u : bf_u + 0x7fffu + "
           "((bf_u >> 16) & 1u); " +
           ref + " = uint16_t(bf_u >> 16); }";
  case Kind::Bool:
    return ref + " = uint8_t((" + v + ") ? 1u : 0u);";
  case Kind::Signed:
  case Kind::Unsigned:
    if (widthOf(t) < 32)
      return ref + " = " + storageType(t) + "(" + v + ");";
    return ref + " = " + v + ";";
  default:
    return ref + " = " + v + ";";
  }
}

std::string convert(Type from, Type to, StringRef value) {
  std::string v = value.str();
  std::string fromType = computeType(from), toType = computeType(to);
  Kind fromKind = classify(from), toKind = classify(to);
  if (toKind == Kind::Bool) {
    if (fromKind == Kind::Bool)
      return v;
    return "((" + v + ") != " + computeType(from) + "(0))";
  }
  if (fromKind == Kind::Bool)
    return toType + "((" + v + ") ? 1 : 0)";
  std::string converted = fromType == toType ? v : toType + "(" + v + ")";
  // Narrow integer results wrap around as the store truncates; wider
  // compute types than storage need the wrap made explicit for Cast
  // between narrow integer types (int8 -> uint8 and back).
  if ((toKind == Kind::Signed || toKind == Kind::Unsigned) && widthOf(to) < 32)
    return computeType(to) + "(" + storageType(to) + "(" + converted + "))";
  return converted;
}

/// Floats as GLSL literals that read back exactly.
static std::string floatText(double v, bool isDouble) {
  if (std::isnan(v))
    return isDouble ? "uint64BitsToDouble(0x7ff8000000000000ul)"
                    : "uintBitsToFloat(0x7fc00000u)";
  if (std::isinf(v)) {
    if (isDouble)
      return v > 0 ? "uint64BitsToDouble(0x7ff0000000000000ul)"
                   : "uint64BitsToDouble(0xfff0000000000000ul)";
    return v > 0 ? "uintBitsToFloat(0x7f800000u)"
                 : "uintBitsToFloat(0xff800000u)";
  }
  if (isDouble)
    return fmt::format("double({:.17e}lf)", v);
  // Exact float bits: a decimal literal rounds through double first.
  return fmt::format("uintBitsToFloat(0x{:08x}u)",
                     std::bit_cast<uint32_t>(float(v)));
}

std::string literal(Type t, double value) {
  switch (classify(t)) {
  case Kind::F32:
  case Kind::F16:
  case Kind::BF16:
    return floatText(value, false);
  case Kind::F64:
    return floatText(value, true);
  case Kind::Bool:
    return value != 0 ? "true" : "false";
  default:
    return integerLiteral(t, int64_t(value));
  }
}

std::string integerLiteral(Type t, int64_t value) {
  switch (classify(t)) {
  case Kind::Signed:
    if (widthOf(t) == 64) {
      if (value == std::numeric_limits<int64_t>::min())
        return "(-9223372036854775807l - 1l)";
      return fmt::format("{}l", value);
    }
    if (value == std::numeric_limits<int32_t>::min())
      return "(-2147483647 - 1)";
    return fmt::format("{}", value);
  case Kind::Unsigned:
    if (widthOf(t) == 64)
      return fmt::format("{}ul", uint64_t(value));
    return fmt::format("{}u", uint32_t(value));
  case Kind::Bool:
    return value ? "true" : "false";
  default:
    return literal(t, double(value));
  }
}

std::string uintLiteral(int64_t value) {
  if (value < 0)
    return fmt::format("{}u", uint32_t(uint64_t(value)));
  return fmt::format("{}u", value);
}

std::string lowest(Type t) {
  switch (classify(t)) {
  case Kind::Signed:
    return integerLiteral(
        t, widthOf(t) == 64   ? std::numeric_limits<int64_t>::min()
           : widthOf(t) == 32 ? std::numeric_limits<int32_t>::min()
           : widthOf(t) == 16 ? -32768
                              : -128);
  case Kind::Unsigned:
    return integerLiteral(t, 0);
  case Kind::Bool:
    return "false";
  default:
    return literal(t, -std::numeric_limits<double>::infinity());
  }
}

std::string highest(Type t) {
  switch (classify(t)) {
  case Kind::Signed:
    return integerLiteral(
        t, widthOf(t) == 64   ? std::numeric_limits<int64_t>::max()
           : widthOf(t) == 32 ? std::numeric_limits<int32_t>::max()
           : widthOf(t) == 16 ? 32767
                              : 127);
  case Kind::Unsigned:
    switch (widthOf(t)) {
    case 64:
      return "18446744073709551615ul";
    case 32:
      return "4294967295u";
    case 16:
      return "65535u";
    default:
      return "255u";
    }
  case Kind::Bool:
    return "true";
  default:
    return literal(t, std::numeric_limits<double>::infinity());
  }
}

std::string unflatten(ArrayRef<int64_t> shape, StringRef flat,
                      StringRef prefix) {
  std::string code;
  SmallVector<int64_t> s = onnx::getStrides(shape);
  std::string rest = fmt::format("({})", flat.str());
  for (unsigned d = 0; d < shape.size(); ++d) {
    std::string name = fmt::format("{}{}", prefix.str(), d);
    if (shape[d] == 1) {
      code += fmt::format("  uint {} = 0u;\n", name);
      continue;
    }
    if (d == 0)
      code += fmt::format("  uint {} = {} / {}u;\n", name, rest, s[d]);
    else
      code += fmt::format("  uint {} = ({} / {}u) % {}u;\n", name, rest, s[d],
                          shape[d]);
  }
  return code;
}

std::string broadcastIndex(ArrayRef<int64_t> inputShape, unsigned outputRank,
                           StringRef prefix) {
  SmallVector<int64_t> s = onnx::getStrides(inputShape);
  unsigned offset = outputRank - inputShape.size();
  std::string expr;
  for (unsigned d = 0; d < inputShape.size(); ++d) {
    if (inputShape[d] == 1)
      continue;
    if (!expr.empty())
      expr += " + ";
    std::string coord = fmt::format("{}{}", prefix.str(), d + offset);
    expr += s[d] == 1 ? coord : fmt::format("{} * {}u", coord, s[d]);
  }
  return expr.empty() ? "0u" : expr;
}

namespace {
struct Helper {
  StringRef name;
  StringRef code;
};
} // namespace

/// Definitions of the functions expressions may call. Float versions only:
/// the ops that use them accept floats, computed in float (or double).
static const Helper kHelpers[] = {
    {"onyx_erf",
     // Abramowitz-Stegun 7.1.26 is too coarse (1.5e-7 absolute is fine, but
     // relative error near 0 is not); this is the Numerical Recipes erfc
     // Chebyshev fit, relative error below 1.2e-7 everywhere.
     "float onyx_erf(float x) {\n"
     "  float z = abs(x);\n"
     "  float t = 1.0 / (1.0 + 0.5 * z);\n"
     "  float r = t * exp(-z * z - 1.26551223 + t * (1.00002368 + t * "
     "(0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + "
     "t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * "
     "0.17087277)))))))));\n"
     "  float e = 1.0 - r;\n"
     "  // Near zero 1 - erfc loses digits: use the series there.\n"
     "  if (z < 0.5) {\n"
     "    float z2 = z * z;\n"
     "    e = z * (1.1283791671 + z2 * (-0.3761263890 + z2 * (0.1128379167 "
     "+ z2 * (-0.0268661706 + z2 * 0.0052239777))));\n"
     "  }\n"
     "  return x < 0.0 ? -e : e;\n"
     "}\n"
     "double onyx_erf(double x) { return double(onyx_erf(float(x))); }\n"},
    {"onyx_gelu_none",
     "float onyx_gelu_none(float x) { return 0.5 * x * (1.0 + onyx_erf(x * "
     "0.70710678118654752)); }\n"
     "double onyx_gelu_none(double x) { return "
     "double(onyx_gelu_none(float(x)));"
     " }\n"},
    {"onyx_clamp01",
     // GLSL's clamp of NaN is undefined (lavapipe gives the lower bound);
     // NaN stays NaN, as in std::clamp and numpy's clip (HardSigmoid).
     "float onyx_clamp01(float v) {\n"
     "  return isnan(v) ? v : clamp(v, 0.0, 1.0);\n"
     "}\n"
     "double onyx_clamp01(double v) {\n"
     "  return isnan(v) ? v : clamp(v, 0.0lf, 1.0lf);\n"
     "}\n"},
    {"onyx_scale",
     // a * x for a constant a (an attribute, a splat operand): compilers
     // fold a product by a constant 0 to +0 (lavapipe does, precise or not),
     // where IEEE and the reference backend give NaN for an infinite or NaN
     // x, and a zero whose sign is the product of the signs (0 * -2 = -0,
     // whose reciprocal is -inf). For any other a the test folds away.
     "float onyx_scale(float a, float x) {\n"
     "  if (a != 0.0) return a * x;\n"
     "  return isnan(x) || isinf(x) ? uintBitsToFloat(0x7fc00000u)\n"
     "      : uintBitsToFloat((floatBitsToUint(a) ^ floatBitsToUint(x)) & "
     "0x80000000u);\n"
     "}\n"
     "double onyx_scale(double a, double x) {\n"
     "  if (a != 0.0lf) return a * x;\n"
     "  return isnan(x) || isinf(x) ? uint64BitsToDouble(0x7ff8000000000000ul)\n"
     "      : uint64BitsToDouble((doubleBitsToUint64(a) ^ "
     "doubleBitsToUint64(x)) & 0x8000000000000000ul);\n"
     "}\n"},
    {"onyx_over",
     // a / x for a constant a: compilers fold 0 / x to +0 (lavapipe does),
     // where 0 / 0 and 0 / NaN are NaN and 0 / x is a zero of the sign of
     // the quotient.
     "float onyx_over(float a, float x) {\n"
     "  if (a != 0.0) return a / x;\n"
     "  return isnan(x) || x == 0.0 ? uintBitsToFloat(0x7fc00000u)\n"
     "      : uintBitsToFloat((floatBitsToUint(a) ^ floatBitsToUint(x)) & "
     "0x80000000u);\n"
     "}\n"
     "double onyx_over(double a, double x) {\n"
     "  if (a != 0.0lf) return a / x;\n"
     "  return isnan(x) || x == 0.0lf ? uint64BitsToDouble(0x7ff8000000000000ul)\n"
     "      : uint64BitsToDouble((doubleBitsToUint64(a) ^ "
     "doubleBitsToUint64(x)) & 0x8000000000000000ul);\n"
     "}\n"},
    {"onyx_pow",
     // GLSL leaves pow(a, b) undefined for a < 0 and for a == 0, b <= 0
     // (lavapipe computes exp2(b * log2(a)): NaN for a negative base); ONNX
     // follows C's pow: a negative base with an integer exponent has the
     // sign of its odd powers, 0 to a negative power is infinite, and
     // anything to the power 0, and 1 to any power, is 1. Any other power
     // of a NaN is NaN, which lavapipe's pow does not give (it gave 0).
     "float onyx_pow(float a, float b) {\n"
     "  if (b == 0.0 || a == 1.0) return 1.0;\n"
     "  if (isnan(a) || isnan(b)) return a + b;\n"
     "  if (a > 0.0) return pow(a, b);\n"
     "  if (abs(a) == 1.0 && isinf(b)) return 1.0;\n"
     "  bool integral = b == trunc(b);\n"
     "  if (a < 0.0 && !integral) return uintBitsToFloat(0x7fc00000u);\n"
     "  float r = a == 0.0 ? (b > 0.0 ? 0.0 : uintBitsToFloat(0x7f800000u))\n"
     "                     : pow(-a, b);\n"
     "  bool odd = integral && mod(b, 2.0) == 1.0;\n"
     "  return odd && (floatBitsToUint(a) >> 31) != 0u ? -r : r;\n"
     "}\n"},
    {"onyx_gelu_tanh",
     "float onyx_gelu_tanh(float x) { return 0.5 * x * (1.0 + tanh("
     "0.79788456080286536 * (x + 0.044715 * x * x * x))); }\n"
     "double onyx_gelu_tanh(double x) { return "
     "double(onyx_gelu_tanh(float(x)));"
     " }\n"},
};

/// Mod: with fmod = 1 the sign of the dividend (C fmod), else that of the
/// divisor (Python %). Integer division by zero gives 0 rather than
/// whatever the device does.
static constexpr StringRef kModHelper =
    "float onyx_mod(float a, float b, int f) {\n"
    "  float r = a - b * trunc(a / b);\n"
    "  if (f == 0 && r != 0.0 && ((r < 0.0) != (b < 0.0))) r += b;\n"
    "  return r;\n"
    "}\n"
    "double onyx_mod(double a, double b, int f) {\n"
    "  double r = a - b * trunc(a / b);\n"
    "  if (f == 0 && r != 0.0 && ((r < 0.0) != (b < 0.0))) r += b;\n"
    "  return r;\n"
    "}\n"
    "int onyx_mod(int a, int b, int f) {\n"
    "  if (b == 0) return 0;\n"
    "  int r = a - b * (a / b);\n"
    "  if (f == 0 && r != 0 && ((r < 0) != (b < 0))) r += b;\n"
    "  return r;\n"
    "}\n"
    "int64_t onyx_mod(int64_t a, int64_t b, int f) {\n"
    "  if (b == 0l) return 0l;\n"
    "  int64_t r = a - b * (a / b);\n"
    "  if (f == 0 && r != 0l && ((r < 0l) != (b < 0l))) r += b;\n"
    "  return r;\n"
    "}\n"
    "uint onyx_mod(uint a, uint b, int f) { return b == 0u ? 0u : a % b; }\n"
    "uint64_t onyx_mod(uint64_t a, uint64_t b, int f) {\n"
    "  return b == 0ul ? 0ul : a % b;\n"
    "}\n";

std::string helpers(StringRef code) {
  std::string result;
  bool needErf = code.contains("onyx_erf") || code.contains("onyx_gelu_none");
  for (const Helper &h : kHelpers)
    if ((h.name == "onyx_erf" && needErf) ||
        (h.name != "onyx_erf" && code.contains(h.name)))
      result += h.code.str();
  if (code.contains("onyx_mod"))
    result += kModHelper.str();
  return result;
}

uint32_t linearWorkgroupSize(const gpu::TargetDesc &target) {
  return std::min<uint32_t>({256u, target.maxComputeWorkGroupInvocations,
                             target.maxComputeWorkGroupSize[0]});
}

} // namespace onyx::lowering::glsl

//===- Elementwise.cpp - The elementwise op family, one row per op --------===//
//
// Every elementwise op is one row: its name, its scalar function (used by
// folding and the reference evaluator, instantiated per element type), its
// GLSL expression (used by the kernel generator), the element types it
// accepts, its traits, attributes, and the folds and patterns particular to
// it. Inference is shared: numpy broadcasting of all operands.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Elementwise.h"
#include "dialect/onnx/ElementwisePatterns.h"
#include "dialect/onnx/OpDef.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace onyx::onnx {

namespace {

/// The attributes a scalar function may read.
struct Params {
  double alpha = 0;
  double beta = 0;
  double gamma = 0;
  bool fmod = false;
  bool tanhApproximation = false;
  bool detectNegative = true;
  bool detectPositive = true;
};

Params readParams(const OpAttrs &attrs) {
  Params p;
  for (const AttrSpec &spec : attrs.getSchema().attributes) {
    if (spec.name == "alpha")
      p.alpha = attrs.getFloat("alpha");
    else if (spec.name == "beta")
      p.beta = attrs.getFloat("beta");
    else if (spec.name == "gamma")
      p.gamma = attrs.getFloat("gamma");
    else if (spec.name == "fmod")
      p.fmod = attrs.getInt("fmod") != 0;
    else if (spec.name == "approximate")
      p.tanhApproximation = attrs.getString("approximate") == "tanh";
    else if (spec.name == "detect_negative")
      p.detectNegative = attrs.getInt("detect_negative") != 0;
    else if (spec.name == "detect_positive")
      p.detectPositive = attrs.getInt("detect_positive") != 0;
  }
  return p;
}

template <typename T> constexpr unsigned typeBit() {
  if constexpr (isFloatStorage<T>)
    return FloatTypes;
  else if constexpr (std::is_same_v<T, bool>)
    return BoolType;
  else if constexpr (std::is_signed_v<T>)
    return SignedTypes;
  else
    return UnsignedTypes;
}

/// Calls scalar function F, passing the attributes if it takes them.
template <typename F, typename... Args>
auto call(const Params &p, Args... args) {
  if constexpr (std::is_invocable_v<F, Args..., const Params &>)
    return F{}(args..., p);
  else
    return F{}(args...);
}

/// Integer arithmetic is done in an unsigned type at least as wide as int,
/// so that it wraps around as numpy's does instead of overflowing.
template <typename T>
using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                std::make_unsigned_t<T>>;

template <typename T> T addValues(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return T(Wide<T>(a) + Wide<T>(b));
  else
    return a + b;
}
template <typename T> T subValues(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return T(Wide<T>(a) - Wide<T>(b));
  else
    return a - b;
}
template <typename T> T mulValues(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return T(Wide<T>(a) * Wide<T>(b));
  else
    return a * b;
}
template <typename T> T divValues(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // ONNX leaves integer division by zero undefined; give 0 rather than
    // trapping. The quotient truncates toward zero, as in ONNX Runtime.
    if (b == 0)
      return 0;
    if constexpr (std::is_signed_v<T>)
      if (b == -1)
        return T(Wide<T>(0) - Wide<T>(a));
    return T(a / b);
  } else {
    return a / b;
  }
}
template <typename T> T modValues(T a, T b, bool fmod) {
  if constexpr (std::is_integral_v<T>) {
    if (b == 0)
      return 0;
    if constexpr (std::is_signed_v<T>) {
      if (b == -1)
        return 0;
      T r = T(a % b);
      // Without fmod the remainder takes the divisor's sign (Python's %).
      if (!fmod && r != 0 && ((r < 0) != (b < 0)))
        r = T(r + b);
      return r;
    }
    return T(a % b);
  } else {
    return std::fmod(a, b);
  }
}
template <typename T> T negValue(T x) {
  if constexpr (std::is_integral_v<T>)
    return T(Wide<T>(0) - Wide<T>(x));
  else
    return -x;
}
/// Max and Min are IEEE 754-2019 maximum (IsMax) and minimum, as MLIR's
/// arith.maximumf and arith.minimumf: NaN if either operand is NaN (the first
/// NaN, as APFloat's), and -0.0 orders below +0.0. ONNX leaves signed zeros
/// open (numpy's maximum returns the first of two zeros); with this order
/// the result does not depend on the operands' order, so both ops are
/// commutative, for integers trivially. T is the computation type: float for
/// f16, bf16 and f32, double for f64.
template <bool IsMax, typename T> T extremum(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a))
      return a;
    if (std::isnan(b))
      return b;
    // Equal values, or zeros of either sign: the maximum is +0.0 if there
    // is one, the minimum -0.0.
    if (a == b)
      return std::signbit(a) == IsMax ? b : a;
  }
  return (IsMax ? a < b : b < a) ? b : a;
}

template <typename T> T geluValue(T x, const Params &p) {
  double v = x;
  if (p.tanhApproximation) {
    double inner =
        std::sqrt(2.0 / std::numbers::pi) * (v + 0.044715 * v * v * v);
    return T(0.5 * v * (1.0 + std::tanh(inner)));
  }
  return T(0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))));
}

//===----------------------------------------------------------------------===//
// Kernels: a scalar function applied over tensors, per element type
//===----------------------------------------------------------------------===//

/// Applies unary F elementwise; R is the result's storage type.
template <typename T, typename R, typename F>
Tensor applyUnary(const Tensor &x, const Params &p) {
  using C = ComputeType<T>;
  Tensor out(elementTypeOf<R>(), x.getShape());
  ArrayRef<T> in = x.getValues<T>();
  MutableArrayRef<R> o = out.getMutableValues<R>();
  for (size_t i = 0; i < in.size(); ++i)
    o[i] = fromCompute<R>(call<F>(p, C(in[i])));
  return out;
}

/// Applies binary F to a and b broadcast to `shape`.
template <typename T, typename R, typename F>
Tensor applyBinary(const Tensor &a, const Tensor &b, ArrayRef<int64_t> shape,
                   const Params &p) {
  using C = ComputeType<T>;
  Tensor out(elementTypeOf<R>(), shape);
  ArrayRef<T> x = a.getValues<T>();
  ArrayRef<T> y = b.getValues<T>();
  MutableArrayRef<R> o = out.getMutableValues<R>();
  int64_t n = out.getNumElements();
  if (a.getShape() == shape && b.getShape() == shape) {
    for (int64_t i = 0; i < n; ++i)
      o[i] = fromCompute<R>(call<F>(p, C(x[i]), C(y[i])));
    return out;
  }
  if (a.getShape() == shape && b.getNumElements() == 1) {
    C scalar(y[0]);
    for (int64_t i = 0; i < n; ++i)
      o[i] = fromCompute<R>(call<F>(p, C(x[i]), scalar));
    return out;
  }
  BroadcastIterator it(shape, {a.getShape(), b.getShape()});
  for (int64_t i = 0; i < n; ++i, it.next())
    o[i] = fromCompute<R>(call<F>(p, C(x[it.offset(0)]), C(y[it.offset(1)])));
  return out;
}

struct DivideBy {
  template <typename C> C operator()(C x, const Params &p) const {
    return C(x / C(p.alpha));
  }
};

/// The evaluator of a row: checks the operands' element types and
/// broadcasting, then applies F. Arity 0 folds F over any number of operands
/// (Mean then divides by their count).
template <unsigned Types, unsigned Arity, bool BoolResult, bool Mean,
          typename F>
LogicalResult evalRow(EvalState &s) {
  ArrayRef<Tensor> inputs = s.getInputs();
  ElementType type = inputs[0].getElementType();
  for (unsigned i = 1; i < inputs.size(); ++i)
    if (inputs[i].getElementType() != type)
      return s.emitError() << "operands have different element types";
  SmallVector<int64_t> shape(inputs[0].getShape());
  for (const Tensor &t : inputs.drop_front()) {
    std::optional<SmallVector<int64_t>> b =
        broadcastShapes(shape, t.getShape());
    if (!b)
      return s.emitError() << "operands are not broadcast-compatible";
    shape = *b;
  }
  Params p = readParams(s.getAttrs());
  return dispatchType(type, [&](auto tag) -> LogicalResult {
    using T = decltype(tag);
    if constexpr (!(Types & typeBit<T>())) {
      return s.unsupportedType(0);
    } else {
      using R = std::conditional_t<BoolResult, bool, T>;
      if constexpr (Arity == 1) {
        s.addOutput(applyUnary<T, R, F>(inputs[0], p));
      } else if constexpr (Arity == 2) {
        s.addOutput(applyBinary<T, R, F>(inputs[0], inputs[1], shape, p));
      } else {
        Tensor acc = inputs[0];
        for (const Tensor &t : inputs.drop_front()) {
          std::optional<SmallVector<int64_t>> accShape =
              broadcastShapes(acc.getShape(), t.getShape());
          acc = applyBinary<T, T, F>(acc, t, *accShape, p);
        }
        if constexpr (Mean) {
          Params count;
          count.alpha = double(inputs.size());
          acc = applyUnary<T, T, DivideBy>(acc, count);
        }
        s.addOutput(broadcastTo(acc, shape));
      }
      return success();
    }
  });
}

/// What a row's evaluator is, with the facts inference needs about it.
struct Kernel {
  unsigned arity;
  unsigned types;
  bool boolResult;
  bool mixedTypes;
  LogicalResult (*evaluate)(EvalState &);
};

template <unsigned Types, typename F> constexpr Kernel unary(F) {
  return {1, Types, false, false, &evalRow<Types, 1, false, false, F>};
}
/// A unary test of each element, with a bool result (IsNaN, IsInf).
template <unsigned Types, typename F> constexpr Kernel predicate(F) {
  return {1, Types, true, false, &evalRow<Types, 1, true, false, F>};
}
template <unsigned Types, typename F> constexpr Kernel binary(F) {
  return {2, Types, false, false, &evalRow<Types, 2, false, false, F>};
}
template <unsigned Types, typename F> constexpr Kernel compare(F) {
  return {2, Types, true, false, &evalRow<Types, 2, true, false, F>};
}
template <unsigned Types, typename F> constexpr Kernel variadic(F) {
  return {0, Types, false, false, &evalRow<Types, 0, false, false, F>};
}
template <unsigned Types, typename F> constexpr Kernel mean(F) {
  return {0, Types, false, false, &evalRow<Types, 0, false, true, F>};
}

//===----------------------------------------------------------------------===//
// Pow: the exponent may have another element type than the base
//===----------------------------------------------------------------------===//

template <typename T> T integerPower(T base, int64_t exponent) {
  if (exponent < 0) {
    // Only 1 and -1 have integer reciprocals; numpy and ONNX Runtime give 0
    // for the others (truncation of the fraction).
    if (base == 1)
      return 1;
    if constexpr (std::is_signed_v<T>)
      if (base == -1)
        return (exponent & 1) ? T(-1) : T(1);
    return 0;
  }
  T result = 1;
  while (exponent) {
    if (exponent & 1)
      result = mulValues(result, base);
    base = mulValues(base, base);
    exponent >>= 1;
  }
  return result;
}

LogicalResult evalPow(EvalState &s) {
  const Tensor &x = s.input(0);
  const Tensor &y = s.input(1);
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(x.getShape(), y.getShape());
  if (!shape)
    return s.emitError() << "operands are not broadcast-compatible";
  ElementType yType = y.getElementType();
  bool integerExponent = isSignedInteger(yType) || isUnsignedInteger(yType);
  return dispatchType(x.getElementType(), [&](auto tag) -> LogicalResult {
    using T = decltype(tag);
    if constexpr (!(NumericTypes & typeBit<T>())) {
      return s.unsupportedType(0);
    } else {
      if (yType == ElementType::Bool)
        return s.unsupportedType(1);
      Tensor out(x.getElementType(), *shape);
      MutableArrayRef<T> o = out.getMutableValues<T>();
      ArrayRef<T> base = x.getValues<T>();
      BroadcastIterator it(*shape, {x.getShape(), y.getShape()});
      auto powInDouble = [&] {
        Tensor e = convertTensor(y, ElementType::F64);
        ArrayRef<double> exps = e.getValues<double>();
        for (size_t i = 0; i < o.size(); ++i, it.next())
          o[i] = convertElement<T>(std::pow(
              double(ComputeType<T>(base[it.offset(0)])), exps[it.offset(1)]));
      };
      if constexpr (std::is_integral_v<T>) {
        if (!integerExponent) {
          powInDouble();
        } else {
          // Exact, where double would round large results.
          Tensor e = convertTensor(y, ElementType::I64);
          ArrayRef<int64_t> exps = e.getValues<int64_t>();
          for (size_t i = 0; i < o.size(); ++i, it.next())
            o[i] = integerPower(base[it.offset(0)], exps[it.offset(1)]);
        }
      } else {
        powInDouble();
      }
      s.addOutput(std::move(out));
      return success();
    }
  });
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

struct Row {
  StringRef name;
  StringRef shader;
  Kernel kernel;
  OpTrait traits = OpTrait::Pure;
  ArrayRef<AttrSpec> attrs = {};
  OpFoldResult (*fold)(Operation *, ArrayRef<Attribute>) = nullptr;
  OpInfo::CanonicalizeFn canonicalize = nullptr;
  /// Operand names where they are not X / A, B / data_0...
  ArrayRef<ValueSpec> operands = {};
};

constexpr OpTrait Commutative = OpTrait::Pure | OpTrait::Commutative;

const AttrSpec leakyReluAttrs[] = {floatAttr("alpha", 0.01)};
const AttrSpec eluAttrs[] = {floatAttr("alpha", 1.0)};
const AttrSpec seluAttrs[] = {floatAttr("alpha", 1.67326319217681884765625),
                              floatAttr("gamma", 1.05070102214813232421875)};
const AttrSpec hardSigmoidAttrs[] = {floatAttr("alpha", 0.2),
                                     floatAttr("beta", 0.5)};
const StringRef geluApproximations[] = {"none", "tanh"};
const AttrSpec geluAttrs[] = {
    stringAttr("approximate", "none", geluApproximations)};
const AttrSpec modAttrs[] = {intAttr("fmod", 0)};
const AttrSpec isInfAttrs[] = {intAttr("detect_negative", 1),
                               intAttr("detect_positive", 1)};
const ValueSpec powOperands[] = {{"X"}, {"Y"}};
const ValueSpec preluOperands[] = {{"X"}, {"slope"}};

const Row rows[] = {
    // Unary.
    {"onnx.Abs", "abs($0)", unary<NumericTypes>([](auto x) {
       using C = decltype(x);
       if constexpr (std::is_floating_point_v<C>)
         return std::fabs(x);
       else if constexpr (std::is_signed_v<C>)
         return x < 0 ? negValue(x) : x;
       else
         return x;
     })},
    {"onnx.Neg",
     "(-$0)",
     unary<SignedNumericTypes>([](auto x) { return negValue(x); }),
     OpTrait::Pure,
     {},
     foldNeg},
    {"onnx.Exp", "exp($0)",
     unary<FloatTypes>([](auto x) { return std::exp(x); })},
    {"onnx.Log", "log($0)",
     unary<FloatTypes>([](auto x) { return std::log(x); })},
    {"onnx.Sqrt", "sqrt($0)",
     unary<FloatTypes>([](auto x) { return std::sqrt(x); })},
    {"onnx.Reciprocal", "(1.0 / $0)",
     unary<FloatTypes>([](auto x) { return decltype(x)(1) / x; })},
    // max(x, 0) as ONNX defines it, with Max's IEEE semantics: NaN stays
    // NaN and -0.0 becomes +0.0, so that max(x, +0.0) canonicalizes to it.
    {"onnx.Relu", "(($0 != $0 || $0 > 0) ? $0 : 0)",
     unary<SignedNumericTypes>(
         [](auto x) { return extremum<true>(x, decltype(x)(0)); })},
    {"onnx.Sigmoid", "(1.0 / (1.0 + exp(-$0)))", unary<FloatTypes>([](auto x) {
       return decltype(x)(1) / (decltype(x)(1) + std::exp(-x));
     })},
    {"onnx.Tanh", "tanh($0)",
     unary<FloatTypes>([](auto x) { return std::tanh(x); })},
    {"onnx.Erf", "onyx_erf($0)",
     unary<FloatTypes>([](auto x) { return std::erf(x); })},
    {"onnx.Sin", "sin($0)",
     unary<FloatTypes>([](auto x) { return std::sin(x); })},
    {"onnx.Cos", "cos($0)",
     unary<FloatTypes>([](auto x) { return std::cos(x); })},
    {"onnx.Floor", "floor($0)",
     unary<FloatTypes>([](auto x) { return std::floor(x); })},
    {"onnx.Ceil", "ceil($0)",
     unary<FloatTypes>([](auto x) { return std::ceil(x); })},
    // Halves round to even (the default rounding mode), as numpy's round.
    {"onnx.Round", "roundEven($0)",
     unary<FloatTypes>([](auto x) { return std::nearbyint(x); })},
    // Zero and NaN are their own sign, as in numpy (GLSL's sign of NaN is
    // undefined: lavapipe gave 0).
    {"onnx.Sign", "($0 != $0 ? $0 : sign($0))", unary<NumericTypes>([](auto x) {
       using C = decltype(x);
       return x > C(0) ? C(1) : x < C(0) ? C(-1) : x;
     })},
    {"onnx.Not", "(!$0)", unary<BoolType>([](auto x) { return !x; })},
    // The tests are on the computation type, which keeps NaN and infinity
    // of every float width. x != x is the shader's NaN test, as Max's.
    {"onnx.IsNaN", "($0 != $0)",
     predicate<FloatTypes>([](auto x) { return std::isnan(x); })},
    {"onnx.IsInf",
     "(isinf($0) && ($0 > 0 ? $detect_positive != 0 : $detect_negative != 0))",
     predicate<FloatTypes>([](auto x, const Params &p) {
       return std::isinf(x) && (x > 0 ? p.detectPositive : p.detectNegative);
     }),
     OpTrait::Pure, isInfAttrs},
    // log(1 + e^x) without overflow for large x.
    {"onnx.Softplus", "(max($0, 0.0) + log(1.0 + exp(-abs($0))))",
     unary<FloatTypes>([](auto x) {
       using C = decltype(x);
       return std::max(x, C(0)) + std::log1p(std::exp(-std::fabs(x)));
     })},
    {"onnx.HardSwish", "($0 * clamp($0 / 6.0 + 0.5, 0.0, 1.0))",
     unary<FloatTypes>([](auto x) {
       using C = decltype(x);
       return x * std::clamp(x / C(6) + C(0.5), C(0), C(1));
     })},
    {"onnx.Identity",
     "$0",
     unary<AllTypes>([](auto x) { return x; }),
     OpTrait::Pure,
     {},
     foldIdentity},
    {"onnx.LeakyRelu", "($0 >= 0.0 ? $0 : onyx_scale($alpha, $0))",
     unary<FloatTypes>([](auto x, const Params &p) {
       using C = decltype(x);
       return x >= C(0) ? x : C(p.alpha * x);
     }),
     OpTrait::Pure, leakyReluAttrs},
    {"onnx.Elu", "($0 >= 0.0 ? $0 : onyx_scale($alpha, exp($0) - 1.0))",
     unary<FloatTypes>([](auto x, const Params &p) {
       using C = decltype(x);
       return x >= C(0) ? x : C(p.alpha * std::expm1(double(x)));
     }),
     OpTrait::Pure, eluAttrs},
    {"onnx.Selu",
     "($0 > 0.0 ? onyx_scale($gamma, $0) : "
     "onyx_scale($gamma * $alpha, exp($0) - 1.0))",
     unary<FloatTypes>([](auto x, const Params &p) {
       using C = decltype(x);
       return x > C(0) ? C(p.gamma * x)
                       : C(p.gamma * p.alpha * std::expm1(double(x)));
     }),
     OpTrait::Pure, seluAttrs},
    {"onnx.HardSigmoid", "onyx_clamp01(onyx_scale($alpha, $0) + $beta)",
     unary<FloatTypes>([](auto x, const Params &p) {
       using C = decltype(x);
       return C(std::clamp(p.alpha * x + p.beta, 0.0, 1.0));
     }),
     OpTrait::Pure, hardSigmoidAttrs},
    // The generator defines onyx_gelu_none and onyx_gelu_tanh.
    {"onnx.Gelu", "onyx_gelu_$approximate($0)",
     unary<FloatTypes>([](auto x, const Params &p) { return geluValue(x, p); }),
     OpTrait::Pure, geluAttrs},

    // Binary, with broadcasting.
    {"onnx.Add",
     "($0 + $1)",
     binary<NumericTypes>([](auto a, auto b) { return addValues(a, b); }),
     Commutative,
     {},
     foldAdd,
     addAddPatterns},
    {"onnx.Sub",
     "($0 - $1)",
     binary<NumericTypes>([](auto a, auto b) { return subValues(a, b); }),
     OpTrait::Pure,
     {},
     foldSub},
    {"onnx.Mul",
     "($0 * $1)",
     binary<NumericTypes>([](auto a, auto b) { return mulValues(a, b); }),
     Commutative,
     {},
     foldMul,
     addMulPatterns},
    {"onnx.Div",
     "($0 / $1)",
     binary<NumericTypes>([](auto a, auto b) { return divValues(a, b); }),
     OpTrait::Pure,
     {},
     foldDiv,
     addDivPatterns},
    {"onnx.Pow",
     "onyx_pow($0, $1)",
     {2, NumericTypes, false, true, evalPow},
     OpTrait::Pure,
     {},
     nullptr,
     nullptr,
     powOperands},
    // Floats require fmod = 1 (C's fmod); integers without it take the
    // divisor's sign.
    {"onnx.Mod", "onyx_mod($0, $1, $fmod)",
     binary<NumericTypes>([](auto a, auto b, const Params &p) {
       return modValues(a, b, p.fmod);
     }),
     OpTrait::Pure, modAttrs},
    {"onnx.PRelu",
     "($0 < 0.0 ? $0 * $1 : $0)",
     binary<NumericTypes>([](auto x, auto slope) {
       return x < decltype(x)(0) ? mulValues(x, slope) : x;
     }),
     OpTrait::Pure,
     {},
     nullptr,
     nullptr,
     preluOperands},
    {"onnx.Equal",
     "($0 == $1)",
     compare<AllTypes>([](auto a, auto b) { return a == b; }),
     Commutative,
     {},
     nullptr,
     addCommutativePatterns<"onnx.Equal">},
    {"onnx.Greater", "($0 > $1)",
     compare<NumericTypes>([](auto a, auto b) { return a > b; })},
    {"onnx.Less", "($0 < $1)",
     compare<NumericTypes>([](auto a, auto b) { return a < b; })},
    {"onnx.GreaterOrEqual", "($0 >= $1)",
     compare<NumericTypes>([](auto a, auto b) { return a >= b; })},
    {"onnx.LessOrEqual", "($0 <= $1)",
     compare<NumericTypes>([](auto a, auto b) { return a <= b; })},
    {"onnx.And",
     "($0 && $1)",
     binary<BoolType>([](auto a, auto b) { return a && b; }),
     Commutative,
     {},
     nullptr,
     addCommutativePatterns<"onnx.And">},
    {"onnx.Or",
     "($0 || $1)",
     binary<BoolType>([](auto a, auto b) { return a || b; }),
     Commutative,
     {},
     nullptr,
     addCommutativePatterns<"onnx.Or">},
    {"onnx.Xor",
     "($0 != $1)",
     binary<BoolType>([](auto a, auto b) { return a != b; }),
     Commutative,
     {},
     nullptr,
     addCommutativePatterns<"onnx.Xor">},

    // Variadic, with broadcasting; Mean divides the sum by the count.
    // Max and Min are IEEE 754-2019 maximum and minimum (see extremum), so
    // commutative. GLSL's max and min leave NaN and the order of signed zeros
    // open, so the expressions test for NaN (x != x; which of two NaNs comes
    // out is left open) and, past the comparison, add a zero $1 to $0: -0.0
    // + +0.0 is +0.0 and -0.0 + -0.0 is -0.0, the maximum of two zeros (the
    // minimum negates both first), and any other $0 plus a zero is $0. They
    // hold for every computation type (the 0 converts implicitly) and read
    // $0, which variadic ops nest as the accumulator, only three times.
    {"onnx.Max",
     "(($1 != $1 || $1 > $0) ? $1 : $1 == 0 ? $0 + $1 : $0)",
     variadic<NumericTypes>(
         [](auto a, auto b) { return extremum<true>(a, b); }),
     Commutative,
     {},
     foldMax,
     addMaxPatterns},
    {"onnx.Min",
     "(($1 != $1 || $1 < $0) ? $1 : $1 == 0 ? -(-$0 - $1) : $0)",
     variadic<NumericTypes>(
         [](auto a, auto b) { return extremum<false>(a, b); }),
     Commutative,
     {},
     foldMin,
     addCommutativePatterns<"onnx.Min">},
    {"onnx.Sum", "($0 + $1)",
     variadic<FloatTypes>([](auto a, auto b) { return a + b; })},
    {"onnx.Mean", "($0 + $1)",
     mean<FloatTypes>([](auto a, auto b) { return a + b; })},
};

const Row *getRow(const InferState &s) {
  return static_cast<const Row *>(s.getDef().familyData);
}

StringRef describeTypes(unsigned types) {
  switch (types) {
  case FloatTypes:
    return "a float";
  case BoolType:
    return "a bool (i1)";
  case SignedNumericTypes:
    return "a float or signed integer";
  case NumericTypes:
    return "a numeric";
  default:
    return "any";
  }
}

LogicalResult inferRow(InferState &s) {
  const Row &row = *getRow(s);
  const Kernel &k = row.kernel;
  for (unsigned i = 0; i < s.getNumOperands(); ++i) {
    ElementType t = s.getElementKind(i);
    unsigned bit = isFloat(t)               ? FloatTypes
                   : t == ElementType::Bool ? BoolType
                   : isSignedInteger(t)     ? SignedTypes
                                            : UnsignedTypes;
    // Pow's exponent may be any numeric type.
    unsigned allowed = (k.mixedTypes && i > 0) ? NumericTypes : k.types;
    if (!(allowed & bit))
      return s.emitOperandError(i)
             << "must have " << describeTypes(allowed) << " element type, got "
             << s.getElementType(i);
    if (!k.mixedTypes && i > 0 && failed(s.checkSameElementType(0, i)))
      return failure();
  }
  if (row.name == "onnx.Mod" && isFloat(s.getElementKind(0)) &&
      s.getAttrs().getInt("fmod") != 1)
    return s.emitAttrError("fmod") << "must be 1 for float operands";
  SmallVector<int64_t> shape(s.getShape(0));
  for (unsigned i = 1; i < s.getNumOperands(); ++i) {
    std::optional<SmallVector<int64_t>> b =
        broadcastShapes(shape, s.getShape(i));
    if (!b)
      return s.emitError() << "operands are not broadcast-compatible: "
                           << s.getType(0) << " and " << s.getType(i);
    shape = *b;
  }
  // PRelu's slope broadcasts to X, not the other way round.
  if (row.name == "onnx.PRelu" && ArrayRef<int64_t>(shape) != s.getShape(0))
    return s.emitOperandError(1) << "of type " << s.getType(1)
                                 << " does not broadcast to " << s.getType(0);
  Type elementType = k.boolResult ? Type(IntegerType::get(s.getContext(), 1))
                                  : s.getElementType(0);
  s.addResult(shape, elementType);
  return success();
}

const ValueSpec unaryOperands[] = {{"X"}};
const ValueSpec binaryOperands[] = {{"A"}, {"B"}};
const ValueSpec variadicOperands[] = {{"data_0", Presence::Variadic}};
const ValueSpec rowResults[] = {{"Y"}};

} // namespace

void appendElementwiseOps(std::vector<const OpDef *> &defs) {
  static const std::vector<OpDef> rowDefs = [] {
    std::vector<OpDef> result;
    for (const Row &row : rows) {
      OpDef def;
      ArrayRef<ValueSpec> operands = row.operands;
      if (operands.empty())
        operands = row.kernel.arity == 1   ? ArrayRef(unaryOperands)
                   : row.kernel.arity == 2 ? ArrayRef(binaryOperands)
                                           : ArrayRef(variadicOperands);
      def.schema = {row.name, operands, rowResults, row.attrs, row.traits};
      def.infer = inferRow;
      def.evaluate = row.kernel.evaluate;
      def.fold = row.fold;
      def.canonicalize = row.canonicalize;
      def.familyData = &row;
      result.push_back(def);
    }
    return result;
  }();
  for (const OpDef &def : rowDefs)
    defs.push_back(&def);
}

ArrayRef<ElementwiseInfo> getElementwiseInfos() {
  static const std::vector<ElementwiseInfo> infos = [] {
    std::vector<ElementwiseInfo> result;
    for (const Row &row : rows)
      result.push_back({row.name, row.kernel.arity, row.kernel.types,
                        row.kernel.boolResult, row.kernel.mixedTypes,
                        row.shader});
    return result;
  }();
  return infos;
}

const ElementwiseInfo *lookupElementwiseInfo(StringRef opName) {
  for (const ElementwiseInfo &info : getElementwiseInfos())
    if (info.name == opName)
      return &info;
  return nullptr;
}

} // namespace onyx::onnx

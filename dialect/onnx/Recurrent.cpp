//===- Recurrent.cpp - onnx.RNN, onnx.GRU and onnx.LSTM -------------------===//
//
// The recurrent layers of ONNX, one definition for the three: they differ
// in their number of gates (1, 3, 4), their default activations and the
// cell's update, and share everything else: the weight layouts
// ([directions, gates * hidden, input] and [directions, gates * hidden,
// hidden], biases [directions, 2 * gates * hidden] as Wb then Rb), the
// directions (forward, reverse, bidirectional: the reverse direction reads
// the sequence from its last valid step), `sequence_lens` (steps past a
// batch entry's length leave its state alone and write zeros to Y),
// `layout` (0: [seq, batch, ...]; 1: batch first), `clip` (applied to every
// gate's input before its activation) and the activation list with its
// alpha and beta values, consumed in order by the activations that take
// them (ONNX's defaults for the others).
//
// The evaluator follows the ONNX spec's equations step by step, in double.
// On the GPU the same steps are unrolled into ops (RecurrentUnroll.cpp).
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Recurrent.h"

#include "ir/Operation.h"

#include <cmath>

namespace onyx::onnx {

Cell getRecurrentCell(StringRef name) {
  return name == "onnx.RNN"   ? Cell::RNN
         : name == "onnx.GRU" ? Cell::GRU
                              : Cell::LSTM;
}

unsigned getNumGates(Cell cell) {
  return cell == Cell::RNN ? 1 : cell == Cell::GRU ? 3 : 4;
}

unsigned getNumActivations(Cell cell) {
  return cell == Cell::RNN ? 1 : cell == Cell::GRU ? 2 : 3;
}

int64_t getNumDirections(const OpAttrs &attrs) {
  return attrs.getString("direction") == "bidirectional" ? 2 : 1;
}

namespace {

const StringRef kDirections[] = {"forward", "reverse", "bidirectional"};

const ValueSpec rnnOperands[] = {{"X"},
                                 {"W"},
                                 {"R"},
                                 {"B", Presence::Optional},
                                 {"sequence_lens", Presence::Optional},
                                 {"initial_h", Presence::Optional}};
const ValueSpec rnnResults[] = {{"Y", Presence::Optional},
                                {"Y_h", Presence::Optional}};
const ValueSpec lstmOperands[] = {{"X"},
                                  {"W"},
                                  {"R"},
                                  {"B", Presence::Optional},
                                  {"sequence_lens", Presence::Optional},
                                  {"initial_h", Presence::Optional},
                                  {"initial_c", Presence::Optional},
                                  {"P", Presence::Optional}};
const ValueSpec lstmResults[] = {{"Y", Presence::Optional},
                                 {"Y_h", Presence::Optional},
                                 {"Y_c", Presence::Optional}};

#define RECURRENT_COMMON_ATTRS                                                 \
  optionalAttr("activation_alpha", AttrType::Floats),                          \
      optionalAttr("activation_beta", AttrType::Floats),                       \
      optionalAttr("activations", AttrType::Strings),                          \
      optionalAttr("clip", AttrType::Float),                                   \
      stringAttr("direction", "forward", kDirections),                         \
      optionalAttr("hidden_size", AttrType::Int), intAttr("layout", 0)

const AttrSpec rnnAttrs[] = {RECURRENT_COMMON_ATTRS};
const AttrSpec gruAttrs[] = {RECURRENT_COMMON_ATTRS,
                             intAttr("linear_before_reset", 0)};
const AttrSpec lstmAttrs[] = {RECURRENT_COMMON_ATTRS,
                              intAttr("input_forget", 0)};

#undef RECURRENT_COMMON_ATTRS

const StringRef kActivationNames[] = {
    "Relu",       "Tanh",        "Sigmoid",
    "Affine",     "LeakyRelu",   "ThresholdedRelu",
    "ScaledTanh", "HardSigmoid", "Elu",
    "Softsign",   "Softplus"};

/// Whether `name` is an activation ONNX's recurrent ops accept (the spec
/// spells them in CamelCase; exporters sometimes in lower case).
bool isActivation(StringRef name) {
  return llvm::any_of(kActivationNames,
                      [&](StringRef n) { return n.equals_insensitive(name); });
}

LogicalResult inferRecurrent(InferState &s) {
  Cell cell = getRecurrentCell(s.getDef().schema.name);
  const OpAttrs &attrs = s.getAttrs();
  int64_t gates = getNumGates(cell);
  int64_t dirs = getNumDirections(attrs);
  int64_t layout = attrs.getInt("layout");
  if (layout != 0 && layout != 1)
    return s.emitAttrError("layout") << "must be 0 or 1, got " << layout;
  for (unsigned i = 0; i < 3; ++i)
    if (failed(s.checkRank(i, 3)) || failed(s.checkFloat(i)) ||
        (i && failed(s.checkSameElementType(0, i))))
      return failure();
  ArrayRef<int64_t> x = s.getShape(0), w = s.getShape(1), r = s.getShape(2);
  int64_t seq = x[layout == 0 ? 0 : 1], batch = x[layout == 0 ? 1 : 0];
  int64_t hidden =
      attrs.has("hidden_size") ? attrs.getInt("hidden_size") : r[2];
  if (!ShapedType::isDynamic(hidden) && hidden <= 0)
    return s.emitAttrError("hidden_size") << "must be positive, got " << hidden;
  // A known size that disagrees with another is an error; `?` matches.
  auto expect = [&](unsigned operand, ArrayRef<int64_t> shape,
                    ArrayRef<int64_t> expected) -> LogicalResult {
    for (auto [d, e] : llvm::zip(shape, expected))
      if (!ShapedType::isDynamic(d) && !ShapedType::isDynamic(e) && d != e) {
        InFlightDiagnostic diag = s.emitOperandError(operand);
        diag << "must have shape [";
        llvm::interleaveComma(expected, diag, [&](int64_t v) {
          if (ShapedType::isDynamic(v))
            diag << '?';
          else
            diag << v;
        });
        return diag << "], got " << s.getType(operand);
      }
    return success();
  };
  auto times = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) ? ShapedType::kDynamic : a * b;
  };
  if (failed(expect(1, w, {dirs, times(hidden, gates), x[2]})) ||
      failed(expect(2, r, {dirs, times(hidden, gates), hidden})))
    return failure();
  if (s.hasOperand(3) &&
      (failed(s.checkRank(3, 2)) || failed(s.checkSameElementType(0, 3)) ||
       failed(expect(3, s.getShape(3), {dirs, times(hidden, 2 * gates)}))))
    return failure();
  if (s.hasOperand(4)) {
    if (failed(s.checkRank(4, 1)))
      return failure();
    if (s.getElementKind(4) != ElementType::I32)
      return s.emitOperandError(4)
             << "must have element type i32, got " << s.getElementType(4);
    if (failed(expect(4, s.getShape(4), {batch})))
      return failure();
  }
  SmallVector<int64_t> state = layout == 0
                                   ? SmallVector<int64_t>{dirs, batch, hidden}
                                   : SmallVector<int64_t>{batch, dirs, hidden};
  unsigned numStates = cell == Cell::LSTM ? 2 : 1;
  for (unsigned i = 5; i < 5 + numStates; ++i)
    if (s.hasOperand(i) &&
        (failed(s.checkRank(i, 3)) || failed(s.checkSameElementType(0, i)) ||
         failed(expect(i, s.getShape(i), state))))
      return failure();
  if (cell == Cell::LSTM && s.hasOperand(7) &&
      (failed(s.checkRank(7, 2)) || failed(s.checkSameElementType(0, 7)) ||
       failed(expect(7, s.getShape(7), {dirs, times(hidden, 3)}))))
    return failure();
  if (attrs.has("clip") && !(attrs.getFloat("clip") > 0))
    return s.emitAttrError("clip") << "must be positive";
  // The activation list: one set per direction.
  if (attrs.has("activations")) {
    SmallVector<StringRef> names = attrs.getStrings("activations");
    unsigned expected = getNumActivations(cell) * dirs;
    if (names.size() != expected)
      return s.emitAttrError("activations")
             << "has " << uint64_t(names.size()) << " entries, expected "
             << expected << " (" << getNumActivations(cell)
             << " per direction)";
    for (StringRef name : names)
      if (!isActivation(name))
        return s.emitAttrError("activations")
               << "names an unknown activation '" << name << "'";
  }
  Type element = s.getElementType(0);
  if (layout == 0)
    s.addResult({seq, dirs, batch, hidden}, element);
  else
    s.addResult({batch, seq, dirs, hidden}, element);
  s.addResult(state, element);
  if (cell == Cell::LSTM)
    s.addResult(state, element);
  return success();
}

} // namespace

double Activation::operator()(double x) const {
  if (name == "relu")
    return x > 0 ? x : 0;
  if (name == "tanh")
    return std::tanh(x);
  if (name == "sigmoid")
    return 1 / (1 + std::exp(-x));
  if (name == "affine")
    return alpha * x + beta;
  if (name == "leakyrelu")
    return x >= 0 ? x : alpha * x;
  if (name == "thresholdedrelu")
    return x > alpha ? x : 0;
  if (name == "scaledtanh")
    return alpha * std::tanh(beta * x);
  if (name == "hardsigmoid")
    return std::max(0.0, std::min(1.0, alpha * x + beta));
  if (name == "elu")
    return x >= 0 ? x : alpha * (std::exp(x) - 1);
  if (name == "softsign")
    return x / (1 + std::abs(x));
  return std::log1p(std::exp(x)); // softplus
}

SmallVector<Activation> getActivations(Cell cell, const OpAttrs &attrs,
                                       int64_t dirs) {
  SmallVector<StringRef> names;
  if (attrs.has("activations")) {
    names = attrs.getStrings("activations");
  } else {
    SmallVector<StringRef> one =
        cell == Cell::RNN   ? SmallVector<StringRef>{"Tanh"}
        : cell == Cell::GRU ? SmallVector<StringRef>{"Sigmoid", "Tanh"}
                            : SmallVector<StringRef>{"Sigmoid", "Tanh", "Tanh"};
    for (int64_t d = 0; d < dirs; ++d)
      names.append(one.begin(), one.end());
  }
  SmallVector<double> alphas =
      attrs.getFloats("activation_alpha").value_or(SmallVector<double>{});
  SmallVector<double> betas =
      attrs.getFloats("activation_beta").value_or(SmallVector<double>{});
  size_t nextAlpha = 0, nextBeta = 0;
  SmallVector<Activation> result;
  for (StringRef name : names) {
    Activation a;
    a.name = name.lower();
    double defaultAlpha = 0, defaultBeta = 0;
    bool usesAlpha = true, usesBeta = false;
    if (a.name == "affine") {
      defaultAlpha = 1;
      usesBeta = true;
    } else if (a.name == "leakyrelu") {
      defaultAlpha = 0.01;
    } else if (a.name == "thresholdedrelu" || a.name == "elu") {
      defaultAlpha = 1;
    } else if (a.name == "scaledtanh") {
      defaultAlpha = 1;
      defaultBeta = 1;
      usesBeta = true;
    } else if (a.name == "hardsigmoid") {
      defaultAlpha = 0.2;
      defaultBeta = 0.5;
      usesBeta = true;
    } else {
      usesAlpha = false;
    }
    a.alpha = usesAlpha && nextAlpha < alphas.size() ? alphas[nextAlpha++]
                                                     : defaultAlpha;
    a.beta =
        usesBeta && nextBeta < betas.size() ? betas[nextBeta++] : defaultBeta;
    result.push_back(a);
  }
  return result;
}

namespace {

/// A tensor's elements as doubles.
std::vector<double> toDoubles(const Tensor &t) {
  std::vector<double> values(t.getNumElements());
  for (int64_t i = 0, e = t.getNumElements(); i < e; ++i)
    values[i] = t.getDouble(i);
  return values;
}

LogicalResult evalRecurrent(EvalState &s) {
  Operation *op = s.getOp();
  Cell cell = getRecurrentCell(op->getName().getStringRef());
  const OpAttrs &attrs = s.getAttrs();
  int64_t gates = getNumGates(cell), dirs = getNumDirections(attrs);
  int64_t layout = attrs.getInt("layout");
  const Tensor &xt = s.input(0);
  ElementType type = xt.getElementType();
  ArrayRef<int64_t> xs = xt.getShape();
  int64_t seq = xs[layout ? 1 : 0], batch = xs[layout ? 0 : 1], in = xs[2];
  int64_t hidden = s.input(2).getShape()[2];
  std::vector<double> x = toDoubles(xt), w = toDoubles(s.input(1)),
                      r = toDoubles(s.input(2));
  std::vector<double> b(dirs * 2 * gates * hidden, 0.0),
      p(dirs * 3 * hidden, 0.0);
  if (s.hasInput(3))
    b = toDoubles(s.input(3));
  std::vector<int64_t> lens(batch, seq);
  if (s.hasInput(4))
    for (int64_t i = 0; i < batch; ++i) {
      lens[i] = s.input(4).getInt(i);
      if (lens[i] < 0 || lens[i] > seq)
        return s.emitError() << "sequence_lens[" << i << "] is " << lens[i]
                             << ", outside [0, " << seq << "]";
    }
  unsigned numStates = cell == Cell::LSTM ? 2 : 1;
  // States in the layout-0 order [dirs, batch, hidden].
  std::vector<double> h(dirs * batch * hidden, 0.0), c(h.size(), 0.0);
  auto stateIndex = [&](int64_t d, int64_t n, int64_t k) {
    return (d * batch + n) * hidden + k;
  };
  auto stateOffset = [&](int64_t d, int64_t n) {
    return layout ? (n * dirs + d) * hidden : (d * batch + n) * hidden;
  };
  for (unsigned i = 0; i < numStates; ++i) {
    if (!s.hasInput(5 + i))
      continue;
    std::vector<double> init = toDoubles(s.input(5 + i));
    std::vector<double> &dst = i == 0 ? h : c;
    for (int64_t d = 0; d < dirs; ++d)
      for (int64_t n = 0; n < batch; ++n)
        for (int64_t k = 0; k < hidden; ++k)
          dst[stateIndex(d, n, k)] = init[stateOffset(d, n) + k];
  }
  if (cell == Cell::LSTM && s.hasInput(7))
    p = toDoubles(s.input(7));
  bool hasClip = attrs.has("clip");
  double clip = attrs.getFloat("clip");
  auto clipped = [&](double v) {
    return hasClip ? std::max(-clip, std::min(clip, v)) : v;
  };
  SmallVector<Activation> acts = getActivations(cell, attrs, dirs);
  unsigned perDir = getNumActivations(cell);
  bool linearBeforeReset =
      cell == Cell::GRU && attrs.getInt("linear_before_reset") != 0;
  bool inputForget = cell == Cell::LSTM && attrs.getInt("input_forget") != 0;

  std::vector<double> y(seq * dirs * batch * hidden, 0.0);
  auto yIndex = [&](int64_t t, int64_t d, int64_t n, int64_t k) {
    return layout ? ((n * seq + t) * dirs + d) * hidden + k
                  : ((t * dirs + d) * batch + n) * hidden + k;
  };
  std::vector<double> xw(gates * hidden), hr(gates * hidden);
  std::vector<double> hNext(hidden), cNext(hidden), zg(hidden), rg(hidden);
  for (int64_t d = 0; d < dirs; ++d) {
    bool reverse = attrs.getString("direction") == "reverse" || d == 1;
    const double *wd = &w[d * gates * hidden * in];
    const double *rd = &r[d * gates * hidden * hidden];
    const double *wb = &b[d * 2 * gates * hidden];
    const double *rb = wb + gates * hidden;
    const double *pd = &p[d * 3 * hidden];
    const Activation &f = acts[d * perDir];
    const Activation &g = acts[d * perDir + (perDir > 1 ? 1 : 0)];
    const Activation &hAct = acts[d * perDir + (perDir > 2 ? 2 : 0)];
    for (int64_t n = 0; n < batch; ++n) {
      double *hs = &h[stateIndex(d, n, 0)];
      double *cs = &c[stateIndex(d, n, 0)];
      for (int64_t step = 0; step < lens[n]; ++step) {
        int64_t t = reverse ? lens[n] - 1 - step : step;
        const double *xv =
            &x[layout ? (n * seq + t) * in : (t * batch + n) * in];
        for (int64_t j = 0; j < gates * hidden; ++j) {
          double sx = wb[j], sh = rb[j];
          for (int64_t k = 0; k < in; ++k)
            sx += xv[k] * wd[j * in + k];
          for (int64_t k = 0; k < hidden; ++k)
            sh += hs[k] * rd[j * hidden + k];
          xw[j] = sx;
          hr[j] = sh;
        }
        if (cell == Cell::RNN) {
          for (int64_t k = 0; k < hidden; ++k)
            hNext[k] = f(clipped(xw[k] + hr[k]));
        } else if (cell == Cell::GRU) {
          // Gates in the order z, r, h.
          for (int64_t k = 0; k < hidden; ++k) {
            zg[k] = f(clipped(xw[k] + hr[k]));
            rg[k] = f(clipped(xw[hidden + k] + hr[hidden + k]));
          }
          for (int64_t k = 0; k < hidden; ++k) {
            double sum;
            if (linearBeforeReset) {
              sum = rg[k] * hr[2 * hidden + k];
            } else {
              // (r . H) R_h^T + Rb_h: the reset gate applies before the
              // product.
              sum = rb[2 * hidden + k];
              for (int64_t m = 0; m < hidden; ++m)
                sum += rg[m] * hs[m] * rd[(2 * hidden + k) * hidden + m];
            }
            double hh = g(clipped(xw[2 * hidden + k] + sum));
            hNext[k] = (1 - zg[k]) * hh + zg[k] * hs[k];
          }
        } else {
          // Gates in the order i, o, f, c; peepholes in the order i, o, f.
          for (int64_t k = 0; k < hidden; ++k) {
            double ig = f(clipped(xw[k] + hr[k] + pd[k] * cs[k]));
            double fg =
                inputForget
                    ? 1 - ig
                    : f(clipped(xw[2 * hidden + k] + hr[2 * hidden + k] +
                                pd[2 * hidden + k] * cs[k]));
            double cg = g(clipped(xw[3 * hidden + k] + hr[3 * hidden + k]));
            cNext[k] = fg * cs[k] + ig * cg;
            double og = f(clipped(xw[hidden + k] + hr[hidden + k] +
                                  pd[hidden + k] * cNext[k]));
            hNext[k] = og * hAct(cNext[k]);
          }
        }
        std::copy(hNext.begin(), hNext.end(), hs);
        if (cell == Cell::LSTM)
          std::copy(cNext.begin(), cNext.end(), cs);
        for (int64_t k = 0; k < hidden; ++k)
          y[yIndex(t, d, n, k)] = hs[k];
      }
    }
  }
  auto makeTensor = [&](ArrayRef<int64_t> shape, auto valueAt) {
    Tensor out(type, shape);
    for (int64_t i = 0, e = out.getNumElements(); i < e; ++i)
      out.setDouble(i, valueAt(i));
    return out;
  };
  SmallVector<int64_t> yShape =
      layout ? SmallVector<int64_t>{batch, seq, dirs, hidden}
             : SmallVector<int64_t>{seq, dirs, batch, hidden};
  s.addOutput(makeTensor(yShape, [&](int64_t i) { return y[i]; }));
  SmallVector<int64_t> stateShape =
      layout ? SmallVector<int64_t>{batch, dirs, hidden}
             : SmallVector<int64_t>{dirs, batch, hidden};
  // Layout-0 index of element i of a state in the op's layout.
  auto fromLayout = [&](int64_t i) {
    int64_t k = i % hidden, rest = i / hidden;
    int64_t d = layout ? rest % dirs : rest / batch;
    int64_t n = layout ? rest / dirs : rest % batch;
    return stateIndex(d, n, k);
  };
  s.addOutput(
      makeTensor(stateShape, [&](int64_t i) { return h[fromLayout(i)]; }));
  if (cell == Cell::LSTM)
    s.addOutput(
        makeTensor(stateShape, [&](int64_t i) { return c[fromLayout(i)]; }));
  return success();
}

const OpDef rnnDef = {
    {"onnx.RNN", rnnOperands, rnnResults, rnnAttrs, OpTrait::Pure},
    inferRecurrent,
    evalRecurrent,
};
const OpDef gruDef = {
    {"onnx.GRU", rnnOperands, rnnResults, gruAttrs, OpTrait::Pure},
    inferRecurrent,
    evalRecurrent,
};
const OpDef lstmDef = {
    {"onnx.LSTM", lstmOperands, lstmResults, lstmAttrs, OpTrait::Pure},
    inferRecurrent,
    evalRecurrent,
};

} // namespace

void appendRecurrentOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&rnnDef);
  defs.push_back(&gruDef);
  defs.push_back(&lstmDef);
}

} // namespace onyx::onnx

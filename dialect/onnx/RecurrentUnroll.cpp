//===- RecurrentUnroll.cpp - RNN, GRU and LSTM as unrolled steps ----------===//
//
// A GPU runs the recurrent layers as the ops their equations are made of,
// one copy per time step (the sequence length is known when compiling):
//
//   XW = X W^T + Wb                       (all steps at once, per direction)
//   for each step t (from the end for the reverse direction):
//     HR = H R^T + Rb
//     gates from slices of XW[t] and HR, clipped, through the activations
//     (GRU's hidden gate with (r . H) R_h^T + Rb_h unless
//      linear_before_reset; LSTM's peepholes and input_forget)
//     H, C = the new state, Y[t] = H
//
// With sequence_lens, a step at or past a batch entry's length keeps its
// state and writes zeros to Y (a Where on t < sequence_lens): processed from
// the last step down, the reverse direction starts at each entry's last
// valid step, as the reference evaluator's does. The result is the
// reference evaluator's computation (Recurrent.cpp) in the input's element
// type.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Recurrent.h"

#include "dialect/onnx/OnnxDialect.h"

#include "ir/Builder.h"
#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

/// Builds ops before the recurrent op; a failed op makes every later one
/// null, so that the caller checks once.
class StepBuilder {
public:
  StepBuilder(Operation *op, ElementType type)
      : b(op->getContext()), loc(op->getLoc()), type(type) {
    b.setInsertionPoint(op);
  }

  Value create(StringRef name, ValueRange operands,
               ArrayRef<NamedAttribute> attrs = {}) {
    return createChained(b, loc, name, operands, attrs);
  }
  Value ints(ArrayRef<int64_t> values) {
    return createConstant(
        b, loc,
        Tensor::fromInts(ElementType::I64, {int64_t(values.size())}, values)
            .toAttr(b.getContext()));
  }
  Value index(int64_t i, ElementType indexType = ElementType::I64) {
    return createConstant(
        b, loc, Tensor::fromInts(indexType, {}, {i}).toAttr(b.getContext()));
  }
  Value scalar(double v) {
    return createConstant(
        b, loc, Tensor::fromDoubles(type, {}, {v}).toAttr(b.getContext()));
  }
  Value zeros(ArrayRef<int64_t> shape) {
    return createConstant(b, loc, Tensor(type, shape).toAttr(b.getContext()));
  }
  /// Zeros of [batch, hidden] where the batch, dimension 1 of `x`, is known
  /// only at run time: ConstantOfShape of a shape computed from Shape(x).
  Value zerosLike(Value x, int64_t hidden) {
    Context *ctx = b.getContext();
    Value batch = create(
        "onnx.Shape", {x},
        {attr("start", getIntAttr(ctx, 1)), attr("end", getIntAttr(ctx, 2))});
    return create("onnx.ConstantOfShape", {concat({batch, ints({hidden})}, 0)},
                  {attr("value", Tensor(type, {1}).toAttr(ctx))});
  }
  NamedAttribute attr(StringRef name, Attribute value) {
    return {b.getStringAttr(name), value};
  }
  /// Element `i` of `v` along `axis` (the axis removed).
  Value gather(Value v, int64_t i, int64_t axis = 0) {
    return create("onnx.Gather", {v, index(i)},
                  {attr("axis", getIntAttr(b.getContext(), axis))});
  }
  /// Elements [begin, end) of `v` along `axis`.
  Value slice(Value v, int64_t begin, int64_t end, int64_t axis) {
    return create("onnx.Slice", {v, ints({begin}), ints({end}), ints({axis})});
  }
  Value transpose(Value v, ArrayRef<int64_t> perm) {
    return create("onnx.Transpose", {v},
                  {attr("perm", getIntsAttr(b.getContext(), perm))});
  }
  Value unsqueeze(Value v, int64_t axis) {
    return create("onnx.Unsqueeze", {v, ints({axis})});
  }
  Value concat(ArrayRef<Value> values, int64_t axis) {
    if (values.size() == 1)
      return values.front();
    return create("onnx.Concat", values,
                  {attr("axis", getIntAttr(b.getContext(), axis))});
  }
  Value add(Value x, Value y) { return create("onnx.Add", {x, y}); }
  Value mul(Value x, Value y) { return create("onnx.Mul", {x, y}); }

  /// `x` through activation `a`, as the reference evaluator computes it.
  Value activate(const Activation &a, Value x) {
    Context *ctx = b.getContext();
    const std::string &n = a.name;
    if (n == "relu" || n == "tanh" || n == "sigmoid" || n == "softplus")
      return create(n == "relu"      ? "onnx.Relu"
                    : n == "tanh"    ? "onnx.Tanh"
                    : n == "sigmoid" ? "onnx.Sigmoid"
                                     : "onnx.Softplus",
                    {x});
    if (n == "affine")
      return add(mul(x, scalar(a.alpha)), scalar(a.beta));
    if (n == "leakyrelu" || n == "elu")
      return create(n == "elu" ? "onnx.Elu" : "onnx.LeakyRelu", {x},
                    {attr("alpha", getFloatAttr(ctx, a.alpha))});
    if (n == "thresholdedrelu")
      return create("onnx.Where", {create("onnx.Greater", {x, scalar(a.alpha)}),
                                   x, scalar(0)});
    if (n == "scaledtanh")
      return mul(create("onnx.Tanh", {mul(x, scalar(a.beta))}),
                 scalar(a.alpha));
    if (n == "hardsigmoid")
      return create("onnx.HardSigmoid", {x},
                    {attr("alpha", getFloatAttr(ctx, a.alpha)),
                     attr("beta", getFloatAttr(ctx, a.beta))});
    // softsign
    return create("onnx.Div", {x, add(create("onnx.Abs", {x}), scalar(1))});
  }

  OpBuilder b;
  Location loc;
  ElementType type;
};

bool has(Operation *op, unsigned i) {
  return i < op->getNumOperands() && !isNoValue(op->getOperand(i));
}

} // namespace

LogicalResult unrollRecurrentOp(Operation *op, int64_t maxOps) {
  Cell cell = getRecurrentCell(op->getName().getStringRef());
  OpAttrs attrs(op);
  auto xType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto rType = cast<RankedTensorType>(op->getOperand(2).getType());
  int64_t layout = attrs.getInt("layout");
  int64_t seq = xType.getShape()[layout ? 1 : 0];
  int64_t batch = xType.getShape()[layout ? 0 : 1];
  int64_t hidden = rType.getShape()[2];
  // The batch may be known only at run time: every step's ops take `?`
  // rows. The steps and the state's size must be known.
  if (ShapedType::isDynamic(seq) || ShapedType::isDynamic(hidden))
    return op->emitOpError()
           << "has a sequence length or hidden size known only at run "
              "time (X is "
           << Type(xType) << ", R is " << Type(rType)
           << "); a recurrent layer runs on Vulkan unrolled, its steps known "
              "when compiling (bind the model's symbolic dimensions, or "
              "--backend=ref)";
  if (seq == 0)
    return op->emitOpError() << "has a sequence of length 0, which does not "
                                "run on Vulkan (--backend=ref runs it)";
  int64_t dirs = getNumDirections(attrs);
  int64_t gates = getNumGates(cell);
  // A step is about 15 ops per gate; the bound keeps a long sequence from
  // becoming a program of millions of dispatches.
  int64_t perStep = 16 * gates + 8;
  if (seq * dirs > maxOps / perStep)
    return op->emitOpError()
           << "would unroll to " << seq * dirs << " steps of about " << perStep
           << " ops, more than the " << maxOps
           << " an unrolled recurrent layer may have on Vulkan (--backend=ref "
              "runs it)";
  std::optional<ElementType> type = getElementType(xType.getElementType());
  StepBuilder sb(op, *type);
  SmallVector<Activation> acts = getActivations(cell, attrs, dirs);
  unsigned perDir = getNumActivations(cell);
  bool hasClip = attrs.has("clip");
  double clip = attrs.getFloat("clip");
  bool linearBeforeReset =
      cell == Cell::GRU && attrs.getInt("linear_before_reset") != 0;
  bool inputForget = cell == Cell::LSTM && attrs.getInt("input_forget") != 0;
  bool isLSTM = cell == Cell::LSTM;
  Value clipMin = hasClip ? sb.scalar(-clip) : Value();
  Value clipMax = hasClip ? sb.scalar(clip) : Value();
  auto clipped = [&](Value v) {
    return hasClip ? sb.create("onnx.Clip", {v, clipMin, clipMax}) : v;
  };
  // X as [seq, batch, input].
  Value x = op->getOperand(0);
  if (layout)
    x = sb.transpose(x, {1, 0, 2});
  // sequence_lens as a [batch, 1] mask per step, unless absent.
  Value lens = has(op, 4) ? op->getOperand(4) : Value();
  Value one = sb.scalar(1), zero = sb.scalar(0);
  // The state where no initial one is given.
  Value zeroState;
  if (!has(op, 5) || (isLSTM && !has(op, 6)))
    zeroState = ShapedType::isDynamic(batch) ? sb.zerosLike(x, hidden)
                                             : sb.zeros({batch, hidden});

  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < dirs; ++d) {
    bool reverse = attrs.getString("direction") == "reverse" || d == 1;
    const Activation &f = acts[d * perDir];
    const Activation &g = acts[d * perDir + (perDir > 1 ? 1 : 0)];
    const Activation &hAct = acts[d * perDir + (perDir > 2 ? 2 : 0)];
    Value w = sb.gather(op->getOperand(1), d);
    Value rT = sb.transpose(sb.gather(op->getOperand(2), d), {1, 0});
    Value wb, rb;
    if (has(op, 3)) {
      Value bias = sb.gather(op->getOperand(3), d);
      wb = sb.slice(bias, 0, gates * hidden, 0);
      rb = sb.slice(bias, gates * hidden, 2 * gates * hidden, 0);
    }
    Value xw = sb.create("onnx.MatMul", {x, sb.transpose(w, {1, 0})});
    if (wb)
      xw = sb.add(xw, wb);
    auto initial = [&](unsigned i) {
      return has(op, i) ? sb.gather(op->getOperand(i), d, layout ? 1 : 0)
                        : zeroState;
    };
    Value h = initial(5), c = isLSTM ? initial(6) : Value();
    Value pi, po, pf;
    if (isLSTM && has(op, 7)) {
      Value p = sb.gather(op->getOperand(7), d);
      pi = sb.slice(p, 0, hidden, 0);
      po = sb.slice(p, hidden, 2 * hidden, 0);
      pf = sb.slice(p, 2 * hidden, 3 * hidden, 0);
    }
    // GRU without linear_before_reset multiplies r . H by R_h itself.
    Value rhT, rbh;
    if (cell == Cell::GRU && !linearBeforeReset) {
      rhT = sb.slice(rT, 2 * hidden, 3 * hidden, 1);
      if (rb)
        rbh = sb.slice(rb, 2 * hidden, 3 * hidden, 0);
    }
    SmallVector<Value> y(seq);
    for (int64_t step = 0; step < seq; ++step) {
      int64_t t = reverse ? seq - 1 - step : step;
      Value xt = sb.gather(xw, t);
      Value hr = sb.create("onnx.MatMul", {h, rT});
      if (rb)
        hr = sb.add(hr, rb);
      auto gate = [&](Value v, int64_t k) {
        return sb.slice(v, k * hidden, (k + 1) * hidden, 1);
      };
      auto sum = [&](int64_t k) { return sb.add(gate(xt, k), gate(hr, k)); };
      Value hNext, cNext;
      if (cell == Cell::RNN) {
        hNext = sb.activate(f, clipped(sum(0)));
      } else if (cell == Cell::GRU) {
        // Gates in the order z, r, h.
        Value z = sb.activate(f, clipped(sum(0)));
        Value r = sb.activate(f, clipped(sum(1)));
        Value recur;
        if (linearBeforeReset) {
          recur = sb.mul(r, gate(hr, 2));
        } else {
          recur = sb.create("onnx.MatMul", {sb.mul(r, h), rhT});
          if (rbh)
            recur = sb.add(recur, rbh);
        }
        Value hh = sb.activate(g, clipped(sb.add(gate(xt, 2), recur)));
        hNext =
            sb.add(sb.mul(sb.create("onnx.Sub", {one, z}), hh), sb.mul(z, h));
      } else {
        // Gates in the order i, o, f, c; peepholes in the order i, o, f.
        Value si = sum(0), sf = sum(2), so = sum(1);
        if (pi) {
          si = sb.add(si, sb.mul(pi, c));
          sf = sb.add(sf, sb.mul(pf, c));
        }
        Value ig = sb.activate(f, clipped(si));
        Value fg = inputForget ? sb.create("onnx.Sub", {one, ig})
                               : sb.activate(f, clipped(sf));
        Value cg = sb.activate(g, clipped(sum(3)));
        cNext = sb.add(sb.mul(fg, c), sb.mul(ig, cg));
        if (po)
          so = sb.add(so, sb.mul(po, cNext));
        Value og = sb.activate(f, clipped(so));
        hNext = sb.mul(og, sb.activate(hAct, cNext));
      }
      if (lens) {
        // Steps at or past an entry's length keep its state, write zeros.
        Value valid = sb.unsqueeze(
            sb.create("onnx.Less", {sb.index(t, ElementType::I32), lens}), 1);
        hNext = sb.create("onnx.Where", {valid, hNext, h});
        if (isLSTM)
          cNext = sb.create("onnx.Where", {valid, cNext, c});
        y[t] = sb.create("onnx.Where", {valid, hNext, zero});
      } else {
        y[t] = hNext;
      }
      h = hNext;
      c = cNext;
    }
    SmallVector<Value> stacked;
    for (Value v : y)
      stacked.push_back(sb.unsqueeze(v, 0));
    ys.push_back(sb.unsqueeze(sb.concat(stacked, 0), 1));
    hs.push_back(sb.unsqueeze(h, 0));
    if (isLSTM)
      cs.push_back(sb.unsqueeze(c, 0));
  }
  // Y as [seq, dirs, batch, hidden] and the states as [dirs, batch,
  // hidden], or batch first.
  SmallVector<Value> results = {sb.concat(ys, 1), sb.concat(hs, 0)};
  if (isLSTM)
    results.push_back(sb.concat(cs, 0));
  if (layout) {
    results[0] = sb.transpose(results[0], {2, 0, 1, 3});
    for (Value &state : MutableArrayRef<Value>(results).drop_front())
      state = sb.transpose(state, {1, 0, 2});
  }
  if (llvm::is_contained(results, Value()))
    return failure();
  replaceAndErase(op, results);
  return success();
}

} // namespace onyx::onnx

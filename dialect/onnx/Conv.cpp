//===- Conv.cpp - onnx.Conv ----------------------------------------------===//
//
// N-dimensional grouped convolution (1-D and 2-D in practice) with strides,
// dilations, explicit or automatic padding, and an optional bias.
//
// A BatchNormalization (inference) applied to a Conv's result folds into
// the Conv's weights and bias when they and the normalization's parameters
// are constants: y = (conv(x, W) + B - mean) * s + bias with
// s = scale / sqrt(var + epsilon) is conv(x, W * s) + (B - mean) * s + bias.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Contraction.h"
#include "dialect/onnx/SlidingWindow.h"

#include "ir/Operation.h"

#include <cmath>

namespace onyx::onnx {

namespace {

const ValueSpec convOperands[] = {{"X"}, {"W"}, {"B", Presence::Optional}};
const ValueSpec convResults[] = {{"Y"}};

} // namespace

const AttrSpec convAttrs[kNumConvAttrs] = {
    stringAttr("auto_pad", "NOTSET", autoPadValues),
    optionalAttr("dilations", AttrType::Ints),
    intAttr("group", 1),
    optionalAttr("kernel_shape", AttrType::Ints),
    optionalAttr("pads", AttrType::Ints),
    optionalAttr("strides", AttrType::Ints),
};

FailureOr<SmallVector<int64_t>> inferConvShape(InferState &s, unsigned xi,
                                               unsigned wi) {
  FailureOr<int64_t> checkedGroup = checkConvOperands(s, xi, wi);
  if (failed(checkedGroup))
    return failure();
  int64_t group = *checkedGroup;
  ArrayRef<int64_t> x = s.getShape(xi), w = s.getShape(wi);
  int64_t channels = x[1], perGroup = w[1], filters = w[0];
  if (!ShapedType::isDynamic(channels) && !ShapedType::isDynamic(perGroup) &&
      channels != perGroup * group)
    return s.emitOperandError(wi)
           << "has " << perGroup << " input channels per group, but '"
           << s.getOperandName(xi) << "' has " << channels << " channels in "
           << group << " groups";
  if (!ShapedType::isDynamic(filters) && filters % group != 0)
    return s.emitOperandError(wi)
           << "has " << filters << " filters, not divisible into " << group
           << " groups";
  FailureOr<ArrayRef<int64_t>> kernel = inferConvKernel(s, wi);
  if (failed(kernel))
    return failure();
  FailureOr<WindowGeometry> g =
      computeWindowGeometry(s.getAttrs(), x.drop_front(2), *kernel, false,
                            [&] { return s.emitError(); });
  if (failed(g))
    return failure();
  SmallVector<int64_t> shape = {x[0], filters};
  shape.append(g->output.begin(), g->output.end());
  return shape;
}

namespace {

LogicalResult inferConv(InferState &s) {
  if (failed(s.checkFloat(0)) || failed(s.checkSameElementType(0, 1)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = inferConvShape(s, 0, 1);
  if (failed(shape))
    return failure();
  if (s.hasOperand(2)) {
    if (failed(s.checkSameElementType(0, 2)) || failed(s.checkRank(2, 1)))
      return failure();
    int64_t b = s.getShape(2)[0], filters = (*shape)[1];
    if (b != filters && !ShapedType::isDynamic(b) &&
        !ShapedType::isDynamic(filters))
      return s.emitOperandError(2) << "must have " << filters
                                   << " elements (one per filter), got " << b;
  }
  s.addResult(*shape, s.getElementType(0));
  return success();
}

/// Visits the positions of an N-d box of sizes `sizes` in row-major order,
/// passing the multi-index.
template <typename F> void forEachIndex(ArrayRef<int64_t> sizes, F fn) {
  int64_t total = getNumElements(sizes);
  SmallVector<int64_t, 4> index(sizes.size(), 0);
  for (int64_t i = 0; i < total; ++i) {
    fn(ArrayRef<int64_t>(index));
    for (size_t d = sizes.size(); d-- > 0;) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}

} // namespace

FailureOr<Tensor> convolve(EvalState &s, const Tensor &xT, const Tensor &wT,
                           const Tensor &biasT) {
  ArrayRef<int64_t> xs = xT.getShape(), ws = wT.getShape();
  int64_t group = s.getAttrs().getInt("group");
  FailureOr<WindowGeometry> g =
      computeWindowGeometry(s.getAttrs(), xs.drop_front(2), ws.drop_front(2),
                            false, [&] { return s.emitError(); });
  if (failed(g))
    return failure();
  int64_t batch = xs[0], channels = xs[1], filters = ws[0];
  int64_t perGroup = channels / group, filtersPerGroup = filters / group;
  size_t spatial = xs.size() - 2;
  ArrayRef<int64_t> inSizes = xs.drop_front(2), kernel = ws.drop_front(2);
  F64Convolution f = makeF64Convolution(xT, wT, batch, filters, g->output);
  ArrayRef<double> xv = f.x.getValues<double>(), wv = f.w.getValues<double>();
  MutableArrayRef<double> ov = f.out.getMutableValues<double>();
  Tensor bias;
  if (biasT)
    bias = convertTensor(biasT, ElementType::F64);

  int64_t inPlane = getNumElements(inSizes);
  int64_t kernelSize = getNumElements(kernel);
  SmallVector<int64_t> inStrides = getStrides(inSizes);
  // Each kernel position as an offset per spatial dimension (dilated).
  SmallVector<int64_t> kernelOffsets;
  forEachIndex(kernel, [&](ArrayRef<int64_t> k) {
    for (size_t d = 0; d < spatial; ++d)
      kernelOffsets.push_back(k[d] * g->dilations[d]);
  });

  int64_t o = 0;
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t m = 0; m < filters; ++m) {
      int64_t firstChannel = (m / filtersPerGroup) * perGroup;
      double b = bias ? bias.getValues<double>()[m] : 0.0;
      forEachIndex(g->output, [&](ArrayRef<int64_t> pos) {
        double acc = b;
        for (int64_t k = 0; k < kernelSize; ++k) {
          int64_t offset = 0;
          bool inside = true;
          for (size_t d = 0; d < spatial && inside; ++d) {
            int64_t i = pos[d] * g->strides[d] - g->pads[d] +
                        kernelOffsets[k * spatial + d];
            inside = i >= 0 && i < inSizes[d];
            offset += i * inStrides[d];
          }
          if (!inside)
            continue;
          for (int64_t c = 0; c < perGroup; ++c)
            acc += xv[(n * channels + firstChannel + c) * inPlane + offset] *
                   wv[(m * perGroup + c) * kernelSize + k];
        }
        ov[o++] = acc;
      });
    }
  }
  return std::move(f.out);
}

namespace {

LogicalResult evalConv(EvalState &s) {
  FailureOr<Tensor> out = convolve(s, s.input(0), s.input(1),
                                   s.hasInput(2) ? s.input(2) : Tensor());
  if (failed(out))
    return failure();
  s.addOutput(convertTensor(*out, s.input(0).getElementType()));
  return success();
}

const OpDef convDef = {
    {"onnx.Conv", convOperands, convResults, convAttrs, OpTrait::Pure},
    inferConv,
    evalConv,
};

} // namespace

void appendConvOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&convDef);
}

//===----------------------------------------------------------------------===//
// BatchNormalization after Conv
//===----------------------------------------------------------------------===//

static LogicalResult foldBatchNormIntoConv(Operation *bn,
                                           PatternRewriter &rewriter) {
  Operation *conv = getDefiningOp(bn->getOperand(0), "onnx.Conv");
  if (!conv || !conv->getResult(0).hasOneUse())
    return failure();
  DenseElementsAttr wAttr = getConstantValue(conv->getOperand(1));
  DenseElementsAttr bAttr;
  if (conv->getNumOperands() > 2 && !isNoValue(conv->getOperand(2))) {
    bAttr = getConstantValue(conv->getOperand(2));
    if (!bAttr)
      return failure();
  }
  SmallVector<Tensor, 4> params;
  for (unsigned i = 1; i < 5; ++i) {
    DenseElementsAttr attr = getConstantValue(bn->getOperand(i));
    std::optional<Tensor> t = attr ? Tensor::fromAttr(attr) : std::nullopt;
    if (!t)
      return failure();
    params.push_back(convertTensor(*t, ElementType::F64));
  }
  std::optional<Tensor> wOrig = wAttr ? Tensor::fromAttr(wAttr) : std::nullopt;
  if (!wOrig || !haveSameType(conv->getResult(0), bn->getResult(0)))
    return failure();
  int64_t filters = wOrig->getShape()[0];
  for (const Tensor &p : params)
    if (p.getNumElements() != filters)
      return failure();

  double epsilon = OpAttrs(bn).getFloat("epsilon");
  ArrayRef<double> scale = params[0].getValues<double>();
  ArrayRef<double> shift = params[1].getValues<double>();
  ArrayRef<double> mean = params[2].getValues<double>();
  ArrayRef<double> var = params[3].getValues<double>();
  Tensor w = convertTensor(*wOrig, ElementType::F64);
  MutableArrayRef<double> wv = w.getMutableValues<double>();
  Tensor b(ElementType::F64, {filters});
  MutableArrayRef<double> bv = b.getMutableValues<double>();
  Tensor oldBias =
      bAttr ? convertTensor(*Tensor::fromAttr(bAttr), ElementType::F64)
            : Tensor();
  int64_t perFilter = w.getNumElements() / std::max<int64_t>(filters, 1);
  for (int64_t m = 0; m < filters; ++m) {
    double factor = scale[m] / std::sqrt(var[m] + epsilon);
    for (int64_t i = 0; i < perFilter; ++i)
      wv[m * perFilter + i] *= factor;
    double old = oldBias ? oldBias.getValues<double>()[m] : 0.0;
    bv[m] = (old - mean[m]) * factor + shift[m];
  }
  Context *ctx = rewriter.getContext();
  ElementType type = wOrig->getElementType();
  rewriter.setInsertionPoint(bn);
  Value newW = createConstant(rewriter, conv->getLoc(),
                              convertTensor(w, type).toAttr(ctx));
  Value newB = createConstant(rewriter, conv->getLoc(),
                              convertTensor(b, type).toAttr(ctx));
  SmallVector<NamedAttribute> attrs(conv->getAttrs());
  Operation *fused = createOpOrNull(rewriter, conv->getLoc(), "onnx.Conv",
                                    {conv->getOperand(0), newW, newB}, attrs);
  assert(fused && fused->getResult(0).getType() == bn->getResult(0).getType() &&
         "the fused Conv has the original's type");
  rewriter.replaceOp(bn, fused);
  return success();
}

void addConvBatchNormPatterns(PatternSet &patterns, Context *) {
  addPattern(patterns, "onnx.BatchNormalization", foldBatchNormIntoConv,
             "fold-batchnorm-into-conv");
}

} // namespace onyx::onnx

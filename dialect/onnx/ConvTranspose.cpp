//===- ConvTranspose.cpp - onnx.ConvTranspose -----------------------------===//
//
// The transposed (fractionally strided) convolution: the gradient of Conv
// with respect to its input, used to upsample in U-Nets, detectors and
// decoders. Every input element x[n, c, i] is spread over the output:
// y[n, g*Mg + m, i * stride + k * dilation - pad] += x[n, c, i] * W[c, m, k]
// for the input channels c of group g, W being C x M/group x kernel. The
// geometry (output sizes from output_shape, auto_pad or pads and
// output_padding) is SlidingWindow.h's computeTransposedGeometry.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/SlidingWindow.h"

#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

const ValueSpec convTransposeOperands[] = {
    {"X"}, {"W"}, {"B", Presence::Optional}};
const ValueSpec convTransposeResults[] = {{"Y"}};
const AttrSpec convTransposeAttrs[] = {
    stringAttr("auto_pad", "NOTSET", autoPadValues),
    optionalAttr("dilations", AttrType::Ints),
    intAttr("group", 1),
    optionalAttr("kernel_shape", AttrType::Ints),
    optionalAttr("output_padding", AttrType::Ints),
    optionalAttr("output_shape", AttrType::Ints),
    optionalAttr("pads", AttrType::Ints),
    optionalAttr("strides", AttrType::Ints),
};

LogicalResult inferConvTranspose(InferState &s) {
  if (failed(s.checkFloat(0)) || failed(s.checkSameElementType(0, 1)))
    return failure();
  FailureOr<int64_t> checkedGroup = checkConvOperands(s, 0, 1);
  if (failed(checkedGroup))
    return failure();
  int64_t group = *checkedGroup;
  ArrayRef<int64_t> x = s.getShape(0), w = s.getShape(1);
  int64_t channels = x[1], wChannels = w[0], perGroup = w[1];
  if (!ShapedType::isDynamic(channels) && !ShapedType::isDynamic(wChannels) &&
      channels != wChannels)
    return s.emitOperandError(1) << "has " << wChannels
                                 << " input channels, but 'X' has " << channels;
  if (!ShapedType::isDynamic(wChannels) && wChannels % group != 0)
    return s.emitOperandError(1)
           << "has " << wChannels << " input channels, not divisible into "
           << group << " groups";
  int64_t filters =
      ShapedType::isDynamic(perGroup) ? ShapedType::kDynamic : perGroup * group;
  if (s.hasOperand(2)) {
    if (failed(s.checkSameElementType(0, 2)) || failed(s.checkRank(2, 1)))
      return failure();
    int64_t b = s.getShape(2)[0];
    if (b != filters && !ShapedType::isDynamic(b) &&
        !ShapedType::isDynamic(filters))
      return s.emitOperandError(2)
             << "must have " << filters
             << " elements (one per output channel), got " << b;
  }
  FailureOr<ArrayRef<int64_t>> kernel = inferConvKernel(s, 1);
  if (failed(kernel))
    return failure();
  FailureOr<WindowGeometry> g = computeTransposedGeometry(
      s.getAttrs(), x.drop_front(2), *kernel, [&] { return s.emitError(); });
  if (failed(g))
    return failure();
  SmallVector<int64_t> shape = {x[0], filters};
  shape.append(g->output.begin(), g->output.end());
  s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult evalConvTranspose(EvalState &s) {
  const Tensor &xT = s.input(0), &wT = s.input(1);
  ArrayRef<int64_t> xs = xT.getShape(), ws = wT.getShape();
  ArrayRef<int64_t> inSizes = xs.drop_front(2), kernel = ws.drop_front(2);
  FailureOr<WindowGeometry> g = computeTransposedGeometry(
      s.getAttrs(), inSizes, kernel, [&] { return s.emitError(); });
  if (failed(g))
    return failure();
  int64_t group = s.getAttrs().getInt("group");
  int64_t batch = xs[0], channels = xs[1], perGroup = ws[1];
  int64_t filters = perGroup * group, channelsPerGroup = channels / group;
  size_t spatial = inSizes.size();
  F64Convolution f = makeF64Convolution(xT, wT, batch, filters, g->output);
  ArrayRef<double> xv = f.x.getValues<double>(), wv = f.w.getValues<double>();
  MutableArrayRef<double> ov = f.out.getMutableValues<double>();
  int64_t inPlane = getNumElements(inSizes);
  int64_t outPlane = getNumElements(g->output);
  int64_t kernelSize = getNumElements(kernel);
  SmallVector<int64_t> inStrides = getStrides(inSizes);
  SmallVector<int64_t> outStrides = getStrides(g->output);
  SmallVector<int64_t> kernelStrides = getStrides(kernel);
  if (s.hasInput(2)) {
    Tensor bias = convertTensor(s.input(2), ElementType::F64);
    ArrayRef<double> bv = bias.getValues<double>();
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t m = 0; m < filters; ++m)
        std::fill_n(ov.begin() + (n * filters + m) * outPlane, outPlane, bv[m]);
  }
  // The output offset of every (input position, kernel offset) pair, or -1
  // where it falls in the padding; the same for every channel.
  SmallVector<int64_t> target(inPlane * kernelSize);
  for (int64_t i = 0; i < inPlane; ++i) {
    for (int64_t k = 0; k < kernelSize; ++k) {
      int64_t offset = 0;
      for (size_t d = 0; d < spatial && offset >= 0; ++d) {
        int64_t id = i / inStrides[d] % inSizes[d];
        int64_t kd = k / kernelStrides[d] % kernel[d];
        int64_t o = id * g->strides[d] + kd * g->dilations[d] - g->pads[d];
        offset = o >= 0 && o < g->output[d] ? offset + o * outStrides[d] : -1;
      }
      target[i * kernelSize + k] = offset;
    }
  }
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      int64_t firstFilter = c / channelsPerGroup * perGroup;
      const double *xc = xv.data() + (n * channels + c) * inPlane;
      for (int64_t m = 0; m < perGroup; ++m) {
        const double *wcm = wv.data() + (c * perGroup + m) * kernelSize;
        double *ym = ov.data() + (n * filters + firstFilter + m) * outPlane;
        for (int64_t i = 0; i < inPlane; ++i)
          for (int64_t k = 0; k < kernelSize; ++k)
            if (int64_t t = target[i * kernelSize + k]; t >= 0)
              ym[t] += xc[i] * wcm[k];
      }
    }
  }
  s.addOutput(convertTensor(f.out, xT.getElementType()));
  return success();
}

const OpDef convTransposeDef = {
    {"onnx.ConvTranspose", convTransposeOperands, convTransposeResults,
     convTransposeAttrs, OpTrait::Pure},
    inferConvTranspose,
    evalConvTranspose,
};

} // namespace

void appendConvTransposeOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&convTransposeDef);
}

} // namespace onyx::onnx

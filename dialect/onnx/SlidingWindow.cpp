//===- SlidingWindow.cpp - Geometry of convolution and pooling ------------===//

#include "dialect/onnx/SlidingWindow.h"

#include <tuple>

namespace onyx::onnx {

const StringRef autoPadValues[4] = {"NOTSET", "SAME_UPPER", "SAME_LOWER",
                                    "VALID"};

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// `kernel` and the strides, dilations and pads of `attrs`, or their
/// defaults for `rank` spatial dimensions (1, 1 and 0); their sizes are
/// not checked yet.
static WindowGeometry readWindowAttrs(const OpAttrs &attrs,
                                      ArrayRef<int64_t> kernel, size_t rank) {
  WindowGeometry g;
  g.kernel.assign(kernel.begin(), kernel.end());
  g.strides = attrs.getInts("strides").value_or(SmallVector<int64_t>(rank, 1));
  g.dilations =
      attrs.getInts("dilations").value_or(SmallVector<int64_t>(rank, 1));
  g.pads = attrs.getInts("pads").value_or(SmallVector<int64_t>(2 * rank, 0));
  return g;
}

/// Checks spatial dimension `i` of `g`: strides, dilations and kernel sizes
/// positive, pads not negative.
static LogicalResult
checkWindowDimension(const WindowGeometry &g, size_t i,
                     llvm::function_ref<InFlightDiagnostic()> emitError) {
  size_t rank = g.kernel.size();
  if (g.strides[i] < 1 || g.dilations[i] < 1 || g.kernel[i] < 1)
    return emitError() << "strides, dilations and kernel sizes must be "
                          "positive";
  if (g.pads[i] < 0 || g.pads[rank + i] < 0)
    return emitError() << "attribute 'pads' must not be negative";
  return success();
}

FailureOr<WindowGeometry>
computeWindowGeometry(const OpAttrs &attrs, ArrayRef<int64_t> input,
                      ArrayRef<int64_t> kernel, bool allowCeilMode,
                      llvm::function_ref<InFlightDiagnostic()> emitError) {
  size_t rank = input.size();
  WindowGeometry g = readWindowAttrs(attrs, kernel, rank);
  if (g.strides.size() != rank)
    return emitError() << "attribute 'strides' must have " << uint64_t(rank)
                       << " values";
  if (g.dilations.size() != rank)
    return emitError() << "attribute 'dilations' must have " << uint64_t(rank)
                       << " values";
  if (g.pads.size() != 2 * rank)
    return emitError() << "attribute 'pads' must have " << uint64_t(2 * rank)
                       << " values";
  for (size_t i = 0; i < rank; ++i)
    if (failed(checkWindowDimension(g, i, emitError)))
      return failure();
  StringRef autoPad = attrs.getString("auto_pad");
  bool ceilMode = allowCeilMode && attrs.getInt("ceil_mode") != 0;
  if (autoPad != "NOTSET" && attrs.has("pads"))
    return emitError() << "attribute 'pads' cannot be used with auto_pad "
                       << autoPad;
  for (size_t i = 0; i < rank; ++i) {
    int64_t in = input[i];
    int64_t extent = g.dilations[i] * (g.kernel[i] - 1) + 1;
    if (ShapedType::isDynamic(in)) {
      g.output.push_back(ShapedType::kDynamic);
      continue;
    }
    if (autoPad == "VALID") {
      g.pads[i] = g.pads[rank + i] = 0;
    } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      // The output has ceil(in / stride) elements; the padding that takes
      // is split evenly, the odd one going to the end (SAME_UPPER) or the
      // beginning (SAME_LOWER).
      int64_t out = ceilDiv(in, g.strides[i]);
      int64_t total =
          std::max<int64_t>(0, (out - 1) * g.strides[i] + extent - in);
      int64_t small = total / 2, large = total - small;
      g.pads[i] = autoPad == "SAME_UPPER" ? small : large;
      g.pads[rank + i] = autoPad == "SAME_UPPER" ? large : small;
      g.output.push_back(out);
      continue;
    }
    int64_t span = in + g.pads[i] + g.pads[rank + i] - extent;
    if (span < 0)
      return emitError() << "window of size " << extent
                         << " does not fit spatial dimension " << uint64_t(i)
                         << " of size " << in << " with its padding";
    int64_t out =
        (ceilMode ? ceilDiv(span, g.strides[i]) : span / g.strides[i]) + 1;
    // In ceil mode the last window must start inside the input or the
    // begin padding, not in the end padding.
    if (ceilMode && (out - 1) * g.strides[i] >= in + g.pads[i])
      --out;
    g.output.push_back(out);
  }
  return g;
}

FailureOr<WindowGeometry>
computeTransposedGeometry(const OpAttrs &attrs, ArrayRef<int64_t> input,
                          ArrayRef<int64_t> kernel,
                          llvm::function_ref<InFlightDiagnostic()> emitError) {
  size_t rank = input.size();
  WindowGeometry g = readWindowAttrs(attrs, kernel, rank);
  SmallVector<int64_t> outputPadding =
      attrs.getInts("output_padding").value_or(SmallVector<int64_t>(rank, 0));
  std::optional<SmallVector<int64_t>> outputShape =
      attrs.getInts("output_shape");
  for (auto [name, size, expected] :
       {std::tuple<StringRef, size_t, size_t>{"strides", g.strides.size(),
                                              rank},
        {"dilations", g.dilations.size(), rank},
        {"pads", g.pads.size(), 2 * rank},
        {"output_padding", outputPadding.size(), rank}})
    if (size != expected)
      return emitError() << "attribute '" << name << "' must have "
                         << uint64_t(expected) << " values, got "
                         << uint64_t(size);
  // output_shape may name every dim (N, C, spatial) or the spatial ones.
  if (outputShape && outputShape->size() == rank + 2)
    outputShape->erase(outputShape->begin(), outputShape->begin() + 2);
  if (outputShape && outputShape->size() != rank)
    return emitError() << "attribute 'output_shape' must have "
                       << uint64_t(rank) << " values (or " << uint64_t(rank + 2)
                       << " with N and C), got "
                       << uint64_t(attrs.getInts("output_shape")->size());
  StringRef autoPad = attrs.getString("auto_pad");
  if (autoPad != "NOTSET" && attrs.has("pads"))
    return emitError() << "attribute 'pads' cannot be used with auto_pad "
                       << autoPad;
  for (size_t i = 0; i < rank; ++i) {
    if (failed(checkWindowDimension(g, i, emitError)))
      return failure();
    // ONNX requires output_padding < stride or < dilation.
    if (outputPadding[i] < 0 ||
        outputPadding[i] >= std::max(g.strides[i], g.dilations[i]))
      return emitError() << "attribute 'output_padding' must be at least 0 "
                            "and less than the stride or the dilation of "
                            "its dimension, got "
                         << outputPadding[i] << " for dimension "
                         << uint64_t(i);
    if (outputShape && (*outputShape)[i] < 0)
      return emitError() << "attribute 'output_shape' must not be negative";
  }
  for (size_t i = 0; i < rank; ++i) {
    int64_t in = input[i];
    int64_t extent = g.dilations[i] * (g.kernel[i] - 1) + 1;
    if (ShapedType::isDynamic(in)) {
      g.output.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t full = g.strides[i] * (in - 1) + outputPadding[i] + extent;
    std::optional<int64_t> out;
    if (outputShape)
      out = (*outputShape)[i];
    else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")
      out = in * g.strides[i];
    if (out) {
      int64_t total = std::max<int64_t>(0, full - *out);
      int64_t half = total / 2;
      bool upper = autoPad == "SAME_UPPER";
      g.pads[i] = upper ? half : total - half;
      g.pads[rank + i] = upper ? total - half : half;
      g.output.push_back(*out);
      continue;
    }
    if (autoPad == "VALID")
      g.pads[i] = g.pads[rank + i] = 0;
    int64_t size = full - g.pads[i] - g.pads[rank + i];
    if (size < 0)
      return emitError() << "pads of " << g.pads[i] << " and "
                         << g.pads[rank + i]
                         << " leave no output in spatial dimension "
                         << uint64_t(i) << " (of size " << full << ")";
    g.output.push_back(size);
  }
  return g;
}

FailureOr<int64_t> checkConvOperands(InferState &s, unsigned x, unsigned w) {
  if (failed(s.checkMinRank(x, 3, "N x C x spatial")) ||
      failed(s.checkRank(w, s.getRank(x))))
    return failure();
  int64_t group = s.getAttrs().getInt("group");
  if (group < 1)
    return s.emitAttrError("group") << "must be positive, got " << group;
  return group;
}

FailureOr<ArrayRef<int64_t>> inferConvKernel(InferState &s, unsigned w) {
  ArrayRef<int64_t> kernel = s.getShape(w).drop_front(2);
  if (llvm::any_of(kernel, ShapedType::isDynamic))
    return s.emitOperandError(w)
           << "must have static spatial dimensions, got " << s.getType(w);
  std::optional<SmallVector<int64_t>> kernelShape =
      s.getAttrs().getInts("kernel_shape");
  if (kernelShape && ArrayRef<int64_t>(*kernelShape) != kernel)
    return s.emitAttrError("kernel_shape")
           << "does not match the spatial dimensions of '"
           << s.getOperandName(w) << "' (" << s.getType(w) << ")";
  return kernel;
}

F64Convolution makeF64Convolution(const Tensor &x, const Tensor &w,
                                  int64_t batch, int64_t filters,
                                  ArrayRef<int64_t> output) {
  SmallVector<int64_t> outShape = {batch, filters};
  outShape.append(output.begin(), output.end());
  return {convertTensor(x, ElementType::F64),
          convertTensor(w, ElementType::F64),
          Tensor(ElementType::F64, outShape)};
}

} // namespace onyx::onnx

//===- SlidingWindow.cpp - Geometry of convolution and pooling ------------===//

#include "dialect/onnx/SlidingWindow.h"

namespace onyx::onnx {

const StringRef autoPadValues[4] = {"NOTSET", "SAME_UPPER", "SAME_LOWER",
                                    "VALID"};

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

FailureOr<WindowGeometry>
computeWindowGeometry(const OpAttrs &attrs, ArrayRef<int64_t> input,
                      ArrayRef<int64_t> kernel, bool allowCeilMode,
                      llvm::function_ref<InFlightDiagnostic()> emitError) {
  size_t rank = input.size();
  WindowGeometry g;
  g.kernel.assign(kernel.begin(), kernel.end());
  g.strides = attrs.getInts("strides").value_or(SmallVector<int64_t>(rank, 1));
  g.dilations =
      attrs.getInts("dilations").value_or(SmallVector<int64_t>(rank, 1));
  g.pads = attrs.getInts("pads").value_or(SmallVector<int64_t>(2 * rank, 0));
  if (g.strides.size() != rank)
    return emitError() << "attribute 'strides' must have " << uint64_t(rank)
                       << " values";
  if (g.dilations.size() != rank)
    return emitError() << "attribute 'dilations' must have " << uint64_t(rank)
                       << " values";
  if (g.pads.size() != 2 * rank)
    return emitError() << "attribute 'pads' must have " << uint64_t(2 * rank)
                       << " values";
  for (size_t i = 0; i < rank; ++i) {
    if (g.strides[i] < 1 || g.dilations[i] < 1 || g.kernel[i] < 1)
      return emitError() << "strides, dilations and kernel sizes must be "
                            "positive";
    if (g.pads[i] < 0 || g.pads[rank + i] < 0)
      return emitError() << "attribute 'pads' must not be negative";
  }
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

} // namespace onyx::onnx

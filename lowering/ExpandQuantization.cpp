//===- ExpandQuantization.cpp - onnx-expand-quantization ------------------===//
//
// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear have no
// kernels of their own: each becomes the f32 elementwise ops it computes
// (expandQuantizeOp, dialect/onnx/Quantize.h), which onnx-fuse-elementwise
// then makes one kernel with its neighbours. MatMulInteger, ConvInteger,
// QLinearMatMul and QLinearConv become the f32 MatMul or Conv of their
// shifted operands and the requantization. A quantized model runs
// dequantized into the float kernels.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialect/onnx/Quantize.h"

#include "ir/BuiltinOps.h"

namespace onyx::lowering {

namespace {

class ExpandQuantization : public PassWrapper<ExpandQuantization> {
public:
  ExpandQuantization()
      : PassWrapper(
            "onnx-expand-quantization",
            "Expand QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear "
            "and the integer and QLinear MatMul and Conv into f32 ops",
            "builtin.module") {}
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      StringRef name = op->getName().getStringRef();
      if (name == "onnx.QuantizeLinear" || name == "onnx.DequantizeLinear" ||
          name == "onnx.DynamicQuantizeLinear" ||
          name == "onnx.MatMulInteger" || name == "onnx.ConvInteger" ||
          name == "onnx.QLinearMatMul" || name == "onnx.QLinearConv")
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (llvm::failed(onnx::expandQuantizeOp(op)))
        signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> createExpandQuantizationPass() {
  return std::make_unique<ExpandQuantization>();
}

} // namespace onyx::lowering

//===- UnrollRecurrent.cpp - onnx-unroll-recurrent ------------------------===//
//
// RNN, GRU and LSTM have no kernels of their own: with the sequence length
// known when compiling, each becomes its time steps unrolled into MatMul,
// Slice and elementwise ops (unrollRecurrentOp, dialect/onnx/Recurrent.h),
// which the later passes fuse and lower like any others. The batch may be
// known only at run time (the steps' ops take `?` rows); a layer whose
// sequence length or hidden size is known only at run time is an error at
// the op.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialect/onnx/Recurrent.h"

#include "ir/BuiltinOps.h"

namespace onyx::lowering {

namespace {

class UnrollRecurrent : public PassWrapper<UnrollRecurrent> {
public:
  UnrollRecurrent()
      : PassWrapper(
            "onnx-unroll-recurrent",
            "Unroll onnx.RNN, onnx.GRU and onnx.LSTM of static sizes into "
            "MatMul and elementwise ops per time step",
            "builtin.module") {}
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      StringRef name = op->getName().getStringRef();
      if (name == "onnx.RNN" || name == "onnx.GRU" || name == "onnx.LSTM")
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (llvm::failed(onnx::unrollRecurrentOp(op, maxUnrolledOps)))
        return signalPassFailure();
    // Steps of a batch known only at run time give `?` rows; where the
    // arguments were refined since (onyx-run binds them), more static ones.
    if (!ops.empty())
      refineFunctionTypes(getOperation());
  }

private:
  PassOption<int64_t> maxUnrolledOps{
      this, "max-unrolled-ops",
      "The most ops one unrolled recurrent layer may have", int64_t(1) << 16};
};

} // namespace

std::unique_ptr<Pass> createUnrollRecurrentPass() {
  return std::make_unique<UnrollRecurrent>();
}

} // namespace onyx::lowering

//===- StaticShapes.cpp - onnx-static-shapes ------------------------------===//
//
// Kernels bake static shapes in; a dimension known only at run time (`?`)
// reaches a kernel as a push constant, which only some generators handle
// (KernelGenerator::dynamicDims). The importer binds symbolic dimensions
// (--bind-dims, or the shapes of the inputs onyx-run is given) and folds
// shape computations; this pass checks that every op left with a `?` in an
// operand or result has a generator that handles it, and says how to bind
// the dims otherwise, rather than letting a generator meet a `?`. Shape ops
// whose results are shape values (Shape of a tensor with `?` dims, ...) are
// computed by the host program (ShapeValues.h) and need no kernel.
//
//===----------------------------------------------------------------------===//

#include "lowering/KernelGenerator.h"
#include "lowering/Passes.h"
#include "lowering/ShapeValues.h"

#include "dialect/onnx/ControlFlow.h"
#include "dialect/onnx/OnnxDialect.h"
#include "ir/BuiltinOps.h"

namespace onyx::lowering {

namespace {

bool isDynamic(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (tensor)
    return !tensor.hasStaticShape();
  return isa<UnrankedTensorType>(type);
}

/// Whether `op` is a Loop that onnx-flatten-control-flow may leave for
/// convert-onnx-to-gpu (one whose trip count is known only at run time):
/// its body lowered once (gpu.loop).
bool isDeviceLoop(Operation *op) {
  return op->getName().getStringRef() == "onnx.Loop" &&
         !onnx::isNoValue(op->getOperand(0)) &&
         succeeded(onnx::checkDeviceLoop(op, /*report=*/false));
}

/// Whether `op` is, or is nested in, control flow that does not lower.
bool isControlFlow(Operation *op) {
  for (; op; op = op->getParentOp()) {
    StringRef name = op->getName().getStringRef();
    if ((name == "onnx.If" || name == "onnx.Loop" || name == "onnx.Scan") &&
        !isDeviceLoop(op))
      return true;
  }
  return false;
}

class StaticShapes : public PassWrapper<StaticShapes> {
public:
  StaticShapes()
      : PassWrapper(
            "onnx-static-shapes",
            "Check that every tensor has a static shape, or a `?` the kernel "
            "generator of each op that touches it handles",
            "builtin.module") {}

  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      // onnx-flatten-control-flow, the first pass of --lower, leaves none
      // or fails; run alone, this pass names what is left.
      if (op->getParentOp() && isControlFlow(op->getParentOp()))
        return;
      StringRef name = op->getName().getStringRef();
      if (name == "onnx.Loop" && isDeviceLoop(op))
        return;
      if (name == "onnx.If" || name == "onnx.Loop" || name == "onnx.Scan") {
        op->emitOpError() << "does not lower: control flow runs on Vulkan "
                             "made straight-line code by "
                             "onnx-flatten-control-flow";
        signalPassFailure();
        return;
      }
      if (auto func = dyn_cast<FuncOp>(op)) {
        for (auto [i, type] :
             llvm::enumerate(func.getFunctionType().getInputs()))
          if (isa<UnrankedTensorType>(type)) {
            func.emitError() << "argument #" << i << " of @"
                             << func.getSymName() << " has type " << type
                             << " without a rank; the GPU needs ranked "
                                "tensors";
            signalPassFailure();
          }
        return;
      }
      if (op->hasTrait(OpTrait::ReturnLike))
        return;
      bool dynamic = llvm::any_of(op->getResultTypes(), isDynamic) ||
                     llvm::any_of(op->getOperands(), [](Value v) {
                       return isDynamic(v.getType());
                     });
      if (!dynamic)
        return;
      const KernelGenerator *generator =
          lookupKernelGenerator(op->getName().getStringRef());
      if ((generator && generator->dynamicDims) || isShapeOp(op) ||
          isReshapeLike(op->getName().getStringRef()))
        return;
      op->emitOpError() << "has a tensor without a static shape and no "
                           "kernel for run-time dimensions yet; bind "
                           "symbolic dimensions (--bind-dims=NAME=N) to "
                           "lower it";
      signalPassFailure();
    });
  }
};

} // namespace

std::unique_ptr<Pass> createStaticShapesPass() {
  return std::make_unique<StaticShapes>();
}

} // namespace onyx::lowering

//===- StaticShapes.cpp - onnx-static-shapes ------------------------------===//
//
// Kernels bake shapes in, so lowering needs every tensor's shape. The
// importer binds symbolic dimensions (--bind-dims, or the shapes of the
// inputs onyx-run is given) and folds shape computations; this pass checks
// that nothing dynamic is left and says where, rather than letting a kernel
// generator meet a `?`.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "ir/BuiltinOps.h"

namespace onyx::lowering {

namespace {

bool isDynamic(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (tensor)
    return !tensor.hasStaticShape();
  return isa<UnrankedTensorType>(type);
}

class StaticShapes : public Pass {
public:
  StaticShapes() : Pass("builtin.module") {}
  StringRef getArgument() const override { return "onnx-static-shapes"; }
  StringRef getDescription() const override {
    return "Check that every tensor has a static shape, as kernels need";
  }
  std::unique_ptr<Pass> clone() const override {
    return std::make_unique<StaticShapes>();
  }

  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (auto func = dyn_cast<FuncOp>(op)) {
        for (auto [i, type] :
             llvm::enumerate(func.getFunctionType().getInputs()))
          if (isDynamic(type)) {
            func.emitError() << "argument #" << i << " of @"
                             << func.getSymName() << " has type " << type
                             << " without a static shape; bind its symbolic "
                                "dimensions (--bind-dims=NAME=N) to lower it";
            signalPassFailure();
          }
        return;
      }
      for (auto [i, result] : llvm::enumerate(op->getResults()))
        if (isDynamic(result.getType())) {
          op->emitOpError()
              << "result #" << i << " of type " << result.getType()
              << " has no static shape; bind symbolic "
                 "dimensions (--bind-dims=NAME=N) to lower it";
          signalPassFailure();
        }
    });
  }
};

} // namespace

std::unique_ptr<Pass> createStaticShapesPass() {
  return std::make_unique<StaticShapes>();
}

} // namespace onyx::lowering

//===- TestModuleBuilder.h - gpu-dialect modules in tests -------*- C++ -*-===//
//
// Builds gpu-dialect modules the way lowering will: kernels compiled from
// GLSL, one function with an arena, weights, views, dispatches and copies.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/GpuDialect.h"
#include "dialect/gpu/GpuOps.h"
#include "shader/ShaderCompiler.h"

#include "ir/BuiltinOps.h"
#include "ir/OwningOpRef.h"

#include <gtest/gtest.h>

namespace onyx::gpu::testing {

/// One compiler for the whole test binary: glslang's start-up is slow.
inline shader::ShaderCompiler &getShaderCompiler() {
  static shader::ShaderCompiler compiler;
  return compiler;
}

class TestModuleBuilder {
public:
  explicit TestModuleBuilder(Context *ctx)
      : b(ctx), module(ModuleOp::create(b.getUnknownLoc())) {
    b.setInsertionPointToEnd(module.get().getBody());
  }

  ModuleOp getModule() { return *module; }
  OwningOpRef<ModuleOp> takeModule() { return std::move(module); }
  OpBuilder &getBuilder() { return b; }
  Location loc() { return b.getUnknownLoc(); }

  /// Adds a kernel compiled from GLSL; fails the test if it does not build.
  void kernel(StringRef name, StringRef glsl, ArrayRef<Access> bindings,
              std::array<uint32_t, 3> workgroupSize,
              ArrayRef<Type> pushConstants = {}) {
    FailureOr<ArrayRef<uint32_t>> spirv =
        getShaderCompiler().compile(glsl, loc());
    ASSERT_TRUE(succeeded(spirv)) << "kernel " << name.str();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(module.get().getBody(), kernelInsertPoint());
    b.create<KernelOp>(loc(), name, bindings, workgroupSize, pushConstants,
                       *spirv);
  }

  /// Starts @main with tensor arguments and results.
  void func(ArrayRef<Type> args, ArrayRef<Type> results) {
    auto fn = b.create<FuncOp>(loc(), "main", b.getFunctionType(args, results));
    entry = b.createBlock(&fn.getBody(), args,
                          SmallVector<Location>(args.size(), loc()));
  }
  Value arg(unsigned i) { return entry->getArgument(i); }

  Value arena(uint64_t size) {
    return b.create<BufferOp>(loc(), BufferKind::Arena, size)->getResult(0);
  }
  Value weights(uint64_t size) {
    return b.create<BufferOp>(loc(), BufferKind::Weights, size)->getResult(0);
  }
  Value view(Value source, uint64_t offset, ArrayRef<int64_t> shape,
             Type element = {}) {
    if (!element)
      element = b.getF32Type();
    return b
        .create<ViewOp>(loc(), source, offset, ViewType::get(shape, element))
        ->getResult(0);
  }
  Value weight(Value buffer, uint64_t offset, ArrayRef<int64_t> shape,
               ArrayRef<float> values) {
    auto type = RankedTensorType::get(shape, b.getF32Type());
    auto data = DenseElementsAttr::getFromRawBuffer(
        type, ArrayRef<char>(reinterpret_cast<const char *>(values.data()),
                             values.size() * sizeof(float)));
    return b.create<WeightOp>(loc(), buffer, offset, data)->getResult(0);
  }
  void upload(unsigned argNumber, Value view) {
    b.create<UploadOp>(loc(), arg(argNumber), view);
  }
  Value download(Value view) {
    return b.create<DownloadOp>(loc(), view)->getResult(0);
  }
  DispatchOp dispatch(StringRef kernel, std::array<uint64_t, 3> counts,
                      ValueRange views, ArrayRef<Attribute> push = {}) {
    return b.create<DispatchOp>(loc(), kernel, counts, views, push);
  }
  void copy(Value from, Value to) { b.create<CopyOp>(loc(), from, to); }
  void ret(ValueRange values) { b.create<ReturnOp>(loc(), values); }

  Attribute i32(int32_t v) { return b.getI32IntegerAttr(v); }
  Attribute f32(float v) { return b.getF32FloatAttr(v); }
  Type f32Type() { return b.getF32Type(); }
  RankedTensorType tensor(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, b.getF32Type());
  }

private:
  /// Kernels go before the function, as lowering emits them.
  Block::iterator kernelInsertPoint() {
    for (auto it = module.get().getBody()->begin();
         it != module.get().getBody()->end(); ++it)
      if (!isa<KernelOp>(&*it))
        return it;
    return module.get().getBody()->end();
  }

  OpBuilder b;
  OwningOpRef<ModuleOp> module;
  Block *entry = nullptr;
};

} // namespace onyx::gpu::testing

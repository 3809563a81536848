//===- GpuDialect.h - The gpu dialect ---------------------------*- C++ -*-===//
//
// The contract between onyx's compiler and its Vulkan runtime: kernels as
// SPIR-V, the device buffers a function uses, and the dispatches and copies
// that run it, in order. Loading it makes the ops and types of
// GpuOps.h / GpuTypes.h parseable and verifiable. (MLIR has a dialect of the
// same name for a different purpose; onyx's is not compatible with it.)
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Dialect.h"

namespace onyx::gpu {

class GpuDialect : public Dialect {
public:
  explicit GpuDialect(Context *ctx);
  static StringRef getDialectNamespace() { return "gpu"; }

  Type parseType(StringRef body, Location loc) override;
  void printType(Type type, llvm::raw_ostream &os) const override;
};

} // namespace onyx::gpu

//===- BlockQuantizedKernels.h - MatMulNBits with an epilogue ---*- C++ -*-===//
//
// com.microsoft MatMulNBits takes the elementwise ops after it as the
// epilogue of its kernels (onnx-fuse-elementwise moves it into a
// FusedElementwise as it does a MatMul), so a decoder's residual Add or
// SiLU-times-up product costs no dispatch of its own.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lowering/KernelGenerator.h"

namespace onyx::lowering {

struct GemmEpilogue;

/// Whether `op` is a MatMulNBits whose kernels can apply an epilogue.
bool isNBitsContraction(Operation *op);

/// Lowers MatMulNBits `op`; with `epilogue`, its kernels store the
/// epilogue's result instead of the product's.
LogicalResult lowerMatMulNBits(Operation *op, LoweringContext &ctx,
                               const GemmEpilogue *epilogue);

} // namespace onyx::lowering

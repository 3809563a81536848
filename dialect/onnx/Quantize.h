//===- Quantize.h - Linear quantization as float ops ------------*- C++ -*-===//
//
// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear are defined in
// Quantize.cpp (inference, reference evaluation). The GPU runs them as the
// float elementwise ops they are made of, which elementwise fusion makes
// one kernel.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Operation.h"

namespace onyx::onnx {

/// Replaces `op`, a QuantizeLinear, DequantizeLinear or
/// DynamicQuantizeLinear, by the ops it computes in f32 (Cast, Sub, Mul;
/// Div, Round, Add, Clip and a Cast to the integer type; the reductions of
/// DynamicQuantizeLinear's range), a per-axis scale and zero point reshaped
/// to broadcast along the axis, a scale and zero point per block repeated
/// over each block's indices (a Gather along the axis; fails with an error
/// at `op` where the axis' size is known only at run time). Also replaces
/// MatMulInteger, ConvInteger, QLinearMatMul and QLinearConv
/// (QuantizedContraction.cpp) by the f32 MatMul or Conv of their operands
/// shifted by the zero points and a Cast to i32 or the requantization
/// (exact while partial sums stay below 2^24).
LogicalResult expandQuantizeOp(Operation *op);

} // namespace onyx::onnx

// RUN: onyx-opt %s --target=lavapipe --lower --print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=PASSES
// RUN: onyx-opt %s --target=lavapipe --pass-pipeline='builtin.module(lower)' | FileCheck %s
// RUN: onyx-opt %s --target=lavapipe --lower --pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// `--lower` is a pipeline of passes that each show in IR dumps.
// PASSES: IR Dump After onnx-static-shapes
// PASSES: IR Dump After onnx-fuse-elementwise
// PASSES: "onnx.FusedElementwise"
// PASSES: IR Dump After convert-onnx-to-gpu
// PASSES: gpu.alloc
// PASSES: IR Dump After gpu-plan-buffers
// PASSES: gpu.buffer arena
// PASSES: IR Dump After gpu-compile-kernels
// PASSES: spirv(dense<

// The result: one fused kernel compiled to SPIR-V, an arena, no weights.
// CHECK: gpu.kernel @fused(read, read, write) workgroup_size(256, 1, 1) spirv(
// CHECK-NOT: gpu.kernel
// CHECK: func.func @main
// CHECK-NEXT: gpu.buffer arena : !gpu.buffer<96>
// CHECK-NOT: gpu.buffer weights
// CHECK: gpu.dispatch @fused[1, 1, 1]

// STATS: num-groups
// STATS: num-kernels
// STATS: arena-bytes
// STATS: num-compiled
func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "onnx.Add"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Relu"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

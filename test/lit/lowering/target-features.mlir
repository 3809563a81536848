// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s
// RUN: not onyx-opt %s --target=vulkan --lower 2>&1 | FileCheck %s --check-prefix=VULKAN

// The module ends up listing exactly the optional features its kernels
// use: lavapipe has them all, the Neg kernel on i64 needs int64 only. The
// kind of processor stays (lavapipe is a CPU).
// CHECK: module attributes {gpu.target = {features = ["int64"], kind = "cpu", max_compute_shared_memory_size = 32768 : i64
// CHECK: gpu.kernel @neg(read, write) workgroup_size(256, 1, 1) spirv(dense<"0x03022307

// The portable Vulkan target promises no int64.
// VULKAN: error: 'gpu.kernel' op needs device feature 'int64' (SPIR-V capability 11), which the target does not have
func.func @main(%x: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "onnx.Neg"(%x) : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

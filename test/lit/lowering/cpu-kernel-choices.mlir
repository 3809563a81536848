// The kernel choices of a CPU device (KernelChoices in Target.cpp), on the
// lavapipe target: a depthwise convolution runs as one direct kernel that
// computes a run of outputs along a row per invocation (no shared memory),
// and a GEMM keeps k whole with 8 x 8 outputs per invocation, where a GPU
// target copies the unfolded input through shared memory and shares k
// among workgroups or among groups of threads.
// The results match the reference backend with inputs of many values:
// strides, padding, dilation, a channel multiplier, a last run cut short
// (9 and 11 outputs a row, runs of 8), a fused Relu, and products whose
// sizes do not divide into tiles.

// RUN: onyx-opt %s --target=lavapipe --convert-onnx-to-gpu | FileCheck %s --check-prefix=CPU
// RUN: onyx-opt %s --target=nvidia --convert-onnx-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_npy.py %t/x.npy 1 2 3 7 19
// RUN: %python %S/Inputs/make_npy.py %t/w.npy 2 6 1 3 5
// RUN: %python %S/Inputs/make_npy.py %t/b.npy 3 6
// RUN: %python %S/Inputs/make_npy.py %t/s.npy 4 1 4 11
// RUN: %python %S/Inputs/make_npy.py %t/v.npy 5 4 1 3
// RUN: %python %S/Inputs/make_npy.py %t/a.npy 6 70 2048
// RUN: %python %S/Inputs/make_npy.py %t/m.npy 7 2048 90
// RUN: onyx-run %s --check --atol=1e-4 --input=@%t/x.npy --input=@%t/w.npy --input=@%t/b.npy \
// RUN:   --input=@%t/s.npy --input=@%t/v.npy --input=@%t/a.npy --input=@%t/m.npy \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: not onyx-opt %s --target='{kind = "tpu"}' 2>&1 | FileCheck %s --check-prefix=KIND

// CPU: kind = "cpu"
// CPU: gpu.kernel @conv(
// CPU-SAME: a7 += k14 * v18;
// CPU-NOT: shared float
// CPU: gpu.kernel @conv_1(
// CPU-SAME: a7 += k2 * v11;
// CPU-NOT: shared float
// CPU: gpu.kernel @matmul(
// CPU-NOT: uint kg = tid /
// CPU-SAME: c7_7
// CPU-NOT: @matmul_reduce

// GPU-NOT: kind =
// GPU: gpu.kernel @conv(
// GPU-SAME: shared float
// GPU: gpu.kernel @matmul(
// GPU-SAME: uint kg = tid /

// EXEC-COUNT-3: vs ref: {{.*}}: PASS
// EXEC-NOT: FAIL

// KIND: error: 'gpu.target' expects 'kind' to be "gpu" or "cpu"

func.func @main(%x: tensor<2x3x7x19xf32>, %w: tensor<6x1x3x5xf32>, %b: tensor<6xf32>, %s: tensor<1x4x11xf32>, %v: tensor<4x1x3xf32>, %a: tensor<70x2048xf32>, %m: tensor<2048x90xf32>) -> (tensor<2x6x6x9xf32>, tensor<1x4x11xf32>, tensor<70x90xf32>) {
  %c = "onnx.Conv"(%x, %w, %b) {group = 3 : si64, kernel_shape = [3, 5], pads = [1, 2, 0, 1], strides = [1, 2]} : (tensor<2x3x7x19xf32>, tensor<6x1x3x5xf32>, tensor<6xf32>) -> tensor<2x6x6x9xf32>
  %r = "onnx.Relu"(%c) : (tensor<2x6x6x9xf32>) -> tensor<2x6x6x9xf32>
  %d = "onnx.Conv"(%s, %v) {group = 4 : si64, kernel_shape = [3], dilations = [2], pads = [2, 2]} : (tensor<1x4x11xf32>, tensor<4x1x3xf32>) -> tensor<1x4x11xf32>
  %p = "onnx.MatMul"(%a, %m) : (tensor<70x2048xf32>, tensor<2048x90xf32>) -> tensor<70x90xf32>
  return %r, %d, %p : tensor<2x6x6x9xf32>, tensor<1x4x11xf32>, tensor<70x90xf32>
}

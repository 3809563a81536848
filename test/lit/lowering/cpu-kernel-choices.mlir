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
// 2 filters x 6 output rows x 2 runs of 8 (9 outputs a row) per image and
// group, the 15 weights and each input of a run's windows loaded once.
// CPU: gpu.kernel @conv(read, read, read, write) workgroup_size(256, 1, 1)
// CPU-NOT: shared
// CPU-SAME: if (i >= 24u) return;
// CPU-SAME: uint pre = rest / 2u, oL = (rest % 2u) * 8u;
// CPU-SAME: float k14 = loadA(row, 14u);
// CPU-SAME: a7 += k14 * v18;
// CPU-SAME: if (oL + 7u < 9u) storeC(row, pre * 9u + oL + 7u, a7);
// CPU: gpu.kernel @conv_1(read, read, write) workgroup_size(256, 1, 1)
// CPU-NOT: shared
// CPU-SAME: a7 += k2 * v11;
// CPU-SAME: if (oL + 7u < 11u) storeC(row, pre * 11u + oL + 7u, a7);
// 70 x 90 outputs in 64 x 64 tiles (one 128 x 128 tile would leave a core
// idle) of 8 x 8 per invocation, each workgroup running all of k.
// CPU: gpu.kernel @matmul(read, read, write) workgroup_size(64, 1, 1)
// CPU-SAME: float c7_0 = float(0), {{.*}} c7_7 = float(0);
// CPU-SAME: for (uint k0 = 0u; k0 < 2048u; k0 += 16u) {
// CPU-NOT: gpu.kernel
// CPU: gpu.dispatch @conv[1, 1, 6]
// CPU: gpu.dispatch @conv_1[1, 1, 4]
// CPU: gpu.dispatch @matmul[2, 2, 1]
// CPU-NOT: gpu.dispatch

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

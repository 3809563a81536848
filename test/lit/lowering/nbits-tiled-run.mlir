// MatMulNBits with more than 4 rows is a problem of the tiled GEMM
// (dispatchGemm): B k-contiguous, dequantized by loadB4 as its tiles are
// copied. Shaped for a GPU, rows known only at run time: the classes of few
// rows and the tiles for many, k split among workgroups where the run's
// tiles are few (the partial sums added, with the bias, by
// @matmul_nbits_reduce), and the matrix-vector kernel for at most 4 rows;
// each run against the reference backend on lavapipe with the validation
// layer. The weights are a splat (every nibble 7 and 8 alternately), the
// scales and the bias inputs.

// RUN: %python %S/Inputs/make_npy.py %t.x100.npy 1 100 1024
// RUN: %python %S/Inputs/make_npy.py %t.x9.npy 2 9 1024
// RUN: %python %S/Inputs/make_npy.py %t.x3.npy 3 3 1024
// RUN: %python %S/Inputs/make_npy.py %t.s.npy 4 96 32
// RUN: %python %S/Inputs/make_npy.py %t.b.npy 5 96
// RUN: onyx-opt %s --target=nvidia --convert-onnx-to-gpu | FileCheck %s --check-prefix=GLSL
// RUN: onyx-run %s --kernels-for=gpu --validate --check --atol=1e-4 \
// RUN:   --input-set='@%t.x100.npy;@%t.s.npy;@%t.b.npy' \
// RUN:   --input-set='@%t.x9.npy;@%t.s.npy;@%t.b.npy' \
// RUN:   --input-set='@%t.x3.npy;@%t.s.npy;@%t.b.npy' | FileCheck %s
// RUN: onyx-run %s --validate --check --atol=1e-4 \
// RUN:   --input-set='@%t.x100.npy;@%t.s.npy;@%t.b.npy' \
// RUN:   --input-set='@%t.x3.npy;@%t.s.npy;@%t.b.npy' | FileCheck %s

// GLSL: gpu.kernel @matmul_nbits(
// GLSL-SAME: vec4 loadB4(uint k, uint col) {
// GLSL: gpu.kernel @matmul_nbits_reduce
// GLSL-SAME: bias.d[col]
// GLSL: gpu.kernel @matmul_nbits_gemv
// CHECK-COUNT-2: output 0 vs ref: {{.*}}: PASS
// CHECK-NOT: FAIL
func.func @main(%x: tensor<?x1024xf32>, %s: tensor<96x32xf32>, %bias: tensor<96xf32>) -> tensor<?x96xf32> {
  %b = onnx.Constant dense<135> : tensor<96x32x16xui8>
  %none = "onnx.NoValue"() : () -> none
  %y = "onnx.com.microsoft.MatMulNBits"(%x, %b, %s, %none, %none, %bias) {K = 1024 : si64, N = 96 : si64, block_size = 32 : si64} : (tensor<?x1024xf32>, tensor<96x32x16xui8>, tensor<96x32xf32>, none, none, tensor<96xf32>) -> tensor<?x96xf32>
  return %y : tensor<?x96xf32>
}

// onnx.com.microsoft.MatMulNBits followed by an Add of a constant vector of
// N values (on either side, of shape [N] or [1, ..., N]) takes the vector as
// its bias (summed with a constant bias it has), so the kernels add it as
// they store and the Add costs no dispatch; an Add of anything else, or of a
// product used elsewhere, stays.

// RUN: split-file %s %t
// RUN: onyx-opt %t/absorb.mlir --canonicalize | FileCheck %s
// RUN: onyx-opt %t/keep.mlir --canonicalize | FileCheck %s --check-prefix=KEEP
// RUN: onyx-run %t/absorb.mlir --validate --check --input=1x32xf32=1 \
// RUN:   --input=1x32xf32=0.5 | FileCheck %s --check-prefix=EXEC
// RUN: onyx-opt %t/absorb.mlir --canonicalize --lower --target=lavapipe \
// RUN:   | FileCheck %s --check-prefix=LOWER

//--- absorb.mlir
// B's nibbles are 9 (q - 8 = 1) and the scales 1: each column is the sum of
// x (32 and 16), plus the bias.
// CHECK-LABEL: func.func @main
// CHECK: %[[B0:.*]] = onnx.Constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: %[[B1:.*]] = onnx.Constant dense<[1.500000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK: "onnx.com.microsoft.MatMulNBits"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[B0]])
// CHECK: "onnx.com.microsoft.MatMulNBits"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[B1]])
// CHECK-NOT: onnx.Add
// EXEC-COUNT-2: output {{[01]}} vs ref: {{.*}}: PASS
// LOWER-COUNT-2: gpu.dispatch @matmul_nbits_gemv
// LOWER-NOT: gpu.dispatch
func.func @main(%x: tensor<1x32xf32>, %x2: tensor<1x32xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %b = onnx.Constant dense<153> : tensor<2x1x16xui8>
  %s = onnx.Constant dense<1.0> : tensor<2xf32>
  %c = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = "onnx.com.microsoft.MatMulNBits"(%x, %b, %s) {K = 32 : si64, N = 2 : si64, block_size = 32 : si64} : (tensor<1x32xf32>, tensor<2x1x16xui8>, tensor<2xf32>) -> tensor<1x2xf32>
  %1 = "onnx.Add"(%0, %c) : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  // With a bias already: the two are summed.
  %none = "onnx.NoValue"() {value} : () -> none
  %old = onnx.Constant dense<[0.25, 0.5]> : tensor<2xf32>
  %c2 = onnx.Constant dense<[[1.25, 2.0]]> : tensor<1x2xf32>
  %2 = "onnx.com.microsoft.MatMulNBits"(%x2, %b, %s, %none, %none, %old) {K = 32 : si64, N = 2 : si64, block_size = 32 : si64} : (tensor<1x32xf32>, tensor<2x1x16xui8>, tensor<2xf32>, none, none, tensor<2xf32>) -> tensor<1x2xf32>
  %3 = "onnx.Add"(%c2, %2) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  return %1, %3 : tensor<1x2xf32>, tensor<1x2xf32>
}

//--- keep.mlir
// KEEP-LABEL: func.func @main
// KEEP-COUNT-3: "onnx.Add"
func.func @main(%x: tensor<2x32xf32>, %x2: tensor<2x32xf32>, %x3: tensor<2x32xf32>, %v: tensor<2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %b = onnx.Constant dense<153> : tensor<2x1x16xui8>
  %s = onnx.Constant dense<1.0> : tensor<2xf32>
  // Not a constant.
  %0 = "onnx.com.microsoft.MatMulNBits"(%x, %b, %s) {K = 32 : si64, N = 2 : si64, block_size = 32 : si64} : (tensor<2x32xf32>, tensor<2x1x16xui8>, tensor<2xf32>) -> tensor<2x2xf32>
  %1 = "onnx.Add"(%0, %v) : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  // A constant per row and column, not a vector.
  %2 = "onnx.com.microsoft.MatMulNBits"(%x2, %b, %s) {K = 32 : si64, N = 2 : si64, block_size = 32 : si64} : (tensor<2x32xf32>, tensor<2x1x16xui8>, tensor<2xf32>) -> tensor<2x2xf32>
  %m = onnx.Constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %3 = "onnx.Add"(%2, %m) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // The product is used elsewhere too.
  %4 = "onnx.com.microsoft.MatMulNBits"(%x3, %b, %s) {K = 32 : si64, N = 2 : si64, block_size = 32 : si64} : (tensor<2x32xf32>, tensor<2x1x16xui8>, tensor<2xf32>) -> tensor<2x2xf32>
  %c = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %5 = "onnx.Add"(%4, %c) : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %1, %3, %4, %5 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

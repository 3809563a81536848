// RUN: onyx-opt %s --split-input-file --onnx-merge-projections | FileCheck %s
// RUN: onyx-opt %s --split-input-file --target=lavapipe --onnx-static-shapes --onnx-merge-projections --onnx-fuse-elementwise --convert-onnx-to-gpu | FileCheck %s --check-prefix=GPU

// MatMuls of one A by constant weights (a Llama layer's q, k and v
// projections) become one MatMul by the weights side by side and a Split of
// its result into the original products. The GEMM kernel writes the Split's
// results itself (isSplitWrittenByMatMul): one dispatch, no split kernel.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x4xf32>)
// CHECK: %[[W:.+]] = onnx.Constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00], [3.000000e+00, 4.000000e+00, 8.000000e+00, 9.000000e+00, 1.000000e+01], {{.*}}]> : tensor<4x5xf32>
// CHECK: %[[P:.+]] = "onnx.MatMul"(%[[X]], %[[W]]) : (tensor<?x?x4xf32>, tensor<4x5xf32>) -> tensor<?x?x5xf32>
// CHECK: %[[S:.+]] = onnx.Constant dense<[2, 3]> : tensor<2xi64>
// CHECK: %[[Q:.+]]:2 = "onnx.Split"(%[[P]], %[[S]]) {axis = 2 : si64} : (tensor<?x?x5xf32>, tensor<2xi64>) -> (tensor<?x?x2xf32>, tensor<?x?x3xf32>)
// CHECK-NOT: onnx.MatMul
// CHECK: return %[[Q]]#0, %[[Q]]#1
// GPU-LABEL: gpu.kernel @matmul(read, read, write, write)
// GPU-SAME: float sv = v; uint so = idx / 5u, sc = idx % 5u; if (sc < 2u) { y0.d[so * 2u + sc - 0u] = sv; } else { y1.d[so * 3u + sc - 2u] = sv; }
// GPU-LABEL: func.func @main
// GPU-NOT: @split
// GPU: gpu.dispatch @matmul[
// GPU-NOT: @split
// GPU: return
func.func @main(%x: tensor<?x?x4xf32>) -> (tensor<?x?x2xf32>, tensor<?x?x3xf32>) {
  %wq = "onnx.Constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
  %wk = "onnx.Constant"() {value = dense<[[5.0, 6.0, 7.0], [8.0, 9.0, 10.0], [11.0, 12.0, 13.0], [14.0, 15.0, 16.0]]> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %q = "onnx.MatMul"(%x, %wq) : (tensor<?x?x4xf32>, tensor<4x2xf32>) -> tensor<?x?x2xf32>
  %k = "onnx.MatMul"(%x, %wk) : (tensor<?x?x4xf32>, tensor<4x3xf32>) -> tensor<?x?x3xf32>
  return %q, %k : tensor<?x?x2xf32>, tensor<?x?x3xf32>
}

// -----

// A product an elementwise op reads keeps its own kernel, where that op is
// applied as the product is stored (a bias, the SiLU gate); products of
// another A, or by weights that are not constants, are not merged either.
// CHECK-LABEL: func.func @main
// CHECK-NOT: onnx.Split
// CHECK-COUNT-4: onnx.MatMul
// CHECK-NOT: onnx.Split
func.func @main(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>, %v: tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  %w = "onnx.Constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
  %0 = "onnx.MatMul"(%x, %w) : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %1 = "onnx.MatMul"(%x, %w) : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %2 = "onnx.Sigmoid"(%1) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %3 = "onnx.MatMul"(%y, %w) : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %4 = "onnx.MatMul"(%x, %v) : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  return %0, %2, %3, %4 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// MatMulNBits of one A (K = 32, block 16: two blocks of 8 bytes) with
// uint8 zero points and a bias become one MatMulNBits of N = 3 whose B,
// scales, zero points and bias are the parts' one after the other, and a
// Split; the matrix-vector kernel writes both parts (one dispatch).
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[B:.+]] = onnx.Constant dense<{{\[}}{{\[}}[1, 1, 1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2, 2, 2]], {{\[}}[3, 3, 3, 3, 3, 3, 3, 3], [4, 4, 4, 4, 4, 4, 4, 4]], {{\[}}[5, 5, 5, 5, 5, 5, 5, 5], [6, 6, 6, 6, 6, 6, 6, 6]]]> : tensor<3x2x8xui8>
// CHECK-DAG: %[[S:.+]] = onnx.Constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-DAG: %[[Z:.+]] = onnx.Constant dense<{{\[}}[33], [34], [35]]> : tensor<3x1xui8>
// CHECK-DAG: %[[BIAS:.+]] = onnx.Constant dense<[1.000000e-01, 2.000000e-01, 3.000000e-01]> : tensor<3xf32>
// CHECK: %[[P:.+]] = "onnx.com.microsoft.MatMulNBits"(%{{.+}}, %[[B]], %[[S]], %[[Z]], %{{.+}}, %[[BIAS]]) {K = 32 : si64, N = 3 : si64, block_size = 16 : si64} : (tensor<1x32xf32>, tensor<3x2x8xui8>, tensor<3x2xf32>, tensor<3x1xui8>, none, tensor<3xf32>) -> tensor<1x3xf32>
// CHECK: %[[SIZES:.+]] = onnx.Constant dense<[2, 1]> : tensor<2xi64>
// CHECK: %[[Q:.+]]:2 = "onnx.Split"(%[[P]], %[[SIZES]]) {axis = 1 : si64}
// CHECK-NOT: MatMulNBits
// CHECK: return %[[Q]]#0, %[[Q]]#1
// GPU-LABEL: gpu.kernel @matmul_nbits_gemv(read, read, read, read, read, write, write)
// GPU-SAME: if (sc < 2u) { y0.d[so * 2u + sc - 0u] = sv; } else { y1.d[so * 1u + sc - 2u] = sv; }
// GPU-LABEL: func.func @main
// GPU-NOT: @split
// GPU: gpu.dispatch @matmul_nbits_gemv[
// GPU-NOT: gpu.dispatch
// GPU: return
func.func @main(%x: tensor<1x32xf32>) -> (tensor<1x2xf32>, tensor<1x1xf32>) {
  %bq = onnx.Constant dense<[[[1, 1, 1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2, 2, 2]], [[3, 3, 3, 3, 3, 3, 3, 3], [4, 4, 4, 4, 4, 4, 4, 4]]]> : tensor<2x2x8xui8>
  %sq = onnx.Constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %zq = onnx.Constant dense<[[33], [34]]> : tensor<2x1xui8>
  %cq = onnx.Constant dense<[0.1, 0.2]> : tensor<2xf32>
  %bk = onnx.Constant dense<[[[5, 5, 5, 5, 5, 5, 5, 5], [6, 6, 6, 6, 6, 6, 6, 6]]]> : tensor<1x2x8xui8>
  %sk = onnx.Constant dense<[[5.0, 6.0]]> : tensor<1x2xf32>
  %zk = onnx.Constant dense<[[35]]> : tensor<1x1xui8>
  %ck = onnx.Constant dense<[0.3]> : tensor<1xf32>
  %none = "onnx.NoValue"() {value} : () -> none
  %q = "onnx.com.microsoft.MatMulNBits"(%x, %bq, %sq, %zq, %none, %cq) {K = 32 : si64, N = 2 : si64, block_size = 16 : si64} : (tensor<1x32xf32>, tensor<2x2x8xui8>, tensor<2x2xf32>, tensor<2x1xui8>, none, tensor<2xf32>) -> tensor<1x2xf32>
  %k = "onnx.com.microsoft.MatMulNBits"(%x, %bk, %sk, %zk, %none, %ck) {K = 32 : si64, N = 1 : si64, block_size = 16 : si64} : (tensor<1x32xf32>, tensor<1x2x8xui8>, tensor<1x2xf32>, tensor<1x1xui8>, none, tensor<1xf32>) -> tensor<1x1xf32>
  return %q, %k : tensor<1x2xf32>, tensor<1x1xf32>
}

// -----

// Without zero points, flat scales: merged alike. Products that differ in
// block size, in having zero points, or that an elementwise op reads stay
// as they are (the Sigmoid's is its kernel's first op).
// CHECK-LABEL: func.func @main
// CHECK: %[[S:.+]] = onnx.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>
// CHECK: "onnx.com.microsoft.MatMulNBits"(%{{.+}}, %{{.+}}, %[[S]]) {K = 32 : si64, N = 3 : si64, block_size = 16 : si64} : (tensor<1x32xf32>, tensor<3x2x8xui8>, tensor<6xf32>) -> tensor<1x3xf32>
// CHECK: onnx.Split
// CHECK-COUNT-3: "onnx.com.microsoft.MatMulNBits"(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}{{.*}}N = 1 : si64
// CHECK-NOT: onnx.Split
func.func @main(%x: tensor<1x32xf32>) -> (tensor<1x2xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %bq = onnx.Constant dense<[[[1, 1, 1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2, 2, 2]], [[3, 3, 3, 3, 3, 3, 3, 3], [4, 4, 4, 4, 4, 4, 4, 4]]]> : tensor<2x2x8xui8>
  %sq = onnx.Constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %bk = onnx.Constant dense<[[[5, 5, 5, 5, 5, 5, 5, 5], [6, 6, 6, 6, 6, 6, 6, 6]]]> : tensor<1x2x8xui8>
  %sk = onnx.Constant dense<[5.0, 6.0]> : tensor<2xf32>
  %b32 = onnx.Constant dense<7> : tensor<1x1x16xui8>
  %s32 = onnx.Constant dense<[7.0]> : tensor<1xf32>
  %z = onnx.Constant dense<[[136]]> : tensor<1x1xui8>
  %q = "onnx.com.microsoft.MatMulNBits"(%x, %bq, %sq) {K = 32 : si64, N = 2 : si64, block_size = 16 : si64} : (tensor<1x32xf32>, tensor<2x2x8xui8>, tensor<4xf32>) -> tensor<1x2xf32>
  %k = "onnx.com.microsoft.MatMulNBits"(%x, %bk, %sk) {K = 32 : si64, N = 1 : si64, block_size = 16 : si64} : (tensor<1x32xf32>, tensor<1x2x8xui8>, tensor<2xf32>) -> tensor<1x1xf32>
  %block32 = "onnx.com.microsoft.MatMulNBits"(%x, %b32, %s32) {K = 32 : si64, N = 1 : si64, block_size = 32 : si64} : (tensor<1x32xf32>, tensor<1x1x16xui8>, tensor<1xf32>) -> tensor<1x1xf32>
  %zeros = "onnx.com.microsoft.MatMulNBits"(%x, %bk, %sk, %z) {K = 32 : si64, N = 1 : si64, block_size = 16 : si64} : (tensor<1x32xf32>, tensor<1x2x8xui8>, tensor<2xf32>, tensor<1x1xui8>) -> tensor<1x1xf32>
  %gated = "onnx.com.microsoft.MatMulNBits"(%x, %bk, %sk) {K = 32 : si64, N = 1 : si64, block_size = 16 : si64} : (tensor<1x32xf32>, tensor<1x2x8xui8>, tensor<2xf32>) -> tensor<1x1xf32>
  %sig = "onnx.Sigmoid"(%gated) : (tensor<1x1xf32>) -> tensor<1x1xf32>
  return %q, %k, %block32, %zeros, %sig : tensor<1x2xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
}

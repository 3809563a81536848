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

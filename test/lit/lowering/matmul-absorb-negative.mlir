// RUN: onyx-opt %s --canonicalize --target=lavapipe --lower | FileCheck %s
// RUN: onyx-run %s --validate --check --input=4x16xf32=0.5 --input=16x8xf32=0.25 | FileCheck %s --check-prefix=RESULT

// Data movement stays a dispatch when a MatMul is not its only reader: a
// Split result that a Relu reads, a MatMul result that is also returned
// (so its Transpose cannot be how the MatMul stores it).
// CHECK-LABEL: func.func @main
// CHECK-DAG: gpu.dispatch @split
// CHECK-DAG: gpu.dispatch @transpose
// CHECK-DAG: gpu.dispatch @matmul
// CHECK-DAG: gpu.dispatch @relu

// RESULT: output 0 vs ref: {{.*}}: PASS
// RESULT: output 1 vs ref: {{.*}}: PASS
// RESULT: output 2 vs ref: {{.*}}: PASS
func.func @main(%in: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x4xf32>) {
  %pattern = onnx.Constant dense<[[0.0, 1.0, -2.0, 3.0, 0.5, -1.5, 2.5, 4.0, 1.0, -3.0, 0.25, 2.0, -0.5, 1.5, 3.5, -2.5]]> : tensor<1x16xf32>
  %x = "onnx.Add"(%in, %pattern) : (tensor<4x16xf32>, tensor<1x16xf32>) -> tensor<4x16xf32>
  %sizes = onnx.Constant dense<[8, 8]> : tensor<2xi64>
  %ab:2 = "onnx.Split"(%x, %sizes) {axis = 1 : si64} : (tensor<4x16xf32>, tensor<2xi64>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %s0 = onnx.Constant dense<[0]> : tensor<1xi64>
  %s8 = onnx.Constant dense<[8]> : tensor<1xi64>
  %ax0 = onnx.Constant dense<[0]> : tensor<1xi64>
  %wa = "onnx.Slice"(%w, %s0, %s8, %ax0) : (tensor<16x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<8x8xf32>
  %m = "onnx.MatMul"(%ab#0, %wa) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = "onnx.Relu"(%ab#1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "onnx.Transpose"(%m) {perm = [1, 0]} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %m, %r, %t : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x4xf32>
}

// RUN: onyx-opt %s --canonicalize --target=lavapipe --lower | FileCheck %s
// RUN: onyx-run %s --validate --check --input=1x8x96xf32=0.25 | FileCheck %s --check-prefix=RESULT

// Attention's data movement costs no dispatch: the Split of the fused
// projection into q, k, v becomes windows of its input that the MatMuls
// read at a base offset (through the Reshapes, whose strides compose, and
// the Transposes absorbed into the operand strides), and the Transpose of
// the last MatMul's result is that MatMul storing with permuted strides.
// Left: the kernel of the Add that makes x, and the two MatMuls.
// CHECK-COUNT-3: gpu.kernel
// CHECK-NOT: gpu.kernel
// CHECK-LABEL: func.func @main
// CHECK-COUNT-3: gpu.dispatch
// CHECK-NOT: gpu.dispatch
// CHECK: gpu.download

// RESULT: output 0 vs ref: max abs error {{.*}}: PASS
func.func @main(%in: tensor<1x8x96xf32>) -> tensor<1x8x32xf32> {
  %start = onnx.Constant dense<0.0> : tensor<f32>
  %limit = onnx.Constant dense<768.0> : tensor<f32>
  %delta = onnx.Constant dense<1.0> : tensor<f32>
  %range = "onnx.Range"(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<768xf32>
  %shape = onnx.Constant dense<[1, 8, 96]> : tensor<3xi64>
  %flat = "onnx.Sin"(%range) : (tensor<768xf32>) -> tensor<768xf32>
  %pattern = "onnx.Reshape"(%flat, %shape) : (tensor<768xf32>, tensor<3xi64>) -> tensor<1x8x96xf32>
  %x = "onnx.Add"(%in, %pattern) : (tensor<1x8x96xf32>, tensor<1x8x96xf32>) -> tensor<1x8x96xf32>
  %sizes = onnx.Constant dense<[32, 32, 32]> : tensor<3xi64>
  %qkv:3 = "onnx.Split"(%x, %sizes) {axis = 2 : si64} : (tensor<1x8x96xf32>, tensor<3xi64>) -> (tensor<1x8x32xf32>, tensor<1x8x32xf32>, tensor<1x8x32xf32>)
  %heads = onnx.Constant dense<[1, 8, 2, 16]> : tensor<4xi64>
  %q4 = "onnx.Reshape"(%qkv#0, %heads) : (tensor<1x8x32xf32>, tensor<4xi64>) -> tensor<1x8x2x16xf32>
  %k4 = "onnx.Reshape"(%qkv#1, %heads) : (tensor<1x8x32xf32>, tensor<4xi64>) -> tensor<1x8x2x16xf32>
  %v4 = "onnx.Reshape"(%qkv#2, %heads) : (tensor<1x8x32xf32>, tensor<4xi64>) -> tensor<1x8x2x16xf32>
  %q = "onnx.Transpose"(%q4) {perm = [0, 2, 1, 3]} : (tensor<1x8x2x16xf32>) -> tensor<1x2x8x16xf32>
  %kt = "onnx.Transpose"(%k4) {perm = [0, 2, 3, 1]} : (tensor<1x8x2x16xf32>) -> tensor<1x2x16x8xf32>
  %v = "onnx.Transpose"(%v4) {perm = [0, 2, 1, 3]} : (tensor<1x8x2x16xf32>) -> tensor<1x2x8x16xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x8x16xf32>, tensor<1x2x16x8xf32>) -> tensor<1x2x8x8xf32>
  %y = "onnx.MatMul"(%s, %v) : (tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %yt = "onnx.Transpose"(%y) {perm = [0, 2, 1, 3]} : (tensor<1x2x8x16xf32>) -> tensor<1x8x2x16xf32>
  %back = onnx.Constant dense<[1, 8, 32]> : tensor<3xi64>
  %out = "onnx.Reshape"(%yt, %back) : (tensor<1x8x2x16xf32>, tensor<3xi64>) -> tensor<1x8x32xf32>
  return %out : tensor<1x8x32xf32>
}

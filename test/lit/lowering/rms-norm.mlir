// RMSNormalization (opset 23, also formed from PyTorch's decomposed RMSNorm):
// one kernel reduces each row's sum of squares across a workgroup, then
// writes x * inverse rms * scale. Its reference evaluator gives known
// values; on lavapipe the kernel matches the reference backend.

// RUN: split-file %s %t
// RUN: onyx-opt %t/kernel.mlir --target=lavapipe --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-run %t/values.mlir --backend=ref --input=2x4xf32=3,4,0,0,1,1,1,1 | FileCheck %s --check-prefix=REF
// RUN: onyx-run %t/values.mlir --validate --check --input=2x4xf32=3,4,0,0,1,1,1,1 | FileCheck %s --check-prefix=VK
// RUN: onyx-run %t/kernel.mlir --validate --check --input=2x16x128xf32=0.25 | FileCheck %s --check-prefix=VK
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics

//--- kernel.mlir
// CHECK: gpu.kernel @rms_norm(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: const uint ROWS = 32u;
// CHECK-SAME: const uint LENGTH = 128u;
// CHECK-NOT: sum += xv;
// CHECK-SAME: float d = xv;
// CHECK-SAME: squares += d * d;
// CHECK-SAME: float invStdDev = uintBitsToFloat(0x3f800000u) / sqrt(squares / uintBitsToFloat(0x43000000u) + uintBitsToFloat(0x3727c5acu));
// CHECK-SAME: y.d[at] = xv * invStdDev * scale.d[scaleIndex(i)];
// CHECK: gpu.dispatch @rms_norm[
func.func @main(%x: tensor<2x16x128xf32>) -> tensor<2x16x128xf32> {
  %s = onnx.Constant dense<1.5> : tensor<128xf32>
  %0 = "onnx.RMSNormalization"(%x, %s) : (tensor<2x16x128xf32>, tensor<128xf32>) -> tensor<2x16x128xf32>
  return %0 : tensor<2x16x128xf32>
}

//--- values.mlir
// Rows [3, 4, 0, 0] (rms 2.5) and [1, 1, 1, 1] (rms 1), epsilon 0, scale
// [1, 2, 3, 4].
// REF: output 0: tensor<2x4xf32> = [1.2, 3.2, 0, 0, 1, 2, 3, 4]
// VK: output 0 vs ref: {{.*}}: PASS
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %s = onnx.Constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = "onnx.RMSNormalization"(%x, %s) {epsilon = 0.0 : f32} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

//--- invalid.mlir
func.func @scale_shape(%x: tensor<2x4xf32>, %s: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'onnx.RMSNormalization' op operand 'scale' of type tensor<3xf32> does not broadcast to the normalized dimensions of tensor<2x4xf32>}}
  %0 = "onnx.RMSNormalization"(%x, %s) : (tensor<2x4xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @axis(%x: tensor<2x4xf32>, %s: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'onnx.RMSNormalization' op axis 2 is out of range for rank 2}}
  %0 = "onnx.RMSNormalization"(%x, %s) {axis = 2 : si64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @integer(%x: tensor<2x4xi32>, %s: tensor<4xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{'onnx.RMSNormalization' op operand 'X'}}
  %0 = "onnx.RMSNormalization"(%x, %s) : (tensor<2x4xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

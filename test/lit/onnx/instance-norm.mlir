// InstanceNormalization: each image's channel is normalized over its
// spatial dimensions, then scaled and shifted by the channel's scale and B;
// on Vulkan it is the LayerNorm row kernel with per-channel parameters.

// RUN: split-file %s %t
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-opt %t/run.mlir --target=lavapipe --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=GLSL
// RUN: onyx-run %t/run.mlir --backend=ref --input=2x2x2xf32=1,3,2,6,0,4,5,5 \
// RUN:   --expected-output=2x2x2xf32=-1.5,2.5,-1.5,0.5,-1.5,2.5,-0.5,-0.5 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: onyx-run %t/run.mlir --validate --input=2x2x2xf32=1,3,2,6,0,4,5,5 \
// RUN:   --expected-output=2x2x2xf32=-1.5,2.5,-1.5,0.5,-1.5,2.5,-0.5,-0.5 \
// RUN:   | FileCheck %s --check-prefix=EXEC

// EXEC: output 0: max abs error {{.*}}: PASS

//--- invalid.mlir

func.func @rank(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.InstanceNormalization' op operand 'input' must have rank 3 or more (N x C x spatial), got tensor<2x3xf32>}}
  %0 = "onnx.InstanceNormalization"(%x, %s, %s) : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @channels(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'onnx.InstanceNormalization' op operand 'B' must have 3 elements (one per channel), got 4}}
  %0 = "onnx.InstanceNormalization"(%x, %s, %b) : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

//--- run.mlir

// Rows are (image, channel); the scale and B of row r are element r % 2.
// GLSL: gpu.kernel @layer_norm(read, read, read, write)
// GLSL-SAME: (xv - mean) * invStdDev * scale.d[row % 2u] + bias.d[row % 2u]
func.func @main(%x: tensor<2x2x2xf32>) -> tensor<2x2x2xf32> {
  %s = onnx.Constant dense<[2.0, 1.0]> : tensor<2xf32>
  %b = onnx.Constant dense<[0.5, -0.5]> : tensor<2xf32>
  %0 = "onnx.InstanceNormalization"(%x, %s, %b) : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2x2xf32>
  return %0 : tensor<2x2x2xf32>
}

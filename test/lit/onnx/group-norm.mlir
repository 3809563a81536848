// GroupNormalization: each image's num_groups groups of consecutive channels
// are normalized over their channels' spatial elements, then scaled and
// shifted per channel (opset 21: scale and bias of C elements) or per group
// (opset 18: num_groups elements); on Vulkan it is the LayerNorm row kernel
// over rows of one group, with the parameters indexed from the row.

// RUN: split-file %s %t
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-opt %t/channels.mlir --target=lavapipe --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=CHANNELS
// RUN: onyx-opt %t/groups.mlir --target=lavapipe --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=GROUPS
// RUN: onyx-run %t/channels.mlir --backend=ref --input=1x4x3xf32=1,3,2,6,0,4,5,5,2,-2,7,1 \
// RUN:   --expected-output=1x4x3xf32=-1.19031,0.838061,-0.176123,1.19031,-1.85225,0.176123,1.33333,1.33333,0.833333,1.66667,-1.33333,0.666666 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: onyx-run %t/channels.mlir --validate --input=1x4x3xf32=1,3,2,6,0,4,5,5,2,-2,7,1 \
// RUN:   --expected-output=1x4x3xf32=-1.19031,0.838061,-0.176123,1.19031,-1.85225,0.176123,1.33333,1.33333,0.833333,1.66667,-1.33333,0.666666 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: onyx-run %t/groups.mlir --backend=ref --input=1x4x3xf32=1,3,2,6,0,4,5,5,2,-2,7,1 \
// RUN:   --expected-output=1x4x3xf32=-1.19031,0.838061,-0.176123,3.88061,-2.20449,1.85225,0.333334,0.333334,1.33333,2.66667,-0.333333,1.66667 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: onyx-run %t/groups.mlir --validate --input=1x4x3xf32=1,3,2,6,0,4,5,5,2,-2,7,1 \
// RUN:   --expected-output=1x4x3xf32=-1.19031,0.838061,-0.176123,3.88061,-2.20449,1.85225,0.333334,0.333334,1.33333,2.66667,-0.333333,1.66667 \
// RUN:   | FileCheck %s --check-prefix=EXEC

// EXEC: output 0: max abs error {{.*}}: PASS

//--- invalid.mlir

func.func @rank(%x: tensor<2xf32>, %s: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op operand 'X' must have rank 2 or more (N x C x spatial), got tensor<2xf32>}}
  %0 = "onnx.GroupNormalization"(%x, %s, %s) {num_groups = 1 : i64} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @divide(%x: tensor<1x6x2xf32>, %s: tensor<6xf32>) -> tensor<1x6x2xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op attribute 'num_groups' must divide the 6 channels, got 4}}
  %0 = "onnx.GroupNormalization"(%x, %s, %s) {num_groups = 4 : i64} : (tensor<1x6x2xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x2xf32>
  return %0 : tensor<1x6x2xf32>
}

// -----

func.func @groups(%x: tensor<1x6x2xf32>, %s: tensor<6xf32>) -> tensor<1x6x2xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op attribute 'num_groups' must be positive, got 0}}
  %0 = "onnx.GroupNormalization"(%x, %s, %s) {num_groups = 0 : i64} : (tensor<1x6x2xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x2xf32>
  return %0 : tensor<1x6x2xf32>
}

// -----

func.func @scale(%x: tensor<1x6x2xf32>, %s: tensor<4xf32>) -> tensor<1x6x2xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op operand 'scale' must have 6 elements (one per channel) or 3 (one per group, opset 18), got 4}}
  %0 = "onnx.GroupNormalization"(%x, %s, %s) {num_groups = 3 : i64} : (tensor<1x6x2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x6x2xf32>
  return %0 : tensor<1x6x2xf32>
}

// -----

func.func @mixed(%x: tensor<1x6x2xf32>, %s: tensor<6xf32>, %b: tensor<3xf32>) -> tensor<1x6x2xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op operand 'bias' must have the shape of scale, got tensor<3xf32>}}
  %0 = "onnx.GroupNormalization"(%x, %s, %b) {num_groups = 3 : i64} : (tensor<1x6x2xf32>, tensor<6xf32>, tensor<3xf32>) -> tensor<1x6x2xf32>
  return %0 : tensor<1x6x2xf32>
}

// -----

func.func @stash(%x: tensor<1x6x2xf32>, %s: tensor<6xf32>) -> tensor<1x6x2xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op attribute 'stash_type' must be 1 (float), got 11}}
  %0 = "onnx.GroupNormalization"(%x, %s, %s) {num_groups = 3 : i64, stash_type = 11 : i64} : (tensor<1x6x2xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<1x6x2xf32>
  return %0 : tensor<1x6x2xf32>
}

//--- channels.mlir

// Rows are (image, group) of 2 channels x 3 elements; the parameter of
// element i of row r is channel (r % 2) * 2 + i / 3.
// CHANNELS: gpu.kernel @layer_norm(read, read, read, write)
// CHANNELS-SAME: scale.d[(row % 2u) * 2u + i / 3u]
func.func @main(%x: tensor<1x4x3xf32>) -> tensor<1x4x3xf32> {
  %s = onnx.Constant dense<[2.0, 1.0, 0.5, -1.0]> : tensor<4xf32>
  %b = onnx.Constant dense<[0.5, -0.5, 1.0, 0.0]> : tensor<4xf32>
  %0 = "onnx.GroupNormalization"(%x, %s, %b) {num_groups = 2 : i64} : (tensor<1x4x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x3xf32>
  return %0 : tensor<1x4x3xf32>
}

//--- groups.mlir

// Opset 18's form: one parameter per group, element r % 2 of row r.
// GROUPS: gpu.kernel @layer_norm(read, read, read, write)
// GROUPS-SAME: scale.d[row % 2u]
func.func @main(%x: tensor<1x4x3xf32>) -> tensor<1x4x3xf32> {
  %s = onnx.Constant dense<[2.0, -1.0]> : tensor<2xf32>
  %b = onnx.Constant dense<[0.5, 1.0]> : tensor<2xf32>
  %0 = "onnx.GroupNormalization"(%x, %s, %b) {num_groups = 2 : i64} : (tensor<1x4x3xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x4x3xf32>
  return %0 : tensor<1x4x3xf32>
}

// Resize and Upsample: opset 10's (X, scales) form and Upsample's scales
// attribute import onto the newest form; sizes with keep_aspect_ratio_policy
// and axes give static shapes, run-time scales `?`; invalid attributes and
// operands are located errors; the reference backend and the Vulkan kernel
// match PyTorch's antialiased bilinear and bicubic downsampling, and agree
// with each other on the other modes.

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/opset10.textproto -o %t/opset10.onnx
// RUN: onyx-opt %t/opset10.onnx | FileCheck %s --check-prefix=OPSET10
// RUN: onnx-txt2pb %t/opset7.textproto -o %t/opset7.onnx
// RUN: onyx-opt %t/opset7.onnx | FileCheck %s --check-prefix=OPSET7
// RUN: onnx-txt2pb %t/opset18.textproto -o %t/opset18.onnx
// RUN: onyx-opt %t/opset18.onnx | FileCheck %s --check-prefix=OPSET18
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-opt %t/antialias.mlir --target=lavapipe --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=GLSL
// RUN: onyx-run %t/antialias.mlir --backend=ref --input=1x1x6x8xf32=0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10 \
// RUN:   --expected-output=1x1x3x5xf32=3.57792,4.8836,5.375,4.86243,6.70779,4.80114,5.43981,5,4.56019,5.19886,3.29221,5.13757,4.625,5.1164,6.42208 --expected-output=1x1x4x3xf32=4.0588,5.39031,6.39202,5.19249,4.12517,4.85804,5.14196,5.87483,4.80751,3.60797,4.60969,5.9412 \
// RUN:   | FileCheck %s --check-prefix=TORCH
// RUN: onyx-run %t/antialias.mlir --validate --input=1x1x6x8xf32=0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10 \
// RUN:   --expected-output=1x1x3x5xf32=3.57792,4.8836,5.375,4.86243,6.70779,4.80114,5.43981,5,4.56019,5.19886,3.29221,5.13757,4.625,5.1164,6.42208 --expected-output=1x1x4x3xf32=4.0588,5.39031,6.39202,5.19249,4.12517,4.85804,5.14196,5.87483,4.80751,3.60797,4.60969,5.9412 \
// RUN:   | FileCheck %s --check-prefix=TORCH
// RUN: onyx-run %t/modes.mlir --validate --check --input=1x2x6x8xf32=0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10,6,2,9,5,1,8,4,0,7,3,10 \
// RUN:   | FileCheck %s --check-prefix=MODES

// TORCH: output 0: max abs error {{.*}}: PASS
// TORCH: output 1: max abs error {{.*}}: PASS

//--- opset10.textproto
# Resize 10 is (X, scales) with asymmetric coordinates and nearest rounding
# down.
# OPSET10-LABEL: func.func @main
# OPSET10: "onnx.Resize"(%arg0, %{{.*}}, %{{.*}}) {coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x1x4x6xf32>, none, tensor<4xf32>) -> tensor<1x1x8x18xf32>
ir_version: 5
opset_import { version: 10 }
graph {
  name: "g"
  node { input: "x" input: "s" output: "y" op_type: "Resize" }
  initializer { name: "s" dims: 4 data_type: 1 float_data: 1 float_data: 1 float_data: 2 float_data: 3 }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 1 } dim { dim_value: 4 } dim { dim_value: 6 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } dim { dim_param: "c" } dim { dim_param: "h" } dim { dim_param: "w" } } } } }
}

//--- opset7.textproto
# Upsample 7 has its scales as an attribute; they become the operand.
# OPSET7-LABEL: func.func @main
# OPSET7: "onnx.Upsample"(%arg0, %{{.*}}) {mode = "linear"} : (tensor<1x1x4x6xf32>, tensor<4xf32>) -> tensor<1x1x8x12xf32>
ir_version: 3
opset_import { version: 7 }
graph {
  name: "g"
  node { input: "x" output: "y" op_type: "Upsample"
    attribute { name: "mode" s: "linear" type: STRING }
    attribute { name: "scales" floats: 1 floats: 1 floats: 2 floats: 2 type: FLOATS } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 1 } dim { dim_value: 4 } dim { dim_value: 6 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } dim { dim_param: "c" } dim { dim_param: "h" } dim { dim_param: "w" } } } } }
}

//--- opset18.textproto
# Scales known only at run time leave the resized dims `?`; sizes [10, 9]
# on axes 2 and 3 of a 4x6 image keep its aspect ratio with one scale:
# 1.5 (not_larger: 6x9) or 2.5 (not_smaller: 10x15).
# OPSET18-LABEL: func.func @main
# OPSET18: "onnx.Resize"(%arg0, %{{.*}}, %arg1) {mode = "linear"} : (tensor<1x1x4x6xf32>, none, tensor<4xf32>) -> tensor<?x?x?x?xf32>
# OPSET18: "onnx.Resize"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {axes = [2, 3], keep_aspect_ratio_policy = "not_larger"} : (tensor<1x1x4x6xf32>, none, none, tensor<2xi64>) -> tensor<1x1x6x9xf32>
# OPSET18: "onnx.Resize"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {axes = [2, 3], keep_aspect_ratio_policy = "not_smaller"} : (tensor<1x1x4x6xf32>, none, none, tensor<2xi64>) -> tensor<1x1x10x15xf32>
ir_version: 8
opset_import { version: 18 }
graph {
  name: "g"
  node { input: "x" input: "" input: "s" output: "y0" op_type: "Resize"
    attribute { name: "mode" s: "linear" type: STRING } }
  node { input: "x" input: "" input: "" input: "sizes" output: "y1" op_type: "Resize"
    attribute { name: "axes" ints: 2 ints: 3 type: INTS }
    attribute { name: "keep_aspect_ratio_policy" s: "not_larger" type: STRING } }
  node { input: "x" input: "" input: "" input: "sizes" output: "y2" op_type: "Resize"
    attribute { name: "axes" ints: 2 ints: 3 type: INTS }
    attribute { name: "keep_aspect_ratio_policy" s: "not_smaller" type: STRING } }
  initializer { name: "sizes" dims: 2 data_type: 7 int64_data: 10 int64_data: 9 }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 1 } dim { dim_value: 4 } dim { dim_value: 6 } } } } }
  input { name: "s" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
  output { name: "y0" type { tensor_type { elem_type: 1 shape { dim { dim_param: "a" } dim { dim_param: "b" } dim { dim_param: "h" } dim { dim_param: "w" } } } } }
  output { name: "y1" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } dim { dim_param: "c" } dim { dim_param: "h1" } dim { dim_param: "w1" } } } } }
  output { name: "y2" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } dim { dim_param: "c" } dim { dim_param: "h2" } dim { dim_param: "w2" } } } } }
}

//--- invalid.mlir

func.func @both(%x: tensor<1x1x4x4xf32>, %s: tensor<4xf32>, %z: tensor<4xi64>) -> tensor<?x?x?x?xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Resize' op takes 'scales' or 'sizes', not both}}
  %0 = "onnx.Resize"(%x, %n, %s, %z) : (tensor<1x1x4x4xf32>, none, tensor<4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @neither(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{'onnx.Resize' op needs 'scales' or 'sizes'}}
  %0 = "onnx.Resize"(%x) : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @scales_length(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  %s = onnx.Constant dense<[1.0, 2.0, 2.0]> : tensor<3xf32>
  // expected-error @+1 {{'onnx.Resize' op operand 'scales' must have 4 elements (one per dimension of 'X'), got 3}}
  %0 = "onnx.Resize"(%x, %n, %s) : (tensor<1x1x4x4xf32>, none, tensor<3xf32>) -> tensor<1x1x8x8xf32>
  return %0 : tensor<1x1x8x8xf32>
}

// -----

// Upsample has no 'axes': the message must not ask its schema for one (an
// assertion failure, found by fuzz-differential).
func.func @upsample_scales_length(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32> {
  %s = onnx.Constant dense<[1.0, 2.0, 2.0]> : tensor<3xf32>
  // expected-error @+1 {{'onnx.Upsample' op operand 'scales' must have 4 elements (one per dimension of 'X'), got 3}}
  %0 = "onnx.Upsample"(%x, %s) : (tensor<1x1x4x4xf32>, tensor<3xf32>) -> tensor<1x1x8x8xf32>
  return %0 : tensor<1x1x8x8xf32>
}

// -----

func.func @negative_scale(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  %s = onnx.Constant dense<[1.0, 1.0, -2.0, 2.0]> : tensor<4xf32>
  // expected-error @+1 {{'onnx.Resize' op operand 'scales' must be positive and finite, got -2}}
  %0 = "onnx.Resize"(%x, %n, %s) : (tensor<1x1x4x4xf32>, none, tensor<4xf32>) -> tensor<1x1x8x8xf32>
  return %0 : tensor<1x1x8x8xf32>
}

// -----

func.func @axes_twice(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  %s = onnx.Constant dense<[2.0, 2.0]> : tensor<2xf32>
  // expected-error @+1 {{'onnx.Resize' op attribute 'axes' names axis 3 twice}}
  %0 = "onnx.Resize"(%x, %n, %s) {axes = [3, -1]} : (tensor<1x1x4x4xf32>, none, tensor<2xf32>) -> tensor<1x1x8x8xf32>
  return %0 : tensor<1x1x8x8xf32>
}

// -----

func.func @policy_with_scales(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  %s = onnx.Constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  // expected-error @+1 {{'onnx.Resize' op attribute 'keep_aspect_ratio_policy' applies to 'sizes' only}}
  %0 = "onnx.Resize"(%x, %n, %s) {keep_aspect_ratio_policy = "not_larger"} : (tensor<1x1x4x4xf32>, none, tensor<4xf32>) -> tensor<1x1x8x8xf32>
  return %0 : tensor<1x1x8x8xf32>
}

// -----

func.func @linear_int(%x: tensor<1x1x4x4xi32>) -> tensor<1x1x8x8xi32> {
  %n = "onnx.NoValue"() {value} : () -> none
  %s = onnx.Constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  // expected-error @+1 {{'onnx.Resize' op operand 'X' must have a float element type for mode 'linear', got tensor<1x1x4x4xi32>}}
  %0 = "onnx.Resize"(%x, %n, %s) {mode = "linear"} : (tensor<1x1x4x4xi32>, none, tensor<4xf32>) -> tensor<1x1x8x8xi32>
  return %0 : tensor<1x1x8x8xi32>
}

// -----

func.func @bad_mode(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  %s = onnx.Constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  // expected-error @+1 {{'onnx.Resize' op attribute 'coordinate_transformation_mode'}}
  %0 = "onnx.Resize"(%x, %n, %s) {coordinate_transformation_mode = "corners"} : (tensor<1x1x4x4xf32>, none, tensor<4xf32>) -> tensor<1x1x8x8xf32>
  return %0 : tensor<1x1x8x8xf32>
}

//--- antialias.mlir

// Antialiased downsampling widens the filter by 1 / scale: 4 taps for
// linear at scale 1/2 on rows, and the weights are renormalized. PyTorch
// (like PIL) drops the taps outside the image, which is exclude_outside;
// its bicubic uses a = -0.5.
// GLSL: gpu.kernel @resize(read, write)
// GLSL-SAME: float resize_filter(float u) { return max(0.0, 1.0 - abs(u)); }
// GLSL-SAME: float w2[4];
// GLSL: gpu.kernel @resize_1(read, write)
// GLSL-SAME: float w2[6];
func.func @main(%x: tensor<1x1x6x8xf32>) -> (tensor<1x1x3x5xf32>, tensor<1x1x4x3xf32>) {
  %n = "onnx.NoValue"() {value} : () -> none
  %s0 = onnx.Constant dense<[3, 5]> : tensor<2xi64>
  %0 = "onnx.Resize"(%x, %n, %n, %s0) {axes = [2, 3], mode = "linear", antialias = 1 : si64, exclude_outside = 1 : si64} : (tensor<1x1x6x8xf32>, none, none, tensor<2xi64>) -> tensor<1x1x3x5xf32>
  %s1 = onnx.Constant dense<[1, 1, 4, 3]> : tensor<4xi64>
  %1 = "onnx.Resize"(%x, %n, %n, %s1) {mode = "cubic", antialias = 1 : si64, cubic_coeff_a = -5.000000e-01 : f32, exclude_outside = 1 : si64} : (tensor<1x1x6x8xf32>, none, none, tensor<4xi64>) -> tensor<1x1x4x3xf32>
  return %0, %1 : tensor<1x1x3x5xf32>, tensor<1x1x4x3xf32>
}

//--- modes.mlir

// Every coordinate mode and nearest rounding, cubic with exclude_outside,
// tf_crop_and_resize with extrapolation, Upsample, and a linear Resize
// that maps every axis to itself (a copy): Vulkan against the reference
// backend.
// MODES-COUNT-9: output {{[0-9]}} vs ref: {{.*}}: PASS
func.func @main(%x: tensor<1x2x6x8xf32>) -> (tensor<1x2x9x5xf32>, tensor<1x2x9x5xf32>, tensor<1x2x4x13xf32>, tensor<1x2x4x13xf32>, tensor<1x2x3x3xf32>, tensor<1x2x7x11xf32>, tensor<1x2x12x16xf32>, tensor<1x2x12x24xf32>, tensor<1x2x6x8xf32>) {
  %n = "onnx.NoValue"() {value} : () -> none
  %up = onnx.Constant dense<[1.0, 1.0, 1.5, 0.7]> : tensor<4xf32>
  %0 = "onnx.Resize"(%x, %n, %up) {coordinate_transformation_mode = "tf_half_pixel_for_nn", nearest_mode = "round_prefer_ceil"} : (tensor<1x2x6x8xf32>, none, tensor<4xf32>) -> tensor<1x2x9x5xf32>
  %1 = "onnx.Resize"(%x, %n, %up) {coordinate_transformation_mode = "half_pixel_symmetric", mode = "linear"} : (tensor<1x2x6x8xf32>, none, tensor<4xf32>) -> tensor<1x2x9x5xf32>
  %sz = onnx.Constant dense<[4, 13]> : tensor<2xi64>
  %2 = "onnx.Resize"(%x, %n, %n, %sz) {axes = [2, 3], coordinate_transformation_mode = "align_corners", mode = "cubic", exclude_outside = 1 : si64} : (tensor<1x2x6x8xf32>, none, none, tensor<2xi64>) -> tensor<1x2x4x13xf32>
  %3 = "onnx.Resize"(%x, %n, %n, %sz) {axes = [2, 3], coordinate_transformation_mode = "pytorch_half_pixel", mode = "nearest", nearest_mode = "ceil"} : (tensor<1x2x6x8xf32>, none, none, tensor<2xi64>) -> tensor<1x2x4x13xf32>
  %roi = onnx.Constant dense<[0.2, -0.3, 0.9, 0.8]> : tensor<4xf32>
  %s3 = onnx.Constant dense<[3, 3]> : tensor<2xi64>
  %4 = "onnx.Resize"(%x, %roi, %n, %s3) {axes = [2, 3], coordinate_transformation_mode = "tf_crop_and_resize", mode = "linear", extrapolation_value = 7.5 : f32} : (tensor<1x2x6x8xf32>, tensor<4xf32>, none, tensor<2xi64>) -> tensor<1x2x3x3xf32>
  %s5 = onnx.Constant dense<[7, 11]> : tensor<2xi64>
  %5 = "onnx.Resize"(%x, %n, %n, %s5) {axes = [2, 3], coordinate_transformation_mode = "asymmetric", mode = "nearest", nearest_mode = "floor"} : (tensor<1x2x6x8xf32>, none, none, tensor<2xi64>) -> tensor<1x2x7x11xf32>
  %two = onnx.Constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %6 = "onnx.Upsample"(%x, %two) {mode = "linear"} : (tensor<1x2x6x8xf32>, tensor<4xf32>) -> tensor<1x2x12x16xf32>
  %three = onnx.Constant dense<[1.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %7 = "onnx.Upsample"(%x, %three) : (tensor<1x2x6x8xf32>, tensor<4xf32>) -> tensor<1x2x12x24xf32>
  %ones = onnx.Constant dense<1.0> : tensor<4xf32>
  %8 = "onnx.Resize"(%x, %n, %ones) {mode = "linear"} : (tensor<1x2x6x8xf32>, none, tensor<4xf32>) -> tensor<1x2x6x8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<1x2x9x5xf32>, tensor<1x2x9x5xf32>, tensor<1x2x4x13xf32>, tensor<1x2x4x13xf32>, tensor<1x2x3x3xf32>, tensor<1x2x7x11xf32>, tensor<1x2x12x16xf32>, tensor<1x2x12x24xf32>, tensor<1x2x6x8xf32>
}

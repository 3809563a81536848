// ConvTranspose: shape inference from pads, output_padding, output_shape
// and auto_pad; located errors for attributes that cannot work; the
// reference backend and the Vulkan kernel (one invocation per output
// element gathering what the scatter would add) against PyTorch's
// conv_transpose2d on a grouped, strided, dilated case with asymmetric
// pads, output_padding and a bias.

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/model.textproto -o %t/model.onnx
// RUN: onyx-opt %t/model.onnx | FileCheck %s --check-prefix=IMPORT
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-opt %t/run.mlir --target=lavapipe --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=GLSL
// RUN: onyx-run %t/run.mlir --backend=ref --input=1x4x3x3xf32=-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2 \
// RUN:   --input=4x3x3x2xf32=-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1 \
// RUN:   --expected-output=1x6x7x4xf32=0.5,-2.5,-0.5,3.5,-0.5,-2.5,0.5,-2.5,1.5,3.5,-0.5,-2.5,3.5,1.5,0.5,3.5,-2.5,-0.5,4.5,1.5,0.5,0.5,-2.5,-0.5,0.5,0.5,0.5,0.5,-0.5,-3.5,-1.5,2.5,-1.5,-3.5,-0.5,-3.5,0.5,2.5,-1.5,-3.5,2.5,0.5,-0.5,2.5,-3.5,-1.5,3.5,0.5,-0.5,-0.5,-3.5,-1.5,-0.5,-0.5,-0.5,-0.5,1,-2,0,4,0,-2,1,-2,2,4,0,-2,4,2,1,4,-2,0,5,2,1,1,-2,0,1,1,1,1,0,2,-2,-4,2,0,-1,2,-4,-2,3,0,-4,-1,-1,-2,2,-1,-7,-1,-1,-1,2,-1,-1,-1,-1,-1,3,5,1,-1,5,3,2,5,-1,1,6,3,-1,2,2,1,5,2,-4,2,2,2,5,2,2,2,2,2,-1,1,-3,-5,1,-1,-2,1,-5,-3,2,-1,-5,-2,-2,-3,1,-2,-8,-2,-2,-2,1,-2,-2,-2,-2,-2 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: onyx-run %t/run.mlir --validate --input=1x4x3x3xf32=-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2 \
// RUN:   --input=4x3x3x2xf32=-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1 \
// RUN:   --expected-output=1x6x7x4xf32=0.5,-2.5,-0.5,3.5,-0.5,-2.5,0.5,-2.5,1.5,3.5,-0.5,-2.5,3.5,1.5,0.5,3.5,-2.5,-0.5,4.5,1.5,0.5,0.5,-2.5,-0.5,0.5,0.5,0.5,0.5,-0.5,-3.5,-1.5,2.5,-1.5,-3.5,-0.5,-3.5,0.5,2.5,-1.5,-3.5,2.5,0.5,-0.5,2.5,-3.5,-1.5,3.5,0.5,-0.5,-0.5,-3.5,-1.5,-0.5,-0.5,-0.5,-0.5,1,-2,0,4,0,-2,1,-2,2,4,0,-2,4,2,1,4,-2,0,5,2,1,1,-2,0,1,1,1,1,0,2,-2,-4,2,0,-1,2,-4,-2,3,0,-4,-1,-1,-2,2,-1,-7,-1,-1,-1,2,-1,-1,-1,-1,-1,3,5,1,-1,5,3,2,5,-1,1,6,3,-1,2,2,1,5,2,-4,2,2,2,5,2,2,2,2,2,-1,1,-3,-5,1,-1,-2,1,-5,-3,2,-1,-5,-2,-2,-3,1,-2,-8,-2,-2,-2,1,-2,-2,-2,-2,-2 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: onyx-opt %t/fold.mlir --canonicalize | FileCheck %s --check-prefix=FOLD

// EXEC: output 0: max abs error {{.*}}: PASS

//--- model.textproto
# Output sizes: stride * (in - 1) + output_padding + extent - pads; an
# output_shape (spatial or with N and C) or SAME_* padding gives in * stride.
# IMPORT-LABEL: func.func @main
# IMPORT-NEXT: "onnx.ConvTranspose"(%arg0, %arg1) {output_padding = [1, 0], pads = [1, 0, 0, 1], strides = [2, 1]} : (tensor<1x4x3x5xf32>, tensor<4x3x3x2xf32>) -> tensor<1x3x7x5xf32>
# IMPORT-NEXT: "onnx.ConvTranspose"(%arg0, %arg1) {group = 2 : si64, output_shape = [9, 7], strides = [3, 1]} : (tensor<1x4x3x5xf32>, tensor<4x3x3x2xf32>) -> tensor<1x6x9x7xf32>
# IMPORT-NEXT: "onnx.ConvTranspose"(%arg0, %arg1) {auto_pad = "SAME_UPPER", dilations = [2, 2], strides = [2, 2]} : (tensor<1x4x3x5xf32>, tensor<4x3x3x2xf32>) -> tensor<1x3x6x10xf32>
# IMPORT-NEXT: "onnx.ConvTranspose"(%arg0, %arg1) {output_shape = [1, 3, 4, 8]} : (tensor<1x4x3x5xf32>, tensor<4x3x3x2xf32>) -> tensor<1x3x4x8xf32>
ir_version: 8
opset_import { version: 17 }
graph {
  name: "g"
  node { input: "x" input: "w" output: "y0" op_type: "ConvTranspose"
    attribute { name: "strides" ints: 2 ints: 1 type: INTS }
    attribute { name: "pads" ints: 1 ints: 0 ints: 0 ints: 1 type: INTS }
    attribute { name: "output_padding" ints: 1 ints: 0 type: INTS } }
  node { input: "x" input: "w" output: "y1" op_type: "ConvTranspose"
    attribute { name: "group" i: 2 type: INT }
    attribute { name: "strides" ints: 3 ints: 1 type: INTS }
    attribute { name: "output_shape" ints: 9 ints: 7 type: INTS } }
  node { input: "x" input: "w" output: "y2" op_type: "ConvTranspose"
    attribute { name: "auto_pad" s: "SAME_UPPER" type: STRING }
    attribute { name: "dilations" ints: 2 ints: 2 type: INTS }
    attribute { name: "strides" ints: 2 ints: 2 type: INTS } }
  node { input: "x" input: "w" output: "y3" op_type: "ConvTranspose"
    attribute { name: "output_shape" ints: 1 ints: 3 ints: 4 ints: 8 type: INTS } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 4 } dim { dim_value: 3 } dim { dim_value: 5 } } } } }
  input { name: "w" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } dim { dim_value: 3 } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
  output { name: "y0" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } dim { dim_param: "c" } dim { dim_param: "h" } dim { dim_param: "w" } } } } }
  output { name: "y1" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } dim { dim_param: "c" } dim { dim_param: "h" } dim { dim_param: "w" } } } } }
  output { name: "y2" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } dim { dim_param: "c" } dim { dim_param: "h" } dim { dim_param: "w" } } } } }
  output { name: "y3" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } dim { dim_param: "c" } dim { dim_param: "h" } dim { dim_param: "w" } } } } }
}

//--- invalid.mlir

func.func @channels(%x: tensor<1x3x4x4xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x2x6x6xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op operand 'W' has 4 input channels, but 'X' has 3}}
  %0 = "onnx.ConvTranspose"(%x, %w) : (tensor<1x3x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  return %0 : tensor<1x2x6x6xf32>
}

// -----

func.func @groups(%x: tensor<1x3x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op operand 'W' has 3 input channels, not divisible into 2 groups}}
  %0 = "onnx.ConvTranspose"(%x, %w) {group = 2 : si64} : (tensor<1x3x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @output_padding(%x: tensor<1x3x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x8x8xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op attribute 'output_padding' must be at least 0 and less than the stride or the dilation of its dimension, got 2 for dimension 1}}
  %0 = "onnx.ConvTranspose"(%x, %w) {output_padding = [0, 2], strides = [2, 2]} : (tensor<1x3x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  return %0 : tensor<1x2x8x8xf32>
}

// -----

func.func @output_shape(%x: tensor<1x3x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x8x8xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op attribute 'output_shape' must have 2 values (or 4 with N and C), got 3}}
  %0 = "onnx.ConvTranspose"(%x, %w) {output_shape = [8, 8, 8]} : (tensor<1x3x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  return %0 : tensor<1x2x8x8xf32>
}

// -----

func.func @pads(%x: tensor<1x3x2x2xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x1x1xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op pads of 3 and 2 leave no output in spatial dimension 0 (of size 4)}}
  %0 = "onnx.ConvTranspose"(%x, %w) {pads = [3, 2, 2, 2]} : (tensor<1x3x2x2xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x1x1xf32>
  return %0 : tensor<1x2x1x1xf32>
}

// -----

func.func @bias(%x: tensor<1x3x2x2xf32>, %w: tensor<3x2x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op operand 'B' must have 2 elements (one per output channel), got 3}}
  %0 = "onnx.ConvTranspose"(%x, %w, %b) : (tensor<1x3x2x2xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// The checks ConvTranspose shares with Conv (their rows in invalid.mlir).

func.func @group(%x: tensor<1x3x2x2xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op attribute 'group' must be positive, got 0}}
  %0 = "onnx.ConvTranspose"(%x, %w) {group = 0 : si64} : (tensor<1x3x2x2xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @kernel_shape(%x: tensor<1x3x2x2xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op attribute 'kernel_shape' does not match the spatial dimensions of 'W' (tensor<3x2x3x3xf32>)}}
  %0 = "onnx.ConvTranspose"(%x, %w) {kernel_shape = [3, 2]} : (tensor<1x3x2x2xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @negative_pads(%x: tensor<1x3x2x2xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op attribute 'pads' must not be negative}}
  %0 = "onnx.ConvTranspose"(%x, %w) {pads = [0, -1, 0, 0]} : (tensor<1x3x2x2xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

//--- run.mlir

// Two groups of 2 input channels and 3 filters; H: stride 2, one row of
// output_padding, one begin pad; W: dilation 2, one end pad.
// GLSL: gpu.kernel @conv_transpose(read, read, read, write)
// GLSL-SAME: uint grp = m / 3u, mm = m % 3u;
// GLSL-SAME: int t0 = int(o0) + 1 - int(k0) * 1;
// GLSL-SAME: int i0 = t0 / 2;
// GLSL-SAME: int t1 = int(o1) + 0 - int(k1) * 2;
// GLSL-SAME: if (!(t0 >= 0 && t0 % 2 == 0 && i0 < 3 && i1 >= 0 && i1 < 3))
// GLSL: gpu.dispatch @conv_transpose
func.func @main(%x: tensor<1x4x3x3xf32>, %w: tensor<4x3x3x2xf32>) -> tensor<1x6x7x4xf32> {
  %b = onnx.Constant dense<[0.5, -0.5, 1.0, -1.0, 2.0, -2.0]> : tensor<6xf32>
  %0 = "onnx.ConvTranspose"(%x, %w, %b) {group = 2 : si64, strides = [2, 1], dilations = [1, 2], pads = [1, 0, 0, 1], output_padding = [1, 0]} : (tensor<1x4x3x3xf32>, tensor<4x3x3x2xf32>, tensor<6xf32>) -> tensor<1x6x7x4xf32>
  return %0 : tensor<1x6x7x4xf32>
}

//--- fold.mlir

// All-constant ConvTranspose folds through the reference evaluator: each
// input element spread by the 2-wide kernel [1, 10] at stride 2.
// FOLD-LABEL: func.func @fold
// FOLD-NEXT: onnx.Constant dense<{{.*}}1.000000e+00, 1.000000e+01, 2.000000e+00, 2.000000e+01{{.*}}> : tensor<1x1x4xf32>
// FOLD-NEXT: return
func.func @fold() -> tensor<1x1x4xf32> {
  %x = onnx.Constant dense<[[[1.0, 2.0]]]> : tensor<1x1x2xf32>
  %w = onnx.Constant dense<[[[1.0, 10.0]]]> : tensor<1x1x2xf32>
  %0 = "onnx.ConvTranspose"(%x, %w) {strides = [2]} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x4xf32>
  return %0 : tensor<1x1x4xf32>
}

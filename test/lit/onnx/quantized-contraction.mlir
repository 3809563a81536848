// MatMulInteger, QLinearMatMul, ConvInteger and QLinearConv: zero points
// per tensor, per row of A (1-D and [..., M, 1]), per column of B and per
// output channel of a weight; the QLinear ops' rescaling rounds half to even
// and saturates. The expected values are numpy's integer arithmetic. On
// Vulkan (onnx-expand-quantization) the operands are shifted and multiplied
// in f32, exact at these sizes, and give the same values.

// RUN: split-file %s %t
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-run %t/matmul.mlir --backend=ref --input=2x3xi8=1,-2,3,4,5,-6 --input=2x2x3xui8=10,20,30,40,50,60,200,100,0,255,255,255 | FileCheck %s --check-prefix=MATMUL
// RUN: onyx-run %t/matmul.mlir --validate --input=2x3xi8=1,-2,3,4,5,-6 --input=2x2x3xui8=10,20,30,40,50,60,200,100,0,255,255,255 | FileCheck %s --check-prefix=MATMUL
// RUN: onyx-run %t/conv.mlir --backend=ref --input=1x2x3x3xui8=0,7,14,21,28,35,42,49,56,63,70,77,84,91,98,105,112,119 | FileCheck %s --check-prefix=CONV
// RUN: onyx-run %t/conv.mlir --validate --input=1x2x3x3xui8=0,7,14,21,28,35,42,49,56,63,70,77,84,91,98,105,112,119 | FileCheck %s --check-prefix=CONV
// RUN: onyx-opt %t/matmul.mlir --onnx-expand-quantization | FileCheck %s --check-prefix=EXPAND

// MatMulInteger with i8 zero points [1, -1] per row and [2, -3] per column;
// then ui8 with a zero point of shape [2, 2, 1] (per row of each batch) and
// one for B: sums up to 31369, wider than the operands.
// MATMUL:      output 0: tensor<2x2xi32> = [-47, -9, 132, -22]
// MATMUL-NEXT: output 1: tensor<2x2x2xi32> = [40, 4950, 40, 9890, -400, -24800, 0, 31369]
// QLinearMatMul with scales 1 and 2 per row, 0.5, 0.25 and 1 per column,
// y_scale 1 and y_zero_point -1: the products 2.5 -> 2 and -0.5 -> 0 (half
// to even), 300 and 600 saturate to 127.
// MATMUL-NEXT: output 2: tensor<2x3xi8> = [1, -1, 16, 127, 99, 127]

// ConvInteger with x_zero_point 5 (padding is the zero point), zero points
// 2 and 4 per output channel, pads 1 and strides 2; QLinearConv of the same
// with bias [100, -3000], x_scale 0.5, w_scale 0.25 and 0.125 per channel,
// y_scale 2, y_zero_point 10: 129.5 -> 130 (half to even), negatives
// saturate to 0.
// CONV:      output 0: tensor<1x2x2x2xi32> = [338, 777, 990, 1972, -83, -147, -72, -211]
// CONV-NEXT: output 1: tensor<1x2x2x2xui8> = [37, 65, 78, 140, 0, 0, 0, 0]

// The expansion: shifted f32 operands, a MatMul, a Cast to i32.
// EXPAND-LABEL: func.func @main
// EXPAND-NOT:   onnx.MatMulInteger
// EXPAND:       "onnx.Sub"
// EXPAND:       "onnx.MatMul"
// EXPAND:       "onnx.Cast"({{.*}}) {to = i32}
// EXPAND-NOT:   onnx.QLinearMatMul
// EXPAND:       "onnx.Round"
// EXPAND:       "onnx.Clip"

//--- matmul.mlir
func.func @main(%a: tensor<2x3xi8>, %a2: tensor<2x2x3xui8>) -> (tensor<2x2xi32>, tensor<2x2x2xi32>, tensor<2x3xi8>) {
  %b = onnx.Constant dense<[[7, -8], [9, 10], [-11, 12]]> : tensor<3x2xi8>
  %azp = onnx.Constant dense<[1, -1]> : tensor<2xi8>
  %bzp = onnx.Constant dense<[2, -3]> : tensor<2xi8>
  %y = "onnx.MatMulInteger"(%a, %b, %azp, %bzp) : (tensor<2x3xi8>, tensor<3x2xi8>, tensor<2xi8>, tensor<2xi8>) -> tensor<2x2xi32>
  %b2 = onnx.Constant dense<[[1, 2], [3, 4], [5, 250]]> : tensor<3x2xui8>
  %a2zp = onnx.Constant dense<[[[10], [20]], [[100], [128]]]> : tensor<2x2x1xui8>
  %b2zp = onnx.Constant dense<3> : tensor<ui8>
  %y2 = "onnx.MatMulInteger"(%a2, %b2, %a2zp, %b2zp) : (tensor<2x2x3xui8>, tensor<3x2xui8>, tensor<2x2x1xui8>, tensor<ui8>) -> tensor<2x2x2xi32>
  %qa = onnx.Constant dense<[[4, 6, -6, 10], [100, 100, 100, 100]]> : tensor<2x4xi8>
  %qas = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %qazp = onnx.Constant dense<[1, 0]> : tensor<2xi8>
  %qb = onnx.Constant dense<[[1, 0, 1], [0, 1, 1], [1, 1, 0], [1, 0, 1]]> : tensor<4x3xi8>
  %qbs = onnx.Constant dense<[0.5, 0.25, 1.0]> : tensor<3xf32>
  %qbzp = onnx.Constant dense<0> : tensor<3xi8>
  %ys = onnx.Constant dense<1.0> : tensor<f32>
  %yzp = onnx.Constant dense<-1> : tensor<i8>
  %q = "onnx.QLinearMatMul"(%qa, %qas, %qazp, %qb, %qbs, %qbzp, %ys, %yzp) : (tensor<2x4xi8>, tensor<2xf32>, tensor<2xi8>, tensor<4x3xi8>, tensor<3xf32>, tensor<3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  return %y, %y2, %q : tensor<2x2xi32>, tensor<2x2x2xi32>, tensor<2x3xi8>
}

//--- conv.mlir
func.func @main(%x: tensor<1x2x3x3xui8>) -> (tensor<1x2x2x2xi32>, tensor<1x2x2x2xui8>) {
  %w = onnx.Constant dense<[[[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[9, 9], [9, 9]], [[0, 1], [2, 3]]]]> : tensor<2x2x2x2xui8>
  %xzp = onnx.Constant dense<5> : tensor<ui8>
  %wzp = onnx.Constant dense<[2, 4]> : tensor<2xui8>
  %y = "onnx.ConvInteger"(%x, %w, %xzp, %wzp) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x2x3x3xui8>, tensor<2x2x2x2xui8>, tensor<ui8>, tensor<2xui8>) -> tensor<1x2x2x2xi32>
  %xs = onnx.Constant dense<0.5> : tensor<f32>
  %ws = onnx.Constant dense<[0.25, 0.125]> : tensor<2xf32>
  %ys = onnx.Constant dense<2.0> : tensor<f32>
  %yzp = onnx.Constant dense<10> : tensor<ui8>
  %bias = onnx.Constant dense<[100, -3000]> : tensor<2xi32>
  %q = "onnx.QLinearConv"(%x, %xs, %xzp, %w, %ws, %wzp, %ys, %yzp, %bias) {pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<2x2x2x2xui8>, tensor<2xf32>, tensor<2xui8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<1x2x2x2xui8>
  return %y, %q : tensor<1x2x2x2xi32>, tensor<1x2x2x2xui8>
}

//--- invalid.mlir
func.func @float_operand(%a: tensor<2x3xf32>, %b: tensor<3x2xi8>) -> tensor<2x2xi32> {
  // expected-error @+1 {{'onnx.MatMulInteger' op operand 'A' must have element type ui8 or i8, got f32}}
  %0 = "onnx.MatMulInteger"(%a, %b) : (tensor<2x3xf32>, tensor<3x2xi8>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @zero_point_type(%a: tensor<2x3xi8>, %b: tensor<3x2xi8>, %zp: tensor<ui8>) -> tensor<2x2xi32> {
  // expected-error @+1 {{'onnx.MatMulInteger' op operand 'a_zero_point' must have the element type of 'A' (i8), got ui8}}
  %0 = "onnx.MatMulInteger"(%a, %b, %zp) : (tensor<2x3xi8>, tensor<3x2xi8>, tensor<ui8>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @zero_point_rows(%a: tensor<2x3xi8>, %b: tensor<3x2xi8>, %zp: tensor<3xi8>) -> tensor<2x2xi32> {
  // expected-error @+1 {{'onnx.MatMulInteger' op operand 'a_zero_point' must be one value, or one per row of 'A' (tensor<2x3xi8>) as a 1-D tensor or of its rank with [..., M, 1], got tensor<3xi8>}}
  %0 = "onnx.MatMulInteger"(%a, %b, %zp) : (tensor<2x3xi8>, tensor<3x2xi8>, tensor<3xi8>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @scale_shape(%a: tensor<2x4xi8>, %s: tensor<2xf32>, %zp: tensor<i8>, %b: tensor<4x3xi8>, %ys: tensor<f32>) -> tensor<2x3xi8> {
  // expected-error @+1 {{'onnx.QLinearMatMul' op operand 'a_scale' must have the shape of 'a_zero_point' (tensor<i8>), got tensor<2xf32>}}
  %0 = "onnx.QLinearMatMul"(%a, %s, %zp, %b, %ys, %zp, %ys, %zp) : (tensor<2x4xi8>, tensor<2xf32>, tensor<i8>, tensor<4x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// -----

func.func @conv_x_zero_point(%x: tensor<1x2x3x3xui8>, %w: tensor<2x2x2x2xui8>, %zp: tensor<2xui8>) -> tensor<1x2x2x2xi32> {
  // expected-error @+1 {{'onnx.ConvInteger' op operand 'x_zero_point' must be one value (per tensor), got tensor<2xui8>}}
  %0 = "onnx.ConvInteger"(%x, %w, %zp) : (tensor<1x2x3x3xui8>, tensor<2x2x2x2xui8>, tensor<2xui8>) -> tensor<1x2x2x2xi32>
  return %0 : tensor<1x2x2x2xi32>
}

// -----

func.func @conv_w_zero_point(%x: tensor<1x2x3x3xui8>, %w: tensor<2x2x2x2xui8>, %xzp: tensor<ui8>, %zp: tensor<3xui8>) -> tensor<1x2x2x2xi32> {
  // expected-error @+1 {{'onnx.ConvInteger' op operand 'w_zero_point' must be one value or one per output channel (2), got tensor<3xui8>}}
  %0 = "onnx.ConvInteger"(%x, %w, %xzp, %zp) : (tensor<1x2x3x3xui8>, tensor<2x2x2x2xui8>, tensor<ui8>, tensor<3xui8>) -> tensor<1x2x2x2xi32>
  return %0 : tensor<1x2x2x2xi32>
}

// -----

func.func @qlinearconv_bias(%x: tensor<1x2x3x3xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<2x2x2x2xui8>, %b: tensor<2xf32>) -> tensor<1x2x2x2xui8> {
  // expected-error @+1 {{'onnx.QLinearConv' op operand 'B' must be an i32 tensor of one value per output channel (2), got tensor<2xf32>}}
  %0 = "onnx.QLinearConv"(%x, %s, %zp, %w, %s, %zp, %s, %zp, %b) : (tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<2x2x2x2xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>, tensor<2xf32>) -> tensor<1x2x2x2xui8>
  return %0 : tensor<1x2x2x2xui8>
}

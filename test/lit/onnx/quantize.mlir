// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear: per tensor,
// per axis and per block; rounding half to even and saturation to the
// integer type's range. On Vulkan (onnx-expand-quantization) they are f32
// elementwise ops and give the same values, a scale per block repeated over
// its block's indices first (a Gather along the axis).

// RUN: split-file %s %t
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-run %t/quantize.mlir --backend=ref --input=2x3xf32=0,1,2.5,-3.5,300,-300 | FileCheck %s --check-prefix=QUANTIZE
// RUN: onyx-run %t/dequantize.mlir --backend=ref --input=2x4xi8=0,1,2,-128,127,4,5,6 | FileCheck %s --check-prefix=DEQUANTIZE
// RUN: onyx-run %t/dynamic.mlir --backend=ref --input=4xf32=-1,0,1,2 | FileCheck %s --check-prefix=DYNAMIC
// RUN: onyx-run %t/quantize.mlir --validate --input=2x3xf32=0,1,2.5,-3.5,300,-300 | FileCheck %s --check-prefix=QUANTIZE
// RUN: onyx-run %t/quantize.mlir --backend=ref --input=2x3xf32=nan,1,-nan,-3.5,inf,-inf | FileCheck %s --check-prefix=NAN
// RUN: onyx-run %t/dequantize-axis.mlir --backend=ref --input=2x4xi8=0,1,2,-128,127,4,5,6 | FileCheck %s --check-prefix=AXIS
// RUN: onyx-run %t/dequantize-axis.mlir --validate --input=2x4xi8=0,1,2,-128,127,4,5,6 | FileCheck %s --check-prefix=AXIS
// RUN: onyx-run %t/dynamic.mlir --validate --input=4xf32=-1,0,1,2 | FileCheck %s --check-prefix=DYNAMIC
// RUN: onyx-run %t/dequantize.mlir --validate --input=2x4xi8=0,1,2,-128,127,4,5,6 | FileCheck %s --check-prefix=DEQUANTIZE
// RUN: onyx-run %t/blocked.mlir --backend=ref --input=2x5xf32=0,1,2.5,-3.5,300,-300,7,8,9,10 \
// RUN:   --expected-output=2x5xi8=0,1,11,8,65,-128,15,10,11,8 --expected-output=2x5xf32=0,1,2,-4,300,-64.5,7,8,9,10 | FileCheck %s --check-prefix=BLOCKED
// RUN: onyx-run %t/blocked.mlir --validate --input=2x5xf32=0,1,2.5,-3.5,300,-300,7,8,9,10 \
// RUN:   --expected-output=2x5xi8=0,1,11,8,65,-128,15,10,11,8 --expected-output=2x5xf32=0,1,2,-4,300,-64.5,7,8,9,10 | FileCheck %s --check-prefix=BLOCKED
// RUN: onyx-opt %t/blocked.mlir --lower --target=lavapipe | FileCheck %s --check-prefix=GATHER
// RUN: not onyx-opt %t/blocked-dynamic.mlir --lower 2>&1 | FileCheck %s --check-prefix=VULKAN

// Per tensor, scale 2, zero point 128 (ui8): 0 -> 128, 0.5 -> 128 (half to
// even), 1.25 -> 129, -1.75 -> 126, 150 -> 255, -150 -> 0. Per axis 0 of
// i8 with scales 1 and 2 and no zero point: 2.5 -> 2 (half to even),
// -1.75 -> -2, and 150 and -150 saturate.
// NaN, which no integer holds, gives the type's minimum (an undefined
// float-to-integer conversion in C++ before: found by fuzz-differential);
// infinities saturate.
// NAN:      output 0: tensor<2x3xui8> = [0, 128, 0, 126, 255, 0]
// NAN-NEXT: output 1: tensor<2x3xi8> = [-128, 1, -128, -2, 127, -128]
// QUANTIZE:      output 0: tensor<2x3xui8> = [128, 128, 129, 126, 255, 0]
// QUANTIZE-NEXT: output 1: tensor<2x3xi8> = [0, 1, 2, -2, 127, -128]

// Per axis 1 (scales 1, 2, 0.5, 1; zero points 0, 1, 2, 3) and per block of
// 2 along axis 1 (scales 1 and 10).
// DEQUANTIZE:      output 0: tensor<2x4xf32> = [0, 0, 0, -131, 127, 6, 1.5, 3]
// DEQUANTIZE-NEXT: output 1: tensor<2x4xf32> = [0, 1, 20, -1280, 127, 4, 50, 60]

// Range [-1, 2]: scale 3/255, zero point round(85) = 85.
// DYNAMIC:      output 0: tensor<4xui8> = [0, 85, 170, 255]
// DYNAMIC-NEXT: output 1: tensor<f32> = [0.011764706]
// DYNAMIC-NEXT: output 2: tensor<ui8> = [85]

// AXIS: output 0: tensor<2x4xf32> = [0, 0, 0, -131, 127, 6, 1.5, 3]

// Per block of 2 along axis 1 of 5 (the last block has one index): scales
// [1, 2, 4] and [0.5, 1, 2], zero points [0, 10, -10] and [1, 2, 3] (i8).
// Row 0: 0 and 1 stay; 2.5 / 2 = 1.25 -> 1 and -3.5 / 2 = -1.75 -> -2, plus
// 10; 300 / 4 = 75, minus 10. Row 1: -300 / 0.5 + 1 saturates to -128;
// 7 / 0.5 + 1 = 15; 8 and 9 plus 2; 10 / 2 + 3 = 8. Dequantized again,
// (q - zero point) * scale: 2.5 -> 2 and -3.5 -> -4 by the rounding, -300 -> -64.5.
// (Expected: q = [0, 1, 11, 8, 65, -128, 15, 10, 11, 8] and
// [0, 1, 2, -4, 300, -64.5, 7, 8, 9, 10] dequantized.)
// BLOCKED: output 0: max abs error 0, max rel error 0: PASS
// BLOCKED: output 1: max abs error 0, max rel error 0: PASS

// The blocks' scales and zero points become one value per index by a
// Gather of the block numbers along the axis, then the elementwise ops.
// GATHER: gpu.weight {{.*}} = dense<[0, 0, 1, 1, 2]> : tensor<5xi64>
// GATHER: gpu.dispatch @gather{{.*}} : !gpu.view<2x3xf32>, !gpu.view<5xi64>, !gpu.view<2x5xf32>
// GATHER: gpu.dispatch @gather{{.*}} : !gpu.view<2x3xi8>, !gpu.view<5xi64>, !gpu.view<2x5xi8>
// GATHER: gpu.dispatch @fused

// VULKAN: error: 'onnx.DequantizeLinear' op quantizes per block along axis 1, whose size is known only at run time; on the GPU the blocks' scales are repeated over a size known when compiling (bind the model's symbolic dimensions)

//--- quantize.mlir
func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<2x3xi8>) {
  %s = onnx.Constant dense<2.0> : tensor<f32>
  %zp = onnx.Constant dense<128> : tensor<ui8>
  %q = "onnx.QuantizeLinear"(%x, %s, %zp) : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  %sa = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %none = "onnx.NoValue"() {value} : () -> none
  %qa = "onnx.QuantizeLinear"(%x, %sa) {axis = 0 : si64, output_dtype = 3 : si64} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xi8>
  return %q, %qa : tensor<2x3xui8>, tensor<2x3xi8>
}

//--- dequantize.mlir
func.func @main(%x: tensor<2x4xi8>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %s = onnx.Constant dense<[1.0, 2.0, 0.5, 1.0]> : tensor<4xf32>
  %zp = onnx.Constant dense<[0, 1, 2, 3]> : tensor<4xi8>
  %d = "onnx.DequantizeLinear"(%x, %s, %zp) : (tensor<2x4xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<2x4xf32>
  %sb = onnx.Constant dense<[[1.0, 10.0], [1.0, 10.0]]> : tensor<2x2xf32>
  %db = "onnx.DequantizeLinear"(%x, %sb) {block_size = 2 : si64} : (tensor<2x4xi8>, tensor<2x2xf32>) -> tensor<2x4xf32>
  return %d, %db : tensor<2x4xf32>, tensor<2x4xf32>
}

//--- blocked.mlir
func.func @main(%x: tensor<2x5xf32>) -> (tensor<2x5xi8>, tensor<2x5xf32>) {
  %s = onnx.Constant dense<[[1.0, 2.0, 4.0], [0.5, 1.0, 2.0]]> : tensor<2x3xf32>
  %zp = onnx.Constant dense<[[0, 10, -10], [1, 2, 3]]> : tensor<2x3xi8>
  %q = "onnx.QuantizeLinear"(%x, %s, %zp) {axis = 1 : si64, block_size = 2 : si64} : (tensor<2x5xf32>, tensor<2x3xf32>, tensor<2x3xi8>) -> tensor<2x5xi8>
  %d = "onnx.DequantizeLinear"(%q, %s, %zp) {axis = 1 : si64, block_size = 2 : si64} : (tensor<2x5xi8>, tensor<2x3xf32>, tensor<2x3xi8>) -> tensor<2x5xf32>
  return %q, %d : tensor<2x5xi8>, tensor<2x5xf32>
}

//--- blocked-dynamic.mlir
func.func @main(%x: tensor<2x?xi8>, %s: tensor<2x2xf32>) -> tensor<2x?xf32> {
  %d = "onnx.DequantizeLinear"(%x, %s) {block_size = 2 : si64} : (tensor<2x?xi8>, tensor<2x2xf32>) -> tensor<2x?xf32>
  return %d : tensor<2x?xf32>
}

//--- dequantize-axis.mlir
func.func @main(%x: tensor<2x4xi8>) -> tensor<2x4xf32> {
  %s = onnx.Constant dense<[1.0, 2.0, 0.5, 1.0]> : tensor<4xf32>
  %zp = onnx.Constant dense<[0, 1, 2, 3]> : tensor<4xi8>
  %d = "onnx.DequantizeLinear"(%x, %s, %zp) : (tensor<2x4xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<2x4xf32>
  return %d : tensor<2x4xf32>
}

//--- dynamic.mlir
func.func @main(%x: tensor<4xf32>) -> (tensor<4xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %zp = "onnx.DynamicQuantizeLinear"(%x) : (tensor<4xf32>) -> (tensor<4xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %zp : tensor<4xui8>, tensor<f32>, tensor<ui8>
}

//--- invalid.mlir
func.func @per_axis_size(%x: tensor<2x3xi8>, %s: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op operand 'x_scale' must be one value or one per index of axis 1 of tensor<2x3xi8>, got tensor<2xf32>}}
  %0 = "onnx.DequantizeLinear"(%x, %s) : (tensor<2x3xi8>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @zero_point_type(%x: tensor<3xi8>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op operand 'x_zero_point' must have x's element type i8, got ui8}}
  %0 = "onnx.DequantizeLinear"(%x, %s, %zp) : (tensor<3xi8>, tensor<f32>, tensor<ui8>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @float_input(%x: tensor<3xf32>, %s: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op operand 'x' must have element type ui8, i8, ui16, i16 or i32, got f32}}
  %0 = "onnx.DequantizeLinear"(%x, %s) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @blocks(%x: tensor<2x4xf32>, %s: tensor<2x3xf32>) -> tensor<2x4xui8> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op operand 'y_scale' must have one value per block of 2 along axis 1 of tensor<2x4xf32>, got tensor<2x3xf32>}}
  %0 = "onnx.QuantizeLinear"(%x, %s) {block_size = 2 : si64} : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

// Blocks run along an axis: a scalar has none (fuzz-differential found the
// reference evaluator reading x's dims past their end).
func.func @blocks_of_scalar(%x: tensor<f32>, %s: tensor<f32>) -> tensor<ui8> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op attribute 'block_size' needs an operand 'x' of rank 1 or more, got tensor<f32>}}
  %0 = "onnx.QuantizeLinear"(%x, %s) {block_size = 2 : si64} : (tensor<f32>, tensor<f32>) -> tensor<ui8>
  return %0 : tensor<ui8>
}

// -----

func.func @blocks_of_scalar_dequantize(%x: tensor<i8>, %s: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.DequantizeLinear' op attribute 'block_size' needs an operand 'x' of rank 1 or more, got tensor<i8>}}
  %0 = "onnx.DequantizeLinear"(%x, %s) {block_size = 1 : si64} : (tensor<i8>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @output_dtype(%x: tensor<3xf32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<3xi8> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op attribute 'output_dtype' names i8, but the zero point has element type ui8}}
  %0 = "onnx.QuantizeLinear"(%x, %s, %zp) {output_dtype = 3 : si64} : (tensor<3xf32>, tensor<f32>, tensor<ui8>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// -----

func.func @dynamic_type(%x: tensor<3xf16>) -> (tensor<3xui8>, tensor<f32>, tensor<ui8>) {
  // expected-error @+1 {{'onnx.DynamicQuantizeLinear' op operand 'x' must have element type f32, got f16}}
  %y, %s, %zp = "onnx.DynamicQuantizeLinear"(%x) : (tensor<3xf16>) -> (tensor<3xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %zp : tensor<3xui8>, tensor<f32>, tensor<ui8>
}

// GatherElements and ScatterElements: indices of data's rank pick one
// element each along `axis`. Constants fold; the Vulkan kernels agree with
// the reference backend, including repeated indices, which the updates
// meet in order (the last wins without a reduction, all combine with one).

// RUN: split-file %s %t
// RUN: onyx-opt %t/fold.mlir --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-opt %t/run.mlir --target=lavapipe --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=GLSL
// RUN: onyx-run %t/run.mlir --validate --check \
// RUN:   --input=3x4xf32=1,2,3,4,5,6,7,8,9,10,11,12 \
// RUN:   --input=2x4xi64=2,-1,0,1,0,0,-3,2 \
// RUN:   --input=2x4xf32=10,20,30,40,50,60,70,80 \
// RUN:   --input=3x2xi32=3,0,1,1,0,-4 | FileCheck %s --check-prefix=VK
// RUN: not onyx-run %t/run.mlir --backend=ref \
// RUN:   --input=3x4xf32=1 --input=2x4xi64=3,0,0,0,0,0,0,0 \
// RUN:   --input=2x4xf32=1 --input=3x2xi32=0 2>&1 | FileCheck %s --check-prefix=RANGE

//--- fold.mlir
// FOLD-LABEL: func.func @fold
// FOLD-NEXT: onnx.Constant dense<{{\[\[}}1, 1], [4, 3]]> : tensor<2x2xi32>
// FOLD-NEXT: onnx.Constant dense<{{\[\[}}3.000000e+00, 2.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<2x2xf32>
// FOLD-NEXT: onnx.Constant dense<{{\[\[}}2.000000e+01, 2.000000e+00], [3.000000e+00, 3.000000e+01]]> : tensor<2x2xf32>
// FOLD-NEXT: return
func.func @fold() -> (tensor<2x2xi32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %d = onnx.Constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %i = onnx.Constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %0 = "onnx.GatherElements"(%d, %i) {axis = 1 : si64} : (tensor<2x2xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  %x = onnx.Constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  // Both updates of a row go to the same element and add up.
  %j = onnx.Constant dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>
  %one = onnx.Constant dense<[[1.0, 1.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %1 = "onnx.ScatterElements"(%x, %j, %one) {axis = 1 : si64, reduction = "add"} : (tensor<2x2xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %k = onnx.Constant dense<[[0, 1]]> : tensor<1x2xi64>
  %v = onnx.Constant dense<[[20.0, 30.0]]> : tensor<1x2xf32>
  %2 = "onnx.ScatterElements"(%x, %k, %v) {axis = 0 : si64, reduction = "max"} : (tensor<2x2xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<2x2xi32>, tensor<2x2xf32>, tensor<2x2xf32>
}

//--- invalid.mlir
func.func @rank(%x: tensor<2x3xf32>, %i: tensor<6xi64>) -> tensor<6xf32> {
  // expected-error @+1 {{operand 'indices' of type tensor<6xi64> must have the rank of tensor<2x3xf32>}}
  %0 = "onnx.GatherElements"(%x, %i) : (tensor<2x3xf32>, tensor<6xi64>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @larger(%x: tensor<2x3xf32>, %i: tensor<3x3xi64>) -> tensor<3x3xf32> {
  // expected-error @+1 {{operand 'indices' of type tensor<3x3xi64> is larger than tensor<2x3xf32> in dimension 0}}
  %0 = "onnx.GatherElements"(%x, %i) {axis = 1 : si64} : (tensor<2x3xf32>, tensor<3x3xi64>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @axis(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{axis}}
  %0 = "onnx.GatherElements"(%x, %i) {axis = 2 : si64} : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @float_indices(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{operand 'indices' must have element type i32 or i64, got f32}}
  %0 = "onnx.GatherElements"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @updates(%x: tensor<2x3xf32>, %i: tensor<1x3xi64>, %u: tensor<1x2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{operand 'updates' of type tensor<1x2xf32> must have the shape of tensor<1x3xi64>}}
  %0 = "onnx.ScatterElements"(%x, %i, %u) : (tensor<2x3xf32>, tensor<1x3xi64>, tensor<1x2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reduction(%x: tensor<2x3xf32>, %i: tensor<1x3xi64>, %u: tensor<1x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{reduction}}
  %0 = "onnx.ScatterElements"(%x, %i, %u) {reduction = "sub"} : (tensor<2x3xf32>, tensor<1x3xi64>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//--- run.mlir
// GLSL: gpu.kernel @gather_elements(read, read, write)
// GLSL: gpu.kernel @scatter_elements(read_write, read, read)
// GLSL-SAME: for (uint j = 0u; j < 2u; ++j)
// GLSL: gpu.kernel @scatter_elements_add(read_write, read, read)
// GLSL-SAME: (a + b)
// VK-COUNT-9: vs ref: max abs error 0, max rel error 0: PASS
// VK-NOT: FAIL
// RANGE: run.mlir:12:8: error: 'onnx.GatherElements' op index 3 is out of range for a dimension of size 3
func.func @main(%x: tensor<3x4xf32>, %i: tensor<2x4xi64>, %u: tensor<2x4xf32>, %j: tensor<3x2xi32>)
    -> (tensor<2x4xf32>, tensor<3x2xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>,
        tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf16>, tensor<3x4xi1>) {
  %0 = "onnx.GatherElements"(%x, %i) : (tensor<3x4xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
  %1 = "onnx.GatherElements"(%x, %j) {axis = -1 : si64} : (tensor<3x4xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  // Column 1 of %i has indices -1 (2) and 0: distinct; column 0 has 2 and
  // 0; along axis 1, %j repeats row 1's index 1.
  %2 = "onnx.ScatterElements"(%x, %i, %u) : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %ju = "onnx.Cast"(%j) {to = f32} : (tensor<3x2xi32>) -> tensor<3x2xf32>
  %3 = "onnx.ScatterElements"(%x, %j, %ju) {axis = 1 : si64} : (tensor<3x4xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x4xf32>
  %4 = "onnx.ScatterElements"(%x, %j, %ju) {axis = 1 : si64, reduction = "add"} : (tensor<3x4xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x4xf32>
  %5 = "onnx.ScatterElements"(%x, %j, %ju) {axis = 1 : si64, reduction = "mul"} : (tensor<3x4xf32>, tensor<3x2xi32>, tensor<3x2xf32>) -> tensor<3x4xf32>
  %6 = "onnx.ScatterElements"(%x, %i, %u) {axis = 0 : si64, reduction = "max"} : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %xh = "onnx.Cast"(%x) {to = f16} : (tensor<3x4xf32>) -> tensor<3x4xf16>
  %uh = "onnx.Cast"(%u) {to = f16} : (tensor<2x4xf32>) -> tensor<2x4xf16>
  %7 = "onnx.ScatterElements"(%xh, %i, %uh) {reduction = "min"} : (tensor<3x4xf16>, tensor<2x4xi64>, tensor<2x4xf16>) -> tensor<3x4xf16>
  %xb = "onnx.Greater"(%x, %x) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
  %ub = "onnx.Greater"(%u, %u) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  %ubn = "onnx.Not"(%ub) : (tensor<2x4xi1>) -> tensor<2x4xi1>
  %8 = "onnx.ScatterElements"(%xb, %i, %ubn) : (tensor<3x4xi1>, tensor<2x4xi64>, tensor<2x4xi1>) -> tensor<3x4xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x4xf32>, tensor<3x2xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf16>, tensor<3x4xi1>
}

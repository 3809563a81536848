// CumSum (exclusive, reverse, the axis an operand that may be known only at
// run time) and OneHot (negative indices, out-of-range ones, the new axis
// anywhere, depth known only at run time giving `?`): shape inference,
// located errors, and the reference backend and the Vulkan kernels against
// worked-out results.

// RUN: split-file %s %t
// RUN: onyx-opt %t/infer.mlir | FileCheck %s --check-prefix=INFER
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-run %t/run.mlir --backend=ref --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --input=4xi64=0,-1,5,2 \
// RUN:   --expected-output=2x3xf32=1,2,3,5,7,9 \
// RUN:   --expected-output=2x3xf32=5,3,0,11,6,0 \
// RUN:   --expected-output=4x4xi32=9,0,0,0,0,0,0,9,0,0,0,0,0,0,9,0 \
// RUN:   --expected-output=4x4xi32=9,0,0,0,0,0,0,0,0,0,0,9,0,9,0,0 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: onyx-run %t/run.mlir --validate --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --input=4xi64=0,-1,5,2 \
// RUN:   --expected-output=2x3xf32=1,2,3,5,7,9 \
// RUN:   --expected-output=2x3xf32=5,3,0,11,6,0 \
// RUN:   --expected-output=4x4xi32=9,0,0,0,0,0,0,9,0,0,0,0,0,0,9,0 \
// RUN:   --expected-output=4x4xi32=9,0,0,0,0,0,0,0,0,0,0,9,0,9,0,0 \
// RUN:   | FileCheck %s --check-prefix=EXEC

// EXEC-COUNT-4: output {{[0-9]}}: max abs error 0, max rel error 0: PASS

//--- infer.mlir

// INFER-LABEL: func.func @dynamic_depth
// INFER: "onnx.OneHot"{{.*}} -> tensor<3x?xf32>
func.func @dynamic_depth(%i: tensor<3xi64>, %d: tensor<i64>, %v: tensor<2xf32>) -> tensor<3x?xf32> {
  %0 = "onnx.OneHot"(%i, %d, %v) : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// INFER-LABEL: func.func @runtime_axis
// INFER: "onnx.CumSum"{{.*}} -> tensor<2x3xf32>
func.func @runtime_axis(%x: tensor<2x3xf32>, %a: tensor<i32>) -> tensor<2x3xf32> {
  %0 = "onnx.CumSum"(%x, %a) : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//--- invalid.mlir

func.func @cumsum_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = onnx.Constant dense<2> : tensor<i64>
  // expected-error @+1 {{'onnx.CumSum' op axis 2 is out of range for rank 2}}
  %0 = "onnx.CumSum"(%x, %a) : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @cumsum_axis_shape(%x: tensor<2x3xf32>, %a: tensor<2xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.CumSum' op operand 'axis' must be a scalar (or one element), got tensor<2xi64>}}
  %0 = "onnx.CumSum"(%x, %a) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @onehot_values(%i: tensor<3xi64>, %v: tensor<3xf32>) -> tensor<3x4xf32> {
  %d = onnx.Constant dense<4> : tensor<i64>
  // expected-error @+1 {{'onnx.OneHot' op operand 'values' must have 2 elements (off and on values), got 3}}
  %0 = "onnx.OneHot"(%i, %d, %v) : (tensor<3xi64>, tensor<i64>, tensor<3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @onehot_depth(%i: tensor<3xi64>, %v: tensor<2xf32>) -> tensor<3x4xf32> {
  %d = onnx.Constant dense<0> : tensor<i64>
  // expected-error @+1 {{'onnx.OneHot' op operand 'depth' must be positive, got 0}}
  %0 = "onnx.OneHot"(%i, %d, %v) : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @onehot_axis(%i: tensor<3xi64>, %v: tensor<2xf32>) -> tensor<3x4xf32> {
  %d = onnx.Constant dense<4> : tensor<i64>
  // expected-error @+1 {{'onnx.OneHot' op axis 2 is out of range for rank 2}}
  %0 = "onnx.OneHot"(%i, %d, %v) {axis = 2 : si64} : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

//--- run.mlir

// CumSum along rows, then exclusive and reversed along columns; OneHot of
// [0, -1, 5, 2] with depth 4 (5 is out of range: all off) on the last axis
// and on the first.
func.func @main(%x: tensor<2x3xf32>, %i: tensor<4xi64>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x4xi32>, tensor<4x4xi32>) {
  %a0 = onnx.Constant dense<0> : tensor<i64>
  %a1 = onnx.Constant dense<-1> : tensor<i32>
  %0 = "onnx.CumSum"(%x, %a0) : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  %1 = "onnx.CumSum"(%x, %a1) {exclusive = 1 : si64, reverse = 1 : si64} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  %d = onnx.Constant dense<4.0> : tensor<f32>
  %v = onnx.Constant dense<[0, 9]> : tensor<2xi32>
  %2 = "onnx.OneHot"(%i, %d, %v) : (tensor<4xi64>, tensor<f32>, tensor<2xi32>) -> tensor<4x4xi32>
  %3 = "onnx.OneHot"(%i, %d, %v) {axis = 0 : si64} : (tensor<4xi64>, tensor<f32>, tensor<2xi32>) -> tensor<4x4xi32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x4xi32>, tensor<4x4xi32>
}

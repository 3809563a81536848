// Canonicalization of the ops that move or reinterpret data: no-op removal,
// chains collapsing into one op, Reshape as the one form of Flatten, and
// shape computations folding to constants.
// RUN: onyx-opt %s --split-input-file --canonicalize | FileCheck %s

// Ops that change nothing about their operand disappear.
// CHECK-LABEL: func.func @no_ops
// CHECK-NEXT: return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0
func.func @no_ops(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %shape = onnx.Constant dense<[2, 3]> : tensor<2xi64>
  %starts = onnx.Constant dense<[0, 0]> : tensor<2xi64>
  %ends = onnx.Constant dense<[100, 3]> : tensor<2xi64>
  %0 = "onnx.Cast"(%x) {to = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Reshape"(%x, %shape) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %2 = "onnx.Transpose"(%x) {perm = [0, 1]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "onnx.Expand"(%x, %shape) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %4 = "onnx.Slice"(%x, %starts, %ends) : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x3xf32>
  %5:2 = "onnx.Dropout"(%x) : (tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  return %0, %1, %2, %3, %4, %5#0 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Ops that do change something stay: a real cast, a reversing Slice, an
// Expand that broadcasts.
// CHECK-LABEL: func.func @not_no_ops
// CHECK: "onnx.Cast"
// CHECK: "onnx.Slice"
// CHECK: "onnx.Expand"
func.func @not_no_ops(%x: tensor<3xf32>) -> (tensor<3xf16>, tensor<3xf32>, tensor<2x3xf32>) {
  %start = onnx.Constant dense<-1> : tensor<1xi64>
  %end = onnx.Constant dense<-100> : tensor<1xi64>
  %step = onnx.Constant dense<-1> : tensor<1xi64>
  %none = "onnx.NoValue"() {value} : () -> none
  %shape = onnx.Constant dense<[2, 3]> : tensor<2xi64>
  %0 = "onnx.Cast"(%x) {to = f16} : (tensor<3xf32>) -> tensor<3xf16>
  %1 = "onnx.Slice"(%x, %start, %end, %none, %step) : (tensor<3xf32>, tensor<1xi64>, tensor<1xi64>, none, tensor<1xi64>) -> tensor<3xf32>
  %2 = "onnx.Expand"(%x, %shape) : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<3xf16>, tensor<3xf32>, tensor<2x3xf32>
}

// -----

// A Dropout whose mask is used gets an all-true constant mask.
// CHECK-LABEL: func.func @dropout_mask
// CHECK-NEXT: %[[M:.+]] = onnx.Constant dense<true> : tensor<2xi1>
// CHECK-NEXT: return %arg0, %[[M]]
func.func @dropout_mask(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi1>) {
  %0:2 = "onnx.Dropout"(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi1>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xi1>
}

// -----

// Transpose of Transpose is one Transpose of the composed permutation...
// CHECK-LABEL: func.func @transpose_transpose
// CHECK-NEXT: %[[T:.+]] = "onnx.Transpose"(%arg0) {perm = [2, 0, 1]}
// CHECK-NEXT: return %[[T]]
func.func @transpose_transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = "onnx.Transpose"(%x) {perm = [1, 2, 0]} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = "onnx.Transpose"(%0) {perm = [1, 2, 0]} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// ... or nothing when they cancel (without perm, a Transpose reverses).
// CHECK-LABEL: func.func @transpose_cancel
// CHECK-NEXT: return %arg0
func.func @transpose_cancel(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = "onnx.Transpose"(%x) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %1 = "onnx.Transpose"(%0) : (tensor<4x3x2xf32>) -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

// Reshape of Reshape is one Reshape to the final shape.
// CHECK-LABEL: func.func @reshape_reshape
// CHECK-NEXT: %[[S:.+]] = onnx.Constant dense<[4, 6]> : tensor<2xi64>
// CHECK-NEXT: %[[R:.+]] = "onnx.Reshape"(%arg0, %[[S]])
// CHECK-NEXT: return %[[R]]
func.func @reshape_reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %s1 = onnx.Constant dense<[6, 4]> : tensor<2xi64>
  %s2 = onnx.Constant dense<[4, -1]> : tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s1) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %1 = "onnx.Reshape"(%0, %s2) : (tensor<6x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// A Reshape of a Reshape whose first result has another use keeps the
// first; the second reads the original input.
// CHECK-LABEL: func.func @reshape_reshape_shared
// CHECK-DAG: %[[A:.+]] = "onnx.Reshape"(%arg0, %{{.+}}) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>
// CHECK-DAG: %[[B:.+]] = "onnx.Reshape"(%arg0, %{{.+}}) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
// CHECK: return %[[A]], %[[B]]
func.func @reshape_reshape_shared(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<3x2xf32>) {
  %s1 = onnx.Constant dense<[6]> : tensor<1xi64>
  %s2 = onnx.Constant dense<[3, 2]> : tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s1) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>
  %1 = "onnx.Reshape"(%0, %s2) : (tensor<6xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %0, %1 : tensor<6xf32>, tensor<3x2xf32>
}

// -----

// Squeeze of Unsqueeze of the same axes is the input.
// CHECK-LABEL: func.func @squeeze_unsqueeze
// CHECK-NEXT: return %arg0
func.func @squeeze_unsqueeze(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %axes = onnx.Constant dense<[0, 2]> : tensor<2xi64>
  %0 = "onnx.Unsqueeze"(%x, %axes) : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<1x3x1x4xf32>
  %1 = "onnx.Squeeze"(%0, %axes) : (tensor<1x3x1x4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

// Squeeze of Unsqueeze of other axes is one Reshape.
// CHECK-LABEL: func.func @squeeze_unsqueeze_other_axes
// CHECK-NEXT: %[[S:.+]] = onnx.Constant dense<[3, 4, 1]> : tensor<3xi64>
// CHECK-NEXT: %[[R:.+]] = "onnx.Reshape"(%arg0, %[[S]])
// CHECK-NEXT: return %[[R]]
func.func @squeeze_unsqueeze_other_axes(%x: tensor<1x3x4xf32>) -> tensor<3x4x1xf32> {
  %a1 = onnx.Constant dense<[3]> : tensor<1xi64>
  %a0 = onnx.Constant dense<[0]> : tensor<1xi64>
  %0 = "onnx.Unsqueeze"(%x, %a1) : (tensor<1x3x4xf32>, tensor<1xi64>) -> tensor<1x3x4x1xf32>
  %1 = "onnx.Squeeze"(%0, %a0) : (tensor<1x3x4x1xf32>, tensor<1xi64>) -> tensor<3x4x1xf32>
  return %1 : tensor<3x4x1xf32>
}

// -----

// Flatten is written as the Reshape it is.
// CHECK-LABEL: func.func @flatten
// CHECK-NEXT: %[[S:.+]] = onnx.Constant dense<[2, 12]> : tensor<2xi64>
// CHECK-NEXT: %[[R:.+]] = "onnx.Reshape"(%arg0, %[[S]]) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
// CHECK-NEXT: return %[[R]]
func.func @flatten(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %0 = "onnx.Flatten"(%x) : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  return %0 : tensor<2x12xf32>
}

// -----

// With a dynamic dimension, -1 stands for it.
// CHECK-LABEL: func.func @flatten_dynamic
// CHECK-NEXT: %[[S:.+]] = onnx.Constant dense<[-1, 12]> : tensor<2xi64>
// CHECK-NEXT: "onnx.Reshape"(%arg0, %[[S]]) : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x12xf32>
func.func @flatten_dynamic(%x: tensor<?x3x4xf32>) -> tensor<?x12xf32> {
  %0 = "onnx.Flatten"(%x) : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  return %0 : tensor<?x12xf32>
}

// -----

// Two dynamic dimensions cannot be written as one Reshape: Flatten stays.
// CHECK-LABEL: func.func @flatten_two_dynamic
// CHECK: "onnx.Flatten"
func.func @flatten_two_dynamic(%x: tensor<?x3x?xf32>) -> tensor<?x?xf32> {
  %0 = "onnx.Flatten"(%x) : (tensor<?x3x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A shape computation on a statically shaped tensor folds completely, even
// though the tensor itself is not constant; the Reshape then has a constant
// shape.
// CHECK-LABEL: func.func @shape_chain
// CHECK-NEXT: %[[S:.+]] = onnx.Constant dense<[2, -1]> : tensor<2xi64>
// CHECK-NEXT: %[[R:.+]] = "onnx.Reshape"(%arg0, %[[S]])
// CHECK-NEXT: return %[[R]]
func.func @shape_chain(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %shape = "onnx.Shape"(%x) : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %zero = onnx.Constant dense<0> : tensor<i64>
  %axes = onnx.Constant dense<0> : tensor<1xi64>
  %minus = onnx.Constant dense<-1> : tensor<1xi64>
  %batch = "onnx.Gather"(%shape, %zero) {axis = 0 : si64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %batch1 = "onnx.Unsqueeze"(%batch, %axes) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %new = "onnx.Concat"(%batch1, %minus) {axis = 0 : si64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %new) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  return %0 : tensor<2x12xf32>
}

// -----

// Shape of a tensor with a dynamic dimension does not fold, but picking a
// static dimension out of it does.
// CHECK-LABEL: func.func @shape_partly_dynamic
// CHECK-DAG: %[[D:.+]] = onnx.Constant dense<3> : tensor<1xi64>
// CHECK-DAG: %[[S:.+]] = "onnx.Shape"(%arg0)
// CHECK: return %[[S]], %[[D]]
func.func @shape_partly_dynamic(%x: tensor<?x3xf32>) -> (tensor<2xi64>, tensor<1xi64>) {
  %shape = "onnx.Shape"(%x) : (tensor<?x3xf32>) -> tensor<2xi64>
  %one = onnx.Constant dense<[1]> : tensor<1xi64>
  %dim = "onnx.Gather"(%shape, %one) : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  return %shape, %dim : tensor<2xi64>, tensor<1xi64>
}

// -----

// Size of a static tensor is a constant.
// CHECK-LABEL: func.func @size
// CHECK-NEXT: %[[C:.+]] = onnx.Constant dense<24> : tensor<i64>
// CHECK-NEXT: return %[[C]]
func.func @size(%x: tensor<2x3x4xf32>) -> tensor<i64> {
  %0 = "onnx.Size"(%x) : (tensor<2x3x4xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// Folding: every onnx op whose operands are all constants is evaluated by
// the reference evaluator and replaced by a constant, within a size limit.
// RUN: onyx-opt %s --split-input-file --canonicalize | FileCheck %s

// Elementwise ops, with broadcasting; integers wrap, Cast truncates toward
// zero, comparisons give i1.
// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT: onnx.Constant dense<[2, 3, -2147483648]> : tensor<3xi32>
// CHECK-NEXT: onnx.Constant dense<[2.000000e+00, 1.41421354]> : tensor<2xf32>
// CHECK-NEXT: onnx.Constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-NEXT: onnx.Constant dense<[-2, 3]> : tensor<2xi64>
// CHECK-NEXT: onnx.Constant dense<{{\[\[}}4.000000e+00, 2.000000e+00], [-2.500000e+00, 3.900000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: return
func.func @elementwise() -> (tensor<3xi32>, tensor<2xf32>, tensor<3xi1>, tensor<2xi64>, tensor<2x2xf32>) {
  %a = onnx.Constant dense<[1, 2, 2147483647]> : tensor<3xi32>
  %b = onnx.Constant dense<1> : tensor<i32>
  %0 = "onnx.Add"(%a, %b) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
  %x = onnx.Constant dense<[4.0, 2.0]> : tensor<2xf32>
  %1 = "onnx.Sqrt"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "onnx.Greater"(%a, %b) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi1>
  %y = onnx.Constant dense<[-2.5, 3.9]> : tensor<2xf32>
  %3 = "onnx.Cast"(%y) {to = i64} : (tensor<2xf32>) -> tensor<2xi64>
  %c = onnx.Constant dense<[[true], [false]]> : tensor<2x1xi1>
  %4 = "onnx.Where"(%c, %x, %y) : (tensor<2x1xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2, %3, %4 : tensor<3xi32>, tensor<2xf32>, tensor<3xi1>, tensor<2xi64>, tensor<2x2xf32>
}

// -----

// MatMul, Conv, pooling and Softmax.
// CHECK-LABEL: func.func @linear
// CHECK-NEXT: onnx.Constant dense<{{\[\[}}7.000000e+00, 1.000000e+01], [1.500000e+01, 2.200000e+01]]> : tensor<2x2xf32>
// CHECK-NEXT: onnx.Constant dense<-1.000000e+00> : tensor<1x1x2xf32>
// CHECK-NEXT: onnx.Constant dense<{{\[\[\[}}1.500000e+00, 3.500000e+00]]]> : tensor<1x1x2xf32>
// CHECK-NEXT: onnx.Constant dense<[0.333333343, 0.666666686]> : tensor<2xf32>
// CHECK-NEXT: return
func.func @linear() -> (tensor<2x2xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>, tensor<2xf32>) {
  %a = onnx.Constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = "onnx.MatMul"(%a, %a) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %x = onnx.Constant dense<[[[1.0, 2.0, 3.0, 4.0]]]> : tensor<1x1x4xf32>
  %w = onnx.Constant dense<[[[1.0, -1.0]]]> : tensor<1x1x2xf32>
  %1 = "onnx.Conv"(%x, %w) {strides = [2]} : (tensor<1x1x4xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  %2 = "onnx.AveragePool"(%x) {kernel_shape = [2], strides = [2]} : (tensor<1x1x4xf32>) -> tensor<1x1x2xf32>
  %l = onnx.Constant dense<[0.0, 0.693147182]> : tensor<2xf32>
  %3 = "onnx.Softmax"(%l) : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>, tensor<2xf32>
}

// -----

// Reductions, data movement and the ops that make tensors.
// CHECK-LABEL: func.func @data
// CHECK-NEXT: onnx.Constant dense<[6, 15]> : tensor<2xi64>
// CHECK-NEXT: onnx.Constant dense<{{\[\[}}1, 4], [2, 5], [3, 6]]> : tensor<3x2xi64>
// CHECK-NEXT: onnx.Constant dense<[30, 10]> : tensor<2xi64>
// CHECK-NEXT: onnx.Constant dense<[20, 30]> : tensor<2xi64>
// CHECK-NEXT: onnx.Constant dense<[0, 2, 4, 6]> : tensor<4xi64>
// CHECK-NEXT: onnx.Constant dense<1.500000e+00> : tensor<2x3xf16>
// CHECK-NEXT: onnx.Constant dense<[20, 30, 30, 10]> : tensor<4xi64>
// CHECK-NEXT: return
func.func @data() -> (tensor<2xi64>, tensor<3x2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<4xi64>, tensor<2x3xf16>, tensor<4xi64>) {
  %a = onnx.Constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %axes = onnx.Constant dense<1> : tensor<1xi64>
  %0 = "onnx.ReduceSum"(%a, %axes) {keepdims = 0 : si64} : (tensor<2x3xi64>, tensor<1xi64>) -> tensor<2xi64>
  %1 = "onnx.Transpose"(%a) : (tensor<2x3xi64>) -> tensor<3x2xi64>
  %idx = onnx.Constant dense<[2, -3]> : tensor<2xi64>
  %v = onnx.Constant dense<[10, 20, 30]> : tensor<3xi64>
  %2 = "onnx.Gather"(%v, %idx) : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  %s0 = onnx.Constant dense<1> : tensor<1xi64>
  %s1 = onnx.Constant dense<3> : tensor<1xi64>
  %3 = "onnx.Slice"(%v, %s0, %s1) : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r0 = onnx.Constant dense<0> : tensor<i64>
  %r1 = onnx.Constant dense<8> : tensor<i64>
  %r2 = onnx.Constant dense<2> : tensor<i64>
  %4 = "onnx.Range"(%r0, %r1, %r2) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
  %shape = onnx.Constant dense<[2, 3]> : tensor<2xi64>
  %5 = "onnx.ConstantOfShape"(%shape) {value = dense<1.5> : tensor<1xf16>} : (tensor<2xi64>) -> tensor<2x3xf16>
  %6 = "onnx.Concat"(%3, %2) {axis = 0 : si64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2xi64>, tensor<3x2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<4xi64>, tensor<2x3xf16>, tensor<4xi64>
}

// -----

// What does not fold: a result of over 2^20 elements larger than its
// inputs (the Neg of an equally large constant folds), an op with a
// non-constant operand, and an evaluation that fails (an index out of range
// is left for run time, without an error now).
// CHECK-LABEL: func.func @limits
// CHECK-DAG: %[[NEG:.+]] = onnx.Constant dense<-2.000000e+00> : tensor<2048x1024xf32>
// CHECK-DAG: %[[EXP:.+]] = "onnx.Expand"
// CHECK-DAG: %[[ADD:.+]] = "onnx.Add"(%arg0
// CHECK-DAG: %[[GAT:.+]] = "onnx.Gather"
// CHECK: return %[[EXP]], %[[NEG]], %[[ADD]], %[[GAT]]
func.func @limits(%x: tensor<2xf32>) -> (tensor<2048x1024xf32>, tensor<2048x1024xf32>, tensor<2xf32>, tensor<2xi64>) {
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %shape = onnx.Constant dense<[2048, 1024]> : tensor<2xi64>
  %0 = "onnx.Expand"(%one, %shape) : (tensor<f32>, tensor<2xi64>) -> tensor<2048x1024xf32>
  %big = onnx.Constant dense<2.0> : tensor<2048x1024xf32>
  %1 = "onnx.Neg"(%big) : (tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %c = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %2 = "onnx.Add"(%x, %c) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %v = onnx.Constant dense<[10, 20]> : tensor<2xi64>
  %bad = onnx.Constant dense<[0, 5]> : tensor<2xi64>
  %3 = "onnx.Gather"(%v, %bad) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0, %1, %2, %3 : tensor<2048x1024xf32>, tensor<2048x1024xf32>, tensor<2xf32>, tensor<2xi64>
}

// Shape operands known only at run time: the IR has `?` where they decide a
// size, verification accepts that and still rejects what is wrong for every
// value, and canonicalization folds what is known.
// RUN: onyx-opt %s --split-input-file --canonicalize --cse | FileCheck %s

// Results with `?` where the shape operand decides the size verify, and
// stay as they are. An Expand to a shape of the input's rank cannot change
// dimensions other than 1: it is a no-op whatever the values.
// CHECK-LABEL: func.func @runtime_shapes
// CHECK: "onnx.Reshape"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
// CHECK-NOT: "onnx.Expand"
// CHECK: "onnx.Tile"(%arg0, %arg2) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK: "onnx.ConstantOfShape"(%arg1) : (tensor<3xi64>) -> tensor<?x?x?xf32>
// CHECK: return %{{.+}}, %arg0,
func.func @runtime_shapes(%x: tensor<2x3xf32>, %s3: tensor<3xi64>, %s2: tensor<2xi64>) -> (tensor<?x?x?xf32>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<?x?x?xf32>) {
  %0 = "onnx.Reshape"(%x, %s3) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %1 = "onnx.Expand"(%x, %s2) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %2 = "onnx.Tile"(%x, %s2) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %3 = "onnx.ConstantOfShape"(%s3) : (tensor<3xi64>) -> tensor<?x?x?xf32>
  return %0, %1, %2, %3 : tensor<?x?x?xf32>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<?x?x?xf32>
}

// -----

// Gather of a static dimension of Shape(x) folds even though x has a `?`
// dimension; the dynamic one stays for the run. CSE merges the Shapes.
// CHECK-LABEL: func.func @partial_shape
// CHECK-DAG: %[[C4:.+]] = onnx.Constant dense<4> : tensor<i64>
// CHECK-DAG: %[[S:.+]] = "onnx.Shape"(%arg0) : (tensor<?x4xf32>) -> tensor<2xi64>
// CHECK-NOT: "onnx.Shape"
// CHECK: %[[D:.+]] = "onnx.Gather"(%[[S]], %{{.+}}) : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
// CHECK: return %[[C4]], %[[D]]
func.func @partial_shape(%x: tensor<?x4xf32>) -> (tensor<i64>, tensor<i64>) {
  %s = "onnx.Shape"(%x) : (tensor<?x4xf32>) -> tensor<2xi64>
  %t = "onnx.Shape"(%x) : (tensor<?x4xf32>) -> tensor<2xi64>
  %zero = onnx.Constant dense<0> : tensor<i64>
  %one = onnx.Constant dense<1> : tensor<i64>
  %0 = "onnx.Gather"(%s, %one) : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %1 = "onnx.Gather"(%t, %zero) : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  return %0, %1 : tensor<i64>, tensor<i64>
}

// -----

// A slice of the static part of a shape folds; Shape(x)[1:] of ?x4x8 is
// [4, 8], and the Reshape it feeds keeps its `?` only where the run
// decides.
// CHECK-LABEL: func.func @shape_slice
// CHECK-NEXT: %[[C:.+]] = onnx.Constant dense<[4, 8]> : tensor<2xi64>
// CHECK-NEXT: return %[[C]]
func.func @shape_slice(%x: tensor<?x4x8xf32>) -> tensor<2xi64> {
  %s = "onnx.Shape"(%x) : (tensor<?x4x8xf32>) -> tensor<3xi64>
  %start = onnx.Constant dense<1> : tensor<1xi64>
  %end = onnx.Constant dense<3> : tensor<1xi64>
  %0 = "onnx.Slice"(%s, %start, %end) : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// A Dropout whose training_mode is known only at run time stays, for the
// evaluator to check.
// CHECK-LABEL: func.func @dropout_runtime_mode
// CHECK: "onnx.Dropout"
func.func @dropout_runtime_mode(%x: tensor<2xf32>, %mode: tensor<i1>) -> tensor<2xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  %0:2 = "onnx.Dropout"(%x, %none, %mode) : (tensor<2xf32>, none, tensor<i1>) -> (tensor<2xf32>, tensor<2xi1>)
  return %0#0 : tensor<2xf32>
}

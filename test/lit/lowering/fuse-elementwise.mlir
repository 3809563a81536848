// RUN: onyx-opt %s --split-input-file --target=lavapipe --onnx-fuse-elementwise | FileCheck %s

// A chain with a broadcast operand becomes one group; the splat constant is
// cloned into the body, the bias is bound.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK: %[[R:.+]] = "onnx.FusedElementwise"(%[[X]], %[[B]]) ({
// CHECK-NEXT: ^bb0(%[[A0:.+]]: tensor<4x8xf32>, %[[A1:.+]]: tensor<8xf32>):
// CHECK-NEXT: %[[C:.+]] = onnx.Constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[ADD:.+]] = "onnx.Add"(%[[A0]], %[[A1]])
// CHECK-NEXT: %[[MUL:.+]] = "onnx.Mul"(%[[ADD]], %[[C]])
// CHECK-NEXT: %[[RELU:.+]] = "onnx.Relu"(%[[MUL]])
// CHECK-NEXT: "onnx.Yield"(%[[RELU]]) : (tensor<4x8xf32>) -> ()
// CHECK-NEXT: }) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %c = onnx.Constant dense<2.0> : tensor<f32>
  %0 = "onnx.Add"(%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "onnx.Mul"(%0, %c) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %2 = "onnx.Relu"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A value used outside the tree is computed once by its own op: the Exp
// feeds both the Add and the result, so only Add and Neg fuse.
// CHECK-LABEL: func.func @shared
// CHECK: %[[E:.+]] = "onnx.Exp"
// CHECK: "onnx.FusedElementwise"(%[[E]], %{{.+}})
// CHECK: "onnx.Add"
// CHECK: "onnx.Neg"
// CHECK: "onnx.Yield"
// CHECK: return
func.func @shared(%x: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = "onnx.Exp"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = "onnx.Add"(%0, %y) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %2 = "onnx.Neg"(%1) : (tensor<16xf32>) -> tensor<16xf32>
  return %2, %0 : tensor<16xf32>, tensor<16xf32>
}

// -----

// A lone elementwise op stays as it is; a non-elementwise op ends a tree.
// CHECK-LABEL: func.func @alone
// CHECK-NOT: onnx.FusedElementwise
// CHECK: "onnx.Relu"
// CHECK: "onnx.MatMul"
// CHECK: "onnx.Sigmoid"
func.func @alone(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = "onnx.Relu"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "onnx.MatMul"(%0, %0) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = "onnx.Sigmoid"(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// -----

// A tree (not only a chain): both operands of the Mul are fused; Where,
// Cast and Expand join too.
// CHECK-LABEL: func.func @tree
// CHECK: "onnx.FusedElementwise"(%{{.+}}, %{{.+}}, %{{.+}}) ({
// CHECK-DAG: "onnx.Cast"
// CHECK-DAG: "onnx.Expand"
// CHECK-DAG: "onnx.Where"
// CHECK-DAG: "onnx.Sqrt"
// CHECK-DAG: "onnx.Abs"
// CHECK: "onnx.Mul"
// CHECK-NEXT: "onnx.Yield"
func.func @tree(%x: tensor<2x3xf32>, %m: tensor<3xi1>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %s = onnx.Constant dense<[2, 3]> : tensor<2xi64>
  %0 = "onnx.Sqrt"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Expand"(%m, %s) : (tensor<3xi1>, tensor<2xi64>) -> tensor<2x3xi1>
  %2 = "onnx.Cast"(%i) {to = f32} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %3 = "onnx.Abs"(%2) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "onnx.Where"(%1, %0, %3) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = "onnx.Mul"(%4, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %5 : tensor<2x3xf32>
}


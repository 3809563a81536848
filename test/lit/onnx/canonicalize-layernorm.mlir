// The decomposed LayerNorm PyTorch exports before opset 17,
//   d = x - mean(x); n = d / sqrt(mean(d^2) + eps); y = n * gamma + beta,
// with the means over the trailing axes, becomes one onnx.LayerNormalization
// rooted on its last op (the Add, the Mul without beta, the Div without
// either). Everything else about it must hold exactly, or it stays as it is.
// RUN: onyx-opt %s --split-input-file --canonicalize | FileCheck %s

// The repository's transformer block (PyTorch's opset-13 export, LayerNorm
// decomposed) without bound dims: the sequence stays `?` and the shape
// operands are run-time Shape chains, yet both LayerNorms form.
// RUN: onyx-opt %S/../../models/transformer_block.onnx --canonicalize \
// RUN:   | FileCheck %s --check-prefix=BLOCK --implicit-check-not=onnx.ReduceMean --implicit-check-not=onnx.Sqrt
// BLOCK-COUNT-2: "onnx.LayerNormalization"{{.*}}tensor<1x?x16xf32>
// BLOCK-NOT: "onnx.LayerNormalization"

// As torch.onnx writes it at opset 13: epsilon 1e-5 is the default.
// CHECK-LABEL: func.func @layernorm
// CHECK-DAG: %[[G:.+]] = onnx.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-DAG: %[[B:.+]] = onnx.Constant dense<5.000000e-01>
// CHECK-NOT: onnx.Constant
// CHECK: %[[Y:.+]] = "onnx.LayerNormalization"(%arg0, %[[G]], %[[B]]) : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @layernorm(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %gamma = onnx.Constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %beta = onnx.Constant dense<0.5> : tensor<4xf32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %m = "onnx.Mul"(%n, %gamma) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %y = "onnx.Add"(%m, %beta) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// Commutative operands in the other order, a positive axis, and another
// epsilon; the Add of eps may take it on either side.
// CHECK-LABEL: func.func @layernorm_swapped
// CHECK-DAG: %[[G:.+]] = onnx.Constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[B:.+]] = onnx.Constant dense<1.000000e+00> : tensor<4xf32>
// CHECK: %[[Y:.+]] = "onnx.LayerNormalization"(%arg0, %[[G]], %[[B]]) {epsilon = 1.000000e-03 : f32}
// CHECK-NEXT: return %[[Y]]
func.func @layernorm_swapped(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %axes = onnx.Constant dense<1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-3> : tensor<f32>
  %gamma = onnx.Constant dense<2.0> : tensor<4xf32>
  %beta = onnx.Constant dense<1.0> : tensor<4xf32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %ve = "onnx.Add"(%eps, %var) : (tensor<f32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %m = "onnx.Mul"(%gamma, %n) : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = "onnx.Add"(%beta, %m) : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

// Without beta the Mul is the root, and B is left out.
// CHECK-LABEL: func.func @layernorm_no_bias
// CHECK: %[[Y:.+]] = "onnx.LayerNormalization"(%arg0, %{{.+}}) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @layernorm_no_bias(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %gamma = onnx.Constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %m = "onnx.Mul"(%n, %gamma) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %m : tensor<2x4xf32>
}

// -----

// Without gamma the scale is a splat of ones of the normalized shape: n * 1
// is n exactly.
// CHECK-LABEL: func.func @layernorm_no_scale
// CHECK-DAG: %[[ONE:.+]] = onnx.Constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[B:.+]] = onnx.Constant dense<5.000000e-01> : tensor<4xf32>
// CHECK: %[[Y:.+]] = "onnx.LayerNormalization"(%arg0, %[[ONE]], %[[B]])
// CHECK-NEXT: return %[[Y]]
func.func @layernorm_no_scale(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %beta = onnx.Constant dense<0.5> : tensor<4xf32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %y = "onnx.Add"(%beta, %n) : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// Without either the Div is the root. Its other users keep the result.
// CHECK-LABEL: func.func @layernorm_plain
// CHECK-DAG: %[[ONE:.+]] = onnx.Constant dense<1.000000e+00> : tensor<4xf32>
// CHECK: %[[Y:.+]] = "onnx.LayerNormalization"(%arg0, %[[ONE]]) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[R:.+]] = "onnx.Relu"(%[[Y]])
// CHECK-NEXT: return %[[Y]], %[[R]]
func.func @layernorm_plain(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %r = "onnx.Relu"(%n) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %n, %r : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// Two trailing axes, in any order, make axis -2. gamma's leading unit
// dimension goes (Scale has the normalized rank); beta broadcasts along the
// normalized dimensions, as LayerNormalization allows.
// CHECK-LABEL: func.func @layernorm_two_axes
// CHECK-DAG: %[[G:.+]] = onnx.Constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-DAG: %[[B:.+]] = onnx.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK: %[[Y:.+]] = "onnx.LayerNormalization"(%arg0, %[[G]], %[[B]]) {axis = -2 : si64} : (tensor<4x2x3xf32>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[Y]]
func.func @layernorm_two_axes(%x: tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
  %axes = onnx.Constant dense<[2, -2]> : tensor<2xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %gamma = onnx.Constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]> : tensor<1x2x3xf32>
  %beta = onnx.Constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<4x2x3xf32>, tensor<2xi64>) -> tensor<4x1x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<4x2x3xf32>, tensor<4x1x1xf32>) -> tensor<4x2x3xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<4x2x3xf32>, tensor<f32>) -> tensor<4x2x3xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<4x2x3xf32>, tensor<2xi64>) -> tensor<4x1x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<4x1x1xf32>, tensor<f32>) -> tensor<4x1x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<4x1x1xf32>) -> tensor<4x1x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<4x2x3xf32>, tensor<4x1x1xf32>) -> tensor<4x2x3xf32>
  %m = "onnx.Mul"(%n, %gamma) : (tensor<4x2x3xf32>, tensor<1x2x3xf32>) -> tensor<4x2x3xf32>
  %y = "onnx.Add"(%m, %beta) : (tensor<4x2x3xf32>, tensor<3xf32>) -> tensor<4x2x3xf32>
  return %y : tensor<4x2x3xf32>
}

// -----

// Absent axes reduce every dimension: axis 0, here -2.
// CHECK-LABEL: func.func @layernorm_all_axes
// CHECK: "onnx.LayerNormalization"(%arg0, %{{.+}}) {axis = -2 : si64}
func.func @layernorm_all_axes(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %mean = "onnx.ReduceMean"(%x) : (tensor<2x4xf32>) -> tensor<1x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %var = "onnx.ReduceMean"(%p) : (tensor<2x4xf32>) -> tensor<1x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<1x1xf32>, tensor<f32>) -> tensor<1x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xf32>
  return %n : tensor<2x4xf32>
}

// -----

// Leading dimensions may be dynamic; the normalized ones must be known
// (Scale is a constant of their shape).
// CHECK-LABEL: func.func @layernorm_dynamic
// CHECK: "onnx.LayerNormalization"(%arg0, %{{.+}}) : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
// CHECK-NOT: "onnx.LayerNormalization"(%arg1
func.func @layernorm_dynamic(%x: tensor<?x4xf32>, %z: tensor<4x?xf32>) -> (tensor<?x4xf32>, tensor<4x?xf32>) {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %mean2 = "onnx.ReduceMean"(%z, %axes) : (tensor<4x?xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  %d2 = "onnx.Sub"(%z, %mean2) : (tensor<4x?xf32>, tensor<4x1xf32>) -> tensor<4x?xf32>
  %p2 = "onnx.Pow"(%d2, %two) : (tensor<4x?xf32>, tensor<f32>) -> tensor<4x?xf32>
  %var2 = "onnx.ReduceMean"(%p2, %axes) : (tensor<4x?xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  %ve2 = "onnx.Add"(%var2, %eps) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %s2 = "onnx.Sqrt"(%ve2) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %n2 = "onnx.Div"(%d2, %s2) : (tensor<4x?xf32>, tensor<4x1xf32>) -> tensor<4x?xf32>
  return %n, %n2 : tensor<?x4xf32>, tensor<4x?xf32>
}

// -----

// f16 and f64 compute their statistics in their own type, as the
// decomposed subgraph did: stash_type 10 and 11.
// CHECK-LABEL: func.func @layernorm_f16_f64
// CHECK: "onnx.LayerNormalization"(%arg0, %{{.+}}, %{{.+}}) {epsilon = 0.00100040436 : f32, stash_type = 10 : si64} : (tensor<2x8xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<2x8xf16>
// CHECK: "onnx.LayerNormalization"(%arg1, %{{.+}}) {epsilon = 5.000000e-01 : f32, stash_type = 11 : si64} : (tensor<2x8xf64>, tensor<8xf64>) -> tensor<2x8xf64>
func.func @layernorm_f16_f64(%x: tensor<2x8xf16>, %z: tensor<2x8xf64>) -> (tensor<2x8xf16>, tensor<2x8xf64>) {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f16>
  %eps = onnx.Constant dense<1.0e-3> : tensor<f16>
  %gamma = onnx.Constant dense<2.0> : tensor<8xf16>
  %beta = onnx.Constant dense<1.0> : tensor<8xf16>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x8xf16>, tensor<1xi64>) -> tensor<2x1xf16>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x8xf16>, tensor<2x1xf16>) -> tensor<2x8xf16>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x8xf16>, tensor<f16>) -> tensor<2x8xf16>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x8xf16>, tensor<1xi64>) -> tensor<2x1xf16>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xf16>, tensor<f16>) -> tensor<2x1xf16>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xf16>) -> tensor<2x1xf16>
  %n = "onnx.Div"(%d, %s) : (tensor<2x8xf16>, tensor<2x1xf16>) -> tensor<2x8xf16>
  %m = "onnx.Mul"(%n, %gamma) : (tensor<2x8xf16>, tensor<8xf16>) -> tensor<2x8xf16>
  %y = "onnx.Add"(%m, %beta) : (tensor<2x8xf16>, tensor<8xf16>) -> tensor<2x8xf16>
  %two64 = onnx.Constant dense<2.0> : tensor<f64>
  %eps64 = onnx.Constant dense<0.5> : tensor<f64>
  %mean64 = "onnx.ReduceMean"(%z, %axes) : (tensor<2x8xf64>, tensor<1xi64>) -> tensor<2x1xf64>
  %d64 = "onnx.Sub"(%z, %mean64) : (tensor<2x8xf64>, tensor<2x1xf64>) -> tensor<2x8xf64>
  %p64 = "onnx.Pow"(%d64, %two64) : (tensor<2x8xf64>, tensor<f64>) -> tensor<2x8xf64>
  %var64 = "onnx.ReduceMean"(%p64, %axes) : (tensor<2x8xf64>, tensor<1xi64>) -> tensor<2x1xf64>
  %ve64 = "onnx.Add"(%var64, %eps64) : (tensor<2x1xf64>, tensor<f64>) -> tensor<2x1xf64>
  %s64 = "onnx.Sqrt"(%ve64) : (tensor<2x1xf64>) -> tensor<2x1xf64>
  %n64 = "onnx.Div"(%d64, %s64) : (tensor<2x8xf64>, tensor<2x1xf64>) -> tensor<2x8xf64>
  return %y, %n64 : tensor<2x8xf16>, tensor<2x8xf64>
}

// -----

// Near misses stay as they are. Axes not trailing (the mean over the
// first dimension of a 4x8 tensor):
// CHECK-LABEL: func.func @not_trailing
// CHECK-NOT: onnx.LayerNormalization
func.func @not_trailing(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %axes = onnx.Constant dense<0> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<4x8xf32>, tensor<1xi64>) -> tensor<1x8xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<4x8xf32>, tensor<1xi64>) -> tensor<1x8xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<1x8xf32>, tensor<f32>) -> tensor<1x8xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// -----

// Axes that skip a dimension (0 and 2 of three):
// CHECK-LABEL: func.func @axes_with_gap
// CHECK-NOT: onnx.LayerNormalization
func.func @axes_with_gap(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %axes = onnx.Constant dense<[0, 2]> : tensor<2xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<1x3x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x3x4xf32>, tensor<1x3x1xf32>) -> tensor<2x3x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<1x3x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<1x3x1xf32>, tensor<f32>) -> tensor<1x3x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x3x4xf32>, tensor<1x3x1xf32>) -> tensor<2x3x4xf32>
  return %n : tensor<2x3x4xf32>
}

// -----

// The two means over different axes:
// CHECK-LABEL: func.func @different_axes
// CHECK-NOT: onnx.LayerNormalization
func.func @different_axes(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %last = onnx.Constant dense<-1> : tensor<1xi64>
  %two_last = onnx.Constant dense<[-2, -1]> : tensor<2xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %mean = "onnx.ReduceMean"(%x, %last) : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x3x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x3x4xf32>, tensor<2x3x1xf32>) -> tensor<2x3x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %var = "onnx.ReduceMean"(%p, %two_last) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32>
  return %n : tensor<2x3x4xf32>
}

// -----

// Exponent 3:
// CHECK-LABEL: func.func @cube
// CHECK-NOT: onnx.LayerNormalization
func.func @cube(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %three = onnx.Constant dense<3.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %p = "onnx.Pow"(%d, %three) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %n : tensor<2x4xf32>
}

// -----

// The mean used elsewhere (it is a result too), and d used elsewhere:
// CHECK-LABEL: func.func @mean_used_elsewhere
// CHECK-NOT: onnx.LayerNormalization
func.func @mean_used_elsewhere(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x1xf32>) {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %n, %mean : tensor<2x4xf32>, tensor<2x1xf32>
}

// CHECK-LABEL: func.func @deviation_used_elsewhere
// CHECK-NOT: onnx.LayerNormalization
func.func @deviation_used_elsewhere(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %n, %d : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// keepdims = 0: the mean of each row broadcasts along the wrong axis.
// CHECK-LABEL: func.func @no_keepdims
// CHECK-NOT: onnx.LayerNormalization
func.func @no_keepdims(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %mean = "onnx.ReduceMean"(%x, %axes) {keepdims = 0 : si64} : (tensor<4x4xf32>, tensor<1xi64>) -> tensor<4xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) {keepdims = 0 : si64} : (tensor<4x4xf32>, tensor<1xi64>) -> tensor<4xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<4xf32>) -> tensor<4xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return %n : tensor<4x4xf32>
}

// -----

// eps not a constant:
// CHECK-LABEL: func.func @eps_not_constant
// CHECK-NOT: onnx.LayerNormalization
func.func @eps_not_constant(%x: tensor<2x4xf32>, %eps: tensor<f32>) -> tensor<2x4xf32> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %n : tensor<2x4xf32>
}

// -----

// An f64 epsilon that the f32 attribute cannot hold exactly (1e-5):
// CHECK-LABEL: func.func @eps_inexact_in_f32
// CHECK-NOT: onnx.LayerNormalization
func.func @eps_inexact_in_f32(%x: tensor<2x4xf64>) -> tensor<2x4xf64> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f64>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f64>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x4xf64>, tensor<1xi64>) -> tensor<2x1xf64>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xf64>, tensor<2x1xf64>) -> tensor<2x4xf64>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x4xf64>, tensor<f64>) -> tensor<2x4xf64>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x4xf64>, tensor<1xi64>) -> tensor<2x1xf64>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xf64>, tensor<f64>) -> tensor<2x1xf64>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xf64>) -> tensor<2x1xf64>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xf64>, tensor<2x1xf64>) -> tensor<2x4xf64>
  return %n : tensor<2x4xf64>
}

// -----

// gamma varying along a dimension that is not normalized: the Div alone
// becomes a LayerNormalization and the Mul stays.
// CHECK-LABEL: func.func @scale_not_normalized_shape
// CHECK: %[[N:.+]] = "onnx.LayerNormalization"(%arg0, %{{.+}}) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK: "onnx.Mul"(%[[N]], %{{.+}}) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
func.func @scale_not_normalized_shape(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %gamma = onnx.Constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %m = "onnx.Mul"(%n, %gamma) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %m : tensor<2x4xf32>
}

// -----

// bf16 is left alone: LayerNormalization is formed for f16, f32 and f64.
// CHECK-LABEL: func.func @bf16
// CHECK-NOT: onnx.LayerNormalization
func.func @bf16(%x: tensor<2x4xbf16>) -> tensor<2x4xbf16> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<bf16>
  %eps = onnx.Constant dense<0.5> : tensor<bf16>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<2x4xbf16>, tensor<1xi64>) -> tensor<2x1xbf16>
  %d = "onnx.Sub"(%x, %mean) : (tensor<2x4xbf16>, tensor<2x1xbf16>) -> tensor<2x4xbf16>
  %p = "onnx.Pow"(%d, %two) : (tensor<2x4xbf16>, tensor<bf16>) -> tensor<2x4xbf16>
  %var = "onnx.ReduceMean"(%p, %axes) : (tensor<2x4xbf16>, tensor<1xi64>) -> tensor<2x1xbf16>
  %ve = "onnx.Add"(%var, %eps) : (tensor<2x1xbf16>, tensor<bf16>) -> tensor<2x1xbf16>
  %s = "onnx.Sqrt"(%ve) : (tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %n = "onnx.Div"(%d, %s) : (tensor<2x4xbf16>, tensor<2x1xbf16>) -> tensor<2x4xbf16>
  return %n : tensor<2x4xbf16>
}

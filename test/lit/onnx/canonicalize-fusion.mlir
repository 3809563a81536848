// Patterns that merge several ops into one: BatchNormalization into the
// Conv before it, Transposes into Gemm's transA/transB, and the decomposed
// GELU subgraphs PyTorch exports into onnx.Gelu.
// RUN: onyx-opt %s --split-input-file --canonicalize | FileCheck %s

// y = (conv(x, W) + B - mean) * scale / sqrt(var + eps) + bias becomes one
// Conv with W' = W * s and B' = (B - mean) * s + bias, s = scale / sqrt(var
// + eps). Here s = [2, 0.5]: W' = [[2, 4]], [[0.5, 1]]; B' = [(1 - 1) * 2 +
// 3, (0 - 2) * 0.5 + 1].
// CHECK-LABEL: func.func @conv_batchnorm
// CHECK-DAG: %[[W:.+]] = onnx.Constant dense<{{\[\[\[}}2.000000e+00, 4.000000e+00]], {{\[\[}}5.000000e-01, 1.000000e+00]]]> : tensor<2x1x2xf32>
// CHECK-DAG: %[[B:.+]] = onnx.Constant dense<[3.000000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK: %[[C:.+]] = "onnx.Conv"(%arg0, %[[W]], %[[B]]) {pads = [1, 0]}
// CHECK-NEXT: return %[[C]]
func.func @conv_batchnorm(%x: tensor<1x1x5xf32>) -> tensor<1x2x5xf32> {
  %w = onnx.Constant dense<[[[1.0, 2.0]], [[1.0, 2.0]]]> : tensor<2x1x2xf32>
  %b = onnx.Constant dense<[1.0, 0.0]> : tensor<2xf32>
  %scale = onnx.Constant dense<[4.0, 1.0]> : tensor<2xf32>
  %bias = onnx.Constant dense<[3.0, 1.0]> : tensor<2xf32>
  %mean = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %var = onnx.Constant dense<[4.0, 4.0]> : tensor<2xf32>
  %0 = "onnx.Conv"(%x, %w, %b) {pads = [1, 0]} : (tensor<1x1x5xf32>, tensor<2x1x2xf32>, tensor<2xf32>) -> tensor<1x2x5xf32>
  %1 = "onnx.BatchNormalization"(%0, %scale, %bias, %mean, %var) {epsilon = 0.0 : f32} : (tensor<1x2x5xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x5xf32>
  return %1 : tensor<1x2x5xf32>
}

// -----

// Without a bias the Conv gets one.
// CHECK-LABEL: func.func @conv_batchnorm_no_bias
// CHECK: "onnx.Conv"(%arg0, %{{.+}}, %{{.+}}) : (tensor<1x1x4xf32>, tensor<1x1x1xf32>, tensor<1xf32>)
// CHECK-NOT: onnx.BatchNormalization
func.func @conv_batchnorm_no_bias(%x: tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  %w = onnx.Constant dense<2.0> : tensor<1x1x1xf32>
  %none = "onnx.NoValue"() {value} : () -> none
  %p = onnx.Constant dense<1.0> : tensor<1xf32>
  %0 = "onnx.Conv"(%x, %w, %none) : (tensor<1x1x4xf32>, tensor<1x1x1xf32>, none) -> tensor<1x1x4xf32>
  %1 = "onnx.BatchNormalization"(%0, %p, %p, %p, %p) : (tensor<1x1x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32>
  return %1 : tensor<1x1x4xf32>
}

// -----

// Weights that are not constant, or a Conv result used elsewhere, keep the
// BatchNormalization.
// CHECK-LABEL: func.func @conv_batchnorm_kept
// CHECK: "onnx.BatchNormalization"
// CHECK: "onnx.BatchNormalization"
func.func @conv_batchnorm_kept(%x: tensor<1x1x4xf32>, %w: tensor<1x1x1xf32>) -> (tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) {
  %cw = onnx.Constant dense<2.0> : tensor<1x1x1xf32>
  %p = onnx.Constant dense<1.0> : tensor<1xf32>
  %0 = "onnx.Conv"(%x, %w) : (tensor<1x1x4xf32>, tensor<1x1x1xf32>) -> tensor<1x1x4xf32>
  %1 = "onnx.BatchNormalization"(%0, %p, %p, %p, %p) : (tensor<1x1x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32>
  %2 = "onnx.Conv"(%x, %cw) : (tensor<1x1x4xf32>, tensor<1x1x1xf32>) -> tensor<1x1x4xf32>
  %3 = "onnx.BatchNormalization"(%2, %p, %p, %p, %p) : (tensor<1x1x4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32>
  return %1, %2, %3 : tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>
}

// -----

// A transposed operand of a 2-D MatMul makes it a Gemm reading the operand
// transposed.
// CHECK-LABEL: func.func @matmul_transpose
// CHECK-NEXT: %[[G:.+]] = "onnx.Gemm"(%arg0, %arg1) {transB = 1 : si64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %[[G]]
func.func @matmul_transpose(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %bt = "onnx.Transpose"(%b) {perm = [1, 0]} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %0 = "onnx.MatMul"(%a, %bt) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// A Transpose into a Gemm flips the operand's flag.
// CHECK-LABEL: func.func @gemm_transpose
// CHECK-NEXT: %[[G:.+]] = "onnx.Gemm"(%arg0, %arg1, %arg2) {alpha = 5.000000e-01 : f32, transA = 1 : si64, transB = 1 : si64} : (tensor<3x2xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %[[G]]
func.func @gemm_transpose(%a: tensor<3x2xf32>, %b: tensor<4x3xf32>, %c: tensor<4xf32>) -> tensor<2x4xf32> {
  %at = "onnx.Transpose"(%a) : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %0 = "onnx.Gemm"(%at, %b, %c) {alpha = 0.5 : f32, transB = 1 : si64} : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// MatMul without transposed operands, or of higher rank, stays.
// CHECK-LABEL: func.func @matmul_kept
// CHECK: "onnx.MatMul"
// CHECK: "onnx.MatMul"
func.func @matmul_kept(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<5x4x3xf32>) -> (tensor<2x4xf32>, tensor<5x3x3xf32>) {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %ct = "onnx.Transpose"(%c) {perm = [0, 2, 1]} : (tensor<5x4x3xf32>) -> tensor<5x3x4xf32>
  %1 = "onnx.MatMul"(%ct, %c) : (tensor<5x3x4xf32>, tensor<5x4x3xf32>) -> tensor<5x3x3xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<5x3x3xf32>
}

// -----

// GELU as torch.onnx exports it (erf form): x * (erf(x / sqrt 2) + 1) * 0.5.
// CHECK-LABEL: func.func @gelu_erf
// CHECK-NEXT: %[[G:.+]] = "onnx.Gelu"(%arg0) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: return %[[G]]
func.func @gelu_erf(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %sqrt2 = onnx.Constant dense<1.41421354> : tensor<f32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %half = onnx.Constant dense<0.5> : tensor<f32>
  %0 = "onnx.Div"(%x, %sqrt2) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %1 = "onnx.Erf"(%0) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = "onnx.Add"(%1, %one) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %3 = "onnx.Mul"(%x, %2) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = "onnx.Mul"(%3, %half) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %4 : tensor<2x8xf32>
}

// -----

// The same written by hand: x * 0.5 * (1 + erf(x * (1 / sqrt 2))).
// CHECK-LABEL: func.func @gelu_erf_reassociated
// CHECK-NEXT: %[[G:.+]] = "onnx.Gelu"(%arg0)
// CHECK-NEXT: return %[[G]]
func.func @gelu_erf_reassociated(%x: tensor<8xf32>) -> tensor<8xf32> {
  %rsqrt2 = onnx.Constant dense<0.707106769> : tensor<f32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %half = onnx.Constant dense<0.5> : tensor<f32>
  %0 = "onnx.Mul"(%x, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "onnx.Mul"(%x, %rsqrt2) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = "onnx.Erf"(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = "onnx.Add"(%one, %2) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "onnx.Mul"(%0, %3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}

// -----

// The tanh form: 0.5 * (x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))).
// CHECK-LABEL: func.func @gelu_tanh
// CHECK-NEXT: %[[G:.+]] = "onnx.Gelu"(%arg0) {approximate = "tanh"}
// CHECK-NEXT: return %[[G]]
func.func @gelu_tanh(%x: tensor<8xf32>) -> tensor<8xf32> {
  %beta = onnx.Constant dense<0.797884583> : tensor<f32>
  %kappa = onnx.Constant dense<0.044715> : tensor<f32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %half = onnx.Constant dense<0.5> : tensor<f32>
  %sq = "onnx.Mul"(%x, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %cube = "onnx.Mul"(%x, %sq) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %0 = "onnx.Mul"(%kappa, %cube) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = "onnx.Add"(%x, %0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = "onnx.Mul"(%beta, %1) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = "onnx.Tanh"(%2) : (tensor<8xf32>) -> tensor<8xf32>
  %4 = "onnx.Add"(%one, %3) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %5 = "onnx.Mul"(%x, %4) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %6 = "onnx.Mul"(%half, %5) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  return %6 : tensor<8xf32>
}

// -----

// With x^3 as Pow(x, 3).
// CHECK-LABEL: func.func @gelu_tanh_pow
// CHECK-NEXT: %[[G:.+]] = "onnx.Gelu"(%arg0) {approximate = "tanh"}
// CHECK-NEXT: return %[[G]]
func.func @gelu_tanh_pow(%x: tensor<8xf32>) -> tensor<8xf32> {
  %three = onnx.Constant dense<3.0> : tensor<f32>
  %beta = onnx.Constant dense<0.797884583> : tensor<f32>
  %kappa = onnx.Constant dense<0.044715> : tensor<f32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %half = onnx.Constant dense<0.5> : tensor<f32>
  %cube = "onnx.Pow"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %0 = "onnx.Mul"(%cube, %kappa) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "onnx.Add"(%x, %0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = "onnx.Mul"(%1, %beta) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "onnx.Tanh"(%2) : (tensor<8xf32>) -> tensor<8xf32>
  %4 = "onnx.Add"(%3, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %5 = "onnx.Mul"(%half, %x) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %6 = "onnx.Mul"(%5, %4) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %6 : tensor<8xf32>
}

// -----

// Near misses stay as they are: a wrong constant (0.6), an intermediate
// value used elsewhere, and another input inside the erf.
// CHECK-LABEL: func.func @gelu_near_misses
// CHECK-NOT: onnx.Gelu
func.func @gelu_near_misses(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %sqrt2 = onnx.Constant dense<1.41421354> : tensor<f32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %half = onnx.Constant dense<0.5> : tensor<f32>
  %other = onnx.Constant dense<0.6> : tensor<f32>
  %0 = "onnx.Div"(%x, %sqrt2) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "onnx.Erf"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "onnx.Add"(%1, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "onnx.Mul"(%x, %2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "onnx.Mul"(%3, %other) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %5 = "onnx.Div"(%x, %sqrt2) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %6 = "onnx.Erf"(%5) : (tensor<8xf32>) -> tensor<8xf32>
  %7 = "onnx.Add"(%6, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %8 = "onnx.Mul"(%x, %7) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %9 = "onnx.Mul"(%8, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %10 = "onnx.Div"(%y, %sqrt2) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %11 = "onnx.Erf"(%10) : (tensor<8xf32>) -> tensor<8xf32>
  %12 = "onnx.Add"(%11, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %13 = "onnx.Mul"(%x, %12) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %14 = "onnx.Mul"(%13, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %4, %9, %14, %7 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// The decomposed RMSNorm PyTorch exports (Llama, T5, Gemma, Qwen),
//   n = x * (1 / sqrt(mean(x^2) + eps)); y = n * gamma,
// with the mean over the trailing axes, becomes one onnx.RMSNormalization
// (opset 23's op) rooted on its last op. Everything else about it must hold
// exactly, or it stays as it is.
// RUN: onyx-opt %s --split-input-file --canonicalize | FileCheck %s

// The Llama-style test decoder (examples/decoders) as torch.onnx exported
// it: its five RMSNorms (two per layer and the final one) each become one op.
// RUN: onyx-opt %S/../../../examples/decoders/llama_tiny.onnx --bind-dims=batch=1,seq=4,past=3,total=7 \
// RUN:   --canonicalize | FileCheck %s --check-prefix=LLAMA --implicit-check-not=onnx.Sqrt
// LLAMA-COUNT-5: "onnx.RMSNormalization"
// LLAMA-NOT: "onnx.RMSNormalization"
// The same without bound dims: batch and seq stay `?` and the shape
// operands are run-time Shape chains; the math is the same for every size.
// RUN: onyx-opt %S/../../../examples/decoders/llama_tiny.onnx \
// RUN:   --canonicalize | FileCheck %s --check-prefix=LLAMA-DYN --implicit-check-not=onnx.Sqrt
// LLAMA-DYN-COUNT-5: "onnx.RMSNormalization"{{.*}}tensor<?x?x32xf32>
// LLAMA-DYN-NOT: "onnx.RMSNormalization"

// As torch.onnx writes Llama's RMSNorm: Pow, ReduceMean, Add eps, Sqrt,
// Div(1, .), Mul by x, Mul by the weight (on the left, as Llama writes it).
// CHECK-LABEL: func.func @rmsnorm
// CHECK-DAG: %[[G:.+]] = onnx.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-NOT: onnx.Constant
// CHECK: %[[Y:.+]] = "onnx.RMSNormalization"(%arg0, %[[G]]) : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @rmsnorm(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %gamma = onnx.Constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %p = "onnx.Pow"(%x, %two) : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %ms = "onnx.ReduceMean"(%p, %axes) : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x3x1xf32>
  %a = "onnx.Add"(%ms, %eps) : (tensor<2x3x1xf32>, tensor<f32>) -> tensor<2x3x1xf32>
  %s = "onnx.Sqrt"(%a) : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %r = "onnx.Div"(%one, %s) : (tensor<f32>, tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %n = "onnx.Mul"(%x, %r) : (tensor<2x3x4xf32>, tensor<2x3x1xf32>) -> tensor<2x3x4xf32>
  %y = "onnx.Mul"(%gamma, %n) : (tensor<4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// -----

// Rows known only at run time (`?` before the normalized axis): the same
// op, since the normalized dimension and the scale are known.
// CHECK-LABEL: func.func @rmsnorm_dynamic_rows
// CHECK: %[[Y:.+]] = "onnx.RMSNormalization"(%arg0, %{{.+}}) : (tensor<?x?x4xf32>, tensor<4xf32>) -> tensor<?x?x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @rmsnorm_dynamic_rows(%x: tensor<?x?x4xf32>) -> tensor<?x?x4xf32> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %gamma = onnx.Constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %p = "onnx.Pow"(%x, %two) : (tensor<?x?x4xf32>, tensor<f32>) -> tensor<?x?x4xf32>
  %ms = "onnx.ReduceMean"(%p, %axes) : (tensor<?x?x4xf32>, tensor<1xi64>) -> tensor<?x?x1xf32>
  %a = "onnx.Add"(%ms, %eps) : (tensor<?x?x1xf32>, tensor<f32>) -> tensor<?x?x1xf32>
  %s = "onnx.Sqrt"(%a) : (tensor<?x?x1xf32>) -> tensor<?x?x1xf32>
  %r = "onnx.Div"(%one, %s) : (tensor<f32>, tensor<?x?x1xf32>) -> tensor<?x?x1xf32>
  %n = "onnx.Mul"(%x, %r) : (tensor<?x?x4xf32>, tensor<?x?x1xf32>) -> tensor<?x?x4xf32>
  %y = "onnx.Mul"(%gamma, %n) : (tensor<4xf32>, tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  return %y : tensor<?x?x4xf32>
}

// -----

// The other spellings: x * x for the square, eps on the left, Reciprocal
// of the Sqrt, r on the left of x, a scale of shape 1x4 (its leading unit
// dimension dropped) and another epsilon. x keeps its other use.
// CHECK-LABEL: func.func @rmsnorm_variants
// CHECK-DAG: %[[G:.+]] = onnx.Constant dense<5.000000e-01> : tensor<4xf32>
// CHECK: %[[Y:.+]] = "onnx.RMSNormalization"(%arg0, %[[G]]) {epsilon = 1.000000e-03 : f32}
// CHECK: %[[R:.+]] = "onnx.Add"(%[[Y]], %arg0)
// CHECK-NEXT: return %[[R]]
func.func @rmsnorm_variants(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %axes = onnx.Constant dense<1> : tensor<1xi64>
  %eps = onnx.Constant dense<1.0e-3> : tensor<f32>
  %gamma = onnx.Constant dense<0.5> : tensor<1x4xf32>
  %p = "onnx.Mul"(%x, %x) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %ms = "onnx.ReduceMean"(%p, %axes) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %a = "onnx.Add"(%eps, %ms) : (tensor<f32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %s = "onnx.Sqrt"(%a) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %r = "onnx.Reciprocal"(%s) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %n = "onnx.Mul"(%r, %x) : (tensor<3x1xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = "onnx.Mul"(%n, %gamma) : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  %z = "onnx.Add"(%y, %x) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %z : tensor<3x4xf32>
}

// -----

// x / sqrt(...) without a scale, over the last two axes: the scale is ones.
// CHECK-LABEL: func.func @rmsnorm_div
// CHECK: %[[ONES:.+]] = onnx.Constant dense<1.000000e+00> : tensor<3x4xf32>
// CHECK: %[[Y:.+]] = "onnx.RMSNormalization"(%arg0, %[[ONES]]) {axis = -2 : si64} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @rmsnorm_div(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %axes = onnx.Constant dense<[-2, -1]> : tensor<2xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %p = "onnx.Pow"(%x, %two) : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %ms = "onnx.ReduceMean"(%p, %axes) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  %a = "onnx.Add"(%ms, %eps) : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
  %s = "onnx.Sqrt"(%a) : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %n = "onnx.Div"(%x, %s) : (tensor<2x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32>
  return %n : tensor<2x3x4xf32>
}

// -----

// Not an RMSNorm: the mean is over a leading axis, the square is of
// another value, the exponent is 3, an intermediate has a second use, the
// scale is not a constant. Each stays as it is.
// CHECK-LABEL: func.func @not_rmsnorm
// CHECK-NOT: onnx.RMSNormalization
func.func @not_rmsnorm(%x: tensor<3x4xf32>, %w: tensor<3x4xf32>, %g: tensor<4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x1xf32>, tensor<3x4xf32>) {
  %axes0 = onnx.Constant dense<0> : tensor<1xi64>
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %three = onnx.Constant dense<3.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %p0 = "onnx.Pow"(%x, %two) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %ms0 = "onnx.ReduceMean"(%p0, %axes0) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
  %a0 = "onnx.Add"(%ms0, %eps) : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
  %s0 = "onnx.Sqrt"(%a0) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %n0 = "onnx.Div"(%x, %s0) : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  %p1 = "onnx.Pow"(%w, %two) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %ms1 = "onnx.ReduceMean"(%p1, %axes) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %a1 = "onnx.Add"(%ms1, %eps) : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s1 = "onnx.Sqrt"(%a1) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %n1 = "onnx.Div"(%x, %s1) : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %p2 = "onnx.Pow"(%x, %three) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %ms2 = "onnx.ReduceMean"(%p2, %axes) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %a2 = "onnx.Add"(%ms2, %eps) : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s2 = "onnx.Sqrt"(%a2) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %n2 = "onnx.Div"(%x, %s2) : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %p3 = "onnx.Pow"(%x, %two) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %ms3 = "onnx.ReduceMean"(%p3, %axes) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %a3 = "onnx.Add"(%ms3, %eps) : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s3 = "onnx.Sqrt"(%a3) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %n3 = "onnx.Div"(%x, %s3) : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %m3 = "onnx.Mul"(%n3, %g) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %n0, %n1, %n2, %n3, %s3, %m3 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x1xf32>, tensor<3x4xf32>
}

// -----

// Without a constant scale the normalization alone becomes the op and the
// Mul by a runtime value stays.
// CHECK-LABEL: func.func @runtime_scale
// CHECK: %[[Y:.+]] = "onnx.RMSNormalization"(%arg0, %{{.+}})
// CHECK: "onnx.Mul"(%[[Y]], %arg1)
func.func @runtime_scale(%x: tensor<3x4xf32>, %g: tensor<4xf32>) -> tensor<3x4xf32> {
  %axes = onnx.Constant dense<-1> : tensor<1xi64>
  %two = onnx.Constant dense<2.0> : tensor<f32>
  %eps = onnx.Constant dense<1.0e-5> : tensor<f32>
  %p = "onnx.Pow"(%x, %two) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %ms = "onnx.ReduceMean"(%p, %axes) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %a = "onnx.Add"(%ms, %eps) : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s = "onnx.Sqrt"(%a) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %n = "onnx.Div"(%x, %s) : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %m = "onnx.Mul"(%n, %g) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %m : tensor<3x4xf32>
}

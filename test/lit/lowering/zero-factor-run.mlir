// A float product by a constant 0 and 0 divided by a value keep IEEE's NaN
// on the device, as on the reference backend: 0 * inf, 0 * NaN, 0 / 0 and
// 0 / NaN are NaN. lavapipe folds a product by a constant 0, and 0 / x, to
// 0 (precise or not, and with the SignedZeroInfNanPreserve execution mode
// too), so the kernels test for those factors (onyx_scale, onyx_over) where
// a factor is a constant: a splat operand of Mul or Div, or the attribute
// that scales LeakyRelu, Elu, Selu and HardSigmoid (hard-sigmoid-nan-run).
// The zeros they give keep IEEE's sign (0 * -2 = -0, 0 / -2 = -0, 2 * -0 =
// -0): the reciprocals of the results, an infinity of the zero's sign,
// are compared with the reference's too.

// RUN: split-file %s %t
// RUN: onyx-run %t/activations.mlir --validate --check \
// RUN:   --input=6xf32=nan,inf,-inf,-2,2,0 | FileCheck %s --check-prefix=ACT
// ACT: output 0: tensor<6xf32> = [{{-?}}nan, inf, {{-?}}nan, {{-?}}0, 2, {{-?}}0]
// ACT: output 1: tensor<6xf32> = [{{-?}}nan, inf, {{-?}}0, {{-?}}0, 2, {{-?}}0]
// ACT: output 2: tensor<6xf32> = [{{-?}}nan, {{-?}}nan, {{-?}}0, {{-?}}0, {{-?}}0, {{-?}}0]
// ACT: output 3: tensor<6xf32> = [{{-?}}nan, inf, {{-?}}0, {{-?}}0, 2.101402, {{-?}}0]
// ACT-COUNT-8: vs ref: max abs error 0, max rel error 0: PASS

// RUN: onyx-run %t/arith.mlir --validate --check \
// RUN:   --input=6xf32=nan,inf,-inf,-2,2,0 | FileCheck %s --check-prefix=ARITH
// ARITH: output 0: tensor<6xf32> = [{{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}0, {{-?}}0, {{-?}}0]
// ARITH: output 1: tensor<6xf32> = [{{-?}}nan, {{-?}}0, {{-?}}0, {{-?}}0, {{-?}}0, {{-?}}nan]
// ARITH: output 2: tensor<6xf32> = [{{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}0, {{-?}}0, {{-?}}0]
// ARITH: output 3: tensor<6xf64> = [{{-?}}nan, {{-?}}nan, {{-?}}nan, {{-?}}0, {{-?}}0, {{-?}}0]
// ARITH: output 4: tensor<6xf32> = [{{-?}}nan, inf, -inf, -4, 4, {{-?}}0]
// ARITH-COUNT-9: vs ref: max abs error 0, max rel error 0: PASS

//--- activations.mlir
func.func @main(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %0 = "onnx.LeakyRelu"(%x) {alpha = 0.0 : f32} : (tensor<6xf32>) -> tensor<6xf32>
  %1 = "onnx.Elu"(%x) {alpha = 0.0 : f32} : (tensor<6xf32>) -> tensor<6xf32>
  %2 = "onnx.Selu"(%x) {gamma = 0.0 : f32} : (tensor<6xf32>) -> tensor<6xf32>
  %3 = "onnx.Selu"(%x) {alpha = 0.0 : f32} : (tensor<6xf32>) -> tensor<6xf32>
  %r0 = "onnx.Reciprocal"(%0) : (tensor<6xf32>) -> tensor<6xf32>
  %r1 = "onnx.Reciprocal"(%1) : (tensor<6xf32>) -> tensor<6xf32>
  %r2 = "onnx.Reciprocal"(%2) : (tensor<6xf32>) -> tensor<6xf32>
  %r3 = "onnx.Reciprocal"(%3) : (tensor<6xf32>) -> tensor<6xf32>
  return %0, %1, %2, %3, %r0, %r1, %r2, %r3 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

//--- arith.mlir
func.func @main(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf64>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf64>) {
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %minus = "onnx.Constant"() {value = dense<-0.0> : tensor<f32>} : () -> tensor<f32>
  %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "onnx.Mul"(%zero, %x) : (tensor<f32>, tensor<6xf32>) -> tensor<6xf32>
  %1 = "onnx.Div"(%zero, %x) : (tensor<f32>, tensor<6xf32>) -> tensor<6xf32>
  %2 = "onnx.Mul"(%x, %minus) : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
  %d = "onnx.Cast"(%x) {to = f64} : (tensor<6xf32>) -> tensor<6xf64>
  %zd = "onnx.Constant"() {value = dense<0.0> : tensor<f64>} : () -> tensor<f64>
  %3 = "onnx.Mul"(%d, %zd) : (tensor<6xf64>, tensor<f64>) -> tensor<6xf64>
  %4 = "onnx.Mul"(%x, %two) : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
  %r0 = "onnx.Reciprocal"(%0) : (tensor<6xf32>) -> tensor<6xf32>
  %r1 = "onnx.Reciprocal"(%1) : (tensor<6xf32>) -> tensor<6xf32>
  %r2 = "onnx.Reciprocal"(%2) : (tensor<6xf32>) -> tensor<6xf32>
  %r3 = "onnx.Reciprocal"(%3) : (tensor<6xf64>) -> tensor<6xf64>
  return %0, %1, %2, %3, %4, %r0, %r1, %r2, %r3 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf64>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf64>
}

// RUN: onyx-run %s --validate --check --input-set=3x5xf32=1 --input-set=7x2xf32=1 --input-set=1x1xf32=1 | FileCheck %s

// Shape computations on dims known only at run time, lowered once and
// evaluated on the host at each of three shapes, against the reference
// backend: truncating Div, floor Mod, Where, Neg, Concat, Slice, Cast.

// CHECK: compile: {{.*}} (1 kernels compiled)
// CHECK: input set 0:
// CHECK: output 0: tensor<4xi32> = [3, -1, 0, -3]
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK: input set 1:
// CHECK-SAME: 0 kernels compiled, 0 pipelines created
// CHECK: output 0: tensor<4xi32> = [2, 0, -2, -7]
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK: input set 2:
// CHECK: output 0: tensor<4xi32> = [1, 0, -2, -1]
// CHECK: output 0 vs ref: {{.*}}: PASS
func.func @main(%x: tensor<?x?xf32>) -> tensor<4xi32> {
  %s = "onnx.Shape"(%x) : (tensor<?x?xf32>) -> tensor<2xi64>
  %a = "onnx.Shape"(%x) {end = 1 : si64} : (tensor<?x?xf32>) -> tensor<1xi64>
  %b = "onnx.Shape"(%x) {start = 1 : si64} : (tensor<?x?xf32>) -> tensor<1xi64>
  %lt = "onnx.Less"(%a, %b) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
  %min = "onnx.Where"(%lt, %a, %b) : (tensor<1xi1>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %c3 = "onnx.Constant"() {value = dense<-3> : tensor<1xi64>} : () -> tensor<1xi64>
  %div = "onnx.Div"(%b, %c3) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %mod = "onnx.Mod"(%a, %c3) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %neg = "onnx.Neg"(%a) : (tensor<1xi64>) -> tensor<1xi64>
  %cat = "onnx.Concat"(%min, %div, %mod, %neg, %s) {axis = 0 : si64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<6xi64>
  %st = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %en = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %sl = "onnx.Slice"(%cat, %st, %en) : (tensor<6xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  %r = "onnx.Cast"(%sl) {to = i32} : (tensor<4xi64>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

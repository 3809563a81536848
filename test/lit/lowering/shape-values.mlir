// RUN: onyx-opt %s --split-input-file --target=lavapipe --lower | FileCheck %s
// RUN: onyx-opt %s --split-input-file --target=lavapipe --onnx-static-shapes --onnx-fuse-elementwise --convert-onnx-to-gpu | FileCheck %s --check-prefix=GLSL

// Shape computations on dims known only at run time are host ops of the gpu
// dialect, evaluated before the run is recorded: no kernel computes them,
// and one is materialized only where a kernel reads the value or it is
// returned.

// CHECK-LABEL: func.func @main(%arg0: tensor<?x4xf32>) -> tensor<i64>
// CHECK: %[[N:.+]] = gpu.dim %arg0[0] : tensor<?x4xf32>
// CHECK: %[[C:.+]] = gpu.constant 4
// CHECK: %[[M:.+]] = gpu.muli %[[N]], %[[C]]
// CHECK: %[[Y:.+]] = gpu.view
// CHECK: gpu.dispatch @shape_value[1, 1, 1](%[[Y]]) push(%[[M]]) : !gpu.view<i64>
// CHECK: gpu.download %[[Y]]
// CHECK-NOT: gpu.dispatch
func.func @main(%x: tensor<?x4xf32>) -> tensor<i64> {
  %s = "onnx.Shape"(%x) : (tensor<?x4xf32>) -> tensor<2xi64>
  %i = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %g = "onnx.Gather"(%s, %i) : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %f = "onnx.Constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
  %m = "onnx.Mul"(%g, %f) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  return %m : tensor<i64>
}

// -----

// A Shape returned as an output: the known dim is a literal of the kernel.
// GLSL: gpu.kernel @shape_value(write) workgroup_size(1, 1, 1) push_constants(i32)
// GLSL-SAME: y.d[0] = uvec2(uint(pc.v0), pc.v0 < 0 ? 0xffffffffu : 0u);\0A}
// GLSL: gpu.kernel @shape_value(write) workgroup_size(1, 1, 1) push_constants(i32)
// GLSL-SAME: y.d[0] = uvec2(uint(pc.v0), pc.v0 < 0 ? 0xffffffffu : 0u);\0A  y.d[1] = uvec2(4u, 0u);
// CHECK-LABEL: func.func @main(%arg0: tensor<?x4xf32>) -> tensor<2xi64>
// CHECK: %[[N:.+]] = gpu.dim %arg0[0]
// CHECK: gpu.dispatch @shape_value[1, 1, 1](%{{.+}}) push(%[[N]]) : !gpu.view<2xi64>
func.func @main(%x: tensor<?x4xf32>) -> tensor<2xi64> {
  %s = "onnx.Shape"(%x) : (tensor<?x4xf32>) -> tensor<2xi64>
  return %s : tensor<2xi64>
}

// -----

// Comparisons, Where, Div (truncating), Mod, Abs and Neg, Concat and Slice:
// one host op (or none) per element.
// GLSL: gpu.kernel @shape_value(write) workgroup_size(1, 1, 1) push_constants(i32, i32, i32, i32)
// GLSL-SAME: y.d[3] = uint(uint(pc.v3));
// CHECK-LABEL: func.func @main(%arg0: tensor<?x?xf32>) -> tensor<4xi32>
// CHECK-DAG: %[[A:.+]] = gpu.dim %arg0[0]
// CHECK-DAG: %[[B:.+]] = gpu.dim %arg0[1]
// CHECK: %[[LT:.+]] = gpu.lti %[[A]], %[[B]]
// CHECK: %[[SEL:.+]] = gpu.select %[[LT]], %[[A]], %[[B]]
// CHECK: %[[DIV:.+]] = gpu.divi %[[B]], %{{.+}}
// CHECK: %[[REM:.+]] = gpu.remi %[[A]], %{{.+}}
// CHECK: %[[NEG:.+]] = gpu.subi %{{.+}}, %[[A]]
// CHECK: push(%[[SEL]], %[[DIV]], %[[REM]], %[[NEG]]) : !gpu.view<4xi32>
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

// -----

// Integer data a kernel computes on stays on the GPU: an argument enters the
// host program only where a shape operand needs it.
// CHECK-LABEL: func.func @main(%arg0: tensor<2xi64>) -> tensor<2xi64>
// CHECK-NOT: gpu.extract
// CHECK: gpu.dispatch @add
func.func @main(%x: tensor<2xi64>) -> tensor<2xi64> {
  %c = "onnx.Constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "onnx.Add"(%x, %c) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %r : tensor<2xi64>
}

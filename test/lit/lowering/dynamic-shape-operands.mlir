// RUN: onyx-opt %s --split-input-file --target=lavapipe --lower | FileCheck %s
// RUN: onyx-opt %s --split-input-file --target=lavapipe --onnx-static-shapes --onnx-fuse-elementwise --convert-onnx-to-gpu | FileCheck %s --check-prefix=GLSL

// Ops whose shape operand is known only at run time lower once: the shape is
// a shape value of the host program, the result's `?` dims are index values
// computed from it, and what only the run can check is a gpu.assert at the
// node.

// Reshape to a shape the user gives: 0 copies the input's dim and -1 is
// inferred, decided by gpu.select at run time; the view aliases the input.
// CHECK-LABEL: func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<2xi64>) -> tensor<?x?xf32>
// CHECK: %[[N:.+]] = gpu.dim %arg0[0]
// CHECK: %[[X:.+]] = gpu.alloc(%[[N]]) : !gpu.view<?x4xf32>
// CHECK: %[[S0:.+]] = gpu.extract %arg1[0]
// CHECK: %[[S1:.+]] = gpu.extract %arg1[1]
// CHECK: %[[Z0:.+]] = gpu.eqi %[[S0]], %{{.+}}
// CHECK: %[[D0:.+]] = gpu.select %[[Z0]], %[[N]], %[[S0]]
// CHECK: gpu.divi
// CHECK: %[[R0:.+]] = gpu.select %{{.+}}, %{{.+}}, %[[D0]]
// CHECK: %[[R1:.+]] = gpu.select
// CHECK: gpu.assert %{{.+}}, %[[R0]] {message = "'onnx.Reshape' op has a negative dimension {0} at run time"}
// CHECK: gpu.assert %{{.+}}, %{{.+}}, %{{.+}} {message = "'onnx.Reshape' op reshapes {0} elements into a shape of {1} elements"}
// CHECK: %[[V:.+]] = gpu.view %[[X]][0](%[[R0]], %[[R1]]) : !gpu.view<?x4xf32> to !gpu.view<?x?xf32>
// CHECK: gpu.dispatch @relu[%{{.+}}, 1, 1](%[[V]], %{{.+}})
func.func @main(%x: tensor<?x4xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %r = "onnx.Reshape"(%x, %s) : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %y = "onnx.Relu"(%r) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// Shape -> Gather -> Mul -> Concat -> Reshape: the shape is the product of
// the dims (which a run may make 0 or -1 as far as the host program knows).
// Unsqueeze and Squeeze are views with the dims moved, nothing to check.
// CHECK-LABEL: func.func @main(%arg0: tensor<?x?x4xf32>)
// CHECK: %[[A:.+]] = gpu.dim %arg0[0]
// CHECK: %[[B:.+]] = gpu.dim %arg0[1]
// CHECK: gpu.muli %[[A]], %[[B]]
// CHECK: gpu.select
// CHECK: gpu.assert %{{.+}} {message = "'onnx.Reshape' op reshapes {0} elements into a shape of {1} elements"}
// CHECK: %[[V0:.+]] = gpu.view %{{.+}}[0](%[[R:.+]]) : !gpu.view<?x?x4xf32> to !gpu.view<?x4xf32>
// CHECK: %[[V1:.+]] = gpu.view %[[V0]][0](%[[R]]) : !gpu.view<?x4xf32> to !gpu.view<1x?x4xf32>
// CHECK: gpu.view %[[V1]][0](%[[R]]) : !gpu.view<1x?x4xf32> to !gpu.view<?x4xf32>
// CHECK-NOT: gpu.assert
// CHECK: gpu.dispatch @neg
func.func @main(%x: tensor<?x?x4xf32>) -> tensor<?x4xf32> {
  %s = "onnx.Shape"(%x) {end = 2 : si64} : (tensor<?x?x4xf32>) -> tensor<2xi64>
  %a = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %p0 = "onnx.Gather"(%s, %a) {axis = 0 : si64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %p1 = "onnx.Gather"(%s, %one) {axis = 0 : si64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %prod = "onnx.Mul"(%p0, %p1) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %four = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %shape = "onnx.Concat"(%prod, %four) {axis = 0 : si64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = "onnx.Reshape"(%x, %shape) : (tensor<?x?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  %u = "onnx.Unsqueeze"(%r, %a) : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<1x?x4xf32>
  %q = "onnx.Squeeze"(%u, %a) : (tensor<1x?x4xf32>, tensor<1xi64>) -> tensor<?x4xf32>
  %y = "onnx.Neg"(%q) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// -----

// Expand to a shape computed at run time broadcasts in the elementwise
// kernel; a dim that is neither the result's nor 1 fails the run.
// CHECK-LABEL: func.func @main(%arg0: tensor<?x1xf32>, %arg1: tensor<1xi64>) -> tensor<?x?xf32>
// CHECK: %[[N:.+]] = gpu.dim %arg0[0]
// CHECK: %[[M:.+]] = gpu.extract %arg1[0]
// CHECK: gpu.alloc(%[[N]], %[[M]]) : !gpu.view<?x?xf32>
// CHECK: gpu.dispatch @expand
func.func @main(%x: tensor<?x1xf32>, %n: tensor<1xi64>) -> tensor<?x?xf32> {
  %s = "onnx.Shape"(%x) {end = 1 : si64} : (tensor<?x1xf32>) -> tensor<1xi64>
  %shape = "onnx.Concat"(%s, %n) {axis = 0 : si64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %e = "onnx.Expand"(%x, %shape) : (tensor<?x1xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

// -----

// Range with a count known only at run time, max(ceil((limit - start) /
// delta), 0), and its start as a push constant; ConstantOfShape of a run-time
// shape.
// CHECK-LABEL: func.func @main(%arg0: tensor<i64>, %arg1: tensor<2xi64>) -> (tensor<?xi64>, tensor<?x?xf32>)
// CHECK: %[[START:.+]] = gpu.extract %arg0[0]
// CHECK: %[[SPAN:.+]] = gpu.subi %{{.+}}, %[[START]]
// CHECK: %[[Q:.+]] = gpu.ceildivi %[[SPAN]], %{{.+}}
// CHECK: %[[COUNT:.+]] = gpu.maxi %[[Q]], %{{.+}}
// CHECK: %[[R:.+]] = gpu.alloc(%[[COUNT]]) : !gpu.view<?xi64>
// CHECK: gpu.dispatch @range[%{{.+}}, 1, 1](%[[R]]) push(%[[COUNT]], %[[START]])
// CHECK: gpu.extract %arg1[0]
// CHECK: gpu.dispatch @fill
// GLSL: gpu.kernel @range(write) workgroup_size(256, 1, 1) push_constants(ui32, i32)
// GLSL-SAME: int64_t value = int64_t(pc.s1) + int64_t(i) * 3l;
// GLSL: gpu.kernel @fill(write) workgroup_size(256, 1, 1) push_constants(ui32)
func.func @main(%start: tensor<i64>, %shape: tensor<2xi64>) -> (tensor<?xi64>, tensor<?x?xf32>) {
  %limit = "onnx.Constant"() {value = dense<20> : tensor<i64>} : () -> tensor<i64>
  %delta = "onnx.Constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %r = "onnx.Range"(%start, %limit, %delta) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %c = "onnx.ConstantOfShape"(%shape) {value = dense<1.5> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  return %r, %c : tensor<?xi64>, tensor<?x?xf32>
}

// onnx-flatten-control-flow, the first pass of --lower: a Loop of constant
// trip count and a Scan of static length are unrolled (each iteration's ops
// typed from its operands, the scan outputs unsqueezed and concatenated),
// an If on a condition known only at run time runs both branches and
// selects with a Where, and what an unrolled iteration folds (a nested
// If's condition on the iteration number) is taken in the next round.
// RUN: onyx-opt %s --split-input-file --onnx-flatten-control-flow | FileCheck %s

// The carried value's `?` size becomes known in each iteration, and so
// does the function's result type.
// CHECK-LABEL: func.func @loop
// CHECK-SAME:    ([[X:%.+]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>)
// CHECK-NOT:     onnx.Loop
// CHECK:         [[A0:%.+]] = "onnx.Add"([[X]], %{{.*}}) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK:         [[A1:%.+]] = "onnx.Add"([[A0]], %{{.*}}) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK:         [[A2:%.+]] = "onnx.Add"([[A1]], %{{.*}}) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK:         [[S:%.+]] = "onnx.Concat"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 0 : si64} : (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
// CHECK:         return [[A2]], [[S]] : tensor<2xf32>, tensor<3x2xf32>
func.func @loop(%x: tensor<2xf32>) -> (tensor<?xf32>, tensor<?x?xf32>) {
  %m = onnx.Constant dense<3> : tensor<i64>
  %none = "onnx.NoValue"() {value} : () -> none
  %0:2 = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<?xf32>):
    %f = "onnx.Cast"(%i) {to = f32} : (tensor<i64>) -> tensor<f32>
    %a = "onnx.Add"(%v, %f) : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
    "onnx.Yield"(%c, %a, %a) : (tensor<i1>, tensor<?xf32>, tensor<?xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> (tensor<?xf32>, tensor<?x?xf32>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<?x?xf32>
}

// -----

// A condition that is a constant true, which the body passes on, stops
// nothing; a nested If on the iteration number takes its branch once the
// iteration is unrolled.
// CHECK-LABEL: func.func @loop_with_condition
// CHECK-NOT:     onnx.Loop
// CHECK-NOT:     onnx.If
// CHECK:         "onnx.Neg"
// CHECK-NOT:     onnx.If
// CHECK:         "onnx.Relu"
// CHECK-NOT:     onnx.If
// CHECK:         return
func.func @loop_with_condition(%x: tensor<2xf32>) -> tensor<2xf32> {
  %m = onnx.Constant dense<2> : tensor<i64>
  %t = onnx.Constant dense<true> : tensor<i1>
  %0 = "onnx.Loop"(%m, %t, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<2xf32>):
    %zero = onnx.Constant dense<0> : tensor<i64>
    %first = "onnx.Equal"(%i, %zero) : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %r = "onnx.If"(%first) ({
      %n = "onnx.Neg"(%v) : (tensor<2xf32>) -> tensor<2xf32>
      "onnx.Yield"(%n) : (tensor<2xf32>) -> ()
    }, {
      %n = "onnx.Relu"(%v) : (tensor<2xf32>) -> tensor<2xf32>
      "onnx.Yield"(%n) : (tensor<2xf32>) -> ()
    }) : (tensor<i1>) -> tensor<2xf32>
    %cc = "onnx.Identity"(%c) : (tensor<i1>) -> tensor<i1>
    "onnx.Yield"(%cc, %r) : (tensor<i1>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A loop of no iterations yields its initial values and empty scan outputs.
// CHECK-LABEL: func.func @no_iterations
// CHECK-SAME:    ([[X:%.+]]: tensor<2xf32>)
// CHECK:         [[E:%.+]] = onnx.Constant dense<> : tensor<0x2xf32>
// CHECK:         return [[X]], [[E]]
func.func @no_iterations(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>) {
  %m = onnx.Constant dense<0> : tensor<i64>
  %none = "onnx.NoValue"() {value} : () -> none
  %0:2 = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<2xf32>):
    "onnx.Yield"(%c, %v, %v) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<?x2xf32>
}

// -----

// Scan slices its input with a Gather of each index (from the end for a
// reverse direction) and stacks its output along the output axis.
// CHECK-LABEL: func.func @scan
// CHECK-SAME:    ([[S0:%.+]]: tensor<2xf32>, [[XS:%.+]]: tensor<2x3xf32>)
// CHECK-NOT:     onnx.Scan
// CHECK-DAG:     [[I2:%.+]] = onnx.Constant dense<2> : tensor<i64>
// CHECK:         [[G0:%.+]] = "onnx.Gather"([[XS]], [[I2]]) {axis = 1 : si64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2xf32>
// CHECK:         [[A0:%.+]] = "onnx.Add"([[S0]], [[G0]])
// CHECK:         "onnx.Gather"([[XS]], %{{.*}}) {axis = 1 : si64}
// CHECK:         "onnx.Gather"([[XS]], %{{.*}}) {axis = 1 : si64}
// CHECK:         [[C:%.+]] = "onnx.Concat"({{.*}}) {axis = 1 : si64} : (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK:         return %{{.*}}, [[C]] : tensor<2xf32>, tensor<2x3xf32>
func.func @scan(%s: tensor<2xf32>, %xs: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2x3xf32>) {
  %0:2 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%acc: tensor<2xf32>, %x: tensor<2xf32>):
    %a = "onnx.Add"(%acc, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> ()
  }) {num_scan_inputs = 1 : si64, scan_input_axes = [1], scan_input_directions = [1], scan_output_axes = [1]} : (tensor<2xf32>, tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2x3xf32>
}

// -----

// An If on a run-time condition computes both branches and selects.
// CHECK-LABEL: func.func @select
// CHECK-SAME:    ([[C:%.+]]: tensor<1xi1>, [[X:%.+]]: tensor<2xf32>)
// CHECK-NOT:     onnx.If
// CHECK-DAG:     [[N:%.+]] = "onnx.Neg"([[X]])
// CHECK-DAG:     [[R:%.+]] = "onnx.Relu"([[X]])
// CHECK-DAG:     [[S:%.+]] = "onnx.Reshape"([[C]], %{{.*}}) : (tensor<1xi1>, tensor<0xi64>) -> tensor<i1>
// CHECK:         [[W:%.+]] = "onnx.Where"([[S]], [[N]], [[R]]) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK:         return [[W]]
func.func @select(%c: tensor<1xi1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "onnx.If"(%c) ({
    %n = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%n) : (tensor<2xf32>) -> ()
  }, {
    %r = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%r) : (tensor<2xf32>) -> ()
  }) : (tensor<1xi1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A constant condition whose branch is more static than the returned
// result: the branch is taken and the function's type follows.
// CHECK-LABEL: func.func @constant_returned
// CHECK-SAME:    ([[X:%.+]]: tensor<2xf32>, [[Y:%.+]]: tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    return [[Y]] : tensor<3xf32>
func.func @constant_returned(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<?xf32> {
  %c = onnx.Constant dense<false> : tensor<i1>
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    "onnx.Yield"(%y) : (tensor<3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A body that yields a constant false as its condition runs once, however
// large the trip count.
// CHECK-LABEL: func.func @loop_stops_after_one
// CHECK-NOT:     onnx.Loop
// CHECK:         "onnx.Neg"
// CHECK-NOT:     "onnx.Neg"
// CHECK:         return
func.func @loop_stops_after_one(%x: tensor<2xf32>) -> tensor<2xf32> {
  %m = onnx.Constant dense<9223372036854775807> : tensor<i64>
  %t = onnx.Constant dense<true> : tensor<i1>
  %0 = "onnx.Loop"(%m, %t, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<2xf32>):
    %n = "onnx.Neg"(%v) : (tensor<2xf32>) -> tensor<2xf32>
    %f = onnx.Constant dense<false> : tensor<i1>
    "onnx.Yield"(%f, %n) : (tensor<i1>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

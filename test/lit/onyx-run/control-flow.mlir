// If, Loop and Scan on Vulkan, made straight-line code by
// onnx-flatten-control-flow, give what the reference backend gives: a Loop
// of constant trip count with a scan output and an If nested on the
// iteration number, a reverse Scan, and an If on a condition that is an
// input (both branches run, a Where selects).
// RUN: onyx-run %s --backend=ref --input=2xf32=1,2 --input=2x3xf32=1,2,3,4,5,6 --input=1xi1=1 | FileCheck %s
// RUN: onyx-run %s --validate --input=2xf32=1,2 --input=2x3xf32=1,2,3,4,5,6 --input=1xi1=1 | FileCheck %s
// RUN: onyx-run %s --backend=ref --input=2xf32=1,2 --input=2x3xf32=1,2,3,4,5,6 --input=1xi1=0 | FileCheck %s --check-prefix=ELSE
// RUN: onyx-run %s --validate --input=2xf32=1,2 --input=2x3xf32=1,2,3,4,5,6 --input=1xi1=0 | FileCheck %s --check-prefix=ELSE

// Loop: v = -v in iteration 0, then v + i: [-1, -2], [0, -1], [2, 1].
// CHECK:      output 0: tensor<2xf32> = [2, 1]
// CHECK-NEXT: output 1: tensor<3x2xf32> = [-1, -2, 0, -1, 2, 1]
// Scan over the columns from the last: sums 3,6 then 5,11 then 6,15,
// stacked in reverse along axis 1.
// CHECK-NEXT: output 2: tensor<2xf32> = [6, 15]
// CHECK-NEXT: output 3: tensor<2x3xf32> = [6, 5, 3, 15, 11, 6]
// CHECK-NEXT: output 4: tensor<2xf32> = [-1, -2]
// ELSE:       output 4: tensor<2xf32> = [2, 4]

func.func @main(%x: tensor<2xf32>, %xs: tensor<2x3xf32>, %c: tensor<1xi1>) -> (tensor<2xf32>, tensor<3x2xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<2xf32>) {
  %m = onnx.Constant dense<3> : tensor<i64>
  %none = "onnx.NoValue"() {value} : () -> none
  %l:2 = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<2xf32>):
    %zero = onnx.Constant dense<0> : tensor<i64>
    %first = "onnx.Equal"(%i, %zero) : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %r = "onnx.If"(%first) ({
      %n = "onnx.Neg"(%v) : (tensor<2xf32>) -> tensor<2xf32>
      "onnx.Yield"(%n) : (tensor<2xf32>) -> ()
    }, {
      %f = "onnx.Cast"(%i) {to = f32} : (tensor<i64>) -> tensor<f32>
      %a = "onnx.Add"(%v, %f) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
      "onnx.Yield"(%a) : (tensor<2xf32>) -> ()
    }) : (tensor<i1>) -> tensor<2xf32>
    "onnx.Yield"(%cond, %r, %r) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>)
  %zeros = onnx.Constant dense<0.0> : tensor<2xf32>
  %s:2 = "onnx.Scan"(%zeros, %xs) ({
  ^bb0(%acc: tensor<2xf32>, %col: tensor<2xf32>):
    %a = "onnx.Add"(%acc, %col) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> ()
  }) {num_scan_inputs = 1 : si64, scan_input_axes = [1], scan_input_directions = [1], scan_output_axes = [1], scan_output_directions = [1]} : (tensor<2xf32>, tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
  %w = "onnx.If"(%c) ({
    %n = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%n) : (tensor<2xf32>) -> ()
  }, {
    %d = "onnx.Add"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%d) : (tensor<2xf32>) -> ()
  }) : (tensor<1xi1>) -> tensor<2xf32>
  return %l#0, %l#1, %s#0, %s#1, %w : tensor<2xf32>, tensor<3x2xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<2xf32>
}

// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s
// RUN: onyx-run %s --validate --input-set='f32=-3;4xf32=1,2,3,4' --input-set='f32=0.5;4xf32=1,2,3,4' \
// RUN:   --input-set='f32=4.2;4xf32=1,2,3,4' | FileCheck %s --check-prefix=RUNS

// A Loop whose trip count kernels compute (from a float input, as the Range
// function's expansion does) reads the count back once, before the loop:
// gpu.read_count sizes the scan output and is the gpu.loop's trip count.
// onnx-flatten-control-flow made it max(M, 0) first (here a Relu of the
// Cast), so that the count read back is never negative.
func.func @main(%n: tensor<f32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>) {
  %none = "onnx.NoValue"() {value} : () -> none
  %c = "onnx.Ceil"(%n) : (tensor<f32>) -> tensor<f32>
  %m = "onnx.Cast"(%c) {to = i64} : (tensor<f32>) -> tensor<i64>
  %l:2 = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<4xf32>):
    %d = "onnx.Add"(%v, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "onnx.Yield"(%cond, %d, %d) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> ()
  }) : (tensor<i64>, none, tensor<4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>)
  return %l#0, %l#1 : tensor<4xf32>, tensor<?x4xf32>
}

// CHECK:      gpu.dispatch @ceil
// CHECK:      gpu.dispatch @cast
// CHECK:      gpu.dispatch @relu[1, 1, 1](%{{.*}}, %[[M:.*]]) :
// CHECK:      %[[V:.*]] = gpu.view %[[M]][0] : !gpu.view<i64> to !gpu.view<1xi64>
// CHECK:      %[[N:.*]] = gpu.read_count %[[V]] : !gpu.view<1xi64>
// CHECK:      gpu.alloc(%[[N]]) : !gpu.view<?x4xf32>
// CHECK:      gpu.loop %[[N]] (%{{.*}}: index) {

// RUNS:      input set 0:
// RUNS:      output 0: tensor<4xf32> = [1, 2, 3, 4]
// RUNS-NEXT: output 1: tensor<0x4xf32> = []
// RUNS:      input set 1:
// RUNS:      output 0: tensor<4xf32> = [2, 4, 6, 8]
// RUNS-NEXT: output 1: tensor<1x4xf32> = [2, 4, 6, 8]
// RUNS:      input set 2:
// RUNS:      output 0: tensor<4xf32> = [32, 64, 96, 128]
// RUNS-NEXT: output 1: tensor<5x4xf32> = [2, 4, 6, 8, 4, 8, 12, 16, ...]

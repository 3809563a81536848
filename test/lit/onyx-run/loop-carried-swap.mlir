// RUN: onyx-run %s --backend=ref --input=i64=6 --input=2xf32=0,1 --input=2xf32=1,1 | FileCheck %s
// RUN: onyx-run %s --validate --input=i64=6 --input=2xf32=0,1 --input=2xf32=1,1 | FileCheck %s

// Carried values that trade places: each iteration yields (y, x + y) and
// scans x. On Vulkan the yielded y is the carried tensor of y itself, so it
// is copied aside before x's tensor is overwritten (LoopLowering.cpp), and
// the validation layer sees every copy ordered against the kernels.

// CHECK:      output 0: tensor<2xf32> = [8, 13]
// CHECK-NEXT: output 1: tensor<2xf32> = [13, 21]
// CHECK-NEXT: output 2: tensor<6x2xf32> = [0, 1, 1, 1, 1, 2, 2, 3, ...]

func.func @main(%m: tensor<i64>, %a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<?x2xf32>) {
  %none = "onnx.NoValue"() {value} : () -> none
  %l:3 = "onnx.Loop"(%m, %none, %a, %b) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %x: tensor<2xf32>, %y: tensor<2xf32>):
    %s = "onnx.Add"(%x, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%cond, %y, %s, %x) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<?x2xf32>)
  return %l#0, %l#1, %l#2 : tensor<2xf32>, tensor<2xf32>, tensor<?x2xf32>
}

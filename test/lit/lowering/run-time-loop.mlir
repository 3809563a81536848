// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s
// RUN: onyx-opt %s --target=lavapipe --lower | onyx-opt | FileCheck %s

// A Loop whose trip count is an input runs as a gpu.loop: the trip count
// (max(M, 0), 0 where the initial condition is false: the Where and Max
// that onnx-flatten-control-flow puts before the loop) is host arithmetic,
// no kernel,
// the carried value a tensor of its own that the initial value is copied
// into, the scan output allocated at its N rows before the loop, and the
// body lowered once: each iteration copies its slice into row %i and its
// carried value back.
func.func @main(%m: tensor<i64>, %c: tensor<i1>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>) {
  %l:2 = "onnx.Loop"(%m, %c, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<4xf32>):
    %d = "onnx.Add"(%v, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %k = "onnx.Identity"(%cond) : (tensor<i1>) -> tensor<i1>
    "onnx.Yield"(%k, %d, %d) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>)
  return %l#0, %l#1 : tensor<4xf32>, tensor<?x4xf32>
}

// CHECK-NOT:  gpu.dispatch
// CHECK:      %[[C:.*]] = gpu.extract %arg1[0] : tensor<i1>
// CHECK:      %[[M:.*]] = gpu.extract %arg0[0] : tensor<i64>
// CHECK:      %[[ZERO:.*]] = gpu.constant 0
// CHECK:      %[[SEL:.*]] = gpu.select %[[C]], %[[M]], %[[ZERO]]
// CHECK:      gpu.maxi %[[SEL]], %[[ZERO]]
// CHECK:      %[[N:.*]] = gpu.maxi %{{.*}}, %[[ZERO]]
// CHECK-NOT:  gpu.dispatch
// CHECK:      %[[CARRIED:.*]] = gpu.alloc : !gpu.view<4xf32>
// CHECK:      gpu.copy %{{.*}}, %[[CARRIED]]
// CHECK:      %[[ROWS:.*]] = gpu.alloc(%[[N]]) : !gpu.view<?x4xf32>
// CHECK:      gpu.loop %[[N]] (%[[I:.*]]: index) {
// CHECK:        %[[SUM:.*]] = gpu.alloc : !gpu.view<4xf32>
// CHECK:        gpu.dispatch @add{{.*}}(%{{.*}}, %[[SUM]])
// CHECK:        %[[OFF:.*]] = gpu.muli %[[I]], %{{.*}}
// CHECK:        %[[ROW:.*]] = gpu.view %[[ROWS]][%[[OFF]]] : !gpu.view<?x4xf32> to !gpu.view<4xf32>
// CHECK:        gpu.copy %{{.*}}, %[[ROW]]
// CHECK:        gpu.copy %{{.*}}, %[[CARRIED]]
// CHECK-NEXT: }
// CHECK:      gpu.download
// CHECK:      gpu.download

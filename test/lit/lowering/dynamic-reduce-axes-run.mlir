// Reduce ops whose axes are an input of the run: one compiled kernel per op
// serves every set of axes (each dimension's "reduced" flag is a host value,
// the row sizes gpu.selects of the dims), run at three sets of axes against
// the reference backend with the validation layer: one axis, negative axes,
// every axis of an empty dimension (the identity). An axis out of range or
// named twice is an error of the run that names the node.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='2x3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;2xi64=0,2' \
// RUN:   --input-set='2x3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;2xi64=-1,-2' \
// RUN:   --input-set='2x0x4xf32=;2xi64=1,0' \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --input=2x3x4xf32=0 --input=2xi64=0,3 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANGE
// RUN: not onyx-run %s --input=2x3x4xf32=0 --input=2xi64=1,-2 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWICE
// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s --check-prefix=IR

// CHECK: compile: {{[0-9.]+}} ms
// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x3x1xf32> = [60, 92, 124]
// CHECK-NEXT: output 1: tensor<3xf32> = [7.5, 11.5, 15.5]
// CHECK-NEXT: output 2: tensor<1x3x1xf32> = [15, 19, 23]
// CHECK-COUNT-3: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1:
// CHECK-NEXT: output 0: tensor<2x1x1xf32> = [66, 210]
// CHECK-NEXT: output 1: tensor<2xf32> = [5.5, 17.5]
// CHECK-COUNT-3: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2:
// CHECK-NEXT: output 0: tensor<1x1x4xf32> = [0, 0, 0, 0]
// CHECK-NEXT: output 1: tensor<4xf32> = [nan, nan, nan, nan]
// CHECK-NEXT: output 2: tensor<1x1x4xf32> = [-inf, -inf, -inf, -inf]
// CHECK-COUNT-3: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

// RANGE: error: 'onnx.ReduceSum' op axis 3 is out of range for rank 3
// TWICE: error: 'onnx.ReduceSum' op names dimension 1 2 times in its axes

// The flags are host values; the kernel reads the selected sizes as push
// constants.
// IR: gpu.kernel @reduce_sum(read, write)
// IR: func.func @main
// IR: gpu.extract %arg1[0]
// IR: gpu.assert %{{.+}} {message = "'onnx.ReduceSum' op axis {0} is out of range for rank 3"}
// IR: gpu.assert %{{.+}} {message = "'onnx.ReduceSum' op names dimension {0} {1} times in its axes"}
// IR: gpu.select
// IR: gpu.alloc(%{{.+}}, %{{.+}}, %{{.+}}) : !gpu.view<?x?x?xf32>
// IR: gpu.dispatch @reduce_sum[

func.func @main(%x: tensor<?x?x?xf32>, %axes: tensor<2xi64>) -> (tensor<?x?x?xf32>, tensor<?xf32>, tensor<?x?x?xf32>) {
  %0 = "onnx.ReduceSum"(%x, %axes) : (tensor<?x?x?xf32>, tensor<2xi64>) -> tensor<?x?x?xf32>
  %1 = "onnx.ReduceMean"(%x, %axes) {keepdims = 0 : si64} : (tensor<?x?x?xf32>, tensor<2xi64>) -> tensor<?xf32>
  %2 = "onnx.ReduceMax"(%x, %axes) : (tensor<?x?x?xf32>, tensor<2xi64>) -> tensor<?x?x?xf32>
  return %0, %1, %2 : tensor<?x?x?xf32>, tensor<?xf32>, tensor<?x?x?xf32>
}

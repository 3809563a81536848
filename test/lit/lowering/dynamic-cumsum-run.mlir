// CumSum whose axis is an input of the run (and whose dims are known only
// then): one compiled kernel serves every axis, the host program picking the
// axis's length and stride among the dims. Run at three shapes and axes
// against the reference backend with the validation layer, an empty input
// included; an axis out of range is an error of the run naming the node.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='2x3xf32=1,2,3,4,5,6;i64=0' \
// RUN:   --input-set='2x3xf32=1,2,3,4,5,6;i64=-1' \
// RUN:   --input-set='4x1xf32=1,2,3,4;i64=0' \
// RUN:   --input-set='0x3xf32=;i64=1' \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --input=2x3xf32=0 --input=i64=2 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANGE
// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s --check-prefix=IR

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x3xf32> = [1, 2, 3, 5, 7, 9]
// CHECK-NEXT: output 1: tensor<2x3xf32> = [4, 5, 6, 0, 0, 0]
// CHECK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x3xf32> = [1, 3, 6, 4, 9, 15]
// CHECK-NEXT: output 1: tensor<2x3xf32> = [5, 3, 0, 11, 6, 0]
// CHECK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2:
// CHECK-NEXT: output 0: tensor<4x1xf32> = [1, 3, 6, 10]
// CHECK-NEXT: output 1: tensor<4x1xf32> = [9, 7, 4, 0]
// CHECK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 3:
// CHECK-NEXT: output 0: tensor<0x3xf32> = []
// CHECK-NEXT: output 1: tensor<0x3xf32> = []
// CHECK-NOT: FAIL

// RANGE: error: 'onnx.CumSum' op axis 2 is out of range for rank 2

// The axis is a host value; the length and stride of the axis are push
// constants picked with gpu.select.
// IR: gpu.kernel @cumsum(read, write) {{.*}}push_constants(ui32, ui32, ui32)
// IR: func.func @main
// IR: gpu.extract %arg1[0]
// IR: gpu.assert %{{.+}} {message = "'onnx.CumSum' op axis {0} is out of range for rank 2"}
// IR: gpu.select
// IR: gpu.dispatch @cumsum[

func.func @main(%x: tensor<?x?xf32>, %axis: tensor<i64>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = "onnx.CumSum"(%x, %axis) : (tensor<?x?xf32>, tensor<i64>) -> tensor<?x?xf32>
  %1 = "onnx.CumSum"(%x, %axis) {exclusive = 1 : si64, reverse = 1 : si64} : (tensor<?x?xf32>, tensor<i64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

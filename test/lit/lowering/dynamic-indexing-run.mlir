// GatherElements, ScatterElements (with a reduction), ScatterND, Pad in
// its four modes and Trilu with dims known only at run time, compiled once
// and run at three shapes in one process against the reference backend,
// with the validation layer. The row count of x, and the numbers of ids and
// of index tuples, change from run to run; Pad's reflect and wrap shift
// coordinates by a multiple of a period computed on the host.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11;3x4xi64=2,0,1,-1,0,0,2,1,-3,1,1,2;2x1xi64=2,-3;2x4xf32=100,101,102,103,104,105,106,107' \
// RUN:   --input-set='2x4xf32=0,1,2,3,4,5,6,7;1x4xi64=1,0,-1,-2;1x1xi64=1;1x4xf32=100,101,102,103' \
// RUN:   --input-set='5x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19;2x4xi64=4,3,2,1,0,-1,-2,-3;3x1xi64=4,0,-2;3x4xf32=100,101,102,103,104,105,106,107,108,109,110,111' \
// RUN:   | FileCheck %s

// CHECK: compile: {{[0-9.]+}} ms (10 kernels compiled)
// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-COUNT-10: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x4xf32> = [4, 1, 6, 3]
// CHECK-COUNT-10: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x4xf32>
// CHECK-NEXT: output 1: tensor<5x4xf32>
// CHECK-NEXT: output 2: tensor<5x4xf32>
// CHECK-NEXT: output 3: tensor<8x7xf32>
// CHECK-COUNT-10: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

func.func @main(%x: tensor<?x4xf32>, %gi: tensor<?x4xi64>, %si: tensor<?x1xi64>, %upd: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x7xf32>, tensor<?x7xf32>, tensor<?x7xf32>, tensor<?x7xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  %ge = "onnx.GatherElements"(%x, %gi) {axis = 0 : si64} : (tensor<?x4xf32>, tensor<?x4xi64>) -> tensor<?x4xf32>
  %se = "onnx.ScatterElements"(%x, %gi, %ge) {axis = 0 : si64, reduction = "add"} : (tensor<?x4xf32>, tensor<?x4xi64>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %sn = "onnx.ScatterND"(%x, %si, %upd) : (tensor<?x4xf32>, tensor<?x1xi64>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %pads = "onnx.Constant"() {value = dense<[2, 1, 1, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
  %pc = "onnx.Pad"(%x, %pads) {mode = "constant"} : (tensor<?x4xf32>, tensor<4xi64>) -> tensor<?x7xf32>
  %pe = "onnx.Pad"(%x, %pads) {mode = "edge"} : (tensor<?x4xf32>, tensor<4xi64>) -> tensor<?x7xf32>
  %pr = "onnx.Pad"(%x, %pads) {mode = "reflect"} : (tensor<?x4xf32>, tensor<4xi64>) -> tensor<?x7xf32>
  %pw = "onnx.Pad"(%x, %pads) {mode = "wrap"} : (tensor<?x4xf32>, tensor<4xi64>) -> tensor<?x7xf32>
  %tu = "onnx.Trilu"(%x) {upper = 1 : si64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %k = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %tl = "onnx.Trilu"(%x, %k) {upper = 0 : si64} : (tensor<?x4xf32>, tensor<i64>) -> tensor<?x4xf32>
  return %ge, %se, %sn, %pc, %pe, %pr, %pw, %tu, %tl, %tl : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x7xf32>, tensor<?x7xf32>, tensor<?x7xf32>, tensor<?x7xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}

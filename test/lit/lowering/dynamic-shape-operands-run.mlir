// Slice, Pad and Tile whose starts, ends, pads and repeats are inputs of the
// run (shape values of the host program), on a tensor with a `?` dim,
// compiled once and run at four shapes in one process against the
// reference backend with the validation layer: starts and ends of either
// sign clamped as ONNX specifies (a negative step too), an empty slice, a
// repeat of 0. Negative pads or repeats are an error of the run that names
// the node.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11;1xi64=1;1xi64=100;4xi64=1,0,0,2;2xi64=2,1' \
// RUN:   --input-set='5x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19;1xi64=-4;1xi64=-1;4xi64=2,1,1,0;2xi64=1,2' \
// RUN:   --input-set='2x4xf32=0,1,2,3,4,5,6,7;1xi64=-100;1xi64=1;4xi64=0,0,1,1;2xi64=1,1' \
// RUN:   --input-set='3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11;1xi64=2;1xi64=1;4xi64=1,0,0,2;2xi64=0,1' \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --input=3x4xf32=0 --input=1xi64=0 --input=1xi64=1 \
// RUN:   --input=4xi64=-1,0,0,0 --input=2xi64=1,1 2>&1 | FileCheck %s --check-prefix=PADS

// CHECK: compile: {{[0-9.]+}} ms (5 kernels compiled)
// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x4xf32> = [4, 5, 6, 7, 8, 9, 10, 11]
// CHECK-NEXT: output 1: tensor<1x4xf32> = [8, 9, 10, 11]
// CHECK-NEXT: output 2: tensor<4x6xf32>
// CHECK-NEXT: output 3: tensor<4x6xf32>
// CHECK-NEXT: output 4: tensor<6x4xf32>
// CHECK-COUNT-5: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1:
// CHECK-NEXT: output 0: tensor<3x4xf32>
// CHECK-NEXT: output 1: tensor<3x4xf32>
// CHECK-COUNT-5: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2:
// CHECK-NEXT: output 0: tensor<1x4xf32> = [0, 1, 2, 3]
// CHECK-NEXT: output 1: tensor<2x4xf32> = [4, 5, 6, 7, 0, 1, 2, 3]
// CHECK-COUNT-5: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 3:
// CHECK-NEXT: output 0: tensor<0x4xf32> = []
// CHECK: output 4: tensor<0x4xf32> = []
// CHECK-COUNT-5: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

// PADS: error: 'onnx.Pad' op pads known only at run time must not be negative on the GPU, got -1

func.func @main(%x: tensor<?x4xf32>, %st: tensor<1xi64>, %en: tensor<1xi64>, %pads: tensor<4xi64>, %reps: tensor<2xi64>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %ax = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %m1 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.Slice"(%x, %st, %en, %ax) : (tensor<?x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x4xf32>
  %1 = "onnx.Slice"(%x, %en, %st, %ax, %m1) : (tensor<?x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x4xf32>
  %2 = "onnx.Pad"(%x, %pads) {mode = "constant"} : (tensor<?x4xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  %3 = "onnx.Pad"(%x, %pads) {mode = "reflect"} : (tensor<?x4xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  %4 = "onnx.Tile"(%x, %reps) : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1, %2, %3, %4 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

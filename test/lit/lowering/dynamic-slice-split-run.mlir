// Slice whose axes and steps, Split whose sizes and Pad whose axes are
// inputs of the run, compiled once and run at three sets of operands against
// the reference backend with the validation layer: steps of either sign
// (strides as push constants added or subtracted), axes of either sign, a
// split size of 0. A step of 0, an axis named twice, split sizes that do not
// add up or a negative one are errors of the run that name the node.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11;2xi64=0,1;2xi64=3,4;2xi64=0,1;2xi64=1,2;2xi64=1,2;2xi64=0,1;4xi64=1,0,0,2' \
// RUN:   --input-set='3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11;2xi64=-1,-1;2xi64=-100,0;2xi64=-1,0;2xi64=-1,-2;2xi64=0,3;2xi64=-1,-2;4xi64=0,1,1,0' \
// RUN:   --input-set='3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11;2xi64=1,5;2xi64=0,-5;2xi64=1,0;2xi64=-3,2;2xi64=3,0;2xi64=1,0;4xi64=2,0,0,0' \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --input=3x4xf32=0 --input=2xi64=0,0 --input=2xi64=1,1 --input=2xi64=0,1 \
// RUN:   --input=2xi64=1,0 --input=2xi64=1,2 --input=2xi64=0,1 --input=4xi64=0,0,0,0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STEP
// RUN: not onyx-run %s --input=3x4xf32=0 --input=2xi64=0,0 --input=2xi64=1,1 --input=2xi64=1,-1 \
// RUN:   --input=2xi64=1,1 --input=2xi64=1,2 --input=2xi64=0,1 --input=4xi64=0,0,0,0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWICE
// RUN: not onyx-run %s --input=3x4xf32=0 --input=2xi64=0,0 --input=2xi64=1,1 --input=2xi64=0,1 \
// RUN:   --input=2xi64=1,1 --input=2xi64=1,1 --input=2xi64=0,1 --input=4xi64=0,0,0,0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SUM
// RUN: not onyx-run %s --input=3x4xf32=0 --input=2xi64=0,0 --input=2xi64=1,1 --input=2xi64=0,1 \
// RUN:   --input=2xi64=1,1 --input=2xi64=4,-1 --input=2xi64=0,1 --input=4xi64=0,0,0,0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEGATIVE

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<3x2xf32> = [1, 3, 5, 7, 9, 11]
// CHECK-NEXT: output 1: tensor<1x4xf32> = [0, 1, 2, 3]
// CHECK-NEXT: output 2: tensor<2x4xf32> = [4, 5, 6, 7, 8, 9, 10, 11]
// CHECK-NEXT: output 3: tensor<4x6xf32>
// CHECK-COUNT-4: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1:
// CHECK-NEXT: output 0: tensor<1x4xf32> = [11, 10, 9, 8]
// CHECK-NEXT: output 1: tensor<0x4xf32> = []
// CHECK-NEXT: output 2: tensor<3x4xf32>
// CHECK-NEXT: output 3: tensor<4x5xf32>
// CHECK-COUNT-4: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2:
// CHECK-NEXT: output 0: tensor<0x1xf32> = []
// CHECK-NEXT: output 1: tensor<3x4xf32>
// CHECK-NEXT: output 2: tensor<0x4xf32> = []
// CHECK-NEXT: output 3: tensor<3x6xf32>
// CHECK-COUNT-4: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

// STEP: error: 'onnx.Slice' op has a step of 0
// TWICE: error: 'onnx.Slice' op names dimension 1 2 times in its axes
// SUM: error: 'onnx.Split' op split sizes add up to 2, not the input's 3 along axis 0
// NEGATIVE: error: 'onnx.Split' op split size -1 of result 1 is negative

func.func @main(%x: tensor<?x?xf32>, %st: tensor<2xi64>, %en: tensor<2xi64>, %ax: tensor<2xi64>, %steps: tensor<2xi64>, %split: tensor<2xi64>, %pax: tensor<2xi64>, %pads: tensor<4xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %none = "onnx.NoValue"() {value} : () -> none
  %0 = "onnx.Slice"(%x, %st, %en, %ax, %steps) : (tensor<?x?xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %1:2 = "onnx.Split"(%x, %split) {axis = 0 : si64} : (tensor<?x?xf32>, tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  %2 = "onnx.Pad"(%x, %pads, %none, %pax) {mode = "constant"} : (tensor<?x?xf32>, tensor<4xi64>, none, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1#0, %1#1, %2 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

// Unique on Vulkan: sorted and unsorted, flattened and along an axis (a
// negative one), all four outputs, of a kernel's result with run-time dims,
// compiled once and run against the reference backend with the validation
// layer: repeated values, NaNs (equal to each other and after every number,
// as the reference orders them), an empty input, and items of no elements
// (a 0x3 input along its last axis: three equal empty items).

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='4x3xf32=2.5,1,2.2,0,0,0,2.1,1.9,2,0.5,0.1,0.2' \
// RUN:   --input-set='0x3xf32=' \
// RUN:   --input-set='2x3xf32=nan,1,nan,nan,1,nan' \
// RUN:   | FileCheck %s

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<3xf32> = [2, 1, 0]
// CHECK-NEXT: output 1: tensor<3xi64> = [0, 1, 3]
// CHECK-NEXT: output 2: tensor<12xi64> = [0, 1, 0, 2, 2, 2, 0, 1, ...]
// CHECK-NEXT: output 3: tensor<3xi64> = [4, 2, 6]
// CHECK-NEXT: output 4: tensor<2x3xf32> = [0, 0, 0, 2, 1, 2]
// CHECK-NEXT: output 5: tensor<2xi64> = [1, 0]
// CHECK-NEXT: output 6: tensor<4xi64> = [1, 0, 1, 0]
// CHECK-NEXT: output 7: tensor<2xi64> = [2, 2]
// CHECK-NEXT: output 8: tensor<4x2xf32> = [2, 1, 0, 0, 2, 1, 0, 0]
// CHECK-NEXT: output 9: tensor<2xi64> = [2, 1]
// CHECK-COUNT-10: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1:
// CHECK-NEXT: output 0: tensor<0xf32> = []
// CHECK-COUNT-7: output
// CHECK-NEXT: output 8: tensor<0x1xf32> = []
// CHECK-NEXT: output 9: tensor<1xi64> = [3]
// CHECK-COUNT-10: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2:
// CHECK-NEXT: output 0: tensor<2xf32> = [nan, 1]
// CHECK-NEXT: output 1: tensor<2xi64> = [0, 1]
// CHECK-NEXT: output 2: tensor<6xi64> = [0, 1, 0, 0, 1, 0]
// CHECK-NEXT: output 3: tensor<2xi64> = [4, 2]
// CHECK-NEXT: output 4: tensor<1x3xf32> = [nan, 1, nan]
// CHECK-COUNT-5: output
// CHECK-COUNT-10: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

func.func @main(%x: tensor<?x3xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?x?xf32>, tensor<?xi64>) {
  %f = "onnx.Floor"(%x) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %y0, %i0, %v0, %c0 = "onnx.Unique"(%f) {sorted = 0 : si64} : (tensor<?x3xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  %y1, %i1, %v1, %c1 = "onnx.Unique"(%f) {axis = 0 : si64} : (tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  %y2, %i2, %v2, %c2 = "onnx.Unique"(%f) {axis = -1 : si64, sorted = 0 : si64} : (tensor<?x3xf32>) -> (tensor<?x?xf32>, tensor<?xi64>, tensor<3xi64>, tensor<?xi64>)
  return %y0, %i0, %v0, %c0, %y1, %i1, %v1, %c1, %y2, %c2 : tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?x?xf32>, tensor<?xi64>
}

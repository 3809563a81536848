// NonZero and Compress whose data the host program knows (a condition or an
// input of the function of at most 16 elements): the count is host
// arithmetic on gpu.extracts that sizes the result, and the flags are push
// constants of one compiled kernel, run at three sets of values against the
// reference backend with the validation layer (none selected included).
// Data computed by kernels is read back (read-back-run.mlir).

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='3x2xf32=1,2,3,4,5,6;3xi1=0,1,1;2x3xi1=1,0,0,0,1,1' \
// RUN:   --input-set='3x2xf32=1,2,3,4,5,6;3xi1=1,0,0;2x3xi1=0,0,0,0,0,1' \
// RUN:   --input-set='3x2xf32=1,2,3,4,5,6;3xi1=0,0,0;2x3xi1=0,0,0,0,0,0' \
// RUN:   | FileCheck %s
// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s --check-prefix=IR

// Nothing is read back: the counts are host arithmetic.
// IR-NOT: gpu.read_count

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x2xf32> = [3, 4, 5, 6]
// CHECK-NEXT: output 1: tensor<2xf32> = [2, 3]
// CHECK-NEXT: output 2: tensor<2x3xi64> = [0, 1, 1, 0, 1, 2]
// CHECK-COUNT-3: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1:
// CHECK-NEXT: output 0: tensor<1x2xf32> = [1, 2]
// CHECK-NEXT: output 1: tensor<1xf32> = [1]
// CHECK-NEXT: output 2: tensor<2x1xi64> = [1, 2]
// CHECK-COUNT-3: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2:
// CHECK-NEXT: output 0: tensor<0x2xf32> = []
// CHECK-NEXT: output 1: tensor<0xf32> = []
// CHECK-NEXT: output 2: tensor<2x0xi64> = []
// CHECK-COUNT-3: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

func.func @main(%x: tensor<3x2xf32>, %c: tensor<3xi1>, %m: tensor<2x3xi1>) -> (tensor<?x2xf32>, tensor<?xf32>, tensor<2x?xi64>) {
  %0 = "onnx.Compress"(%x, %c) {axis = 0 : si64} : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<?x2xf32>
  %1 = "onnx.Compress"(%x, %c) : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<?xf32>
  %2 = "onnx.NonZero"(%m) : (tensor<2x3xi1>) -> tensor<2x?xi64>
  return %0, %1, %2 : tensor<?x2xf32>, tensor<?xf32>, tensor<2x?xi64>
}

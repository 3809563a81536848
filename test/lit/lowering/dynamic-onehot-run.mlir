// OneHot whose depth is an input of the run: a float depth is read by the
// host program (gpu.extract truncates it, as the reference does), an
// integer one is a shape value; either sizes the new axis and reaches the
// kernel as a push constant, so one compiled kernel serves every depth (and
// every number of indices). Run at three shapes against the reference
// backend with the validation layer; a depth below 1 or not finite is an
// error of the run naming the node.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='3xi64=0,-1,2;f32=3.7;i64=4;2xf32=0,5' \
// RUN:   --input-set='1xi64=1;f32=2;i64=1;2xf32=-1,1' \
// RUN:   --input-set='0xi64=;f32=5;i64=2;2xf32=0,1' \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --input=1xi64=0 --input=f32=0.5 --input=i64=1 --input=2xf32=0,1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SMALL
// RUN: not onyx-run %s --input=1xi64=0 --input=f32=nan --input=i64=1 --input=2xf32=0,1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAN
// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s --check-prefix=IR

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<3x3xf32> = [5, 0, 0, 0, 0, 5, 0, 0, ...]
// CHECK-NEXT: output 1: tensor<4x3xf32> = [5, 0, 0, 0, 0, 0, 0, 0, ...]
// CHECK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x2xf32> = [-1, 1]
// CHECK-NEXT: output 1: tensor<1x1xf32> = [-1]
// CHECK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2:
// CHECK-NEXT: output 0: tensor<0x5xf32> = []
// CHECK-NEXT: output 1: tensor<2x0xf32> = []
// CHECK-NOT: FAIL

// SMALL: error: 'onnx.OneHot' op operand 'depth' is 0, not positive
// NAN: error: element 0 (nan) is not a finite 64-bit integer

// IR: gpu.kernel @one_hot(read, read, write) {{.*}}push_constants(ui32, ui32)
// IR: func.func @main
// IR: %[[D:.+]] = gpu.extract %arg1[0] : tensor<f32>
// IR: gpu.assert %{{.+}}, %[[D]] {message = "'onnx.OneHot' op operand 'depth' is {0}, not positive"}
// IR: gpu.dispatch @one_hot[
// IR: gpu.extract %arg2[0] : tensor<i64>

func.func @main(%indices: tensor<?xi64>, %depth: tensor<f32>, %depth2: tensor<i64>, %values: tensor<2xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = "onnx.OneHot"(%indices, %depth, %values) : (tensor<?xi64>, tensor<f32>, tensor<2xf32>) -> tensor<?x?xf32>
  %1 = "onnx.OneHot"(%indices, %depth2, %values) {axis = 0 : si64} : (tensor<?xi64>, tensor<i64>, tensor<2xf32>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// A float Range whose start, limit and delta are inputs of the run: its
// length, max(ceil((limit - start) / delta), 0) in double precision as the
// reference computes it, is a gpu.range_count host op reading the three
// arguments, so one compiled kernel serves every set of bounds (an integer
// Range's length is integer host arithmetic). A delta of 0 is an error of
// the run that names the node.

// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s --check-prefix=IR
// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='f32=1;f32=5;f32=0.5;i64=10;i64=4;i64=-3' \
// RUN:   --input-set='f32=3;f32=-1;f32=-1.5;i64=0;i64=3;i64=1' \
// RUN:   --input-set='f32=1;f32=1;f32=2;i64=0;i64=-3;i64=1' \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --input=f32=1 --input=f32=2 --input=f32=0 \
// RUN:   --input=i64=0 --input=i64=1 --input=i64=1 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not onyx-run %s --input=f32=1 --input=f32=2 --input=f32=1 \
// RUN:   --input=i64=0 --input=i64=1 --input=i64=0 2>&1 | FileCheck %s --check-prefix=IZERO

// IR: %[[N:.+]] = gpu.range_count %arg0, %arg1, %arg2 : tensor<f32>
// IR: gpu.alloc(%[[N]]) : !gpu.view<?xf32>
// IR: gpu.assert %{{.+}} {message = "'onnx.Range' op delta must not be 0"}

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<8xf32> = [1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5]
// CHECK-NEXT: output 1: tensor<2xi64> = [10, 7]
// CHECK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1:
// CHECK-NEXT: output 0: tensor<3xf32> = [3, 1.5, 0]
// CHECK-NEXT: output 1: tensor<3xi64> = [0, 1, 2]
// CHECK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2:
// CHECK-NEXT: output 0: tensor<0xf32> = []
// CHECK-NEXT: output 1: tensor<0xi64> = []
// CHECK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

// ZERO: error: a range of start 1, limit 2 and delta 0: delta must not be 0
// IZERO: error: 'onnx.Range' op delta must not be 0

func.func @main(%start: tensor<f32>, %limit: tensor<f32>, %delta: tensor<f32>, %istart: tensor<i64>, %ilimit: tensor<i64>, %idelta: tensor<i64>) -> (tensor<?xf32>, tensor<?xi64>) {
  %0 = "onnx.Range"(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  %1 = "onnx.Range"(%istart, %ilimit, %idelta) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %0, %1 : tensor<?xf32>, tensor<?xi64>
}

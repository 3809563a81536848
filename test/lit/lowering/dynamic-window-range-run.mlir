// A float Range to a Cast of an integer input (as the window functions'
// expansions compute it): its bounds are integers of the host program, the
// count is the integer Range's, and a run-time check makes sure the Cast is
// exact in the float type (f16: within 2^11), so that the count agrees with
// the reference's double arithmetic.

// RUN: onyx-run %s --validate --check --input-set='i32=5' --input-set='i32=0' \
// RUN:   --input-set='i32=-2' | FileCheck %s
// RUN: not onyx-run %s --input=i32=4096 2>&1 | FileCheck %s --check-prefix=INEXACT

// CHECK: input set 0:
// CHECK-NEXT: output 0: tensor<5xf16> = [0, 1, 2, 3, 4]
// CHECK-NEXT: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1:
// CHECK-NEXT: output 0: tensor<0xf16> = []
// CHECK: input set 2:
// CHECK-NEXT: output 0: tensor<0xf16> = []
// CHECK-NOT: FAIL

// INEXACT: error: 'onnx.Range' op bound 4096 is beyond the integers its float type holds exactly (magnitude at most 2048) on the GPU

func.func @main(%n: tensor<i32>) -> tensor<?xf16> {
  %zero = onnx.Constant dense<0.0> : tensor<f16>
  %one = onnx.Constant dense<1.0> : tensor<f16>
  %limit = "onnx.Cast"(%n) {to = f16} : (tensor<i32>) -> tensor<f16>
  %r = "onnx.Range"(%zero, %limit, %one) : (tensor<f16>, tensor<f16>, tensor<f16>) -> tensor<?xf16>
  return %r : tensor<?xf16>
}

// TopK on Vulkan with k known only at run time: k is read on the host
// (the host program) and sizes the results and the kernel's push constants,
// so one compiled kernel serves every k; a k out of range fails the run at
// the op. Results are checked against the reference backend.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='2x5xf32=3,1,4,1,5,9,2,6,5,3;1xi64=3' \
// RUN:   --input-set='2x5xf32=3,1,4,1,5,9,2,6,5,3;1xi64=1' | FileCheck %s
// RUN: not onyx-run %s --input=2x5xf32=1 --input=1xi64=6 2>&1 | FileCheck %s --check-prefix=BIG-K

// CHECK: compile: {{[0-9.]+}} ms (1 kernels compiled)
// CHECK: input set 0: {{.*}} 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x3xf32> = [5, 4, 3, 9, 6, 5]
// CHECK-NEXT: output 1: tensor<2x3xi64> = [4, 2, 0, 0, 2, 3]
// CHECK-NEXT: output 0 vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NEXT: output 1 vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1: {{.*}} 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x1xf32> = [5, 9]
// CHECK-NEXT: output 1: tensor<2x1xi64> = [4, 0]
// CHECK-NEXT: output 0 vs ref: {{.*}} PASS
// CHECK-NEXT: output 1 vs ref: {{.*}} PASS

// BIG-K: topk-run.mlir:26:12: error: 'onnx.TopK' op operand 'K' is 6, larger than the dimension it selects from (5)

func.func @main(%x: tensor<2x5xf32>, %k: tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>) {
  %v, %i = "onnx.TopK"(%x, %k) : (tensor<2x5xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return %v, %i : tensor<2x?xf32>, tensor<2x?xi64>
}

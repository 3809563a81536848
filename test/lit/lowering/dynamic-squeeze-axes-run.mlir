// Squeeze and Unsqueeze whose axes are an input of the run: views whose dims
// move by gpu.selects of per-dimension flags, run at two sets of axes
// against the reference backend with the validation layer. Squeezing a
// dimension that is not 1, or an axis out of range, is an error of the run
// that names the node.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='1x3x1xf32=1,2,3;1xi64=0;2xi64=0,-1' \
// RUN:   --input-set='1x3x1xf32=1,2,3;1xi64=-1;2xi64=3,1' \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --input=1x3x1xf32=0 --input=1xi64=1 --input=2xi64=0,1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOT1
// RUN: not onyx-run %s --input=1x3x1xf32=0 --input=1xi64=0 --input=2xi64=0,5 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANGE

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<3x1xf32> = [2, 4, 6]
// CHECK-NEXT: output 1: tensor<1x1x3x1x1xf32> = [2, 4, 6]
// CHECK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1:
// CHECK-NEXT: output 0: tensor<1x3xf32> = [2, 4, 6]
// CHECK-NEXT: output 1: tensor<1x1x3x1x1xf32> = [2, 4, 6]
// CHECK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

// NOT1: error: 'onnx.Squeeze' op squeezes dimension 1 of size 3, not 1
// RANGE: error: 'onnx.Unsqueeze' op axis 5 is out of range for rank 5

func.func @main(%x: tensor<?x?x?xf32>, %sq: tensor<1xi64>, %unsq: tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?x?x?x?x?xf32>) {
  %y = "onnx.Add"(%x, %x) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %0 = "onnx.Squeeze"(%y, %sq) : (tensor<?x?x?xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  %1 = "onnx.Unsqueeze"(%y, %unsq) : (tensor<?x?x?xf32>, tensor<2xi64>) -> tensor<?x?x?x?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?x?x?x?xf32>
}

// DepthToSpace (both modes) and SpaceToDepth whose batch and spatial sizes
// are known only at run time: the block size is compiled in, the sizes are
// push constants, and one compilation runs at three shapes against the
// reference backend with the validation layer. A dimension that does not
// divide by the block is an error of the run at the node, on either backend.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='1x8x2x2xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31' \
// RUN:   --input-set='2x8x4x2xf32=-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3,-2,-1,0,1,2,3,4,-4,-3' \
// RUN:   --input-set='1x8x2x6xf32=0.5' \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --input-set=1x8x3x2xf32=1 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not onyx-run %s --backend=ref --input-set=1x8x3x2xf32=1 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s --check-prefix=IR

// IR: gpu.kernel @depth_to_space(read, write) {{.*}}push_constants(
// IR: func.func @main
// IR: gpu.dispatch @depth_to_space[
// IR: gpu.assert %{{.+}} {message = "'onnx.SpaceToDepth' op operand 'input' has {0} rows, not a multiple of 2"}
// IR: gpu.dispatch @space_to_depth[

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x2x4x4xf32>
// CHECK-NEXT: output 1: tensor<1x2x4x4xf32>
// CHECK-NEXT: output 2: tensor<1x32x1x1xf32>
// CHECK-COUNT-3: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x2x8x4xf32>
// CHECK-NEXT: output 1: tensor<2x2x8x4xf32>
// CHECK-NEXT: output 2: tensor<2x32x2x1xf32>
// CHECK-COUNT-3: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x2x4x12xf32>
// CHECK-NEXT: output 1: tensor<1x2x4x12xf32>
// CHECK-NEXT: output 2: tensor<1x32x1x3xf32>
// CHECK-COUNT-3: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

// ROWS: error: 'onnx.SpaceToDepth' op operand 'input' has 3 rows, not a multiple of 2

func.func @main(%x: tensor<?x8x?x?xf32>) -> (tensor<?x2x?x?xf32>, tensor<?x2x?x?xf32>, tensor<?x32x?x?xf32>) {
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 2 : si64} : (tensor<?x8x?x?xf32>) -> tensor<?x2x?x?xf32>
  %1 = "onnx.DepthToSpace"(%x) {blocksize = 2 : si64, mode = "CRD"} : (tensor<?x8x?x?xf32>) -> tensor<?x2x?x?xf32>
  %2 = "onnx.SpaceToDepth"(%x) {blocksize = 2 : si64} : (tensor<?x8x?x?xf32>) -> tensor<?x32x?x?xf32>
  return %0, %1, %2 : tensor<?x2x?x?xf32>, tensor<?x2x?x?xf32>, tensor<?x32x?x?xf32>
}

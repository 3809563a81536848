// GatherND: each tuple in the last dimension of `indices` picks a slice of
// `data`, after `batch_dims` leading dimensions that both share (the form
// torch's dynamo exporter emits for advanced indexing in every transformer).
// Constants fold; the Vulkan kernel agrees with the reference backend with
// dims known only at run time, at two shapes compiled once; indices out of
// range and batch dimensions that differ are errors.

// RUN: split-file %s %t
// RUN: onyx-opt %t/fold.mlir --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-run %t/run.mlir --validate --check \
// RUN:   --input-set='2x3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;2x2xi64=1,2,0,-1;2x1x1xi64=2,-2' \
// RUN:   --input-set='3x2x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;1x2xi64=2,1;3x1x1xi64=1,0,1' \
// RUN:   | FileCheck %s --check-prefix=VK
// RUN: not onyx-run %t/run.mlir --backend=ref \
// RUN:   --input=2x3x4xf32=1 --input=1x2xi64=1,3 --input=2x1x1xi64=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANGE
// RUN: not onyx-run %t/run.mlir --backend=ref \
// RUN:   --input=2x3x4xf32=1 --input=1x2xi64=0,0 --input=3x1x1xi64=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BATCH
// RUN: not onyx-run %t/run.mlir \
// RUN:   --input=2x3x4xf32=1 --input=1x2xi64=0,0 --input=3x1x1xi64=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BATCH-VK

//--- fold.mlir
// FOLD-LABEL: func.func @fold
// FOLD-NEXT: onnx.Constant dense<{{\[\[}}3, 4], [1, 2]]> : tensor<2x2xi32>
// FOLD-NEXT: onnx.Constant dense<[2, 3]> : tensor<2xi32>
// FOLD-NEXT: return
func.func @fold() -> (tensor<2x2xi32>, tensor<2xi32>) {
  %d = onnx.Constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %i = onnx.Constant dense<[[1], [0]]> : tensor<2x1xi64>
  %0 = "onnx.GatherND"(%d, %i) : (tensor<2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  // batch_dims = 1: row 0 picks its element 1, row 1 its element 0.
  %j = onnx.Constant dense<[[1], [0]]> : tensor<2x1xi64>
  %1 = "onnx.GatherND"(%d, %j) {batch_dims = 1 : si64} : (tensor<2x2xi32>, tensor<2x1xi64>) -> tensor<2xi32>
  return %0, %1 : tensor<2x2xi32>, tensor<2xi32>
}

//--- invalid.mlir
func.func @long_tuples(%x: tensor<2x3xf32>, %i: tensor<4x3xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{operand 'indices' index tuples have 3 entries, but 'data' has 2 dimensions after the batch dimensions}}
  %0 = "onnx.GatherND"(%x, %i) : (tensor<2x3xf32>, tensor<4x3xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @batch_dims(%x: tensor<2x3xf32>, %i: tensor<2x1xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{attribute 'batch_dims' is 2, expected 0 to 1}}
  %0 = "onnx.GatherND"(%x, %i) {batch_dims = 2 : si64} : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @batch_mismatch(%x: tensor<2x3xf32>, %i: tensor<3x1xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{batch dimension 0 is 2 in 'data' but 3 in 'indices'}}
  %0 = "onnx.GatherND"(%x, %i) {batch_dims = 1 : si64} : (tensor<2x3xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @i32(%x: tensor<2x3xf32>, %i: tensor<3x1xi32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{operand 'indices' must have element type i64, got i32}}
  %0 = "onnx.GatherND"(%x, %i) : (tensor<2x3xf32>, tensor<3x1xi32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

//--- run.mlir
// Slices of rank 1 (tuples of 2 into a rank-3 tensor) and, with
// batch_dims = 1, single elements per batch row.
// VK: input set 0: run
// VK-NEXT: output 0: tensor<2x4xf32> = [20, 21, 22, 23, 8, 9, 10, 11]
// VK-NEXT: output 1: tensor<2x1x4xf32> = [8, 9, 10, 11, 16, 17, 18, 19]
// VK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// VK: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// VK-NEXT: output 0: tensor<1x4xf32> = [20, 21, 22, 23]
// VK-NEXT: output 1: tensor<3x1x4xf32> = [4, 5, 6, 7, 8, 9, 10, 11, ...]
// VK-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// VK-NOT: FAIL
// RANGE: error: 'onnx.GatherND' op index 3 is out of range for a dimension of size 3
// BATCH: error: 'onnx.GatherND' op batch dimension 0 is 2 in 'data' but 3 in 'indices'
// BATCH-VK: error: 'onnx.GatherND' op batch dimension 0 is 2 in 'data' but 3 in 'indices'
func.func @main(%x: tensor<?x?x4xf32>, %i: tensor<?x2xi64>, %b: tensor<?x1x1xi64>) -> (tensor<?x4xf32>, tensor<?x1x4xf32>) {
  %0 = "onnx.GatherND"(%x, %i) : (tensor<?x?x4xf32>, tensor<?x2xi64>) -> tensor<?x4xf32>
  %1 = "onnx.GatherND"(%x, %b) {batch_dims = 1 : si64} : (tensor<?x?x4xf32>, tensor<?x1x1xi64>) -> tensor<?x1x4xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<?x1x4xf32>
}

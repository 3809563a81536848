// NonZero, Compress and Unique of data that kernels compute, inside a larger
// graph with run-time dims, compiled once and run at several sizes against
// the reference backend on lavapipe with the validation layer: each count is
// read back mid-run (gpu.read_count) and sizes the rest of the run. Empty
// results (nothing selected, an empty input), NaNs (equal to each other for
// Unique), inputs larger than the scanning workgroup, and a condition longer
// than the dimension it selects from (an error of the run at the node).
// Inputs/gen_read_back.py writes the larger inputs.

// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s --check-prefix=IR
// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='2x3xf32=0.1,0.9,0.7,0.2,0.3,0.8;2xf32=0,1' \
// RUN:   --input-set='1x3xf32=0,0,0;1xf32=1' \
// RUN:   --input-set='3x3xf32=1,2,3,4,5,6,7,8,-9;3xf32=0,0.1,0.2' \
// RUN:   --input-set='0x3xf32=;0xf32=' \
// RUN:   | FileCheck %s
// RUN: onyx-run %s --validate --check --input=@%S/Inputs/read_back_x.npy --input=@%S/Inputs/read_back_y.npy | FileCheck %s --check-prefix=LARGE
// RUN: not onyx-run %s --validate --input=2x3xf32=1 --input=3xf32=0 2>&1 | FileCheck %s --check-prefix=LONG

// IR: gpu.dispatch @select_scan
// IR: gpu.read_count %{{.+}} : !gpu.view<1xi32>
// IR: gpu.dispatch @nonzero_coordinates
// IR: gpu.dispatch @select_scan
// IR: gpu.read_count
// IR: gpu.dispatch @compress_gather
// IR: gpu.dispatch @unique_first
// IR: gpu.dispatch @unique_sorted_position
// IR: gpu.read_count
// IR: gpu.dispatch @unique_gather
// IR: gpu.dispatch @unique_counts

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x3xi64> = [0, 0, 1, 1, 2, 2]
// CHECK-NEXT: output 1: tensor<3xf32> = [0.80999994, 0.48999998, 0.64000005]
// CHECK-NEXT: output 2: tensor<1x3xf32> = [0.1, 0.9, 0.7]
// CHECK-NEXT: output 3: tensor<6xf32> = [1, 2, 3, 7, 8, 9]
// CHECK-NEXT: output 4: tensor<6xi64> = [0, 3, 4, 2, 5, 1]
// CHECK-NEXT: output 5: tensor<6xi64> = [0, 5, 3, 1, 2, 4]
// CHECK-NEXT: output 6: tensor<6xi64> = [1, 1, 1, 1, 1, 1]
// CHECK-COUNT-7: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1:
// CHECK-NEXT: output 0: tensor<2x0xi64> = []
// CHECK-NEXT: output 1: tensor<0xf32> = []
// CHECK-NEXT: output 2: tensor<0x3xf32> = []
// CHECK-NEXT: output 3: tensor<1xf32> = [0]
// CHECK-NEXT: output 4: tensor<1xi64> = [0]
// CHECK-NEXT: output 5: tensor<3xi64> = [0, 0, 0]
// CHECK-NEXT: output 6: tensor<1xi64> = [3]
// CHECK-COUNT-7: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2:
// CHECK-NEXT: output 0: tensor<2x8xi64> = [0, 0, 0, 1, 1, 1, 2, 2, ...]
// CHECK-NEXT: output 1: tensor<8xf32> = [1, 4, 9, 16, 25, 36, 49, 64]
// CHECK-NEXT: output 2: tensor<3x3xf32> = [1, 2, 3, 4, 5, 6, 7, 8, ...]
// CHECK-NEXT: output 3: tensor<9xf32> = [-90, 10, 20, 30, 40, 50, 60, 70, ...]
// CHECK-NEXT: output 4: tensor<9xi64> = [8, 0, 1, 2, 3, 4, 5, 6, ...]
// CHECK-COUNT-2: output
// CHECK-COUNT-7: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 3:
// CHECK-NEXT: output 0: tensor<2x0xi64> = []
// CHECK-NEXT: output 1: tensor<0xf32> = []
// CHECK-NEXT: output 2: tensor<0x3xf32> = []
// CHECK-NEXT: output 3: tensor<0xf32> = []
// CHECK-NEXT: output 4: tensor<0xi64> = []
// CHECK-NEXT: output 5: tensor<0xi64> = []
// CHECK-NEXT: output 6: tensor<0xi64> = []
// CHECK-COUNT-7: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

// LARGE: output 0: tensor<2x1033xi64>
// LARGE: output 2: tensor<361x3xf32>
// LARGE-COUNT-7: vs ref: max abs error 0, max rel error 0: PASS

// LONG: error: 'onnx.Compress' op operand 'condition' has 3 entries, more than the dimension it selects from (2)

func.func @main(%x: tensor<?x3xf32>, %y: tensor<?xf32>) -> (tensor<2x?xi64>, tensor<?xf32>, tensor<?x3xf32>, tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %z = onnx.Constant dense<0.5> : tensor<f32>
  %m = "onnx.Greater"(%x, %z) : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xi1>
  %nz = "onnx.NonZero"(%m) : (tensor<?x3xi1>) -> tensor<2x?xi64>
  %t = "onnx.Transpose"(%nz) {perm = [1, 0]} : (tensor<2x?xi64>) -> tensor<?x2xi64>
  %v = "onnx.GatherND"(%x, %t) : (tensor<?x3xf32>, tensor<?x2xi64>) -> tensor<?xf32>
  %w = "onnx.Mul"(%v, %v) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %c = "onnx.Less"(%y, %z) : (tensor<?xf32>, tensor<f32>) -> tensor<?xi1>
  %s = "onnx.Compress"(%x, %c) {axis = 0 : si64} : (tensor<?x3xf32>, tensor<?xi1>) -> tensor<?x3xf32>
  %r = "onnx.Relu"(%s) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %ten = onnx.Constant dense<10.0> : tensor<f32>
  %q = "onnx.Mul"(%x, %ten) : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
  %fl = "onnx.Floor"(%q) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %u, %ui, %uv, %uc = "onnx.Unique"(%fl) : (tensor<?x3xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  %u2 = "onnx.Add"(%u, %u) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %half = "onnx.Mul"(%u2, %z) : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %nz, %w, %r, %half, %ui, %uv, %uc : tensor<2x?xi64>, tensor<?xf32>, tensor<?x3xf32>, tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
}

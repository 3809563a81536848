// Data movement with dims known only at run time, compiled once and run at
// three shapes in one process against the reference backend, with the
// validation layer: a KV-cache Concat along a `?` axis (from an empty past
// in the second set), Transpose, Slices with constant starts and ends
// clamped to the run-time dim (the last two rows, and all rows backwards),
// a Split of a static axis, an embedding Gather with a `?x?` of ids
// (negative ones included), a Gather along a `?` axis, and a Tile.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='1x2x3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;1x2x2x4xf32=100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115;2x3xi64=0,4,-1,2,3,1;4xi32=0,4,-1,-5' \
// RUN:   --input-set='1x2x0x4xf32=;1x2x1x4xf32=100,101,102,103,104,105,106,107;1x1xi64=3;1xi32=0' \
// RUN:   --input-set='1x2x7x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55;1x2x5x4xf32=100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127,128,129,130,131,132,133,134,135,136,137,138,139;3x2xi64=4,4,0,-5,1,2;2xi32=11,-12' \
// RUN:   | FileCheck %s

// CHECK: compile: {{[0-9.]+}} ms (9 kernels compiled)
// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x5x2x4xf32> = [0, 1, 2, 3, 12, 13, 14, 15, ...]
// CHECK-NEXT: output 1: tensor<1x2x2x4xf32> = [100, 101, 102, 103, 104, 105, 106, 107, ...]
// CHECK-NEXT: output 2: tensor<1x2x5x4xf32> = [104, 105, 106, 107, 100, 101, 102, 103, ...]
// CHECK-NEXT: output 3: tensor<1x2x5x1xf32> = [0, 4, 8, 100, 104, 12, 16, 20, ...]
// CHECK-NEXT: output 4: tensor<1x2x5x3xf32> = [1, 2, 3, 5, 6, 7, 9, 10, ...]
// CHECK-NEXT: output 5: tensor<2x3x4xf32> = [0, 1, 2, 3, 40, 41, 42, 43, ...]
// CHECK-NEXT: output 6: tensor<1x2x4x4xf32> = [0, 1, 2, 3, 104, 105, 106, 107, ...]
// CHECK-NEXT: output 7: tensor<1x2x4x4xf32> = [100, 101, 102, 103, 104, 105, 106, 107, ...]
// CHECK-COUNT-8: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x1x2x4xf32> = [100, 101, 102, 103, 104, 105, 106, 107]
// CHECK-NEXT: output 1: tensor<1x2x1x4xf32>
// CHECK-NEXT: output 2: tensor<1x2x1x4xf32>
// CHECK-NEXT: output 3: tensor<1x2x1x1xf32> = [100, 104]
// CHECK-NEXT: output 4: tensor<1x2x1x3xf32> = [101, 102, 103, 105, 106, 107]
// CHECK-NEXT: output 5: tensor<1x1x4xf32> = [30, 31, 32, 33]
// CHECK-NEXT: output 6: tensor<1x2x1x4xf32>
// CHECK-NEXT: output 7: tensor<1x2x2x4xf32> = [100, 101, 102, 103, 100, 101, 102, 103, ...]
// CHECK-COUNT-8: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x12x2x4xf32>
// CHECK-COUNT-8: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

func.func @main(%past: tensor<1x2x?x4xf32>, %new: tensor<1x2x?x4xf32>, %ids: tensor<?x?xi64>, %pos: tensor<?xi32>) -> (tensor<1x?x2x4xf32>, tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>, tensor<1x2x?x1xf32>, tensor<1x2x?x3xf32>, tensor<?x?x4xf32>, tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>) {
  %kv = "onnx.Concat"(%past, %new) {axis = 2 : si64} : (tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>) -> tensor<1x2x?x4xf32>
  %t = "onnx.Transpose"(%kv) {perm = [0, 2, 1, 3]} : (tensor<1x2x?x4xf32>) -> tensor<1x?x2x4xf32>
  %m2 = "onnx.Constant"() {value = dense<[-2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %m1 = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %big = "onnx.Constant"() {value = dense<[9223372036854775807]> : tensor<1xi64>} : () -> tensor<1xi64>
  %small = "onnx.Constant"() {value = dense<[-9223372036854775807]> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = "onnx.Constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %last2 = "onnx.Slice"(%kv, %m2, %big, %ax) : (tensor<1x2x?x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x?x4xf32>
  %rev = "onnx.Slice"(%kv, %m1, %small, %ax, %m1) : (tensor<1x2x?x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x?x4xf32>
  %split = "onnx.Constant"() {value = dense<[1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %a, %b = "onnx.Split"(%kv, %split) {axis = 3 : si64} : (tensor<1x2x?x4xf32>, tensor<2xi64>) -> (tensor<1x2x?x1xf32>, tensor<1x2x?x3xf32>)
  %table = "onnx.Constant"() {value = dense<[[0.0, 1.0, 2.0, 3.0], [10.0, 11.0, 12.0, 13.0], [20.0, 21.0, 22.0, 23.0], [30.0, 31.0, 32.0, 33.0], [40.0, 41.0, 42.0, 43.0]]> : tensor<5x4xf32>} : () -> tensor<5x4xf32>
  %emb = "onnx.Gather"(%table, %ids) {axis = 0 : si64} : (tensor<5x4xf32>, tensor<?x?xi64>) -> tensor<?x?x4xf32>
  %rows = "onnx.Gather"(%kv, %pos) {axis = 2 : si64} : (tensor<1x2x?x4xf32>, tensor<?xi32>) -> tensor<1x2x?x4xf32>
  %reps = "onnx.Constant"() {value = dense<[1, 1, 2, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %tile = "onnx.Tile"(%new, %reps) : (tensor<1x2x?x4xf32>, tensor<4xi64>) -> tensor<1x2x?x4xf32>
  return %t, %last2, %rev, %a, %b, %emb, %rows, %tile : tensor<1x?x2x4xf32>, tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>, tensor<1x2x?x1xf32>, tensor<1x2x?x3xf32>, tensor<?x?x4xf32>, tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>
}

// Dims known only at run time that an op needs equal are checked on the
// host before the run is recorded: a mismatch fails the run at the node
// instead of letting a kernel write outside a tensor.

// RUN: onyx-run %s --validate --input-set='2x3xf32=1,2,3,4,5,6;1x3xf32=7,8,9' | FileCheck %s
// RUN: not onyx-run %s --input-set='2x3xf32=1,2,3,4,5,6;1x4xf32=7,8,9,10' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISMATCH

// CHECK: output 0: tensor<3x3xf32> = [1, 2, 3, 4, 5, 6, 7, 8, ...]
// MISMATCH: error: 'onnx.Concat' op input 1 has 4 elements along axis 1 where input 0 has 3

func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = "onnx.Concat"(%a, %b) {axis = 0 : si64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// onyx-run reads onnx-dialect modules: an op of a dialect it does not
// load is a located error, not a crash.

// RUN: not onyx-run %s --input=2xf32=1,2 2>&1 | FileCheck %s
// CHECK: other-dialects.mlir:[[@LINE+3]]:8: error: operation 'test.unknown' of unregistered dialect 'test'

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "test.unknown"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

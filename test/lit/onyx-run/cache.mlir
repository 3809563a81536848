// --cache-dir keeps compiled kernels (and the device's pipeline cache, where
// the driver fills one) between processes: the second run of the same model
// compiles nothing. 'none' turns the cache off, as the environment variable
// ONYX_CACHE_DIR=none does for the rest of the tests.

// RUN: rm -rf %t
// RUN: onyx-run %s --cache-dir=%t --input-set='4xf32=1,-2,3,-4' \
// RUN:   | FileCheck %s --check-prefix=FIRST
// RUN: onyx-run %s --cache-dir=%t --input-set='4xf32=1,-2,3,-4' \
// RUN:   | FileCheck %s --check-prefix=SECOND
// RUN: onyx-run %s --cache-dir=none --input-set='4xf32=1,-2,3,-4' \
// RUN:   | FileCheck %s --check-prefix=NONE
// RUN: env ONYX_CACHE_DIR=%t onyx-run %s --input-set='4xf32=1,-2,3,-4' \
// RUN:   | FileCheck %s --check-prefix=SECOND

// FIRST: compile: {{[0-9.]+}} ms (2 kernels compiled, 0 read from the cache)
// FIRST: output 0: tensor<4xf32> = [2, 0, 4, 0]
// SECOND: compile: {{[0-9.]+}} ms (0 kernels compiled, 2 read from the cache)
// SECOND: output 0: tensor<4xf32> = [2, 0, 4, 0]
// NONE: compile: {{[0-9.]+}} ms (2 kernels compiled), load

func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %0 = "onnx.Add"(%x, %one) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = "onnx.Relu"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "onnx.Neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

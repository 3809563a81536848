// RUN: onyx-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --target=lavapipe --lower
// RUN: not onyx-opt %s --target=bogus --lower 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not onyx-opt %s --target="{features = [\"quantum\"]}" --lower 2>&1 | FileCheck %s --check-prefix=FEATURE

// TARGET: for the --target option: unknown target 'bogus'; expected vulkan, lavapipe, nvidia or a dictionary
// FEATURE: 'gpu.target' has unknown feature 'quantum'

// Kernels bake shapes in: a dynamic dimension left over is an error that
// says how to bind it.
// expected-error @+1 {{argument #0 of @dyn has type tensor<?x4xf32> without a static shape; bind its symbolic dimensions (--bind-dims=NAME=N) to lower it}}
func.func @dyn(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'onnx.Relu' op result #0 of type tensor<?x4xf32> has no static shape}}
  %0 = "onnx.Relu"(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Only onnx ops lower.
func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'foo.bar' op cannot be lowered to the GPU: only onnx ops can}}
  %0 = "foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// RUN: onyx-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --target=lavapipe --lower
// RUN: not onyx-opt %s --target=bogus --lower 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not onyx-opt %s --target="{features = [\"quantum\"]}" --lower 2>&1 | FileCheck %s --check-prefix=FEATURE

// TARGET: for the --target option: unknown target 'bogus'; expected vulkan, lavapipe, nvidia or a dictionary
// FEATURE: 'gpu.target' has unknown feature 'quantum'

// A dimension known only at run time needs a generator that handles it
// (elementwise ones and MatMul do); elsewhere it is an error that says how
// to bind it.
func.func @dyn(%x: tensor<?x1x4x4xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<?x2x6x6xf32> {
  %0 = "onnx.Relu"(%x) : (tensor<?x1x4x4xf32>) -> tensor<?x1x4x4xf32>
  // expected-error @+1 {{'onnx.ConvTranspose' op has a tensor without a static shape and no kernel for run-time dimensions yet; bind symbolic dimensions (--bind-dims=NAME=N) to lower it}}
  %1 = "onnx.ConvTranspose"(%0, %w) : (tensor<?x1x4x4xf32>, tensor<1x2x3x3xf32>) -> tensor<?x2x6x6xf32>
  return %1 : tensor<?x2x6x6xf32>
}

// -----

// Only onnx ops lower.
func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'foo.bar' op cannot be lowered to the GPU: only onnx ops can}}
  %0 = "foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

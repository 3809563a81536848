// onnx.RNN on the reference backend and on Vulkan (unrolled by
// onnx-unroll-recurrent, the length a run-time input) with a linear cell (Affine, alpha 1,
// beta 0: h_t = x_t * w + h_{t-1} * r), both directions and a sequence
// length shorter than the sequence: the reverse direction starts at the
// last valid step, and steps past the length write zeros to Y and leave
// the state alone.
// RUN: onyx-run %s --backend=ref --input=3x1x1xf32=1,2,3 --input=1xi32=2 | FileCheck %s
// RUN: onyx-run %s --backend=ref --input=3x1x1xf32=1,2,3 --input=1xi32=3 | FileCheck %s --check-prefix=FULL
// RUN: onyx-run %s --validate --input=3x1x1xf32=1,2,3 --input=1xi32=2 | FileCheck %s
// RUN: onyx-run %s --validate --input=3x1x1xf32=1,2,3 --input=1xi32=3 | FileCheck %s --check-prefix=FULL

// CHECK:      output 0: tensor<3x2x1x1xf32> = [1, 2, 2.5, 2, 0, 0]
// CHECK-NEXT: output 1: tensor<2x1x1xf32> = [2.5, 2]

// FULL:      output 0: tensor<3x2x1x1xf32> = [1, 2.75, 2.5, 3.5, 4.25, 3]
// FULL-NEXT: output 1: tensor<2x1x1xf32> = [4.25, 2.75]

func.func @main(%x: tensor<3x1x1xf32>, %len: tensor<1xi32>) -> (tensor<3x2x1x1xf32>, tensor<2x1x1xf32>) {
  %w = onnx.Constant dense<1.0> : tensor<2x1x1xf32>
  %r = onnx.Constant dense<0.5> : tensor<2x1x1xf32>
  %b = onnx.Constant dense<0.0> : tensor<2x2xf32>
  %y, %h = "onnx.RNN"(%x, %w, %r, %b, %len) {activation_alpha = [1.0 : f32, 1.0 : f32], activation_beta = [0.0 : f32, 0.0 : f32], activations = ["Affine", "Affine"], direction = "bidirectional"} : (tensor<3x1x1xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>, tensor<2x2xf32>, tensor<1xi32>) -> (tensor<3x2x1x1xf32>, tensor<2x1x1xf32>)
  return %y, %h : tensor<3x2x1x1xf32>, tensor<2x1x1xf32>
}

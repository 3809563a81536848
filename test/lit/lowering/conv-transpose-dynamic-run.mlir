// ConvTranspose whose batch and spatial sizes are known only at run time:
// the channels, kernel, strides and dilations are compiled in; the output
// sizes are host arithmetic (from the pads, or output_shape and auto_pad
// SAME_UPPER, whose pads then depend on the input's size and reach the
// kernel as push constants). One compilation runs at three shapes against
// the reference backend with the validation layer; pads that leave no
// output are an error of the run at the node.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='1x4x3x5xf32=-3,-2,-1,0,1,2,3,-3,-2,-1,0,1,2,3,-3,-2,-1,0,1,2,3,-3,-2,-1,0,1,2,3,-3,-2,-1,0,1,2,3,-3,-2,-1,0,1,2,3,-3,-2,-1,0,1,2,3,-3,-2,-1,0,1,2,3,-3,-2,-1,0' \
// RUN:   --input-set='2x4x2x4xf32=-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1,2,-2,-1,0,1' \
// RUN:   --input-set='1x4x4x1xf32=-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1,0,1,-1' \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --input-set=1x4x1x1xf32=1 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s --check-prefix=IR

// IR: gpu.kernel @conv_transpose(read, read, read, write) {{.*}}push_constants(
// IR: gpu.kernel @conv_transpose_1(read, read, write) {{.*}}push_constants(
// IR: func.func @main
// IR: gpu.assert {{.*}} {message = "'onnx.ConvTranspose' op pads of 5 leave no output in spatial dimension 0 (of size {0})"}
// IR: gpu.dispatch @conv_transpose[
// IR: gpu.maxi
// IR: gpu.dispatch @conv_transpose_1[

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x3x3x5xf32>
// CHECK-NEXT: output 1: tensor<1x6x9x7xf32>
// CHECK-NEXT: output 2: tensor<1x3x6x10xf32>
// CHECK-COUNT-3: vs ref: max abs error {{.*}}: PASS
// CHECK: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x3x1x4xf32>
// CHECK-NEXT: output 1: tensor<2x6x9x7xf32>
// CHECK-NEXT: output 2: tensor<2x3x4x8xf32>
// CHECK-COUNT-3: vs ref: max abs error {{.*}}: PASS
// CHECK: input set 2: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x3x5x1xf32>
// CHECK-NEXT: output 1: tensor<1x6x9x7xf32>
// CHECK-NEXT: output 2: tensor<1x3x8x2xf32>
// CHECK-COUNT-3: vs ref: max abs error {{.*}}: PASS
// CHECK-NOT: FAIL

// EMPTY: error: 'onnx.ConvTranspose' op pads of 5 leave no output in spatial dimension 0 (of size 4)

func.func @main(%x: tensor<?x4x?x?xf32>) -> (tensor<?x3x?x?xf32>, tensor<?x6x9x7xf32>, tensor<?x3x?x?xf32>) {
  %w = onnx.Constant dense<[[[[-0.75, -0.5], [-0.25, 0.0], [0.25, 0.5]], [[0.75, -0.75], [-0.5, -0.25], [0.0, 0.25]], [[0.5, 0.75], [-0.75, -0.5], [-0.25, 0.0]]], [[[0.25, 0.5], [0.75, -0.75], [-0.5, -0.25]], [[0.0, 0.25], [0.5, 0.75], [-0.75, -0.5]], [[-0.25, 0.0], [0.25, 0.5], [0.75, -0.75]]], [[[-0.5, -0.25], [0.0, 0.25], [0.5, 0.75]], [[-0.75, -0.5], [-0.25, 0.0], [0.25, 0.5]], [[0.75, -0.75], [-0.5, -0.25], [0.0, 0.25]]], [[[0.5, 0.75], [-0.75, -0.5], [-0.25, 0.0]], [[0.25, 0.5], [0.75, -0.75], [-0.5, -0.25]], [[0.0, 0.25], [0.5, 0.75], [-0.75, -0.5]]]]> : tensor<4x3x3x2xf32>
  %b = onnx.Constant dense<[0.5, -1.0, 2.0]> : tensor<3xf32>
  %0 = "onnx.ConvTranspose"(%x, %w, %b) {output_padding = [1, 0], pads = [3, 0, 2, 1], strides = [2, 1]} : (tensor<?x4x?x?xf32>, tensor<4x3x3x2xf32>, tensor<3xf32>) -> tensor<?x3x?x?xf32>
  %1 = "onnx.ConvTranspose"(%x, %w) {group = 2 : si64, output_shape = [9, 7], strides = [3, 1]} : (tensor<?x4x?x?xf32>, tensor<4x3x3x2xf32>) -> tensor<?x6x9x7xf32>
  %2 = "onnx.ConvTranspose"(%x, %w) {auto_pad = "SAME_UPPER", dilations = [2, 2], strides = [2, 2]} : (tensor<?x4x?x?xf32>, tensor<4x3x3x2xf32>) -> tensor<?x3x?x?xf32>
  return %0, %1, %2 : tensor<?x3x?x?xf32>, tensor<?x6x9x7xf32>, tensor<?x3x?x?xf32>
}

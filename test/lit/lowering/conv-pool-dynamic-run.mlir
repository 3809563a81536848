// Conv (with its bias and a fused Relu), MaxPool (ceil mode, with Indices)
// and AveragePool (count_include_pad) whose batch and spatial sizes are
// known only at run time: kernel sizes, strides and pads are compiled in,
// the output sizes are host arithmetic, and one compilation runs at three
// sizes against the reference backend with the validation layer. A window
// that does not fit the padded input is an error of the run at the node, and
// auto_pad SAME_UPPER over a `?` is refused when compiling.
// Inputs/gen_conv_pool.py writes the inputs.

// RUN: onyx-run %s --validate --check --input-set=@%S/Inputs/conv_pool_1x2x5x5.npy \
// RUN:   --input-set=@%S/Inputs/conv_pool_2x2x8x6.npy --input-set=1x2x4x4xf32=0.5 \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --validate --input-set=1x2x1x1xf32=1 2>&1 | FileCheck %s --check-prefix=FIT
// RUN: not onyx-run %s --validate --input=1x2x1x1xf32=1 2>&1 | FileCheck %s --check-prefix=FIT
// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s --check-prefix=IR
// RUN: onyx-opt %S/Inputs/conv-same-dynamic.mlir --verify-diagnostics --target=lavapipe --lower

// The output sizes are host arithmetic, with the checks of the run.
// IR: gpu.assert {{.*}} {message = "{{.*}}window of size 3 does not fit spatial dimension 0 of size {0} with its padding"}
// IR: gpu.dispatch @conv
// IR: gpu.assert {{.*}} {message = "{{.*}}window of size 2 does not fit spatial dimension 0 of size {0} with its padding"}
// IR: gpu.dispatch @max_pool
// IR: gpu.dispatch @average_pool

// CHECK: compile: {{.*}}
// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x3x3x3xf32>
// CHECK-NEXT: output 1: tensor<1x3x2x2xf32>
// CHECK-NEXT: output 2: tensor<1x3x2x2xi64>
// CHECK-NEXT: output 3: tensor<1x3x3x3xf32>
// CHECK-COUNT-4: vs ref: {{.*}}: PASS
// CHECK: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x3x4x3xf32>
// CHECK-NEXT: output 1: tensor<2x3x2x2xf32>
// CHECK-NEXT: output 2: tensor<2x3x2x2xi64>
// CHECK-NEXT: output 3: tensor<2x3x4x3xf32>
// CHECK-COUNT-4: vs ref: {{.*}}: PASS
// CHECK: input set 2: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x3x2x2xf32>
// CHECK-NEXT: output 1: tensor<1x3x1x1xf32>
// CHECK-NEXT: output 2: tensor<1x3x1x1xi64>
// CHECK-NEXT: output 3: tensor<1x3x2x2xf32>
// CHECK-COUNT-4: vs ref: {{.*}}: PASS
// CHECK-NOT: FAIL

// FIT: error: {{.*}}window of size 2 does not fit spatial dimension 0 of size 1 with its padding

func.func @main(%x: tensor<?x2x?x?xf32>) -> (tensor<?x3x?x?xf32>, tensor<?x3x?x?xf32>, tensor<?x3x?x?xi64>, tensor<?x3x?x?xf32>) {
  %w = onnx.Constant dense<[[[[0.125, 0.375, 0.125], [-0.625, 0.5, 0.25], [-0.25, 0.25, 0.125]], [[0.125, 0.0, 0.25], [-0.375, -0.125, -0.25], [0.25, 0.0, -0.125]]], [[[-0.375, -0.125, 0.0], [-0.125, 0.625, 0.5], [-1.375, -1.0, -0.125]], [[-0.25, 0.125, 0.125], [1.0, -0.5, -0.25], [1.0, 0.375, 0.375]]], [[[-0.25, -0.875, 0.125], [0.0, -0.625, -0.375], [0.0, -0.5, 0.0]], [[0.0, 0.0, -0.25], [0.25, 0.5, 0.125], [-0.375, 0.375, -0.25]]]]> : tensor<3x2x3x3xf32>
  %b = onnx.Constant dense<[0.5, -0.5, 0.5]> : tensor<3xf32>
  %c = "onnx.Conv"(%x, %w, %b) {kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<?x2x?x?xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<?x3x?x?xf32>
  %r = "onnx.Relu"(%c) : (tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32>
  %m, %i = "onnx.MaxPool"(%r) {kernel_shape = [2, 2], strides = [2, 2], ceil_mode = 1 : si64} : (tensor<?x3x?x?xf32>) -> (tensor<?x3x?x?xf32>, tensor<?x3x?x?xi64>)
  %a = "onnx.AveragePool"(%r) {kernel_shape = [3, 3], pads = [1, 1, 1, 1], count_include_pad = 1 : si64} : (tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32>
  return %r, %m, %i, %a : tensor<?x3x?x?xf32>, tensor<?x3x?x?xf32>, tensor<?x3x?x?xi64>, tensor<?x3x?x?xf32>
}

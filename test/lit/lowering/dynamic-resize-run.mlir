// Resize whose scales, sizes and roi are inputs of the run, over an input
// whose spatial dims are known only then: one compiled kernel per op serves
// every scale. The output sizes are host values (gpu.scale_dim for a scale
// given at run time, the sizes a shape value, exact integer arithmetic for a
// constant scale over a `?` dim); the kernel reads a run-time scale and roi
// from their tensors and computes each coordinate's terms. Run at three
// shapes and sets of scales against the reference backend with the
// validation layer; a scale that is not positive, or a negative size, is an
// error of the run naming the node.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='1x1x4x4xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16;4xf32=1,1,0.6,1.7;2xi64=3,5;4xf32=0.1,0.2,0.9,0.7' \
// RUN:   --input-set='1x1x2x3xf32=1,-2,3,4,0.5,6;4xf32=1,1,2,2;2xi64=4,1;4xf32=0,0,1,1' \
// RUN:   --input-set='1x1x5x1xf32=5,4,3,2,1;4xf32=1,1,0.5,3;2xi64=1,2;4xf32=0.3,0,0.6,1' \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --input=1x1x2x2xf32=1 --input=4xf32=1,1,0,2 --input=2xi64=1,1 --input=4xf32=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SCALE
// RUN: not onyx-run %s --input=1x1x2x2xf32=1 --input=4xf32=1,1,1,1 --input=2xi64=-1,1 --input=4xf32=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SIZE
// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s --check-prefix=IR

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x1x2x6xf32>
// CHECK-NEXT: output 1: tensor<1x1x3x5xf32>
// CHECK-NEXT: output 2: tensor<1x1x3x5xf32>
// CHECK-NEXT: output 3: tensor<1x1x8x2xf32>
// CHECK-COUNT-4: vs ref: max abs error {{.*}}: PASS
// CHECK: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x1x4x6xf32>
// CHECK-NEXT: output 1: tensor<1x1x4x1xf32>
// CHECK-NEXT: output 2: tensor<1x1x4x1xf32>
// CHECK-NEXT: output 3: tensor<1x1x4x1xf32>
// CHECK-COUNT-4: vs ref: max abs error {{.*}}: PASS
// CHECK: input set 2: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x1x2x3xf32>
// CHECK-NEXT: output 1: tensor<1x1x1x2xf32>
// CHECK-NEXT: output 2: tensor<1x1x1x2xf32>
// CHECK-NEXT: output 3: tensor<1x1x10x0xf32> = []
// CHECK-COUNT-4: vs ref: max abs error {{.*}}: PASS
// CHECK-NOT: FAIL

// SCALE: error: a scale of 0 is not positive and finite
// SIZE: error: 'onnx.Resize' op operand 'sizes' has -1, a negative size

// IR: gpu.kernel @resize(read, write, read)
// IR: gpu.kernel @resize_1(read, write)
// IR: gpu.kernel @resize_2(read, write, read)
// IR: gpu.kernel @resize_3(read, write)
// IR: func.func @main
// IR: gpu.scale_dim %{{.+}}, %arg1[2] : tensor<4xf32>
// IR: gpu.scale_dim %{{.+}}, %arg1[3] : tensor<4xf32>
// IR: gpu.dispatch @resize[
// IR: gpu.extract %arg2[0] : tensor<2xi64>
// IR: gpu.dispatch @resize_1[
// IR: gpu.dispatch @resize_2[
// The constant scales 2 and 0.6 (0.6f = 10066330 / 2^24) over `?` dims:
// IR: gpu.muli %{{.+}}, %{{.+}}
// IR: gpu.floordivi
// IR: gpu.dispatch @resize_3[

func.func @main(%x: tensor<1x1x?x?xf32>, %scales: tensor<4xf32>, %sizes: tensor<2xi64>, %roi: tensor<4xf32>) -> (tensor<?x?x?x?xf32>, tensor<1x1x?x?xf32>, tensor<1x1x?x?xf32>, tensor<1x1x?x?xf32>) {
  %none = "onnx.NoValue"() {value} : () -> none
  %0 = "onnx.Resize"(%x, %none, %scales) {mode = "linear"} : (tensor<1x1x?x?xf32>, none, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  %1 = "onnx.Resize"(%x, %none, %none, %sizes) {axes = [2, 3], coordinate_transformation_mode = "asymmetric", nearest_mode = "ceil"} : (tensor<1x1x?x?xf32>, none, none, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  %2 = "onnx.Resize"(%x, %roi, %none, %sizes) {axes = [2, 3], coordinate_transformation_mode = "tf_crop_and_resize", mode = "linear", extrapolation_value = 7.0 : f32} : (tensor<1x1x?x?xf32>, tensor<4xf32>, none, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  %s = onnx.Constant dense<[1.0, 1.0, 2.0, 0.6]> : tensor<4xf32>
  %3 = "onnx.Resize"(%x, %none, %s) {mode = "cubic", exclude_outside = 1 : si64} : (tensor<1x1x?x?xf32>, none, tensor<4xf32>) -> tensor<1x1x?x?xf32>
  return %0, %1, %2, %3 : tensor<?x?x?x?xf32>, tensor<1x1x?x?xf32>, tensor<1x1x?x?xf32>, tensor<1x1x?x?xf32>
}

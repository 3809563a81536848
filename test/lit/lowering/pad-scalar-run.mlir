// A Pad of a scalar by empty pads (ONNX allows it: the pads input has
// 2 * rank = 0 elements) has nothing to pad; on the device its one element
// is copied. The lowering used to index the scalar's missing first dim
// (an assertion, or a read out of bounds without assertions), found by
// fuzz-differential (corpus differential/pad-rank0-vulkan).

// RUN: onyx-run %s --validate --check --rtol=0 --atol=0 --input=f32=-2.5 \
// RUN:   | FileCheck %s
// CHECK: output 0: tensor<f32> = [-2.5]
// CHECK: output 0 vs ref: {{.*}}: PASS

func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %pads = onnx.Constant dense<> : tensor<0xi64>
  %0 = "onnx.Pad"(%x, %pads) : (tensor<f32>, tensor<0xi64>) -> tensor<f32>
  return %0 : tensor<f32>
}

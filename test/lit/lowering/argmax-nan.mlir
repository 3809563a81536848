// ArgMax and ArgMin with NaNs, on lavapipe against the reference backend: a
// NaN is taken only where it is the first element of its row (the
// reference's scan, and onyx-run --generate's greedy pick on the host, which
// the device's pick must match), whatever order the invocations of a
// workgroup meet the elements in. Rows of 600 spread over a workgroup:
// row 0 starts with a NaN, row 1 has NaNs from its second element on, every 7th, and its largest value
// twice (the first one wins), row 2 is all NaN, row 3 has none.

// RUN: %python %S/Inputs/gen_argmax_nan.py %t.npy
// RUN: onyx-run %s --validate --check --input=@%t.npy | FileCheck %s
// RUN: onyx-run %s --backend=ref --input=@%t.npy | FileCheck %s --check-prefix=REF

// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK: output 1 vs ref: {{.*}}: PASS
// REF: [0, 300, 0, 599]
// REF: [0, {{[0-9]+}}, 0, {{[0-9]+}}]

func.func @main(%x: tensor<4x600xf32>) -> (tensor<4xi64>, tensor<4xi64>) {
  %0 = "onnx.ArgMax"(%x) {axis = 1 : si64, keepdims = 0 : si64} : (tensor<4x600xf32>) -> tensor<4xi64>
  %1 = "onnx.ArgMin"(%x) {axis = 1 : si64, keepdims = 0 : si64} : (tensor<4x600xf32>) -> tensor<4xi64>
  return %0, %1 : tensor<4xi64>, tensor<4xi64>
}

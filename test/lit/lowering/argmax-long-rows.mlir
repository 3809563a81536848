// ArgMax and ArgMin over rows of 5000, about 20 elements per invocation of a
// workgroup: each invocation's scan issues its loads 8 at a time before
// comparing them in the order of their indices (scanUnrolled in
// lowering/ReductionKernels.cpp), then takes the rest one at a time. The
// NaN rules and ties of argmax-nan.mlir still hold: row 0 starts with a
// NaN, row 1 has NaNs every 7th element and its largest value twice (2500,
// then 3750: the first wins), row 2 is all NaN, row 3's largest is its last.

// RUN: %python %S/Inputs/gen_argmax_nan.py %t.npy 5000
// RUN: onyx-run %s --validate --check --input=@%t.npy | FileCheck %s
// RUN: onyx-run %s --validate --check --kernels-for=gpu --input=@%t.npy | FileCheck %s
// RUN: onyx-run %s --backend=ref --input=@%t.npy | FileCheck %s --check-prefix=REF
// RUN: onyx-opt %s --target=lavapipe --convert-onnx-to-gpu | FileCheck %s --check-prefix=GLSL

// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK: output 1 vs ref: {{.*}}: PASS
// REF: [0, 2500, 0, 4999]
// GLSL: gpu.kernel @argmax(
// GLSL-SAME: for (; i + 7u * DEPTH < end; i += 8u * DEPTH) {
// GLSL-SAME: float v7 = x.d[at7];
// GLSL-SAME: if (better(v0, i + 0u * DEPTH, best, index)) {
// GLSL-SAME: for (; i < end; i += DEPTH) {

func.func @main(%x: tensor<4x5000xf32>) -> (tensor<4xi64>, tensor<4xi64>) {
  %0 = "onnx.ArgMax"(%x) {axis = 1 : si64, keepdims = 0 : si64} : (tensor<4x5000xf32>) -> tensor<4xi64>
  %1 = "onnx.ArgMin"(%x) {axis = 1 : si64, keepdims = 0 : si64} : (tensor<4x5000xf32>) -> tensor<4xi64>
  return %0, %1 : tensor<4xi64>, tensor<4xi64>
}

// RUN: onyx-run %s --validate --check --rtol=1e-4 --atol=1e-5 \
// RUN:   --input=@%S/Inputs/attention/q_s16_t16.npy --input=@%S/Inputs/attention/k_s16_t16.npy \
// RUN:   --input=@%S/Inputs/attention/v_s16_t16.npy --input=@%S/Inputs/attention/bool_s16_t16.npy | FileCheck %s
// RUN: onyx-run %s --validate --check --rtol=1e-4 --atol=1e-5 \
// RUN:   --input-set='@%S/Inputs/attention/q_s3_t130.npy;@%S/Inputs/attention/k_s3_t130.npy;@%S/Inputs/attention/v_s3_t130.npy;@%S/Inputs/attention/bool_s3_t130.npy' \
// RUN:   --input-set='@%S/Inputs/attention/q_s1_t7.npy;@%S/Inputs/attention/k_s1_t7.npy;@%S/Inputs/attention/v_s1_t7.npy;@%S/Inputs/attention/bool_s1_t7.npy' \
// RUN:   | FileCheck %s
// RUN: not onyx-run %s --input-set='1x4x2x8xf32=1;1x2x3x8xf32=1;1x2x4x8xf32=1;1x1x2x3xi1=1' \
// RUN:   2>&1 | FileCheck %s --check-prefix=LENGTH

// A bool mask (false: -inf) broadcast over the heads, is_causal (key j > row
// i masked: row 0 of the 130-key set attends key 0 only) and an explicit
// scale, bound at one shape and symbolic at two, against the reference
// backend.

// CHECK: output 0 vs ref: {{.*}} PASS
// CHECK-NOT: FAIL

// K and V of different lengths are only known to differ at run time.
// LENGTH: Attention: V's length 4 is not K's 3
func.func @main(%q: tensor<1x4x?x8xf32>, %k: tensor<1x2x?x8xf32>, %v: tensor<1x2x?x8xf32>, %mask: tensor<1x1x?x?xi1>) -> tensor<1x4x?x8xf32> {
  %y = "onnx.Attention"(%q, %k, %v, %mask) {is_causal = 1 : si64, scale = 0.3 : f32} : (tensor<1x4x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x1x?x?xi1>) -> tensor<1x4x?x8xf32>
  return %y : tensor<1x4x?x8xf32>
}

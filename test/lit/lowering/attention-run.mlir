// RUN: onyx-run %s --validate --check --rtol=1e-4 --atol=1e-5 \
// RUN:   --input-set='@%S/Inputs/attention/q_s3_t130.npy;@%S/Inputs/attention/k_s3_t130.npy;@%S/Inputs/attention/v_s3_t130.npy;@%S/Inputs/attention/mask_s3_t130.npy' \
// RUN:   --input-set='@%S/Inputs/attention/q_s1_t1.npy;@%S/Inputs/attention/k_s1_t1.npy;@%S/Inputs/attention/v_s1_t1.npy;@%S/Inputs/attention/mask_s1_t1.npy' \
// RUN:   --input-set='@%S/Inputs/attention/q_s1_t7.npy;@%S/Inputs/attention/k_s1_t7.npy;@%S/Inputs/attention/v_s1_t7.npy;@%S/Inputs/attention/mask_s1_t7.npy' \
// RUN:   --input-set='@%S/Inputs/attention/q_s1_t70.npy;@%S/Inputs/attention/k_s1_t70.npy;@%S/Inputs/attention/v_s1_t70.npy;@%S/Inputs/attention/mask_s1_t70.npy' \
// RUN:   --input-set='@%S/Inputs/attention/q_s16_t16.npy;@%S/Inputs/attention/k_s16_t16.npy;@%S/Inputs/attention/v_s16_t16.npy;@%S/Inputs/attention/mask_s16_t16.npy' \
// RUN:   --input-set='@%S/Inputs/attention/q_s1_t700.npy;@%S/Inputs/attention/k_s1_t700.npy;@%S/Inputs/attention/v_s1_t700.npy;@%S/Inputs/attention/mask_s1_t700.npy' \
// RUN:   | FileCheck %s
// RUN: onyx-opt %s --target=lavapipe --lower | FileCheck %s --check-prefix=LOWER
// RUN: onyx-opt %s --target=lavapipe --convert-onnx-to-gpu | FileCheck %s --check-prefix=GLSL

// One onnx.Attention with grouped-query heads (4 query heads reading 2 kv
// heads) and an additive mask, s and t known only at run time: lowered and
// loaded once, run at several (s, t) in one process against the reference
// backend (t = 70 and 130 span several tiles of keys). The inputs come from
// Inputs/attention/gen_attention_inputs.py. A single query row (s = 1) of
// 512 keys or more splits them among workgroups, 64 or more each: t = 700
// in 11 parts (two of them wholly masked) that a second kernel combines;
// shorter rows and rows of s > 1 stay whole (the combine's grid is empty).
// The head sizes are multiples of 4: q, k and v are read as vec4s, the
// query row into registers and each tile's value rows before its scores.

// GLSL: gpu.kernel @attention(
// GLSL-SAME: { vec4 d[]; } q;
// GLSL-SAME: { vec4 d[]; } k;
// GLSL-SAME: { vec4 d[]; } v;
// GLSL-SAME: qv0 = q.d[(qBase + 4u * (qkl + 0u)) / 4u];
// GLSL-SAME: vr0_0 = v.d[(vBase + 4u * (lane + 0u)) / 4u];
// GLSL-SAME: part += dot(qv0, k.d[(kBase + 4u * (kl + 0u)) / 4u]);

// LOWER: gpu.kernel @attention(
// LOWER-NEXT: gpu.kernel @attention_combine(
// LOWER-NOT: gpu.kernel
// LOWER: gpu.dispatch @attention
// LOWER: gpu.dispatch @attention_combine
// LOWER-NOT: gpu.dispatch

// CHECK: compile: {{.*}} (2 kernels compiled)
// CHECK: input set 0:
// CHECK: output 0 vs ref: {{.*}} PASS
// CHECK: input set 1:
// CHECK: output 0 vs ref: {{.*}} PASS
// CHECK: input set 2:
// CHECK: output 0 vs ref: {{.*}} PASS
// CHECK: input set 3:
// CHECK: output 0 vs ref: {{.*}} PASS
// CHECK: input set 4:
// CHECK: output 0 vs ref: {{.*}} PASS
// CHECK: input set 5:
// CHECK: output 0 vs ref: {{.*}} PASS
func.func @main(%q: tensor<1x4x?x8xf32>, %k: tensor<1x2x?x8xf32>, %v: tensor<1x2x?x8xf32>, %mask: tensor<1x1x?x?xf32>) -> tensor<1x4x?x8xf32> {
  %y = "onnx.Attention"(%q, %k, %v, %mask) : (tensor<1x4x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x1x?x?xf32>) -> tensor<1x4x?x8xf32>
  return %y : tensor<1x4x?x8xf32>
}

// The node-level models of ONNX Runtime's contrib ops and of opset 23's
// RMSNormalization, RotaryEmbedding and Attention in files that declare
// opset 23 (test/models/gen_contrib_ops.py: one per op and attribute
// combination, docs/CONTRIB-OPS.md) on the reference backend, against
// NumPy's outputs, which ONNX Runtime also matches (ctest contrib-ops-ort).

// RUN: %python %models/run_contrib_cases.py --backend=ref %models/contrib | FileCheck %s

// CHECK: simplified_layer_norm: PASS
// CHECK-NEXT: simplified_layer_norm_axis1: PASS
// CHECK-NEXT: skip_simplified_layer_norm: PASS
// CHECK-NEXT: skip_simplified_layer_norm_bias: PASS
// CHECK-NEXT: skip_simplified_layer_norm_2d: PASS
// CHECK-NEXT: skip_layer_norm: PASS
// CHECK-NEXT: skip_layer_norm_beta: PASS
// CHECK-NEXT: skip_layer_norm_beta_bias: PASS
// CHECK-NEXT: skip_layer_norm_broadcast_skip: PASS
// CHECK-NEXT: rotary_3d: PASS
// CHECK-NEXT: rotary_4d: PASS
// CHECK-NEXT: rotary_offset: PASS
// CHECK-NEXT: rotary_partial: PASS
// CHECK-NEXT: rotary_3d_interleaved: PASS
// CHECK-NEXT: rotary_4d_interleaved: PASS
// CHECK-NEXT: rotary_offset_interleaved: PASS
// CHECK-NEXT: rotary_partial_interleaved: PASS
// CHECK-NEXT: gqa_prompt: PASS
// CHECK-NEXT: gqa_decode_shared: PASS
// CHECK-NEXT: gqa_chunk_shared: PASS
// CHECK-NEXT: gqa_decode_grow: PASS
// CHECK-NEXT: gqa_packed: PASS
// CHECK-NEXT: gqa_rotary: PASS
// CHECK-NEXT: gqa_rotary_interleaved_prompt: PASS
// CHECK-NEXT: gqa_rotary_partial_packed: PASS
// CHECK-NEXT: onnx23_rms_normalization: PASS
// CHECK-NEXT: onnx23_rotary_embedding: PASS
// CHECK-NEXT: onnx23_attention_gqa: PASS
// CHECK-NEXT: gqa_decode_split: PASS
// CHECK-NEXT: 0 failed

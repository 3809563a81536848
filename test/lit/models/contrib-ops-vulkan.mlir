// The contrib-op models (contrib-ops.mlir) lowered once with their symbolic
// dimensions kept and run on the Vulkan device with the validation layer,
// against the reference backend (which matches NumPy and ONNX Runtime).
// SimplifiedLayerNormalization is the RMSNorm kernel with its inv_std_var;
// the skip forms add skip and bias into each row as the kernel loads it and
// write the sum; com.microsoft.RotaryEmbedding is the rotary kernel (an
// offset position_ids adds the token's index); GroupQueryAttention writes
// K and V into the cache, then attends (rotating Q as it loads it).

// RUN: %python %models/run_contrib_cases.py --backend=vulkan --rtol=1e-3 --atol=1e-4 \
// RUN:   %models/contrib | FileCheck %s

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

// A decode step over a cache of a length known when compiling (GenAI's
// shared max-length buffer) writes K and V into past's own memory and
// attends: no copy; the total must fit the buffer, checked at run time.
// The attention's third dispatch combines the parts of rows whose keys a
// run splits among workgroups (a decode step of 64 keys or more). A cache
// of symbolic length (growing by the step's tokens) is copied into a
// present of max(past, total) rows first.
// RUN: onyx-opt %models/contrib/gqa_decode_shared.onnx --lower --target=lavapipe \
// RUN:   | FileCheck %s --check-prefix=SHARED
// SHARED: gpu.assert {{.*}} "'onnx.com.microsoft.GroupQueryAttention' op GroupQueryAttention: total_sequence_length {0} does not fit the cache of {1} positions"
// SHARED-NOT: gpu.dispatch
// SHARED: gpu.dispatch @gqa_update_cache
// SHARED-NOT: gpu.dispatch
// SHARED: gpu.dispatch @gqa_attention
// SHARED-NOT: gpu.dispatch
// SHARED: gpu.dispatch @attention_combine
// SHARED-NOT: gpu.dispatch
// RUN: onyx-opt %models/contrib/gqa_decode_grow.onnx --lower --target=lavapipe \
// RUN:   | FileCheck %s --check-prefix=GROW
// GROW: gpu.dispatch @gqa_copy_past
// GROW: gpu.dispatch @gqa_update_cache
// GROW-NOT: gpu.dispatch
// GROW: gpu.dispatch @gqa_attention

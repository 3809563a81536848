// The contrib-op models (contrib-ops.mlir) lowered and run on the Vulkan
// device with the validation layer, against NumPy's outputs at a GPU's
// tolerance. SimplifiedLayerNormalization is the RMSNorm kernel with its
// inv_std_var; the skip forms add skip and bias into each row as the kernel
// loads it and write the sum; com.microsoft.RotaryEmbedding is the rotary
// kernel (an offset position_ids adds the token's index).
//
// Exception: GroupQueryAttention has no Vulkan kernel yet; its models stop
// with a located error (checked below).

// RUN: %python %models/run_contrib_cases.py --backend=vulkan --rtol=1e-3 --atol=1e-4 \
// RUN:   --filter=simplified,skip,rotary,onnx23 %models/contrib | FileCheck %s
// RUN: not onyx-run %models/contrib/gqa_decode_shared.onnx \
// RUN:   --input=@%models/contrib/gqa_decode_shared.input_0.npy \
// RUN:   --input=@%models/contrib/gqa_decode_shared.input_1.npy \
// RUN:   --input=@%models/contrib/gqa_decode_shared.input_2.npy \
// RUN:   --input=@%models/contrib/gqa_decode_shared.input_3.npy \
// RUN:   --input=@%models/contrib/gqa_decode_shared.input_4.npy \
// RUN:   --input=@%models/contrib/gqa_decode_shared.input_5.npy \
// RUN:   --input=@%models/contrib/gqa_decode_shared.input_6.npy 2>&1 | FileCheck %s --check-prefix=GQA

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
// CHECK-NEXT: onnx23_rms_normalization: PASS
// CHECK-NEXT: onnx23_rotary_embedding: PASS
// CHECK-NEXT: onnx23_attention_gqa: PASS
// CHECK-NEXT: 0 failed

// GQA: error: loc("gqa_decode_shared"): 'onnx.com.microsoft.GroupQueryAttention' op

// ONNX Runtime's contrib ops (docs/CONTRIB-OPS.md): what onyx refuses, and
// operands that do not fit, are located errors naming the attribute or
// operand.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics

func.func @gqa_local_window(%q: tensor<1x1x32xf32>, %k: tensor<1x1x16xf32>, %p: tensor<1x2x8x8xf32>, %s: tensor<1xi32>, %t: tensor<i32>) -> tensor<1x1x32xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.GroupQueryAttention' op attribute 'local_window_size' must be -1: local (sliding window) attention is not supported}}
  %0:3 = "onnx.com.microsoft.GroupQueryAttention"(%q, %k, %k, %p, %p, %s, %t) {num_heads = 4 : si64, kv_num_heads = 2 : si64, local_window_size = 4 : si64} : (tensor<1x1x32xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1xi32>, tensor<i32>) -> (tensor<1x1x32xf32>, tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>)
  return %0#0 : tensor<1x1x32xf32>
}

// -----

func.func @gqa_softcap(%q: tensor<1x1x32xf32>, %k: tensor<1x1x16xf32>, %s: tensor<1xi32>, %t: tensor<i32>) -> tensor<1x1x32xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{attribute 'softcap' must be 0: soft-capped scores are not supported}}
  %0 = "onnx.com.microsoft.GroupQueryAttention"(%q, %k, %k, %n, %n, %s, %t) {num_heads = 4 : si64, kv_num_heads = 2 : si64, softcap = 30.0 : f32} : (tensor<1x1x32xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>, none, none, tensor<1xi32>, tensor<i32>) -> tensor<1x1x32xf32>
  return %0 : tensor<1x1x32xf32>
}

// -----

func.func @gqa_kv_heads(%q: tensor<1x1x32xf32>, %k: tensor<1x1x24xf32>, %s: tensor<1xi32>, %t: tensor<i32>) -> tensor<1x1x32xf32> {
  // expected-error @+1 {{attribute 'kv_num_heads' must be positive and divide num_heads 4, got 3}}
  %0 = "onnx.com.microsoft.GroupQueryAttention"(%q, %k, %k, %k, %k, %s, %t) {num_heads = 4 : si64, kv_num_heads = 3 : si64} : (tensor<1x1x32xf32>, tensor<1x1x24xf32>, tensor<1x1x24xf32>, tensor<1x1x24xf32>, tensor<1x1x24xf32>, tensor<1xi32>, tensor<i32>) -> tensor<1x1x32xf32>
  return %0 : tensor<1x1x32xf32>
}

// -----

func.func @gqa_past_rank(%q: tensor<1x1x32xf32>, %k: tensor<1x1x16xf32>, %p: tensor<2x8x8xf32>, %s: tensor<1xi32>, %t: tensor<i32>) -> tensor<1x1x32xf32> {
  // expected-error @+1 {{operand 'past_key' must have rank 4}}
  %0 = "onnx.com.microsoft.GroupQueryAttention"(%q, %k, %k, %p, %p, %s, %t) {num_heads = 4 : si64, kv_num_heads = 2 : si64} : (tensor<1x1x32xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>, tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<1xi32>, tensor<i32>) -> tensor<1x1x32xf32>
  return %0 : tensor<1x1x32xf32>
}

// -----

func.func @gqa_key_shape(%q: tensor<1x1x32xf32>, %k: tensor<1x1x32xf32>, %s: tensor<1xi32>, %t: tensor<i32>) -> tensor<1x1x32xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{operand 'key' must be [batch, seq, kv_num_heads * head_size] = [1, 1, 16], got tensor<1x1x32xf32>}}
  %0 = "onnx.com.microsoft.GroupQueryAttention"(%q, %k, %k, %n, %n, %s, %t) {num_heads = 4 : si64, kv_num_heads = 2 : si64} : (tensor<1x1x32xf32>, tensor<1x1x32xf32>, tensor<1x1x32xf32>, none, none, tensor<1xi32>, tensor<i32>) -> tensor<1x1x32xf32>
  return %0 : tensor<1x1x32xf32>
}

// -----

func.func @gqa_rotary_without_caches(%q: tensor<1x1x32xf32>, %k: tensor<1x1x16xf32>, %s: tensor<1xi32>, %t: tensor<i32>) -> tensor<1x1x32xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{operand 'cos_cache' is required when do_rotary is 1}}
  %0 = "onnx.com.microsoft.GroupQueryAttention"(%q, %k, %k, %n, %n, %s, %t) {num_heads = 4 : si64, kv_num_heads = 2 : si64, do_rotary = 1 : si64} : (tensor<1x1x32xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>, none, none, tensor<1xi32>, tensor<i32>) -> tensor<1x1x32xf32>
  return %0 : tensor<1x1x32xf32>
}

// -----

func.func @gqa_position_ids(%q: tensor<1x1x32xf32>, %k: tensor<1x1x16xf32>, %s: tensor<1xi32>, %t: tensor<i32>, %c: tensor<8x4xf32>, %pos: tensor<1x1xi64>) -> tensor<1x1x32xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{operand 'position_ids' is not supported}}
  %0 = "onnx.com.microsoft.GroupQueryAttention"(%q, %k, %k, %n, %n, %s, %t, %c, %c, %pos) {num_heads = 4 : si64, kv_num_heads = 2 : si64, do_rotary = 1 : si64} : (tensor<1x1x32xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>, none, none, tensor<1xi32>, tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<1x1xi64>) -> tensor<1x1x32xf32>
  return %0 : tensor<1x1x32xf32>
}

// -----

func.func @gqa_quantized_cache(%q: tensor<1x1x32xf32>, %k: tensor<1x1x16xf32>, %s: tensor<1xi32>, %t: tensor<i32>) -> tensor<1x1x32xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{attribute 'k_quant_type' must be NONE: quantized caches are not supported}}
  %0 = "onnx.com.microsoft.GroupQueryAttention"(%q, %k, %k, %n, %n, %s, %t) {num_heads = 4 : si64, kv_num_heads = 2 : si64, k_quant_type = "PER_TENSOR"} : (tensor<1x1x32xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>, none, none, tensor<1xi32>, tensor<i32>) -> tensor<1x1x32xf32>
  return %0 : tensor<1x1x32xf32>
}

// -----

func.func @gqa_seqlens_type(%q: tensor<1x1x32xf32>, %k: tensor<1x1x16xf32>, %s: tensor<1xf32>, %t: tensor<i32>) -> tensor<1x1x32xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{operand 'seqlens_k'}}
  %0 = "onnx.com.microsoft.GroupQueryAttention"(%q, %k, %k, %n, %n, %s, %t) {num_heads = 4 : si64, kv_num_heads = 2 : si64} : (tensor<1x1x32xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>, none, none, tensor<1xf32>, tensor<i32>) -> tensor<1x1x32xf32>
  return %0 : tensor<1x1x32xf32>
}

// -----

func.func @gqa_unknown_attribute(%q: tensor<1x1x32xf32>, %k: tensor<1x1x16xf32>, %s: tensor<1xi32>, %t: tensor<i32>) -> tensor<1x1x32xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.com.microsoft.GroupQueryAttention' op}}
  %0 = "onnx.com.microsoft.GroupQueryAttention"(%q, %k, %k, %n, %n, %s, %t) {num_heads = 4 : si64, kv_num_heads = 2 : si64, window = 3 : si64} : (tensor<1x1x32xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>, none, none, tensor<1xi32>, tensor<i32>) -> tensor<1x1x32xf32>
  return %0 : tensor<1x1x32xf32>
}

// -----

func.func @rotary_packed_batching(%x: tensor<1x2x16xf32>, %p: tensor<1x2xi64>, %c: tensor<8x4xf32>) -> tensor<1x2x16xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.RotaryEmbedding' op attribute 'is_packed_batching' must be 0: packed (ragged) batches are not supported}}
  %0 = "onnx.com.microsoft.RotaryEmbedding"(%x, %p, %c, %c) {is_packed_batching = 1 : si64} : (tensor<1x2x16xf32>, tensor<1x2xi64>, tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<1x2x16xf32>
  return %0 : tensor<1x2x16xf32>
}

// -----

func.func @rotary_rank(%x: tensor<2x16xf32>, %p: tensor<1x2xi64>, %c: tensor<8x4xf32>) -> tensor<2x16xf32> {
  // expected-error @+1 {{operand 'input' must have rank 3 or 4, got tensor<2x16xf32>}}
  %0 = "onnx.com.microsoft.RotaryEmbedding"(%x, %p, %c, %c) : (tensor<2x16xf32>, tensor<1x2xi64>, tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

func.func @rotary_dim_without_heads(%x: tensor<1x2x16xf32>, %p: tensor<1x2xi64>, %c: tensor<8x2xf32>) -> tensor<1x2x16xf32> {
  // expected-error @+1 {{attribute 'num_heads' must be given with rotary_embedding_dim for an input of rank 3}}
  %0 = "onnx.com.microsoft.RotaryEmbedding"(%x, %p, %c, %c) {rotary_embedding_dim = 4 : si64} : (tensor<1x2x16xf32>, tensor<1x2xi64>, tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<1x2x16xf32>
  return %0 : tensor<1x2x16xf32>
}

// -----

func.func @rotary_position_shape(%x: tensor<1x2x16xf32>, %p: tensor<1x3xi64>, %c: tensor<8x4xf32>) -> tensor<1x2x16xf32> {
  // expected-error @+1 {{operand 'position_ids' must be [batch, seq] of the input or [1] (an offset), got tensor<1x3xi64>}}
  %0 = "onnx.com.microsoft.RotaryEmbedding"(%x, %p, %c, %c) : (tensor<1x2x16xf32>, tensor<1x3xi64>, tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<1x2x16xf32>
  return %0 : tensor<1x2x16xf32>
}

// -----

func.func @skip_rank(%x: tensor<16xf32>, %g: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.SkipSimplifiedLayerNormalization' op operand 'input' must have rank 2 or 3 ([tokens, hidden] or [batch, seq, hidden]), got tensor<16xf32>}}
  %0 = "onnx.com.microsoft.SkipSimplifiedLayerNormalization"(%x, %x, %g) : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @skip_gamma(%x: tensor<2x3x16xf32>, %g: tensor<8xf32>) -> tensor<2x3x16xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.SkipLayerNormalization' op operand 'gamma' must have the hidden size 16 of the input, got tensor<8xf32>}}
  %0 = "onnx.com.microsoft.SkipLayerNormalization"(%x, %x, %g) : (tensor<2x3x16xf32>, tensor<2x3x16xf32>, tensor<8xf32>) -> tensor<2x3x16xf32>
  return %0 : tensor<2x3x16xf32>
}

// -----

func.func @skip_shape(%x: tensor<2x3x16xf32>, %s: tensor<2x16xf32>, %g: tensor<16xf32>) -> tensor<2x3x16xf32> {
  // expected-error @+1 {{operand 'skip' of type tensor<2x16xf32> does not broadcast to the input tensor<2x3x16xf32>}}
  %0 = "onnx.com.microsoft.SkipLayerNormalization"(%x, %s, %g) : (tensor<2x3x16xf32>, tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x3x16xf32>
  return %0 : tensor<2x3x16xf32>
}

// -----

func.func @simplified_stash(%x: tensor<2x16xf32>, %g: tensor<16xf32>) -> tensor<2x16xf32> {
  // expected-error @+1 {{'onnx.SimplifiedLayerNormalization' op attribute 'stash_type' must be an ONNX float data type, got 7}}
  %0 = "onnx.SimplifiedLayerNormalization"(%x, %g) {stash_type = 7 : si64} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

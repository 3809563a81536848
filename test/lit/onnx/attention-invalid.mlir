// onnx.Attention (opset 23) in its 4-D form: what it does not support, and
// operands that do not fit, are located errors.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics

func.func @heads_not_multiple(%q: tensor<1x3x2x8xf32>, %k: tensor<1x2x5x8xf32>) -> tensor<1x3x2x8xf32> {
  // expected-error @+1 {{'onnx.Attention' op Q's 3 heads are not a multiple of K's 2}}
  %0 = "onnx.Attention"(%q, %k, %k) : (tensor<1x3x2x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) -> tensor<1x3x2x8xf32>
  return %0 : tensor<1x3x2x8xf32>
}

// -----

func.func @head_size(%q: tensor<1x2x2x4xf32>, %k: tensor<1x2x5x8xf32>) -> tensor<1x2x2x8xf32> {
  // expected-error @+1 {{'onnx.Attention' op Q and K must have the same head size}}
  %0 = "onnx.Attention"(%q, %k, %k) : (tensor<1x2x2x4xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
}

// -----

func.func @dynamic_heads(%q: tensor<1x?x2x8xf32>, %k: tensor<1x2x5x8xf32>) -> tensor<1x?x2x8xf32> {
  // expected-error @+1 {{'onnx.Attention' op needs the number of heads of Q and K known}}
  %0 = "onnx.Attention"(%q, %k, %k) : (tensor<1x?x2x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) -> tensor<1x?x2x8xf32>
  return %0 : tensor<1x?x2x8xf32>
}

// -----

func.func @mask_shorter(%q: tensor<1x2x2x8xf32>, %k: tensor<1x2x5x8xf32>, %m: tensor<2x4xf32>) -> tensor<1x2x2x8xf32> {
  // expected-error @+1 {{'onnx.Attention' op operand 'attn_mask' of type tensor<2x4xf32> does not broadcast to [batch, q_heads, s, t] of the attention scores (its last dimension must be t)}}
  %0 = "onnx.Attention"(%q, %k, %k, %m) : (tensor<1x2x2x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<2x4xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
}

// -----

func.func @past(%q: tensor<1x2x2x8xf32>, %k: tensor<1x2x5x8xf32>) -> tensor<1x2x2x8xf32> {
  // expected-error @+1 {{'onnx.Attention' op operand 'past_key' is not supported (concatenate the cache before Attention)}}
  %0 = "onnx.Attention"(%q, %k, %k, %k, %k, %k) : (tensor<1x2x2x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
}

// -----

func.func @softcap(%q: tensor<1x2x2x8xf32>, %k: tensor<1x2x5x8xf32>) -> tensor<1x2x2x8xf32> {
  // expected-error @+1 {{'onnx.Attention' op attribute 'softcap' is not supported}}
  %0 = "onnx.Attention"(%q, %k, %k) {softcap = 30.0 : f32} : (tensor<1x2x2x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
}

// -----

func.func @three_d(%q: tensor<1x2x16xf32>) -> tensor<1x2x16xf32> {
  // expected-error @+1 {{'onnx.Attention' op operand 'Q' is 3-D; only the 4-D form [batch, heads, seq, head_size] is supported}}
  %0 = "onnx.Attention"(%q, %q, %q) {q_num_heads = 2 : si64, kv_num_heads = 2 : si64} : (tensor<1x2x16xf32>, tensor<1x2x16xf32>, tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
  return %0 : tensor<1x2x16xf32>
}

// -----

func.func @kv_num_heads(%q: tensor<1x4x2x8xf32>, %k: tensor<1x2x5x8xf32>) -> tensor<1x4x2x8xf32> {
  // expected-error @+1 {{'onnx.Attention' op attribute 'kv_num_heads' 4 does not match K's 2 heads}}
  %0 = "onnx.Attention"(%q, %k, %k) {kv_num_heads = 4 : si64} : (tensor<1x4x2x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) -> tensor<1x4x2x8xf32>
  return %0 : tensor<1x4x2x8xf32>
}

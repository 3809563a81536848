// The head size picks the rotated pairs: a `?` one is refused.
func.func @main(%x: tensor<1x2x?x?xf32>, %cos: tensor<1x?x4xf32>, %sin: tensor<1x?x4xf32>) -> tensor<1x2x?x?xf32> {
  // expected-error @+1 {{'onnx.RotaryEmbedding' op needs the head size known when it is compiled (the last dimension of its input is `?`; bind it with --bind-dims)}}
  %r = "onnx.RotaryEmbedding"(%x, %cos, %sin) : (tensor<1x2x?x?xf32>, tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x2x?x?xf32>
  return %r : tensor<1x2x?x?xf32>
}

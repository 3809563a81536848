// auto_pad SAME_UPPER pads by an amount that depends on the input size.
func.func @main(%x: tensor<1x2x?x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x?x5xf32> {
  // expected-error @+1 {{'onnx.Conv' op needs spatial dimension 0 known when it is compiled with auto_pad SAME_UPPER (its padding depends on the size); bind it with --bind-dims}}
  %c = "onnx.Conv"(%x, %w) {auto_pad = "SAME_UPPER", kernel_shape = [3, 3]} : (tensor<1x2x?x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x?x5xf32>
  return %c : tensor<1x3x?x5xf32>
}

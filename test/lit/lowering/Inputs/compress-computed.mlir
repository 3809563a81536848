// Compress and NonZero of data that kernels compute: their counts need a
// read-back, which the Vulkan runtime does not do yet.
func.func @main(%x: tensor<3x2xf32>, %y: tensor<3xf32>) -> tensor<?x2xf32> {
  %z = onnx.Constant dense<0.0> : tensor<3xf32>
  %c = "onnx.Greater"(%y, %z) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  // expected-error @+1 {{'onnx.Compress' op needs operand 'condition' known on the host (a constant or an input of at most 16 elements); a condition computed by kernels needs a read-back of its count, which the Vulkan runtime does not do yet}}
  %0 = "onnx.Compress"(%x, %c) {axis = 0 : si64} : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @main(%x: tensor<3x2xf32>) -> tensor<2x?xi64> {
  // expected-error @+1 {{'onnx.NonZero' op needs its input to be an integer or bool input of the function of static shape and at most 16 elements (known on the host); data computed by kernels needs a read-back of the count, which the Vulkan runtime does not do yet}}
  %0 = "onnx.NonZero"(%x) : (tensor<3x2xf32>) -> tensor<2x?xi64>
  return %0 : tensor<2x?xi64>
}

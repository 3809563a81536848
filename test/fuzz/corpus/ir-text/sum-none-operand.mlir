func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  %0 = "onnx.Sum"(%a, %n) : (tensor<2xf32>, none) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

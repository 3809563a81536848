module attributes {gpu.target = {subgroup_size = 32 : i64}} {
  func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xi64>) -> (tensor<2x3xf32>, tensor<?xi64>) {
    %c = onnx.Constant dense<[1, 2, 3]> : tensor<3xi64>
    %n = "onnx.NoValue"() {value} : () -> none
    %0 = "onnx.Concat"(%b, %c) {axis = 0 : si64} : (tensor<3xi64>, tensor<3xi64>) -> tensor<6xi64>
    %1 = "onnx.Slice"(%0, %c, %c, %n, %n) : (tensor<6xi64>, tensor<3xi64>, tensor<3xi64>, none, none) -> tensor<?xi64>
    %2 = "onnx.Softmax"(%a) {axis = -1 : si64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %2, %1 : tensor<2x3xf32>, tensor<?xi64>
  }
}

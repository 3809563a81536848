// A small onnx-dialect program: onyx-opt reads, transforms and prints it;
// onyx-run executes it (see scripts/quickstart.sh).
module {
  func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = "onnx.Add"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = "onnx.Relu"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
}

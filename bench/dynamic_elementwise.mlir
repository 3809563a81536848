// A model for bench/dynamic_shapes.py: an elementwise block (bias, GELU-like
// tanh, residual scale) over a `?`-row activation, the part of a transformer
// layer that lowers with dims known only at run time today.
func.func @main(%x: tensor<?x1024xf32>, %b: tensor<1024xf32>) -> tensor<?x1024xf32> {
  %0 = "onnx.Add"(%x, %b) : (tensor<?x1024xf32>, tensor<1024xf32>) -> tensor<?x1024xf32>
  %1 = "onnx.Tanh"(%0) : (tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %2 = "onnx.Mul"(%1, %x) : (tensor<?x1024xf32>, tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %3 = "onnx.Add"(%2, %0) : (tensor<?x1024xf32>, tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %3 : tensor<?x1024xf32>
}

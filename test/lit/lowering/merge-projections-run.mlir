// Merged projections and Splits written by the GEMM kernel, run on the
// device with the validation layer against the reference backend at a
// decode step's row and a prompt's rows (weights this small take the tiled
// kernel; the matrix-vector one stores through the same storeC): a Llama
// layer's RMSNorm and q, k, v projections (one kernel normalizes,
// multiplies by the merged weights and writes the three parts) and a GPT-2
// layer's QKV projection with its bias and the Split that follows.

// RUN: split-file %s %t
// RUN: %python %S/Inputs/make_npy.py %t/x1.npy 1 1 1 8
// RUN: %python %S/Inputs/make_npy.py %t/x7.npy 2 2 7 8
// RUN: %python %S/Inputs/make_npy.py %t/g.npy 3 8
// RUN: onyx-run %t/qkv.mlir --validate --check --atol=1e-5 --profile \
// RUN:   --input-set='@%t/x1.npy;@%t/g.npy' --input-set='@%t/x7.npy;@%t/g.npy' \
// RUN:   | FileCheck %s
// CHECK-NOT: @rms_norm
// CHECK-NOT: @split
// CHECK: input set 0: run
// CHECK-COUNT-4: vs ref: {{.*}}: PASS
// CHECK: input set 1: run
// CHECK-COUNT-4: vs ref: {{.*}}: PASS

//--- qkv.mlir
func.func @main(%x: tensor<?x?x8xf32>, %g: tensor<8xf32>) -> (tensor<?x?x4xf32>, tensor<?x?x2xf32>, tensor<?x?x2xf32>, tensor<?x?x4xf32>) {
  %wq = "onnx.Constant"() {value = dense<[[0.137, -0.230, -0.459, -0.483], [0.313, 0.413, 0.107, 0.229], [0.044, 0.435, 0.316, -0.497], [0.357, -0.466, 0.230, -0.324], [0.363, 0.041, -0.200, -0.077], [-0.472, -0.376, 0.171, 0.147], [0.115, -0.116, 0.497, 0.481], [0.186, 0.150, 0.188, -0.111]]> : tensor<8x4xf32>} : () -> tensor<8x4xf32>
  %wk = "onnx.Constant"() {value = dense<[[-0.365, 0.221], [0.025, -0.190], [-0.014, 0.389], [0.434, -0.142], [0.072, -0.178], [0.094, -0.162], [-0.108, 0.390], [-0.273, 0.123]]> : tensor<8x2xf32>} : () -> tensor<8x2xf32>
  %wv = "onnx.Constant"() {value = dense<[[-0.416, 0.333], [0.287, -0.261], [0.376, -0.441], [-0.164, -0.350], [-0.050, 0.296], [-0.269, -0.448], [-0.095, -0.301], [-0.409, 0.080]]> : tensor<8x2xf32>} : () -> tensor<8x2xf32>
  %n = "onnx.RMSNormalization"(%x, %g) {epsilon = 1.0e-06 : f32} : (tensor<?x?x8xf32>, tensor<8xf32>) -> tensor<?x?x8xf32>
  %q = "onnx.MatMul"(%n, %wq) : (tensor<?x?x8xf32>, tensor<8x4xf32>) -> tensor<?x?x4xf32>
  %k = "onnx.MatMul"(%n, %wk) : (tensor<?x?x8xf32>, tensor<8x2xf32>) -> tensor<?x?x2xf32>
  %v = "onnx.MatMul"(%n, %wv) : (tensor<?x?x8xf32>, tensor<8x2xf32>) -> tensor<?x?x2xf32>
  %wqkv = "onnx.Constant"() {value = dense<[[-0.201, 0.172, -0.300, 0.442, -0.135, -0.395, 0.129, 0.427, -0.060, 0.455, -0.000, -0.075], [0.120, 0.495, 0.449, -0.040, 0.258, -0.003, 0.029, 0.286, -0.085, 0.234, 0.211, 0.432], [-0.385, 0.229, 0.427, 0.468, -0.485, 0.364, 0.481, 0.457, -0.351, 0.473, 0.390, 0.322], [-0.020, -0.268, 0.302, 0.424, -0.234, 0.039, -0.057, 0.431, -0.459, 0.232, 0.114, -0.472], [0.219, -0.484, 0.258, 0.013, 0.429, -0.434, 0.341, -0.433, -0.156, -0.070, 0.466, 0.062], [-0.241, -0.258, 0.388, -0.274, -0.375, -0.212, 0.086, 0.054, 0.310, 0.060, -0.212, -0.087], [0.318, 0.127, 0.459, -0.131, 0.053, 0.094, 0.348, -0.355, -0.093, 0.410, -0.457, 0.323], [-0.085, 0.330, -0.490, -0.135, -0.421, 0.153, -0.226, 0.203, 0.444, -0.373, 0.365, -0.441]]> : tensor<8x12xf32>} : () -> tensor<8x12xf32>
  %b = "onnx.Constant"() {value = dense<[-0.119, -0.070, -0.011, 0.476, 0.276, -0.191, -0.230, 0.363, 0.381, 0.011, -0.156, 0.495]> : tensor<12xf32>} : () -> tensor<12xf32>
  %p = "onnx.MatMul"(%x, %wqkv) : (tensor<?x?x8xf32>, tensor<8x12xf32>) -> tensor<?x?x12xf32>
  %pb = "onnx.Add"(%p, %b) : (tensor<?x?x12xf32>, tensor<12xf32>) -> tensor<?x?x12xf32>
  %sizes = "onnx.Constant"() {value = dense<[4, 4, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  %s:3 = "onnx.Split"(%pb, %sizes) {axis = 2 : si64} : (tensor<?x?x12xf32>, tensor<3xi64>) -> (tensor<?x?x4xf32>, tensor<?x?x4xf32>, tensor<?x?x4xf32>)
  %sum = "onnx.Add"(%s#0, %s#2) : (tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  return %q, %k, %v, %sum : tensor<?x?x4xf32>, tensor<?x?x2xf32>, tensor<?x?x2xf32>, tensor<?x?x4xf32>
}

// RUN: onyx-opt %s --split-input-file --target=nvidia --onnx-static-shapes --onnx-fuse-elementwise --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-opt %s --split-input-file --target=vulkan --onnx-static-shapes --onnx-fuse-elementwise --convert-onnx-to-gpu | FileCheck %s --check-prefix=FOUR

// A LayerNormalization or RMSNormalization over the last axis whose result
// only MatMuls read, as A, is not a kernel of its own
// (isNormFusedIntoMatMuls): each product binds the norm's input, scale and
// bias, computes the statistics of the rows it reads into shared memory, and
// loadA normalizes each element as it loads it. norm-matmul-run.mlir runs
// these against the reference backend.

// A decoder's attention input: LayerNorm, then the QKV projection with its
// bias Add fused after the product: one dispatch.
// CHECK-LABEL: gpu.kernel @matmul(read, read, read, read, read, write)
// CHECK-SAME: binding = 2, std430) readonly buffer B2 { float d[]; } nscale;
// CHECK-SAME: binding = 3, std430) readonly buffer B3 { float d[]; } nbias;
// CHECK-SAME: float loadX(uint row, uint k) { return a.d[aBase + row * 32u + k]; }
// CHECK-SAME: return (loadX(row, k) - nStats[nr]) * nStats[nr + 1u] * nscale.d[k] + nbias.d[k];
// CHECK-SAME: nRow0 = row0;
// CHECK-SAME: float mean = sum / float(32u);
// CHECK-SAME: nStats[2u * r + 1u] = 1.0 / sqrt(squares / float(32u) + uintBitsToFloat(0x3727c5acu));
// CHECK-LABEL: func.func @main
// CHECK-NOT: gpu.dispatch
// CHECK: gpu.dispatch @matmul[2, 1, 1](%[[X:[0-9]+]], %[[W:[0-9]+]], %[[G:[0-9]+]], %[[B:[0-9]+]], %[[C:[0-9]+]], %[[Y:[0-9]+]])
// CHECK-NOT: gpu.dispatch
// CHECK: return
// The guaranteed minimum of 4 bindings has no room for them: the norm is
// its own kernel.
// FOUR-LABEL: func.func @main
// FOUR: gpu.dispatch @layer_norm
// FOUR: gpu.dispatch @matmul
func.func @main(%x: tensor<1x7x32xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>, %w: tensor<32x96xf32>, %c: tensor<96xf32>) -> tensor<1x7x96xf32> {
  %n = "onnx.LayerNormalization"(%x, %g, %b) {axis = -1 : si64} : (tensor<1x7x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x7x32xf32>
  %0 = "onnx.MatMul"(%n, %w) : (tensor<1x7x32xf32>, tensor<32x96xf32>) -> tensor<1x7x96xf32>
  %1 = "onnx.Add"(%0, %c) : (tensor<1x7x96xf32>, tensor<96xf32>) -> tensor<1x7x96xf32>
  return %1 : tensor<1x7x96xf32>
}

// -----

// RMSNorm read by three projections (a Llama layer's q, k and v), of a
// sequence known only at run time: each of the three products normalizes
// the rows itself, the matrix-vector kernels (for a decode step's row, and
// for up to 4 rows) and the tiled one alike; there is no rms_norm kernel.
// CHECK-LABEL: gpu.kernel @matmul(read, read, read, write)
// CHECK-SAME: return loadX(row, k) * nStats[nr + 1u] * nscale.d[k];
// CHECK-SAME: nRow0 = 0u;
// CHECK-SAME: float mean = 0.0;
// CHECK-LABEL: gpu.kernel @matmul_1(read, read, read, write)
// CHECK-SAME: nRow0 = 0u;
// CHECK-LABEL: gpu.kernel @matmul_2(read, read, read, write)
// CHECK-SAME: nRow0 = row0;
// CHECK-LABEL: func.func @main
// CHECK-NOT: @rms_norm
// CHECK-COUNT-9: gpu.dispatch @matmul
// CHECK-NOT: gpu.dispatch
// CHECK: return
func.func @main(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %wq: tensor<64x256xf32>, %wk: tensor<64x256xf32>, %wv: tensor<64x256xf32>) -> (tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>) {
  %n = "onnx.RMSNormalization"(%x, %g) {epsilon = 1.0e-06 : f32} : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %q = "onnx.MatMul"(%n, %wq) : (tensor<?x64xf32>, tensor<64x256xf32>) -> tensor<?x256xf32>
  %k = "onnx.MatMul"(%n, %wk) : (tensor<?x64xf32>, tensor<64x256xf32>) -> tensor<?x256xf32>
  %v = "onnx.MatMul"(%n, %wv) : (tensor<?x64xf32>, tensor<64x256xf32>) -> tensor<?x256xf32>
  return %q, %k, %v : tensor<?x256xf32>, tensor<?x256xf32>, tensor<?x256xf32>
}

// -----

// A norm whose result something else reads too (here the residual Add) is
// a kernel of its own: its result is needed in memory anyway.
// CHECK-LABEL: func.func @main
// CHECK: gpu.dispatch @layer_norm
// CHECK: gpu.dispatch @matmul
func.func @main(%x: tensor<4x32xf32>, %g: tensor<32xf32>, %w: tensor<32x32xf32>) -> tensor<4x32xf32> {
  %n = "onnx.LayerNormalization"(%x, %g) : (tensor<4x32xf32>, tensor<32xf32>) -> tensor<4x32xf32>
  %0 = "onnx.MatMul"(%n, %w) : (tensor<4x32xf32>, tensor<32x32xf32>) -> tensor<4x32xf32>
  %1 = "onnx.Add"(%0, %n) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  return %1 : tensor<4x32xf32>
}

// -----

// ... as is one read as B (the rows normalized are not the product's), one
// whose statistics are results too, and one over more than the last axis.
// CHECK-LABEL: func.func @main
// CHECK: gpu.dispatch @layer_norm
// CHECK: gpu.dispatch @layer_norm
// CHECK: gpu.dispatch @layer_norm
func.func @main(%x: tensor<32x32xf32>, %g: tensor<32xf32>, %g2: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x1xf32>, tensor<32x32xf32>) {
  %n = "onnx.LayerNormalization"(%x, %g) : (tensor<32x32xf32>, tensor<32xf32>) -> tensor<32x32xf32>
  %0 = "onnx.MatMul"(%w, %n) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %s:2 = "onnx.LayerNormalization"(%x, %g) : (tensor<32x32xf32>, tensor<32xf32>) -> (tensor<32x32xf32>, tensor<32x1xf32>)
  %1 = "onnx.MatMul"(%s#0, %w) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %a = "onnx.LayerNormalization"(%x, %g2) {axis = 0 : si64} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %2 = "onnx.MatMul"(%a, %w) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0, %1, %s#1, %2 : tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x1xf32>, tensor<32x32xf32>
}

// -----

// Shape reads only the norm's dims (a model exported with symbolic dims
// reshapes the product by the norm's Shape): the norm is still applied as
// the product loads its rows, with no layer_norm kernel.
// CHECK-LABEL: func.func @main
// CHECK-NOT: @layer_norm
// CHECK: gpu.dispatch @matmul
// CHECK-NOT: @layer_norm
// CHECK: return
func.func @main(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>, %w: tensor<64x256xf32>) -> tensor<?x4x64xf32> {
  %n = "onnx.LayerNormalization"(%x, %g, %b) : (tensor<?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %s = "onnx.Shape"(%n) {end = 1 : si64} : (tensor<?x64xf32>) -> tensor<1xi64>
  %c = onnx.Constant dense<[4, 64]> : tensor<2xi64>
  %shape = "onnx.Concat"(%s, %c) {axis = 0 : si64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %0 = "onnx.MatMul"(%n, %w) : (tensor<?x64xf32>, tensor<64x256xf32>) -> tensor<?x256xf32>
  %1 = "onnx.Reshape"(%0, %shape) : (tensor<?x256xf32>, tensor<3xi64>) -> tensor<?x4x64xf32>
  return %1 : tensor<?x4x64xf32>
}

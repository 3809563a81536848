// onnx-fuse-elementwise moves com.microsoft.MatMulNBits into the fused group
// of the elementwise ops that alone read its result, as it does MatMul: the
// matrix-vector and tiled kernels apply the group as they store. A decode
// step's residual Add and SiLU(gate) * up cost no dispatch of their own.

// RUN: split-file %s %t
// RUN: onyx-opt %t/decode.mlir --canonicalize --onnx-fuse-elementwise \
// RUN:   --convert-onnx-to-gpu --target=lavapipe | FileCheck %s
// RUN: onyx-run %t/decode.mlir --validate --check --input=1x64xf32=0.5 \
// RUN:   --input=1x48xf32=0.25 | FileCheck %s --check-prefix=EXEC
// RUN: onyx-run %t/rows.mlir --validate --check --atol=1e-5 \
// RUN:   --input-set='1x64xf32=0.5;1x48xf32=0.25' \
// RUN:   --input-set='7x64xf32=-0.5;7x48xf32=1' | FileCheck %s --check-prefix=SETS

//--- decode.mlir
// The residual Add after the down projection and SiLU(gate) * up: two
// dispatches, the gate's product fused with the SiLU and the Mul by up, the
// down product with the Add.
// CHECK: gpu.kernel @matmul_nbits_gemv(
// CHECK: gpu.kernel @matmul_nbits_gemv_1(
// CHECK-SAME: void storeY(uint row, uint col, float v) { uint idx = row * 96u + col;
// CHECK-SAME: precise float v2 = float(((v1) * (x0)));
// CHECK-SAME: y.d[idx] = v2; }
// CHECK: gpu.kernel @matmul_nbits_gemv_2(
// CHECK-SAME: void storeY(uint row, uint col, float v) { uint idx = row * 48u + col;
// CHECK-SAME: precise float v0 = float(((v) + (x0)));
// CHECK: gpu.dispatch @matmul_nbits_gemv[
// CHECK: gpu.dispatch @matmul_nbits_gemv_1[
// CHECK: gpu.dispatch @matmul_nbits_gemv_2[
// CHECK-NOT: gpu.dispatch
// EXEC: output 0 vs ref: {{.*}}: PASS
// SETS-COUNT-2: output 0 vs ref: {{.*}}: PASS
func.func @main(%x: tensor<1x64xf32>, %res: tensor<1x48xf32>) -> tensor<1x48xf32> {
  %c0 = onnx.Constant dense<0> : tensor<i32>
  %c1 = onnx.Constant dense<1> : tensor<i32>
  %bn = onnx.Constant dense<3072> : tensor<i32>
  %br = "onnx.Range"(%c0, %bn, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3072xi32>
  %m37 = onnx.Constant dense<37> : tensor<i32>
  %bm = "onnx.Mul"(%br, %m37) : (tensor<3072xi32>, tensor<i32>) -> tensor<3072xi32>
  %m251 = onnx.Constant dense<251> : tensor<i32>
  %bq = "onnx.Mod"(%bm, %m251) : (tensor<3072xi32>, tensor<i32>) -> tensor<3072xi32>
  %b8 = "onnx.Cast"(%bq) {to = ui8} : (tensor<3072xi32>) -> tensor<3072xui8>
  %gshape = onnx.Constant dense<[96, 2, 16]> : tensor<3xi64>
  %bg = "onnx.Reshape"(%b8, %gshape) : (tensor<3072xui8>, tensor<3xi64>) -> tensor<96x2x16xui8>
  %c0s = onnx.Constant dense<[0]> : tensor<1xi64>
  %c2304 = onnx.Constant dense<[2304]> : tensor<1xi64>
  %ax0 = onnx.Constant dense<[0]> : tensor<1xi64>
  %dshape = onnx.Constant dense<[48, 3, 16]> : tensor<3xi64>
  %bd0 = "onnx.Slice"(%b8, %c0s, %c2304, %ax0) : (tensor<3072xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2304xui8>
  %bd = "onnx.Reshape"(%bd0, %dshape) : (tensor<2304xui8>, tensor<3xi64>) -> tensor<48x3x16xui8>
  %sg = onnx.Constant dense<0.03125> : tensor<192xf32>
  %su = onnx.Constant dense<0.0625> : tensor<192xf32>
  %sd = onnx.Constant dense<0.015625> : tensor<144xf32>
  // gate and up: 64 -> 96 each (the up weight reads B's bytes with another scale)
  %g = "onnx.com.microsoft.MatMulNBits"(%x, %bg, %sg) {K = 64 : si64, N = 96 : si64, block_size = 32 : si64} : (tensor<1x64xf32>, tensor<96x2x16xui8>, tensor<192xf32>) -> tensor<1x96xf32>
  %u = "onnx.com.microsoft.MatMulNBits"(%x, %bg, %su) {K = 64 : si64, N = 96 : si64, block_size = 32 : si64} : (tensor<1x64xf32>, tensor<96x2x16xui8>, tensor<192xf32>) -> tensor<1x96xf32>
  %sig = "onnx.Sigmoid"(%g) : (tensor<1x96xf32>) -> tensor<1x96xf32>
  %silu = "onnx.Mul"(%g, %sig) : (tensor<1x96xf32>, tensor<1x96xf32>) -> tensor<1x96xf32>
  %h = "onnx.Mul"(%silu, %u) : (tensor<1x96xf32>, tensor<1x96xf32>) -> tensor<1x96xf32>
  // down: 96 -> 48, then the residual
  %d = "onnx.com.microsoft.MatMulNBits"(%h, %bd, %sd) {K = 96 : si64, N = 48 : si64, block_size = 32 : si64} : (tensor<1x96xf32>, tensor<48x3x16xui8>, tensor<144xf32>) -> tensor<1x48xf32>
  %y = "onnx.Add"(%d, %res) : (tensor<1x48xf32>, tensor<1x48xf32>) -> tensor<1x48xf32>
  return %y : tensor<1x48xf32>
}

//--- rows.mlir
// Rows known at run time: both kernels of each product take the epilogue.
func.func @main(%x: tensor<?x64xf32>, %res: tensor<?x48xf32>) -> tensor<?x48xf32> {
  %c0 = onnx.Constant dense<0> : tensor<i32>
  %c1 = onnx.Constant dense<1> : tensor<i32>
  %bn = onnx.Constant dense<3072> : tensor<i32>
  %br = "onnx.Range"(%c0, %bn, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3072xi32>
  %m37 = onnx.Constant dense<37> : tensor<i32>
  %bm = "onnx.Mul"(%br, %m37) : (tensor<3072xi32>, tensor<i32>) -> tensor<3072xi32>
  %m251 = onnx.Constant dense<251> : tensor<i32>
  %bq = "onnx.Mod"(%bm, %m251) : (tensor<3072xi32>, tensor<i32>) -> tensor<3072xi32>
  %b8 = "onnx.Cast"(%bq) {to = ui8} : (tensor<3072xi32>) -> tensor<3072xui8>
  %gshape = onnx.Constant dense<[96, 2, 16]> : tensor<3xi64>
  %bg = "onnx.Reshape"(%b8, %gshape) : (tensor<3072xui8>, tensor<3xi64>) -> tensor<96x2x16xui8>
  %c0s = onnx.Constant dense<[0]> : tensor<1xi64>
  %c2304 = onnx.Constant dense<[2304]> : tensor<1xi64>
  %ax0 = onnx.Constant dense<[0]> : tensor<1xi64>
  %dshape = onnx.Constant dense<[48, 3, 16]> : tensor<3xi64>
  %bd0 = "onnx.Slice"(%b8, %c0s, %c2304, %ax0) : (tensor<3072xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2304xui8>
  %bd = "onnx.Reshape"(%bd0, %dshape) : (tensor<2304xui8>, tensor<3xi64>) -> tensor<48x3x16xui8>
  %sg = onnx.Constant dense<0.03125> : tensor<192xf32>
  %su = onnx.Constant dense<0.0625> : tensor<192xf32>
  %sd = onnx.Constant dense<0.015625> : tensor<144xf32>
  // gate and up: 64 -> 96 each (the up weight reads B's bytes with another scale)
  %g = "onnx.com.microsoft.MatMulNBits"(%x, %bg, %sg) {K = 64 : si64, N = 96 : si64, block_size = 32 : si64} : (tensor<?x64xf32>, tensor<96x2x16xui8>, tensor<192xf32>) -> tensor<?x96xf32>
  %u = "onnx.com.microsoft.MatMulNBits"(%x, %bg, %su) {K = 64 : si64, N = 96 : si64, block_size = 32 : si64} : (tensor<?x64xf32>, tensor<96x2x16xui8>, tensor<192xf32>) -> tensor<?x96xf32>
  %sig = "onnx.Sigmoid"(%g) : (tensor<?x96xf32>) -> tensor<?x96xf32>
  %silu = "onnx.Mul"(%g, %sig) : (tensor<?x96xf32>, tensor<?x96xf32>) -> tensor<?x96xf32>
  %h = "onnx.Mul"(%silu, %u) : (tensor<?x96xf32>, tensor<?x96xf32>) -> tensor<?x96xf32>
  // down: 96 -> 48, then the residual
  %d = "onnx.com.microsoft.MatMulNBits"(%h, %bd, %sd) {K = 96 : si64, N = 48 : si64, block_size = 32 : si64} : (tensor<?x96xf32>, tensor<48x3x16xui8>, tensor<144xf32>) -> tensor<?x48xf32>
  %y = "onnx.Add"(%d, %res) : (tensor<?x48xf32>, tensor<?x48xf32>) -> tensor<?x48xf32>
  return %y : tensor<?x48xf32>
}

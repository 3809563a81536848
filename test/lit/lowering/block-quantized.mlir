// onnx.com.microsoft.MatMulNBits: canonicalization drops a g_idx that maps
// each k to its own block; the reference backend honours any other; the
// lowering keeps the weights packed and chooses the matrix-vector kernel for
// at most 4 rows of A, the tiled GEMM's kernels for more, and both where the
// row count is known only at run time; it refuses a g_idx it cannot drop.

// RUN: split-file %s %t
// RUN: onyx-opt %t/g_idx.mlir --canonicalize | FileCheck %s --check-prefix=CANON
// RUN: onyx-run %t/g_idx.mlir --backend=ref --input=1x32xf32=1 --input=1x32xf32=1 \
// RUN:   | FileCheck %s --check-prefix=REF
// RUN: not onyx-run %t/g_idx.mlir --input=1x32xf32=1 --input=1x32xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VK-ERR
// RUN: onyx-opt %t/kernels.mlir --split-input-file --target=lavapipe \
// RUN:   --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-run %t/g_idx_trivial.mlir --validate --check --input=1x32xf32=1 \
// RUN:   | FileCheck %s --check-prefix=VK

//--- g_idx.mlir
// Block 0 holds nibbles 9 (scale 1), block 1 nibbles 10 (scale 2): with
// k / block_size the weights are 1 and 4 (y = 16 + 64); with g_idx all 0
// both blocks take block 0's scale (y = 16 + 32).
// CANON-LABEL: func.func @main
// CANON: "onnx.com.microsoft.MatMulNBits"(%arg0, %{{.*}}, %{{.*}}) {K = 32
// CANON: "onnx.com.microsoft.MatMulNBits"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {K = 32
// REF: output 0: tensor<1x1xf32> = [80]
// REF: output 1: tensor<1x1xf32> = [48]
// VK-ERR: error: 'onnx.com.microsoft.MatMulNBits' op g_idx other than k / block_size (act-order quantization) is not supported on Vulkan
func.func @main(%a: tensor<1x32xf32>, %a2: tensor<1x32xf32>) -> (tensor<1x1xf32>, tensor<1x1xf32>) {
  %b = onnx.Constant dense<[[[153, 153, 153, 153, 153, 153, 153, 153], [170, 170, 170, 170, 170, 170, 170, 170]]]> : tensor<1x2x8xui8>
  %s = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %none = "onnx.NoValue"() {value} : () -> none
  %g = onnx.Constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]> : tensor<32xi32>
  %gz = onnx.Constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<32xi32>
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s, %none, %g) {K = 32 : si64, N = 1 : si64, block_size = 16 : si64} : (tensor<1x32xf32>, tensor<1x2x8xui8>, tensor<2xf32>, none, tensor<32xi32>) -> tensor<1x1xf32>
  %1 = "onnx.com.microsoft.MatMulNBits"(%a2, %b, %s, %none, %gz) {K = 32 : si64, N = 1 : si64, block_size = 16 : si64} : (tensor<1x32xf32>, tensor<1x2x8xui8>, tensor<2xf32>, none, tensor<32xi32>) -> tensor<1x1xf32>
  return %0, %1 : tensor<1x1xf32>, tensor<1x1xf32>
}

//--- g_idx_trivial.mlir
// VK: output 0 vs ref: {{.*}}: PASS
func.func @main(%a: tensor<1x32xf32>) -> tensor<1x1xf32> {
  %b = onnx.Constant dense<[[[153, 153, 153, 153, 153, 153, 153, 153], [170, 170, 170, 170, 170, 170, 170, 170]]]> : tensor<1x2x8xui8>
  %s = onnx.Constant dense<[1.0, 2.0]> : tensor<2xf32>
  %none = "onnx.NoValue"() {value} : () -> none
  %g = onnx.Constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]> : tensor<32xi32>
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s, %none, %g) {K = 32 : si64, N = 1 : si64, block_size = 16 : si64} : (tensor<1x32xf32>, tensor<1x2x8xui8>, tensor<2xf32>, none, tensor<32xi32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

//--- kernels.mlir
// One row: a row of B (128 values of 4 bits in 2 blocks: 64 bytes, 16
// words) is walked by 8 invocations a word each, two words and their
// blocks' scales loaded before either is used, x read as vec4s; 8 columns per workgroup of 64 (a small
// N); each word is one block's, so it costs one scale and the default zero
// point 8, subtracted from the float 2^23 + q; a subgroup cluster adds a
// column's sums.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul_nbits_gemv(read, read, read, write) workgroup_size(64, 1, 1)
// CHECK-SAME: readonly buffer B1 { uint d[]; } b;
// CHECK-SAME: float zeroOf(uint block) { return 8.0; }
// CHECK-SAME: vec4 loadA4(uint row, uint k) { return a.d[(row * 128u + k) / 4u]; }
// CHECK-NOT: shared
// CHECK-SAME: uint li = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
// CHECK-SAME: uint lane = li % 8u, grp = li / 8u;
// CHECK-SAME: for (uint w = lane; w < 16u; w += 16u) {
// CHECK-SAME: uint q0_0 = b.d[cw0 + wi0];
// CHECK-SAME: uint wi1 = min(w + 8u, 15u);
// CHECK-SAME: uint q0_1 = b.d[cw0 + wi1];
// CHECK-SAME: float sc0_0 = scaleOf(cb0 + wi0 / 8u), z0_0 = zeroOf(cb0 + wi0 / 8u);
// CHECK-SAME: float sc0_1 = scaleOf(cb0 + wi1 / 8u), z0_1 = zeroOf(cb0 + wi1 / 8u);
// CHECK-SAME: uint k = w * 8u;
// CHECK-SAME: float sc0 = sc0_0, z0 = z0_0;
// CHECK-SAME: float w0_7 = uintBitsToFloat(((q0_0 >> 28u) & 15u) | 0x4B000000u) - (8388608.0 + z0);
// CHECK-SAME: vec4 x0_1 = loadA4(0u, k + 4u);
// CHECK-SAME: acc0 += sc0 * (w0_0 * x0_0[0] + w0_1 * x0_0[1] + w0_2 * x0_0[2] + w0_3 * x0_0[3] + w0_4 * x0_1[0]
// CHECK-SAME: if (w + 8u < 16u) {
// CHECK-SAME: float sum0 = subgroupClusteredAdd(acc0, 8u);
// CHECK-SAME: if (col0 + 0u < 20u) storeY(0u, col0 + 0u, sum0);
// CHECK: gpu.dispatch @matmul_nbits_gemv[3, 1, 1]
// CHECK-NOT: gpu.dispatch
func.func @main(%x: tensor<1x128xf32>, %s: tensor<20x2xf32>) -> tensor<1x20xf32> {
  %b = onnx.Constant dense<119> : tensor<20x2x32xui8>
  %0 = "onnx.com.microsoft.MatMulNBits"(%x, %b, %s) {K = 128 : si64, N = 20 : si64, block_size = 64 : si64} : (tensor<1x128xf32>, tensor<20x2x32xui8>, tensor<20x2xf32>) -> tensor<1x20xf32>
  return %0 : tensor<1x20xf32>
}

// -----

// A decode-sized row (4096 values, block 32: 2048 bytes, 512 words): 128
// invocations per column, four words each loaded at once (a warp reads 128
// contiguous bytes per load), two columns per invocation sharing each x
// value: 4 columns per workgroup; clusters of the subgroup's 8, then shared
// memory, add a column's sums.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul_nbits_gemv(read, read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: readonly buffer B1 { uint d[]; } b;
// CHECK-SAME: shared float red[64];
// CHECK-SAME: uint lane = li % 128u, grp = li / 128u;
// CHECK-SAME: uint col0 = gl_WorkGroupID.x * 4u + grp * 2u;
// CHECK-SAME: for (uint w = lane; w < 512u; w += 512u) {
// CHECK-SAME: uint q0_0 = b.d[cw0 + wi0];
// CHECK-SAME: uint q1_0 = b.d[cw1 + wi0];
// CHECK-SAME: uint wi3 = min(w + 384u, 511u);
// CHECK-SAME: uint q1_3 = b.d[cw1 + wi3];
// CHECK-SAME: float sc1_3 = scaleOf(cb1 + wi3 / 4u), z1_3 = zeroOf(cb1 + wi3 / 4u);
// CHECK-SAME: acc1 += sc1 * (w1_0 * x0_0[0] + w1_1 * x0_0[1]
// CHECK-SAME: float sum1 = subgroupClusteredAdd(acc1, 8u);
// CHECK-SAME: if (lane % 8u == 0u) {
// CHECK-SAME: red[32u + li / 8u] = sum1;
// CHECK-SAME: t1 += red[32u + grp * 16u + 15u];
// CHECK-SAME: if (col0 + 1u < 4096u) storeY(0u, col0 + 1u, t1);
// CHECK: gpu.dispatch @matmul_nbits_gemv[1024, 1, 1]
// CHECK-NOT: gpu.dispatch
func.func @main(%x: tensor<1x4096xf32>, %s: tensor<4096x128xf32>) -> tensor<1x4096xf32> {
  %b = onnx.Constant dense<119> : tensor<4096x128x16xui8>
  %0 = "onnx.com.microsoft.MatMulNBits"(%x, %b, %s) {K = 4096 : si64, N = 4096 : si64, block_size = 32 : si64} : (tensor<1x4096xf32>, tensor<4096x128x16xui8>, tensor<4096x128xf32>) -> tensor<1x4096xf32>
  return %0 : tensor<1x4096xf32>
}

// -----

// Three rows: every weight dequantized once for the three rows.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul_nbits_gemv(read, read, read, write) workgroup_size(64, 1, 1)
// CHECK-SAME: readonly buffer B1 { uint d[]; } b;
// CHECK-SAME: acc0 += sc0 * (w0_0 * x0_0[0]
// CHECK-SAME: acc1 += sc0 * (w0_0 * x1_0[0]
// CHECK-SAME: acc2 += sc0 * (w0_0 * x2_0[0]
// CHECK-SAME: if (col0 + 0u < 20u) storeY(2u, col0 + 0u, sum2);
// CHECK: gpu.dispatch @matmul_nbits_gemv[3, 1, 1]
// CHECK-NOT: gpu.dispatch
func.func @main(%x: tensor<3x128xf32>, %s: tensor<20x2xf32>) -> tensor<3x20xf32> {
  %b = onnx.Constant dense<119> : tensor<20x2x32xui8>
  %0 = "onnx.com.microsoft.MatMulNBits"(%x, %b, %s) {K = 128 : si64, N = 20 : si64, block_size = 64 : si64} : (tensor<3x128xf32>, tensor<20x2x32xui8>, tensor<20x2xf32>) -> tensor<3x20xf32>
  return %0 : tensor<3x20xf32>
}

// -----

// Eight rows: the tiled GEMM's kernel (dispatchGemm), shaped for this CPU
// device, with B k-contiguous: its copies call loadB4, which dequantizes
// four values of one word with their block's scale and zero point; uint8
// zero points repacked to a byte per block.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul_nbits(read, read, read, read, write) workgroup_size(64, 1, 1)
// CHECK-SAME: readonly buffer B1 { uint d[]; } b;
// CHECK-SAME: float((zeros.d[blk >> 2u] >> ((blk & 3u) * 8u)) & 255u)
// CHECK-SAME: vec4 loadB4(uint k, uint col) {
// CHECK-SAME: uint w = b.d[col * 16u + (bit >> 5u)] >> (bit & 31u);
// CHECK-SAME: (uintBitsToFloat(((w >> 12u) & 15u) | 0x4B000000u) - zb) * sc);
// CHECK-SAME: bv0 = (gc < 72u) ? loadB4(gk, gc) : vec4(0);
// CHECK: gpu.dispatch @matmul_nbits[2, 1, 1]
// CHECK-NOT: gpu.dispatch
func.func @main(%x: tensor<8x128xf32>, %s: tensor<72x2xf32>) -> tensor<8x72xf32> {
  %b = onnx.Constant dense<119> : tensor<72x2x32xui8>
  %z = onnx.Constant dense<136> : tensor<72x1xui8>
  %0 = "onnx.com.microsoft.MatMulNBits"(%x, %b, %s, %z) {K = 128 : si64, N = 72 : si64, block_size = 64 : si64} : (tensor<8x128xf32>, tensor<72x2x32xui8>, tensor<72x2xf32>, tensor<72x1xui8>) -> tensor<8x72xf32>
  return %0 : tensor<8x72xf32>
}

// -----

// Rows known only at run time: the tiled GEMM's kernels for more than 4
// rows (one per class of few rows, as f32 products get, and one for many)
// and the matrix-vector kernel for at most 4, each grid gated by the row
// count.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul_nbits(
// CHECK: gpu.kernel @matmul_nbits_4(
// CHECK: gpu.kernel @matmul_nbits_gemv
// CHECK: gpu.dispatch @matmul_nbits[%{{.*}}, %{{.*}}, 1]
// CHECK: gpu.dispatch @matmul_nbits_4[%{{.*}}, %{{.*}}, 1]
// CHECK: gpu.dispatch @matmul_nbits_gemv[%{{.*}}, 1, 1]
func.func @main(%x: tensor<?x128xf32>, %s: tensor<20x2xf32>) -> tensor<?x20xf32> {
  %b = onnx.Constant dense<119> : tensor<20x2x32xui8>
  %0 = "onnx.com.microsoft.MatMulNBits"(%x, %b, %s) {K = 128 : si64, N = 20 : si64, block_size = 64 : si64} : (tensor<?x128xf32>, tensor<20x2x32xui8>, tensor<20x2xf32>) -> tensor<?x20xf32>
  return %0 : tensor<?x20xf32>
}

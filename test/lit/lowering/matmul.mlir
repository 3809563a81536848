// MatMul and Gemm are one dispatch of the tiled GEMM kernel
// (lowering/TiledGemm.h): each workgroup copies tiles of A and B into shared
// memory, four floats at a time where the contiguous dimension allows, and
// each thread accumulates a block of outputs in registers. The tile follows
// the problem and the target's limits. These are the kernels of a GPU target
// (a CPU device's are in cpu-kernel-choices.mlir); run on lavapipe shaped for
// a GPU (--kernels-for=gpu), the results match the reference backend.

// RUN: split-file %s %t
// RUN: onyx-opt %t/kernels.mlir --split-input-file --target=nvidia \
// RUN:   --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-opt %t/minimum.mlir --target=vulkan --lower | FileCheck %s --check-prefix=MIN
// RUN: onyx-opt %t/errors.mlir --split-input-file --target=lavapipe \
// RUN:   --convert-onnx-to-gpu --verify-diagnostics
// RUN: onyx-run %t/run.mlir --validate --check --kernels-for=gpu --input=1xf32=0 \
// RUN:   | FileCheck %s --check-prefix=VK
// RUN: onyx-opt %t/transposed.mlir --split-input-file --target=nvidia \
// RUN:   --convert-onnx-to-gpu | FileCheck %s --check-prefix=TR
// RUN: onyx-run %t/transposed-run.mlir --validate --check --kernels-for=gpu --input=1xf32=0 \
// RUN:   | FileCheck %s --check-prefix=TRVK
// RUN: onyx-run %t/grouped-run.mlir --validate --check --kernels-for=gpu --input=1xf32=0 \
// RUN:   | FileCheck %s --check-prefix=GRVK
// RUN: onyx-run %t/types.mlir --validate --check --input=2x3xi8=1,2,3,4,5,6 \
// RUN:   --input=3x4xi8=1,2,3,4,5,6,7,8,9,10,11,12 --input=2x3xf16=1,2,3,4,5,6 \
// RUN:   --input=3x4xf16=1,2,3,4,5,6,7,8,9,10,11,12 | FileCheck %s --check-prefix=TYPES
// RUN: onyx-run %libonnx_testdata/node/test_gemm_all_attributes/model.onnx --validate --check \
// RUN:   --input=@%libonnx_testdata/node/test_gemm_all_attributes/test_data_set_0/input_0.pb \
// RUN:   --input=@%libonnx_testdata/node/test_gemm_all_attributes/test_data_set_0/input_1.pb \
// RUN:   --input=@%libonnx_testdata/node/test_gemm_all_attributes/test_data_set_0/input_2.pb \
// RUN:   --expected-output=@%libonnx_testdata/node/test_gemm_all_attributes/test_data_set_0/output_0.pb \
// RUN:   | FileCheck %s --check-prefix=NODE

// ONNX's node test of Gemm with every attribute (transA, transB, alpha,
// beta, C of 1 x N) matches its expected output and the reference backend.
// NODE: output 0: max abs error {{.*}}: PASS
// NODE: output 0 vs ref: max abs error {{.*}}: PASS

//--- kernels.mlir

// A large product (128 workgroups, enough to fill a GPU): 128 x 128 tiles, 8 x 8 outputs per thread, 16 steps of
// k per tile; both operands are read as vec4, the next tile into registers
// while the current one is multiplied. The shared A tile is stored k-major
// with rows padded to 132 floats; a thread reads two vec4s of A and two of
// B per step (its outputs are 2 x 2 blocks of 4 x 4). Sizes that are
// multiples of the tile need no bounds checks.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: layout(set = 0, binding = 0, std430) readonly buffer B0 { vec4 d[]; } a;
// CHECK-SAME: shared vec4 As[528];
// CHECK-SAME: shared vec4 Bs[512];
// CHECK-SAME: vec4 loadA4(uint row, uint k) { return a.d[(aBase + row * 1024u + k) / 4u]; }
// CHECK-SAME: vec4 loadB4(uint k, uint col) { return b.d[(bBase + k * 1024u + col) / 4u]; }
// CHECK-SAME: uint row0 = gl_WorkGroupID.y * 128u, col0 = gl_WorkGroupID.x * 128u;
// CHECK-SAME: av0 = loadA4(gr, gk);
// CHECK-SAME: for (uint k0 = 0u; k0 < 1024u; k0 += 16u)
// CHECK-SAME: As[((ac0 + 3u) * 132u + ar0) / 4u][((ac0 + 3u) * 132u + ar0) % 4u] = av0[3];
// CHECK-SAME: barrier();
// CHECK-SAME: if (k0 + 16u < 1024u)
// CHECK-SAME: av0 = loadA4(gr, gk);
// CHECK-SAME: vec4 a1 = As[kk * 33u + ty + 16u];
// CHECK-SAME: c7_7 += a1[3] * b1[3];
// CHECK-SAME: uint r = row0 + ty * 4u + 67u;
// CHECK-SAME: \0A    storeC(r, col0 + tx * 4u + 67u, c7_7);
// CHECK: gpu.dispatch @matmul[8, 16, 1]
func.func @main(%a: tensor<2048x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<2048x1024xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<2048x1024xf32>, tensor<1024x1024xf32>) -> tensor<2048x1024xf32>
  return %0 : tensor<2048x1024xf32>
}

// -----

// Sizes that are not multiples of the tile are checked at the edges (and
// odd inner dimensions are read one float at a time).
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: float loadA(uint row, uint k) { return a.d[aBase + row * 70u + k]; }
// CHECK-SAME: av0 = (gr < 100u && gk < 70u) ? loadA(gr, gk) : float(0);
// CHECK-SAME: bv0 = (gk < 70u && gc < 33u) ? loadB(gk, gc) : float(0);
// CHECK-SAME: if (r < 100u) {
// CHECK-SAME: if (col0 + tx * 4u + 3u < 33u) storeC(r, col0 + tx * 4u + 3u, c0_3);
// CHECK: gpu.dispatch @matmul[1, 1, 1]
func.func @main(%a: tensor<100x70xf32>, %b: tensor<70x33xf32>) -> tensor<100x33xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<100x70xf32>, tensor<70x33xf32>) -> tensor<100x33xf32>
  return %0 : tensor<100x33xf32>
}

// -----

// Batch dimensions are the grid's z; each operand is offset by its
// broadcast batch index.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write)
// CHECK-SAME: yBase = z * 20u;
// CHECK-SAME: uint bz0 = (z) / 3u;
// CHECK-SAME: uint bz1 = ((z) / 1u) % 3u;
// CHECK-SAME: aBase = (bz0) * 35u;
// CHECK-SAME: bBase = (bz1) * 28u;
// CHECK: gpu.dispatch @matmul[1, 1, 6]
func.func @main(%a: tensor<2x1x5x7xf32>, %b: tensor<3x7x4xf32>) -> tensor<2x3x5x4xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<2x1x5x7xf32>, tensor<3x7x4xf32>) -> tensor<2x3x5x4xf32>
  return %0 : tensor<2x3x5x4xf32>
}

// -----

// When only A has a batch, its matrices are stacked into one product of
// 64 rows: a linear layer of a transformer. Its 64 x 128 tiles would be too
// few to fill a GPU, but a tile is little work, so the product stays one
// dispatch: 48 tiles of 16 x 32, each workgroup 8 groups of 32 threads
// (4 x 4 outputs each), group g summing the g-th 16 of each step of 128
// along k. Groups 4-7 pass their sums to groups 0-3 through shared memory,
// then 2-3 to 0-1, then 1 to 0, which stores.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: void storeC(uint row, uint col, float acc) { uint idx = yBase + row * 384u + col; float v = acc; y.d[idx] = v; }
// CHECK-SAME: shared float Cs[2048];
// CHECK-SAME: aBase = 0u; bBase = 0u; yBase = 0u;
// CHECK-SAME: uint kg = tid / 32u, lt = tid % 32u;
// CHECK-SAME: uint row0 = gl_WorkGroupID.y * 16u, col0 = gl_WorkGroupID.x * 32u;
// CHECK-SAME: for (uint k0 = 0u; k0 < 128u; k0 += 128u)
// CHECK-SAME: for (uint kk = kg * 16u; kk < kg * 16u + 16u; ++kk)
// CHECK-SAME: if (kg >= 4u && kg < 8u) {
// CHECK-SAME: Cs[(kg - 4u) * 512u + 480u + lt] = c3_3;
// CHECK-SAME: barrier();
// CHECK-SAME: if (kg < 4u) {
// CHECK-SAME: c3_3 += Cs[kg * 512u + 480u + lt];
// CHECK-SAME: if (kg >= 1u && kg < 2u) {
// CHECK-SAME: if (kg == 0u) {
// CHECK-SAME: storeC(r, col0 + tx * 4u + 3u, c3_3);
// CHECK-NOT: matmul_reduce
// CHECK: gpu.dispatch @matmul[12, 4, 1]
// CHECK-NOT: gpu.dispatch
func.func @main(%a: tensor<4x16x128xf32>, %b: tensor<128x384xf32>) -> tensor<4x16x384xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<4x16x128xf32>, tensor<128x384xf32>) -> tensor<4x16x384xf32>
  return %0 : tensor<4x16x384xf32>
}

// -----

// Five rows (one more than the matrix-vector kernel takes, gemv.mlir) times
// a matrix: thin tiles of 8 rows and 32 columns; groups of a workgroup
// share k = 256 in one dispatch.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: shared float As[1024];
// CHECK-SAME: uint row0 = gl_WorkGroupID.y * 8u, col0 = gl_WorkGroupID.x * 32u;
// CHECK-NOT: matmul_reduce
// CHECK: gpu.dispatch @matmul[32, 1, 1]
// CHECK-NOT: gpu.dispatch
func.func @main(%a: tensor<5x256xf32>, %b: tensor<256x1000xf32>) -> tensor<5x1000xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<5x256xf32>, tensor<256x1000xf32>) -> tensor<5x1000xf32>
  return %0 : tensor<5x1000xf32>
}

// -----

// A vector times a matrix is the matrix-vector kernel's (gemv.mlir): one
// dispatch, 2 vec4 lanes of columns and 128 slices of k per workgroup.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: uint lane = lt % 2u, kg = lt / 2u;
// CHECK: gpu.dispatch @matmul[125, 1, 1]
// CHECK-NOT: gpu.dispatch
func.func @main(%a: tensor<256xf32>, %b: tensor<256x1000xf32>) -> tensor<1000xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<256xf32>, tensor<256x1000xf32>) -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
}

// -----

// A long k over few tiles: a workgroup per 64 columns would read 1 MiB of
// the matrix, so 4 workgroups per tile (256 in all) share k = 4096 in
// chunks of 1024, and a second kernel adds their partial sums.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write) workgroup_size(64, 1, 1)
// CHECK-SAME: uint kBegin = split * 1024u, kEnd = min(kBegin + 1024u, 4096u);
// CHECK: gpu.kernel @matmul_reduce(read, write)
// CHECK: gpu.dispatch @matmul[64, 1, 4]
// CHECK: gpu.dispatch @matmul_reduce[80, 1, 1]
func.func @main(%a: tensor<5x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<5x4096xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<5x4096xf32>, tensor<4096x4096xf32>) -> tensor<5x4096xf32>
  return %0 : tensor<5x4096xf32>
}

// -----

// The same product with one row is one matrix-vector dispatch: 8 vec4
// lanes (32 columns) and 32 slices of k per workgroup, 128 workgroups.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: uint lane = lt % 8u, kg = lt / 8u;
// CHECK-NOT: matmul_reduce
// CHECK: gpu.dispatch @matmul[128, 1, 1]
// CHECK-NOT: gpu.dispatch
func.func @main(%a: tensor<4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<4096xf32>, tensor<4096x4096xf32>) -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}

// -----

// Gemm reads transposed operands in place and applies alpha, beta and C
// (broadcast along rows) as it stores.
// CHECK-LABEL: module
// CHECK: gpu.kernel @gemm(read, read, read, write)
// CHECK-SAME: float v = uintBitsToFloat(0x3f000000u) * acc + uintBitsToFloat(0x40000000u) * (cIn.d[o1]);
// CHECK-SAME: float loadA(uint row, uint k) { return a.d[aBase + k * 45u + row]; }
// CHECK-SAME: float loadB(uint k, uint col) { return b.d[bBase + col * 29u + k]; }
// CHECK: gpu.dispatch @gemm[1, 1, 1](%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}})
func.func @main(%a: tensor<29x45xf32>, %b: tensor<38x29xf32>, %c: tensor<38xf32>) -> tensor<45x38xf32> {
  %0 = "onnx.Gemm"(%a, %b, %c) {transA = 1 : si64, transB = 1 : si64, alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<29x45xf32>, tensor<38x29xf32>, tensor<38xf32>) -> tensor<45x38xf32>
  return %0 : tensor<45x38xf32>
}

// -----

// A linear layer of batch 8 (transB = 1, the weights as PyTorch stores
// them): 32 tiles of 8 x 16, read as vec4 along k; 8 groups of each
// workgroup share k = 256, in one dispatch; with beta = 0, C is not bound.
// CHECK-LABEL: module
// CHECK: gpu.kernel @gemm(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: void storeC(uint row, uint col, float acc) { uint idx = row * 512u + col; float v = acc; y.d[idx] = v; }
// CHECK-SAME: vec4 loadB4(uint k, uint col) { return b.d[(bBase + col * 256u + k) / 4u]; }
// CHECK-SAME: uint kg = tid / 32u, lt = tid % 32u;
// CHECK-NOT: gemm_reduce
// CHECK: gpu.weight
// CHECK: gpu.dispatch @gemm[32, 1, 1](%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}) :
// CHECK-NOT: gpu.dispatch
func.func @main(%a: tensor<8x256xf32>, %c: tensor<8x512xf32>) -> tensor<8x512xf32> {
  %w = onnx.Constant dense<0.5> : tensor<512x256xf32>
  %0 = "onnx.Gemm"(%a, %w, %c) {transB = 1 : si64, beta = 0.0 : f32} : (tensor<8x256xf32>, tensor<512x256xf32>, tensor<8x512xf32>) -> tensor<8x512xf32>
  return %0 : tensor<8x512xf32>
}

// -----

// Integers accumulate in their compute type (wrapping, as the reference).
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write)
// CHECK-SAME: shared int As[128];
// CHECK-SAME: int loadA(uint row, uint k) { return a.d[aBase + row * 5u + k]; }
func.func @main(%a: tensor<6x5xi32>, %b: tensor<5x4xi32>) -> tensor<6x4xi32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<6x5xi32>, tensor<5x4xi32>) -> tensor<6x4xi32>
  return %0 : tensor<6x4xi32>
}

//--- transposed.mlir

// A Transpose that only a MatMul reads is not materialized: the MatMul
// binds the Transpose's input and reads it through the permuted strides.
// Attention's q (perm [0, 2, 1, 3]) and k transposed for q k^T (perm
// [0, 2, 3, 1]): both contiguous along k, so both read as vec4; only
// the head dimension of the batch moves them. Both tiles stay contiguous
// along k in shared memory (useKContiguousTiles): each copy stores the
// vec4 it loaded, rows (columns) of 16 k padded to 5 vec4s, and the inner
// loop reads a vec4 of four k per row of A and per column of B.
// TR-LABEL: module
// TR-NOT: @transpose
// TR: gpu.kernel @matmul(read, read, write)
// TR-SAME: shared vec4 As[80];
// TR-SAME: shared vec4 Bs[80];
// TR-SAME: vec4 loadA4(uint row, uint k) { return a.d[(aBase + row * 128u + k) / 4u]; }
// TR-SAME: vec4 loadB4(uint k, uint col) { return b.d[(bBase + col * 128u + k) / 4u]; }
// TR-SAME: aBase = 0u + bz1 * 32u;
// TR-SAME: bBase = 0u + bz1 * 32u;
// TR-SAME: As[ar0 * 5u + ac0 / 4u] = av0;
// TR-SAME: Bs[bc0 * 5u + br0 / 4u] = bv0;
// TR-SAME: for (uint kq = 0u; kq < 4u; ++kq)
// TR-SAME: vec4 a0 = As[(ty + 0u) * 5u + kq];
// TR-SAME: vec4 b0 = Bs[(tx + 0u) * 5u + kq];
// TR: gpu.dispatch @matmul[1, 1, 4](%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}) : !gpu.view<1x16x4x32xf32>, !gpu.view<1x16x4x32xf32>, !gpu.view<1x4x16x16xf32>
// TR-NOT: gpu.dispatch
func.func @main(%q: tensor<1x16x4x32xf32>, %k: tensor<1x16x4x32xf32>) -> tensor<1x4x16x16xf32> {
  %qt = "onnx.Transpose"(%q) {perm = [0, 2, 1, 3]} : (tensor<1x16x4x32xf32>) -> tensor<1x4x16x32xf32>
  %kt = "onnx.Transpose"(%k) {perm = [0, 2, 3, 1]} : (tensor<1x16x4x32xf32>) -> tensor<1x4x32x16xf32>
  %0 = "onnx.MatMul"(%qt, %kt) : (tensor<1x4x16x32xf32>, tensor<1x4x32x16xf32>) -> tensor<1x4x16x16xf32>
  return %0 : tensor<1x4x16x16xf32>
}

// -----

// Neither dimension of the matrix contiguous: scalar loads with both
// strides, the batch coordinate stepping one element.
// TR-LABEL: module
// TR-NOT: @transpose
// TR: float loadA(uint row, uint k) { return a.d[aBase + row * 48u + k * 8u]; }
// TR-SAME: aBase = 0u + bz0 * 1u;
// TR: gpu.dispatch @matmul[1, 1, 8]
func.func @main(%x: tensor<4x6x8xf32>, %b: tensor<8x6x5xf32>) -> tensor<8x4x5xf32> {
  %t = "onnx.Transpose"(%x) {perm = [2, 0, 1]} : (tensor<4x6x8xf32>) -> tensor<8x4x6xf32>
  %0 = "onnx.MatMul"(%t, %b) : (tensor<8x4x6xf32>, tensor<8x6x5xf32>) -> tensor<8x4x5xf32>
  return %0 : tensor<8x4x5xf32>
}

// -----

// A's batch no longer steps through memory as its rows do, so its matrices
// do not stack into one: a batch of products sharing B.
// TR-LABEL: module
// TR: aBase = 0u + bz0 * 64u;
// TR-SAME: bBase = 0u;
// TR: gpu.dispatch @matmul[1, 1, 16]
func.func @main(%x: tensor<3x16x64xf32>, %w: tensor<64x16xf32>) -> tensor<16x3x16xf32> {
  %t = "onnx.Transpose"(%x) {perm = [1, 0, 2]} : (tensor<3x16x64xf32>) -> tensor<16x3x64xf32>
  %0 = "onnx.MatMul"(%t, %w) : (tensor<16x3x64xf32>, tensor<64x16xf32>) -> tensor<16x3x16xf32>
  return %0 : tensor<16x3x16xf32>
}

// -----

// A Transpose with another reader is materialized once, and the MatMul
// reads the result as usual.
// TR-LABEL: module
// TR: gpu.dispatch @transpose
// TR: gpu.dispatch @matmul
func.func @main(%x: tensor<4x6x8xf32>, %b: tensor<8x6x5xf32>) -> (tensor<8x4x5xf32>, tensor<8x4x6xf32>) {
  %t = "onnx.Transpose"(%x) {perm = [2, 0, 1]} : (tensor<4x6x8xf32>) -> tensor<8x4x6xf32>
  %0 = "onnx.MatMul"(%t, %b) : (tensor<8x4x6xf32>, tensor<8x6x5xf32>) -> tensor<8x4x5xf32>
  return %0, %t : tensor<8x4x5xf32>, tensor<8x4x6xf32>
}

//--- transposed-run.mlir

// The transposed operands above on lavapipe, against the reference.
// TRVK: output 0 vs ref: {{.*}}: PASS
// TRVK: output 1 vs ref: {{.*}}: PASS
// TRVK: output 2 vs ref: {{.*}}: PASS
func.func @main(%z: tensor<1xf32>) -> (tensor<1x4x16x16xf32>, tensor<8x4x5xf32>, tensor<16x3x16xf32>) {
  %c0 = onnx.Constant dense<0.0> : tensor<f32>
  %c1 = onnx.Constant dense<1.0> : tensor<f32>
  %n1 = onnx.Constant dense<3072.0> : tensor<f32>
  %r = "onnx.Range"(%c0, %n1, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3072xf32>
  %sn = "onnx.Sin"(%r) : (tensor<3072xf32>) -> tensor<3072xf32>
  %s = "onnx.Add"(%sn, %z) : (tensor<3072xf32>, tensor<1xf32>) -> tensor<3072xf32>
  %cs = "onnx.Cos"(%r) : (tensor<3072xf32>) -> tensor<3072xf32>
  %c = "onnx.Add"(%cs, %z) : (tensor<3072xf32>, tensor<1xf32>) -> tensor<3072xf32>
  %b0 = onnx.Constant dense<[0]> : tensor<1xi64>

  %e2048 = onnx.Constant dense<[2048]> : tensor<1xi64>
  %sh4 = onnx.Constant dense<[1, 16, 4, 32]> : tensor<4xi64>
  %p1 = "onnx.Slice"(%s, %b0, %e2048) : (tensor<3072xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2048xf32>
  %q = "onnx.Reshape"(%p1, %sh4) : (tensor<2048xf32>, tensor<4xi64>) -> tensor<1x16x4x32xf32>
  %p2 = "onnx.Slice"(%c, %b0, %e2048) : (tensor<3072xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2048xf32>
  %k = "onnx.Reshape"(%p2, %sh4) : (tensor<2048xf32>, tensor<4xi64>) -> tensor<1x16x4x32xf32>
  %qt = "onnx.Transpose"(%q) {perm = [0, 2, 1, 3]} : (tensor<1x16x4x32xf32>) -> tensor<1x4x16x32xf32>
  %kt = "onnx.Transpose"(%k) {perm = [0, 2, 3, 1]} : (tensor<1x16x4x32xf32>) -> tensor<1x4x32x16xf32>
  %y0 = "onnx.MatMul"(%qt, %kt) : (tensor<1x4x16x32xf32>, tensor<1x4x32x16xf32>) -> tensor<1x4x16x16xf32>

  %e192 = onnx.Constant dense<[192]> : tensor<1xi64>
  %e240 = onnx.Constant dense<[240]> : tensor<1xi64>
  %sh3 = onnx.Constant dense<[4, 6, 8]> : tensor<3xi64>
  %shb = onnx.Constant dense<[8, 6, 5]> : tensor<3xi64>
  %p3 = "onnx.Slice"(%s, %b0, %e192) : (tensor<3072xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<192xf32>
  %x = "onnx.Reshape"(%p3, %sh3) : (tensor<192xf32>, tensor<3xi64>) -> tensor<4x6x8xf32>
  %p4 = "onnx.Slice"(%c, %b0, %e240) : (tensor<3072xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<240xf32>
  %b = "onnx.Reshape"(%p4, %shb) : (tensor<240xf32>, tensor<3xi64>) -> tensor<8x6x5xf32>
  %t = "onnx.Transpose"(%x) {perm = [2, 0, 1]} : (tensor<4x6x8xf32>) -> tensor<8x4x6xf32>
  %y1 = "onnx.MatMul"(%t, %b) : (tensor<8x4x6xf32>, tensor<8x6x5xf32>) -> tensor<8x4x5xf32>

  %e3072 = onnx.Constant dense<[3072]> : tensor<1xi64>
  %e1024 = onnx.Constant dense<[1024]> : tensor<1xi64>
  %shx = onnx.Constant dense<[3, 16, 64]> : tensor<3xi64>
  %shw = onnx.Constant dense<[64, 16]> : tensor<2xi64>
  %x2 = "onnx.Reshape"(%c, %shx) : (tensor<3072xf32>, tensor<3xi64>) -> tensor<3x16x64xf32>
  %p5 = "onnx.Slice"(%s, %b0, %e1024) : (tensor<3072xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1024xf32>
  %w = "onnx.Reshape"(%p5, %shw) : (tensor<1024xf32>, tensor<2xi64>) -> tensor<64x16xf32>
  %t2 = "onnx.Transpose"(%x2) {perm = [1, 0, 2]} : (tensor<3x16x64xf32>) -> tensor<16x3x64xf32>
  %y2 = "onnx.MatMul"(%t2, %w) : (tensor<16x3x64xf32>, tensor<64x16xf32>) -> tensor<16x3x16xf32>
  return %y0, %y1, %y2 : tensor<1x4x16x16xf32>, tensor<8x4x5xf32>, tensor<16x3x16xf32>
}

//--- grouped-run.mlir

// Products whose k the groups of a workgroup share, on lavapipe against the
// reference: edges on every side and a k (200) that is not a multiple of
// the workgroup's step (128); a vector times a matrix.
// GRVK: output 0 vs ref: {{.*}}: PASS
// GRVK: output 1 vs ref: {{.*}}: PASS
func.func @main(%z: tensor<1xf32>) -> (tensor<10x33xf32>, tensor<1000xf32>) {
  %c0 = onnx.Constant dense<0.0> : tensor<f32>
  %c1 = onnx.Constant dense<1.0> : tensor<f32>
  %n1 = onnx.Constant dense<256000.0> : tensor<f32>
  %r = "onnx.Range"(%c0, %n1, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<256000xf32>
  %sn = "onnx.Sin"(%r) : (tensor<256000xf32>) -> tensor<256000xf32>
  %s = "onnx.Add"(%sn, %z) : (tensor<256000xf32>, tensor<1xf32>) -> tensor<256000xf32>
  %b0 = onnx.Constant dense<[0]> : tensor<1xi64>
  %e2000 = onnx.Constant dense<[2000]> : tensor<1xi64>
  %e6600 = onnx.Constant dense<[6600]> : tensor<1xi64>
  %e256 = onnx.Constant dense<[256]> : tensor<1xi64>
  %sha = onnx.Constant dense<[10, 200]> : tensor<2xi64>
  %shb = onnx.Constant dense<[200, 33]> : tensor<2xi64>
  %shm = onnx.Constant dense<[256, 1000]> : tensor<2xi64>
  %p1 = "onnx.Slice"(%s, %b0, %e2000) : (tensor<256000xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2000xf32>
  %a = "onnx.Reshape"(%p1, %sha) : (tensor<2000xf32>, tensor<2xi64>) -> tensor<10x200xf32>
  %cs = "onnx.Cos"(%r) : (tensor<256000xf32>) -> tensor<256000xf32>
  %c = "onnx.Add"(%cs, %z) : (tensor<256000xf32>, tensor<1xf32>) -> tensor<256000xf32>
  %p2 = "onnx.Slice"(%c, %b0, %e6600) : (tensor<256000xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<6600xf32>
  %b = "onnx.Reshape"(%p2, %shb) : (tensor<6600xf32>, tensor<2xi64>) -> tensor<200x33xf32>
  %y0 = "onnx.MatMul"(%a, %b) : (tensor<10x200xf32>, tensor<200x33xf32>) -> tensor<10x33xf32>
  %v = "onnx.Slice"(%c, %b0, %e256) : (tensor<256000xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<256xf32>
  %m = "onnx.Reshape"(%s, %shm) : (tensor<256000xf32>, tensor<2xi64>) -> tensor<256x1000xf32>
  %y1 = "onnx.MatMul"(%v, %m) : (tensor<256xf32>, tensor<256x1000xf32>) -> tensor<1000xf32>
  return %y0, %y1 : tensor<10x33xf32>, tensor<1000xf32>
}

//--- minimum.mlir

// On a device with only the limits Vulkan guarantees (128 invocations,
// 16 KiB of shared memory), the large product takes 64 x 128 tiles.
// MIN: gpu.kernel @matmul(read, read, write) workgroup_size(128, 1, 1)
// MIN: gpu.dispatch @matmul[8, 16, 1]
func.func @main(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

//--- errors.mlir

func.func @main(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{'alpha' = 5.000000e-01 is not a whole number, which the GEMM kernel needs for element type i32}}
  %0 = "onnx.Gemm"(%a, %b) {alpha = 0.5 : f32} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

func.func @main(%a: tensor<3x0xf32>, %b: tensor<0x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{has an empty inner dimension, which the GEMM kernel does not handle}}
  %0 = "onnx.MatMul"(%a, %b) : (tensor<3x0xf32>, tensor<0x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

//--- run.mlir

// Operands of sines and cosines (so that every element differs), added to
// the argument so that nothing folds: a product with edges on every side,
// a broadcast batch, a vector times a matrix, and Gemm with both operands
// transposed and C broadcast along columns.
// VK: output 0 vs ref: {{.*}}: PASS
// VK: output 1 vs ref: {{.*}}: PASS
// VK: output 2 vs ref: {{.*}}: PASS
// VK: output 3 vs ref: {{.*}}: PASS
func.func @main(%z: tensor<1xf32>) -> (tensor<37x33xf32>, tensor<2x3x5x4xf32>, tensor<33xf32>, tensor<33x37xf32>) {
  %c0 = onnx.Constant dense<0.0> : tensor<f32>
  %c1 = onnx.Constant dense<1.0> : tensor<f32>
  %n1 = onnx.Constant dense<2590.0> : tensor<f32>
  %s1 = onnx.Constant dense<[37, 70]> : tensor<2xi64>
  %n2 = onnx.Constant dense<2310.0> : tensor<f32>
  %s2 = onnx.Constant dense<[70, 33]> : tensor<2xi64>
  %r1 = "onnx.Range"(%c0, %n1, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2590xf32>
  %t1 = "onnx.Sin"(%r1) : (tensor<2590xf32>) -> tensor<2590xf32>
  %u1 = "onnx.Add"(%t1, %z) : (tensor<2590xf32>, tensor<1xf32>) -> tensor<2590xf32>
  %a = "onnx.Reshape"(%u1, %s1) : (tensor<2590xf32>, tensor<2xi64>) -> tensor<37x70xf32>
  %r2 = "onnx.Range"(%c0, %n2, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2310xf32>
  %t2 = "onnx.Cos"(%r2) : (tensor<2310xf32>) -> tensor<2310xf32>
  %u2 = "onnx.Add"(%t2, %z) : (tensor<2310xf32>, tensor<1xf32>) -> tensor<2310xf32>
  %b = "onnx.Reshape"(%u2, %s2) : (tensor<2310xf32>, tensor<2xi64>) -> tensor<70x33xf32>
  %y0 = "onnx.MatMul"(%a, %b) : (tensor<37x70xf32>, tensor<70x33xf32>) -> tensor<37x33xf32>
  %n3 = onnx.Constant dense<70.0> : tensor<f32>
  %s3 = onnx.Constant dense<[2, 1, 5, 7]> : tensor<4xi64>
  %n4 = onnx.Constant dense<84.0> : tensor<f32>
  %s4 = onnx.Constant dense<[3, 7, 4]> : tensor<3xi64>
  %r3 = "onnx.Range"(%c0, %n3, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<70xf32>
  %t3 = "onnx.Sin"(%r3) : (tensor<70xf32>) -> tensor<70xf32>
  %u3 = "onnx.Add"(%t3, %z) : (tensor<70xf32>, tensor<1xf32>) -> tensor<70xf32>
  %a3 = "onnx.Reshape"(%u3, %s3) : (tensor<70xf32>, tensor<4xi64>) -> tensor<2x1x5x7xf32>
  %r4 = "onnx.Range"(%c0, %n4, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<84xf32>
  %t4 = "onnx.Cos"(%r4) : (tensor<84xf32>) -> tensor<84xf32>
  %u4 = "onnx.Add"(%t4, %z) : (tensor<84xf32>, tensor<1xf32>) -> tensor<84xf32>
  %b4 = "onnx.Reshape"(%u4, %s4) : (tensor<84xf32>, tensor<3xi64>) -> tensor<3x7x4xf32>
  %y1 = "onnx.MatMul"(%a3, %b4) : (tensor<2x1x5x7xf32>, tensor<3x7x4xf32>) -> tensor<2x3x5x4xf32>
  %y2 = "onnx.MatMul"(%u3, %b) : (tensor<70xf32>, tensor<70x33xf32>) -> tensor<33xf32>
  %s5 = onnx.Constant dense<[33, 1]> : tensor<2xi64>
  %c = "onnx.Reshape"(%y2, %s5) : (tensor<33xf32>, tensor<2xi64>) -> tensor<33x1xf32>
  %y3 = "onnx.Gemm"(%b, %a, %c) {transA = 1 : si64, transB = 1 : si64, alpha = 0.5 : f32, beta = -1.0 : f32} : (tensor<70x33xf32>, tensor<37x70xf32>, tensor<33x1xf32>) -> tensor<33x37xf32>
  return %y0, %y1, %y2, %y3 : tensor<37x33xf32>, tensor<2x3x5x4xf32>, tensor<33xf32>, tensor<33x37xf32>
}

//--- types.mlir

// Narrow types are stored narrow and computed in int or float: the int8
// product wraps as the reference's does.
// TYPES: output 0: tensor<2x4xi8> = [38, 44, 50, 56, 83, 98, 113, -128]
// TYPES: output 0 vs ref: max abs error 0, max rel error 0: PASS
// TYPES: output 1 vs ref: max abs error 0, max rel error 0: PASS
func.func @main(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>, %c: tensor<2x3xf16>, %d: tensor<3x4xf16>) -> (tensor<2x4xi8>, tensor<2x4xf16>) {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  %1 = "onnx.MatMul"(%c, %d) : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<2x4xf16>
  return %0, %1 : tensor<2x4xi8>, tensor<2x4xf16>
}

// MatMul and Gemm are one dispatch of the tiled GEMM kernel
// (lowering/TiledGemm.h): each workgroup copies tiles of A and B into shared
// memory, four floats at a time where the contiguous dimension allows, and
// each thread accumulates a block of outputs in registers. The tile follows
// the problem and the target's limits. On lavapipe the results match the
// reference backend.

// RUN: split-file %s %t
// RUN: onyx-opt %t/kernels.mlir --split-input-file --target=lavapipe \
// RUN:   --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-opt %t/minimum.mlir --target=vulkan --lower | FileCheck %s --check-prefix=MIN
// RUN: onyx-opt %t/errors.mlir --split-input-file --target=lavapipe \
// RUN:   --convert-onnx-to-gpu --verify-diagnostics
// RUN: onyx-run %t/run.mlir --validate --check --input=1xf32=0 \
// RUN:   | FileCheck %s --check-prefix=VK
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
// 64 rows: a linear layer of a transformer. Its 3 tiles are too few to fill
// a GPU, so 4 workgroups per tile share k = 128, each writing the partial
// sums of 32 steps; a second kernel adds them in order and stores.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: writeonly buffer B2 { float d[]; } partial;
// CHECK-SAME: void storeC(uint row, uint col, float acc) { partial.d[pBase + row * 384u + col] = acc; }
// CHECK-SAME: uint z = gl_WorkGroupID.z / 4u, split = gl_WorkGroupID.z % 4u;
// CHECK-SAME: pBase = gl_WorkGroupID.z * 24576u;
// CHECK-SAME: uint kBegin = split * 32u, kEnd = min(kBegin + 32u, 128u);
// CHECK-SAME: aBase = 0u; bBase = 0u; yBase = 0u;
// CHECK-SAME: uint row0 = gl_WorkGroupID.y * 64u, col0 = gl_WorkGroupID.x * 128u;
// CHECK-SAME: for (uint k0 = kBegin; k0 < kEnd; k0 += 16u)
// CHECK-SAME: if (k0 + 16u < kEnd)
// CHECK: gpu.kernel @matmul_reduce(read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: void storeC(uint row, uint col, float acc) { uint idx = yBase + row * 384u + col; float v = acc; y.d[idx] = v; }
// CHECK-SAME: uint pi = z * 98304u + rc;
// CHECK-SAME: for (uint s = 1u; s < 4u; ++s)
// CHECK-SAME: acc += partial.d[pi + s * 24576u];
// CHECK-SAME: storeC(rc / 384u, rc % 384u, acc);
// CHECK: gpu.dispatch @matmul[3, 1, 4](%{{[^,]+}}, %{{[^,]+}}, %[[P:[0-9]+]])
// CHECK-SAME: !gpu.view<98304xf32>
// CHECK: gpu.dispatch @matmul_reduce[96, 1, 1](%[[P]], %{{[^,]+}})
func.func @main(%a: tensor<4x16x128xf32>, %b: tensor<128x384xf32>) -> tensor<4x16x384xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<4x16x128xf32>, tensor<128x384xf32>) -> tensor<4x16x384xf32>
  return %0 : tensor<4x16x384xf32>
}

// -----

// A vector times a matrix: one row per tile, 64 columns, one per thread;
// 8 workgroups per tile share k.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write) workgroup_size(64, 1, 1)
// CHECK-SAME: shared float As[16];
// CHECK-SAME: uint row0 = gl_WorkGroupID.y * 1u, col0 = gl_WorkGroupID.x * 64u;
// CHECK: gpu.dispatch @matmul[16, 1, 8]
// CHECK: gpu.dispatch @matmul_reduce[4, 1, 1]
func.func @main(%a: tensor<256xf32>, %b: tensor<256x1000xf32>) -> tensor<1000xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<256xf32>, tensor<256x1000xf32>) -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
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
// them): 8 rows per tile, read as vec4 along k; 8 tiles share k = 256 in
// chunks of 32, and the reduction stores; with beta = 0, C is not bound.
// CHECK-LABEL: module
// CHECK: gpu.kernel @gemm(read, read, write) workgroup_size(64, 1, 1)
// CHECK-SAME: vec4 loadB4(uint k, uint col) { return b.d[(bBase + col * 256u + k) / 4u]; }
// CHECK: gpu.kernel @gemm_reduce(read, write)
// CHECK-SAME: void storeC(uint row, uint col, float acc) { uint idx = row * 512u + col; float v = acc; y.d[idx] = v; }
// CHECK: gpu.weight
// CHECK: gpu.dispatch @gemm[8, 1, 8](%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}) :
// CHECK: gpu.dispatch @gemm_reduce[16, 1, 1](%{{[^,]+}}, %{{[^,]+}}) :
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

// Products of at most four rows (a decode step: one token times a weight)
// run as one matrix-vector kernel (lowering/Gemv.cpp): a workgroup owns a
// block of output columns and all of k, its threads split between columns
// and slices of k, and the slices' sums meet in shared memory before one
// store with the GEMM's epilogue. On lavapipe each form matches the
// reference backend.

// RUN: split-file %s %t
// RUN: onyx-opt %t/kernels.mlir --split-input-file --target=lavapipe \
// RUN:   --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-opt %t/vulkan.mlir --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=VULKAN
// RUN: onyx-run %t/run.mlir --validate --check --input=1xf32=0 \
// RUN:   | FileCheck %s --check-prefix=VK

//--- kernels.mlir

// A MatMul weight [k, n] has its columns contiguous: lanes walk the
// columns, four per vec4, the other threads rows of k. 2304 columns in
// vec4s of 4 lanes make 144 workgroups of 64 slices of k.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: shared vec4 red[256];
// CHECK-SAME: uint lane = lt % 4u, kg = lt / 4u;
// CHECK-SAME: uint col = gl_WorkGroupID.x * 16u + lane * 4u;
// CHECK-SAME: for (uint k = kg; k < 768u; k += 64u) {
// CHECK-SAME: vec4 bv = loadB4(k, col);
// CHECK-SAME: acc0 += loadA(0u, k) * bv;
// CHECK-SAME: if (kg < 32u) red[lt] += red[lt + 128u];
// CHECK-SAME: if (kg < 1u) red[lt] += red[lt + 4u];
// CHECK-SAME: storeC(0u, col + 3u, red[lt][3]);
// CHECK: gpu.dispatch @matmul[144, 1, 1]
// CHECK-NOT: gpu.dispatch
func.func @main(%x: tensor<1x768xf32>, %w: tensor<768x2304xf32>) -> tensor<1x2304xf32> {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<1x768xf32>, tensor<768x2304xf32>) -> tensor<1x2304xf32>
  return %0 : tensor<1x2304xf32>
}

// -----

// A Gemm with transB reads a weight [n, k], each column's k contiguous: 32
// threads per column along k, a vec4 each, four loads in flight, 8
// columns per workgroup; alpha, beta and C are applied as it stores. Two
// rows of A, two sums, each added in subgroup clusters (lavapipe's
// subgroups are 8 wide) and then, 4 per column, in shared memory.
// CHECK-LABEL: module
// CHECK: gpu.kernel @gemm(read, read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: #extension GL_KHR_shader_subgroup_clustered : require
// CHECK-SAME: uint li = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
// CHECK-SAME: uint lane = li % 32u, c = li / 32u;
// CHECK-SAME: for (; k + 384u < 576u; k += 512u) {
// CHECK-SAME: vec4 b3 = loadB4(k + 384u, col);
// CHECK-SAME: acc1 += dot(loadA4(1u, k + 384u), b3);
// CHECK-SAME: for (; k < 576u; k += 128u) {
// CHECK-SAME: float sum1 = subgroupClusteredAdd(acc1, 8u);
// CHECK-SAME: if (lane % 8u == 0u) red[li / 8u] = sum1;
// CHECK-SAME: t += red[c * 4u + 3u];
// CHECK-SAME: storeC(1u, col, t);
// CHECK: gpu.dispatch @gemm[192, 1, 1]
func.func @main(%x: tensor<2x576xf32>, %w: tensor<1536x576xf32>, %b: tensor<1536xf32>) -> tensor<2x1536xf32> {
  %0 = "onnx.Gemm"(%x, %w, %b) {transB = 1 : si64} : (tensor<2x576xf32>, tensor<1536x576xf32>, tensor<1536xf32>) -> tensor<2x1536xf32>
  return %0 : tensor<2x1536xf32>
}

// -----

// Columns that do not fill vec4s are read one per lane; lanes are halved
// down to 8 (32 bytes of a row) while there are fewer than 128 workgroups.
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: shared float red[256];
// CHECK-SAME: uint lane = lt % 8u, kg = lt / 8u;
// CHECK-SAME: float bv = loadB(k, col);
// CHECK: gpu.dispatch @matmul[17, 1, 1]
func.func @main(%x: tensor<1x200xf32>, %w: tensor<200x130xf32>) -> tensor<1x130xf32> {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<1x200xf32>, tensor<200x130xf32>) -> tensor<1x130xf32>
  return %0 : tensor<1x130xf32>
}

// -----

// Five rows or a small B stay with the tiled kernel (lavapipe's, a CPU
// device's: 768 columns in three tiles of 256, A read four floats at a time).
// CHECK-LABEL: module
// CHECK: gpu.kernel @matmul(read, read, write)
// CHECK-SAME: shared vec4 As[32]
// CHECK: gpu.kernel @matmul_1(read, read, write)
// CHECK-SAME: shared float As[
// CHECK: gpu.dispatch @matmul[3, 1, 1]
func.func @main(%x: tensor<5x768xf32>, %w: tensor<768x768xf32>, %y: tensor<1x64xf32>, %v: tensor<64x64xf32>) -> (tensor<5x768xf32>, tensor<1x64xf32>) {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<5x768xf32>, tensor<768x768xf32>) -> tensor<5x768xf32>
  %1 = "onnx.MatMul"(%y, %v) : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  return %0, %1 : tensor<5x768xf32>, tensor<1x64xf32>
}

//--- vulkan.mlir

// A long k doubles the invocations per column while each still reads 16
// or more elements: 128 for a k of 3072 (24 each), one column per
// workgroup of the default target's 128. Without subgroup operations
// there, shared memory adds all the lanes' sums.
// VULKAN-LABEL: module
// VULKAN: gpu.kernel @gemm(read, read, write) workgroup_size(128, 1, 1)
// VULKAN-NOT: subgroup
// VULKAN-SAME: uint li = lt;
// VULKAN-SAME: uint lane = li % 128u, c = li / 128u;
// VULKAN-SAME: if (lane < 64u) red[li] += red[li + 64u];
// VULKAN-SAME: if (lane == 0u && inside) storeC(0u, col, red[li]);
// VULKAN: gpu.dispatch @gemm[768, 1, 1]
func.func @main(%x: tensor<1x3072xf32>, %w: tensor<768x3072xf32>) -> tensor<1x768xf32> {
  %0 = "onnx.Gemm"(%x, %w) {transB = 1 : si64} : (tensor<1x3072xf32>, tensor<768x3072xf32>) -> tensor<1x768xf32>
  return %0 : tensor<1x768xf32>
}

//--- run.mlir

// Operands of sines and cosines (every element differs), added to the
// argument so that nothing folds: vec4 columns, scalar columns with three
// rows, Gemm with transB, alpha and C (k in vec4s), Gemm with transB and
// k of 130 (scalar), a batch of two products, and a MatMul whose Add of a
// bias and Relu are fused into its store.
// VK: output 0 vs ref: {{.*}}: PASS
// VK: output 1 vs ref: {{.*}}: PASS
// VK: output 2 vs ref: {{.*}}: PASS
// VK: output 3 vs ref: {{.*}}: PASS
// VK: output 4 vs ref: {{.*}}: PASS
// VK: output 5 vs ref: {{.*}}: PASS
func.func @main(%z: tensor<1xf32>) -> (tensor<1x200xf32>, tensor<3x130xf32>, tensor<2x96xf32>, tensor<1x128xf32>, tensor<2x1x128xf32>, tensor<1x200xf32>) {
  %c0 = onnx.Constant dense<0.0> : tensor<f32>
  %c1 = onnx.Constant dense<1.0> : tensor<f32>
  %n0 = onnx.Constant dense<256.0> : tensor<f32>
  %s0 = onnx.Constant dense<[1, 256]> : tensor<2xi64>
  %r0 = "onnx.Range"(%c0, %n0, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<256xf32>
  %t0 = "onnx.Sin"(%r0) : (tensor<256xf32>) -> tensor<256xf32>
  %u0 = "onnx.Add"(%t0, %z) : (tensor<256xf32>, tensor<1xf32>) -> tensor<256xf32>
  %v0 = "onnx.Reshape"(%u0, %s0) : (tensor<256xf32>, tensor<2xi64>) -> tensor<1x256xf32>
  %n1 = onnx.Constant dense<51200.0> : tensor<f32>
  %s1 = onnx.Constant dense<[256, 200]> : tensor<2xi64>
  %r1 = "onnx.Range"(%c0, %n1, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<51200xf32>
  %t1 = "onnx.Cos"(%r1) : (tensor<51200xf32>) -> tensor<51200xf32>
  %u1 = "onnx.Add"(%t1, %z) : (tensor<51200xf32>, tensor<1xf32>) -> tensor<51200xf32>
  %v1 = "onnx.Reshape"(%u1, %s1) : (tensor<51200xf32>, tensor<2xi64>) -> tensor<256x200xf32>
  %y0 = "onnx.MatMul"(%v0, %v1) : (tensor<1x256xf32>, tensor<256x200xf32>) -> tensor<1x200xf32>
  %n2 = onnx.Constant dense<384.0> : tensor<f32>
  %s2 = onnx.Constant dense<[3, 128]> : tensor<2xi64>
  %r2 = "onnx.Range"(%c0, %n2, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<384xf32>
  %t2 = "onnx.Sin"(%r2) : (tensor<384xf32>) -> tensor<384xf32>
  %u2 = "onnx.Add"(%t2, %z) : (tensor<384xf32>, tensor<1xf32>) -> tensor<384xf32>
  %v2 = "onnx.Reshape"(%u2, %s2) : (tensor<384xf32>, tensor<2xi64>) -> tensor<3x128xf32>
  %n3 = onnx.Constant dense<16640.0> : tensor<f32>
  %s3 = onnx.Constant dense<[128, 130]> : tensor<2xi64>
  %r3 = "onnx.Range"(%c0, %n3, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<16640xf32>
  %t3 = "onnx.Cos"(%r3) : (tensor<16640xf32>) -> tensor<16640xf32>
  %u3 = "onnx.Add"(%t3, %z) : (tensor<16640xf32>, tensor<1xf32>) -> tensor<16640xf32>
  %v3 = "onnx.Reshape"(%u3, %s3) : (tensor<16640xf32>, tensor<2xi64>) -> tensor<128x130xf32>
  %y1 = "onnx.MatMul"(%v2, %v3) : (tensor<3x128xf32>, tensor<128x130xf32>) -> tensor<3x130xf32>
  %n4 = onnx.Constant dense<512.0> : tensor<f32>
  %s4 = onnx.Constant dense<[2, 256]> : tensor<2xi64>
  %r4 = "onnx.Range"(%c0, %n4, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<512xf32>
  %t4 = "onnx.Sin"(%r4) : (tensor<512xf32>) -> tensor<512xf32>
  %u4 = "onnx.Add"(%t4, %z) : (tensor<512xf32>, tensor<1xf32>) -> tensor<512xf32>
  %v4 = "onnx.Reshape"(%u4, %s4) : (tensor<512xf32>, tensor<2xi64>) -> tensor<2x256xf32>
  %n5 = onnx.Constant dense<24576.0> : tensor<f32>
  %s5 = onnx.Constant dense<[96, 256]> : tensor<2xi64>
  %r5 = "onnx.Range"(%c0, %n5, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<24576xf32>
  %t5 = "onnx.Cos"(%r5) : (tensor<24576xf32>) -> tensor<24576xf32>
  %u5 = "onnx.Add"(%t5, %z) : (tensor<24576xf32>, tensor<1xf32>) -> tensor<24576xf32>
  %v5 = "onnx.Reshape"(%u5, %s5) : (tensor<24576xf32>, tensor<2xi64>) -> tensor<96x256xf32>
  %n6 = onnx.Constant dense<96.0> : tensor<f32>
  %s6 = onnx.Constant dense<[96]> : tensor<1xi64>
  %r6 = "onnx.Range"(%c0, %n6, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<96xf32>
  %t6 = "onnx.Sin"(%r6) : (tensor<96xf32>) -> tensor<96xf32>
  %u6 = "onnx.Add"(%t6, %z) : (tensor<96xf32>, tensor<1xf32>) -> tensor<96xf32>
  %v6 = "onnx.Reshape"(%u6, %s6) : (tensor<96xf32>, tensor<1xi64>) -> tensor<96xf32>
  %y2 = "onnx.Gemm"(%v4, %v5, %v6) {transB = 1 : si64, alpha = 0.5 : f32} : (tensor<2x256xf32>, tensor<96x256xf32>, tensor<96xf32>) -> tensor<2x96xf32>
  %n7 = onnx.Constant dense<130.0> : tensor<f32>
  %s7 = onnx.Constant dense<[1, 130]> : tensor<2xi64>
  %r7 = "onnx.Range"(%c0, %n7, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<130xf32>
  %t7 = "onnx.Cos"(%r7) : (tensor<130xf32>) -> tensor<130xf32>
  %u7 = "onnx.Add"(%t7, %z) : (tensor<130xf32>, tensor<1xf32>) -> tensor<130xf32>
  %v7 = "onnx.Reshape"(%u7, %s7) : (tensor<130xf32>, tensor<2xi64>) -> tensor<1x130xf32>
  %n8 = onnx.Constant dense<16640.0> : tensor<f32>
  %s8 = onnx.Constant dense<[128, 130]> : tensor<2xi64>
  %r8 = "onnx.Range"(%c0, %n8, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<16640xf32>
  %t8 = "onnx.Sin"(%r8) : (tensor<16640xf32>) -> tensor<16640xf32>
  %u8 = "onnx.Add"(%t8, %z) : (tensor<16640xf32>, tensor<1xf32>) -> tensor<16640xf32>
  %v8 = "onnx.Reshape"(%u8, %s8) : (tensor<16640xf32>, tensor<2xi64>) -> tensor<128x130xf32>
  %y3 = "onnx.Gemm"(%v7, %v8) {transB = 1 : si64} : (tensor<1x130xf32>, tensor<128x130xf32>) -> tensor<1x128xf32>
  %n9 = onnx.Constant dense<256.0> : tensor<f32>
  %s9 = onnx.Constant dense<[2, 1, 128]> : tensor<3xi64>
  %r9 = "onnx.Range"(%c0, %n9, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<256xf32>
  %t9 = "onnx.Sin"(%r9) : (tensor<256xf32>) -> tensor<256xf32>
  %u9 = "onnx.Add"(%t9, %z) : (tensor<256xf32>, tensor<1xf32>) -> tensor<256xf32>
  %v9 = "onnx.Reshape"(%u9, %s9) : (tensor<256xf32>, tensor<3xi64>) -> tensor<2x1x128xf32>
  %n10 = onnx.Constant dense<32768.0> : tensor<f32>
  %s10 = onnx.Constant dense<[2, 128, 128]> : tensor<3xi64>
  %r10 = "onnx.Range"(%c0, %n10, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<32768xf32>
  %t10 = "onnx.Cos"(%r10) : (tensor<32768xf32>) -> tensor<32768xf32>
  %u10 = "onnx.Add"(%t10, %z) : (tensor<32768xf32>, tensor<1xf32>) -> tensor<32768xf32>
  %v10 = "onnx.Reshape"(%u10, %s10) : (tensor<32768xf32>, tensor<3xi64>) -> tensor<2x128x128xf32>
  %y4 = "onnx.MatMul"(%v9, %v10) : (tensor<2x1x128xf32>, tensor<2x128x128xf32>) -> tensor<2x1x128xf32>
  %n11 = onnx.Constant dense<256.0> : tensor<f32>
  %s11 = onnx.Constant dense<[1, 256]> : tensor<2xi64>
  %r11 = "onnx.Range"(%c0, %n11, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<256xf32>
  %t11 = "onnx.Cos"(%r11) : (tensor<256xf32>) -> tensor<256xf32>
  %u11 = "onnx.Add"(%t11, %z) : (tensor<256xf32>, tensor<1xf32>) -> tensor<256xf32>
  %v11 = "onnx.Reshape"(%u11, %s11) : (tensor<256xf32>, tensor<2xi64>) -> tensor<1x256xf32>
  %n12 = onnx.Constant dense<51200.0> : tensor<f32>
  %s12 = onnx.Constant dense<[256, 200]> : tensor<2xi64>
  %r12 = "onnx.Range"(%c0, %n12, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<51200xf32>
  %t12 = "onnx.Sin"(%r12) : (tensor<51200xf32>) -> tensor<51200xf32>
  %u12 = "onnx.Add"(%t12, %z) : (tensor<51200xf32>, tensor<1xf32>) -> tensor<51200xf32>
  %v12 = "onnx.Reshape"(%u12, %s12) : (tensor<51200xf32>, tensor<2xi64>) -> tensor<256x200xf32>
  %n13 = onnx.Constant dense<200.0> : tensor<f32>
  %s13 = onnx.Constant dense<[200]> : tensor<1xi64>
  %r13 = "onnx.Range"(%c0, %n13, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<200xf32>
  %t13 = "onnx.Cos"(%r13) : (tensor<200xf32>) -> tensor<200xf32>
  %u13 = "onnx.Add"(%t13, %z) : (tensor<200xf32>, tensor<1xf32>) -> tensor<200xf32>
  %v13 = "onnx.Reshape"(%u13, %s13) : (tensor<200xf32>, tensor<1xi64>) -> tensor<200xf32>
  %m5 = "onnx.MatMul"(%v11, %v12) : (tensor<1x256xf32>, tensor<256x200xf32>) -> tensor<1x200xf32>
  %a5 = "onnx.Add"(%m5, %v13) : (tensor<1x200xf32>, tensor<200xf32>) -> tensor<1x200xf32>
  %y5 = "onnx.Relu"(%a5) : (tensor<1x200xf32>) -> tensor<1x200xf32>
  return %y0, %y1, %y2, %y3, %y4, %y5 : tensor<1x200xf32>, tensor<3x130xf32>, tensor<2x96xf32>, tensor<1x128xf32>, tensor<2x1x128xf32>, tensor<1x200xf32>
}

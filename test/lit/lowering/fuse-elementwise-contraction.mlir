// A MatMul, Gemm or Conv whose result only an elementwise tree reads, with
// the tree's result shape, moves into the tree's onnx.FusedElementwise as
// its first op: one kernel computes the product and applies the tree to
// each element as it stores it (when workgroups split k, in the kernel that
// adds the partial sums). The kernels are a GPU target's; run on lavapipe
// shaped for a GPU (--kernels-for=gpu), the results match the reference
// backend.

// RUN: split-file %s %t
// RUN: onyx-opt %t/fuse.mlir --split-input-file --target=lavapipe \
// RUN:   --onnx-fuse-elementwise | FileCheck %s
// RUN: onyx-opt %t/limit.mlir --target=vulkan --onnx-fuse-elementwise \
// RUN:   | FileCheck %s --check-prefix=LIMIT
// RUN: onyx-opt %t/kernels.mlir --split-input-file --target=nvidia \
// RUN:   --onnx-fuse-elementwise --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=KERNEL
// RUN: onyx-run %t/run.mlir --validate --check --kernels-for=gpu --input=1xf32=0.25 \
// RUN:   | FileCheck %s --check-prefix=VK

//--- fuse.mlir

// A linear layer with bias and activation: the MatMul comes first in the
// body, its operands are arguments like the bias.
// CHECK-LABEL: func.func @matmul_add_relu
// CHECK-SAME: (%[[X:.+]]: tensor<8x64xf32>, %[[W:.+]]: tensor<64x32xf32>, %[[B:.+]]: tensor<32xf32>)
// CHECK: %[[R:.+]] = "onnx.FusedElementwise"(%[[X]], %[[W]], %[[B]]) ({
// CHECK-NEXT: ^bb0(%[[A0:.+]]: tensor<8x64xf32>, %[[A1:.+]]: tensor<64x32xf32>, %[[A2:.+]]: tensor<32xf32>):
// CHECK-NEXT: %[[M:.+]] = "onnx.MatMul"(%[[A0]], %[[A1]])
// CHECK-NEXT: %[[ADD:.+]] = "onnx.Add"(%[[M]], %[[A2]])
// CHECK-NEXT: %[[RELU:.+]] = "onnx.Relu"(%[[ADD]])
// CHECK-NEXT: "onnx.Yield"(%[[RELU]])
// CHECK-NEXT: }) : (tensor<8x64xf32>, tensor<64x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: return %[[R]]
func.func @matmul_add_relu(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = "onnx.Add"(%0, %b) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %2 = "onnx.Relu"(%1) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}

// -----

// A single op after the contraction is enough: Conv and Relu.
// CHECK-LABEL: func.func @conv_relu
// CHECK: "onnx.FusedElementwise"(%arg0, %arg1, %arg2) ({
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "onnx.Conv"
// CHECK-NEXT: "onnx.Relu"
// CHECK-NEXT: "onnx.Yield"
func.func @conv_relu(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %0 = "onnx.Conv"(%x, %w, %b) {pads = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %1 = "onnx.Relu"(%0) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %1 : tensor<1x4x8x8xf32>
}

// -----

// Gemm and a residual Add; Gemm's attributes stay on it.
// CHECK-LABEL: func.func @gemm_add
// CHECK: "onnx.FusedElementwise"(%arg0, %arg1, %arg2, %arg3) ({
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "onnx.Gemm"(%{{.+}}, %{{.+}}, %{{.+}}) {transB = 1 : si64}
// CHECK-NEXT: "onnx.Add"
// CHECK-NEXT: "onnx.Yield"
func.func @gemm_add(%x: tensor<4x16xf32>, %w: tensor<8x16xf32>, %c: tensor<8xf32>, %r: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "onnx.Gemm"(%x, %w, %c) {transB = 1 : si64} : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "onnx.Add"(%0, %r) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A product used outside the tree is stored by its own kernel: only the
// elementwise ops fuse.
// CHECK-LABEL: func.func @used_twice
// CHECK: %[[M:.+]] = "onnx.MatMul"
// CHECK: "onnx.FusedElementwise"(%[[M]], %{{.+}})
// CHECK-NOT: onnx.MatMul
// CHECK: return
func.func @used_twice(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = "onnx.Add"(%0, %b) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %2 = "onnx.Relu"(%1) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  return %2, %0 : tensor<8x32xf32>, tensor<8x32xf32>
}

// -----

// A tree whose result is larger than the product (the product is
// broadcast) does not take it: the kernel has one invocation per product
// element.
// CHECK-LABEL: func.func @broadcast
// CHECK: %[[M:.+]] = "onnx.MatMul"
// CHECK: "onnx.FusedElementwise"(%[[M]], %{{.+}})
// CHECK-NOT: onnx.MatMul
// CHECK: return
func.func @broadcast(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<2x8x32xf32>) -> tensor<2x8x32xf32> {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = "onnx.Add"(%0, %b) : (tensor<8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  %2 = "onnx.Relu"(%1) : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  return %2 : tensor<2x8x32xf32>
}

//--- limit.mlir

// The portable Vulkan target binds 4 storage buffers per kernel: Gemm's
// A, B and C and the result leave none for the residual, so the Gemm keeps
// its own kernel; a MatMul (A, B, bias, result) fits.
// LIMIT-LABEL: func.func @limit
// LIMIT: %[[G:.+]] = "onnx.Gemm"
// LIMIT: "onnx.FusedElementwise"(%[[G]], %{{.+}})
// LIMIT: "onnx.FusedElementwise"(%{{.+}}, %{{.+}}, %{{.+}}) ({
// LIMIT-NEXT: ^bb0
// LIMIT-NEXT: "onnx.MatMul"
// LIMIT-NEXT: "onnx.Add"
func.func @limit(%x: tensor<4x16xf32>, %w: tensor<8x16xf32>, %c: tensor<8xf32>, %r: tensor<4x8xf32>, %v: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = "onnx.Gemm"(%x, %w, %c) {transB = 1 : si64} : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "onnx.Add"(%0, %r) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "onnx.Relu"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = "onnx.MatMul"(%r, %v) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %4 = "onnx.Add"(%3, %c) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %2, %4 : tensor<4x8xf32>, tensor<4x8xf32>
}

//--- kernels.mlir

// The fused tree runs in storeC on the product's value `v` at its output
// index: the bias (binding 2, after A and B) read at the output's column,
// then Relu; the result is binding 3.
// KERNEL-LABEL: module
// KERNEL: gpu.kernel @matmul(read, read, read, write)
// KERNEL-SAME: layout(set = 0, binding = 2, std430) readonly buffer B2 { float d[]; } e0;
// KERNEL-SAME: void storeC(uint row, uint col, float acc) { uint idx = yBase + row * 32u + col; float v = acc;
// KERNEL-SAME: uint eo1 = ((idx) / 1u) % 32u;
// KERNEL-SAME: float x0 = e0.d[eo1];
// KERNEL-SAME: precise float v0 = float(((v) + (x0)));
// KERNEL-SAME: precise float v1 = float((((v0) != (v0) || (v0) > 0) ? (v0) : 0));
// KERNEL-SAME: y.d[idx] = v1; }
// KERNEL-NOT: gpu.kernel
// KERNEL: gpu.dispatch @matmul
// KERNEL-NOT: gpu.dispatch
func.func @main(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = "onnx.Add"(%0, %b) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %2 = "onnx.Relu"(%1) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}

// -----

// When the groups of a workgroup share k, the first group applies the
// tree as it stores, after the groups' sums are added: Gemm's C first,
// then the residual and a Cast to f16; one dispatch.
// KERNEL-LABEL: module
// KERNEL: gpu.kernel @gemm(read, read, read, read, write) workgroup_size(256, 1, 1)
// KERNEL-SAME: readonly buffer B2 { float d[]; } cIn;
// KERNEL-SAME: readonly buffer B3 { float d[]; } e0;
// KERNEL-SAME: writeonly buffer B4 { float16_t d[]; } y;
// KERNEL-SAME: float x0 = e0.d[idx];
// KERNEL-SAME: uint kg = tid / 32u, lt = tid % 32u;
// KERNEL-SAME: if (kg == 0u) {
// KERNEL-NOT: gpu.kernel
// KERNEL: gpu.dispatch @gemm[8, 1, 1]
// KERNEL-NOT: gpu.dispatch
func.func @main(%x: tensor<8x512xf32>, %w: tensor<64x512xf32>, %c: tensor<64xf32>, %r: tensor<8x64xf32>) -> tensor<8x64xf16> {
  %0 = "onnx.Gemm"(%x, %w, %c) {transB = 1 : si64} : (tensor<8x512xf32>, tensor<64x512xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %1 = "onnx.Add"(%0, %r) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %2 = "onnx.Cast"(%1) {to = f16} : (tensor<8x64xf32>) -> tensor<8x64xf16>
  return %2 : tensor<8x64xf16>
}

// -----

// With k split among workgroups (k = 8192 would have a workgroup of 8 x 8
// outputs read 512 KiB), the kernel that adds the partial sums applies
// the tree.
// KERNEL-LABEL: module
// KERNEL: gpu.kernel @gemm(read, read, write)
// KERNEL-SAME: partial.d[pBase + row * 64u + col] = acc;
// KERNEL: gpu.kernel @gemm_reduce(read, read, read, write)
// KERNEL-SAME: readonly buffer B1 { float d[]; } cIn;
// KERNEL-SAME: readonly buffer B2 { float d[]; } e0;
// KERNEL-SAME: writeonly buffer B3 { float16_t d[]; } y;
// KERNEL-SAME: float x0 = e0.d[idx];
// KERNEL-SAME: storeC(rc / 64u, rc % 64u, acc);
// KERNEL: gpu.dispatch @gemm[1, 1, 256]
// KERNEL: gpu.dispatch @gemm_reduce[2, 1, 1]
func.func @main(%x: tensor<8x8192xf32>, %w: tensor<64x8192xf32>, %c: tensor<64xf32>, %r: tensor<8x64xf32>) -> tensor<8x64xf16> {
  %0 = "onnx.Gemm"(%x, %w, %c) {transB = 1 : si64} : (tensor<8x8192xf32>, tensor<64x8192xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %1 = "onnx.Add"(%0, %r) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %2 = "onnx.Cast"(%1) {to = f16} : (tensor<8x64xf32>) -> tensor<8x64xf16>
  return %2 : tensor<8x64xf16>
}

// -----

// A Transpose that only the contraction of a fused body reads (through a
// body argument nothing else reads) is absorbed too: attention's scores
// q k^T scaled as they are stored, with k transposed in place.
// KERNEL-LABEL: module
// KERNEL-NOT: @transpose
// KERNEL: gpu.kernel @matmul(read, read, write)
// KERNEL-SAME: vec4 loadB4(uint k, uint col) { return b.d[(bBase + col * 128u + k) / 4u]; }
// KERNEL: gpu.dispatch @matmul[1, 1, 4](%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}) : !gpu.view<1x4x16x32xf32>, !gpu.view<1x16x4x32xf32>, !gpu.view<1x4x16x16xf32>
// KERNEL-NOT: gpu.dispatch
func.func @main(%q: tensor<1x4x16x32xf32>, %k: tensor<1x16x4x32xf32>) -> tensor<1x4x16x16xf32> {
  %kt = "onnx.Transpose"(%k) {perm = [0, 2, 3, 1]} : (tensor<1x16x4x32xf32>) -> tensor<1x4x32x16xf32>
  %0 = "onnx.MatMul"(%q, %kt) : (tensor<1x4x16x32xf32>, tensor<1x4x32x16xf32>) -> tensor<1x4x16x16xf32>
  %s = onnx.Constant dense<0.25> : tensor<f32>
  %1 = "onnx.Mul"(%0, %s) : (tensor<1x4x16x16xf32>, tensor<f32>) -> tensor<1x4x16x16xf32>
  return %1 : tensor<1x4x16x16xf32>
}

//--- run.mlir

// Operands of sines and cosines of ranges (so that nothing folds and every
// element differs): a linear layer with bias and Relu whose k the groups
// of a workgroup share, a product with edges and a residual, Gemm with
// SiLU (the product read twice by the tree), a padded Conv with Relu, and
// attention's scaled scores with both operands transposed in place.
// VK: output 0 vs ref: {{.*}}: PASS
// VK: output 1 vs ref: {{.*}}: PASS
// VK: output 2 vs ref: {{.*}}: PASS
// VK: output 3 vs ref: {{.*}}: PASS
// VK: output 4 vs ref: {{.*}}: PASS
func.func @main(%z: tensor<1xf32>) -> (tensor<8x64xf32>, tensor<37x33xf32>, tensor<8x24xf32>, tensor<1x4x8x8xf32>, tensor<1x4x16x16xf32>) {
  %c0 = onnx.Constant dense<0.0> : tensor<f32>
  %c1 = onnx.Constant dense<1.0> : tensor<f32>
  %n1 = onnx.Constant dense<16384.0> : tensor<f32>
  %r1 = "onnx.Range"(%c0, %n1, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<16384xf32>
  %t1 = "onnx.Sin"(%r1) : (tensor<16384xf32>) -> tensor<16384xf32>
  %u1 = "onnx.Mul"(%t1, %z) : (tensor<16384xf32>, tensor<1xf32>) -> tensor<16384xf32>
  %t2 = "onnx.Cos"(%r1) : (tensor<16384xf32>) -> tensor<16384xf32>
  %u2 = "onnx.Mul"(%t2, %z) : (tensor<16384xf32>, tensor<1xf32>) -> tensor<16384xf32>
  %s256x64 = onnx.Constant dense<[256, 64]> : tensor<2xi64>
  %w0 = "onnx.Reshape"(%u1, %s256x64) : (tensor<16384xf32>, tensor<2xi64>) -> tensor<256x64xf32>
  %s8x256 = onnx.Constant dense<[8, 256]> : tensor<2xi64>
  %s2048 = onnx.Constant dense<[0]> : tensor<1xi64>
  %e2048 = onnx.Constant dense<[2048]> : tensor<1xi64>
  %x2048 = "onnx.Slice"(%u2, %s2048, %e2048) : (tensor<16384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2048xf32>
  %x0 = "onnx.Reshape"(%x2048, %s8x256) : (tensor<2048xf32>, tensor<2xi64>) -> tensor<8x256xf32>
  %e64 = onnx.Constant dense<[64]> : tensor<1xi64>
  %b0 = "onnx.Slice"(%u2, %s2048, %e64) : (tensor<16384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<64xf32>
  %m0 = "onnx.MatMul"(%x0, %w0) : (tensor<8x256xf32>, tensor<256x64xf32>) -> tensor<8x64xf32>
  %a0 = "onnx.Add"(%m0, %b0) : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %y0 = "onnx.Relu"(%a0) : (tensor<8x64xf32>) -> tensor<8x64xf32>

  %e2590 = onnx.Constant dense<[2590]> : tensor<1xi64>
  %s37x70 = onnx.Constant dense<[37, 70]> : tensor<2xi64>
  %p1 = "onnx.Slice"(%u1, %s2048, %e2590) : (tensor<16384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2590xf32>
  %a1 = "onnx.Reshape"(%p1, %s37x70) : (tensor<2590xf32>, tensor<2xi64>) -> tensor<37x70xf32>
  %e2310 = onnx.Constant dense<[2310]> : tensor<1xi64>
  %s70x33 = onnx.Constant dense<[70, 33]> : tensor<2xi64>
  %p2 = "onnx.Slice"(%u2, %s2048, %e2310) : (tensor<16384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2310xf32>
  %b1 = "onnx.Reshape"(%p2, %s70x33) : (tensor<2310xf32>, tensor<2xi64>) -> tensor<70x33xf32>
  %e1221 = onnx.Constant dense<[1221]> : tensor<1xi64>
  %s37x33 = onnx.Constant dense<[37, 33]> : tensor<2xi64>
  %p3 = "onnx.Slice"(%u1, %s2048, %e1221) : (tensor<16384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1221xf32>
  %res = "onnx.Reshape"(%p3, %s37x33) : (tensor<1221xf32>, tensor<2xi64>) -> tensor<37x33xf32>
  %m1 = "onnx.MatMul"(%a1, %b1) : (tensor<37x70xf32>, tensor<70x33xf32>) -> tensor<37x33xf32>
  %y1 = "onnx.Add"(%res, %m1) : (tensor<37x33xf32>, tensor<37x33xf32>) -> tensor<37x33xf32>

  %e6144 = onnx.Constant dense<[6144]> : tensor<1xi64>
  %s24x256 = onnx.Constant dense<[24, 256]> : tensor<2xi64>
  %p4 = "onnx.Slice"(%u1, %s2048, %e6144) : (tensor<16384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<6144xf32>
  %w2 = "onnx.Reshape"(%p4, %s24x256) : (tensor<6144xf32>, tensor<2xi64>) -> tensor<24x256xf32>
  %e24 = onnx.Constant dense<[24]> : tensor<1xi64>
  %c2 = "onnx.Slice"(%u1, %s2048, %e24) : (tensor<16384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<24xf32>
  %g = "onnx.Gemm"(%x0, %w2, %c2) {transB = 1 : si64, alpha = 0.5 : f32} : (tensor<8x256xf32>, tensor<24x256xf32>, tensor<24xf32>) -> tensor<8x24xf32>
  %sg = "onnx.Sigmoid"(%g) : (tensor<8x24xf32>) -> tensor<8x24xf32>
  %y2 = "onnx.Mul"(%g, %sg) : (tensor<8x24xf32>, tensor<8x24xf32>) -> tensor<8x24xf32>

  %e192 = onnx.Constant dense<[192]> : tensor<1xi64>
  %s1x3x8x8 = onnx.Constant dense<[1, 3, 8, 8]> : tensor<4xi64>
  %p5 = "onnx.Slice"(%u2, %s2048, %e192) : (tensor<16384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<192xf32>
  %cx = "onnx.Reshape"(%p5, %s1x3x8x8) : (tensor<192xf32>, tensor<4xi64>) -> tensor<1x3x8x8xf32>
  %e108 = onnx.Constant dense<[108]> : tensor<1xi64>
  %s4x3x3x3 = onnx.Constant dense<[4, 3, 3, 3]> : tensor<4xi64>
  %p6 = "onnx.Slice"(%u1, %s2048, %e108) : (tensor<16384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<108xf32>
  %cw = "onnx.Reshape"(%p6, %s4x3x3x3) : (tensor<108xf32>, tensor<4xi64>) -> tensor<4x3x3x3xf32>
  %e4 = onnx.Constant dense<[4]> : tensor<1xi64>
  %cb = "onnx.Slice"(%u2, %s2048, %e4) : (tensor<16384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
  %cv = "onnx.Conv"(%cx, %cw, %cb) {pads = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %y3 = "onnx.Relu"(%cv) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>

  %s1x16x4x32 = onnx.Constant dense<[1, 16, 4, 32]> : tensor<4xi64>
  %q = "onnx.Reshape"(%x2048, %s1x16x4x32) : (tensor<2048xf32>, tensor<4xi64>) -> tensor<1x16x4x32xf32>
  %p7 = "onnx.Slice"(%u1, %s2048, %e2048) : (tensor<16384xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2048xf32>
  %k = "onnx.Reshape"(%p7, %s1x16x4x32) : (tensor<2048xf32>, tensor<4xi64>) -> tensor<1x16x4x32xf32>
  %qt = "onnx.Transpose"(%q) {perm = [0, 2, 1, 3]} : (tensor<1x16x4x32xf32>) -> tensor<1x4x16x32xf32>
  %kt = "onnx.Transpose"(%k) {perm = [0, 2, 3, 1]} : (tensor<1x16x4x32xf32>) -> tensor<1x4x32x16xf32>
  %sc = "onnx.MatMul"(%qt, %kt) : (tensor<1x4x16x32xf32>, tensor<1x4x32x16xf32>) -> tensor<1x4x16x16xf32>
  %scale = onnx.Constant dense<0.25> : tensor<f32>
  %y4 = "onnx.Mul"(%sc, %scale) : (tensor<1x4x16x16xf32>, tensor<f32>) -> tensor<1x4x16x16xf32>
  return %y0, %y1, %y2, %y3, %y4 : tensor<8x64xf32>, tensor<37x33xf32>, tensor<8x24xf32>, tensor<1x4x8x8xf32>, tensor<1x4x16x16xf32>
}

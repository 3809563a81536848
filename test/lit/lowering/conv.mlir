// Conv is an implicit GEMM on the tiled GEMM kernel (lowering/TiledGemm.h):
// per image and group, the group's filters times the input unfolded into
// columns. The kernel computes each unfolded element's input position from
// strides, dilations and padding (zero outside the input) instead of
// materializing the columns; images and groups are the grid's z. These are
// the kernels of a GPU target (a CPU device's are in cpu-kernel-choices.mlir);
// run on lavapipe shaped for a GPU (--kernels-for=gpu), the results match the
// reference backend.

// RUN: split-file %s %t
// RUN: onyx-opt %t/kernels.mlir --split-input-file --target=nvidia \
// RUN:   --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-run %t/run.mlir --validate --check --kernels-for=gpu --input=1xf32=0 \
// RUN:   | FileCheck %s --check-prefix=VK
// RUN: onyx-run %t/long-k.mlir --validate --check --kernels-for=gpu --input=1xf32=0 \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=LONGK
// RUN: onyx-run %libonnx_testdata/node/test_conv_with_autopad_same/model.onnx --validate --check \
// RUN:   --input=@%libonnx_testdata/node/test_conv_with_autopad_same/test_data_set_0/input_0.pb \
// RUN:   --input=@%libonnx_testdata/node/test_conv_with_autopad_same/test_data_set_0/input_1.pb \
// RUN:   --expected-output=@%libonnx_testdata/node/test_conv_with_autopad_same/test_data_set_0/output_0.pb \
// RUN:   | FileCheck %s --check-prefix=NODE

// ONNX's node test of auto_pad = SAME_LOWER with strides matches its
// expected output and the reference backend.
// NODE: output 0: max abs error {{.*}}: PASS
// NODE: output 0 vs ref: max abs error {{.*}}: PASS

//--- kernels.mlir

// A 3x3 convolution with padding and bias: 16 filters (the rows) times
// 27 unfolded input rows (3 channels x 9 kernel positions) for 1024
// output positions (the columns). Positions in the padding wrap around as
// unsigned values and read as zero; the bias is added as the result is
// stored.
// CHECK-LABEL: module
// CHECK: gpu.kernel @conv(read, read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: void storeC(uint row, uint col, float acc) { uint idx = yBase + row * 1024u + col; float v = acc + bias.d[filter0 + row]; y.d[idx] = v; }
// CHECK-SAME: float loadA(uint row, uint k) { return w.d[wBase + row * 27u + k]; }
// CHECK-SAME: uint ch = k / 9u, kr = k % 9u;
// CHECK-SAME: uint i0 = o0 * 1u + q0 * 1u - 1u;
// CHECK-SAME: uint i1 = o1 * 1u + q1 * 1u - 1u;
// CHECK-SAME: return (i0 < 32u && i1 < 32u) ? x.d[xBase + ch * 1024u + i0 * 32u + i1 * 1u] : float(0);
// CHECK-SAME: uint row0 = gl_WorkGroupID.y * 16u, col0 = gl_WorkGroupID.x * 128u;
// CHECK: gpu.dispatch @conv[8, 1, 1]
func.func @main(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x32x32xf32> {
  %0 = "onnx.Conv"(%x, %w, %b) {pads = [1, 1, 1, 1]} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>
  return %0 : tensor<1x16x32x32xf32>
}

// -----

// Depthwise with stride 2: a batch of 2 images x 8 groups of one filter
// each, one row per tile.
// CHECK-LABEL: module
// CHECK: gpu.kernel @conv(read, read, write) workgroup_size(32, 1, 1)
// CHECK-SAME: uint i0 = o0 * 2u + q0 * 1u - 1u;
// CHECK-SAME: uint img = z / 8u, grp = z % 8u;
// CHECK-SAME: xBase = (img * 8u + grp * 1u) * 81u;
// CHECK-SAME: filter0 = grp * 1u;
// CHECK: gpu.dispatch @conv[1, 1, 16]
func.func @main(%x: tensor<2x8x9x9xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<2x8x5x5xf32> {
  %0 = "onnx.Conv"(%x, %w) {group = 8 : si64, pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<2x8x9x9xf32>, tensor<8x1x3x3xf32>) -> tensor<2x8x5x5xf32>
  return %0 : tensor<2x8x5x5xf32>
}

// -----

// A 1x1 convolution reads its input as the matrix it is, four floats at a
// time.
// CHECK-LABEL: module
// CHECK: gpu.kernel @conv(read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: vec4 loadA4(uint row, uint k) { return w.d[(wBase + row * 64u + k) / 4u]; }
// CHECK-SAME: vec4 loadB4(uint k, uint col) { return x.d[(xBase + k * 196u + col) / 4u]; }
// CHECK: gpu.dispatch @conv[4, 2, 2]
func.func @main(%x: tensor<2x64x14x14xf32>, %w: tensor<128x64x1x1xf32>) -> tensor<2x128x14x14xf32> {
  %0 = "onnx.Conv"(%x, %w) : (tensor<2x64x14x14xf32>, tensor<128x64x1x1xf32>) -> tensor<2x128x14x14xf32>
  return %0 : tensor<2x128x14x14xf32>
}

// -----

// 1-D, grouped, dilated and strided; no position can leave the input, so
// there is no bounds check.
// CHECK-LABEL: module
// CHECK: gpu.kernel @conv(read, read, read, write)
// CHECK-SAME: uint i0 = o0 * 2u + q0 * 2u;
// CHECK-SAME: return x.d[xBase + ch * 20u + i0 * 1u];
// CHECK-SAME: uint img = z / 2u, grp = z % 2u;
// CHECK: gpu.dispatch @conv[1, 1, 2]
func.func @main(%x: tensor<1x4x20xf32>, %w: tensor<6x2x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x8xf32> {
  %0 = "onnx.Conv"(%x, %w, %b) {group = 2 : si64, dilations = [2], strides = [2]} : (tensor<1x4x20xf32>, tensor<6x2x3xf32>, tensor<6xf32>) -> tensor<1x6x8xf32>
  return %0 : tensor<1x6x8xf32>
}

// -----

// 3-D with SAME_UPPER: the even kernel side pads only at its end.
// CHECK-LABEL: module
// CHECK: gpu.kernel @conv(read, read, write)
// CHECK-SAME: uint i0 = o0 * 1u + q0 * 1u - 1u;
// CHECK-SAME: uint i1 = o1 * 1u + q1 * 1u;
// CHECK-SAME: uint i2 = o2 * 1u + q2 * 1u - 1u;
// CHECK-SAME: return (i0 < 5u && i1 < 6u && i2 < 7u) ? x.d[xBase + ch * 210u + i0 * 42u + i1 * 7u + i2 * 1u] : float(0);
func.func @main(%x: tensor<1x2x5x6x7xf32>, %w: tensor<3x2x3x2x3xf32>) -> tensor<1x3x5x6x7xf32> {
  %0 = "onnx.Conv"(%x, %w) {auto_pad = "SAME_UPPER"} : (tensor<1x2x5x6x7xf32>, tensor<3x2x3x2x3xf32>) -> tensor<1x3x5x6x7xf32>
  return %0 : tensor<1x3x5x6x7xf32>
}

// -----

// A small layer with a long k (64 filters, 32 channels x 9 positions, 64
// output positions): 32 tiles of 8 x 16, each workgroup 8 groups of 32
// threads sharing k, in one dispatch that adds the bias as it stores.
// CHECK-LABEL: module
// CHECK: gpu.kernel @conv(read, read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: uint kg = tid / 32u, lt = tid % 32u;
// CHECK-SAME: uint row0 = gl_WorkGroupID.y * 8u, col0 = gl_WorkGroupID.x * 16u;
// CHECK-NOT: conv_reduce
// CHECK: gpu.dispatch @conv[4, 8, 1]
// CHECK-NOT: gpu.dispatch
func.func @main(%x: tensor<1x32x8x8xf32>, %w: tensor<64x32x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x8x8xf32> {
  %0 = "onnx.Conv"(%x, %w, %b) {pads = [1, 1, 1, 1]} : (tensor<1x32x8x8xf32>, tensor<64x32x3x3xf32>, tensor<64xf32>) -> tensor<1x64x8x8xf32>
  return %0 : tensor<1x64x8x8xf32>
}

//--- run.mlir

// Inputs and weights of sines and cosines, added to the argument so that
// nothing folds: a padded 3x3 convolution with bias over 2 images, a
// grouped, dilated, strided one with asymmetric padding, and a depthwise
// one.
// VK: output 0 vs ref: {{.*}}: PASS
// VK: output 1 vs ref: {{.*}}: PASS
// VK: output 2 vs ref: {{.*}}: PASS
func.func @main(%z: tensor<1xf32>) -> (tensor<2x6x7x9xf32>, tensor<2x6x6x4xf32>, tensor<2x4x7x9xf32>) {
  %c0 = onnx.Constant dense<0.0> : tensor<f32>
  %c1 = onnx.Constant dense<1.0> : tensor<f32>
  %nx = onnx.Constant dense<504.0> : tensor<f32>
  %sx = onnx.Constant dense<[2, 4, 7, 9]> : tensor<4xi64>
  %rx = "onnx.Range"(%c0, %nx, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<504xf32>
  %tx = "onnx.Sin"(%rx) : (tensor<504xf32>) -> tensor<504xf32>
  %ux = "onnx.Add"(%tx, %z) : (tensor<504xf32>, tensor<1xf32>) -> tensor<504xf32>
  %x = "onnx.Reshape"(%ux, %sx) : (tensor<504xf32>, tensor<4xi64>) -> tensor<2x4x7x9xf32>
  %nw = onnx.Constant dense<216.0> : tensor<f32>
  %sw = onnx.Constant dense<[6, 4, 3, 3]> : tensor<4xi64>
  %sg = onnx.Constant dense<[6, 2, 3, 3]> : tensor<4xi64>
  %sd = onnx.Constant dense<[4, 1, 3, 3]> : tensor<4xi64>
  %rw = "onnx.Range"(%c0, %nw, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<216xf32>
  %tw = "onnx.Cos"(%rw) : (tensor<216xf32>) -> tensor<216xf32>
  %uw = "onnx.Add"(%tw, %z) : (tensor<216xf32>, tensor<1xf32>) -> tensor<216xf32>
  %w = "onnx.Reshape"(%uw, %sw) : (tensor<216xf32>, tensor<4xi64>) -> tensor<6x4x3x3xf32>
  %b = onnx.Constant dense<[0.5, -0.5, 1.0, -1.0, 2.0, -2.0]> : tensor<6xf32>
  %y0 = "onnx.Conv"(%x, %w, %b) {pads = [1, 1, 1, 1]} : (tensor<2x4x7x9xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<2x6x7x9xf32>
  %n2 = onnx.Constant dense<108.0> : tensor<f32>
  %r2 = "onnx.Range"(%c0, %n2, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<108xf32>
  %t2 = "onnx.Sin"(%r2) : (tensor<108xf32>) -> tensor<108xf32>
  %u2 = "onnx.Add"(%t2, %z) : (tensor<108xf32>, tensor<1xf32>) -> tensor<108xf32>
  %wg = "onnx.Reshape"(%u2, %sg) : (tensor<108xf32>, tensor<4xi64>) -> tensor<6x2x3x3xf32>
  %y1 = "onnx.Conv"(%x, %wg) {group = 2 : si64, dilations = [2, 1], strides = [1, 2], pads = [2, 0, 1, 1]} : (tensor<2x4x7x9xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x6x4xf32>
  %n3 = onnx.Constant dense<36.0> : tensor<f32>
  %r3 = "onnx.Range"(%c0, %n3, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<36xf32>
  %t3 = "onnx.Cos"(%r3) : (tensor<36xf32>) -> tensor<36xf32>
  %u3 = "onnx.Add"(%t3, %z) : (tensor<36xf32>, tensor<1xf32>) -> tensor<36xf32>
  %wd = "onnx.Reshape"(%u3, %sd) : (tensor<36xf32>, tensor<4xi64>) -> tensor<4x1x3x3xf32>
  %y2 = "onnx.Conv"(%x, %wd) {group = 4 : si64, auto_pad = "SAME_LOWER"} : (tensor<2x4x7x9xf32>, tensor<4x1x3x3xf32>) -> tensor<2x4x7x9xf32>
  return %y0, %y1, %y2 : tensor<2x6x7x9xf32>, tensor<2x6x6x4xf32>, tensor<2x4x7x9xf32>
}

//--- long-k.mlir

// The small layer with a long k whose workgroups' thread groups share k
// (sums of 288 products, some near zero: the tolerance of the models).
// LONGK: output 0 vs ref: {{.*}}: PASS
func.func @main(%z: tensor<1xf32>) -> tensor<1x64x8x8xf32> {
  %c0 = onnx.Constant dense<0.0> : tensor<f32>
  %c1 = onnx.Constant dense<1.0> : tensor<f32>
  %n4 = onnx.Constant dense<18432.0> : tensor<f32>
  %r4 = "onnx.Range"(%c0, %n4, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<18432xf32>
  %t4 = "onnx.Sin"(%r4) : (tensor<18432xf32>) -> tensor<18432xf32>
  %u4 = "onnx.Add"(%t4, %z) : (tensor<18432xf32>, tensor<1xf32>) -> tensor<18432xf32>
  %s4 = onnx.Constant dense<[64, 32, 3, 3]> : tensor<4xi64>
  %w4 = "onnx.Reshape"(%u4, %s4) : (tensor<18432xf32>, tensor<4xi64>) -> tensor<64x32x3x3xf32>
  %b0 = onnx.Constant dense<[0]> : tensor<1xi64>
  %e2048 = onnx.Constant dense<[2048]> : tensor<1xi64>
  %e64 = onnx.Constant dense<[64]> : tensor<1xi64>
  %t5 = "onnx.Cos"(%r4) : (tensor<18432xf32>) -> tensor<18432xf32>
  %u5 = "onnx.Add"(%t5, %z) : (tensor<18432xf32>, tensor<1xf32>) -> tensor<18432xf32>
  %p5 = "onnx.Slice"(%u5, %b0, %e2048) : (tensor<18432xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2048xf32>
  %s5 = onnx.Constant dense<[1, 32, 8, 8]> : tensor<4xi64>
  %x4 = "onnx.Reshape"(%p5, %s5) : (tensor<2048xf32>, tensor<4xi64>) -> tensor<1x32x8x8xf32>
  %b4 = "onnx.Slice"(%u4, %b0, %e64) : (tensor<18432xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<64xf32>
  %y3 = "onnx.Conv"(%x4, %w4, %b4) {pads = [1, 1, 1, 1]} : (tensor<1x32x8x8xf32>, tensor<64x32x3x3xf32>, tensor<64xf32>) -> tensor<1x64x8x8xf32>
  return %y3 : tensor<1x64x8x8xf32>
}

// Softmax, LogSoftmax and LayerNormalization reduce each row with the
// invocations of a workgroup (lowering/WorkgroupReduce.h) in three passes
// over the row; BatchNormalization is per-channel coefficients, then an
// elementwise kernel. On lavapipe the results match the reference backend.

// RUN: split-file %s %t
// RUN: onyx-opt %t/kernels.mlir --split-input-file --target=lavapipe \
// RUN:   --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-opt %t/minimum.mlir --target=vulkan --lower \
// RUN:   | FileCheck %s --check-prefix=MIN
// RUN: onyx-run %t/run.mlir --validate --check \
// RUN:   --input=@%libonnx_testdata/node/test_averagepool_2d_default/test_data_set_0/input_0.pb \
// RUN:   | FileCheck %s --check-prefix=VK

//--- kernels.mlir

// Softmax subtracts the row's maximum before exp, so exp never overflows:
// max, then the sum of exp(x - max), then the output. Each invocation loads
// its elements of the row into registers once.
// CHECK-LABEL: module
// CHECK: gpu.kernel @softmax(read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: const uint ROWS = 128u;
// CHECK-SAME: const uint LENGTH = 16u;
// CHECK-SAME: float xs[4];
// CHECK-SAME: xs[k] = x.d[at];
// CHECK-SAME: float xv = xs[k];
// CHECK-SAME: m = maxOf(m, xv);
// CHECK-SAME: combineMax(gl_LocalInvocationID.x, gl_LocalInvocationID.x + stride * SLOT_STRIDE);
// CHECK-SAME: s += exp(xv - m);
// CHECK-SAME: combineSum(gl_LocalInvocationID.x, gl_LocalInvocationID.x + stride * SLOT_STRIDE);
// CHECK-SAME: y.d[at] = exp(xv - m) / s;
// CHECK: gpu.dispatch @softmax[2, 1, 1]
func.func @main(%x: tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32> {
  %0 = "onnx.Softmax"(%x) : (tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  return %0 : tensor<2x4x16x16xf32>
}

// -----

// LogSoftmax along a middle axis: rows interleave.
// CHECK-LABEL: module
// CHECK: gpu.kernel @log_softmax(read, write)
// CHECK-SAME: const uint LANE_STRIDE = 1u;
// CHECK-SAME: uint rowOffset(uint row) { return (row / 4u) * 12u + (row % 4u); }
// CHECK-SAME: uint elementOffset(uint i) { return i * 4u; }
// CHECK-SAME: y.d[at] = xv - m - log(s);
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = "onnx.LogSoftmax"(%x) {axis = 1 : si64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// LayerNormalization: the mean, then the mean of squared deviations from it
// (two passes, no E[x^2] - E[x]^2), then the output with Scale and B.
// CHECK-LABEL: module
// CHECK: gpu.kernel @layer_norm(read, read, read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: const uint ROWS = 32u;
// CHECK-SAME: const uint LENGTH = 128u;
// CHECK-SAME: sum += xv;
// CHECK-SAME: float mean = sum / uintBitsToFloat(0x43000000u);
// CHECK-SAME: float d = xv - mean;
// CHECK-SAME: squares += d * d;
// CHECK-SAME: float invStdDev = uintBitsToFloat(0x3f800000u) / sqrt(squares / uintBitsToFloat(0x43000000u) + uintBitsToFloat(0x3727c5acu));
// CHECK-SAME: y.d[at] = (xv - mean) * invStdDev * scale.d[scaleIndex(i)] + bias.d[biasIndex(i)];
// CHECK: gpu.dispatch @layer_norm[4, 1, 1]
func.func @main(%x: tensor<2x16x128xf32>, %s: tensor<128xf32>, %b: tensor<128xf32>) -> tensor<2x16x128xf32> {
  %0 = "onnx.LayerNormalization"(%x, %s, %b) : (tensor<2x16x128xf32>, tensor<128xf32>, tensor<128xf32>) -> tensor<2x16x128xf32>
  return %0 : tensor<2x16x128xf32>
}

// -----

// Scale broadcast to the normalized dimensions; Mean and InvStdDev written
// by the row's first invocation, in the same kernel when the target binds
// enough buffers.
// CHECK-LABEL: module
// CHECK: gpu.kernel @layer_norm(read, read, write, write, write)
// CHECK-SAME: uint scaleIndex(uint i) {
// CHECK-SAME: return c1;
// CHECK-SAME: meanOut.d[row] = mean;
// CHECK-SAME: invStdDevOut.d[row] = invStdDev;
func.func @main(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) {
  %0, %1, %2 = "onnx.LayerNormalization"(%x, %s) {axis = 1 : si64} : (tensor<2x3x4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>
}

// -----

// BatchNormalization: scale / sqrt(var + epsilon) and B per channel, then
// (x - mean) * that + B; four buffers per kernel fit every target.
// CHECK-LABEL: module
// CHECK: gpu.kernel @batch_norm_coefficients(read, read, read, write)
// CHECK-SAME: coef.d[2u * c] = scale.d[c] / sqrt(variance + uintBitsToFloat(0x3c23d70au));
// CHECK-SAME: coef.d[2u * c + 1u] = bias.d[c];
// CHECK: gpu.kernel @batch_norm(read, read, read, write)
// CHECK-SAME: uint c = (i / 20u) % 3u;
// CHECK-SAME: y.d[i] = (x.d[i] - mean.d[c]) * coef.d[2u * c] + coef.d[2u * c + 1u];
// CHECK: %[[COEF:.+]] = gpu.alloc : !gpu.view<3x2xf32>
// CHECK: gpu.dispatch @batch_norm_coefficients[1, 1, 1](%{{.+}}, %{{.+}}, %{{.+}}, %[[COEF]])
// CHECK: gpu.dispatch @batch_norm[1, 1, 1](%{{.+}}, %{{.+}}, %[[COEF]], %{{.+}})
func.func @main(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %0 = "onnx.BatchNormalization"(%x, %s, %b, %m, %v) {epsilon = 0.01 : f32} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}

//--- minimum.mlir

// With four storage buffers per kernel, LayerNormalization's statistics
// come from a kernel of their own.
// MIN: gpu.kernel @layer_norm_stats(read, write, write) workgroup_size(128, 1, 1)
// MIN: gpu.kernel @layer_norm(read, read, read, write) workgroup_size(128, 1, 1)
// MIN: gpu.dispatch @layer_norm_stats
// MIN: gpu.dispatch @layer_norm
func.func @main(%x: tensor<2x3x64xf32>, %s: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<2x3x64xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) {
  %0, %1, %2 = "onnx.LayerNormalization"(%x, %s, %b) {axis = 1 : si64} : (tensor<2x3x64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x3x64xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %0, %1, %2 : tensor<2x3x64xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>
}

//--- run.mlir

// Softmax along the innermost and a middle axis, LogSoftmax, LayerNorm over
// rows of 32 and (with its statistics) of 3072, longer than a workgroup,
// and BatchNormalization.
// VK: output 0 vs ref: {{.*}}: PASS
// VK: output 1 vs ref: {{.*}}: PASS
// VK: output 2 vs ref: {{.*}}: PASS
// VK: output 3 vs ref: {{.*}}: PASS
// VK: output 4 vs ref: {{.*}}: PASS
// VK: output 5 vs ref: {{.*}}: PASS
// VK: output 6 vs ref: {{.*}}: PASS
// VK: output 7 vs ref: {{.*}}: PASS
func.func @main(%x: tensor<1x3x32x32xf32>) -> (tensor<1x3x32x32xf32>, tensor<1x3x32x32xf32>, tensor<1x3x32x32xf32>, tensor<1x3x32x32xf32>, tensor<1x3x32x32xf32>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1x3x32x32xf32>) {
  %s = onnx.Constant dense<[0.5, 1.0, 1.5, 2.0, -1.0, 0.25, 3.0, 1.0, 0.5, 1.0, 1.5, 2.0, -1.0, 0.25, 3.0, 1.0, 0.5, 1.0, 1.5, 2.0, -1.0, 0.25, 3.0, 1.0, 0.5, 1.0, 1.5, 2.0, -1.0, 0.25, 3.0, 1.0]> : tensor<32xf32>
  %b = onnx.Constant dense<[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]> : tensor<32xf32>
  %s2 = onnx.Constant dense<2.0> : tensor<3x1x1xf32>
  %c1 = onnx.Constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %c2 = onnx.Constant dense<[0.1, -0.2, 0.3]> : tensor<3xf32>
  %c3 = onnx.Constant dense<[-0.5, 0.5, 0.1]> : tensor<3xf32>
  %c4 = onnx.Constant dense<[1.5, 0.5, 0.1]> : tensor<3xf32>
  %0 = "onnx.Softmax"(%x) : (tensor<1x3x32x32xf32>) -> tensor<1x3x32x32xf32>
  %1 = "onnx.Softmax"(%x) {axis = 1 : si64} : (tensor<1x3x32x32xf32>) -> tensor<1x3x32x32xf32>
  %2 = "onnx.LogSoftmax"(%x) {axis = 2 : si64} : (tensor<1x3x32x32xf32>) -> tensor<1x3x32x32xf32>
  %3 = "onnx.LayerNormalization"(%x, %s, %b) : (tensor<1x3x32x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x3x32x32xf32>
  %4, %5, %6 = "onnx.LayerNormalization"(%x, %s2) {axis = 1 : si64, epsilon = 0.001 : f32} : (tensor<1x3x32x32xf32>, tensor<3x1x1xf32>) -> (tensor<1x3x32x32xf32>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>)
  %7 = "onnx.BatchNormalization"(%x, %c1, %c2, %c3, %c4) : (tensor<1x3x32x32xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x32x32xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<1x3x32x32xf32>, tensor<1x3x32x32xf32>, tensor<1x3x32x32xf32>, tensor<1x3x32x32xf32>, tensor<1x3x32x32xf32>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1x3x32x32xf32>
}

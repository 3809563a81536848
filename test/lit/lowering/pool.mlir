// MaxPool and AveragePool run one invocation per output element over its
// window, with the window geometry baked in; the global pools are
// reductions of each channel's plane (lowering/WorkgroupReduce.h). On
// lavapipe the results match the reference backend.

// RUN: split-file %s %t
// RUN: onyx-opt %t/kernels.mlir --split-input-file --target=lavapipe \
// RUN:   --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-run %t/run.mlir --validate --check \
// RUN:   --input=@%libonnx_testdata/node/test_averagepool_2d_default/test_data_set_0/input_0.pb \
// RUN:   | FileCheck %s --check-prefix=VK

//--- kernels.mlir

// Padded positions never win; Indices are flat input indices, column-major
// over the spatial dimensions with storage_order = 1.
// CHECK-LABEL: module
// CHECK: gpu.kernel @max_pool(read, write, write) workgroup_size(256, 1, 1)
// CHECK-SAME: buffer B2 { int64_t d[]; } indices;
// CHECK-SAME: if (o >= 18u) return;
// CHECK-SAME: for (uint k = 0u; k < 9u; ++k)
// CHECK-SAME: int i0 = int(q0) * 2 - 1 + int(k0) * 1;
// CHECK-SAME: if (!(i0 >= 0 && i0 < 5 && i1 >= 0 && i1 < 5))
// CHECK-SAME: float v = x.d[plane * IN_PLANE + uint(i0) * 5u + uint(i1)];
// CHECK-SAME: if (v > best || (isnan(v) && !isnan(best)))
// CHECK-SAME: bestIndex = uint(i0) + uint(i1) * 5u;
// CHECK-SAME: indices.d[o] = int64_t(plane * IN_PLANE + bestIndex);
// CHECK: gpu.dispatch @max_pool[1, 1, 1]
func.func @main(%x: tensor<1x2x5x5xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>) {
  %0, %1 = "onnx.MaxPool"(%x) {kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1], storage_order = 1 : si64} : (tensor<1x2x5x5xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)
  return %0, %1 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>
}

// -----

// With count_include_pad, positions in the declared padding count towards
// the average, not those ceil_mode adds past it.
// CHECK-LABEL: module
// CHECK: gpu.kernel @average_pool(read, write)
// CHECK-SAME: if (i0 >= -1 && i0 < 5 && i1 >= -1 && i1 < 5) count += 1u;
// CHECK-SAME: sum += x.d[plane * IN_PLANE + uint(i0) * 5u + uint(i1)];
// CHECK-SAME: y.d[o] = sum / float(count);
func.func @main(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %0 = "onnx.AveragePool"(%x) {kernel_shape = [2, 2], strides = [2, 2], pads = [1, 1, 0, 0], count_include_pad = 1 : si64, ceil_mode = 1 : si64} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// The global pools reduce each plane of 49 elements in a workgroup.
// CHECK-LABEL: module
// CHECK: gpu.kernel @reduce_mean(read, write)
// CHECK-SAME: const uint ROWS = 6u;
// CHECK-SAME: const uint LENGTH = 49u;
// CHECK-SAME: y.d[row] = acc / uintBitsToFloat(0x42440000u);
// CHECK: gpu.kernel @reduce_max(read, write)
// CHECK-SAME: const uint LENGTH = 49u;
func.func @main(%x: tensor<2x3x7x7xf32>) -> (tensor<2x3x1x1xf32>, tensor<2x3x1x1xf32>) {
  %0 = "onnx.GlobalAveragePool"(%x) : (tensor<2x3x7x7xf32>) -> tensor<2x3x1x1xf32>
  %1 = "onnx.GlobalMaxPool"(%x) : (tensor<2x3x7x7xf32>) -> tensor<2x3x1x1xf32>
  return %0, %1 : tensor<2x3x1x1xf32>, tensor<2x3x1x1xf32>
}

//--- run.mlir

// Strides, padding, ceil_mode, dilations, both storage orders of Indices,
// count_include_pad, SAME_UPPER, and the global pools of 1024 elements.
// VK: output 0 vs ref: {{.*}}: PASS
// VK: output 1 vs ref: {{.*}}: PASS
// VK: output 2 vs ref: {{.*}}: PASS
// VK: output 3 vs ref: {{.*}}: PASS
// VK: output 4 vs ref: {{.*}}: PASS
// VK: output 5 vs ref: {{.*}}: PASS
// VK: output 6 vs ref: {{.*}}: PASS
// VK: output 7 vs ref: {{.*}}: PASS
func.func @main(%x: tensor<1x3x32x32xf32>) -> (tensor<1x3x17x17xf32>, tensor<1x3x17x17xi64>, tensor<1x3x14x14xf32>, tensor<1x3x14x14xi64>, tensor<1x3x16x17xf32>, tensor<1x3x11x11xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>) {
  %0, %1 = "onnx.MaxPool"(%x) {kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1], ceil_mode = 1 : si64} : (tensor<1x3x32x32xf32>) -> (tensor<1x3x17x17xf32>, tensor<1x3x17x17xi64>)
  %2, %3 = "onnx.MaxPool"(%x) {kernel_shape = [3, 3], strides = [2, 2], dilations = [2, 2], storage_order = 1 : si64} : (tensor<1x3x32x32xf32>) -> (tensor<1x3x14x14xf32>, tensor<1x3x14x14xi64>)
  %4 = "onnx.AveragePool"(%x) {kernel_shape = [3, 2], strides = [2, 2], pads = [1, 1, 0, 1], count_include_pad = 1 : si64} : (tensor<1x3x32x32xf32>) -> tensor<1x3x16x17xf32>
  %5 = "onnx.AveragePool"(%x) {kernel_shape = [4, 4], strides = [3, 3], auto_pad = "SAME_UPPER"} : (tensor<1x3x32x32xf32>) -> tensor<1x3x11x11xf32>
  %6 = "onnx.GlobalAveragePool"(%x) : (tensor<1x3x32x32xf32>) -> tensor<1x3x1x1xf32>
  %7 = "onnx.GlobalMaxPool"(%x) : (tensor<1x3x32x32xf32>) -> tensor<1x3x1x1xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<1x3x17x17xf32>, tensor<1x3x17x17xi64>, tensor<1x3x14x14xf32>, tensor<1x3x14x14xi64>, tensor<1x3x16x17xf32>, tensor<1x3x11x11xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>
}

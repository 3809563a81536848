// Reduce ops, ArgMax and ArgMin: each output element is a row of the input reduced
// by the invocations of a workgroup in shared memory
// (lowering/WorkgroupReduce.h); any set of axes works through the row's
// merged dimensions and their strides. On lavapipe the results match the
// reference backend.

// RUN: split-file %s %t
// RUN: onyx-opt %t/kernels.mlir --split-input-file --target=lavapipe \
// RUN:   --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-opt %t/minimum.mlir --target=vulkan --lower \
// RUN:   | FileCheck %s --check-prefix=MIN
// RUN: onyx-run %t/run.mlir --validate --check \
// RUN:   --input=@%libonnx_testdata/node/test_averagepool_2d_default/test_data_set_0/input_0.pb \
// RUN:   | FileCheck %s --check-prefix=VK

//--- kernels.mlir

// The innermost axis: a row is contiguous and its invocations are adjacent
// (LANE_STRIDE = DEPTH); each invocation folds about 4 elements before the
// tree, so 8 rows of 100 share a workgroup of 256.
// CHECK-LABEL: module
// CHECK: gpu.kernel @reduce_sum(read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: const uint ROWS = 6u;
// CHECK-SAME: const uint LENGTH = 100u;
// CHECK-SAME: const uint LANES = 8u;
// CHECK-SAME: const uint DEPTH = 32u;
// CHECK-SAME: const uint LANE_STRIDE = 32u;
// CHECK-SAME: const uint SLOT_STRIDE = 1u;
// CHECK-SAME: uint rowOffset(uint row) { return row * 100u; }
// CHECK-SAME: uint elementOffset(uint i) { return i; }
// CHECK-SAME: shared float red[256];
// CHECK-SAME: for (uint i = begin + slot; i < end; i += DEPTH)
// CHECK-SAME: barrier();
// CHECK-SAME: for (uint stride = DEPTH / 2u; stride > 0u; stride >>= 1u)
// CHECK-SAME: if (inRange && slot == 0u)
// CHECK-SAME: y.d[row] = acc;
// CHECK: func.func @main
// CHECK: gpu.dispatch @reduce_sum[1, 1, 1]
func.func @main(%x: tensor<6x100xf32>) -> tensor<6x1xf32> {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  %0 = "onnx.ReduceSum"(%x, %axes) : (tensor<6x100xf32>, tensor<1xi64>) -> tensor<6x1xf32>
  return %0 : tensor<6x1xf32>
}

// -----

// A middle axis: rows interleave in memory, so the invocations of adjacent
// rows are adjacent (LANE_STRIDE = 1) and read consecutive elements. A NaN
// wins a max.
// CHECK-LABEL: module
// CHECK: gpu.kernel @reduce_max(read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: const uint LANES = 32u;
// CHECK-SAME: const uint DEPTH = 8u;
// CHECK-SAME: const uint LANE_STRIDE = 1u;
// CHECK-SAME: const uint SLOT_STRIDE = 32u;
// CHECK-SAME: uint rowOffset(uint row) { return (row / 8u) * 240u + (row % 8u); }
// CHECK-SAME: uint elementOffset(uint i) { return i * 8u; }
// CHECK-SAME: float fold(float a, float b) { return (b > a || isnan(b)) ? b : a; }
// CHECK-SAME: float acc = uintBitsToFloat(0xff800000u);
// CHECK: gpu.dispatch @reduce_max[1, 1, 1]
func.func @main(%x: tensor<4x30x8xf32>) -> tensor<4x1x8xf32> {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  %0 = "onnx.ReduceMax"(%x, %axes) : (tensor<4x30x8xf32>, tensor<1xi64>) -> tensor<4x1x8xf32>
  return %0 : tensor<4x1x8xf32>
}

// -----

// Axes that are not adjacent: a row's elements span two dimensions. A float
// mean divides the sum by the row length.
// CHECK-LABEL: module
// CHECK: gpu.kernel @reduce_mean(read, write)
// CHECK-SAME: const uint ROWS = 5u;
// CHECK-SAME: const uint LENGTH = 21u;
// CHECK-SAME: uint rowOffset(uint row) { return row * 7u; }
// CHECK-SAME: uint elementOffset(uint i) { return (i / 7u) * 35u + (i % 7u); }
// CHECK-SAME: y.d[row] = acc / uintBitsToFloat(0x41a80000u);
func.func @main(%x: tensor<3x5x7xf32>) -> tensor<5xf32> {
  %axes = onnx.Constant dense<[0, -1]> : tensor<2xi64>
  %0 = "onnx.ReduceMean"(%x, %axes) {keepdims = 0 : si64} : (tensor<3x5x7xf32>, tensor<2xi64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Integers: a mean truncates; narrow types are computed as int and stored
// narrow; the identity of a min is the type's largest value.
// CHECK-LABEL: module
// CHECK: gpu.kernel @reduce_mean(read, write)
// CHECK-SAME: int acc = 0;
// CHECK-SAME: y.d[row] = acc / 7;
// CHECK: gpu.kernel @reduce_min(read, write)
// CHECK-SAME: buffer B0 { int8_t d[]; } x;
// CHECK-SAME: int fold(int a, int b) { return b < a ? b : a; }
// CHECK-SAME: int acc = 127;
// CHECK-SAME: y.d[row] = int8_t(acc);
func.func @main(%x: tensor<3x7xi32>, %y: tensor<3x7xi8>) -> (tensor<3x1xi32>, tensor<1x1xi8>) {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  %0 = "onnx.ReduceMean"(%x, %axes) : (tensor<3x7xi32>, tensor<1xi64>) -> tensor<3x1xi32>
  %1 = "onnx.ReduceMin"(%y) : (tensor<3x7xi8>) -> tensor<1x1xi8>
  return %0, %1 : tensor<3x1xi32>, tensor<1x1xi8>
}

// -----

// Empty axes with noop_with_empty_axes: the result is the input's memory.
// CHECK-LABEL: module
// CHECK-NOT: gpu.kernel
// CHECK: func.func @main
// CHECK-NEXT: %[[X:.+]] = gpu.alloc : !gpu.view<2x3xf32>
// CHECK-NEXT: gpu.upload %arg0, %[[X]]
// CHECK-NEXT: %[[R:.+]] = gpu.download %[[X]]
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %axes = onnx.Constant dense<> : tensor<0xi64>
  %0 = "onnx.ReduceSum"(%x, %axes) {noop_with_empty_axes = 1 : si64} : (tensor<2x3xf32>, tensor<0xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Reducing an empty axis gives the identity without reading the (empty)
// input: 0 for a sum.
// CHECK-LABEL: module
// CHECK: gpu.kernel @reduce_sum(write)
// CHECK-SAME: const uint LENGTH = 0u;
// CHECK-NOT: x.d
// CHECK: func.func @main
// CHECK: gpu.dispatch @reduce_sum[1, 1, 1](%{{.+}}) : !gpu.view<2x1x4xf32>
func.func @main(%x: tensor<2x0x4xf32>) -> tensor<2x1x4xf32> {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  %0 = "onnx.ReduceSum"(%x, %axes) : (tensor<2x0x4xf32>, tensor<1xi64>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// -----

// Few rows that are long leave a GPU idle with one workgroup each: rows are
// cut into chunks reduced to partial sums, [chunk][row], which a second
// kernel reduces (and divides, for a mean).
// CHECK-LABEL: module
// CHECK: gpu.kernel @reduce_sum_chunks(read, write)
// CHECK-SAME: const uint ROWS = 2u;
// CHECK-SAME: const uint LENGTH = 20000u;
// CHECK-SAME: const uint CHUNKS = 4u;
// CHECK-SAME: const uint CHUNK_LENGTH = 5000u;
// CHECK-SAME: y.d[row] = acc;
// CHECK: gpu.kernel @reduce_mean(read, write)
// CHECK-SAME: const uint ROWS = 2u;
// CHECK-SAME: const uint LENGTH = 4u;
// CHECK-SAME: uint elementOffset(uint i) { return i * 2u; }
// CHECK-SAME: y.d[row] = acc / uintBitsToFloat(0x469c4000u);
// CHECK: %[[PARTIAL:.+]] = gpu.alloc : !gpu.view<4x2xf32>
// CHECK: gpu.dispatch @reduce_sum_chunks[8, 1, 1](%{{.+}}, %[[PARTIAL]])
// CHECK: gpu.dispatch @reduce_mean[1, 1, 1](%[[PARTIAL]], %{{.+}})
func.func @main(%x: tensor<2x20000xf32>) -> tensor<2x1xf32> {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  %0 = "onnx.ReduceMean"(%x, %axes) : (tensor<2x20000xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// ArgMax carries each invocation's best index beside its value; ties go to
// the larger index with select_last_index. Indices are i64.
// CHECK-LABEL: module
// CHECK: gpu.kernel @argmax(read, write)
// CHECK-SAME: buffer B1 { int64_t d[]; } y;
// CHECK-SAME: shared float red_v[256];
// CHECK-SAME: shared uint red_i[256];
// CHECK-SAME: return b > a || (b == a && bi > ai);
// CHECK-SAME: y.d[row] = int64_t(index);
func.func @main(%x: tensor<3x40x5xf32>) -> tensor<3x1x5xi64> {
  %0 = "onnx.ArgMax"(%x) {axis = 1 : si64, select_last_index = 1 : si64} : (tensor<3x40x5xf32>) -> tensor<3x1x5xi64>
  return %0 : tensor<3x1x5xi64>
}

// -----

// ArgMin is the same kernel with the comparison turned around and +inf as
// the start; ties go to the first index.
// CHECK-LABEL: module
// CHECK: gpu.kernel @argmin(read, write)
// CHECK-SAME: return b < a || (b == a && bi < ai);
// CHECK-SAME: float best = uintBitsToFloat(0x7f800000u);
func.func @main(%x: tensor<3x40x5xf32>) -> tensor<3x5xi64> {
  %0 = "onnx.ArgMin"(%x) {axis = 1 : si64, keepdims = 0 : si64} : (tensor<3x40x5xf32>) -> tensor<3x5xi64>
  return %0 : tensor<3x5xi64>
}

//--- minimum.mlir

// The minimum limits of Vulkan (128 invocations): workgroups shrink to fit.
// MIN: gpu.kernel @reduce_sum(read, write) workgroup_size(128, 1, 1)
// MIN: gpu.dispatch @reduce_sum[6, 1, 1]
func.func @main(%x: tensor<6x1000xf32>) -> tensor<6x1xf32> {
  %axes = onnx.Constant dense<[1]> : tensor<1xi64>
  %0 = "onnx.ReduceSum"(%x, %axes) : (tensor<6x1000xf32>, tensor<1xi64>) -> tensor<6x1xf32>
  return %0 : tensor<6x1xf32>
}

//--- run.mlir

// Rows longer than a workgroup, interleaved rows, non-adjacent axes, the
// whole tensor, ArgMax along the innermost and a middle axis, and rows cut
// into chunks (a tiled input of 49152 elements).
// VK: output 0 vs ref: {{.*}}: PASS
// VK: output 1 vs ref: {{.*}}: PASS
// VK: output 2 vs ref: {{.*}}: PASS
// VK: output 3 vs ref: {{.*}}: PASS
// VK: output 4 vs ref: {{.*}}: PASS
// VK: output 5 vs ref: {{.*}}: PASS
// VK: output 6 vs ref: {{.*}}: PASS
// VK: output 7 vs ref: {{.*}}: PASS
func.func @main(%x: tensor<1x3x32x32xf32>) -> (tensor<1x3x1x1xf32>, tensor<1x1x32x32xf32>, tensor<3x32xf32>, tensor<1x1x1x1xf32>, tensor<1x3x32x1xi64>, tensor<1x32x32xi64>, tensor<1x1x1x1xf32>, tensor<1x3x1x1xf32>) {
  %reps = onnx.Constant dense<[1, 1, 4, 4]> : tensor<4xi64>
  %a23 = onnx.Constant dense<[2, 3]> : tensor<2xi64>
  %a1 = onnx.Constant dense<[1]> : tensor<1xi64>
  %a02 = onnx.Constant dense<[0, 2]> : tensor<2xi64>
  %0 = "onnx.ReduceSum"(%x, %a23) : (tensor<1x3x32x32xf32>, tensor<2xi64>) -> tensor<1x3x1x1xf32>
  %1 = "onnx.ReduceMax"(%x, %a1) : (tensor<1x3x32x32xf32>, tensor<1xi64>) -> tensor<1x1x32x32xf32>
  %2 = "onnx.ReduceMin"(%x, %a02) {keepdims = 0 : si64} : (tensor<1x3x32x32xf32>, tensor<2xi64>) -> tensor<3x32xf32>
  %3 = "onnx.ReduceMean"(%x) : (tensor<1x3x32x32xf32>) -> tensor<1x1x1x1xf32>
  %4 = "onnx.ArgMax"(%x) {axis = 3 : si64, select_last_index = 1 : si64} : (tensor<1x3x32x32xf32>) -> tensor<1x3x32x1xi64>
  %5 = "onnx.ArgMax"(%x) {axis = 1 : si64, keepdims = 0 : si64} : (tensor<1x3x32x32xf32>) -> tensor<1x32x32xi64>
  %t = "onnx.Tile"(%x, %reps) : (tensor<1x3x32x32xf32>, tensor<4xi64>) -> tensor<1x3x128x128xf32>
  %6 = "onnx.ReduceMean"(%t) : (tensor<1x3x128x128xf32>) -> tensor<1x1x1x1xf32>
  %7 = "onnx.ReduceMax"(%t, %a23) : (tensor<1x3x128x128xf32>, tensor<2xi64>) -> tensor<1x3x1x1xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<1x3x1x1xf32>, tensor<1x1x32x32xf32>, tensor<3x32xf32>, tensor<1x1x1x1xf32>, tensor<1x3x32x1xi64>, tensor<1x32x32xi64>, tensor<1x1x1x1xf32>, tensor<1x3x1x1xf32>
}

// RUN: onyx-opt %s --split-input-file --target=lavapipe --onnx-static-shapes \
// RUN:   --onnx-fuse-elementwise --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-opt %s --split-input-file --target=lavapipe --lower | FileCheck %s --check-prefix=LOWER

// Reductions and normalizations whose rows are known only at run time are
// compiled once: the sizes of the rows (ROWS, LENGTH and the strides) are
// macros reading push constants, the rest of the kernel is the static one.

// The decoder case: a dynamic number of rows (batch x sequence) of a static
// hidden size keeps the static layout (LANES rows of DEPTH invocations per
// workgroup, values cached in registers); only ROWS and the grid come from
// the run.
// CHECK-LABEL: gpu.kernel @softmax(read, write) workgroup_size(256, 1, 1) push_constants(ui32)
// CHECK-SAME: layout(push_constant) uniform Sizes { uint s0; } pc;
// CHECK-SAME: #define ROWS pc.s0
// CHECK-SAME: const uint LENGTH = 16u;
// CHECK-SAME: const uint LANES = 64u;
// CHECK-SAME: const uint DEPTH = 4u;
// CHECK-SAME: uint rowOffset(uint row) { return row * 16u; }
// CHECK-SAME: float xs[4];
// CHECK: gpu.kernel @layer_norm(read, read, read, write) workgroup_size(256, 1, 1) push_constants(ui32)
// CHECK-SAME: #define ROWS pc.s0
// CHECK-SAME: float mean = sum / uintBitsToFloat(0x41800000u);
// CHECK-LABEL: func.func @main
// CHECK: %[[SEQ:.+]] = gpu.dim %arg0[1] : tensor<1x?x16xf32>
// CHECK: %[[GRID:.+]] = gpu.ceildivi %[[SEQ]], %{{.+}}
// CHECK: gpu.dispatch @softmax[%[[GRID]], 1, 1](%{{.+}}, %{{.+}}) push(%[[SEQ]])
// CHECK: gpu.dispatch @layer_norm[%{{.+}}, 1, 1]({{.+}}) push(%[[SEQ]])
// LOWER-LABEL: func.func @main
// LOWER-COUNT-2: gpu.dispatch
func.func @main(%x: tensor<1x?x16xf32>) -> (tensor<1x?x16xf32>, tensor<1x?x16xf32>) {
  %g = onnx.Constant dense<2.0> : tensor<16xf32>
  %b = onnx.Constant dense<0.5> : tensor<16xf32>
  %0 = "onnx.Softmax"(%x) : (tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
  %1 = "onnx.LayerNormalization"(%x, %g, %b) : (tensor<1x?x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x?x16xf32>
  return %0, %1 : tensor<1x?x16xf32>, tensor<1x?x16xf32>
}

// -----

// A row length known only at run time (attention scores over past + seq):
// the deepest tree, each invocation striding over the row, values read
// again on each pass. The grid is multiplied by min(length, 1): an empty row
// has nothing to bind.
// CHECK-LABEL: gpu.kernel @softmax(read, write) workgroup_size(256, 1, 1) push_constants(ui32, ui32)
// CHECK-SAME: #define ROWS pc.s0
// CHECK-SAME: #define LENGTH pc.s1
// CHECK-SAME: const uint LANES = 1u;
// CHECK-SAME: const uint DEPTH = 256u;
// CHECK-SAME: #define CHUNK_LENGTH pc.s1
// CHECK-SAME: uint rowOffset(uint row) { return row * pc.s1; }
// CHECK-NOT: xs[
// CHECK: gpu.kernel @reduce_mean(read, write) workgroup_size(256, 1, 1) push_constants(ui32, ui32)
// CHECK-SAME: y.d[row] = acc / float(pc.s1);
// A mean over no elements is NaN: a second kernel, binding only the output,
// writes it when the length is 0 (its grid is 0 otherwise).
// CHECK: gpu.kernel @reduce_mean_1(write) workgroup_size(256, 1, 1) push_constants(ui32)
// CHECK-SAME: #define ROWS pc.s0
// CHECK-SAME: const uint LENGTH = 0u;
// CHECK-SAME: y.d[row] = uintBitsToFloat(0x7fc00000u);
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[ROWS:.+]] = gpu.dim %arg0[0]
// CHECK-DAG: %[[LEN:.+]] = gpu.dim %arg0[1]
// CHECK: %[[NONEMPTY:.+]] = gpu.mini %[[LEN]], %{{.+}}
// CHECK: %[[GRID:.+]] = gpu.muli %[[ROWS]], %[[NONEMPTY]]
// CHECK: gpu.dispatch @softmax[%[[GRID]], 1, 1](%{{.+}}, %{{.+}}) push(%[[ROWS]], %[[LEN]])
// CHECK: gpu.dispatch @reduce_mean[%{{.+}}, 1, 1]
// CHECK: %[[EMPTY:.+]] = gpu.subi %{{.+}}, %{{.+}}
// CHECK: %[[GRID2:.+]] = gpu.muli %[[ROWS]], %[[EMPTY]]
// CHECK: gpu.dispatch @reduce_mean_1[%[[GRID2]], 1, 1](%{{.+}}) push(%[[ROWS]])
func.func @main(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x1xf32>) {
  %last = onnx.Constant dense<-1> : tensor<1xi64>
  %0 = "onnx.Softmax"(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = "onnx.ReduceMean"(%x, %last) : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x1xf32>
}

// -----

// LayerNormalization over a dynamic hidden size divides by the length as a
// float, and reads scale and bias through the run-time broadcast index.
// CHECK-LABEL: gpu.kernel @layer_norm(read, read, read, write)
// CHECK-SAME: uint scaleIndex(uint i) {
// CHECK-SAME: float mean = sum / float(LENGTH);
// CHECK-SAME: float invStdDev = {{.*}} / sqrt(squares / float(LENGTH) + {{.*}});
func.func @main(%x: tensor<?x?xf32>, %scale: tensor<?xf32>, %bias: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = "onnx.LayerNormalization"(%x, %scale, %bias) : (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// RotaryEmbedding with batch and sequence known at run time: the count, the
// sequence length and the strides of cos's and sin's rows (0 along a
// dimension of 1, which broadcasts) are push constants, the head geometry
// stays literal.
// CHECK-LABEL: gpu.kernel @rotary_embedding(read, read, read, write) workgroup_size(256, 1, 1) push_constants(ui32, ui32, ui32, ui32, ui32, ui32)
// CHECK-SAME: if (i >= pc.s
// CHECK-SAME: uint d = i % 8u;
// CHECK-SAME: uint t = (i / 8u) % pc.s
// CHECK-SAME: uint row1 = b * pc.s2 + t * pc.s3;
// CHECK-SAME: uint row2 = b * pc.s4 + t * pc.s5;
func.func @main(%x: tensor<?x2x?x8xf32>, %cos: tensor<?x?x4xf32>, %sin: tensor<?x?x4xf32>) -> tensor<?x2x?x8xf32> {
  %0 = "onnx.RotaryEmbedding"(%x, %cos, %sin) : (tensor<?x2x?x8xf32>, tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x2x?x8xf32>
  return %0 : tensor<?x2x?x8xf32>
}

// -----

// ArgMax and the global pools reduce rows the same way.
// CHECK-LABEL: gpu.kernel @argmax(read, write) workgroup_size(256, 1, 1) push_constants(ui32, ui32)
// CHECK: gpu.kernel @reduce_mean(read, write) {{.*}} push_constants(
// CHECK-LABEL: func.func @main
// CHECK: gpu.alloc(%{{.+}}) : !gpu.view<?xi64>
// CHECK: gpu.alloc(%{{.+}}) : !gpu.view<?x3x1x1xf32>
func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x3x?x?xf32>) -> (tensor<?xi64>, tensor<?x3x1x1xf32>) {
  %0 = "onnx.ArgMax"(%x) {axis = 1 : si64, keepdims = 0 : si64} : (tensor<?x?xf32>) -> tensor<?xi64>
  %1 = "onnx.GlobalAveragePool"(%y) : (tensor<?x3x?x?xf32>) -> tensor<?x3x1x1xf32>
  return %0, %1 : tensor<?xi64>, tensor<?x3x1x1xf32>
}

// -----

// BatchNormalization with batch and spatial dims known at run time: the
// coefficients kernel is static, the one applying them reads the count and
// the plane size from push constants.
// CHECK-LABEL: gpu.kernel @batch_norm_coefficients(read, read, read, write) workgroup_size(256, 1, 1) glsl(
// CHECK: gpu.kernel @batch_norm(read, read, read, write) workgroup_size(256, 1, 1) push_constants(ui32, ui32)
// CHECK-SAME: if (i >= pc.s0) return;
// CHECK-SAME: uint c = (i / pc.s1) % 3u;
func.func @main(%x: tensor<?x3x?xf32>) -> tensor<?x3x?xf32> {
  %p = onnx.Constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %0 = "onnx.BatchNormalization"(%x, %p, %p, %p, %p) : (tensor<?x3x?xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3x?xf32>
  return %0 : tensor<?x3x?xf32>
}

// -----

// Known dims keep today's kernels: constants, no push constants.
// CHECK-LABEL: gpu.kernel @softmax(read, write) workgroup_size(8, 1, 1) glsl(
// CHECK-SAME: const uint ROWS = 2u;
// CHECK-SAME: const uint LENGTH = 16u;
// CHECK-LABEL: func.func @main
// CHECK: gpu.dispatch @softmax[1, 1, 1]
func.func @main(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %0 = "onnx.Softmax"(%x) : (tensor<2x16xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

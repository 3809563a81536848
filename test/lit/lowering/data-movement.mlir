// RUN: onyx-opt %s --split-input-file --target=lavapipe --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-opt %s --split-input-file --convert-onnx-to-gpu | FileCheck %s --check-prefix=VULKAN

// Data movement kernels copy each element's bits in an unsigned type of its
// size, whatever the element type. A Transpose reads the input at permuted
// strides and writes the output in order.
// CHECK: gpu.kernel @transpose(read, write) workgroup_size(256, 1, 1)
// CHECK-SAME: buffer B0 { uint d[]; } b0;
// CHECK-SAME: if (i < 24u) {
// CHECK-SAME: uint c1 = ct % 6u; ct /= 6u;
// CHECK-SAME: b1.d[i] = b0.d[c0 + c1 * 4u];
// CHECK: func.func @main
// CHECK: gpu.dispatch @transpose[1, 1, 1](%{{.+}}, %{{.+}}) : !gpu.view<2x3x4xf32>, !gpu.view<4x2x3xf32>
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = "onnx.Transpose"(%x) {perm = [2, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// CHECK: // -----
// Without its dimensions of size 1, this Transpose swaps the last two
// dimensions of 8 matrices: it goes through shared memory in 32x32 tiles,
// one workgroup per tile and matrix. 16-bit elements are 32-bit words in
// shared memory.
// CHECK: gpu.kernel @transpose_tiled(read, write) workgroup_size(32, 4, 1)
// CHECK-SAME: buffer B0 { uint16_t d[]; } x;
// CHECK-SAME: shared uint tile[32][32 + 1];
// CHECK-SAME: uint base = gl_WorkGroupID.z * 1920u;
// CHECK-SAME: tile[k][tx] = uint(x.d[base + m * 48u + n]);
// CHECK-SAME: barrier();
// CHECK-SAME: y.d[base + n * 40u + m] = uint16_t(tile[tx][k]);
// CHECK: func.func @main
// CHECK: gpu.dispatch @transpose_tiled[2, 2, 8]
func.func @main(%x: tensor<8x1x40x48xf16>) -> tensor<8x48x40x1xf16> {
  %0 = "onnx.Transpose"(%x) {perm = [0, 3, 2, 1]} : (tensor<8x1x40x48xf16>) -> tensor<8x48x40x1xf16>
  return %0 : tensor<8x48x40x1xf16>
}

// -----

// CHECK: // -----
// Concat copies each input into its part of the output, in one kernel with
// one branch per input.
// CHECK: gpu.kernel @concat(read, read, read, write)
// CHECK-SAME: if (i < 6u) {
// CHECK-SAME: b3.d[c0 * 16u + c1] = b0.d[i];
// CHECK-SAME: } else if (i < 16u) {
// CHECK-SAME: uint j = i - 6u;
// CHECK-SAME: b3.d[3u + c0 * 16u + c1] = b1.d[j];
// CHECK-SAME: b3.d[8u + c0 * 16u + c1] = b2.d[j];
// CHECK: func.func @main
// CHECK: gpu.dispatch @concat[1, 1, 1](%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) : !gpu.view<2x3xf16>, !gpu.view<2x5xf16>, !gpu.view<2x8xf16>, !gpu.view<2x16xf16>

// The default target binds at most 4 buffers per kernel: 3 inputs, then 2.
// VULKAN: gpu.kernel @concat_1(read, read, read, write) workgroup_size(128, 1, 1)
// VULKAN: gpu.kernel @concat_2(read, read, write)
// VULKAN: func.func @main
// VULKAN: gpu.dispatch @concat_1[1, 1, 1](%{{.+}}, %{{.+}}, %{{.+}}, %[[OUT:.+]]) : !gpu.view<2x3xf16>, !gpu.view<2x5xf16>, !gpu.view<2x8xf16>, !gpu.view<2x21xf16>
// VULKAN: gpu.dispatch @concat_2[1, 1, 1](%{{.+}}, %{{.+}}, %[[OUT]]) : !gpu.view<2x1xf16>, !gpu.view<2x4xf16>, !gpu.view<2x21xf16>
func.func @main(%a: tensor<2x3xf16>, %b: tensor<2x5xf16>, %c: tensor<2x8xf16>, %d: tensor<2x1xf16>, %e: tensor<2x4xf16>) -> (tensor<2x16xf16>, tensor<2x21xf16>) {
  %0 = "onnx.Concat"(%a, %b, %c) {axis = 1 : si64} : (tensor<2x3xf16>, tensor<2x5xf16>, tensor<2x8xf16>) -> tensor<2x16xf16>
  %1 = "onnx.Concat"(%a, %b, %c, %d, %e) {axis = -1 : si64} : (tensor<2x3xf16>, tensor<2x5xf16>, tensor<2x8xf16>, tensor<2x1xf16>, tensor<2x4xf16>) -> tensor<2x21xf16>
  return %0, %1 : tensor<2x16xf16>, tensor<2x21xf16>
}

// -----

// CHECK: // -----
// Parts that are contiguous runs of whole 16-byte units move as uvec4.
// CHECK: gpu.kernel @concat(read, read, write)
// CHECK-SAME: buffer B0 { uvec4 d[]; } b0;
// CHECK-SAME: if (i < 2u) {
// CHECK-SAME: b2.d[i] = b0.d[i];
// CHECK-SAME: } else if (i < 3u) {
// CHECK-SAME: b2.d[2u + j] = b1.d[j];
func.func @main(%a: tensor<8x4xi8>, %b: tensor<4x4xi8>) -> tensor<12x4xi8> {
  %0 = "onnx.Concat"(%a, %b) {axis = 0 : si64} : (tensor<8x4xi8>, tensor<4x4xi8>) -> tensor<12x4xi8>
  return %0 : tensor<12x4xi8>
}

// -----

// CHECK: // -----
// Split reads its input once per kernel and writes each result.
// CHECK: gpu.kernel @split(read, write, write)
// CHECK-SAME: b1.d[i] = b0.d[i];
// CHECK-SAME: b2.d[j] = b0.d[5u + j];
// CHECK: func.func @main
// CHECK: gpu.dispatch @split[1, 1, 1](%{{.+}}, %{{.+}}, %{{.+}}) : !gpu.view<6x5xi64>, !gpu.view<2x5xi64>, !gpu.view<4x5xi64>
func.func @main(%x: tensor<6x5xi64>) -> (tensor<2x5xi64>, tensor<4x5xi64>) {
  %s = onnx.Constant dense<[2, 4]> : tensor<2xi64>
  %0:2 = "onnx.Split"(%x, %s) : (tensor<6x5xi64>, tensor<2xi64>) -> (tensor<2x5xi64>, tensor<4x5xi64>)
  return %0#0, %0#1 : tensor<2x5xi64>, tensor<4x5xi64>
}

// -----

// CHECK: // -----
// A negative step is a negative stride, which 32-bit unsigned arithmetic
// wraps: rows 4, 2, 0 start at element 28 and step by -14.
// CHECK: gpu.kernel @slice(read, write)
// CHECK-SAME: b1.d[i] = b0.d[28u + c0 * 4294967282u + c1];
func.func @main(%x: tensor<5x7xf32>) -> tensor<3x7xf32> {
  %starts = onnx.Constant dense<[-1]> : tensor<1xi64>
  %ends = onnx.Constant dense<[-100]> : tensor<1xi64>
  %axes = onnx.Constant dense<[0]> : tensor<1xi64>
  %steps = onnx.Constant dense<[-2]> : tensor<1xi64>
  %0 = "onnx.Slice"(%x, %starts, %ends, %axes, %steps) : (tensor<5x7xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// -----

// CHECK: // -----
// Tile walks each output dimension as [repeat, index]; the repeat does not
// move the source.
// CHECK: gpu.kernel @tile(read, write)
// CHECK-SAME: buffer B0 { uint16_t d[]; } b0;
// CHECK-SAME: b1.d[i] = b0.d[c1 * 3u + c3];
func.func @main(%x: tensor<2x3xbf16>) -> tensor<4x9xbf16> {
  %r = onnx.Constant dense<[2, 3]> : tensor<2xi64>
  %0 = "onnx.Tile"(%x, %r) : (tensor<2x3xbf16>, tensor<2xi64>) -> tensor<4x9xbf16>
  return %0 : tensor<4x9xbf16>
}

// -----

// CHECK: // -----
// Pad maps each output coordinate to the input: reflect mirrors it with
// period 2 (n - 1), after a shift that keeps GLSL's % off negative values.
// CHECK: gpu.kernel @pad_reflect(read, write)
// CHECK-SAME: buffer B0 { uvec2 d[]; } x;
// CHECK-SAME: int j0 = int(c0) - 1;
// CHECK-SAME: j0 = (j0 + 4) % 4;
// CHECK-SAME: j0 = j0 < 3 ? j0 : 4 - j0;
// CHECK-SAME: y.d[i] = x.d[uint(j0) * 4u + uint(j1)];
func.func @main(%x: tensor<3x4xf64>) -> tensor<4x9xf64> {
  %p = onnx.Constant dense<[1, 2, 0, 3]> : tensor<4xi64>
  %0 = "onnx.Pad"(%x, %p) {mode = "reflect"} : (tensor<3x4xf64>, tensor<4xi64>) -> tensor<4x9xf64>
  return %0 : tensor<4x9xf64>
}

// -----

// CHECK: // -----
// A constant constant_value is a literal of its bits.
// CHECK: gpu.kernel @pad_constant(read, write)
// CHECK-SAME: inside = inside && j0 >= 0 && j0 < 3;
// CHECK-SAME: if (inside)
// CHECK-SAME: y.d[i] = x.d[uint(j0) * 4u + uint(j1)];
// CHECK-SAME: y.d[i] = 4294967295u;
func.func @main(%x: tensor<3x4xi32>) -> tensor<5x4xi32> {
  %p = onnx.Constant dense<[1, 0, 1, 0]> : tensor<4xi64>
  %c = onnx.Constant dense<-1> : tensor<i32>
  %0 = "onnx.Pad"(%x, %p, %c) : (tensor<3x4xi32>, tensor<4xi64>, tensor<i32>) -> tensor<5x4xi32>
  return %0 : tensor<5x4xi32>
}

// -----

// CHECK: // -----
// A constant_value that is not a constant is read from its binding; an
// empty input is not bound at all (views are never empty).
// CHECK: gpu.kernel @pad_constant(read, write)
// CHECK-SAME: buffer B0 { uint d[]; } c;
// CHECK-SAME: if (i >= 6u) return;\0Ay.d[i] = c.d[0];\0A}
// CHECK: gpu.dispatch @pad_constant[1, 1, 1](%{{.+}}, %{{.+}}) : !gpu.view<f32>, !gpu.view<2x3xf32>
func.func @main(%x: tensor<0x3xf32>, %c: tensor<f32>) -> tensor<2x3xf32> {
  %p = onnx.Constant dense<[1, 0, 1, 0]> : tensor<4xi64>
  %0 = "onnx.Pad"(%x, %p, %c) : (tensor<0x3xf32>, tensor<4xi64>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK: // -----
// Gather reads i64 indices as two 32-bit words, without the int64 feature;
// negative indices count from the end and indices out of range write zeros.
// Rows of 16 f16 move as two uvec4.
// CHECK: gpu.kernel @gather(read, read, write)
// CHECK-SAME: buffer B0 { uvec4 d[]; } x;
// CHECK-SAME: buffer B1 { ivec2 d[]; } indices;
// CHECK-SAME: ivec2 kWords = indices.d[t];
// CHECK-SAME: bool kFits = kWords.y == (kWords.x >> 31);
// CHECK-SAME: if (k < 0) k += 10;
// CHECK-SAME: y.d[i] = x.d[(o * 10u + uint(k)) * 2u + r];
// CHECK-SAME: y.d[i] = uvec4(0u);
func.func @main(%x: tensor<10x16xf16>, %i: tensor<2x3xi64>) -> tensor<2x3x16xf16> {
  %0 = "onnx.Gather"(%x, %i) : (tensor<10x16xf16>, tensor<2x3xi64>) -> tensor<2x3x16xf16>
  return %0 : tensor<2x3x16xf16>
}

// -----

// CHECK: // -----
// ScatterND copies its data, then writes the updates in place (one
// read_write binding).
// CHECK: gpu.kernel @copy(read, write)
// CHECK: gpu.kernel @scatter_nd(read_write, read, read)
// CHECK-SAME: uint t = i / 3u, e = i % 3u;
// CHECK-SAME: offset += uint(k0) * 3u;
// CHECK-SAME: y.d[offset + e] = u.d[i];
// CHECK: func.func @main
// CHECK: gpu.upload %arg2
// CHECK-NEXT: %[[OUT:.+]] = gpu.alloc : !gpu.view<4x3xf32>
// CHECK-NEXT: gpu.dispatch @copy[1, 1, 1](%{{.+}}, %[[OUT]])
// CHECK-NEXT: gpu.dispatch @scatter_nd[1, 1, 1](%[[OUT]], %{{.+}}, %{{.+}})
// CHECK-NEXT: gpu.download %[[OUT]]
func.func @main(%x: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = "onnx.ScatterND"(%x, %i, %u) : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// CHECK: // -----
// With a reduction, one invocation per slice element walks the index tuples
// in order, so repeated tuples combine as the reference combines them; the
// values are computed in the element type's compute type.
// CHECK: gpu.kernel @scatter_nd_max(read_write, read, read)
// CHECK-SAME: buffer B0 { float16_t d[]; } y;
// CHECK-SAME: for (uint t = 0u; t < 5u; ++t) {
// CHECK-SAME: if (!valid) continue;
// CHECK-SAME: y.d[offset + e] = float16_t((a < b ? b : a));
func.func @main(%x: tensor<4x3xf16>, %i: tensor<5x2xi64>, %u: tensor<5xf16>) -> tensor<4x3xf16> {
  %0 = "onnx.ScatterND"(%x, %i, %u) {reduction = "max"} : (tensor<4x3xf16>, tensor<5x2xi64>, tensor<5xf16>) -> tensor<4x3xf16>
  return %0 : tensor<4x3xf16>
}

// -----

// CHECK: // -----
// Trilu with a k that is not a constant reads it; diagonals beyond the
// matrix keep everything or nothing, so k is clamped to 32 bits.
// CHECK: gpu.kernel @tril(read, read, write)
// CHECK-SAME: if (!kFits) k = kWords.y < 0 ? -8 : 8;
// CHECK-SAME: if (col - row <= k)
// CHECK-SAME: y.d[i] = 0u;
func.func @main(%x: tensor<2x3x4xf32>, %k: tensor<i64>) -> tensor<2x3x4xf32> {
  %0 = "onnx.Trilu"(%x, %k) {upper = 0 : si64} : (tensor<2x3x4xf32>, tensor<i64>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// CHECK: // -----
// Range computes start + i * delta, with constants baked in; its length is
// in the result type, so the limit is not read.
// CHECK: gpu.kernel @range(read, write)
// CHECK-SAME: float value = startBuffer.d[0] + float(i) * uintBitsToFloat(0x3f000000u);
// CHECK: func.func @main
// CHECK: gpu.dispatch @range[1, 1, 1](%{{.+}}, %{{.+}}) : !gpu.view<f32>, !gpu.view<10xf32>
func.func @main(%start: tensor<f32>, %limit: tensor<f32>) -> tensor<10xf32> {
  %delta = onnx.Constant dense<0.5> : tensor<f32>
  %0 = "onnx.Range"(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

// -----

// CHECK: // -----
// Shape, Size and ConstantOfShape fold away when canonicalized; lowered as
// they are, ConstantOfShape's kernel writes its value and Shape and Size,
// shape values of the host program, are materialized with the values their
// types give because they are returned.
// CHECK: gpu.kernel @fill(write)
// CHECK-SAME: y.d[i] = uint8_t(253u);
// CHECK: gpu.kernel @shape_value(write)
// CHECK-SAME: y.d[0] = uvec2(3u, 0u);\0A  y.d[1] = uvec2(4u, 0u);
// CHECK: gpu.kernel @shape_value_1(write)
// CHECK-SAME: y.d[0] = uvec2(24u, 0u);
func.func @main(%x: tensor<2x3x4xf32>) -> (tensor<2xi64>, tensor<i64>, tensor<3x4xi8>) {
  %0 = "onnx.Shape"(%x) {start = 1 : si64} : (tensor<2x3x4xf32>) -> tensor<2xi64>
  %1 = "onnx.Size"(%x) : (tensor<2x3x4xf32>) -> tensor<i64>
  %2 = "onnx.ConstantOfShape"(%0) {value = dense<-3> : tensor<1xi8>} : (tensor<2xi64>) -> tensor<3x4xi8>
  return %0, %1, %2 : tensor<2xi64>, tensor<i64>, tensor<3x4xi8>
}

// RUN: onyx-opt %s --split-input-file --target=nvidia --lower | FileCheck %s
// RUN: onyx-opt %s --split-input-file --target=nvidia --onnx-static-shapes --onnx-fuse-elementwise --convert-onnx-to-gpu | FileCheck %s --check-prefix=GLSL

// Products whose M, N, K or batch are known only at run time are compiled
// once: those sizes reach the GEMM kernels as push constants, with bounds
// checks along the dimensions that are dynamic, while static ones stay
// literals and keep the specialized kernels' vec4 loads. These are the
// kernels of a GPU target: a CPU device keeps k whole
// (cpu-kernel-choices.mlir).

// M known only at run time (a linear layer over a sequence): the
// matrix-vector kernel for one row, the one for up to 4 rows and the tiled
// one are dispatched, their grids multiplied by (M == 1), small - (M == 1)
// and large, where large = min(max(M - 4, 0), 1) and small = (1 - large) *
// min(M, 1), so that a decode step's single row runs only the first, 2 to
// 4 rows only the second and a longer run only the tiled kernel (a grid
// with a count of 0 is skipped). An empty M zeroes all three.
// CHECK-LABEL: func.func @main(%arg0: tensor<?x64xf32>, %arg1: tensor<64x256xf32>)
// CHECK: %[[M:.+]] = gpu.dim %arg0[0]
// CHECK: %[[Y:.+]] = gpu.alloc(%[[M]]) : !gpu.view<?x256xf32>
// CHECK: %[[M3:.+]] = gpu.subi %[[M]], %{{.+}}
// CHECK: %[[M4:.+]] = gpu.subi %[[M3]], %{{.+}}
// CHECK: %[[MAX:.+]] = gpu.maxi %[[M4]], %{{.+}}
// CHECK: %[[LARGE:.+]] = gpu.mini %[[MAX]], %{{.+}}
// CHECK: %[[NONEMPTY:.+]] = gpu.mini %[[M]], %{{.+}}
// CHECK: %[[NOTLARGE:.+]] = gpu.subi %{{.+}}, %[[LARGE]]
// CHECK: %[[SMALL:.+]] = gpu.muli %[[NOTLARGE]], %[[NONEMPTY]]
// CHECK: %[[ONE:.+]] = gpu.eqi %[[M]], %{{.+}}
// CHECK: %[[GX1:.+]] = gpu.muli %{{.+}}, %[[ONE]]
// CHECK: %[[FEW:.+]] = gpu.subi %[[SMALL]], %[[ONE]]
// CHECK: %[[GX4:.+]] = gpu.muli %{{.+}}, %[[FEW]]
// CHECK: %[[TX:.+]] = gpu.muli %{{.+}}, %[[LARGE]]
// CHECK: %[[TY:.+]] = gpu.ceildivi %[[M]], %{{.+}}
// CHECK: gpu.dispatch @matmul[%[[GX1]], 1, 1](%{{.+}}, %{{.+}}, %[[Y]]) push(%[[M]])
// CHECK: gpu.dispatch @matmul_1[%[[GX4]], 1, 1](%{{.+}}, %{{.+}}, %[[Y]]) push(%[[M]])
// CHECK: gpu.dispatch @matmul_2[%[[TX]], %[[TY]], 1](%{{.+}}, %{{.+}}, %[[Y]]) push(%[[M]])
// The one-row kernel has one accumulator and no branch on M (it shares the
// block of push constants, which it does not read); the one for up to 4
// rows has accumulators for 4 rows and skips those beyond M; k and n are
// literals, B is read as vec4s.
// GLSL-LABEL: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1) push_constants(ui32)
// GLSL-SAME: for (uint k = kg; k < 64u; k += 128u) {
// GLSL-SAME: vec4 bv = loadB4(k, col);
// GLSL-SAME: acc0 += loadA(0u, k) * bv;
// GLSL-NOT: acc1
// GLSL-SAME: storeC(0u, col + 3u, red[lt][3]);
// GLSL: gpu.kernel @matmul_1(read, read, write) workgroup_size(256, 1, 1) push_constants(ui32)
// GLSL-SAME: layout(push_constant) uniform Sizes { uint s0; } pc;
// GLSL-SAME: for (uint k = kg; k < 64u; k += 128u) {
// GLSL-SAME: vec4 bv = loadB4(k, col);
// GLSL-SAME: acc0 += loadA(0u, k) * bv;
// GLSL-SAME: if (pc.s0 > 1u) {
// GLSL-SAME: acc1 += loadA(1u, k) * bv;
// GLSL-SAME: if (pc.s0 > 3u) {
// GLSL-SAME: storeC(3u, col + 3u, red[lt][3]);
// The tiled kernel checks rows against M only; A and B stay vec4 loads.
// GLSL: gpu.kernel @matmul_2(read, read, write) workgroup_size(256, 1, 1) push_constants(ui32)
// GLSL-SAME: uniform Sizes { uint s0; } pc;
// GLSL-SAME: vec4 loadA4(uint row, uint k) { return a.d[(aBase + row * 64u + k) / 4u]; }
// GLSL-SAME: vec4 loadB4(uint k, uint col) { return b.d[(bBase + k * 256u + col) / 4u]; }
// GLSL-SAME: av0 = (gr < pc.s0) ? loadA4(gr, gk) : vec4(0);
// GLSL-SAME: bv0 = loadB4(gk, gc);
// GLSL-SAME: for (uint k0 = 0u; k0 < 64u; k0 += 16u) {
// GLSL-SAME: if (r < pc.s0) {
func.func @main(%a: tensor<?x64xf32>, %b: tensor<64x256xf32>) -> tensor<?x256xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x64xf32>, tensor<64x256xf32>) -> tensor<?x256xf32>
  return %0 : tensor<?x256xf32>
}

// -----

// A layer whose large tile (64 x 64 over k = 256) costs more than a
// dispatch (isCheapGemmTile): the rows of a prompt of up to 64 tokens get
// the kernels a product specialized to them would, one per class of M
// (4, 8], (8, 16], (16, 32] and (32, 64] (the tile and split chosen for the
// class's largest M), each dispatched where gpu.lti/gpu.lei put the run's M
// in its class; M > 64 takes the tiles for 256 rows, and the run decides
// whether they split k. The small classes keep k whole, shared among the
// threads of one workgroup (kGroups), as specialized kernels of those rows
// do.
// CHECK-LABEL: func.func @main(%arg0: tensor<?x256xf32>, %arg1: tensor<256x512xf32>)
// CHECK: %[[M:.+]] = gpu.dim %arg0[0]
// CHECK: %[[C8:.+]] = gpu.constant 8
// CHECK: %[[LE8:.+]] = gpu.lei %[[M]], %[[C8]]
// CHECK: %[[C4:.+]] = gpu.constant 4
// CHECK: %[[GT4:.+]] = gpu.lti %[[C4]], %[[M]]
// CHECK: %[[IN8:.+]] = gpu.muli %[[GT4]], %[[LE8]]
// CHECK: %[[X8:.+]] = gpu.muli %{{.+}}, %[[IN8]]
// CHECK: %[[C16:.+]] = gpu.constant 16
// CHECK: %[[LE16:.+]] = gpu.lei %[[M]], %[[C16]]
// CHECK: %[[GT8:.+]] = gpu.lti %[[C8]], %[[M]]
// CHECK: %[[IN16:.+]] = gpu.muli %[[GT8]], %[[LE16]]
// CHECK: %[[X16:.+]] = gpu.muli %{{.+}}, %[[IN16]]
// CHECK: %[[LE32:.+]] = gpu.lei %[[M]], %[[C32:.+]]
// CHECK: %[[GT16:.+]] = gpu.lti %[[C16]], %[[M]]
// CHECK: %[[IN32:.+]] = gpu.muli %[[GT16]], %[[LE32]]
// CHECK: %[[X32:.+]] = gpu.muli %{{.+}}, %[[IN32]]
// CHECK: %[[LE64:.+]] = gpu.lei %[[M]], %[[C64:.+]]
// CHECK: %[[GT32:.+]] = gpu.lti %[[C32]], %[[M]]
// CHECK: %[[IN64:.+]] = gpu.muli %[[GT32]], %[[LE64]]
// CHECK: %[[X64:.+]] = gpu.muli %{{.+}}, %[[IN64]]
// CHECK: %[[LARGE:.+]] = gpu.lti %[[C64]], %[[M]]
// CHECK: gpu.dispatch @matmul[
// CHECK: gpu.dispatch @matmul_1[
// CHECK: gpu.dispatch @matmul_2[%[[X8]], %{{.+}}, 1]
// CHECK: gpu.dispatch @matmul_3[%[[X16]], %{{.+}}, 1]
// CHECK: gpu.dispatch @matmul_4[%[[X32]], %{{.+}}, 1]
// CHECK: gpu.dispatch @matmul_5[%[[X64]], %{{.+}}, 1]
// CHECK: gpu.dispatch @matmul_6[{{.+}}](%{{.+}}, %{{.+}}, %[[PARTIALS:.+]]) push
// CHECK: gpu.dispatch @matmul_reduce[{{.+}}](%[[PARTIALS]], %{{.+}})
// CHECK: gpu.dispatch @matmul_7[
// CHECK-NOT: gpu.dispatch
// The classes' tiles: 8 x 16, 16 x 16, 16 x 32 and 32 x 32 with k shared
// among groups of threads; the large one 64 x 64, k split or whole.
// GLSL: gpu.kernel @matmul_2(read, read, write) workgroup_size(256, 1, 1)
// GLSL-SAME: shared float Cs[512];
// GLSL-SAME: uint row0 = gl_WorkGroupID.y * 8u, col0 = gl_WorkGroupID.x * 16u;
// GLSL: gpu.kernel @matmul_3(read, read, write) workgroup_size(256, 1, 1)
// GLSL-SAME: uint row0 = gl_WorkGroupID.y * 16u, col0 = gl_WorkGroupID.x * 16u;
// GLSL: gpu.kernel @matmul_4(read, read, write) workgroup_size(256, 1, 1)
// GLSL-SAME: uint row0 = gl_WorkGroupID.y * 16u, col0 = gl_WorkGroupID.x * 32u;
// GLSL: gpu.kernel @matmul_5(read, read, write) workgroup_size(128, 1, 1)
// GLSL-SAME: uint row0 = gl_WorkGroupID.y * 32u, col0 = gl_WorkGroupID.x * 32u;
// GLSL: gpu.kernel @matmul_6(read, read, write) workgroup_size(256, 1, 1)
// GLSL-SAME: uint kBegin = split * pc.s2, kEnd = min(kBegin + pc.s2, 256u);
// GLSL-SAME: uint row0 = gl_WorkGroupID.y * 64u, col0 = gl_WorkGroupID.x * 64u;
// GLSL: gpu.kernel @matmul_7(read, read, write) workgroup_size(256, 1, 1)
// GLSL-SAME: uint row0 = gl_WorkGroupID.y * 64u, col0 = gl_WorkGroupID.x * 64u;
func.func @main(%a: tensor<?x256xf32>, %b: tensor<256x512xf32>) -> tensor<?x512xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x256xf32>, tensor<256x512xf32>) -> tensor<?x512xf32>
  return %0 : tensor<?x512xf32>
}

// -----

// Neighbouring classes that choose alike share one kernel and condition: a
// long k (4096) over 64 columns keeps an 8 x 8 tile with k shared among
// threads from 5 to 32 rows, one class (4, 32]; at 64 rows k is split among
// workgroups (128 chunks of 32) into partial sums the class's own reduction
// adds (its splits a literal, as in a specialized kernel).
// CHECK-LABEL: func.func @main(%arg0: tensor<?x4096xf32>, %arg1: tensor<4096x64xf32>)
// CHECK: %[[M:.+]] = gpu.dim %arg0[0]
// CHECK: %[[C32:.+]] = gpu.constant 32
// CHECK: %[[LE32:.+]] = gpu.lei %[[M]], %[[C32]]
// CHECK: %[[C4:.+]] = gpu.constant 4
// CHECK: %[[GT4:.+]] = gpu.lti %[[C4]], %[[M]]
// CHECK: %[[IN32:.+]] = gpu.muli %[[GT4]], %[[LE32]]
// CHECK: %[[X32:.+]] = gpu.muli %{{.+}}, %[[IN32]]
// CHECK: %[[C64:.+]] = gpu.constant 64
// CHECK: %[[LE64:.+]] = gpu.lei %[[M]], %[[C64]]
// CHECK: %[[GT32:.+]] = gpu.lti %[[C32]], %[[M]]
// CHECK: %[[IN64:.+]] = gpu.muli %[[GT32]], %[[LE64]]
// CHECK: %[[PARTIALS:.+]] = gpu.alloc(%{{.+}}) : !gpu.view<?xf32>
// CHECK: %[[R64:.+]] = gpu.muli %{{.+}}, %[[IN64]]
// CHECK: gpu.lti %[[C64]], %[[M]]
// CHECK: gpu.dispatch @matmul_2[%[[X32]], %{{.+}}, 1]
// CHECK: gpu.dispatch @matmul_3[%[[IN64]], %{{.+}}, 128](%{{.+}}, %{{.+}}, %[[PARTIALS]])
// CHECK: gpu.dispatch @matmul_reduce[%[[R64]], 1, 1](%[[PARTIALS]], %{{.+}})
// CHECK: gpu.dispatch @matmul_4[
// CHECK: gpu.dispatch @matmul_reduce_1[
// CHECK: gpu.dispatch @matmul_5[
// CHECK-NOT: gpu.dispatch
// GLSL: gpu.kernel @matmul_2(read, read, write) workgroup_size(256, 1, 1)
// GLSL-SAME: uint row0 = gl_WorkGroupID.y * 8u, col0 = gl_WorkGroupID.x * 8u;
// GLSL: gpu.kernel @matmul_3(read, read, write) workgroup_size(256, 1, 1)
// GLSL-SAME: uint kBegin = split * 32u, kEnd = min(kBegin + 32u, 4096u);
// GLSL: gpu.kernel @matmul_reduce(read, write)
// GLSL-SAME: for (uint s = 1u; s < 128u; ++s)
func.func @main(%a: tensor<?x4096xf32>, %b: tensor<4096x64xf32>) -> tensor<?x64xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x4096xf32>, tensor<4096x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// A small linear layer (M known only at run time, 128 x 8: too small for
// the matrix-vector kernel): a tile's whole k is less work than a second
// dispatch even at a full tile of rows (isCheapTile), so k is never split
// among workgroups: one tiled kernel, no partial sums. (Where that depends
// on M, the split's gate includes the rule for the run's rows: a decode
// step's row keeps k whole, dynamic-matmul-run.mlir.)
// CHECK-LABEL: func.func @main(%arg0: tensor<?x128xf32>, %arg1: tensor<128x8xf32>)
// CHECK-NOT: !gpu.view<?xf32>
// CHECK: gpu.dispatch @matmul[
// CHECK-NOT: gpu.dispatch
// CHECK: return
func.func @main(%a: tensor<?x128xf32>, %b: tensor<128x8xf32>) -> tensor<?x8xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x128xf32>, tensor<128x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// K known only at run time: A's and B's must agree when the function runs
// (gpu.assert, an error of the run at the op otherwise); the kernels loop to
// it and check it, and A, whose rows it strides, is read one element at a
// time. B's batch of 1 lets A's batch stack into its rows. Whether k is
// split among workgroups depends on the run's sizes (chooseGemmSplit's rule
// on the host: fewer than 128 tiles, at least 2 chunks of 32, and a tile's
// whole k more work than a second dispatch, isCheapTile): the split
// kernel and the one adding its partial sums, and the whole-k kernel, are
// all dispatched, with grids multiplied by the split's gate and by 1 minus
// it.
// CHECK-LABEL: func.func @main(%arg0: tensor<?x8x?xf32>, %arg1: tensor<1x?x32xf32>)
// CHECK-DAG: %[[K:.+]] = gpu.dim %arg0[2]
// CHECK-DAG: %[[KB:.+]] = gpu.dim %arg1[1]
// CHECK: %[[EQ:.+]] = gpu.eqi %[[K]], %[[KB]]
// CHECK: gpu.assert %[[EQ]], %[[K]], %[[KB]] {message = "'onnx.MatMul' op has inner dimensions {0} and {1} at run time, which differ"}
// CHECK: %[[PARTIALS:.+]] = gpu.alloc(%{{.+}}) : !gpu.view<?xf32>
// CHECK: gpu.dispatch @matmul[{{.+}}](%{{.+}}, %{{.+}}, %[[PARTIALS]])
// CHECK: gpu.dispatch @matmul_reduce[{{.+}}](%[[PARTIALS]], %{{.+}})
// CHECK: gpu.dispatch @matmul_1[
// GLSL-LABEL: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1) push_constants(ui32, ui32, ui32, ui32, ui32)
// GLSL-SAME: layout(set = 0, binding = 0, std430) readonly buffer B0 { float d[]; } a;
// GLSL-SAME: layout(set = 0, binding = 1, std430) readonly buffer B1 { vec4 d[]; } b;
// GLSL-SAME: float loadA(uint row, uint k) { return a.d[aBase + row * pc.s0 + k]; }
// GLSL-SAME: uint z = gl_WorkGroupID.z / pc.s1, split = gl_WorkGroupID.z % pc.s1;
// GLSL-SAME: uint kBegin = split * pc.s3, kEnd = min(kBegin + pc.s3, pc.s0);
// GLSL-SAME: av0 = (gr < pc.s4 && gk < pc.s0) ? loadA(gr, gk) : float(0);
// GLSL: gpu.kernel @matmul_reduce(read, write)
// GLSL-SAME: for (uint s = 1u; s < pc.s1; ++s)
// GLSL: gpu.kernel @matmul_1(read, read, write)
// GLSL-SAME: for (uint k0 = 0u; k0 < pc.s0; k0 += 16u) {
func.func @main(%a: tensor<?x8x?xf32>, %b: tensor<1x?x32xf32>) -> tensor<?x8x32xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x8x?xf32>, tensor<1x?x32xf32>) -> tensor<?x8x32xf32>
  return %0 : tensor<?x8x32xf32>
}

// -----

// Batches known only at run time broadcast: the result's is computed and
// checked by gpu.assert, and an operand's batch stride is multiplied by
// min(max(batch - 1, 0), 1) on the host, 0 where its batch is 1.
// CHECK-LABEL: func.func @main(%arg0: tensor<?x16x8xf32>, %arg1: tensor<?x8x32xf32>)
// CHECK-DAG: %[[BA:.+]] = gpu.dim %arg0[0]
// CHECK-DAG: %[[BB:.+]] = gpu.dim %arg1[0]
// CHECK: gpu.assert %{{.+}}, %[[BA]], %[[BB]] {message = "'onnx.MatMul' op has batch dimensions {0} and {1} at run time, which do not broadcast"}
// CHECK: %[[BATCH:.+]] = gpu.select %{{.+}}, %[[BB]], %[[BA]]
// CHECK: gpu.alloc(%[[BATCH]]) : !gpu.view<?x16x32xf32>
// CHECK: gpu.dispatch @matmul[1, 1, %[[BATCH]]]
// GLSL-LABEL: gpu.kernel @matmul(read, read, write) workgroup_size(256, 1, 1) push_constants(ui32, ui32) glsl(
// GLSL-SAME: yBase = z * 512u;
// GLSL-SAME: uint bz0 = (z) / 1u;
// GLSL-SAME: aBase = (bz0 * pc.s0) * 128u;
// GLSL-SAME: bBase = (bz0 * pc.s1) * 256u;
func.func @main(%a: tensor<?x16x8xf32>, %b: tensor<?x8x32xf32>) -> tensor<?x16x32xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x16x8xf32>, tensor<?x8x32xf32>) -> tensor<?x16x32xf32>
  return %0 : tensor<?x16x32xf32>
}

// -----

// Attention's products at a past length known only at run time: Q K^T has
// N dynamic, P V has k dynamic; a decode step (M = 1 here) is one
// matrix-vector dispatch each, with no tiled kernel.
// CHECK-LABEL: func.func @main(%arg0: tensor<1x2x1x64xf32>, %arg1: tensor<1x2x64x?xf32>, %arg2: tensor<1x2x?x64xf32>)
// CHECK: gpu.dispatch @matmul[%{{.+}}, 1, 2]
// CHECK: gpu.dispatch @matmul_1[8, 1, 2]
// CHECK-NOT: gpu.dispatch
// GLSL-LABEL: gpu.kernel @matmul(read, read, write)
// GLSL-SAME: bool inside = col < pc.s{{[0-9]}};
// GLSL: gpu.kernel @matmul_1(read, read, write)
// GLSL-SAME: for (uint k = kg; k < pc.s{{[0-9]}}; k += {{[0-9]+}}u) {
func.func @main(%q: tensor<1x2x1x64xf32>, %kt: tensor<1x2x64x?xf32>, %v: tensor<1x2x?x64xf32>) -> tensor<1x2x1x64xf32> {
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x1x64xf32>, tensor<1x2x64x?xf32>) -> tensor<1x2x1x?xf32>
  %o = "onnx.MatMul"(%s, %v) : (tensor<1x2x1x?xf32>, tensor<1x2x?x64xf32>) -> tensor<1x2x1x64xf32>
  return %o : tensor<1x2x1x64xf32>
}

// -----

// Gemm (transB: a weight [n, k]) with M known only at run time, C
// broadcast along it and a fused Relu, in both kernels.
// CHECK-LABEL: func.func @main(%arg0: tensor<?x64xf32>
// CHECK: gpu.dispatch @gemm[{{.+}}) push(
// CHECK: gpu.dispatch @gemm_1[{{.+}}) push(
// GLSL-LABEL: gpu.kernel @gemm(read, read, read, write)
// GLSL-SAME: float v = uintBitsToFloat(0x3f000000u) * acc + (cIn.d[o1]);
// GLSL-SAME: (v) > 0) ? (v) : 0)
// GLSL-SAME: uint lane = li % 32u, c = li / 32u;
// GLSL: gpu.kernel @gemm_1(read, read, read, write)
// GLSL-SAME: (v) > 0) ? (v) : 0)
func.func @main(%x: tensor<?x64xf32>, %w: tensor<256x64xf32>, %c: tensor<256xf32>) -> tensor<?x256xf32> {
  %y = "onnx.Gemm"(%x, %w, %c) {transB = 1 : si64, alpha = 0.5 : f32} : (tensor<?x64xf32>, tensor<256x64xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %r = "onnx.Relu"(%y) : (tensor<?x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// -----

// Known sizes keep the specialized kernel: no push constants, no checks.
// CHECK-LABEL: func.func @main(%arg0: tensor<8x64xf32>
// CHECK: gpu.dispatch @matmul[4, 1, 1]
// GLSL-LABEL: gpu.kernel @matmul(read, read, write) workgroup_size(64, 1, 1) glsl(
// GLSL-NOT: pc.s
// GLSL: func.func
func.func @main(%a: tensor<8x64xf32>, %b: tensor<64x256xf32>) -> tensor<8x256xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
  return %0 : tensor<8x256xf32>
}

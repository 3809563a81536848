// RUN: onyx-opt %s --gpu-compile-kernels -o %t.mlir
// RUN: onyx-run %t.mlir --validate --input=2x4xf32=1,2,3,4,5,6,7,8 | FileCheck %s --check-prefix=TWO
// RUN: onyx-run %t.mlir --validate --input=3x4xf32=1 | FileCheck %s --check-prefix=THREE
// RUN: onyx-run %t.mlir --validate --input=0x4xf32= | FileCheck %s --check-prefix=EMPTY
// RUN: not onyx-run %t.mlir --validate --input=2x5xf32=1 2>&1 | FileCheck %s --check-prefix=BAD

// One module with a `?` dimension, run at two sizes: the number of rows
// reaches the kernels as a push constant and their grids, and the runtime
// places the tensors (gpu.alloc) for each run.

// TWO: output 0: tensor<2x4xf32> = [11, 22, 33, 44, 15, 26, 37, 48]
// TWO: output 1: tensor<2x2xf32> = [11, 22, 15, 26]
// THREE: output 0: tensor<3x4xf32> = [11, 21, 31, 41, 11, 21, 31, 41, ...]
// THREE: output 1: tensor<3x2xf32> = [11, 21, 11, 21, 11, 21]
// A grid of no workgroups skips its dispatch.
// EMPTY: output 0: tensor<0x4xf32> = []
// EMPTY: output 1: tensor<0x2xf32> = []
// BAD: input 0: expected tensor<?x4xf32>, got 2x5xf32

module {
  gpu.kernel @add_row(read, read, write) workgroup_size(64, 1, 1) push_constants(ui32) glsl("#version 450\0Alayout(local_size_x = 64) in;\0Alayout(set = 0, binding = 0) readonly buffer A { float a[]; };\0Alayout(set = 0, binding = 1) readonly buffer B { float b[]; };\0Alayout(set = 0, binding = 2) writeonly buffer C { float c[]; };\0Alayout(push_constant) uniform P { uint n; } p;\0Avoid main() {\0A  uint i = gl_GlobalInvocationID.x;\0A  if (i < p.n) c[i] = a[i] + b[i % 4u];\0A}\0A")
  gpu.kernel @copy_half(read, write) workgroup_size(64, 1, 1) push_constants(ui32) glsl("#version 450\0Alayout(local_size_x = 64) in;\0Alayout(set = 0, binding = 0) readonly buffer A { float a[]; };\0Alayout(set = 0, binding = 1) writeonly buffer C { float c[]; };\0Alayout(push_constant) uniform P { uint rows; } p;\0Avoid main() {\0A  uint i = gl_GlobalInvocationID.x;\0A  if (i < p.rows * 2u) c[i] = a[(i / 2u) * 4u + i % 2u];\0A}\0A")
  func.func @main(%arg0: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x2xf32>) {
    %weights = gpu.buffer weights : !gpu.buffer<16>
    %w = gpu.weight %weights[0] : !gpu.buffer<16> = dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
    %rows = gpu.dim %arg0[0] : tensor<?x4xf32>
    %c4 = gpu.constant 4
    %c2 = gpu.constant 2
    %c64 = gpu.constant 64
    %n = gpu.muli %rows, %c4
    %groups = gpu.ceildivi %n, %c64
    %x = gpu.alloc(%rows) : !gpu.view<?x4xf32>
    gpu.upload %arg0, %x : tensor<?x4xf32> to !gpu.view<?x4xf32>
    %y = gpu.alloc(%rows) : !gpu.view<?x4xf32>
    gpu.dispatch @add_row[%groups, 1, 1](%x, %w, %y) push(%n) : !gpu.view<?x4xf32>, !gpu.view<4xf32>, !gpu.view<?x4xf32>
    %h = gpu.alloc(%rows) : !gpu.view<?x2xf32>
    %m = gpu.muli %rows, %c2
    %hgroups = gpu.ceildivi %m, %c64
    gpu.dispatch @copy_half[%hgroups, 1, 1](%y, %h) push(%rows) : !gpu.view<?x4xf32>, !gpu.view<?x2xf32>
    %r0 = gpu.download %y : !gpu.view<?x4xf32> to tensor<?x4xf32>
    %r1 = gpu.download %h : !gpu.view<?x2xf32> to tensor<?x2xf32>
    return %r0, %r1 : tensor<?x4xf32>, tensor<?x2xf32>
  }
}

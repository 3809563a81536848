// RUN: onyx-opt %s --gpu-compile-kernels -o %t.mlir
// RUN: onyx-opt %t.mlir | onyx-opt | FileCheck %s --check-prefix=ROUND
// RUN: onyx-run %t.mlir --validate --profile --input-set=2xf32=3,5 --input-set=2xf32=0,1 --input-set=1xf32=70000 --input-set=2xf32=3,5 --input-set=2xf32=3,5 | FileCheck %s
// RUN: not onyx-run %t.mlir --validate --input=1xf32=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// gpu.read_count splits a run: the first segment's kernel writes x + 1 and a
// count (x[0]); the runtime submits it, waits and reads the count, which
// sizes the second segment's tensor (x + 1 repeated); that segment's kernel
// writes a second count (2 * y[0]) that sizes the third. A tensor the
// first segment placed (x + 1) is read after both splits, and the first run
// at 70000 grows the runtime's arena after the first split, so the run starts
// again. An empty count skips the later dispatches. The last run finds all
// three segments' recordings made.

// ROUND: %[[C:.+]] = gpu.read_count %{{.+}} : !gpu.view<1xi32>
// ROUND: gpu.alloc(%[[C]]) : !gpu.view<?xf32>

// CHECK: input set 0:
// CHECK: output 0: tensor<3xf32> = [4, 6, 4]
// CHECK-NEXT: output 1: tensor<8xf32> = [4, 6, 4, 6, 4, 6, 4, 6]
// CHECK: input set 1:
// CHECK: output 0: tensor<0xf32> = []
// CHECK-NEXT: output 1: tensor<0xf32> = []
// CHECK: input set 2:
// CHECK: output 0: tensor<70000xf32> = [70001, 70001, 70001,
// CHECK-NEXT: output 1: tensor<140002xf32> = [70001, 70001,
// CHECK: input set 3:
// CHECK: output 0: tensor<3xf32> = [4, 6, 4]
// CHECK: input set 4: run {{.*}}(recording reused)
// CHECK: output 0: tensor<3xf32> = [4, 6, 4]
// CHECK-NEXT: output 1: tensor<8xf32> = [4, 6, 4, 6, 4, 6, 4, 6]
// CHECK: profile: 4 dispatches, {{.*}} (1 more with grids this run left empty, not listed)
// CHECK-NEXT: kernel
// CHECK-NEXT: 0  @count
// CHECK-NEXT: 1  @fill
// CHECK-NEXT: 2  @count2
// CHECK-NEXT: 4  @fill
// NEGATIVE: error: 'gpu.read_count' op read a count of -1 at run time

module {
  gpu.kernel @count(read, write, write) workgroup_size(1, 1, 1) push_constants(i32) glsl("#version 450\0Alayout(local_size_x = 1) in;\0Alayout(set = 0, binding = 0) readonly buffer X { float x[]; };\0Alayout(set = 0, binding = 1) writeonly buffer A { float a[]; };\0Alayout(set = 0, binding = 2) writeonly buffer C { int c[]; };\0Alayout(push_constant) uniform P { int n; } p;\0Avoid main() {\0A  for (int i = 0; i < p.n; ++i) a[i] = x[i] + 1.0;\0A  c[0] = int(x[0]);\0A}\0A")
  gpu.kernel @count2(read, write) workgroup_size(1, 1, 1) glsl("#version 450\0Alayout(local_size_x = 1) in;\0Alayout(set = 0, binding = 0) readonly buffer Y { float y[]; };\0Alayout(set = 0, binding = 1) writeonly buffer C { int c[]; };\0Avoid main() { c[0] = 2 * int(y[0]); }\0A")
  gpu.kernel @fill(read, write) workgroup_size(64, 1, 1) push_constants(i32, i32) glsl("#version 450\0Alayout(local_size_x = 64) in;\0Alayout(set = 0, binding = 0) readonly buffer A { float a[]; };\0Alayout(set = 0, binding = 1) writeonly buffer B { float b[]; };\0Alayout(push_constant) uniform P { int n; int m; } p;\0Avoid main() {\0A  int i = int(gl_GlobalInvocationID.x);\0A  if (i < p.m) b[i] = a[i % p.n];\0A}\0A")
  func.func @main(%arg0: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
    %n = gpu.dim %arg0[0] : tensor<?xf32>
    %x = gpu.alloc(%n) : !gpu.view<?xf32>
    gpu.upload %arg0, %x : tensor<?xf32> to !gpu.view<?xf32>
    %a = gpu.alloc(%n) : !gpu.view<?xf32>
    %c = gpu.alloc() : !gpu.view<1xi32>
    gpu.dispatch @count[1, 1, 1](%x, %a, %c) push(%n) : !gpu.view<?xf32>, !gpu.view<?xf32>, !gpu.view<1xi32>
    %m = gpu.read_count %c : !gpu.view<1xi32>
    %b = gpu.alloc(%m) : !gpu.view<?xf32>
    %g = gpu.constant 64
    %groups = gpu.ceildivi %m, %g
    gpu.dispatch @fill[%groups, 1, 1](%a, %b) push(%n, %m) : !gpu.view<?xf32>, !gpu.view<?xf32>
    %c2 = gpu.alloc() : !gpu.view<1xi32>
    %one = gpu.constant 1
    %some = gpu.mini %m, %one
    gpu.dispatch @count2[%some, 1, 1](%b, %c2) : !gpu.view<?xf32>, !gpu.view<1xi32>
    %zero = gpu.constant 0
    %none = gpu.subi %one, %some
    gpu.dispatch @count2[%none, 1, 1](%x, %c2) : !gpu.view<?xf32>, !gpu.view<1xi32>
    %k = gpu.read_count %c2 : !gpu.view<1xi32>
    %d = gpu.alloc(%k) : !gpu.view<?xf32>
    %groups2 = gpu.ceildivi %k, %g
    gpu.dispatch @fill[%groups2, 1, 1](%a, %d) push(%n, %k) : !gpu.view<?xf32>, !gpu.view<?xf32>
    %r0 = gpu.download %b : !gpu.view<?xf32> to tensor<?xf32>
    %r1 = gpu.download %d : !gpu.view<?xf32> to tensor<?xf32>
    return %r0, %r1 : tensor<?xf32>, tensor<?xf32>
  }
}

// RUN: onyx-opt %s --gpu-compile-kernels -o %t.mlir
// RUN: onyx-run %t.mlir --validate --input=3xf32=1 --input=3xi64=1,2,2 | FileCheck %s --check-prefix=OK
// RUN: not onyx-run %t.mlir --validate --input=3xf32=1 --input=3xi64=0,2,2 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not onyx-run %t.mlir --validate --input=3xf32=1 --input=3xi64=1,2,-5 2>&1 | FileCheck %s --check-prefix=PUSH
// RUN: not onyx-run %t.mlir --validate --input=3xf32=1 --input=3xi64=1,7,7 2>&1 | FileCheck %s --check-prefix=VIEW
// RUN: not onyx-run %t.mlir --validate --input=3xf32=1 --input=3xi64=1,-1,2 2>&1 | FileCheck %s --check-prefix=DIM

// Values known only at run time are checked when the run is recorded, with
// an error at the op: a division by zero, a push constant out of its type's
// range, a view beyond its source, a negative dimension.

// OK: output 0: tensor<2xf32> = [1, 1]
// DIV: error: 'gpu.floordivi' op of 3 and 0 divides by zero
// PUSH: error: 'gpu.dispatch' op push constant #0 is -5 at run time, out of the range of ui32
// VIEW: error: 'gpu.view' op bytes [0, 28) exceed the 12 bytes of its source at run time
// DIM: error: 'gpu.alloc' op has dimension -1 at run time

module {
  gpu.kernel @copy(read, write) workgroup_size(64, 1, 1) push_constants(ui32) glsl("#version 450\0Alayout(local_size_x = 64) in;\0Alayout(set = 0, binding = 0) readonly buffer A { float a[]; };\0Alayout(set = 0, binding = 1) writeonly buffer C { float c[]; };\0Alayout(push_constant) uniform P { uint n; } p;\0Avoid main() {\0A  uint i = gl_GlobalInvocationID.x;\0A  if (i < p.n) c[i] = a[i];\0A}\0A")
  func.func @main(%arg0: tensor<?xf32>, %arg1: tensor<3xi64>) -> tensor<?xf32> {
    %len = gpu.dim %arg0[0] : tensor<?xf32>
    %d = gpu.extract %arg1[0] : tensor<3xi64>
    %n = gpu.extract %arg1[1] : tensor<3xi64>
    %p = gpu.extract %arg1[2] : tensor<3xi64>
    %q = gpu.floordivi %len, %d
    %x = gpu.alloc(%len) : !gpu.view<?xf32>
    gpu.upload %arg0, %x : tensor<?xf32> to !gpu.view<?xf32>
    %w = gpu.view %x[0](%n) : !gpu.view<?xf32> to !gpu.view<?xf32>
    %y = gpu.alloc(%n) : !gpu.view<?xf32>
    gpu.dispatch @copy[1, 1, 1](%w, %y) push(%p) : !gpu.view<?xf32>, !gpu.view<?xf32>
    %r = gpu.download %y : !gpu.view<?xf32> to tensor<?xf32>
    return %r : tensor<?xf32>
  }
}

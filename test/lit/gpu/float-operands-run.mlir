// RUN: onyx-opt %s --gpu-compile-kernels -o %t.mlir
// RUN: onyx-opt %t.mlir | onyx-opt | FileCheck %s --check-prefix=ROUND
// RUN: onyx-run %t.mlir --validate --input-set=3xf32=2.9,0.6,1.5 \
// RUN:   --input-set=3xf32=-2.9,0.6,1.5 --input-set=3xf32=2.9,0.75,1.5 \
// RUN:   | FileCheck %s --check-prefix=OK
// RUN: not onyx-run %t.mlir --input=3xf32=nan,1,1 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: not onyx-run %t.mlir --input=3xf32=1,0,1 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not onyx-run %t.mlir --input=3xf32=1,inf,1 2>&1 | FileCheck %s --check-prefix=INF
// RUN: not onyx-run %t.mlir --input=3xf32=1,1,4e18 2>&1 | FileCheck %s --check-prefix=BIG

// Float elements of an argument in the host program: gpu.extract truncates
// one toward zero (a float OneHot depth), gpu.scale_dim scales a size by
// one and rounds down (a Resize scale given at run time). A run at other
// values is another recording: the values are part of its key.

// ROUND: %[[T:.+]] = gpu.extract %arg0[0] : tensor<3xf32>
// ROUND: gpu.scale_dim %{{.+}}, %arg0[1] : tensor<3xf32>

// trunc(2.9) = 2, floor(10 * 0.6f) = 6 (0.6f is a little above 0.6),
// floor(7 * 1.5) = 10.
// OK: input set 0:
// OK-NEXT: output 0: tensor<3xi32> = [2, 6, 10]
// OK: input set 1:
// OK-NEXT: output 0: tensor<3xi32> = [-2, 6, 10]
// OK: input set 2:
// OK-NEXT: output 0: tensor<3xi32> = [2, 7, 10]
// NAN: error: element 0 (nan) is not a finite 64-bit integer
// ZERO: error: a scale of 0 is not positive and finite
// INF: error: a scale of inf is not positive and finite
// BIG: error: a scale of 4e+18 gives a size that does not fit in 64 bits

module {
  gpu.kernel @put(write) workgroup_size(1, 1, 1) push_constants(i32, i32, i32) glsl("#version 450\0Alayout(local_size_x = 1) in;\0Alayout(set = 0, binding = 0) writeonly buffer C { int c[]; };\0Alayout(push_constant) uniform P { int v0; int v1; int v2; } p;\0Avoid main() {\0A  c[0] = p.v0; c[1] = p.v1; c[2] = p.v2;\0A}\0A")
  func.func @main(%arg0: tensor<3xf32>) -> tensor<3xi32> {
    %t = gpu.extract %arg0[0] : tensor<3xf32>
    %ten = gpu.constant 10
    %s = gpu.scale_dim %ten, %arg0[1] : tensor<3xf32>
    %seven = gpu.constant 7
    %u = gpu.scale_dim %seven, %arg0[2] : tensor<3xf32>
    %y = gpu.alloc() : !gpu.view<3xi32>
    gpu.dispatch @put[1, 1, 1](%y) push(%t, %s, %u) : !gpu.view<3xi32>
    %r = gpu.download %y : !gpu.view<3xi32> to tensor<3xi32>
    return %r : tensor<3xi32>
  }
}

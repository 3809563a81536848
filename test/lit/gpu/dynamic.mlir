// RUN: onyx-opt %s | FileCheck %s
// RUN: onyx-opt %s | onyx-opt | FileCheck %s
// RUN: onyx-opt %s --print-generic | onyx-opt | FileCheck %s
// RUN: onyx-opt %s --print-generic | FileCheck %s --check-prefix=GENERIC

// Dynamic dimensions in the gpu dialect: host ops compute index values from
// the arguments' shapes and values; views, grids and push constants take
// them as operands.

// CHECK-LABEL: func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<2xi64>) -> tensor<?x4xf32>
// CHECK-NEXT: %[[ROWS:.+]] = gpu.dim %arg0[0] : tensor<?x4xf32>
// CHECK-NEXT: %[[K:.+]] = gpu.extract %arg1[1] : tensor<2xi64>
// CHECK-NEXT: %[[C4:.+]] = gpu.constant 4
// CHECK-NEXT: %[[N:.+]] = gpu.muli %[[ROWS]], %[[C4]]
// CHECK-NEXT: %[[G:.+]] = gpu.ceildivi %[[N]], %[[C4]]
// CHECK-NEXT: gpu.addi %[[N]], %[[K]]
// CHECK-NEXT: gpu.subi
// CHECK-NEXT: gpu.floordivi
// CHECK-NEXT: gpu.remi
// CHECK-NEXT: gpu.maxi
// CHECK-NEXT: gpu.mini
// CHECK-NEXT: %[[X:.+]] = gpu.alloc(%[[ROWS]]) : !gpu.view<?x4xf32>
// CHECK-NEXT: %[[H:.+]] = gpu.view %[[X]][%[[N]]](%[[K]]) : !gpu.view<?x4xf32> to !gpu.view<?x2xf32>
// CHECK-NEXT: %[[S:.+]] = gpu.view %[[X]][16] : !gpu.view<?x4xf32> to !gpu.view<4xf32>
// CHECK-NEXT: gpu.upload %arg0, %[[X]] : tensor<?x4xf32> to !gpu.view<?x4xf32>
// CHECK-NEXT: %[[Y:.+]] = gpu.alloc(%[[ROWS]]) : !gpu.view<?x4xf32>
// CHECK-NEXT: gpu.dispatch @k[%[[G]], 1, 1](%[[X]], %[[Y]]) push(%[[N]], 5.000000e-01 : f32) : !gpu.view<?x4xf32>, !gpu.view<?x4xf32>
// CHECK-NEXT: gpu.dispatch @k[1, %[[G]], %[[N]]](%[[H]], %[[Y]]) push(3 : ui32, 1.000000e+00 : f32)
// GENERIC: "gpu.view"(%{{.+}}, %{{.+}}, %{{.+}}) : (!gpu.view<?x4xf32>, index, index) -> !gpu.view<?x2xf32>
// GENERIC: "gpu.dispatch"(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) {kernel = @k, push_constants = [unit, 5.000000e-01 : f32], workgroups = [-9223372036854775808, 1, 1]}
module {
  gpu.kernel @k(read, write) workgroup_size(64, 1, 1) push_constants(ui32, f32) glsl("void main() {}")
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<2xi64>) -> tensor<?x4xf32> {
    %rows = gpu.dim %arg0[0] : tensor<?x4xf32>
    %k = gpu.extract %arg1[1] : tensor<2xi64>
    %c4 = gpu.constant 4
    %n = gpu.muli %rows, %c4
    %g = gpu.ceildivi %n, %c4
    %a = gpu.addi %n, %k
    %b = gpu.subi %a, %k
    %c = gpu.floordivi %b, %c4
    %d = gpu.remi %c, %c4
    %e = gpu.maxi %d, %c4
    %f = gpu.mini %e, %c4
    %x = gpu.alloc(%rows) : !gpu.view<?x4xf32>
    %h = gpu.view %x[%n](%k) : !gpu.view<?x4xf32> to !gpu.view<?x2xf32>
    %s = gpu.view %x[16] : !gpu.view<?x4xf32> to !gpu.view<4xf32>
    gpu.upload %arg0, %x : tensor<?x4xf32> to !gpu.view<?x4xf32>
    %y = gpu.alloc(%rows) : !gpu.view<?x4xf32>
    gpu.dispatch @k[%g, 1, 1](%x, %y) push(%n, 0.5 : f32) : !gpu.view<?x4xf32>, !gpu.view<?x4xf32>
    gpu.dispatch @k[1, %g, %n](%h, %y) push(3 : ui32, 1.0 : f32) : !gpu.view<?x2xf32>, !gpu.view<?x4xf32>
    %r = gpu.download %y : !gpu.view<?x4xf32> to tensor<?x4xf32>
    return %r : tensor<?x4xf32>
  }
}

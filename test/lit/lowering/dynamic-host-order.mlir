// RUN: onyx-opt %s --split-input-file --target=lavapipe --convert-onnx-to-gpu | FileCheck %s

// The host program of a kernel whose sizes are products of run-time dims
// does not depend on the compiler. Each size's text creates the host ops of
// the product it names, and these generators once built several texts in
// one `+` chain or as several arguments of one call, whose order C++ leaves
// unspecified: a GCC build and a clang build printed these host ops in
// different orders. scripts/compare-builds.py runs this file with both
// builds; the lines below pin the order of the GCC builds.

// CHECK-LABEL: func.func @gather_elements
// CHECK: %11 = gpu.muli %1, %2
// CHECK-NEXT: %12 = gpu.muli %4, %5
// CHECK-NEXT: %13 = gpu.muli %12, %6
// CHECK: gpu.dispatch @gather_elements{{(_[0-9]+)?}}[%15, 1, 1](%3, %7, %10) push(%13, %6, %5, %1, %11, %2)
func.func @gather_elements(%x: tensor<?x?x?xf32>, %i: tensor<?x?x?xi64>) -> tensor<?x?x?xf32> {
  %r = "onnx.GatherElements"(%x, %i) {axis = 1 : si64} : (tensor<?x?x?xf32>, tensor<?x?x?xi64>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// -----

// A step known only at run time: the stride's positive and negative parts.
// CHECK-LABEL: func.func @slice_step
// CHECK: %92 = gpu.muli %1, %2
// CHECK-NEXT: %93 = gpu.muli %2, %27
// CHECK-NEXT: %94 = gpu.muli %2, %20
// CHECK: gpu.dispatch @slice{{(_[0-9]+)?}}[%97, 1, 1](%3, %89) push(%91, %2, %88, %95, %92, %94, %93)
func.func @slice_step(%x: tensor<?x?x?xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>, %st: tensor<1xi64>) -> tensor<?x?x?xf32> {
  %a = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %r = "onnx.Slice"(%x, %s, %e, %a, %st) : (tensor<?x?x?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// -----

// CHECK-LABEL: func.func @gather_nd
// CHECK: %8 = gpu.muli %0, %1
// CHECK-NEXT: %9 = gpu.muli %8, %2
// CHECK-NEXT: %10 = gpu.muli %4, %5
// CHECK: gpu.dispatch @gather_nd{{(_[0-9]+)?}}[%15, 1, 1](%3, %6, %7) push(%13, %2, %10, %9, %0, %11, %1)
func.func @gather_nd(%x: tensor<?x?x?xf32>, %i: tensor<?x?x2xi64>) -> tensor<?x?x?xf32> {
  %r = "onnx.GatherND"(%x, %i) : (tensor<?x?x?xf32>, tensor<?x?x2xi64>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// -----

// CHECK-LABEL: func.func @gather
// CHECK: %8 = gpu.muli %2, %4
// CHECK-NEXT: %9 = gpu.muli %8, %5
// CHECK-NEXT: %10 = gpu.muli %4, %5
// CHECK-NEXT: %11 = gpu.muli %0, %2
// CHECK-NEXT: %12 = gpu.muli %11, %4
// CHECK-NEXT: %13 = gpu.muli %12, %5
// CHECK: gpu.dispatch @gather{{(_[0-9]+)?}}[%15, 1, 1](%3, %6, %7) push(%13, %2, %10, %9, %1)
func.func @gather(%x: tensor<?x?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?x?x?xf32> {
  %r = "onnx.Gather"(%x, %i) {axis = 1 : si64} : (tensor<?x?x?xf32>, tensor<?x?xi64>) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// -----

// The axis's stride in the indices before the other strides.
// CHECK-LABEL: func.func @scatter_elements
// CHECK: gpu.dispatch @copy
// CHECK-NEXT: %28 = gpu.muli %7, %8
// CHECK-NEXT: %29 = gpu.muli %6, %7
// CHECK-NEXT: %30 = gpu.muli %29, %8
// CHECK: gpu.dispatch @scatter_elements{{(_[0-9]+)?}}[%37, 1, 1](%22, %9, %14) push(%35, %8, %7, %6, %30, %28, %1, %32, %33, %3)
func.func @scatter_elements(%x: tensor<?x?x?x?xf32>, %i: tensor<?x?x?x?xi64>, %u: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = "onnx.ScatterElements"(%x, %i, %u) {axis = 1 : si64} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xi64>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

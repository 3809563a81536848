// onnx.Constant prints in onnx-mlir's custom form and reads both forms;
// onnx.NoValue and onnx.Return are accepted as onnx-mlir writes them. The
// generic form goes through mlir-opt unchanged.
// RUN: onyx-opt %s | FileCheck %s
// RUN: onyx-opt %s | onyx-opt | FileCheck %s
// RUN: onyx-opt %s --print-generic | FileCheck %s --check-prefix=GENERIC
// RUN: onyx-opt %s --print-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | onyx-opt | FileCheck %s
// RUN: onyx-opt %s --print-elementsattrs-with-hex-if-larger=2 | FileCheck %s --check-prefix=HEX
// RUN: onyx-opt %s --print-elementsattrs-with-hex-if-larger=2 | onyx-opt | FileCheck %s

// CHECK-LABEL: func.func @constants
// CHECK-NEXT: %[[A:.+]] = onnx.Constant dense<[1.000000e+00, 2.500000e+00, -3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[B:.+]] = onnx.Constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi64>
// CHECK-NEXT: %[[C:.+]] = onnx.Constant dense<true> : tensor<i1>
// CHECK-NEXT: %[[D:.+]] = onnx.Constant dense<7> : tensor<4xui8>
// CHECK-NEXT: %[[N:.+]] = "onnx.NoValue"() {value} : () -> none
// CHECK-NEXT: onnx.Return %[[A]], %[[B]], %[[C]], %[[D]], %[[N]] : tensor<3xf32>, tensor<2x2xi64>, tensor<i1>, tensor<4xui8>, none

// GENERIC: %0 = "onnx.Constant"() {value = dense<[1.000000e+00, 2.500000e+00, -3.000000e+00]> : tensor<3xf32>} : () -> tensor<3xf32>
// GENERIC: "onnx.Return"(%0, %1, %2, %3, %4)

// HEX: onnx.Constant dense<"0x0000803F00002040000040C0"> : tensor<3xf32>
// HEX: onnx.Constant dense<7> : tensor<4xui8>
func.func @constants() -> (tensor<3xf32>, tensor<2x2xi64>, tensor<i1>, tensor<4xui8>, none) {
  %a = onnx.Constant dense<[1.0, 2.5, -3.0]> : tensor<3xf32>
  %b = "onnx.Constant"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %c = onnx.Constant dense<true> : tensor<i1>
  %d = onnx.Constant dense<7> : tensor<4xui8>
  %n = "onnx.NoValue"() {value} : () -> none
  onnx.Return %a, %b, %c, %d, %n : tensor<3xf32>, tensor<2x2xi64>, tensor<i1>, tensor<4xui8>, none
}

// IsNaN and IsInf: elementwise tests of float elements with a bool result.
// Every opset that defines them imports to the same op (later versions only
// added element types), constants fold, and the Vulkan kernel agrees with
// the reference backend on NaN, both infinities and finite values.

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/opset9.textproto -o %t/opset9.onnx
// RUN: onyx-opt %t/opset9.onnx | FileCheck %s --check-prefix=OPSET9
// RUN: onnx-txt2pb %t/opset20.textproto -o %t/opset20.onnx
// RUN: onyx-opt %t/opset20.onnx | FileCheck %s --check-prefix=OPSET20
// RUN: onyx-opt %t/fold.mlir --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-opt %t/run.mlir --target=lavapipe --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=GLSL
// RUN: onyx-run %t/run.mlir --validate --check \
// RUN:   --input=6xf32=nan,inf,-inf,0,-1.5,3.4e38 \
// RUN:   --input=4xf16=nan,inf,-inf,65504 --input=4xf64=nan,inf,-inf,-0 \
// RUN:   --input=3xbf16=nan,-inf,1 | FileCheck %s --check-prefix=VK
// RUN: onyx-run %t/run.mlir --backend=ref \
// RUN:   --input=6xf32=nan,inf,-inf,0,-1.5,3.4e38 \
// RUN:   --input=4xf16=nan,inf,-inf,65504 --input=4xf64=nan,inf,-inf,-0 \
// RUN:   --input=3xbf16=nan,-inf,1 | FileCheck %s --check-prefix=REF

//--- opset9.textproto
# IsNaN 9 and IsInf 10 (here imported at opset 10).
# OPSET9-LABEL: func.func @main
# OPSET9-NEXT: "onnx.IsNaN"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xi1>
# OPSET9-NEXT: "onnx.IsInf"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xi1>
# OPSET9-NEXT: "onnx.IsInf"(%arg0) {detect_negative = 0 : si64} : (tensor<2x3xf32>) -> tensor<2x3xi1>
ir_version: 5
opset_import { domain: "" version: 10 }
graph {
  name: "opset9"
  node { op_type: "IsNaN" input: "x" output: "nan" }
  node { op_type: "IsInf" input: "x" output: "inf" }
  node { op_type: "IsInf" input: "x" output: "posinf"
         attribute { name: "detect_negative" type: INT i: 0 } }
  input { name: "x" type { tensor_type { elem_type: 1
    shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  output { name: "nan" type { tensor_type { elem_type: 9
    shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  output { name: "inf" type { tensor_type { elem_type: 9
    shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  output { name: "posinf" type { tensor_type { elem_type: 9
    shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
}

//--- opset20.textproto
# IsNaN 13 and 20, IsInf 20 (here imported at opset 20): bf16, f16 and f64.
# OPSET20-LABEL: func.func @main
# OPSET20-NEXT: "onnx.IsNaN"(%arg0) : (tensor<4xbf16>) -> tensor<4xi1>
# OPSET20-NEXT: "onnx.IsNaN"(%arg1) : (tensor<4xf16>) -> tensor<4xi1>
# OPSET20-NEXT: "onnx.IsInf"(%arg2) {detect_positive = 0 : si64} : (tensor<4xf64>) -> tensor<4xi1>
ir_version: 9
opset_import { domain: "" version: 20 }
graph {
  name: "opset20"
  node { op_type: "IsNaN" input: "b" output: "nb" }
  node { op_type: "IsNaN" input: "h" output: "nh" }
  node { op_type: "IsInf" input: "d" output: "negd"
         attribute { name: "detect_positive" type: INT i: 0 } }
  input { name: "b" type { tensor_type { elem_type: 16 shape { dim { dim_value: 4 } } } } }
  input { name: "h" type { tensor_type { elem_type: 10 shape { dim { dim_value: 4 } } } } }
  input { name: "d" type { tensor_type { elem_type: 11 shape { dim { dim_value: 4 } } } } }
  output { name: "nb" type { tensor_type { elem_type: 9 shape { dim { dim_value: 4 } } } } }
  output { name: "nh" type { tensor_type { elem_type: 9 shape { dim { dim_value: 4 } } } } }
  output { name: "negd" type { tensor_type { elem_type: 9 shape { dim { dim_value: 4 } } } } }
}

//--- fold.mlir
// FOLD-LABEL: func.func @fold
// FOLD-NEXT: onnx.Constant dense<[true, false, false, false]> : tensor<4xi1>
// FOLD-NEXT: onnx.Constant dense<[false, true, true, false]> : tensor<4xi1>
// FOLD-NEXT: onnx.Constant dense<[false, false, true, false]> : tensor<4xi1>
// FOLD-NEXT: onnx.Constant dense<[false, true, false, false]> : tensor<4xi1>
// FOLD-NEXT: onnx.Constant dense<false> : tensor<4xi1>
// FOLD-NEXT: onnx.Constant dense<[true, false]> : tensor<2xi1>
// FOLD-NEXT: return
func.func @fold() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2xi1>) {
  %x = onnx.Constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, 1.0]> : tensor<4xf32>
  %0 = "onnx.IsNaN"(%x) : (tensor<4xf32>) -> tensor<4xi1>
  %1 = "onnx.IsInf"(%x) : (tensor<4xf32>) -> tensor<4xi1>
  %2 = "onnx.IsInf"(%x) {detect_positive = 0 : si64} : (tensor<4xf32>) -> tensor<4xi1>
  %3 = "onnx.IsInf"(%x) {detect_negative = 0 : si64} : (tensor<4xf32>) -> tensor<4xi1>
  %4 = "onnx.IsInf"(%x) {detect_negative = 0 : si64, detect_positive = 0 : si64} : (tensor<4xf32>) -> tensor<4xi1>
  %h = onnx.Constant dense<[0x7E00, 0x7C00]> : tensor<2xf16>
  %5 = "onnx.IsNaN"(%h) : (tensor<2xf16>) -> tensor<2xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2xi1>
}

//--- invalid.mlir
func.func @int(%x: tensor<3xi32>) -> tensor<3xi1> {
  // expected-error @+1 {{operand 'X' must have a float element type, got i32}}
  %0 = "onnx.IsNaN"(%x) : (tensor<3xi32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @result(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{result #0 has type tensor<3xf32>, but the operands give tensor<3xi1>}}
  %0 = "onnx.IsInf"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

//--- run.mlir
// GLSL: gpu.kernel @isnan
// GLSL-SAME: bool v0 = bool(((x0) != (x0)));
// GLSL: gpu.kernel @isinf(
// GLSL-SAME: bool v0 = bool((isinf((x0)) && ((x0) > 0 ? 1 != 0 : 1 != 0)));
// GLSL: gpu.kernel @isinf_1(
// GLSL-SAME: bool v0 = bool((isinf((x0)) && ((x0) > 0 ? 1 != 0 : 0 != 0)));
// VK:      output 0: tensor<6xi1> = [true, false, false, false, false, false]
// VK-NEXT: output 1: tensor<6xi1> = [false, true, true, false, false, false]
// VK-NEXT: output 2: tensor<6xi1> = [false, true, false, false, false, false]
// VK-NEXT: output 3: tensor<4xi1> = [true, false, false, false]
// VK-NEXT: output 4: tensor<4xi1> = [false, true, true, false]
// VK-NEXT: output 5: tensor<4xi1> = [false, false, true, false]
// VK-NEXT: output 6: tensor<3xi1> = [true, false, false]
// VK-NEXT: output 7: tensor<3xi1> = [false, true, false]
// VK-COUNT-8: vs ref: max abs error 0, max rel error 0: PASS
// REF:      output 0: tensor<6xi1> = [true, false, false, false, false, false]
// REF-NEXT: output 1: tensor<6xi1> = [false, true, true, false, false, false]
// REF-NEXT: output 2: tensor<6xi1> = [false, true, false, false, false, false]
func.func @main(%x: tensor<6xf32>, %h: tensor<4xf16>, %d: tensor<4xf64>, %b: tensor<3xbf16>) -> (tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<3xi1>, tensor<3xi1>) {
  %0 = "onnx.IsNaN"(%x) : (tensor<6xf32>) -> tensor<6xi1>
  %1 = "onnx.IsInf"(%x) : (tensor<6xf32>) -> tensor<6xi1>
  %2 = "onnx.IsInf"(%x) {detect_negative = 0 : si64} : (tensor<6xf32>) -> tensor<6xi1>
  %3 = "onnx.IsNaN"(%h) : (tensor<4xf16>) -> tensor<4xi1>
  %4 = "onnx.IsInf"(%h) : (tensor<4xf16>) -> tensor<4xi1>
  %5 = "onnx.IsInf"(%d) {detect_positive = 0 : si64} : (tensor<4xf64>) -> tensor<4xi1>
  %6 = "onnx.IsNaN"(%b) : (tensor<3xbf16>) -> tensor<3xi1>
  %7 = "onnx.IsInf"(%b) : (tensor<3xbf16>) -> tensor<3xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<6xi1>, tensor<6xi1>, tensor<6xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<3xi1>, tensor<3xi1>
}

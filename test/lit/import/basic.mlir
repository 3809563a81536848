// The shape of an import: graph inputs become the arguments of @main (named
// by `onnx.name`), initializers and Constant nodes onnx.Constant ops, nodes
// onnx ops with their names as locations, graph outputs the results.

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/mlp.textproto -o %t/mlp.onnx
// RUN: onyx-opt %t/mlp.onnx --print-debuginfo | FileCheck %s --check-prefix=MLP
// RUN: onyx-opt --import-onnx < %t/mlp.onnx | FileCheck %s --check-prefix=STDIN
// RUN: onnx-txt2pb %t/ir3.textproto -o %t/ir3.onnx
// RUN: onyx-opt %t/ir3.onnx | FileCheck %s --check-prefix=IR3
// RUN: onnx-txt2pb %t/optional.textproto -o %t/optional.onnx
// RUN: onyx-opt %t/optional.onnx --print-debuginfo | FileCheck %s --check-prefix=OPTIONAL
// RUN: onnx-txt2pb %t/constants.textproto -o %t/constants.onnx
// RUN: onyx-opt %t/constants.onnx | FileCheck %s --check-prefix=CONSTANTS

// MLP-LABEL: func.func @main
// MLP-SAME: (%arg0: tensor<2x4xf32> {onnx.name = "x"} loc("x"))
// MLP-SAME: -> (tensor<2x3xf32> {onnx.name = "y"})
// MLP-NEXT: [[W:%.+]] = onnx.Constant dense<{{.*}}> : tensor<4x3xf32> loc("w")
// MLP-NEXT: [[B:%.+]] = onnx.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32> loc("b")
// MLP-NEXT: [[G:%.+]] = "onnx.Gemm"(%arg0, [[W]], [[B]]) : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32> loc("fc")
// A node without a name is named after its first output.
// MLP-NEXT: [[R:%.+]] = "onnx.Relu"([[G]]) : (tensor<2x3xf32>) -> tensor<2x3xf32> loc("y")
// MLP-NEXT: return [[R]] : tensor<2x3xf32>

// STDIN: "onnx.Gemm"
// STDIN: "onnx.Relu"

//--- mlp.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "mlp"
  node { name: "fc" op_type: "Gemm" input: "x" input: "w" input: "b" output: "h" }
  node { op_type: "Relu" input: "h" output: "y" }
  initializer { name: "w" data_type: 1 dims: 4 dims: 3
                float_data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }
  initializer { name: "b" data_type: 1 dims: 3 float_data: [1, 2, 3] }
  input { name: "x" type { tensor_type { elem_type: 1
    shape { dim { dim_value: 2 } dim { dim_value: 4 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1
    shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
}

//--- ir3.textproto
# IR version 3 lists initializers among the inputs: they are constants, not
# arguments.
# IR3-LABEL: func.func @main(%arg0: tensor<3xf32> {onnx.name = "x"}) -> (tensor<3xf32> {onnx.name = "y"})
# IR3-NEXT: [[W:%.+]] = onnx.Constant dense<[2.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<3xf32>
# IR3-NEXT: "onnx.Mul"(%arg0, [[W]])
ir_version: 3
opset_import { domain: "" version: 8 }
graph {
  name: "ir3"
  node { op_type: "Mul" input: "x" input: "w" output: "y" }
  initializer { name: "w" data_type: 1 dims: 3 float_data: [2, 2, 2] }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } } } } }
  input { name: "w" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } } } } }
}

//--- optional.textproto
# An absent optional input (an empty name) is onnx.NoValue, one per
# function; a trailing one is left out.
# OPTIONAL-LABEL: func.func @main
# OPTIONAL: [[NONE:%.+]] = "onnx.NoValue"() {value} : () -> none
# OPTIONAL: [[MAX:%.+]] = onnx.Constant dense<6.000000e+00> : tensor<f32> loc("max")
# OPTIONAL: "onnx.Clip"(%arg0, [[NONE]], [[MAX]]) : (tensor<4xf32>, none, tensor<f32>) -> tensor<4xf32> loc("clip_max")
# OPTIONAL: [[MIN:%.+]] = onnx.Constant dense<0.000000e+00> : tensor<f32> loc("min")
# OPTIONAL: "onnx.Clip"(%arg0, [[MIN]]) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> loc("clip_min")
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "optional"
  node { name: "clip_max" op_type: "Clip" input: "x" input: "" input: "max" output: "a" }
  node { name: "clip_min" op_type: "Clip" input: "x" input: "min" input: "" output: "b" }
  initializer { name: "max" data_type: 1 float_data: 6 }
  initializer { name: "min" data_type: 1 float_data: 0 }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
  output { name: "a" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
  output { name: "b" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
}

//--- constants.textproto
# Constant nodes in each of their forms; unused ones are dropped, and a
# graph output may be a constant.
# CONSTANTS-LABEL: func.func @main() -> (tensor<2xf32> {onnx.name = "t"}, tensor<f32> {onnx.name = "f"}, tensor<3xf32> {onnx.name = "fs"}, tensor<i64> {onnx.name = "i"}, tensor<2xi64> {onnx.name = "is"})
# CONSTANTS-DAG: onnx.Constant dense<[1.500000e+00, 2.500000e+00]> : tensor<2xf32>
# CONSTANTS-DAG: onnx.Constant dense<2.500000e-01> : tensor<f32>
# CONSTANTS-DAG: onnx.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
# CONSTANTS-DAG: onnx.Constant dense<7> : tensor<i64>
# CONSTANTS-DAG: onnx.Constant dense<[4, 5]> : tensor<2xi64>
# CONSTANTS-NOT: dense<99>
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "constants"
  node { op_type: "Constant" output: "t" attribute { name: "value" type: TENSOR
         t { data_type: 1 dims: 2 float_data: [1.5, 2.5] } } }
  node { op_type: "Constant" output: "f" attribute { name: "value_float" type: FLOAT f: 0.25 } }
  node { op_type: "Constant" output: "fs" attribute { name: "value_floats" type: FLOATS floats: [1, 2, 3] } }
  node { op_type: "Constant" output: "i" attribute { name: "value_int" type: INT i: 7 } }
  node { op_type: "Constant" output: "is" attribute { name: "value_ints" type: INTS ints: [4, 5] } }
  node { op_type: "Constant" output: "unused" attribute { name: "value_int" type: INT i: 99 } }
  output { name: "t" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "f" type { tensor_type { elem_type: 1 shape { } } } }
  output { name: "fs" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } } } } }
  output { name: "i" type { tensor_type { elem_type: 7 shape { } } } }
  output { name: "is" type { tensor_type { elem_type: 7 shape { dim { dim_value: 2 } } } } }
}

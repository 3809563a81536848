// Older opsets are mapped onto the dialect's ops, which have the semantics
// of the newest ONNX versions: attributes that became inputs turn into
// constant operands, changed semantics are rebuilt, and attributes that do
// not affect inference are dropped. One model per opset version.

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/opset1.textproto -o %t/opset1.onnx
// RUN: onyx-opt %t/opset1.onnx | FileCheck %s --check-prefix=OPSET1
// RUN: onnx-txt2pb %t/opset6.textproto -o %t/opset6.onnx
// RUN: onyx-opt %t/opset6.onnx | FileCheck %s --check-prefix=OPSET6
// RUN: onnx-txt2pb %t/opset9.textproto -o %t/opset9.onnx
// RUN: onyx-opt %t/opset9.onnx | FileCheck %s --check-prefix=OPSET9
// RUN: onnx-txt2pb %t/opset11.textproto -o %t/opset11.onnx
// RUN: onyx-opt %t/opset11.onnx | FileCheck %s --check-prefix=OPSET11
// RUN: onnx-txt2pb %t/opset13.textproto -o %t/opset13.onnx
// RUN: onyx-opt %t/opset13.onnx | FileCheck %s --check-prefix=OPSET13
// RUN: onnx-txt2pb %t/opset18.textproto -o %t/opset18.onnx
// RUN: onyx-opt %t/opset18.onnx | FileCheck %s --check-prefix=OPSET18
// RUN: onnx-txt2pb %t/tile5.textproto -o %t/tile5.onnx
// RUN: not onyx-opt %t/tile5.onnx 2>&1 | FileCheck %s --check-prefix=TILE5
// RUN: onnx-txt2pb %t/resize10-no-scales.textproto -o %t/resize10-no-scales.onnx
// RUN: not onyx-opt %t/resize10-no-scales.onnx 2>&1 | FileCheck %s --check-prefix=RESIZE10-NO-SCALES
// RUN: onnx-txt2pb %t/softmax-dynamic.textproto -o %t/softmax-dynamic.onnx
// RUN: not onyx-opt %t/softmax-dynamic.onnx 2>&1 | FileCheck %s --check-prefix=SOFTMAX-DYNAMIC

//--- opset1.textproto
# Opset 1: `consumed_inputs` (an in-place hint) is dropped everywhere,
# Reshape's shape is an attribute, Concat's axis defaults to 1, Cast names
# its type, Pad calls its pads `paddings`.
# OPSET1-LABEL: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"})
# OPSET1-NEXT: [[RELU:%.+]] = "onnx.Relu"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
# OPSET1-NEXT: [[SHAPE:%.+]] = onnx.Constant dense<[3, 2]> : tensor<2xi64>
# OPSET1-NEXT: [[RESHAPE:%.+]] = "onnx.Reshape"([[RELU]], [[SHAPE]]) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
# OPSET1-NEXT: [[CONCAT:%.+]] = "onnx.Concat"(%arg0, %arg0) {axis = 1 : si64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
# OPSET1-NEXT: [[CAST:%.+]] = "onnx.Cast"([[CONCAT]]) {to = f64} : (tensor<2x6xf32>) -> tensor<2x6xf64>
# OPSET1-NEXT: [[PADS:%.+]] = onnx.Constant dense<[0, 1, 0, 1]> : tensor<4xi64>
# OPSET1-NEXT: "onnx.Pad"(%arg0, [[PADS]]) : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<2x5xf32>
ir_version: 3
opset_import { domain: "" version: 1 }
graph {
  name: "opset1"
  node { op_type: "Relu" input: "x" output: "relu"
         attribute { name: "consumed_inputs" type: INTS ints: [0] } }
  node { op_type: "Reshape" input: "relu" output: "reshape"
         attribute { name: "shape" type: INTS ints: [3, 2] } }
  node { op_type: "Concat" input: "x" input: "x" output: "concat" }
  node { op_type: "Cast" input: "concat" output: "cast"
         attribute { name: "to" type: STRING s: "DOUBLE" } }
  node { op_type: "Pad" input: "x" output: "pad"
         attribute { name: "paddings" type: INTS ints: [0, 1, 0, 1] } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  output { name: "reshape" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } dim { dim_value: 2 } } } } }
  output { name: "cast" type { tensor_type { elem_type: 11 shape { dim { dim_value: 2 } dim { dim_value: 6 } } } } }
  output { name: "pad" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 5 } } } } }
}

//--- opset6.textproto
# Opset 6: binary ops broadcast B at `axis` (trailing unit dimensions make
# numpy do the same), PRelu's slope is per channel, BatchNormalization and
# Dropout carry inference-only flags, Gemm a broadcast flag, Clip's bounds
# and Pad's constant are attributes, Softmax flattens around `axis`.
# OPSET6-LABEL: func.func @main(%arg0: tensor<2x3x4xf32> {onnx.name = "x"}, %arg1: tensor<3xf32> {onnx.name = "c"}, %arg2: tensor<2x3xf32> {onnx.name = "m"})
# OPSET6-NEXT: [[AXES:%.+]] = onnx.Constant dense<1> : tensor<1xi64>
# OPSET6-NEXT: [[C1:%.+]] = "onnx.Unsqueeze"(%arg1, [[AXES]]) : (tensor<3xf32>, tensor<1xi64>) -> tensor<3x1xf32>
# OPSET6-NEXT: [[ADD:%.+]] = "onnx.Add"(%arg0, [[C1]]) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
# OPSET6-NEXT: [[AXES2:%.+]] = onnx.Constant dense<1> : tensor<1xi64>
# OPSET6-NEXT: [[SLOPE:%.+]] = "onnx.Unsqueeze"(%arg1, [[AXES2]]) : (tensor<3xf32>, tensor<1xi64>) -> tensor<3x1xf32>
# OPSET6-NEXT: [[PRELU:%.+]] = "onnx.PRelu"([[ADD]], [[SLOPE]]) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
# OPSET6-NEXT: [[BN:%.+]] = "onnx.BatchNormalization"([[PRELU]], %arg1, %arg1, %arg1, %arg1) {epsilon = 1.000000e-03 : f32} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
# OPSET6-NEXT: [[DROP:%.+]] = "onnx.Dropout"([[BN]]) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
# OPSET6-NEXT: [[GEMM:%.+]] = "onnx.Gemm"(%arg2, %arg2, %arg1) {transA = 1 : si64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
# OPSET6-NEXT: [[MIN:%.+]] = onnx.Constant dense<-1.000000e+00> : tensor<f32>
# OPSET6-NEXT: [[MAX:%.+]] = onnx.Constant dense<1.000000e+00> : tensor<f32>
# OPSET6-NEXT: [[CLIP:%.+]] = "onnx.Clip"([[DROP]], [[MIN]], [[MAX]]) : (tensor<2x3x4xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3x4xf32>
# OPSET6-NEXT: [[PADS:%.+]] = onnx.Constant dense<[0, 0, 1, 0, 0, 1]> : tensor<6xi64>
# OPSET6-NEXT: [[VALUE:%.+]] = onnx.Constant dense<1.500000e+00> : tensor<f32>
# OPSET6-NEXT: [[PAD:%.+]] = "onnx.Pad"([[CLIP]], [[PADS]], [[VALUE]]) : (tensor<2x3x4xf32>, tensor<6xi64>, tensor<f32>) -> tensor<2x3x6xf32>
# Softmax over dimensions 1 and 2 of a 3-D input, the default of opset 6.
# OPSET6-NEXT: [[FLAT:%.+]] = "onnx.Flatten"([[PAD]]) : (tensor<2x3x6xf32>) -> tensor<2x18xf32>
# OPSET6-NEXT: [[SOFTMAX:%.+]] = "onnx.Softmax"([[FLAT]]) : (tensor<2x18xf32>) -> tensor<2x18xf32>
# OPSET6-NEXT: [[SHAPE:%.+]] = onnx.Constant dense<[2, 3, 6]> : tensor<3xi64>
# OPSET6-NEXT: [[SM:%.+]] = "onnx.Reshape"([[SOFTMAX]], [[SHAPE]]) : (tensor<2x18xf32>, tensor<3xi64>) -> tensor<2x3x6xf32>
# Along the last axis, the old and the new Softmax agree.
# OPSET6-NEXT: "onnx.LogSoftmax"([[SM]]) : (tensor<2x3x6xf32>) -> tensor<2x3x6xf32>
ir_version: 3
opset_import { domain: "" version: 6 }
graph {
  name: "opset6"
  node { op_type: "Add" input: "x" input: "c" output: "add"
         attribute { name: "broadcast" type: INT i: 1 }
         attribute { name: "axis" type: INT i: 1 } }
  node { op_type: "PRelu" input: "add" input: "c" output: "prelu" }
  node { op_type: "BatchNormalization" input: "prelu" input: "c" input: "c" input: "c" input: "c" output: "bn"
         attribute { name: "is_test" type: INT i: 1 }
         attribute { name: "spatial" type: INT i: 1 }
         attribute { name: "epsilon" type: FLOAT f: 0.001 } }
  node { op_type: "Dropout" input: "bn" output: "drop"
         attribute { name: "is_test" type: INT i: 1 }
         attribute { name: "ratio" type: FLOAT f: 0.25 } }
  node { op_type: "Gemm" input: "m" input: "m" input: "c" output: "gemm"
         attribute { name: "broadcast" type: INT i: 1 }
         attribute { name: "transA" type: INT i: 1 } }
  node { op_type: "Clip" input: "drop" output: "clip"
         attribute { name: "min" type: FLOAT f: -1 }
         attribute { name: "max" type: FLOAT f: 1 } }
  node { op_type: "Pad" input: "clip" output: "pad"
         attribute { name: "pads" type: INTS ints: [0, 0, 1, 0, 0, 1] }
         attribute { name: "value" type: FLOAT f: 1.5 } }
  node { op_type: "Softmax" input: "pad" output: "softmax" }
  node { op_type: "LogSoftmax" input: "softmax" output: "logsoftmax"
         attribute { name: "axis" type: INT i: 2 } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 4 } } } } }
  input { name: "c" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } } } } }
  input { name: "m" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  output { name: "logsoftmax" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 6 } } } } }
  output { name: "gemm" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } dim { dim_value: 3 } } } } }
}

//--- opset9.textproto
# Opset 9: Slice's starts, ends and axes are attributes.
# OPSET9-LABEL: func.func @main
# OPSET9-NEXT: [[STARTS:%.+]] = onnx.Constant dense<[1, 0]> : tensor<2xi64>
# OPSET9-NEXT: [[ENDS:%.+]] = onnx.Constant dense<[3, -1]> : tensor<2xi64>
# OPSET9-NEXT: [[AXES:%.+]] = onnx.Constant dense<[0, 1]> : tensor<2xi64>
# OPSET9-NEXT: "onnx.Slice"(%arg0, [[STARTS]], [[ENDS]], [[AXES]]) : (tensor<4x5xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x4xf32>
ir_version: 4
opset_import { domain: "" version: 9 }
graph {
  name: "opset9"
  node { op_type: "Slice" input: "x" output: "y"
         attribute { name: "starts" type: INTS ints: [1, 0] }
         attribute { name: "ends" type: INTS ints: [3, -1] }
         attribute { name: "axes" type: INTS ints: [0, 1] } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } dim { dim_value: 5 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 4 } } } } }
}

//--- opset11.textproto
# Opset 11: axes of the reductions and of Squeeze/Unsqueeze, and Split's
# sizes, are attributes.
# OPSET11-LABEL: func.func @main
# OPSET11-NEXT: [[A1:%.+]] = onnx.Constant dense<1> : tensor<1xi64>
# OPSET11-NEXT: [[SUM:%.+]] = "onnx.ReduceSum"(%arg0, [[A1]]) {keepdims = 0 : si64} : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>
# OPSET11-NEXT: [[A2:%.+]] = onnx.Constant dense<-1> : tensor<1xi64>
# OPSET11-NEXT: [[MEAN:%.+]] = "onnx.ReduceMean"([[SUM]], [[A2]]) : (tensor<2x4xf32>, tensor<1xi64>) -> tensor<2x1xf32>
# OPSET11-NEXT: [[A3:%.+]] = onnx.Constant dense<1> : tensor<1xi64>
# OPSET11-NEXT: [[SQ:%.+]] = "onnx.Squeeze"([[MEAN]], [[A3]]) : (tensor<2x1xf32>, tensor<1xi64>) -> tensor<2xf32>
# OPSET11-NEXT: [[A4:%.+]] = onnx.Constant dense<[0, 2]> : tensor<2xi64>
# OPSET11-NEXT: [[UNSQ:%.+]] = "onnx.Unsqueeze"([[SQ]], [[A4]]) : (tensor<2xf32>, tensor<2xi64>) -> tensor<1x2x1xf32>
# OPSET11-NEXT: [[MAX:%.+]] = "onnx.ReduceMax"([[UNSQ]]) : (tensor<1x2x1xf32>) -> tensor<1x1x1xf32>
# OPSET11-NEXT: [[SIZES:%.+]] = onnx.Constant dense<[1, 2]> : tensor<2xi64>
# OPSET11-NEXT: "onnx.Split"(%arg0, [[SIZES]]) {axis = 1 : si64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> (tensor<2x1x4xf32>, tensor<2x2x4xf32>)
ir_version: 6
opset_import { domain: "" version: 11 }
graph {
  name: "opset11"
  node { op_type: "ReduceSum" input: "x" output: "sum"
         attribute { name: "axes" type: INTS ints: [1] }
         attribute { name: "keepdims" type: INT i: 0 } }
  node { op_type: "ReduceMean" input: "sum" output: "mean"
         attribute { name: "axes" type: INTS ints: [-1] } }
  node { op_type: "Squeeze" input: "mean" output: "squeeze"
         attribute { name: "axes" type: INTS ints: [1] } }
  node { op_type: "Unsqueeze" input: "squeeze" output: "unsqueeze"
         attribute { name: "axes" type: INTS ints: [0, 2] } }
  node { op_type: "ReduceMax" input: "unsqueeze" output: "max" }
  node { op_type: "Split" input: "x" output: "s0" output: "s1"
         attribute { name: "axis" type: INT i: 1 }
         attribute { name: "split" type: INTS ints: [1, 2] } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 4 } } } } }
  output { name: "max" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 1 } dim { dim_value: 1 } } } } }
  output { name: "s1" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 2 } dim { dim_value: 4 } } } } }
}

//--- opset13.textproto
# Opset 13: a Split without sizes makes as many equal parts as it has
# outputs, which opset 18 says with `num_outputs`; ReduceMean's axes are
# still an attribute.
# OPSET13-LABEL: func.func @main
# OPSET13-NEXT: "onnx.Split"(%arg0) {num_outputs = 2 : si64} : (tensor<4x6xf32>) -> (tensor<2x6xf32>, tensor<2x6xf32>)
# OPSET13-NEXT: [[AXES:%.+]] = onnx.Constant dense<0> : tensor<1xi64>
# OPSET13-NEXT: "onnx.ReduceMean"(%arg0, [[AXES]])
ir_version: 7
opset_import { domain: "" version: 13 }
graph {
  name: "opset13"
  node { op_type: "Split" input: "x" output: "a" output: "b" }
  node { op_type: "ReduceMean" input: "x" output: "mean"
         attribute { name: "axes" type: INTS ints: [0] } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } dim { dim_value: 6 } } } } }
  output { name: "a" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 6 } } } } }
  output { name: "b" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 6 } } } } }
  output { name: "mean" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 6 } } } } }
}

//--- opset18.textproto
# Opset 18 is the canonical form: nothing to map.
# OPSET18-LABEL: func.func @main
# OPSET18-NEXT: "onnx.Split"(%arg0) {num_outputs = 2 : si64}
# OPSET18-NEXT: [[AXES:%.+]] = onnx.Constant dense<0> : tensor<1xi64>
# OPSET18-NEXT: "onnx.ReduceMean"(%arg0, [[AXES]])
ir_version: 8
opset_import { domain: "" version: 18 }
graph {
  name: "opset18"
  node { op_type: "Split" input: "x" output: "a" output: "b"
         attribute { name: "num_outputs" type: INT i: 2 } }
  node { op_type: "ReduceMean" input: "x" input: "axes" output: "mean" }
  initializer { name: "axes" data_type: 7 dims: 1 int64_data: 0 }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } dim { dim_value: 6 } } } } }
  output { name: "a" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 6 } } } } }
  output { name: "b" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 6 } } } } }
  output { name: "mean" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 6 } } } } }
}

//--- tile5.textproto
# TILE5: tile5.onnx: error: node 'y' (Tile): Tile before opset 6 (tiles and axis as inputs) is not supported
ir_version: 3
opset_import { domain: "" version: 5 }
graph {
  name: "tile5"
  node { op_type: "Tile" input: "x" input: "tiles" input: "axis" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
  input { name: "tiles" type { tensor_type { elem_type: 7 shape { dim { dim_value: 1 } } } } }
  input { name: "axis" type { tensor_type { elem_type: 7 shape { dim { dim_value: 1 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 8 } } } } }
}

//--- resize10-no-scales.textproto
# A Resize with one operand in an opset before Resize existed (the ONNX
# checker finds no schema to hold it to): the mapping to opset 11 moves the
# missing scales to the third operand, which stays absent.
# RESIZE10-NO-SCALES: resize10-no-scales.onnx: error: node 'y' (Resize): 'onnx.Resize' op needs 'scales' or 'sizes'
ir_version: 3
opset_import { domain: "" version: 3 }
graph {
  name: "resize10-no-scales"
  node { op_type: "Resize" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 8 } } } } }
}

//--- softmax-dynamic.textproto
# SOFTMAX-DYNAMIC: softmax-dynamic.onnx: error: node 'y' (Softmax): Softmax before opset 13 normalizes over the dimensions from axis 1 on; onyx needs a static input shape for that, got tensor<?x3x4xf32>
ir_version: 7
opset_import { domain: "" version: 12 }
graph {
  name: "softmax-dynamic"
  node { op_type: "Softmax" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } dim { dim_value: 3 } dim { dim_value: 4 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } dim { dim_value: 3 } dim { dim_value: 4 } } } } }
}

// Symbolic dimensions: unbound ones stay dynamic (`?`); --bind-dims gives
// them sizes, and then the shape computations that exporters emit
// (Shape -> Gather -> Unsqueeze -> Concat -> Reshape) fold to constants as
// they are imported, so that the Reshape has a static shape. Unbound, the
// chain stays for the run to compute, and the Reshape's result keeps what
// is known without it: its rank, and the size the constant part gives.

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/elementwise.textproto -o %t/elementwise.onnx
// RUN: onyx-opt %t/elementwise.onnx | FileCheck %s --check-prefix=DYNAMIC
// RUN: onyx-opt %t/elementwise.onnx --bind-dims=batch=2 | FileCheck %s --check-prefix=BOUND
// RUN: onyx-opt %t/elementwise.onnx --bind-dims=batch=2,btach=3 2>&1 | FileCheck %s --check-prefix=UNUSED
// RUN: onnx-txt2pb %t/chain.textproto -o %t/chain.onnx
// RUN: onyx-opt %t/chain.onnx --bind-dims=batch=2 | FileCheck %s --check-prefix=CHAIN
// RUN: onyx-opt %t/chain.onnx | FileCheck %s --check-prefix=CHAIN-UNBOUND

//--- elementwise.textproto
# DYNAMIC: func.func @main(%arg0: tensor<?x3xf32> {onnx.name = "x"}) -> (tensor<?x3xf32> {onnx.name = "y"})
# DYNAMIC: "onnx.Tanh"(%arg0) : (tensor<?x3xf32>) -> tensor<?x3xf32>
# BOUND: func.func @main(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<2x3xf32> {onnx.name = "y"})
# A misspelt name binds nothing; a warning says so.
# UNUSED: elementwise.onnx: warning: 'btach' is not a symbolic dimension of the model
# UNUSED: func.func @main(%arg0: tensor<2x3xf32>
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "elementwise"
  node { op_type: "Tanh" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_param: "batch" } dim { dim_value: 3 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "batch" } dim { dim_value: 3 } } } } }
}

//--- chain.textproto
# CHAIN-LABEL: func.func @main(%arg0: tensor<2x4x8xf32> {onnx.name = "x"}) -> (tensor<2x32xf32> {onnx.name = "y"})
# CHAIN-NEXT: [[SHAPE:%.+]] = onnx.Constant dense<[2, 32]> : tensor<2xi64>
# CHAIN-NEXT: [[Y:%.+]] = "onnx.Reshape"(%arg0, [[SHAPE]]) : (tensor<2x4x8xf32>, tensor<2xi64>) -> tensor<2x32xf32>
# CHAIN-NEXT: return [[Y]]
# CHAIN-UNBOUND-LABEL: func.func @main(%arg0: tensor<?x4x8xf32> {onnx.name = "x"}) -> (tensor<?x32xf32> {onnx.name = "y"})
# CHAIN-UNBOUND: [[SHAPE:%.+]] = "onnx.Shape"(%arg0) : (tensor<?x4x8xf32>) -> tensor<3xi64>
# CHAIN-UNBOUND: "onnx.Gather"([[SHAPE]]
# CHAIN-UNBOUND: [[NEW:%.+]] = "onnx.Concat"
# CHAIN-UNBOUND: "onnx.Reshape"(%arg0, [[NEW]]) : (tensor<?x4x8xf32>, tensor<2xi64>) -> tensor<?x32xf32>
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "chain"
  node { op_type: "Shape" input: "x" output: "shape" }
  node { op_type: "Gather" input: "shape" input: "zero" output: "batch" }
  node { op_type: "Unsqueeze" input: "batch" input: "axes" output: "batch1" }
  node { op_type: "Concat" input: "batch1" input: "rest" output: "newShape"
         attribute { name: "axis" type: INT i: 0 } }
  node { name: "reshape" op_type: "Reshape" input: "x" input: "newShape" output: "y" }
  initializer { name: "zero" data_type: 7 int64_data: 0 }
  initializer { name: "axes" data_type: 7 dims: 1 int64_data: 0 }
  initializer { name: "rest" data_type: 7 dims: 1 int64_data: 32 }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_param: "batch" } dim { dim_value: 4 } dim { dim_value: 8 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "batch" } dim { dim_value: 32 } } } } }
}

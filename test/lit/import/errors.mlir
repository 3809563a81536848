// Bad input is an error naming the file (and the node or tensor concerned)
// and exit status 1, never a crash.

// RUN: split-file %s %t

// Not a model at all, an empty file, models cut short.
// RUN: printf 'garbage' > %t/garbage.onnx
// RUN: not onyx-opt %t/garbage.onnx 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: garbage.onnx: error: not a valid ONNX model (protobuf parse failed)
// RUN: rm -f %t/empty.onnx && touch %t/empty.onnx
// RUN: not onyx-opt %t/empty.onnx 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: empty.onnx: error: not a valid ONNX model (empty file)
// RUN: head -c 5000 %models/mlp.onnx > %t/truncated.onnx
// RUN: not onyx-opt %t/truncated.onnx 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: truncated.onnx: error: not a valid ONNX model (protobuf parse failed)
// RUN: head -c 20 %models/mlp.onnx > %t/header.onnx
// RUN: not onyx-opt %t/header.onnx 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: header.onnx: error: not a valid ONNX model
// RUN: not onyx-opt --import-onnx < %t/garbage.onnx 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: <stdin>: error: not a valid ONNX model (protobuf parse failed)

// Bad --bind-dims values stop onyx-opt before it reads anything.
// RUN: not onyx-opt %t/garbage.onnx --bind-dims=batch 2>&1 | FileCheck %s --check-prefix=BIND-SYNTAX
// BIND-SYNTAX: for the --bind-dims option: expected NAME=SIZE, got 'batch'
// RUN: not onyx-opt %t/garbage.onnx --bind-dims=batch=-1 2>&1 | FileCheck %s --check-prefix=BIND-SIZE
// BIND-SIZE: for the --bind-dims option: the size of 'batch' must be a non-negative integer, got '-1'
// RUN: not onyx-opt %t/garbage.onnx --bind-dims=n=1,n=2 2>&1 | FileCheck %s --check-prefix=BIND-TWICE
// BIND-TWICE: for the --bind-dims option: 'n' is bound twice

// RUN: onnx-txt2pb %t/unsupported.textproto -o %t/unsupported.onnx
// RUN: not onyx-opt %t/unsupported.onnx 2>&1 | FileCheck %s --check-prefix=UNKNOWN-OPS
// RUN: onnx-txt2pb %t/string-input.textproto -o %t/string-input.onnx
// RUN: not onyx-opt %t/string-input.onnx 2>&1 | FileCheck %s --check-prefix=STRING-INPUT
// RUN: onnx-txt2pb %t/sequence-input.textproto -o %t/sequence-input.onnx
// RUN: not onyx-opt %t/sequence-input.onnx 2>&1 | FileCheck %s --check-prefix=SEQUENCE-INPUT
// RUN: onnx-txt2pb %t/opset28.textproto -o %t/opset28.onnx
// RUN: not onyx-opt %t/opset28.onnx 2>&1 | FileCheck %s --check-prefix=OPSET28
// RUN: onnx-txt2pb %t/no-opset.textproto -o %t/no-opset.onnx
// RUN: not onyx-opt %t/no-opset.onnx 2>&1 | FileCheck %s --check-prefix=NO-OPSET
// RUN: onnx-txt2pb %t/checker.textproto -o %t/checker.onnx
// RUN: not onyx-opt %t/checker.onnx 2>&1 | FileCheck %s --check-prefix=CHECKER
// RUN: onnx-txt2pb %t/undefined.textproto -o %t/undefined.onnx
// RUN: not onyx-opt %t/undefined.onnx 2>&1 | FileCheck %s --check-prefix=UNDEFINED
// RUN: onnx-txt2pb %t/no-output.textproto -o %t/no-output.onnx
// RUN: not onyx-opt %t/no-output.onnx 2>&1 | FileCheck %s --check-prefix=NO-OUTPUT
// RUN: onnx-txt2pb %t/output-shape.textproto -o %t/output-shape.onnx
// RUN: not onyx-opt %t/output-shape.onnx 2>&1 | FileCheck %s --check-prefix=OUTPUT-SHAPE
// RUN: onnx-txt2pb %t/value-info.textproto -o %t/value-info.onnx
// RUN: not onyx-opt %t/value-info.onnx 2>&1 | FileCheck %s --check-prefix=VALUE-INFO
// RUN: onnx-txt2pb %t/inference.textproto -o %t/inference.onnx
// RUN: not onyx-opt %t/inference.onnx 2>&1 | FileCheck %s --check-prefix=INFERENCE
// RUN: onnx-txt2pb %t/attribute.textproto -o %t/attribute.onnx
// RUN: not onyx-opt %t/attribute.onnx 2>&1 | FileCheck %s --check-prefix=ATTRIBUTE

//--- unsupported.textproto
# One error lists every op type that onyx does not support, with counts and
# node names (a node without a name is named after its first output); ops
# of other domains carry their domain. (unsupported.mlir has subgraphs.)
# UNKNOWN-OPS: unsupported.onnx: error: unsupported ONNX operators: Det (1: 'det'), NonMaxSuppression (2: 'a', 'b'), com.microsoft.FusedMatMul (1: 'm')
# UNKNOWN-OPS-NOT: error
ir_version: 8
opset_import { domain: "" version: 13 }
opset_import { domain: "com.microsoft" version: 1 }
graph {
  name: "unsupported"
  node { op_type: "NonMaxSuppression" input: "boxes" input: "scores" output: "a" }
  node { op_type: "Relu" input: "scores" output: "r" }
  node { op_type: "NonMaxSuppression" input: "boxes" input: "scores" output: "b" }
  node { name: "det" op_type: "Det" input: "scores" output: "d" }
  node { op_type: "FusedMatMul" domain: "com.microsoft" input: "r" input: "r" output: "m" }
  input { name: "boxes" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 4 } dim { dim_value: 4 } } } } }
  input { name: "scores" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 1 } dim { dim_value: 4 } } } } }
  input { name: "k" type { tensor_type { elem_type: 7 shape { dim { dim_value: 1 } } } } }
  output { name: "a" type { tensor_type { elem_type: 7 } } }
}

//--- string-input.textproto
# STRING-INPUT: string-input.onnx: error: input 'x' has unsupported element type STRING
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "string-input"
  node { op_type: "Identity" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 8 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 8 shape { dim { dim_value: 2 } } } } }
}

//--- sequence-input.textproto
# SEQUENCE-INPUT: sequence-input.onnx: error: input 'x' is a sequence; only tensors are supported
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "sequence-input"
  node { op_type: "Identity" input: "x" output: "y" }
  input { name: "x" type { sequence_type { elem_type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } } } }
  output { name: "y" type { sequence_type { elem_type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } } } }
}

//--- opset28.textproto
# OPSET28: opset28.onnx: error: ai.onnx opset 28 is not supported (onyx imports opsets 1 to 27)
ir_version: 13
opset_import { domain: "" version: 28 }
graph {
  name: "opset28"
  node { op_type: "Relu" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- no-opset.textproto
# NO-OPSET: no-opset.onnx: error: the model imports no ai.onnx opset
ir_version: 8
graph {
  name: "no-opset"
  node { op_type: "Relu" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- checker.textproto
# The ONNX checker runs on models of the opsets it knows (up to 17).
# CHECKER: checker.onnx: error: the ONNX checker rejects the model: Node () has input size 2 not in range [min=1, max=1].
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "checker"
  node { op_type: "Relu" input: "x" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- undefined.textproto
# At opset 21 the checker does not run; the importer finds the problem.
# UNDEFINED: undefined.onnx: error: node 'relu' (Relu): 'z' is not a graph input, an initializer or the output of an earlier node
ir_version: 10
opset_import { domain: "" version: 21 }
graph {
  name: "undefined"
  node { name: "relu" op_type: "Relu" input: "z" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- no-output.textproto
# NO-OUTPUT: no-output.onnx: error: graph output 'z' is not computed by the graph
ir_version: 10
opset_import { domain: "" version: 21 }
graph {
  name: "no-output"
  node { op_type: "Relu" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "z" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- output-shape.textproto
# The types a model declares are checked against the inferred ones.
# OUTPUT-SHAPE: output-shape.onnx: error: node 'matmul' (MatMul): 'y' is declared with shape [2, 5], but its value has type tensor<2x4xf32>
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "output-shape"
  node { name: "matmul" op_type: "MatMul" input: "a" input: "b" output: "y" }
  input { name: "a" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  input { name: "b" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } dim { dim_value: 4 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_param: "n" } } } } }
  value_info { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 5 } } } } }
}

//--- value-info.textproto
# VALUE-INFO: value-info.onnx: error: node 'cast' (Cast): 'h' is declared with element type INT32, but its value has type tensor<2xi64>
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "value-info"
  node { name: "cast" op_type: "Cast" input: "x" output: "h"
         attribute { name: "to" type: INT i: 7 } }
  node { op_type: "Neg" input: "h" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 7 shape { dim { dim_value: 2 } } } } }
  value_info { name: "h" type { tensor_type { elem_type: 6 shape { dim { dim_value: 2 } } } } }
}

//--- inference.textproto
# The dialect's shape inference reports, naming the node.
# INFERENCE: inference.onnx: error: node 'add' (Add): 'onnx.Add' op operands are not broadcast-compatible: tensor<2x3xf32> and tensor<4xf32>
ir_version: 10
opset_import { domain: "" version: 21 }
graph {
  name: "inference"
  node { name: "add" op_type: "Add" input: "a" input: "b" output: "y" }
  input { name: "a" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  input { name: "b" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
}

//--- attribute.textproto
# ATTRIBUTE: attribute.onnx: error: node 'y' (Relu): 'onnx.Relu' op has no attribute 'alpha'
ir_version: 10
opset_import { domain: "" version: 21 }
graph {
  name: "attribute"
  node { op_type: "Relu" input: "x" output: "y"
         attribute { name: "alpha" type: FLOAT f: 0.5 } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

// Unsupported ops are reported once, all of them, with their nodes, the
// nodes inside If, Loop and Scan subgraphs included (named by their path:
// node/attribute/node; If, Loop and Scan themselves are supported). --list-unsupported prints the same report without
// importing and exits with 0, so a user sees a model's whole gap at once.

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/subgraphs.textproto -o %t/subgraphs.onnx
// RUN: not onyx-opt %t/subgraphs.onnx 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: onyx-opt --list-unsupported %t/subgraphs.onnx | FileCheck %s --check-prefix=LIST
// RUN: onyx-opt --list-unsupported < %t/subgraphs.onnx | FileCheck %s --check-prefix=STDIN
// RUN: onnx-txt2pb %t/many.textproto -o %t/many.onnx
// RUN: not onyx-opt %t/many.onnx 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: onyx-opt --list-unsupported %t/many.onnx | FileCheck %s --check-prefix=MANY-LIST
// RUN: onyx-opt --list-unsupported %models/mlp.onnx | FileCheck %s --check-prefix=NONE
// RUN: printf 'garbage' > %t/garbage.onnx
// RUN: not onyx-opt --list-unsupported %t/garbage.onnx 2>&1 | FileCheck %s --check-prefix=GARBAGE

// ERROR: subgraphs.onnx: error: unsupported ONNX operators: Det (1: 'scan/body/inner/then_branch/det'), LpPool (1: 'loop/body/lppool'), MaxUnpool (2: 'cond/then_branch/unpool_0', 'cond/else_branch/unpool_1')
// ERROR-NOT: error

// LIST:      subgraphs.onnx: 3 unsupported ONNX operators in 4 nodes
// LIST-NEXT:   Det (1): scan/body/inner/then_branch/det
// LIST-NEXT:   LpPool (1): loop/body/lppool
// LIST-NEXT:   MaxUnpool (2): cond/then_branch/unpool_0, cond/else_branch/unpool_1
// LIST-NOT: {{.}}

// STDIN: <stdin>: 3 unsupported ONNX operators in 4 nodes

// The error names 8 nodes per op type; the list names them all.
// MANY: error: unsupported ONNX operators: Det (10: 'd0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 2 more) (onyx-opt --list-unsupported lists every node)
// MANY-LIST: many.onnx: 1 unsupported ONNX operator in 10 nodes
// MANY-LIST-NEXT: Det (10): d0, d1, d2, d3, d4, d5, d6, d7, d8, d9

// NONE: mlp.onnx: every ONNX operator is supported

// GARBAGE: garbage.onnx: error: not a valid ONNX model (protobuf parse failed)

//--- subgraphs.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "subgraphs"
  node { name: "cond" op_type: "If" input: "c" output: "y"
    attribute { name: "then_branch" type: GRAPH g {
      name: "then"
      node { name: "unpool_0" op_type: "MaxUnpool" input: "x" output: "h0" }
      node { name: "relu" op_type: "Relu" input: "h0" output: "t" }
      output { name: "t" type { tensor_type { elem_type: 1 } } } } }
    attribute { name: "else_branch" type: GRAPH g {
      name: "else"
      node { name: "unpool_1" op_type: "MaxUnpool" input: "x" output: "e" }
      output { name: "e" type { tensor_type { elem_type: 1 } } } } } }
  node { name: "loop" op_type: "Loop" input: "n" input: "c" output: "l"
    attribute { name: "body" type: GRAPH g {
      name: "loop_body"
      node { name: "lppool" op_type: "LpPool" input: "x" output: "g" }
      output { name: "g" type { tensor_type { elem_type: 1 } } } } } }
  node { name: "scan" op_type: "Scan" input: "x" output: "s"
    attribute { name: "num_scan_inputs" type: INT i: 1 }
    attribute { name: "body" type: GRAPH g {
      name: "scan_body"
      node { name: "inner" op_type: "If" input: "c" output: "o"
        attribute { name: "then_branch" type: GRAPH g {
          name: "inner_then"
          node { name: "det" op_type: "Det" input: "x" output: "dt" }
          output { name: "dt" type { tensor_type { elem_type: 1 } } } } }
        attribute { name: "else_branch" type: GRAPH g {
          name: "inner_else"
          node { name: "neg" op_type: "Neg" input: "x" output: "ng" }
          output { name: "ng" type { tensor_type { elem_type: 1 } } } } } }
      output { name: "o" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "c" type { tensor_type { elem_type: 9 shape { } } } }
  input { name: "n" type { tensor_type { elem_type: 7 shape { } } } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 } } }
}

//--- many.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "many"
  node { op_type: "Det" input: "x" output: "d0" }
  node { op_type: "Det" input: "x" output: "d1" }
  node { op_type: "Det" input: "x" output: "d2" }
  node { op_type: "Det" input: "x" output: "d3" }
  node { op_type: "Det" input: "x" output: "d4" }
  node { op_type: "Det" input: "x" output: "d5" }
  node { op_type: "Det" input: "x" output: "d6" }
  node { op_type: "Det" input: "x" output: "d7" }
  node { op_type: "Det" input: "x" output: "d8" }
  node { op_type: "Det" input: "x" output: "d9" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 2 } } } } }
  output { name: "d9" type { tensor_type { elem_type: 1 } } }
}

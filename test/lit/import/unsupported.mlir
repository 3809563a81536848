// Unsupported ops are reported once, all of them, with their nodes, the
// nodes inside If, Loop and Scan subgraphs included (named by their path:
// node/attribute/node). --list-unsupported prints the same report without
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

// ERROR: subgraphs.onnx: error: unsupported ONNX operators: Det (1: 'scan/body/inner/then_branch/det'), GRU (1: 'loop/body/gru'), If (2: 'cond', 'scan/body/inner'), LSTM (2: 'cond/then_branch/lstm_0', 'cond/else_branch/lstm_1'), Loop (1: 'loop'), Scan (1: 'scan')
// ERROR-NOT: error

// LIST:      subgraphs.onnx: 6 unsupported ONNX operators in 8 nodes
// LIST-NEXT:   Det (1): scan/body/inner/then_branch/det
// LIST-NEXT:   GRU (1): loop/body/gru
// LIST-NEXT:   If (2): cond, scan/body/inner
// LIST-NEXT:   LSTM (2): cond/then_branch/lstm_0, cond/else_branch/lstm_1
// LIST-NEXT:   Loop (1): loop
// LIST-NEXT:   Scan (1): scan
// LIST-NOT: {{.}}

// STDIN: <stdin>: 6 unsupported ONNX operators in 8 nodes

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
      node { name: "lstm_0" op_type: "LSTM" input: "x" output: "h0" }
      node { name: "relu" op_type: "Relu" input: "h0" output: "t" }
      output { name: "t" type { tensor_type { elem_type: 1 } } } } }
    attribute { name: "else_branch" type: GRAPH g {
      name: "else"
      node { name: "lstm_1" op_type: "LSTM" input: "x" output: "e" }
      output { name: "e" type { tensor_type { elem_type: 1 } } } } } }
  node { name: "loop" op_type: "Loop" input: "n" input: "c" output: "l"
    attribute { name: "body" type: GRAPH g {
      name: "loop_body"
      node { name: "gru" op_type: "GRU" input: "x" output: "g" }
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

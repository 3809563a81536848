// Subgraphs nest as deep as protobuf's limit of 100 nested messages allows
// (each If, Loop or Scan subgraph adds three: node, attribute, graph), and
// a model nested deeper is refused with that reason rather than as a
// corrupt file; nothing of the importer recurses deeper than that limit
// allows. Inputs/nested_if.py writes the models.

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/nested_if.py 31 > %t/ok.textproto
// RUN: onnx-txt2pb %t/ok.textproto -o %t/ok.onnx
// RUN: onyx-opt %t/ok.onnx | FileCheck %s --check-prefix=OK
// Every condition is a constant true, so the import takes each then-branch
// down to the innermost constant.
// OK: func.func @main() -> (tensor<1xf32> {onnx.name = "y31"})
// OK-NEXT: onnx.Constant dense<1.000000e+00> : tensor<1xf32>
// OK-NEXT: return
// RUN: %python %S/Inputs/nested_if.py 32 > %t/deep.textproto
// RUN: onnx-txt2pb %t/deep.textproto -o %t/deep.onnx
// RUN: not onyx-opt %t/deep.onnx 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: .onnx: error: not a valid ONNX model (messages nested deeper than 100 levels, protobuf's limit; each subgraph of If, Loop or Scan nests three)
// RUN: not onyx-run %t/deep.onnx 2>&1 | FileCheck %s --check-prefix=DEEP

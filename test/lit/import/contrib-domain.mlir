// Nodes of ONNX Runtime's contrib domain (com.microsoft) import as
// onnx.com.microsoft.<OpType> where the dialect has the op; others are in
// the unsupported-op report under their domain. A model with com.microsoft
// nodes must import that domain, at version 1 (the only one).

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/unknown.textproto -o %t/unknown.onnx
// RUN: not onyx-opt %t/unknown.onnx 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: onyx-opt --list-unsupported %t/unknown.onnx | FileCheck %s --check-prefix=LIST
// RUN: onnx-txt2pb %t/no-import.textproto -o %t/no-import.onnx
// RUN: not onyx-opt %t/no-import.onnx 2>&1 | FileCheck %s --check-prefix=NO-IMPORT
// RUN: onnx-txt2pb %t/version.textproto -o %t/version.onnx
// RUN: not onyx-opt %t/version.onnx 2>&1 | FileCheck %s --check-prefix=VERSION
// RUN: onnx-txt2pb %t/simplified.textproto -o %t/simplified.onnx
// RUN: onyx-opt %t/simplified.onnx | FileCheck %s --check-prefix=SIMPLIFIED
// RUN: onnx-txt2pb %t/other.textproto -o %t/other.onnx
// RUN: not onyx-opt %t/other.onnx 2>&1 | FileCheck %s --check-prefix=OTHER

// UNKNOWN: unknown.onnx: error: unsupported ONNX operators: com.microsoft.FooBar (1: 'foo')
// LIST: unknown.onnx: 1 unsupported ONNX operator in 1 node
// LIST-NEXT: com.microsoft.FooBar (1): foo
// NO-IMPORT: no-import.onnx: error: the model has com.microsoft nodes but imports no com.microsoft opset
// VERSION: version.onnx: error: com.microsoft opset 2 is not supported (onyx imports version 1, that of ONNX Runtime's contrib ops)
// ONNX Runtime's SimplifiedLayerNormalization is an ai.onnx op the ONNX
// library has no schema for: the checker would reject the opset-17 model, so
// it is not run; the op's verifier checks the node. Contrib ops import with
// their domain in the op name.
// SIMPLIFIED: "onnx.SimplifiedLayerNormalization"(%arg0, %arg1) {epsilon = 9.99999997E-7 : f32} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// SIMPLIFIED: "onnx.com.microsoft.SkipSimplifiedLayerNormalization"
// OTHER: other.onnx: error: unsupported ONNX operators: org.example.Relu (1: 'y')

//--- unknown.textproto
ir_version: 8
opset_import { domain: "" version: 17 }
opset_import { domain: "com.microsoft" version: 1 }
graph {
  name: "unknown"
  node { name: "foo" op_type: "FooBar" domain: "com.microsoft" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- no-import.textproto
ir_version: 8
opset_import { domain: "" version: 17 }
graph {
  name: "no_import"
  node { op_type: "Relu" input: "x" output: "r" }
  node { op_type: "SkipSimplifiedLayerNormalization" domain: "com.microsoft"
         input: "r" input: "x" input: "g" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  input { name: "g" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- version.textproto
ir_version: 8
opset_import { domain: "" version: 17 }
opset_import { domain: "com.microsoft" version: 2 }
graph {
  name: "version"
  node { op_type: "Relu" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- other.textproto
ir_version: 8
opset_import { domain: "" version: 17 }
opset_import { domain: "org.example" version: 1 }
graph {
  name: "other"
  node { op_type: "Relu" domain: "org.example" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- simplified.textproto
ir_version: 8
opset_import { domain: "" version: 17 }
opset_import { domain: "com.microsoft" version: 1 }
graph {
  name: "simplified"
  node { op_type: "SimplifiedLayerNormalization" input: "x" input: "g" output: "n"
         attribute { name: "epsilon" type: FLOAT f: 1e-6 } }
  node { op_type: "SkipSimplifiedLayerNormalization" domain: "com.microsoft"
         input: "n" input: "x" input: "g" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 4 } } } } }
  input { name: "g" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 4 } } } } }
}

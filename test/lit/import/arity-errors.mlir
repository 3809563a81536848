// ONNX nodes with too few inputs, or an empty input name where the schema
// does not allow one (a variadic or required input), are errors naming the
// node, never a crash. (The ONNX checker accepts some of these models.)

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/max-no-inputs.textproto -o %t/max-no-inputs.onnx
// RUN: not onyx-opt %t/max-no-inputs.onnx 2>&1 | FileCheck %s --check-prefix=MAX
// RUN: onnx-txt2pb %t/max-empty-input.textproto -o %t/max-empty-input.onnx
// RUN: not onyx-opt %t/max-empty-input.onnx 2>&1 | FileCheck %s --check-prefix=EMPTYMAX
// RUN: onnx-txt2pb %t/sum-empty-input.textproto -o %t/sum-empty-input.onnx
// RUN: not onyx-opt %t/sum-empty-input.onnx 2>&1 | FileCheck %s --check-prefix=SUM
// RUN: onnx-txt2pb %t/concat-empty-input.textproto -o %t/concat-empty-input.onnx
// RUN: not onyx-opt %t/concat-empty-input.onnx 2>&1 | FileCheck %s --check-prefix=CONCAT

//--- max-no-inputs.textproto
# The ONNX checker counts the inputs...
# MAX: max-no-inputs.onnx: error: the ONNX checker rejects the model: Node (m) has input size 0 not in range [min=1, max=2147483647]
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "max-no-inputs"
  node { name: "m" op_type: "Max" output: "y" }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- max-empty-input.textproto
# ... but accepts an empty name (an absent input) as the only one.
# EMPTYMAX: max-empty-input.onnx: error: node 'm' (Max): 'onnx.Max' op expects at least 1 operands, got 0
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "max-empty-input"
  node { name: "m" op_type: "Max" input: "" output: "y" }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- sum-empty-input.textproto
# SUM: sum-empty-input.onnx: error: node 's' (Sum): 'onnx.Sum' op operand 'data_0' is required, got none
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "sum-empty-input"
  node { name: "s" op_type: "Sum" input: "" input: "x" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- concat-empty-input.textproto
# CONCAT: concat-empty-input.onnx: error: node 'c' (Concat): 'onnx.Concat' op operand 'inputs' is required, got none
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "concat-empty-input"
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  node { name: "c" op_type: "Concat" input: "" input: "x" output: "y"
         attribute { name: "axis" type: INT i: 0 } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

// An opset-23 Attention node imports as onnx.Attention (the dialect's own
// schema: the ONNX library need not know the op), its attributes kept, and
// the reference backend runs it.
// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/attention.textproto -o %t/attention.onnx
// RUN: onyx-opt %t/attention.onnx | FileCheck %s
// RUN: onyx-run %t/attention.onnx --backend=ref --input=1x4x2x8xf32=0.5 \
// RUN:   --input=1x2x3x8xf32=1 --input=1x2x3x8xf32=2 | FileCheck %s --check-prefix=REF

// CHECK: "onnx.Attention"(%arg0, %arg1, %arg2) {is_causal = 1 : si64, kv_num_heads = 2 : si64, q_num_heads = 4 : si64, scale = 1.250000e-01 : f32} : (tensor<1x4x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>) -> tensor<1x4x?x8xf32>
// REF: output 0: tensor<1x4x2x8xf32> = [2, 2, 2, 2, 2, 2, 2, 2, ...]

//--- attention.textproto
ir_version: 10
opset_import { domain: "" version: 23 }
graph {
  name: "attention"
  node { op_type: "Attention" input: "q" input: "k" input: "v" output: "y"
         attribute { name: "is_causal" type: INT i: 1 }
         attribute { name: "q_num_heads" type: INT i: 4 }
         attribute { name: "kv_num_heads" type: INT i: 2 }
         attribute { name: "scale" type: FLOAT f: 0.125 } }
  input { name: "q" type { tensor_type { elem_type: 1 shape {
    dim { dim_value: 1 } dim { dim_value: 4 } dim { dim_param: "s" } dim { dim_value: 8 } } } } }
  input { name: "k" type { tensor_type { elem_type: 1 shape {
    dim { dim_value: 1 } dim { dim_value: 2 } dim { dim_param: "t" } dim { dim_value: 8 } } } } }
  input { name: "v" type { tensor_type { elem_type: 1 shape {
    dim { dim_value: 1 } dim { dim_value: 2 } dim { dim_param: "t" } dim { dim_value: 8 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape {
    dim { dim_value: 1 } dim { dim_value: 4 } dim { dim_param: "s" } dim { dim_value: 8 } } } } }
}

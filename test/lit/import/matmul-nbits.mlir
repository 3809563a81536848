// com.microsoft MatMulNBits imports as onnx.com.microsoft.MatMulNBits with
// its attributes, and the reference backend runs it; the same op type in the
// ai.onnx domain is an unsupported operator.
// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/nbits.textproto -o %t/nbits.onnx
// RUN: onyx-opt %t/nbits.onnx | FileCheck %s
// RUN: onyx-run %t/nbits.onnx --backend=ref --input=1x16xf32=1 | FileCheck %s --check-prefix=REF
// RUN: onnx-txt2pb %t/onnx-domain.textproto -o %t/onnx-domain.onnx
// RUN: not onyx-opt %t/onnx-domain.onnx 2>&1 | FileCheck %s --check-prefix=ONNX-DOMAIN

// Column 0 holds nibbles 9 (9 - 8 = 1, times 0.5); column 1 alternates
// nibbles 10 and 7 (2 and -1, times 0.25): y = [8 * 1, 8 * 0.5 - 8 * 0.25].
// CHECK: "onnx.com.microsoft.MatMulNBits"(%arg0, %{{.*}}, %{{.*}}) {K = 16 : si64, N = 2 : si64, block_size = 16 : si64} : (tensor<1x16xf32>, tensor<2x1x8xui8>, tensor<2xf32>) -> tensor<1x2xf32>
// REF: output 0: tensor<1x2xf32> = [8, 2]

// ONNX-DOMAIN: error: unsupported ONNX operators: MatMulNBits (1: 'y')

//--- nbits.textproto
ir_version: 8
opset_import { domain: "" version: 17 }
opset_import { domain: "com.microsoft" version: 1 }
graph {
  name: "nbits"
  node { op_type: "MatMulNBits" domain: "com.microsoft" input: "a" input: "b" input: "s" output: "y"
         attribute { name: "K" type: INT i: 16 }
         attribute { name: "N" type: INT i: 2 }
         attribute { name: "bits" type: INT i: 4 }
         attribute { name: "block_size" type: INT i: 16 } }
  initializer { name: "b" data_type: 2 dims: 2 dims: 1 dims: 8
                raw_data: "\x99\x99\x99\x99\x99\x99\x99\x99zzzzzzzz" }
  initializer { name: "s" data_type: 1 dims: 2 float_data: 0.5 float_data: 0.25 }
  input { name: "a" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 16 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 2 } } } } }
}

//--- onnx-domain.textproto
ir_version: 8
opset_import { domain: "" version: 17 }
graph {
  name: "onnx_domain"
  node { op_type: "MatMulNBits" input: "a" input: "b" input: "s" output: "y"
         attribute { name: "K" type: INT i: 16 }
         attribute { name: "N" type: INT i: 2 }
         attribute { name: "block_size" type: INT i: 16 } }
  initializer { name: "b" data_type: 2 dims: 2 dims: 1 dims: 8
                raw_data: "\x99\x99\x99\x99\x99\x99\x99\x99zzzzzzzz" }
  initializer { name: "s" data_type: 1 dims: 2 float_data: 0.5 float_data: 0.25 }
  input { name: "a" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 16 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 2 } } } } }
}

// Tensor data in each place ONNX keeps it: raw_data, the typed lists
// (float16 and bool bits in int32_data, uint32 in uint64_data, ...), and
// files beside the model (external data, read relative to the model's
// directory, not the working directory).

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/types.textproto -o %t/types.onnx
// RUN: onyx-opt %t/types.onnx | FileCheck %s --check-prefix=TYPES

// RUN: mkdir -p %t/ext
// RUN: onnx-txt2pb %t/external.textproto -o %t/ext/model.onnx --external-data=weights.bin
// RUN: cd %t && onyx-opt ext/model.onnx | FileCheck %s --check-prefix=EXTERNAL
// RUN: rm %t/ext/weights.bin
// RUN: not onyx-opt %t/ext/model.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// The ONNX checker (which knows opsets up to 17) finds a missing file first;
// for newer opsets, the importer does.
// RUN: onnx-txt2pb %t/external21.textproto -o %t/ext/model21.onnx --external-data=weights21.bin
// RUN: onyx-opt %t/ext/model21.onnx | FileCheck %s --check-prefix=EXTERNAL
// RUN: rm %t/ext/weights21.bin
// RUN: not onyx-opt %t/ext/model21.onnx 2>&1 | FileCheck %s --check-prefix=MISSING21

// RUN: onnx-txt2pb %t/short.textproto -o %t/short.onnx
// RUN: not onyx-opt %t/short.onnx 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: onnx-txt2pb %t/escape.textproto -o %t/escape.onnx
// RUN: not onyx-opt %t/escape.onnx 2>&1 | FileCheck %s --check-prefix=ESCAPE
// A symbolic link beside the model that leads out of its folder is refused
// too; one to a file inside the folder is read.
// RUN: rm -rf %t/sym %t/outside.bin && mkdir -p %t/sym
// RUN: onnx-txt2pb %t/external21.textproto -o %t/sym/model21.onnx --external-data=weights21.bin
// RUN: mv %t/sym/weights21.bin %t/outside.bin
// RUN: ln -s ../outside.bin %t/sym/weights21.bin
// RUN: not onyx-opt %t/sym/model21.onnx 2>&1 | FileCheck %s --check-prefix=SYMLINK
// SYMLINK: model21.onnx: error: node 'y' (Add): initializer 'w': external data location 'weights21.bin' leads out of the model's directory through a symbolic link (to '{{.*}}outside.bin')
// RUN: rm %t/sym/weights21.bin
// RUN: mv %t/outside.bin %t/sym/real.bin
// RUN: ln -s real.bin %t/sym/weights21.bin
// RUN: onyx-opt %t/sym/model21.onnx | FileCheck %s --check-prefix=EXTERNAL
// RUN: onnx-txt2pb %t/string.textproto -o %t/string.onnx
// RUN: not onyx-opt %t/string.onnx 2>&1 | FileCheck %s --check-prefix=STRING

//--- types.textproto
# TYPES-LABEL: func.func @main()
# TYPES-DAG: dense<[1.000000e+00, -2.000000e+00]> : tensor<2xf32>
# TYPES-DAG: dense<3.500000e+00> : tensor<f32>
# TYPES-DAG: dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf16>
# TYPES-DAG: dense<[1.000000e+00, -1.000000e+00]> : tensor<2xbf16>
# TYPES-DAG: dense<[2.500000e-01, 1.000000e+100]> : tensor<2xf64>
# TYPES-DAG: dense<[-1, 127]> : tensor<2xi8>
# TYPES-DAG: dense<[255, 0]> : tensor<2xui8>
# TYPES-DAG: dense<[-32768, 5]> : tensor<2xi16>
# TYPES-DAG: dense<[65535, 1]> : tensor<2xui16>
# TYPES-DAG: dense<[-7, 2147483647]> : tensor<2xi32>
# TYPES-DAG: dense<[4294967295, 3]> : tensor<2xui32>
# TYPES-DAG: dense<[-9223372036854775808, 9]> : tensor<2xi64>
# TYPES-DAG: dense<[18446744073709551615, 0]> : tensor<2xui64>
# Bools are bytes; ONNX does not promise 0 or 1 in raw data.
# TYPES-DAG: dense<[true, false, true]> : tensor<3xi1>
# TYPES-DAG: dense<[false, true]> : tensor<2xi1>
# TYPES-DAG: dense<> : tensor<0x3xf32>
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "types"
  initializer { name: "f32_raw" data_type: 1 dims: 2 raw_data: "\000\000\200?\000\000\000\300" }
  initializer { name: "f32_scalar" data_type: 1 float_data: 3.5 }
  initializer { name: "f16" data_type: 10 dims: 2 int32_data: [15360, 16384] }
  initializer { name: "bf16" data_type: 16 dims: 2 int32_data: [16256, 49024] }
  initializer { name: "f64" data_type: 11 dims: 2 double_data: [0.25, 1e100] }
  initializer { name: "i8" data_type: 3 dims: 2 int32_data: [-1, 127] }
  initializer { name: "u8" data_type: 2 dims: 2 int32_data: [255, 0] }
  initializer { name: "i16" data_type: 5 dims: 2 int32_data: [-32768, 5] }
  initializer { name: "u16" data_type: 4 dims: 2 int32_data: [65535, 1] }
  initializer { name: "i32" data_type: 6 dims: 2 int32_data: [-7, 2147483647] }
  initializer { name: "u32" data_type: 12 dims: 2 uint64_data: [4294967295, 3] }
  initializer { name: "i64" data_type: 7 dims: 2 int64_data: [-9223372036854775808, 9] }
  initializer { name: "u64" data_type: 13 dims: 2 uint64_data: [18446744073709551615, 0] }
  initializer { name: "bool_raw" data_type: 9 dims: 3 raw_data: "\001\000\002" }
  initializer { name: "bool" data_type: 9 dims: 2 int32_data: [0, 1] }
  initializer { name: "empty" data_type: 1 dims: 0 dims: 3 }
  output { name: "f32_raw" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "f32_scalar" type { tensor_type { elem_type: 1 shape { } } } }
  output { name: "f16" type { tensor_type { elem_type: 10 shape { dim { dim_value: 2 } } } } }
  output { name: "bf16" type { tensor_type { elem_type: 16 shape { dim { dim_value: 2 } } } } }
  output { name: "f64" type { tensor_type { elem_type: 11 shape { dim { dim_value: 2 } } } } }
  output { name: "i8" type { tensor_type { elem_type: 3 shape { dim { dim_value: 2 } } } } }
  output { name: "u8" type { tensor_type { elem_type: 2 shape { dim { dim_value: 2 } } } } }
  output { name: "i16" type { tensor_type { elem_type: 5 shape { dim { dim_value: 2 } } } } }
  output { name: "u16" type { tensor_type { elem_type: 4 shape { dim { dim_value: 2 } } } } }
  output { name: "i32" type { tensor_type { elem_type: 6 shape { dim { dim_value: 2 } } } } }
  output { name: "u32" type { tensor_type { elem_type: 12 shape { dim { dim_value: 2 } } } } }
  output { name: "i64" type { tensor_type { elem_type: 7 shape { dim { dim_value: 2 } } } } }
  output { name: "u64" type { tensor_type { elem_type: 13 shape { dim { dim_value: 2 } } } } }
  output { name: "bool_raw" type { tensor_type { elem_type: 9 shape { dim { dim_value: 3 } } } } }
  output { name: "bool" type { tensor_type { elem_type: 9 shape { dim { dim_value: 2 } } } } }
  output { name: "empty" type { tensor_type { elem_type: 1 shape { dim { dim_value: 0 } dim { dim_value: 3 } } } } }
}

//--- external.textproto
# EXTERNAL-LABEL: func.func @main
# EXTERNAL-DAG: onnx.Constant dense<[1.000000e+00, -2.000000e+00]> : tensor<2xf32>
# EXTERNAL-DAG: onnx.Constant dense<[7, 8, 9]> : tensor<3xi64>
# MISSING: ext{{/|\\}}model.onnx: error: the ONNX checker rejects the model: Data of TensorProto ( tensor name: w) should be stored in {{.*}}weights.bin, but it doesn't exist or is not accessible.
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "external"
  node { op_type: "Add" input: "x" input: "w" output: "y" }
  initializer { name: "w" data_type: 1 dims: 2 raw_data: "\000\000\200?\000\000\000\300" }
  initializer { name: "k" data_type: 7 dims: 3 int64_data: [7, 8, 9] }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "k" type { tensor_type { elem_type: 7 shape { dim { dim_value: 3 } } } } }
}

//--- external21.textproto
# MISSING21: ext{{/|\\}}model21.onnx: error: node 'y' (Add): initializer 'w': cannot read external data file 'weights21.bin': {{[Nn]}}o such file or directory
ir_version: 8
opset_import { domain: "" version: 21 }
graph {
  name: "external"
  node { op_type: "Add" input: "x" input: "w" output: "y" }
  initializer { name: "w" data_type: 1 dims: 2 raw_data: "\000\000\200?\000\000\000\300" }
  initializer { name: "k" data_type: 7 dims: 3 int64_data: [7, 8, 9] }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "k" type { tensor_type { elem_type: 7 shape { dim { dim_value: 3 } } } } }
}

//--- short.textproto
# SHORT: short.onnx: error: initializer 'w': raw_data holds 4 bytes, the shape needs 8
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "short"
  initializer { name: "w" data_type: 1 dims: 2 raw_data: "\000\000\200?" }
  output { name: "w" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- escape.textproto
# External data names a file beside the model, never one elsewhere (the
# ONNX checker, which stops at opset 17, checks that the file exists).
# ESCAPE: escape.onnx: error: initializer 'w': external data location '../w.bin' must be a relative path inside the model's directory
ir_version: 8
opset_import { domain: "" version: 21 }
graph {
  name: "escape"
  initializer { name: "w" data_type: 1 dims: 2 data_location: EXTERNAL
                external_data { key: "location" value: "../w.bin" } }
  output { name: "w" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

//--- string.textproto
# STRING: string.onnx: error: initializer 's': unsupported element type STRING
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "string"
  initializer { name: "s" data_type: 8 dims: 1 string_data: "text" }
  output { name: "s" type { tensor_type { elem_type: 8 shape { dim { dim_value: 1 } } } } }
}

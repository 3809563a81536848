// Ops whose result sizes the input values decide: NonZero, TopK with a k
// known at run time, Unique and Compress. Inference gives those dimensions
// as `?` (and keeps what it knows: TopK's size from a constant k, Compress's
// from a constant condition, Unique's inverse_indices from the input's
// size); the reference backend computes them.

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/infer.textproto -o %t/infer.onnx
// RUN: onyx-opt %t/infer.onnx | FileCheck %s --check-prefix=INFER
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics

// INFER-LABEL: func.func @main
// INFER: "onnx.NonZero"(%arg0) : (tensor<2x3xf32>) -> tensor<2x?xi64>
// INFER: "onnx.NonZero"(%arg3) : (tensor<f32>) -> tensor<1x?xi64>
// INFER: "onnx.TopK"(%arg0, %arg1) {axis = 1 : si64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
// INFER: "onnx.TopK"(%arg0, %{{.*}}) {largest = 0 : si64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
// INFER: "onnx.Unique"(%arg0) : (tensor<2x3xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
// INFER: "onnx.Unique"(%arg0) {axis = 0 : si64} : (tensor<2x3xf32>) -> (tensor<?x3xf32>, tensor<?xi64>, tensor<2xi64>)
// INFER: "onnx.Compress"(%arg0, %arg2) {axis = 1 : si64} : (tensor<2x3xf32>, tensor<3xi1>) -> tensor<2x?xf32>
// INFER: "onnx.Compress"(%arg0, %{{.*}}) : (tensor<2x3xf32>, tensor<2xi1>) -> tensor<1xf32>

// The reference backend: indices in row-major order, the k largest (or
// smallest) with the lower index first among equal values, unique values
// sorted or in order of first occurrence, slices picked by the condition.
// RUN: onyx-run %t/run.mlir --backend=ref --input=2x3xf32=0,3,1,3,0,2 --input=1xi64=2 --input=3xi1=1,0,1 | FileCheck %s --check-prefix=VALUES
// VALUES:      output 0: tensor<2x4xi64> = [0, 0, 1, 1, 1, 2, 0, 2]
// VALUES-NEXT: output 1: tensor<2x2xf32> = [3, 1, 3, 2]
// VALUES-NEXT: output 2: tensor<2x2xi64> = [1, 2, 0, 2]
// VALUES-NEXT: output 3: tensor<4xf32> = [0, 1, 2, 3]
// VALUES-NEXT: output 4: tensor<4xi64> = [0, 2, 5, 1]
// VALUES-NEXT: output 5: tensor<6xi64> = [0, 3, 1, 3, 0, 2]
// VALUES-NEXT: output 6: tensor<4xi64> = [2, 1, 1, 2]
// VALUES-NEXT: output 7: tensor<4xf32> = [0, 3, 1, 2]
// VALUES-NEXT: output 8: tensor<2x2xf32> = [0, 1, 3, 2]
// Ties: equal values keep the lower index first; k = 0 and all zeros give
// empty results.
// RUN: onyx-run %t/run.mlir --backend=ref --input=2x3xf32=5,5,5,0,0,0 --input=1xi64=0 --input=3xi1=0,0,0 | FileCheck %s --check-prefix=EMPTY
// EMPTY:      output 0: tensor<2x3xi64> = [0, 0, 0, 0, 1, 2]
// EMPTY-NEXT: output 1: tensor<2x0xf32> = []
// EMPTY:      output 3: tensor<2xf32> = [0, 5]
// EMPTY:      output 7: tensor<2xf32> = [5, 0]
// EMPTY:      output 8: tensor<2x0xf32> = []

// A k out of range and a condition longer than the dimension are errors
// at the op.
// RUN: not onyx-run %t/run.mlir --backend=ref --input=2x3xf32=1 --input=1xi64=4 --input=3xi1=1,0,1 2>&1 | FileCheck %s --check-prefix=BIG-K
// BIG-K: run.mlir:2:12: error: 'onnx.TopK' op operand 'K' is 4, larger than the dimension it selects from (3)
// RUN: not onyx-run %t/run.mlir --backend=ref --input=2x3xf32=1 --input=1xi64=-1 --input=3xi1=1,0,1 2>&1 | FileCheck %s --check-prefix=NEG-K
// NEG-K: run.mlir:2:12: error: 'onnx.TopK' op operand 'K' is -1, a negative count
// RUN: not onyx-run %t/compress.mlir --backend=ref --input=3xf32=1 --input=4xi1=1 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: compress.mlir:2:8: error: 'onnx.Compress' op operand 'condition' has 4 entries, more than the dimension it selects from (3)
// The size of a data-dependent result counts against the memory budget.
// RUN: not onyx-run %t/compress.mlir --backend=ref --input=300xf32=1 --input=300xi1=1 --max-memory=1K 2>&1 | FileCheck %s --check-prefix=BUDGET
// BUDGET: compress.mlir:2:8: error: 'onnx.Compress' op result #0 (tensor<300xf32>) needs 1200 bytes; with 0 bytes of tensors live, that exceeds the memory budget of 1024 bytes (--max-memory)

//--- infer.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "data-dependent"
  node { name: "nz" op_type: "NonZero" input: "x" output: "nz" }
  node { name: "nzs" op_type: "NonZero" input: "s" output: "nzs" }
  node { name: "topk" op_type: "TopK" input: "x" input: "k" output: "v" output: "i"
         attribute { name: "axis" type: INT i: 1 } }
  node { name: "two" op_type: "Constant" output: "two"
         attribute { name: "value" type: TENSOR t { dims: 1 data_type: 7 int64_data: 2 } } }
  node { name: "topk2" op_type: "TopK" input: "x" input: "two" output: "v2" output: "i2"
         attribute { name: "largest" type: INT i: 0 } }
  node { name: "unique" op_type: "Unique" input: "x" output: "u" output: "ui" output: "uinv" output: "uc" }
  node { name: "unique_axis" op_type: "Unique" input: "x" output: "ua" output: "" output: "uainv"
         attribute { name: "axis" type: INT i: 0 } }
  node { name: "compress" op_type: "Compress" input: "x" input: "c" output: "cp"
         attribute { name: "axis" type: INT i: 1 } }
  node { name: "cond" op_type: "Constant" output: "cc"
         attribute { name: "value" type: TENSOR t { dims: 2 data_type: 9 int32_data: 0 int32_data: 1 } } }
  node { name: "compress2" op_type: "Compress" input: "x" input: "cc" output: "cp2" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
  input { name: "k" type { tensor_type { elem_type: 7 shape { dim { dim_value: 1 } } } } }
  input { name: "c" type { tensor_type { elem_type: 9 shape { dim { dim_value: 3 } } } } }
  input { name: "s" type { tensor_type { elem_type: 1 shape { } } } }
  output { name: "nz" type { tensor_type { elem_type: 7 shape { dim { dim_param: "nz0" } dim { dim_param: "nz1" } } } } }
  output { name: "nzs" type { tensor_type { elem_type: 7 shape { dim { dim_param: "nzs0" } dim { dim_param: "nzs1" } } } } }
  output { name: "v" type { tensor_type { elem_type: 1 shape { dim { dim_param: "v0" } dim { dim_param: "v1" } } } } }
  output { name: "v2" type { tensor_type { elem_type: 1 shape { dim { dim_param: "v20" } dim { dim_param: "v21" } } } } }
  output { name: "u" type { tensor_type { elem_type: 1 shape { dim { dim_param: "u0" } } } } }
  output { name: "uinv" type { tensor_type { elem_type: 7 shape { dim { dim_param: "uinv0" } } } } }
  output { name: "ua" type { tensor_type { elem_type: 1 shape { dim { dim_param: "ua0" } dim { dim_param: "ua1" } } } } }
  output { name: "uainv" type { tensor_type { elem_type: 7 shape { dim { dim_param: "uainv0" } } } } }
  output { name: "cp" type { tensor_type { elem_type: 1 shape { dim { dim_param: "cp0" } dim { dim_param: "cp1" } } } } }
  output { name: "cp2" type { tensor_type { elem_type: 1 shape { dim { dim_param: "cp20" } } } } }
}

//--- invalid.mlir
func.func @topk_k_too_large(%x: tensor<2x3xf32>) -> tensor<2x?xf32> {
  %k = onnx.Constant dense<4> : tensor<1xi64>
  // expected-error @+1 {{'onnx.TopK' op operand 'K' is 4, larger than the dimension it selects from (3)}}
  %v, %i = "onnx.TopK"(%x, %k) : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return %v : tensor<2x?xf32>
}

// -----

func.func @topk_k_not_one_value(%x: tensor<2x3xf32>, %k: tensor<2xi64>) -> tensor<2x?xf32> {
  // expected-error @+1 {{'onnx.TopK' op operand 'K' must be a tensor of one i64, got tensor<2xi64>}}
  %v, %i = "onnx.TopK"(%x, %k) : (tensor<2x3xf32>, tensor<2xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return %v : tensor<2x?xf32>
}

// -----

func.func @topk_axis(%x: tensor<2x3xf32>, %k: tensor<1xi64>) -> tensor<2x?xf32> {
  // expected-error @+1 {{'onnx.TopK' op axis 2 is out of range for rank 2}}
  %v, %i = "onnx.TopK"(%x, %k) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return %v : tensor<2x?xf32>
}

// -----

func.func @nonzero_rank(%x: tensor<2x3xf32>) -> tensor<4xi64> {
  // expected-error @+1 {{'onnx.NonZero' op result #0 has type tensor<4xi64>, but the operands give tensor<2x?xi64>}}
  %0 = "onnx.NonZero"(%x) : (tensor<2x3xf32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @compress_condition_type(%x: tensor<3xf32>, %c: tensor<3xi64>) -> tensor<?xf32> {
  // expected-error @+1 {{'onnx.Compress' op operand 'condition' must be a 1-D tensor of i1, got tensor<3xi64>}}
  %0 = "onnx.Compress"(%x, %c) : (tensor<3xf32>, tensor<3xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @compress_condition_too_long(%x: tensor<2x3xf32>, %c: tensor<4xi1>) -> tensor<2x?xf32> {
  // expected-error @+1 {{'onnx.Compress' op operand 'condition' has 4 entries, more than the dimension it selects from (3)}}
  %0 = "onnx.Compress"(%x, %c) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<4xi1>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

func.func @unique_axis(%x: tensor<2x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{'onnx.Unique' op axis -3 is out of range for rank 2}}
  %u, %i, %inv, %c = "onnx.Unique"(%x) {axis = -3 : i64} : (tensor<2x3xf32>) -> (tensor<?x3xf32>, tensor<?xi64>, tensor<2xi64>, tensor<?xi64>)
  return %u : tensor<?x3xf32>
}

//--- run.mlir
func.func @main(%x: tensor<2x3xf32>, %k: tensor<1xi64>, %c: tensor<3xi1>) -> (tensor<2x?xi64>, tensor<2x?xf32>, tensor<2x?xi64>, tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>, tensor<?xf32>, tensor<2x?xf32>) {
  %v, %i = "onnx.TopK"(%x, %k) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  %nz = "onnx.NonZero"(%x) : (tensor<2x3xf32>) -> tensor<2x?xi64>
  %u, %ui, %uinv, %uc = "onnx.Unique"(%x) : (tensor<2x3xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
  %un, %uni, %uninv, %unc = "onnx.Unique"(%x) {sorted = 0 : i64} : (tensor<2x3xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
  %cp = "onnx.Compress"(%x, %c) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xi1>) -> tensor<2x?xf32>
  return %nz, %v, %i, %u, %ui, %uinv, %uc, %un, %cp : tensor<2x?xi64>, tensor<2x?xf32>, tensor<2x?xi64>, tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>, tensor<?xf32>, tensor<2x?xf32>
}

//--- compress.mlir
func.func @main(%x: tensor<?xf32>, %c: tensor<?xi1>) -> tensor<?xf32> {
  %0 = "onnx.Compress"(%x, %c) : (tensor<?xf32>, tensor<?xi1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

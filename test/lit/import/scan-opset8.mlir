// Scan before opset 9 has a batch axis first on every state and scan input
// (the scan inputs scan axis 1) and an optional sequence_lens first. Each
// batch element becomes a Scan of opset 9's form on its slices, stacked
// again: both backends run it (Vulkan unrolls each element's Scan).
// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/batch2.textproto -o %t/batch2.onnx
// RUN: onyx-opt %t/batch2.onnx | FileCheck %s --check-prefix=IR
// RUN: onyx-run %t/batch2.onnx --backend=ref --input=2x2xf32=0,0,100,100 \
// RUN:   --input=2x3x2xf32=1,2,3,4,5,6,10,20,30,40,50,60 --expected-output=2x2xf32=9,12,190,220 \
// RUN:   --expected-output=2x3x2xf32=5,6,8,10,9,12,150,160,180,200,190,220 | FileCheck %s --check-prefix=OUT
// RUN: onyx-run %t/batch2.onnx --validate --input=2x2xf32=0,0,100,100 \
// RUN:   --input=2x3x2xf32=1,2,3,4,5,6,10,20,30,40,50,60 --expected-output=2x2xf32=9,12,190,220 \
// RUN:   --expected-output=2x3x2xf32=5,6,8,10,9,12,150,160,180,200,190,220 | FileCheck %s --check-prefix=OUT

// IR:      "onnx.Gather"({{.*}}) : (tensor<2x3x2xf32>, tensor<i64>) -> tensor<3x2xf32>
// IR:      "onnx.Scan"
// IR:      {num_scan_inputs = 1 : si64, scan_input_directions = [1]} : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>)
// IR:      "onnx.Scan"
// IR:      "onnx.Concat"({{.*}}) {axis = 0 : si64} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
// IR:      "onnx.Concat"({{.*}}) {axis = 0 : si64} : (tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> tensor<2x3x2xf32>

// Each element sums its rows from the last: 5,6 then 8,10 then 9,12; the
// scan outputs are in the order of the iterations.
// OUT:     PASS
// OUT:     PASS
// OUT-NOT: FAIL

// A sequence_lens of the full length for every element is the plain scan.
// RUN: onnx-txt2pb %t/full-lens.textproto -o %t/full-lens.onnx
// RUN: onyx-run %t/full-lens.onnx --backend=ref --input=1x2xf32=0,0 \
// RUN:   --input=1x3x2xf32=1,2,3,4,5,6 | FileCheck %s --check-prefix=FULL
// FULL:      output 0: tensor<1x2xf32> = [9, 12]
// FULL-NEXT: output 1: tensor<1x3x2xf32> = [1, 2, 4, 6, 9, 12]

// sequence_lens gives each element its own length: element 0 scans its
// first 2 rows (from the last of them: 3,4 then 4,6) and its scan output is
// zero after them, element 1 all 3 rows.
// RUN: onnx-txt2pb %t/short-lens.textproto -o %t/short-lens.onnx
// RUN: onyx-run %t/short-lens.onnx --backend=ref --input=2x2xf32=0,0,100,100 \
// RUN:   --input=2x3x2xf32=1,2,3,4,5,6,10,20,30,40,50,60 --expected-output=2x2xf32=4,6,190,220 \
// RUN:   --expected-output=2x3x2xf32=3,4,4,6,0,0,150,160,180,200,190,220 | FileCheck %s --check-prefix=OUT
// RUN: onyx-run %t/short-lens.onnx --validate --input=2x2xf32=0,0,100,100 \
// RUN:   --input=2x3x2xf32=1,2,3,4,5,6,10,20,30,40,50,60 --expected-output=2x2xf32=4,6,190,220 \
// RUN:   --expected-output=2x3x2xf32=3,4,4,6,0,0,150,160,180,200,190,220 | FileCheck %s --check-prefix=OUT

// Lengths given at run time, or outside [0, the scan inputs' length], are
// refused.
// RUN: onnx-txt2pb %t/input-lens.textproto -o %t/input-lens.onnx
// RUN: not onyx-opt %t/input-lens.onnx 2>&1 | FileCheck %s --check-prefix=INPUT
// INPUT: error: node 'scan' (Scan): Scan (opset 8) with a sequence_lens known only at run time is not supported; it must be a constant (an initializer)
// RUN: onnx-txt2pb %t/long-lens.textproto -o %t/long-lens.onnx
// RUN: not onyx-opt %t/long-lens.onnx 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: error: node 'scan' (Scan): Scan (opset 8) sequence_lens[0] is 4, outside [0, 3], the scan inputs' length

// The batch is split when importing, so its size must be known then.
// RUN: onnx-txt2pb %t/dynamic-batch.textproto -o %t/dynamic-batch.onnx
// RUN: not onyx-opt %t/dynamic-batch.onnx 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: error: node 'scan' (Scan): Scan (opset 8) needs a batch size of at least 1 known when importing, to scan each batch element
// RUN: onyx-opt %t/dynamic-batch.onnx --bind-dims=b=1 | FileCheck %s --check-prefix=BOUND
// BOUND: "onnx.Scan"

// A scan input without a sequence axis after its batch axis.
// RUN: onnx-txt2pb %t/rank1.textproto -o %t/rank1.onnx
// RUN: not onyx-opt %t/rank1.onnx 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: error: node 'scan' (Scan): Scan (opset 8) scan input #0 must have rank 2 or more (a batch axis first), got tensor<3xf32>

//--- batch2.textproto
ir_version: 4
opset_import { domain: "" version: 8 }
graph {
  name: "batch2"
  node { name: "scan" op_type: "Scan" input: "" input: "init" input: "xs" output: "last" output: "ys"
    attribute { name: "num_scan_inputs" type: INT i: 1 }
    attribute { name: "directions" type: INTS ints: 1 }
    attribute { name: "body" type: GRAPH g {
      name: "body"
      node { name: "acc" op_type: "Add" input: "s" input: "x" output: "s2" }
      node { name: "copy" op_type: "Identity" input: "s2" output: "y" }
      input { name: "s" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } }
      output { name: "y" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "init" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 2 } } } } }
  input { name: "xs" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
  output { name: "last" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 2 } } } } }
  output { name: "ys" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
}

//--- full-lens.textproto
ir_version: 4
opset_import { domain: "" version: 8 }
graph {
  name: "full_lens"
  initializer { name: "lens" data_type: 7 dims: 1 int64_data: 3 }
  node { name: "scan" op_type: "Scan" input: "lens" input: "init" input: "xs" output: "last" output: "ys"
    attribute { name: "num_scan_inputs" type: INT i: 1 }
    attribute { name: "body" type: GRAPH g {
      name: "body"
      node { name: "acc" op_type: "Add" input: "s" input: "x" output: "s2" }
      node { name: "copy" op_type: "Identity" input: "s2" output: "y" }
      input { name: "s" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } }
      output { name: "y" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "init" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 2 } } } } }
  input { name: "xs" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
  output { name: "last" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 2 } } } } }
  output { name: "ys" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
}

//--- short-lens.textproto
ir_version: 4
opset_import { domain: "" version: 8 }
graph {
  name: "short_lens"
  initializer { name: "lens" data_type: 7 dims: 2 int64_data: 2 int64_data: 3 }
  node { name: "scan" op_type: "Scan" input: "lens" input: "init" input: "xs" output: "last" output: "ys"
    attribute { name: "num_scan_inputs" type: INT i: 1 }
    attribute { name: "directions" type: INTS ints: 1 }
    attribute { name: "body" type: GRAPH g {
      name: "body"
      node { name: "acc" op_type: "Add" input: "s" input: "x" output: "s2" }
      node { name: "copy" op_type: "Identity" input: "s2" output: "y" }
      input { name: "s" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } }
      output { name: "y" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "init" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 2 } } } } }
  input { name: "xs" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
  output { name: "last" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 2 } } } } }
  output { name: "ys" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
}

//--- long-lens.textproto
ir_version: 4
opset_import { domain: "" version: 8 }
graph {
  name: "long_lens"
  initializer { name: "lens" data_type: 7 dims: 1 int64_data: 4 }
  node { name: "scan" op_type: "Scan" input: "lens" input: "init" input: "xs" output: "last" output: "ys"
    attribute { name: "num_scan_inputs" type: INT i: 1 }
    attribute { name: "body" type: GRAPH g {
      name: "body"
      node { name: "acc" op_type: "Add" input: "s" input: "x" output: "s2" }
      input { name: "s" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "init" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 2 } } } } }
  input { name: "xs" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
  output { name: "last" type { tensor_type { elem_type: 1 shape { dim { dim_param: "b" } dim { dim_value: 2 } } } } }
  output { name: "ys" type { tensor_type { elem_type: 1 shape { dim { dim_param: "b" } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
}

//--- input-lens.textproto
ir_version: 4
opset_import { domain: "" version: 8 }
graph {
  name: "input_lens"
  node { name: "scan" op_type: "Scan" input: "lens" input: "init" input: "xs" output: "last" output: "ys"
    attribute { name: "num_scan_inputs" type: INT i: 1 }
    attribute { name: "body" type: GRAPH g {
      name: "body"
      node { name: "acc" op_type: "Add" input: "s" input: "x" output: "s2" }
      input { name: "s" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "lens" type { tensor_type { elem_type: 6 shape { dim { dim_value: 1 } } } } }
  input { name: "init" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 2 } } } } }
  input { name: "xs" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
  output { name: "last" type { tensor_type { elem_type: 1 shape { dim { dim_param: "b" } dim { dim_value: 2 } } } } }
  output { name: "ys" type { tensor_type { elem_type: 1 shape { dim { dim_param: "b" } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
}

//--- dynamic-batch.textproto
ir_version: 4
opset_import { domain: "" version: 8 }
graph {
  name: "dynamic_batch"
  node { name: "scan" op_type: "Scan" input: "" input: "init" input: "xs" output: "last" output: "ys"
    attribute { name: "num_scan_inputs" type: INT i: 1 }
    attribute { name: "body" type: GRAPH g {
      name: "body"
      node { name: "acc" op_type: "Add" input: "s" input: "x" output: "s2" }
      input { name: "s" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "init" type { tensor_type { elem_type: 1 shape { dim { dim_param: "b" } dim { dim_value: 2 } } } } }
  input { name: "xs" type { tensor_type { elem_type: 1 shape { dim { dim_param: "b" } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
  output { name: "last" type { tensor_type { elem_type: 1 shape { dim { dim_param: "b" } dim { dim_value: 2 } } } } }
  output { name: "ys" type { tensor_type { elem_type: 1 shape { dim { dim_param: "b" } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
}

//--- rank1.textproto
ir_version: 4
opset_import { domain: "" version: 8 }
graph {
  name: "rank1"
  node { name: "scan" op_type: "Scan" input: "" input: "init" input: "xs" output: "last" output: "ys"
    attribute { name: "num_scan_inputs" type: INT i: 1 }
    attribute { name: "body" type: GRAPH g {
      name: "body"
      node { name: "acc" op_type: "Add" input: "s" input: "x" output: "s2" }
      input { name: "s" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      input { name: "x" type { tensor_type { elem_type: 1 shape { } } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "init" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  input { name: "xs" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } } } } }
  output { name: "last" type { tensor_type { elem_type: 1 shape { dim { dim_param: "b" } dim { dim_value: 2 } } } } }
  output { name: "ys" type { tensor_type { elem_type: 1 shape { dim { dim_param: "b" } dim { dim_value: 3 } dim { dim_value: 2 } } } } }
}

// If, Loop and Scan import with their subgraphs as regions ending in
// onnx.Yield. A subgraph reads values of the graphs around it by name
// (outer-scope capture): the ops in the region use them directly.
// Initializers of an enclosing graph become constants in that graph's
// block. Subgraphs nest. The reference backend runs the regions.

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/if.textproto -o %t/if.onnx
// RUN: onyx-opt %t/if.onnx | FileCheck %s --check-prefix=IF
// RUN: onyx-opt %t/if.onnx --print-generic | mlir-opt --allow-unregistered-dialect \
// RUN:   | FileCheck %s --check-prefix=MLIR
// RUN: onyx-run %t/if.onnx --backend=ref --input=i1=true --input=2xf32=1,-2 \
// RUN:   | FileCheck %s --check-prefix=IF-TRUE
// RUN: onyx-run %t/if.onnx --backend=ref --input=i1=false --input=2xf32=1,-2 \
// RUN:   | FileCheck %s --check-prefix=IF-FALSE

// The branches yield [2] and [3]: the result is `?`. The then branch reads
// %x of the main graph and the initializer `w` of the main graph, which
// becomes a constant there; the else branch's nested If reads %x too.
// IF-LABEL: func.func @main
// IF-SAME:    ([[C:%.+]]: tensor<i1> {onnx.name = "c"}, [[X:%.+]]: tensor<2xf32> {onnx.name = "x"})
// IF:         [[W:%.+]] = onnx.Constant dense<[1.000000e+01, 2.000000e+01]> : tensor<2xf32>
// IF:         [[R:%.+]] = "onnx.If"([[C]]) ({
// IF-NEXT:      [[A:%.+]] = "onnx.Add"([[X]], [[W]])
// IF-NEXT:      "onnx.Yield"([[A]]) : (tensor<2xf32>) -> ()
// IF-NEXT:    }, {
// IF:           [[N:%.+]] = "onnx.If"([[C]]) ({
// IF-NEXT:        [[NEG:%.+]] = "onnx.Neg"([[X]])
// IF:           "onnx.Yield"({{.*}}) : (tensor<3xf32>) -> ()
// IF-NEXT:    }) : (tensor<i1>) -> tensor<?xf32>
// IF:         return [[R]] : tensor<?xf32>

// MLIR: "onnx.If"
// MLIR: "onnx.Yield"

// IF-TRUE: output 0: tensor<2xf32> = [11, 18]
// IF-FALSE: output 0: tensor<3xf32> = [1, -2, 0]

// A Loop whose body reads the outer %x, carries a sum and a value whose
// size grows (imported with `?` once the body shows it changes), and
// produces a scan output stacked along a new first axis.
// RUN: onnx-txt2pb %t/loop.textproto -o %t/loop.onnx
// RUN: onyx-opt %t/loop.onnx | FileCheck %s --check-prefix=LOOP
// RUN: onyx-run %t/loop.onnx --backend=ref --input=2xf32=1,2 | FileCheck %s --check-prefix=LOOPOUT
// LOOP:      "onnx.Loop"({{.*}}) ({
// LOOP-NEXT: ^bb0({{%.+}}: tensor<i64>, {{%.+}}: tensor<i1>, {{%.+}}: tensor<2xf32>, {{%.+}}: tensor<?xf32>):
// LOOP:      }) : (tensor<i64>, none, tensor<2xf32>, tensor<1xf32>) -> (tensor<2xf32>, tensor<?xf32>, tensor<3x2xf32>)
// LOOPOUT:      output 0: tensor<2xf32> = [3, 6]
// LOOPOUT-NEXT: output 1: tensor<8xf32> = [0, 0, 0, 0, 0, 0, 0, 0]
// LOOPOUT-NEXT: output 2: tensor<3x2xf32> = [1, 2, 2, 4, 3, 6]

// A while loop (a condition, no trip count) that stops when the
// carried counter reaches 5; its scan output's length is `?`.
// RUN: onnx-txt2pb %t/while.textproto -o %t/while.onnx
// RUN: onyx-opt %t/while.onnx | FileCheck %s --check-prefix=WHILE
// RUN: onyx-run %t/while.onnx --backend=ref --input=i64=0 | FileCheck %s --check-prefix=WHILEOUT
// WHILE:      (none, tensor<i1>, tensor<i64>) -> (tensor<i64>, tensor<?xi64>)
// WHILEOUT:      output 0: tensor<i64> = [5]
// WHILEOUT-NEXT: output 1: tensor<5xi64> = [1, 2, 3, 4, 5]

// Scan with a reversed input and an output stacked along axis 1.
// RUN: onnx-txt2pb %t/scan.textproto -o %t/scan.onnx
// RUN: onyx-opt %t/scan.onnx | FileCheck %s --check-prefix=SCAN
// RUN: onyx-run %t/scan.onnx --backend=ref --input=2xf32=0,0 --input=3x2xf32=1,2,3,4,5,6 \
// RUN:   | FileCheck %s --check-prefix=SCANOUT
// SCAN:      "onnx.Scan"({{.*}}) ({
// SCAN-NEXT: ^bb0({{%.+}}: tensor<2xf32>, {{%.+}}: tensor<2xf32>):
// SCAN:      }) {num_scan_inputs = 1 : si64, scan_input_directions = [1], scan_output_axes = [1]} : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
// SCANOUT:      output 0: tensor<2xf32> = [9, 12]
// SCANOUT-NEXT: output 1: tensor<2x3xf32> = [5, 8, 9, 6, 10, 12]

// A condition known while importing takes its branch: no onnx.If.
// RUN: onnx-txt2pb %t/const.textproto -o %t/const.onnx
// RUN: onyx-opt %t/const.onnx | FileCheck %s --check-prefix=CONST
// CONST-NOT: onnx.If
// CONST:     "onnx.Neg"
// CONST-NOT: onnx.If

//--- if.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "if"
  initializer { name: "w" data_type: 1 dims: 2 float_data: 10 float_data: 20 }
  node { name: "cond" op_type: "If" input: "c" output: "y"
    attribute { name: "then_branch" type: GRAPH g {
      name: "then"
      node { name: "add" op_type: "Add" input: "x" input: "w" output: "t" }
      output { name: "t" type { tensor_type { elem_type: 1 } } } } }
    attribute { name: "else_branch" type: GRAPH g {
      name: "else"
      initializer { name: "z" data_type: 1 dims: 1 float_data: 0 }
      node { name: "inner" op_type: "If" input: "c" output: "n"
        attribute { name: "then_branch" type: GRAPH g {
          name: "inner_then"
          node { name: "neg" op_type: "Neg" input: "x" output: "ng" }
          output { name: "ng" type { tensor_type { elem_type: 1 } } } } }
        attribute { name: "else_branch" type: GRAPH g {
          name: "inner_else"
          node { name: "id" op_type: "Identity" input: "x" output: "xi" }
          output { name: "xi" type { tensor_type { elem_type: 1 } } } } } }
      node { name: "cat" op_type: "Concat" input: "n" input: "z" output: "e"
        attribute { name: "axis" type: INT i: 0 } }
      output { name: "e" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "c" type { tensor_type { elem_type: 9 shape { } } } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } } } } }
}

//--- loop.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "loop"
  initializer { name: "m" data_type: 7 int64_data: 3 }
  initializer { name: "zero" data_type: 1 dims: 2 float_data: 0 float_data: 0 }
  initializer { name: "seed" data_type: 1 dims: 1 float_data: 0 }
  node { name: "loop" op_type: "Loop" input: "m" input: "" input: "zero" input: "seed"
    output: "sum" output: "grown" output: "partials"
    attribute { name: "body" type: GRAPH g {
      name: "body"
      node { name: "acc" op_type: "Add" input: "s" input: "x" output: "s2" }
      node { name: "pad" op_type: "Concat" input: "g" input: "g" output: "g2"
        attribute { name: "axis" type: INT i: 0 } }
      node { name: "copy" op_type: "Identity" input: "s2" output: "p" }
      node { name: "keep" op_type: "Identity" input: "cin" output: "cout" }
      input { name: "i" type { tensor_type { elem_type: 7 shape { } } } }
      input { name: "cin" type { tensor_type { elem_type: 9 shape { } } } }
      input { name: "s" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      input { name: "g" type { tensor_type { elem_type: 1 shape { dim { dim_param: "len" } } } } }
      output { name: "cout" type { tensor_type { elem_type: 9 } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } }
      output { name: "g2" type { tensor_type { elem_type: 1 } } }
      output { name: "p" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "sum" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "grown" type { tensor_type { elem_type: 1 shape { dim { dim_param: "g" } } } } }
  output { name: "partials" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } dim { dim_value: 2 } } } } }
}

//--- while.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "while"
  initializer { name: "go" data_type: 9 int32_data: 1 }
  initializer { name: "one" data_type: 7 int64_data: 1 }
  initializer { name: "five" data_type: 7 int64_data: 5 }
  node { name: "loop" op_type: "Loop" input: "" input: "go" input: "start"
    output: "end" output: "seen"
    attribute { name: "body" type: GRAPH g {
      name: "body"
      node { name: "inc" op_type: "Add" input: "v" input: "one" output: "v2" }
      node { name: "test" op_type: "Less" input: "v2" input: "five" output: "more" }
      node { name: "copy" op_type: "Identity" input: "v2" output: "v3" }
      input { name: "i" type { tensor_type { elem_type: 7 shape { } } } }
      input { name: "c" type { tensor_type { elem_type: 9 shape { } } } }
      input { name: "v" type { tensor_type { elem_type: 7 shape { } } } }
      output { name: "more" type { tensor_type { elem_type: 9 } } }
      output { name: "v2" type { tensor_type { elem_type: 7 } } }
      output { name: "v3" type { tensor_type { elem_type: 7 } } } } } }
  input { name: "start" type { tensor_type { elem_type: 7 shape { } } } }
  output { name: "end" type { tensor_type { elem_type: 7 shape { } } } }
  output { name: "seen" type { tensor_type { elem_type: 7 shape { dim { dim_param: "k" } } } } }
}

//--- scan.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "scan"
  node { name: "scan" op_type: "Scan" input: "init" input: "xs" output: "last" output: "ys"
    attribute { name: "num_scan_inputs" type: INT i: 1 }
    attribute { name: "scan_input_directions" type: INTS ints: 1 }
    attribute { name: "scan_output_axes" type: INTS ints: 1 }
    attribute { name: "body" type: GRAPH g {
      name: "body"
      node { name: "acc" op_type: "Add" input: "s" input: "x" output: "s2" }
      node { name: "copy" op_type: "Identity" input: "s2" output: "y" }
      input { name: "s" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      output { name: "s2" type { tensor_type { elem_type: 1 } } }
      output { name: "y" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "init" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  input { name: "xs" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } dim { dim_value: 2 } } } } }
  output { name: "last" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "ys" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 3 } } } } }
}

//--- const.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "const"
  initializer { name: "c" data_type: 9 int32_data: 1 }
  node { name: "cond" op_type: "If" input: "c" output: "y"
    attribute { name: "then_branch" type: GRAPH g {
      name: "then"
      node { name: "neg" op_type: "Neg" input: "x" output: "t" }
      output { name: "t" type { tensor_type { elem_type: 1 } } } } }
    attribute { name: "else_branch" type: GRAPH g {
      name: "else"
      node { name: "id" op_type: "Identity" input: "x" output: "e" }
      output { name: "e" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
}

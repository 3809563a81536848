// --max-dims: the tensors the runtime places (those whose sizes the run's
// dims decide) are planned once, for the declared largest dims, so that runs
// at any shape within them place nothing again (the `placements` count stays
// at the plan's one) and the arena does not grow; a run above a bound is an
// error naming the dimension. Without it, each new shape is placed anew.

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/model.textproto -o %t/model.onnx
// RUN: onyx-run %t/model.onnx --validate --check --profile --max-dims=N=2,S=8 \
// RUN:   --input-set='1x3x4xf32=1' --input-set='2x8x4xf32=-1' --input-set='1x1x4xf32=2' \
// RUN:   | FileCheck %s --check-prefix=PLANNED
// RUN: onyx-run %t/model.onnx --validate --check --profile \
// RUN:   --input-set='1x3x4xf32=1' --input-set='2x8x4xf32=-1' --input-set='1x1x4xf32=2' \
// RUN:   | FileCheck %s --check-prefix=UNPLANNED
// RUN: not onyx-run %t/model.onnx --max-dims=N=2,S=8 \
// RUN:   --input-set='1x3x4xf32=1' --input-set='1x9x4xf32=1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ABOVE
// RUN: not onyx-run %t/model.onnx --max-dims=S=8 --input-set='1x3x4xf32=1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// RUN: not onyx-run %t/model.onnx --max-dims=N=2,S=8,Q=3 --input-set='1x3x4xf32=1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN
// RUN: not onyx-run %t/model.onnx --max-dims=N=2,S=8 --input=1x3x4xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SINGLE
// RUN: not onyx-run %t/model.onnx --max-dims=N=2,S=x --input-set='1x3x4xf32=1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SYNTAX

// A size that shrinks as a dim grows (10 - S) is planned at the bound; a
// run that needs more than was planned places it above the planned
// tensors, as a size that argument values decide.
// RUN: onnx-txt2pb %t/shrinking.textproto -o %t/shrinking.onnx
// RUN: onyx-run %t/shrinking.onnx --max-dims=S=8 --input-set='8xf32=1' \
// RUN:   --input-set='3xf32=1' --check --profile 2>&1 | FileCheck %s --check-prefix=SHRINK
// SHRINK: input set 0:
// SHRINK: output 0: tensor<2xf32> = [2, 2]
// SHRINK: work: {{.*}}, 1 placements
// SHRINK: input set 1:
// SHRINK: output 0: tensor<7xf32> = [2, 2, 2, 2, 2, 2, 2]
// SHRINK: work: {{.*}}, 2 placements

// A model whose sizes also depend on argument values (a Reshape to a shape
// the user gives): the tensors the dims decide are planned, the others
// placed per run above them.
// RUN: onyx-run %models/dynamic_shapes.onnx --validate --check --max-dims=B=3,S=5 \
// RUN:   --input-set='@%models/dynamic_shapes.case0.input_0.npy;@%models/dynamic_shapes.case0.input_1.npy' \
// RUN:   --input-set='@%models/dynamic_shapes.case1.input_0.npy;@%models/dynamic_shapes.case1.input_1.npy' \
// RUN:   --input-set='@%models/dynamic_shapes.case2.input_0.npy;@%models/dynamic_shapes.case2.input_1.npy' \
// RUN:   | FileCheck %s --check-prefix=VALUES

// PLANNED: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// PLANNED: vs ref: {{.*}}: PASS
// PLANNED: work: {{.*}}, 1 recordings made ({{[0-9]+}} us), 0 reused, 1 placements
// PLANNED: runtime arena: [[ARENA:[0-9]+]] bytes
// PLANNED: input set 1:
// PLANNED: vs ref: {{.*}}: PASS
// PLANNED: work: {{.*}}, 2 recordings made ({{[0-9]+}} us), 0 reused, 1 placements
// PLANNED: runtime arena: [[ARENA]] bytes
// PLANNED: input set 2:
// PLANNED: vs ref: {{.*}}: PASS
// PLANNED: work: {{.*}}, 3 recordings made ({{[0-9]+}} us), 0 reused, 1 placements
// PLANNED: runtime arena: [[ARENA]] bytes
// PLANNED-NOT: FAIL

// UNPLANNED: work: {{.*}}, 1 recordings made ({{[0-9]+}} us), 0 reused, 1 placements
// UNPLANNED: work: {{.*}}, 2 recordings made ({{[0-9]+}} us), 0 reused, 2 placements
// UNPLANNED: work: {{.*}}, 3 recordings made ({{[0-9]+}} us), 0 reused, 3 placements

// ABOVE: model.onnx: error: dimension 'S' is 9 in this run (dimension 1 of argument #0), above its declared maximum 8
// MISSING: error: --max-dims: no bound for 'N' (dimension 0 of input 'x')
// UNKNOWN: error: --max-dims: 'Q' is not a symbolic dimension of the model's inputs (or --bind-dims binds it)
// SINGLE: error: --max-dims applies to --input-set runs of an ONNX model on Vulkan
// SYNTAX: error: --max-dims:

// VALUES-COUNT-3: input set {{[0-9]}}: run {{.*}}, 0 kernels compiled, 0 pipelines created
// VALUES-NOT: FAIL

//--- model.textproto
ir_version: 8
opset_import { version: 17 }
graph {
  name: "g"
  node { input: "x" output: "r" op_type: "Relu" }
  node { input: "r" input: "x" output: "c" op_type: "Concat"
    attribute { name: "axis" i: 1 type: INT } }
  node { input: "c" input: "w" output: "m" op_type: "MatMul" }
  node { input: "m" output: "y" op_type: "Softmax"
    attribute { name: "axis" i: -1 type: INT } }
  initializer { name: "w" dims: 4 dims: 4 data_type: 1
    float_data: 1 float_data: 0 float_data: 0.5 float_data: 0
    float_data: 0 float_data: 1 float_data: 0 float_data: -0.5
    float_data: 0.25 float_data: 0 float_data: 1 float_data: 0
    float_data: 0 float_data: 2 float_data: 0 float_data: 1 }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_param: "N" } dim { dim_param: "S" } dim { dim_value: 4 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "N" } dim { dim_param: "S2" } dim { dim_value: 4 } } } } }
}

//--- shrinking.textproto
ir_version: 8
opset_import { version: 17 }
graph {
  name: "g"
  node { input: "x" output: "s" op_type: "Shape" }
  node { input: "ten" input: "s" output: "d" op_type: "Sub" }
  node { input: "d" output: "y" op_type: "ConstantOfShape"
    attribute { name: "value" t { dims: 1 data_type: 1 float_data: 2 } type: TENSOR } }
  initializer { name: "ten" dims: 1 data_type: 7 int64_data: 10 }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_param: "S" } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "R" } } } } }
}

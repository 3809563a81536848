// onyx-run imports a model for the run it is given: dimensions that have
// neither a size nor a name take the sizes of the inputs given for them
// (exporters leave such `?`s), so that a shape test folds; and an If whose
// condition is computed from an input of one element takes its branch while
// importing, so that the branch not taken need not be valid for these
// inputs. Silero VAD's models are of this kind: a branch per sample rate,
// each valid only for audio frames of its rate, and squeezes of a size-1
// time axis exported as Ifs on the shape.

// RUN: split-file %s %t
// RUN: onnx-txt2pb %t/rate.textproto -o %t/rate.onnx
// RUN: onyx-run %t/rate.onnx --backend=ref --input=2x3xf32=1,2,3,4,5,6 --input=i64=16000 \
// RUN:   | FileCheck %s --check-prefix=WIDE
// RUN: onyx-run %t/rate.onnx --validate --input=2x3xf32=1,2,3,4,5,6 --input=i64=16000 \
// RUN:   | FileCheck %s --check-prefix=WIDE
// RUN: onyx-run %t/rate.onnx --backend=ref --input=3x1xf32=1,2,3 --input=i64=16000 \
// RUN:   | FileCheck %s --check-prefix=SQUEEZED
// RUN: onyx-run %t/rate.onnx --validate --input=3x1xf32=1,2,3 --input=i64=16000 \
// RUN:   | FileCheck %s --check-prefix=SQUEEZED
// The other rate takes the branch that is not valid for these inputs: an
// error, as ONNX Runtime gives.
// RUN: not onyx-run %t/rate.onnx --backend=ref --input=2x3xf32=1,2,3,4,5,6 --input=i64=8000 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OTHER
// Several runs in one module (--input-set) decide alike where every set
// agrees: the size of x's unnamed dims and the value of sr.
// RUN: onyx-run %t/rate.onnx --backend=ref --input-set='2x3xf32=1,2,3,4,5,6;i64=16000' \
// RUN:   --input-set='2x3xf32=1,1,1,1,1,1;i64=16000' | FileCheck %s --check-prefix=SETS
// RUN: onyx-run %t/rate.onnx --validate --input-set='2x3xf32=1,2,3,4,5,6;i64=16000' \
// RUN:   --input-set='2x3xf32=1,1,1,1,1,1;i64=16000' | FileCheck %s --check-prefix=SETS
// RUN: onyx-run %t/rate.onnx --validate --input-set='3x1xf32=1,2,3;i64=16000' \
// RUN:   --input-set='3x1xf32=1,1,1;i64=16000' | FileCheck %s --check-prefix=SQUEEZED-SETS
// Sets that disagree leave the If undecided or the dims unbound: the
// import's errors.
// RUN: not onyx-run %t/rate.onnx --backend=ref --input-set='2x3xf32=1,2,3,4,5,6;i64=16000' \
// RUN:   --input-set='2x3xf32=1,1,1,1,1,1;i64=8000' 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: not onyx-run %t/rate.onnx --backend=ref --input-set='2x3xf32=1,2,3,4,5,6;i64=16000' \
// RUN:   --input-set='3x1xf32=1,1,1;i64=16000' 2>&1 | FileCheck %s --check-prefix=UNBOUND
// Without the run's inputs the shape test cannot fold, and its branches
// yield tensors of different ranks.
// RUN: not onyx-opt %t/rate.onnx 2>&1 | FileCheck %s --check-prefix=UNBOUND

// The sum of x, of x squeezed where its last size is 1.
// WIDE:     output 0: tensor<f32> = [21]
// SQUEEZED: output 0: tensor<f32> = [6]
// SETS: input set 0:
// SETS: output 0: tensor<f32> = [21]
// SETS: input set 1:
// SETS: output 0: tensor<f32> = [6]
// SQUEEZED-SETS: input set 0:
// SQUEEZED-SETS: output 0: tensor<f32> = [6]
// SQUEEZED-SETS: input set 1:
// SQUEEZED-SETS: output 0: tensor<f32> = [3]
// OTHER: error: node 'by_rate' (If): node 'narrow' (MatMul)
// UNBOUND: error: node 'squeeze_if_one' (If): output #0 is tensor<?xf32> in then_branch and tensor<?x?xf32> in else_branch

//--- rate.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "rate"
  initializer { name: "rate16k" data_type: 7 int64_data: 16000 }
  initializer { name: "last" data_type: 7 int64_data: -1 }
  initializer { name: "one" data_type: 7 int64_data: 1 }
  initializer { name: "last_axis" data_type: 7 dims: 1 int64_data: -1 }
  initializer { name: "w" data_type: 1 dims: 4 dims: 2 float_data: 1 float_data: 2 float_data: 3 float_data: 4 float_data: 5 float_data: 6 float_data: 7 float_data: 8 }
  node { op_type: "Shape" input: "x" output: "shape" }
  node { op_type: "Gather" input: "shape" input: "last" output: "size" }
  node { op_type: "Equal" input: "size" input: "one" output: "is_one" }
  node { name: "squeeze_if_one" op_type: "If" input: "is_one" output: "s"
    attribute { name: "then_branch" type: GRAPH g {
      name: "squeeze"
      node { op_type: "Squeeze" input: "x" input: "last_axis" output: "sq" }
      output { name: "sq" type { tensor_type { elem_type: 1 } } } } }
    attribute { name: "else_branch" type: GRAPH g {
      name: "keep"
      node { op_type: "Identity" input: "x" output: "kept" }
      output { name: "kept" type { tensor_type { elem_type: 1 } } } } } }
  node { op_type: "ReduceSum" input: "s" output: "total"
    attribute { name: "keepdims" type: INT i: 0 } }
  node { op_type: "Equal" input: "sr" input: "rate16k" output: "is_16k" }
  node { name: "by_rate" op_type: "If" input: "is_16k" output: "y"
    attribute { name: "then_branch" type: GRAPH g {
      name: "wide"
      node { op_type: "Identity" input: "total" output: "same" }
      output { name: "same" type { tensor_type { elem_type: 1 } } } } }
    attribute { name: "else_branch" type: GRAPH g {
      name: "narrow"
      node { name: "narrow" op_type: "MatMul" input: "s" input: "w" output: "product" }
      node { op_type: "ReduceSum" input: "product" output: "product_total"
        attribute { name: "keepdims" type: INT i: 0 } }
      output { name: "product_total" type { tensor_type { elem_type: 1 } } } } } }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { } dim { } } } } }
  input { name: "sr" type { tensor_type { elem_type: 7 shape { } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { } } } }
}

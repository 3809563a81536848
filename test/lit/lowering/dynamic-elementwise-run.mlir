// RUN: onyx-run %s --validate --check --profile \
// RUN:   --input-set='3x4xf32=1,-2,3,4,5,6,7,8,9,10,11,12;3x1xf32=1,2,3' \
// RUN:   --input-set='2x4xf32=1,2,3,4,5,6,7,8;1x1xf32=10' \
// RUN:   --input-set='1x4xf32=1,2,3,4;3x1xf32=1,2,3' \
// RUN:   --input-set='3x4xf32=1,-2,3,4,5,6,7,8,9,10,11,12;3x1xf32=1,2,3' | FileCheck %s
// RUN: onyx-run %s --validate --input=2x4xf32=1,2,3,4,5,6,7,8 --input=1x1xf32=10 \
// RUN:   | FileCheck %s --check-prefix=BOUND
// RUN: onyx-run %s --backend=ref --input-set='1x4xf32=1;1x1xf32=1' | FileCheck %s --check-prefix=REF
// RUN: not onyx-run %s --input=1x4xf32=1 --input-set='1x4xf32=1;1x1xf32=1' 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: not onyx-run %s --input-set='1x4xf32=1' 2>&1 | FileCheck %s --check-prefix=COUNT

// One model with dims known only at run time, lowered and loaded once and
// run at several shapes (broadcasting a `?` that is 1 in some runs): the
// runs compile no kernel and create no pipeline, and a shape seen before
// reuses its recording (the first set is the largest: buffers that grow
// drop the recordings made before).

// CHECK: compile: {{[0-9.]+}} ms (1 kernels compiled), load: {{[0-9.]+}} ms (1 pipelines created)
// CHECK: input set 0: run {{[0-9.]+}} ms (recorded in {{[0-9]+}} us), 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<3x4xf32> = [0, 0, 2, 3, 3, 4, 5, 6, ...]
// CHECK-NEXT: output 0 vs ref: max abs error 0, max rel error 0: PASS
// CHECK: work: 1 kernels compiled, 1 pipelines created, 1 recordings made
// CHECK: input set 1: run {{[0-9.]+}} ms (recorded in {{[0-9]+}} us), 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x4xf32> = [0, 0, 0, 0, 0, 0, 0, 0]
// CHECK-NEXT: output 0 vs ref: {{.*}} PASS
// CHECK: input set 2: run {{[0-9.]+}} ms (recorded in {{[0-9]+}} us), 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<3x4xf32> = [0, 1, 2, 3, 0, 0, 1, 2, ...]
// CHECK-NEXT: output 0 vs ref: {{.*}} PASS
// CHECK: input set 3: run {{[0-9.]+}} ms (recording reused), 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<3x4xf32> = [0, 0, 2, 3, 3, 4, 5, 6, ...]
// CHECK: work: 1 kernels compiled, 1 pipelines created, 3 recordings made ({{[0-9]+}} us), 1 reused

// With --input, @main's `?` take the inputs' sizes before lowering while
// the ops' results keep theirs: sizes the lowering knows are constants.
// BOUND: output 0: tensor<2x4xf32> = [0, 0, 0, 0, 0, 0, 0, 0]

// REF: input set 0:
// REF-NEXT: output 0: tensor<1x4xf32> = [0, 0, 0, 0]

// MIXED: --input-set cannot be combined with --input, --expected-output or --output
// COUNT: input set 0:

func.func @main(%x: tensor<?x4xf32>, %y: tensor<?x1xf32>) -> tensor<?x4xf32> {
  %0 = "onnx.Sub"(%x, %y) : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %1 = "onnx.Relu"(%0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

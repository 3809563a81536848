// A transformer block whose sequence length is `?` (test/models: causal
// attention whose mask is cut from a constant [32, 32] buffer to the
// sequence length) compiled once and run at four lengths in one process
// runs as many dispatches at each length as the block specialized to that
// length (--input binds the dims: every size a literal, the mask a folded
// constant), compiles no kernel and creates no pipeline after the first,
// and matches the reference backend.

// RUN: %python %S/../lowering/Inputs/make_npy.py %t.x1.npy 1 1 1 16
// RUN: %python %S/../lowering/Inputs/make_npy.py %t.x32.npy 2 1 32 16
// RUN: onyx-run %models/transformer_block.onnx --validate --profile \
// RUN:   --input=@%t.x1.npy > %t.spec1
// RUN: onyx-run %models/transformer_block.onnx --validate --profile \
// RUN:   --input=@%models/transformer_block.case1.input_0.npy > %t.spec7
// RUN: onyx-run %models/transformer_block.onnx --validate --profile \
// RUN:   --input=@%models/transformer_block.input_0.npy > %t.spec16
// RUN: onyx-run %models/transformer_block.onnx --validate --profile \
// RUN:   --input=@%t.x32.npy > %t.spec32
// RUN: onyx-run %models/transformer_block.onnx --validate --check --profile \
// RUN:   --rtol=1e-3 --atol=1e-4 \
// RUN:   --input-set=@%t.x1.npy \
// RUN:   --input-set=@%models/transformer_block.case1.input_0.npy \
// RUN:   --input-set=@%models/transformer_block.input_0.npy \
// RUN:   --input-set=@%t.x32.npy > %t.dynamic
// RUN: cat %t.spec1 %t.spec7 %t.spec16 %t.spec32 %t.dynamic | FileCheck %s

// CHECK: output 0: tensor<1x1x16xf32>
// CHECK: profile: [[N1:[0-9]+]] dispatches,
// CHECK: output 0: tensor<1x7x16xf32>
// CHECK: profile: [[N7:[0-9]+]] dispatches,
// CHECK: output 0: tensor<1x16x16xf32>
// CHECK: profile: [[N16:[0-9]+]] dispatches,
// CHECK: output 0: tensor<1x32x16xf32>
// CHECK: profile: [[N32:[0-9]+]] dispatches,

// CHECK: compile: {{.*}} kernels compiled
// CHECK: input set 0: {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK: profile: [[N1]] dispatches,
// CHECK-NOT: @slice
// CHECK: input set 1: {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK: profile: [[N7]] dispatches,
// CHECK-NOT: @slice
// CHECK: input set 2: {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK: profile: [[N16]] dispatches,
// CHECK-NOT: @slice
// CHECK: input set 3: {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK: profile: [[N32]] dispatches,
// CHECK-NOT: @slice

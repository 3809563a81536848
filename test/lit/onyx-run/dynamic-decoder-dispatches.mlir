// The GPT-2-style test decoder (examples/decoders, symbolic batch, seq,
// total and past) compiled once and run at three prompt lengths in one
// process runs as many dispatches at each length as the decoder
// specialized to that length (--input binds the dims: the Ranges of its
// causal mask fold to constants there), compiles no kernel and creates no
// pipeline after the first, and matches the reference backend. Compiled
// once, the mask's Ranges are computed in the kernel that turns the mask
// into the attention's additive bias: no range, shape_value or cast kernel.

// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate --profile \
// RUN:   --input=1x1xi64=5 --input=1x1xi64=1 --input=1x1xi64=0 \
// RUN:   --input=1x4x0x8xf32= --input=1x4x0x8xf32= --input=1x4x0x8xf32= \
// RUN:   --input=1x4x0x8xf32= > %t.spec1
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate --profile \
// RUN:   --input=1x4xi64=5,17,42,8 --input=1x4xi64=1 --input=1x4xi64=0,1,2,3 \
// RUN:   --input=1x4x0x8xf32= --input=1x4x0x8xf32= --input=1x4x0x8xf32= \
// RUN:   --input=1x4x0x8xf32= > %t.spec4
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate --profile \
// RUN:   --input=2x7xi64=5,17,42,8,3,29,11,0,0,0,60,9,33,4 \
// RUN:   --input=2x7xi64=1,1,1,1,1,1,1,0,0,0,1,1,1,1 \
// RUN:   --input=2x7xi64=0,1,2,3,4,5,6,1,1,1,0,1,2,3 \
// RUN:   --input=2x4x0x8xf32= --input=2x4x0x8xf32= --input=2x4x0x8xf32= \
// RUN:   --input=2x4x0x8xf32= > %t.spec7
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate --check --profile \
// RUN:   --rtol=1e-3 --atol=1e-5 \
// RUN:   --input-set='1x1xi64=5;1x1xi64=1;1x1xi64=0;1x4x0x8xf32=;1x4x0x8xf32=;1x4x0x8xf32=;1x4x0x8xf32=' \
// RUN:   --input-set='1x4xi64=5,17,42,8;1x4xi64=1;1x4xi64=0,1,2,3;1x4x0x8xf32=;1x4x0x8xf32=;1x4x0x8xf32=;1x4x0x8xf32=' \
// RUN:   --input-set='2x7xi64=5,17,42,8,3,29,11,0,0,0,60,9,33,4;2x7xi64=1,1,1,1,1,1,1,0,0,0,1,1,1,1;2x7xi64=0,1,2,3,4,5,6,1,1,1,0,1,2,3;2x4x0x8xf32=;2x4x0x8xf32=;2x4x0x8xf32=;2x4x0x8xf32=' \
// RUN:   > %t.dynamic
// RUN: cat %t.spec1 %t.spec4 %t.spec7 %t.dynamic | FileCheck %s

// CHECK: output 0: tensor<1x1x96xf32>
// CHECK: profile: [[N1:[0-9]+]] dispatches,
// CHECK: output 0: tensor<1x4x96xf32>
// CHECK: profile: [[N4:[0-9]+]] dispatches,
// CHECK: output 0: tensor<2x7x96xf32>
// CHECK: profile: [[N7:[0-9]+]] dispatches,

// CHECK: compile: {{.*}} kernels compiled
// CHECK: input set 0: {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-COUNT-5: vs ref: {{.*}}: PASS
// CHECK: profile: [[N1]] dispatches,
// CHECK-NOT: @{{range|shape_value|cast}}
// CHECK: input set 1: {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-COUNT-5: vs ref: {{.*}}: PASS
// CHECK: profile: [[N4]] dispatches,
// CHECK-NOT: @{{range|shape_value|cast}}
// CHECK: input set 2: {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-COUNT-5: vs ref: {{.*}}: PASS
// CHECK: profile: [[N7]] dispatches,
// CHECK-NOT: @{{range|shape_value|cast}}
// CHECK-NOT: FAIL

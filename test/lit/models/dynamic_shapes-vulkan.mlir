// dynamic_shapes.onnx (test/models/gen_dynamic_shapes.py): every size comes
// from the run (x is [B, S, 8], t a shape the user gives), through Shape,
// Slice, Mul, Concat, a data-dependent Reshape, Expand, Reshape to t (0 and
// -1 resolved at run time), Range to S, ConstantOfShape and Shape as an
// output. Lowered once and run at three shapes in one process on the Vulkan
// device with the validation layer, against the reference backend; one
// shape against numpy; and inputs that are wrong only at run time.

// RUN: onyx-run %models/dynamic_shapes.onnx --validate --check \
// RUN:   --input-set='@%models/dynamic_shapes.case0.input_0.npy;@%models/dynamic_shapes.case0.input_1.npy' \
// RUN:   --input-set='@%models/dynamic_shapes.case1.input_0.npy;@%models/dynamic_shapes.case1.input_1.npy' \
// RUN:   --input-set='@%models/dynamic_shapes.case2.input_0.npy;@%models/dynamic_shapes.case2.input_1.npy' \
// RUN:   | FileCheck %s
// RUN: onyx-run %models/dynamic_shapes.onnx --validate \
// RUN:   --input=@%models/dynamic_shapes.case2.input_0.npy --input=@%models/dynamic_shapes.case2.input_1.npy \
// RUN:   --expected-output=@%models/dynamic_shapes.case2.output_0.npy \
// RUN:   --expected-output=@%models/dynamic_shapes.case2.output_1.npy \
// RUN:   --expected-output=@%models/dynamic_shapes.case2.output_2.npy \
// RUN:   --expected-output=@%models/dynamic_shapes.case2.output_3.npy \
// RUN:   | FileCheck %s --check-prefix=NUMPY
// RUN: not onyx-run %models/dynamic_shapes.onnx --validate \
// RUN:   --input-set='@%models/dynamic_shapes.case0.input_0.npy;2xi64=5,5' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COUNT
// RUN: not onyx-run %models/dynamic_shapes.onnx --validate \
// RUN:   --input-set='@%models/dynamic_shapes.case0.input_0.npy;2xi64=-4,-12' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEGATIVE

// CHECK: compile: {{.*}} (5 kernels compiled)
// CHECK: input set 0: {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK: output 0: tensor<12x4xf32>
// CHECK: output 1: tensor<3xi64> = [0, 1, 2]
// CHECK: output 2: tensor<2xi64> = [12, 4]
// CHECK: output 3: tensor<2x3x1xf32> = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
// CHECK-COUNT-4: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1: {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK: output 0: tensor<4x2xf32>
// CHECK: output 1: tensor<1xi64> = [0]
// CHECK: output 2: tensor<2xi64> = [4, 2]
// CHECK-COUNT-4: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 2: {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK: output 0: tensor<15x8xf32>
// CHECK: output 1: tensor<5xi64> = [0, 1, 2, 3, 4]
// CHECK: output 2: tensor<2xi64> = [15, 8]
// CHECK-COUNT-4: vs ref: max abs error 0, max rel error 0: PASS

// NUMPY-COUNT-4: max rel error {{.*}}: PASS

// COUNT: error: loc("out0"): 'onnx.Reshape' op reshapes 48 elements into a shape of 25 elements
// NEGATIVE: error: loc("out0"): 'onnx.Reshape' op has a negative dimension -4 at run time

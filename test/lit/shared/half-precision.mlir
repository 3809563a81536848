// REQUIRES: shared
// The full-size models of ../shared/models with --precision=f16 (products on
// f16 operands, f32 accumulation) on the Vulkan device with the validation
// layer match PyTorch's fp32 outputs at the tolerance of f16, and --check
// reports their error against the reference backend's fp32 run; the
// transformer block also with a GPU's kernel choices (its products take the
// tiled and k-contiguous paths there).
// RUN: onyx-run %shared/models/mlp.onnx --precision=f16 --validate --check \
// RUN:   --input=@%shared/models/mlp.input_0.npy \
// RUN:   --expected-output=@%shared/models/mlp.output_0.npy \
// RUN:   --rtol=1e-2 --atol=4e-3 | FileCheck %s
// RUN: onyx-run %shared/models/cnn_small.onnx --precision=f16 --validate --check \
// RUN:   --input=@%shared/models/cnn_small.input_0.npy \
// RUN:   --expected-output=@%shared/models/cnn_small.output_0.npy \
// RUN:   --rtol=1e-2 --atol=4e-3 | FileCheck %s
// RUN: onyx-run %shared/models/transformer_block.onnx --precision=f16 --validate --check \
// RUN:   --input=@%shared/models/transformer_block.input_0.npy \
// RUN:   --expected-output=@%shared/models/transformer_block.output_0.npy \
// RUN:   --rtol=1e-2 --atol=4e-3 | FileCheck %s
// RUN: onyx-run %shared/models/transformer_block.opset17.onnx --precision=f16 \
// RUN:   --kernels-for=gpu --validate --check \
// RUN:   --input=@%shared/models/transformer_block.case1.input_0.npy \
// RUN:   --expected-output=@%shared/models/transformer_block.case1.output_0.npy \
// RUN:   --rtol=1e-2 --atol=4e-3 | FileCheck %s
// CHECK: output 0: tensor<{{.*}}xf32> = [
// CHECK: output 0: max abs error {{.*}}: PASS
// CHECK: output 0 vs ref: max abs error {{.*}}: PASS

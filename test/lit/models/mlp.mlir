// The models here are the repository's own (test/models, written by its
// gen_models.py); test/lit/shared runs the full-size ones of ../shared.
// The MLP (Gemm, Relu) exported by PyTorch at opsets 13 and 17 runs on the
// reference backend and matches PyTorch's outputs.

// RUN: onyx-run %models/mlp.onnx --backend=ref --input=@%models/mlp.input_0.npy \
// RUN:   --expected-output=@%models/mlp.output_0.npy --rtol=1e-4 --atol=1e-5 \
// RUN:   | FileCheck %s
// RUN: onyx-run %models/mlp.opset17.onnx --backend=ref --input=@%models/mlp.input_0.npy \
// RUN:   --expected-output=@%models/mlp.output_0.npy --rtol=1e-4 --atol=1e-5 \
// RUN:   | FileCheck %s

// CHECK: output 0: tensor<4x10xf32> = [
// CHECK: output 0: max abs error {{.*}}: PASS

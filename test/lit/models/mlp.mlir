// The MLP (Gemm, Relu) exported by PyTorch at opsets 13 and 17 runs on the
// reference backend and matches PyTorch's outputs.

// RUN: onyx-run %shared/models/mlp.onnx --backend=ref --input=@%shared/models/mlp.input_0.npy \
// RUN:   --expected-output=@%shared/models/mlp.output_0.npy --rtol=1e-4 --atol=1e-5 \
// RUN:   | FileCheck %s
// RUN: onyx-run %shared/models/mlp.opset17.onnx --backend=ref --input=@%shared/models/mlp.input_0.npy \
// RUN:   --expected-output=@%shared/models/mlp.output_0.npy --rtol=1e-4 --atol=1e-5 \
// RUN:   | FileCheck %s

// CHECK: output 0: tensor<8x10xf32> = [
// CHECK: output 0: max abs error {{.*}}: PASS

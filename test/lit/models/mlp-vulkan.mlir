// The MLP (Gemm, Relu) at opsets 13 and 17, lowered and run on the Vulkan
// device (lavapipe in CI) with the validation layer, matches PyTorch's
// outputs at the tolerance of a GPU (rtol 1e-3, atol 1e-4).

// RUN: onyx-run %models/mlp.onnx --validate --input=@%models/mlp.input_0.npy \
// RUN:   --expected-output=@%models/mlp.output_0.npy --rtol=1e-3 --atol=1e-4 \
// RUN:   | FileCheck %s
// RUN: onyx-run %models/mlp.opset17.onnx --validate --input=@%models/mlp.input_0.npy \
// RUN:   --expected-output=@%models/mlp.output_0.npy --rtol=1e-3 --atol=1e-4 \
// RUN:   | FileCheck %s

// CHECK: output 0: tensor<4x10xf32> = [
// CHECK: output 0: max abs error {{.*}}: PASS

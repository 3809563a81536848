// The small CNN (Conv, Relu, MaxPool, GlobalAveragePool, Flatten, Gemm once
// BatchNormalization is folded) at opsets 13 and 17, lowered and run on the
// Vulkan device (lavapipe in CI) with the validation layer, matches
// PyTorch's outputs at the tolerance of a GPU (rtol 1e-3, atol 1e-4).

// RUN: onyx-run %models/cnn_small.onnx --validate \
// RUN:   --input=@%models/cnn_small.input_0.npy \
// RUN:   --expected-output=@%models/cnn_small.output_0.npy --rtol=1e-3 --atol=1e-4 \
// RUN:   | FileCheck %s
// RUN: onyx-run %models/cnn_small.opset17.onnx --validate \
// RUN:   --input=@%models/cnn_small.input_0.npy \
// RUN:   --expected-output=@%models/cnn_small.output_0.npy --rtol=1e-3 --atol=1e-4 \
// RUN:   | FileCheck %s

// CHECK: output 0: tensor<1x10xf32> = [
// CHECK: output 0: max abs error {{.*}}: PASS

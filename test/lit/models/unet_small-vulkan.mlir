// The two-level U-Net of unet_small.mlir (ConvTranspose and a bilinear
// Resize in its decoder) at opsets 13 and 17, lowered and run on the Vulkan
// device (lavapipe in CI) with the validation layer: PyTorch's mask at the
// tolerance of a GPU (rtol 1e-3, atol 1e-4).

// RUN: onyx-run %models/unet_small.onnx --validate \
// RUN:   --input=@%models/unet_small.input_0.npy \
// RUN:   --expected-output=@%models/unet_small.output_0.npy --rtol=1e-3 --atol=1e-4 \
// RUN:   | FileCheck %s
// RUN: onyx-run %models/unet_small.opset17.onnx --validate \
// RUN:   --input=@%models/unet_small.input_0.npy \
// RUN:   --expected-output=@%models/unet_small.output_0.npy --rtol=1e-3 --atol=1e-4 \
// RUN:   | FileCheck %s

// CHECK: output 0: tensor<1x2x32x32xf32> = [
// CHECK: output 0: max abs error {{.*}}: PASS

// A two-level U-Net (Conv, BatchNormalization folded by the exporter, Relu,
// MaxPool, a ConvTranspose of stride 2, a bilinear Resize, Concat of the
// skipped features, Sigmoid) at opsets 13 and 17, on the reference backend:
// PyTorch's segmentation mask.

// RUN: onyx-run %models/unet_small.onnx --backend=ref --input=@%models/unet_small.input_0.npy \
// RUN:   --expected-output=@%models/unet_small.output_0.npy --rtol=1e-4 --atol=1e-5 \
// RUN:   | FileCheck %s
// RUN: onyx-run %models/unet_small.opset17.onnx --backend=ref --input=@%models/unet_small.input_0.npy \
// RUN:   --expected-output=@%models/unet_small.output_0.npy --rtol=1e-4 --atol=1e-5 \
// RUN:   | FileCheck %s

// CHECK: output 0: tensor<1x2x32x32xf32> = [
// CHECK: output 0: max abs error {{.*}}: PASS

// Half precision on the Vulkan device (lavapipe in CI), with the validation
// layer, at the tolerance of f16 (rtol 1e-2, atol 4e-3: values of order 1
// carry 11 significant bits).
//
// Models in float16 (test/models/f16: the fp32 exports converted by
// scripts/convert_float16.py, weights, inputs and outputs in f16) run end to
// end on both backends and match the fp32 models' PyTorch outputs; on Vulkan
// --check compares them with the reference backend's f16 run too.
// RUN: onyx-run %models/f16/mlp.onnx --backend=ref \
// RUN:   --input=@%models/f16/mlp.input_0.npy \
// RUN:   --expected-output=@%models/mlp.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=REF-MLP
// REF-MLP: output 0: tensor<4x10xf16> = [
// REF-MLP: output 0: max abs error {{.*}}: PASS
// RUN: onyx-run %models/f16/mlp.onnx --validate --check \
// RUN:   --input=@%models/f16/mlp.input_0.npy \
// RUN:   --expected-output=@%models/mlp.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=VK-MLP
// VK-MLP: output 0: tensor<4x10xf16> = [
// VK-MLP: output 0: max abs error {{.*}}: PASS
// VK-MLP: output 0 vs ref: max abs error {{.*}}: PASS
// RUN: onyx-run %models/f16/cnn_small.onnx --validate --check \
// RUN:   --input=@%models/f16/cnn_small.input_0.npy \
// RUN:   --expected-output=@%models/cnn_small.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=VK
// RUN: onyx-run %models/f16/unet_small.onnx --validate --check \
// RUN:   --input=@%models/f16/unet_small.input_0.npy \
// RUN:   --expected-output=@%models/unet_small.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=VK
// RUN: onyx-run %models/f16/transformer_block.onnx --validate --check \
// RUN:   --input=@%models/f16/transformer_block.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=VK
// RUN: onyx-run %models/f16/transformer_block.opset17.onnx --validate --check \
// RUN:   --input=@%models/f16/transformer_block.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=VK
// VK: output 0: tensor<{{.*}}xf16> = [
// VK: output 0: max abs error {{.*}}: PASS
// VK: output 0 vs ref: max abs error {{.*}}: PASS

// Without the tolerance of f16 the comparison fails: the outputs are f16.
// RUN: not onyx-run %models/f16/mlp.onnx --backend=ref \
// RUN:   --input=@%models/f16/mlp.input_0.npy \
// RUN:   --expected-output=@%models/mlp.output_0.npy --rtol=1e-6 --atol=1e-7 \
// RUN:   | FileCheck %s --check-prefix=STRICT
// STRICT: output 0: max abs error {{.*}}: FAIL

// --precision=f16 runs the fp32 models' MatMuls, Gemms and Convs on f16
// operands with f32 accumulation; --check reports the error against the
// reference backend's fp32 run. Both kinds of kernel choices are run: the
// GPU's (k-contiguous tiles, split k, matrix-vector kernels) and lavapipe's.
// RUN: onyx-run %models/mlp.onnx --precision=f16 --validate --check \
// RUN:   --input=@%models/mlp.input_0.npy \
// RUN:   --expected-output=@%models/mlp.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=PREC
// RUN: onyx-run %models/cnn_small.onnx --precision=f16 --validate --check \
// RUN:   --input=@%models/cnn_small.input_0.npy \
// RUN:   --expected-output=@%models/cnn_small.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=PREC
// RUN: onyx-run %models/unet_small.onnx --precision=f16 --validate --check \
// RUN:   --input=@%models/unet_small.input_0.npy \
// RUN:   --expected-output=@%models/unet_small.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=PREC
// RUN: onyx-run %models/transformer_block.onnx --precision=f16 --validate --check \
// RUN:   --input=@%models/transformer_block.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=PREC
// RUN: onyx-run %models/transformer_block.onnx --precision=f16 --kernels-for=gpu \
// RUN:   --validate --check --input=@%models/transformer_block.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=PREC
// RUN: onyx-run %models/cnn_small.onnx --precision=f16 --kernels-for=gpu \
// RUN:   --validate --check --input=@%models/cnn_small.input_0.npy \
// RUN:   --expected-output=@%models/cnn_small.output_0.npy --rtol=1e-2 --atol=4e-3 \
// RUN:   | FileCheck %s --check-prefix=PREC
// PREC: output 0: tensor<{{.*}}xf32> = [
// PREC: output 0: max abs error {{.*}}: PASS
// PREC: output 0 vs ref: max abs error {{.*}}: PASS

// The rounding is real: at the tolerance of f32 the f16 products fail where
// the f32 ones pass.
// RUN: onyx-run %models/mlp.onnx --check --input=@%models/mlp.input_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-6 | FileCheck %s --check-prefix=F32-TIGHT
// F32-TIGHT: output 0 vs ref: max abs error {{.*}}: PASS
// RUN: not onyx-run %models/mlp.onnx --precision=f16 --check \
// RUN:   --input=@%models/mlp.input_0.npy --rtol=1e-4 --atol=1e-6 \
// RUN:   | FileCheck %s --check-prefix=F16-TIGHT
// F16-TIGHT: output 0 vs ref: max abs error {{.*}}: FAIL

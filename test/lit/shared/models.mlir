// REQUIRES: shared
// The full-size PyTorch exports of ../shared/models (an MLP 256->512->512->10,
// a CNN on 1x3x32x32 images, a GPT-2-style block with d=128 and 4 heads) at
// opsets 13 and 17 match PyTorch's outputs on the reference backend (rtol
// 1e-4, atol 1e-5) and on the Vulkan device with the validation layer (rtol
// 1e-3, atol 1e-4). The repository's scaled-down exports of the same
// architectures (test/models) are tested in detail in ../models; these add
// the sizes that take the kernels' tiled paths.
// RUN: onyx-run %shared/models/mlp.onnx --backend=ref \
// RUN:   --input=@%shared/models/mlp.input_0.npy \
// RUN:   --expected-output=@%shared/models/mlp.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=REF-8-10
// RUN: onyx-run %shared/models/mlp.opset17.onnx --backend=ref \
// RUN:   --input=@%shared/models/mlp.input_0.npy \
// RUN:   --expected-output=@%shared/models/mlp.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=REF-8-10
// RUN: onyx-run %shared/models/cnn_small.onnx --backend=ref \
// RUN:   --input=@%shared/models/cnn_small.input_0.npy \
// RUN:   --expected-output=@%shared/models/cnn_small.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=REF-1-10
// RUN: onyx-run %shared/models/cnn_small.opset17.onnx --backend=ref \
// RUN:   --input=@%shared/models/cnn_small.input_0.npy \
// RUN:   --expected-output=@%shared/models/cnn_small.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=REF-1-10
// RUN: onyx-run %shared/models/transformer_block.onnx --backend=ref \
// RUN:   --input=@%shared/models/transformer_block.input_0.npy \
// RUN:   --expected-output=@%shared/models/transformer_block.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=REF-1-16-128
// RUN: onyx-run %shared/models/transformer_block.opset17.onnx --backend=ref \
// RUN:   --input=@%shared/models/transformer_block.input_0.npy \
// RUN:   --expected-output=@%shared/models/transformer_block.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=REF-1-16-128
// RUN: onyx-run %shared/models/transformer_block.onnx --backend=ref \
// RUN:   --input=@%shared/models/transformer_block.case1.input_0.npy \
// RUN:   --expected-output=@%shared/models/transformer_block.case1.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=REF-1-7-128
// RUN: onyx-run %shared/models/transformer_block.opset17.onnx --backend=ref \
// RUN:   --input=@%shared/models/transformer_block.case1.input_0.npy \
// RUN:   --expected-output=@%shared/models/transformer_block.case1.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=REF-1-7-128
// RUN: onyx-run %shared/models/mlp.onnx --validate \
// RUN:   --input=@%shared/models/mlp.input_0.npy \
// RUN:   --expected-output=@%shared/models/mlp.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=VK-8-10
// RUN: onyx-run %shared/models/mlp.opset17.onnx --validate \
// RUN:   --input=@%shared/models/mlp.input_0.npy \
// RUN:   --expected-output=@%shared/models/mlp.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=VK-8-10
// RUN: onyx-run %shared/models/cnn_small.onnx --validate \
// RUN:   --input=@%shared/models/cnn_small.input_0.npy \
// RUN:   --expected-output=@%shared/models/cnn_small.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=VK-1-10
// RUN: onyx-run %shared/models/cnn_small.opset17.onnx --validate \
// RUN:   --input=@%shared/models/cnn_small.input_0.npy \
// RUN:   --expected-output=@%shared/models/cnn_small.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=VK-1-10
// RUN: onyx-run %shared/models/transformer_block.onnx --validate \
// RUN:   --input=@%shared/models/transformer_block.input_0.npy \
// RUN:   --expected-output=@%shared/models/transformer_block.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=VK-1-16-128
// RUN: onyx-run %shared/models/transformer_block.opset17.onnx --validate \
// RUN:   --input=@%shared/models/transformer_block.input_0.npy \
// RUN:   --expected-output=@%shared/models/transformer_block.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=VK-1-16-128
// RUN: onyx-run %shared/models/transformer_block.onnx --validate \
// RUN:   --input=@%shared/models/transformer_block.case1.input_0.npy \
// RUN:   --expected-output=@%shared/models/transformer_block.case1.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=VK-1-7-128
// RUN: onyx-run %shared/models/transformer_block.opset17.onnx --validate \
// RUN:   --input=@%shared/models/transformer_block.case1.input_0.npy \
// RUN:   --expected-output=@%shared/models/transformer_block.case1.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=VK-1-7-128

// REF-8-10: output 0: tensor<8x10xf32> = [
// REF-8-10: output 0: max abs error {{.*}}: PASS
// REF-1-10: output 0: tensor<1x10xf32> = [
// REF-1-10: output 0: max abs error {{.*}}: PASS
// REF-1-16-128: output 0: tensor<1x16x128xf32> = [
// REF-1-16-128: output 0: max abs error {{.*}}: PASS
// REF-1-7-128: output 0: tensor<1x7x128xf32> = [
// REF-1-7-128: output 0: max abs error {{.*}}: PASS
// VK-8-10: output 0: tensor<8x10xf32> = [
// VK-8-10: output 0: max abs error {{.*}}: PASS
// VK-1-10: output 0: tensor<1x10xf32> = [
// VK-1-10: output 0: max abs error {{.*}}: PASS
// VK-1-16-128: output 0: tensor<1x16x128xf32> = [
// VK-1-16-128: output 0: max abs error {{.*}}: PASS
// VK-1-7-128: output 0: tensor<1x7x128xf32> = [
// VK-1-7-128: output 0: max abs error {{.*}}: PASS

// The full-size block imports with its shape computations folded once `seq`
// is bound, and stays `?` otherwise.
// RUN: onyx-opt %shared/models/transformer_block.opset17.onnx --bind-dims=seq=16 \
// RUN:   | FileCheck %s --check-prefix=GPT
// GPT-LABEL: func.func @main(%arg0: tensor<1x16x128xf32> {onnx.name = "x"}) -> (tensor<1x16x128xf32> {onnx.name = "y"})
// GPT-NOT: "onnx.Shape"
// GPT: "onnx.Reshape"{{.*}} -> tensor<1x16x4x32xf32>
// RUN: onyx-opt %shared/models/transformer_block.onnx --canonicalize --cse | FileCheck %s --check-prefix=UNBOUND
// UNBOUND: func.func @main(%arg0: tensor<1x?x128xf32> {onnx.name = "x"}) -> (tensor<1x?x128xf32> {onnx.name = "y"})
// UNBOUND: "onnx.Reshape"{{.*}} -> tensor<1x?x4x32xf32>

// ONNX 1.22's tests of the newest versions (opsets 17 to 25).
// RUN: onyx-opt %shared/onnx-node-tests/test_layer_normalization_4d_axis1/model.onnx | FileCheck %s --check-prefix=LAYERNORM
// LAYERNORM: "onnx.LayerNormalization"(%arg0, %arg1, %arg2) {axis = 1 : si64}
// RUN: onyx-opt %shared/onnx-node-tests/test_gelu_tanh_1/model.onnx | FileCheck %s --check-prefix=GELU
// GELU: "onnx.Gelu"(%arg0) {approximate = "tanh"}
// RUN: onyx-opt %shared/onnx-node-tests/test_cast_FLOAT_to_FLOAT16/model.onnx | FileCheck %s --check-prefix=CAST
// CAST: "onnx.Cast"(%arg0) {to = f16} : (tensor<3x4xf32>) -> tensor<3x4xf16>
// RUN: onyx-opt %shared/onnx-node-tests/test_split_equal_parts_1d_opset18/model.onnx | FileCheck %s --check-prefix=SPLIT18
// SPLIT18: "onnx.Split"(%arg0) {num_outputs = 3 : si64} : (tensor<6xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)

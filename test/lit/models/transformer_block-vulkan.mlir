// The GPT-2-style block (LayerNorm decomposed at opset 13 and one op at
// 17, causal attention, GELU) at both sequence lengths PyTorch's outputs
// were computed at, lowered and run on the Vulkan device (lavapipe in CI)
// with the validation layer, matches PyTorch's outputs at the tolerance of
// a GPU (rtol 1e-3, atol 1e-4).

// RUN: onyx-run %models/transformer_block.onnx --validate \
// RUN:   --input=@%models/transformer_block.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=SEQ16
// RUN: onyx-run %models/transformer_block.opset17.onnx --validate \
// RUN:   --input=@%models/transformer_block.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=SEQ16
// SEQ16: output 0: tensor<1x16x16xf32> = [
// SEQ16: output 0: max abs error {{.*}}: PASS

// RUN: onyx-run %models/transformer_block.onnx --validate \
// RUN:   --input=@%models/transformer_block.case1.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.case1.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=SEQ7
// RUN: onyx-run %models/transformer_block.opset17.onnx --validate \
// RUN:   --input=@%models/transformer_block.case1.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.case1.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=SEQ7
// SEQ7: output 0: tensor<1x7x16xf32> = [
// SEQ7: output 0: max abs error {{.*}}: PASS

// --check agrees with the reference backend; --profile names the ONNX node
// of each dispatch and shows what buffer planning saved.
// RUN: onyx-run %models/transformer_block.opset17.onnx --validate \
// RUN:   --input=@%models/transformer_block.case1.input_0.npy \
// RUN:   --check --profile --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=PROFILE
// PROFILE: output 0 vs ref: max abs error {{.*}}: PASS
// PROFILE: profile: {{[0-9]+}} dispatches, {{[0-9.]+}} us in all
// PROFILE: @matmul {{.*}}% /attn/c_attn/MatMul
// PROFILE: arena: {{[0-9]+}} bytes for {{[0-9]+}} bytes of intermediates ({{[0-9.]+}}%)

// The opset-13 export's decomposed LayerNorms are LayerNormalization ops,
// as the opset-17 export's are, and only the products after them read them:
// those products normalize their rows as they load them (no norm kernel,
// no reduce_mean).
// RUN: onyx-run %models/transformer_block.onnx --validate \
// RUN:   --input=@%models/transformer_block.case1.input_0.npy \
// RUN:   --profile | FileCheck %s --check-prefix=PROFILE13
// PROFILE13-NOT: @reduce_mean
// PROFILE13-NOT: @layer_norm
// PROFILE13: @matmul {{.*}}% /attn/c_attn/MatMul+/attn/c_attn/Add
// PROFILE13: @matmul_2 {{.*}}% /mlp/mlp.0/MatMul+
// PROFILE13-NOT: @reduce_mean
// PROFILE13-NOT: @layer_norm

// The dispatches of one decode step of the two test decoders (2 layers
// each) on Vulkan, by kind of kernel: what the lowering's fusions leave of a
// decoder layer. The counts are exact so that a fusion that stops applying
// (or a new kernel in the step) shows up here.

// GPT-2 style, per layer: matmul 4 (QKV with the first LayerNorm and the
// bias, writing Q apart and the new key and value rows straight into the
// cache, attention output with the residual Add, fc1 with the second
// LayerNorm, the bias and the GELU, fc2 with the residual Add), attention
// 1; k is not
// split among workgroups (matmul_reduce) for the step's one row. Once per
// step: the embeddings (gather 2, add 1), the mask (fused 1: the causal
// part from the Ranges of the step's positions and keys, computed in the
// kernel that combines it with attention_mask into the additive bias), the
// logits' matmul with the final LayerNorm, and the argmax that picks the
// next token on the device.
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --generate=4 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --profile | FileCheck %s --check-prefix=GPT2
// GPT2: {{^}}58 45 2 74{{$}}
// GPT2: last step: 16 dispatches, {{.*}} 5 copies (0 of the cache, 2 of the tokens picked on the device);
// GPT2-NEXT: last step by kernel: matmul 9, attention 2, gather 2, add 1, argmax 1, fused 1{{$}}

// Llama style, per layer: matmul 5 (q, k and v merged into one product
// with the first RMSNorm, writing q and k apart and the new value rows
// straight into the cache, o with the residual
// Add, gate with the second RMSNorm and the SiLU, up with it too and times
// the gate, down with the residual Add), rotary_embedding 1 (Q and K
// rotated by one dispatch, K's rows straight into the cache), attention 1.
// Once per step: the embedding (gather 1), the mask
// (fused 1, as GPT-2's), the rotary angles (fused 1:
// positions times inverse frequencies, cos 1, sin 1), the logits' matmul
// with the final RMSNorm, the argmax.
// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --generate=4 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --profile | FileCheck %s --check-prefix=LLAMA
// LLAMA: {{^}}70 32 83 50{{$}}
// LLAMA: last step: 21 dispatches, {{.*}} 5 copies (0 of the cache, 2 of the tokens picked on the device);
// LLAMA-NEXT: last step by kernel: matmul 11, attention 2, fused 2, rotary_embedding 2, argmax 1, cos 1, gather 1, sin 1{{$}}

// The Llama-style test decoder (examples/decoders/llama_tiny.onnx) with its
// MatMul weights rewritten to 4-bit com.microsoft.MatMulNBits (block 16) by
// scripts/quantize_nbits.py --min-k 16 --block-size 16: greedy generation
// gives the same ids on both backends; they follow the f32 model's
// (examples/decoders/llama_tiny.greedy.txt: 70 32 83 50 46 50 92 22 ...)
// for 7 tokens, then the quantization error changes the choice.
// RUN: onyx-run %models/nbits/llama_tiny.q4.onnx --backend=ref --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s
// RUN: onyx-run %models/nbits/llama_tiny.q4.onnx --validate --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s

// CHECK: 70 32 83 50 46 50 92 50 70 80 71 58

// A decode step: the RMSNorms are applied by the products that read them,
// the Q, K and V products of a layer are one (onnx-merge-projections) and
// the value rows go from it straight into the cache, so none of these is a
// dispatch (the same 21 as the f32 model's), and the causal mask, built
// from Ranges of the step's lengths, is one fused kernel
// (test/lit/onyx-run/decode-dispatches.mlir); one more picks the token.
// RUN: onyx-run %models/nbits/llama_tiny.q4.onnx --generate=12 --profile \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s --check-prefix=STEP
// STEP: 70 32 83 50 46 50 92 50 70 80 71 58
// STEP: last step: 21 dispatches
// STEP-NEXT: by kernel: matmul_nbits_gemv 11,
// STEP-NOT: rms_norm
// STEP-NOT: cache_append
// STEP: last step device time

// onyx-run --generate on the Vulkan backend (lavapipe in CI, with the
// validation layer): the first tokens of PyTorch's greedy continuation, as
// in generate.mlir. Until the Vulkan lowering takes symbolic dimensions,
// each step is compiled for its own shapes (slow), hence fewer tokens here.

// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate \
// RUN:   --generate=4 --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s --check-prefix=GPT2
// GPT2: {{^}}58 45 2 74{{$}}
// GPT2-NEXT: prefill: 7 tokens in {{[0-9.]+}} ms
// GPT2-NEXT: decode: 3 tokens, {{[0-9.]+}} ms/token, {{[0-9.]+}} tokens/s

// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --validate \
// RUN:   --generate=4 --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s --check-prefix=LLAMA
// LLAMA: {{^}}70 32 83 50{{$}}

// The prompt is checked before any step runs.
// RUN: not onyx-run %S/../../../examples/decoders/llama_tiny.onnx --generate=4 \
// RUN:   --prompt-ids=5,1000 2>&1 | FileCheck %s --check-prefix=VOCAB
// VOCAB: onyx-run: error: --prompt-ids: prompt id 1000 (at index 1) is outside the vocabulary of 96 tokens (0 to 95)

func.func @main() {
  return
}

// onyx-run --generate on the Vulkan backend (lavapipe in CI, with the
// validation layer): PyTorch's greedy continuation, as in generate.mlir. The
// decoder is lowered once with its symbolic dimensions; every step runs that
// one plan with the key/value cache kept on the device.

// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate \
// RUN:   --generate=12 --prompt-ids=5,17,42,8,3,29,11 --profile | FileCheck %s --check-prefix=GPT2
// GPT2: {{^}}58 45 2 74 58 58 93 83 58 58 58 39{{$}}
// GPT2-NEXT: prefill: 7 tokens in {{[0-9.]+}} ms
// GPT2-NEXT: decode: 11 tokens, {{[0-9.]+}} ms/token, {{[0-9.]+}} tokens/s
// GPT2-NEXT: compiled once: {{[0-9]+}} kernels in {{[0-9.]+}} ms, {{[0-9]+}} pipelines; 12 recordings ({{[0-9.]+}} us each on average), 0 compiles and 0 pipelines created after the load; the cache stayed on the device
// The key/value cache is appended in place in its states: each step writes
// its new rows (the Q/K/V product stores them there itself, and the
// rotary embedding its rotated keys) and nothing copies the cache. The
// device picks each token (an argmax of the last logits) and the next step
// reads it there: the 5 copies are the mask and positions in, the tokens
// into their state and out to the host, and the step before's tokens from
// their state into input_ids.
// GPT2-NEXT: last step: {{[0-9]+}} dispatches, {{[0-9]+}} barriers, 5 copies (0 of the cache, 2 of the tokens picked on the device); GPU span {{[0-9.]+}} ms; recorded in {{[0-9.]+}} us
// The same dispatches by kernel, most first: one fused attention kernel per
// layer, no concat.
// GPT2-NEXT: last step by kernel: matmul {{[0-9]+}}, attention 2, {{.*}}argmax 1
// GPT2-NOT: concat
// GPT2-NOT: cache_append

// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --validate \
// RUN:   --generate=12 --prompt-ids=5,17,42,8,3,29,11 --profile | FileCheck %s --check-prefix=LLAMA
// LLAMA: {{^}}70 32 83 50 46 50 92 22 65 45 57 95{{$}}
// LLAMA: compiled once:
// LLAMA: last step: {{[0-9]+}} dispatches, {{[0-9]+}} barriers, 5 copies (0 of the cache, 2 of the tokens picked on the device);
// LLAMA-NOT: cache_append

// --profile counts the measured generation's recordings, not those of the
// warm-up generations before it (at least one runs). Each decode step after
// the first is recorded while the step before runs; the prefill, and the
// first decode step, which waits for the prefill's token (picked on the
// host from its logits), are on the critical path.
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --profile --warmup-seconds=0.2 | FileCheck %s --check-prefix=WARM
// WARM: {{^}}58 45 2 74 58 58 93 83 58 58 58 39{{$}}
// WARM: pipelines; 12 recordings ({{[0-9.]+}} us each on average), 0 compiles and 0 pipelines created after the load
// WARM: recordings: 10 ahead of their step, {{.*}}; 2 on the critical path

// --max-seq stops the generation when the cache is full.
// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --max-seq=10 | FileCheck %s --check-prefix=MAXSEQ
// MAXSEQ: {{^}}70 32 83 50{{$}}
// MAXSEQ: stopped: the cache is full (--max-seq)

// The prompt is checked before any step runs.
// RUN: not onyx-run %S/../../../examples/decoders/llama_tiny.onnx --generate=4 \
// RUN:   --prompt-ids=5,1000 2>&1 | FileCheck %s --check-prefix=VOCAB
// VOCAB: onyx-run: error: --prompt-ids: prompt id 1000 (at index 1) is outside the vocabulary of 96 tokens (0 to 95)

func.func @main() {
  return
}

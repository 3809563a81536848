// onyx-run --generate with several prompts on Vulkan (lavapipe in CI, with
// the validation layer): PyTorch's batched greedy ids, as in
// generate-batch.mlir. One plan for every step; the batch's cache is
// appended in place in its states (positions outermost, every row one
// position longer per step) and never copied: the 5 copies of a decode
// step are the mask and positions in, and the rows' tokens, picked on the
// device, into their state and out to the host, and the step before's
// from their state into input_ids.

// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate --generate=12 \
// RUN:   --prompt-ids=60,9,33 --prompt-ids=5,17,42,8,3,29,11 --profile | FileCheck %s --check-prefix=GPT2
// GPT2:      {{^}}13 23 58 19 19 62 62 32 32 32 32 89{{$}}
// GPT2-NEXT: {{^}}58 45 2 74 58 58 93 83 58 58 58 39{{$}}
// GPT2-NEXT: prefill: 2 sequences of 3, 7 tokens (left-padded to 7) in {{[0-9.]+}} ms
// GPT2-NEXT: decode: 11 steps, {{[0-9.]+}} ms/step, 22 tokens of all sequences, {{[0-9.]+}} tokens/s
// GPT2-NEXT: compiled once: {{[0-9]+}} kernels in {{[0-9.]+}} ms, {{[0-9]+}} pipelines; 12 recordings ({{[0-9.]+}} us each on average), 0 compiles and 0 pipelines created after the load; the cache stayed on the device
// GPT2-NEXT: last step: {{[0-9]+}} dispatches, {{[0-9]+}} barriers, 5 copies (0 of the cache, 2 of the tokens picked on the device);
// GPT2-NEXT: last step by kernel: matmul {{[0-9]+}}, attention 2,
// GPT2-NOT: cache_append

// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --validate --generate=12 \
// RUN:   --prompt-ids=60,9,33 --prompt-ids=5,17,42,8,3,29,11 --profile | FileCheck %s --check-prefix=LLAMA
// LLAMA:      {{^}}86 15 37 72 13 29 34 37 85 94 71 57{{$}}
// LLAMA-NEXT: {{^}}70 32 83 50 46 50 92 22 65 45 57 95{{$}}
// LLAMA:      compiled once: {{.*}} 0 compiles and 0 pipelines created after the load; the cache stayed on the device
// LLAMA:      last step: {{[0-9]+}} dispatches, {{[0-9]+}} barriers, 5 copies (0 of the cache, 2 of the tokens picked on the device);
// LLAMA-NOT:  cache_append

// --eos-id and --max-seq (the states reserved for the whole batch): a
// sequence that ended is fed padding while the other continues.
// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --validate --generate=12 \
// RUN:   --prompt-ids=60,9,33 --prompt-ids=5,17,42,8,3,29,11 --eos-id=72 --max-seq=16 \
// RUN:   | FileCheck %s --check-prefix=EOS
// EOS:      {{^}}86 15 37 72{{$}}
// EOS-NEXT: {{^}}70 32 83 50 46 50 92 22 65 45{{$}}
// EOS:      stopped: the cache is full (--max-seq)
// EOS-NEXT: compiled once:

// A bad id in one of the prompts is named before anything is compiled.
// RUN: not onyx-run %S/../../../examples/decoders/llama_tiny.onnx --validate --generate=4 \
// RUN:   --prompt-ids=5,17 --prompt-ids=1000 2>&1 | FileCheck %s --check-prefix=VOCAB
// VOCAB: onyx-run: error: --prompt-ids: prompt 2 of 2: prompt id 1000 (at index 0) is outside the vocabulary of 96 tokens (0 to 95)

func.func @main() {
  return
}

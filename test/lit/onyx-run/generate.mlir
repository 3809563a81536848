// onyx-run --generate on the reference backend: the decoders that
// examples/decoders/gen_decoders.py exported (random weights) continue a
// fixed prompt with PyTorch's greedy ids. The same check prefix reads the
// ids the generator wrote, so the expected ids here are PyTorch's.
// generate-vulkan.mlir runs them on Vulkan.

// GPT-2 style: learned positions, LayerNorm, GELU, multi-head attention.
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref \
// RUN:   --generate=12 --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s --check-prefixes=GPT2,TIMES
// RUN: FileCheck %s --check-prefix=GPT2 --input-file=%S/../../../examples/decoders/gpt2_tiny.greedy.txt
// GPT2: {{^(ids: )?}}58 45 2 74 58 58 93 83 58 58 58 39{{$}}
// TIMES-NEXT: prefill: 7 tokens in {{[0-9.]+}} ms
// TIMES-NEXT: decode: 11 tokens, {{[0-9.]+}} ms/token, {{[0-9.]+}} tokens/s

// Llama style: RMSNorm, rotary embeddings, grouped-query attention (4 query
// heads, 2 key/value heads), SiLU-gated MLP.
// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --backend=ref \
// RUN:   --generate=12 --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s --check-prefix=LLAMA
// RUN: FileCheck %s --check-prefix=LLAMA --input-file=%S/../../../examples/decoders/llama_tiny.greedy.txt
// LLAMA: {{^(ids: )?}}70 32 83 50 46 50 92 22 65 45 57 95{{$}}

// --max-seq bounds the positions the cache holds: 3 prompt tokens and 2
// fed back, so 3 new tokens.
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref \
// RUN:   --generate=10 --prompt-ids=5,6,7 --max-seq=5 | FileCheck %s --check-prefix=MAXSEQ
// MAXSEQ:      {{^}}82 49 49{{$}}
// MAXSEQ-NEXT: prefill: 3 tokens
// MAXSEQ-NEXT: decode: 2 tokens
// MAXSEQ-NEXT: stopped: the cache is full (--max-seq)

// Sampling: a fixed seed gives the same ids every run; they differ from
// the greedy ones (82 49 49 49 31 36 58 71).
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=8 \
// RUN:   --prompt-ids=5,6,7 --temperature=0.8 --top-k=10 --top-p=0.9 --seed=3 | FileCheck %s --check-prefix=SAMPLE
// SAMPLE: {{^}}82 49 49 49 58 71 37 80{{$}}

// Errors: each a clear message and exit status 1.
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=3 \
// RUN:   --prompt-ids=5,96 2>&1 | FileCheck %s --check-prefix=VOCAB
// VOCAB: onyx-run: error: --prompt-ids: prompt id 96 (at index 1) is outside the vocabulary of 96 tokens (0 to 95)
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=3 \
// RUN:   --prompt-ids=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: onyx-run: error: --prompt-ids: prompt id -1 (at index 0) is outside the vocabulary
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=3 \
// RUN:   --prompt-ids=5,6,7 --max-seq=2 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: onyx-run: error: --prompt-ids: the prompt has 3 tokens, more than --max-seq=2
// RUN: not onyx-run %S/../../../examples/tiny_mlp.onnx --backend=ref --generate=3 \
// RUN:   --prompt-ids=1 2>&1 | FileCheck %s --check-prefix=INTERFACE
// INTERFACE: onyx-run: error: {{.*}}tiny_mlp.onnx: the model does not have the decoder cache interface
// INTERFACE-SAME: missing input 'input_ids', input 'attention_mask', output 'logits', input 'past_key_values.0.key'
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=3 \
// RUN:   --prompt-ids=1,x 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: onyx-run: error: --prompt-ids: expected integers separated by commas, got 'x'
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=3 \
// RUN:   2>&1 | FileCheck %s --check-prefix=NOPROMPT
// NOPROMPT: onyx-run: error: --generate needs --prompt-ids=ID,ID,...
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref \
// RUN:   --prompt-ids=1 2>&1 | FileCheck %s --check-prefix=NOGENERATE
// NOGENERATE: onyx-run: error: --prompt-ids, --max-seq and --eos-id apply to --generate
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=3 \
// RUN:   --prompt-ids=1 --input=1x1xi64=1 2>&1 | FileCheck %s --check-prefix=FLAGS
// FLAGS: onyx-run: error: --generate feeds the model itself
// RUN: not onyx-run %s --backend=ref --generate=3 --prompt-ids=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MLIR
// MLIR: onyx-run: error: --generate needs an ONNX model (.onnx)
// Positions past those a model with learned positions has (64) fail at
// the embedding's Gather, after the ids generated so far.
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=70 \
// RUN:   --prompt-ids=5,6,7 2>&1 | FileCheck %s --check-prefix=POSITIONS
// POSITIONS: 'onnx.Gather' op index 64 is out of range for a dimension of size 64

func.func @main() {
  return
}

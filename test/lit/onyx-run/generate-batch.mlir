// onyx-run --generate with several prompts (--prompt-ids repeated) on the
// reference backend: one batch, left-padded to the longest prompt
// (attention_mask 0 and position 1 on the padding, positions counting the
// real tokens only), each sequence greedy on its own. The ids are PyTorch's
// batched greedy continuation, which examples/decoders/gen_decoders.py
// wrote (NAME.batch.txt, read here with the same check prefix); one line
// per sequence, in the order of the prompts. The shorter prompt is first,
// so that the padded row is not the last one. generate-batch-vulkan.mlir
// runs the same on Vulkan.

// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=12 \
// RUN:   --prompt-ids=60,9,33 --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s --check-prefixes=GPT2,TIMES
// RUN: FileCheck %s --check-prefix=GPT2 --input-file=%S/../../../examples/decoders/gpt2_tiny.batch.txt
// GPT2:      {{^(ids: )?}}13 23 58 19 19 62 62 32 32 32 32 89{{$}}
// GPT2-NEXT: {{^(ids: )?}}58 45 2 74 58 58 93 83 58 58 58 39{{$}}
// TIMES-NEXT: prefill: 2 sequences of 3, 7 tokens (left-padded to 7) in {{[0-9.]+}} ms
// TIMES-NEXT: decode: 11 steps, {{[0-9.]+}} ms/step, 22 tokens of all sequences, {{[0-9.]+}} tokens/s

// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --backend=ref --generate=12 \
// RUN:   --prompt-ids=60,9,33 --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s --check-prefix=LLAMA
// RUN: FileCheck %s --check-prefix=LLAMA --input-file=%S/../../../examples/decoders/llama_tiny.batch.txt
// LLAMA:      {{^(ids: )?}}86 15 37 72 13 29 34 37 85 94 71 57{{$}}
// LLAMA-NEXT: {{^(ids: )?}}70 32 83 50 46 50 92 22 65 45 57 95{{$}}

// --eos-id: the first sequence emits 19 as its fourth id and stops there
// (its later rows are padding, not printed); the second continues as
// without it.
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=12 \
// RUN:   --prompt-ids=60,9,33 --prompt-ids=5,17,42,8,3,29,11 --eos-id=19 | FileCheck %s --check-prefix=EOS
// EOS:      {{^}}13 23 58 19{{$}}
// EOS-NEXT: {{^}}58 45 2 74 58 58 93 83 58 58 58 39{{$}}
// EOS-NEXT: prefill: 2 sequences
// EOS-NEXT: decode: 11 steps, {{[0-9.]+}} ms/step, 14 tokens of all sequences
// EOS-NOT: stopped
// When every sequence has ended, the generation stops: 58 is the second's
// first id and the first's third.
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=12 \
// RUN:   --prompt-ids=60,9,33 --prompt-ids=5,17,42,8,3,29,11 --eos-id=58 | FileCheck %s --check-prefix=ALLEND
// ALLEND:      {{^}}13 23 58{{$}}
// ALLEND-NEXT: {{^}}58{{$}}
// ALLEND-NEXT: prefill: 2 sequences
// ALLEND-NEXT: decode: 2 steps, {{[0-9.]+}} ms/step, 2 tokens of all sequences
// ALLEND-NEXT: stopped: every sequence emitted the end id (--eos-id)
// A batch of one stops at its end id too.
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --eos-id=93 | FileCheck %s --check-prefix=ONEEND
// ONEEND:      {{^}}58 45 2 74 58 58 93{{$}}
// ONEEND-NEXT: prefill: 7 tokens
// ONEEND-NEXT: decode: 6 tokens
// ONEEND-NEXT: stopped: the sequence emitted the end id (--eos-id)

// --max-seq bounds the padded batch: 7 prompt positions and 3 fed back.
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=12 \
// RUN:   --prompt-ids=60,9,33 --prompt-ids=5,17,42,8,3,29,11 --max-seq=10 | FileCheck %s --check-prefix=MAXSEQ
// MAXSEQ:      {{^}}13 23 58 19{{$}}
// MAXSEQ-NEXT: {{^}}58 45 2 74{{$}}
// MAXSEQ:      stopped: the cache is full (--max-seq)

// Sampling: sequence i samples with --seed + i, so the second (padded)
// sequence of a batch seeded 2 draws what it draws alone seeded 3
// (generate.mlir's SAMPLE).
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=8 \
// RUN:   --prompt-ids=60,9,33,4 --prompt-ids=5,6,7 --temperature=0.8 --top-k=10 --top-p=0.9 --seed=2 \
// RUN:   | FileCheck %s --check-prefix=SAMPLE
// SAMPLE:      {{^}}58 23 16 6 45 27 89 10{{$}}
// SAMPLE-NEXT: {{^}}82 49 49 49 58 71 37 80{{$}}

// Errors: the prompt that does not fit is named, before any step runs.
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=3 \
// RUN:   --prompt-ids=5,6 --prompt-ids=5,6,7 --max-seq=2 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: onyx-run: error: --prompt-ids: prompt 2 of 2: the prompt has 3 tokens, more than --max-seq=2
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=3 \
// RUN:   --prompt-ids=5,6 --prompt-ids= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: onyx-run: error: --prompt-ids: prompt 2 of 2: the prompt is empty
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=3 \
// RUN:   --prompt-ids=5,6 --prompt-ids=5,96,7 --prompt-ids=1 2>&1 | FileCheck %s --check-prefix=VOCAB
// VOCAB: onyx-run: error: --prompt-ids: prompt 2 of 3: prompt id 96 (at index 1) is outside the vocabulary of 96 tokens (0 to 95)
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=3 \
// RUN:   --prompt-ids=5,6 --eos-id=96 2>&1 | FileCheck %s --check-prefix=EOSVOCAB
// EOSVOCAB: onyx-run: error: --eos-id: the end id 96 is outside the vocabulary of 96 tokens (0 to 95)
// A model whose input_ids has a fixed batch takes that many prompts.
// RUN: not onyx-run %models/contrib/genai_decoder.onnx --backend=ref --generate=3 \
// RUN:   --prompt-ids=5,6 --prompt-ids=7 2>&1 | FileCheck %s --check-prefix=FIXED
// FIXED: onyx-run: error: --prompt-ids: the model's input_ids has a fixed batch of 1; 2 prompts are given
// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref \
// RUN:   --eos-id=3 2>&1 | FileCheck %s --check-prefix=NOGENERATE
// NOGENERATE: onyx-run: error: --prompt-ids, --max-seq and --eos-id apply to --generate

func.func @main() {
  return
}

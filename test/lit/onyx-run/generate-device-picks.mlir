// Greedy generation on Vulkan picks each token on the device (an argmax of
// the last logits, added to the model before it is lowered) and launches
// the next decode step, which reads the token there, before the host reads
// it; --host-sampling reads the logits back and picks on the host, one step
// at a time. Both give the same ids, which are PyTorch's (generate.mlir,
// generate-batch.mlir): for both test decoders, the 4-bit one, a batch with
// an end id and --max-seq, a one-token prompt (whose prefill picks on the
// device too) and a single token.

// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --profile | FileCheck %s --check-prefix=GPT2
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --host-sampling --profile | FileCheck %s --check-prefix=GPT2-HOST
// GPT2: {{^}}58 45 2 74 58 58 93 83 58 58 58 39{{$}}
// GPT2: last step: {{.*}} 5 copies (0 of the cache, 2 of the tokens picked on the device);
// GPT2: decode step on the host, the tokens picked on the device and the next step launched before they are read: launch
// GPT2-HOST: {{^}}58 45 2 74 58 58 93 83 58 58 58 39{{$}}
// GPT2-HOST: last step: {{.*}} 4 copies (0 of the cache);
// GPT2-HOST-NOT: argmax
// GPT2-HOST: decode step on the host: launch

// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --validate --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s --check-prefix=LLAMA
// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --validate --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --host-sampling | FileCheck %s --check-prefix=LLAMA
// LLAMA: {{^}}70 32 83 50 46 50 92 22 65 45 57 95{{$}}

// RUN: onyx-run %models/nbits/llama_tiny.q4.onnx --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s --check-prefix=Q4
// RUN: onyx-run %models/nbits/llama_tiny.q4.onnx --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --host-sampling | FileCheck %s --check-prefix=Q4
// Q4: {{^}}70 32 83 50 46 50 92 50 70 80 71 58{{$}}

// A batch: the first sequence ends (72) while the other goes on, until the
// cache is full. The host learns of the end one step late; that step's row
// is dropped.
// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --validate --generate=12 \
// RUN:   --prompt-ids=60,9,33 --prompt-ids=5,17,42,8,3,29,11 --eos-id=72 --max-seq=16 \
// RUN:   | FileCheck %s --check-prefix=EOS
// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --validate --generate=12 \
// RUN:   --prompt-ids=60,9,33 --prompt-ids=5,17,42,8,3,29,11 --eos-id=72 --max-seq=16 \
// RUN:   --host-sampling | FileCheck %s --check-prefix=EOS
// EOS:      {{^}}86 15 37 72{{$}}
// EOS-NEXT: {{^}}70 32 83 50 46 50 92 22 65 45{{$}}
// EOS:      stopped: the cache is full (--max-seq)

// Every sequence ends: the step launched behind the last one is discarded.
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --eos-id=74 | FileCheck %s --check-prefix=END
// END: {{^}}58 45 2 74{{$}}
// END: stopped: the sequence emitted the end id (--eos-id)

// A one-token prompt, whose prefill picks on the device; one token only.
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate --generate=6 \
// RUN:   --prompt-ids=5 | FileCheck %s --check-prefix=ONE
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --validate --generate=6 \
// RUN:   --prompt-ids=5 --host-sampling | FileCheck %s --check-prefix=ONE
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --backend=ref --generate=6 \
// RUN:   --prompt-ids=5 | FileCheck %s --check-prefix=ONE
// ONE: {{^}}17 17 36 49 49 49{{$}}
// RUN: onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --generate=1 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s --check-prefix=FIRST
// FIRST: {{^}}58{{$}}
// FIRST-NEXT: prefill: 7 tokens

// A device failure while two steps are in flight (the 8th fence wait of the
// process, mid-generation) is an error and the run stops: no hang.
// RUN: env ONYX_VK_FAULT=wait:8 not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx \
// RUN:   --validate --generate=12 --prompt-ids=5,17,42,8,3,29,11 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: env ONYX_VK_FAULT=wait:8:timeout not onyx-run %S/../../../examples/decoders/llama_tiny.onnx \
// RUN:   --validate --generate=12 --prompt-ids=5,17,42,8,3,29,11 --prompt-ids=60,9,33 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TIMEOUT
// FAULT: error: vkWaitForFences failed: VK_ERROR_DEVICE_LOST
// TIMEOUT: did not finish its work within {{[0-9]+}} s (--gpu-timeout); it is treated as lost

// RUN: not onyx-run %S/../../../examples/decoders/gpt2_tiny.onnx --host-sampling 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOGENERATE
// NOGENERATE: onyx-run: error: --host-sampling applies to --generate

func.func @main() {
  return
}

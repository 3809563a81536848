// onyx-run --generate on a tiny decoder in ONNX Runtime GenAI's layout
// (test/models/gen_contrib_ops.py: SimplifiedLayerNormalization,
// SkipSimplifiedLayerNormalization, GroupQueryAttention with rotary caches,
// seqlens_k and total_sequence_length from the attention mask; random
// weights) continues a prompt with ONNX Runtime's greedy ids: the same
// check prefix reads the ids test/models/ort_greedy.js printed
// (genai_decoder.greedy.txt), on the reference backend and on Vulkan.

// RUN: onyx-run %models/contrib/genai_decoder.onnx --backend=ref \
// RUN:   --generate=12 --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s
// RUN: onyx-run %models/contrib/genai_decoder.onnx --validate \
// RUN:   --generate=12 --prompt-ids=5,17,42,8,3,29,11 | FileCheck %s
// RUN: FileCheck %s --input-file=%models/contrib/genai_decoder.greedy.txt
// CHECK: {{^(ids: )?}}31 20 8 5 10 52 47 33 10 40 26 51{{$}}

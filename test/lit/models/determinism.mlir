// Determinism: compiling the same model twice gives the same gpu-dialect
// module byte for byte (kernels' SPIR-V, the buffer plan, the host
// program), so that a cache key may depend on it; running it twice, in two
// processes (whose heap addresses differ, so any order taken from pointers
// would show), gives bit-identical outputs on the device. Models with
// reductions, convolutions, attention and symbolic dimensions, lowered for
// lavapipe and for another target.

// RUN: rm -rf %t && mkdir -p %t

// RUN: onyx-opt %models/transformer_block.onnx --target=lavapipe --lower -o %t/block.1.mlir
// RUN: onyx-opt %models/transformer_block.onnx --target=lavapipe --lower -o %t/block.2.mlir
// RUN: cmp %t/block.1.mlir %t/block.2.mlir
// RUN: FileCheck %s --check-prefix=LOWERED --input-file=%t/block.1.mlir
// LOWERED: gpu.kernel @{{.*}} spirv(dense<
// LOWERED: gpu.buffer weights
// LOWERED: gpu.alloc
// LOWERED: gpu.dispatch

// RUN: onyx-opt %models/transformer_block.onnx --target=nvidia --lower -o %t/block-nv.1.mlir
// RUN: onyx-opt %models/transformer_block.onnx --target=nvidia --lower -o %t/block-nv.2.mlir
// RUN: cmp %t/block-nv.1.mlir %t/block-nv.2.mlir

// RUN: onyx-opt %models/cnn_small.onnx --target=lavapipe --lower -o %t/cnn.1.mlir
// RUN: onyx-opt %models/cnn_small.onnx --target=lavapipe --lower -o %t/cnn.2.mlir
// RUN: cmp %t/cnn.1.mlir %t/cnn.2.mlir

// Symbolic dimensions: the host program sizes everything at run time.
// RUN: onyx-opt %models/contrib/genai_decoder.onnx --target=lavapipe --lower -o %t/decoder.1.mlir
// RUN: onyx-opt %models/contrib/genai_decoder.onnx --target=lavapipe --lower -o %t/decoder.2.mlir
// RUN: cmp %t/decoder.1.mlir %t/decoder.2.mlir

// RUN: onyx-run %models/transformer_block.onnx \
// RUN:   --input=@%models/transformer_block.input_0.npy --output=@%t/block-out.1.npy
// RUN: onyx-run %models/transformer_block.onnx \
// RUN:   --input=@%models/transformer_block.input_0.npy --output=@%t/block-out.2.npy
// RUN: cmp %t/block-out.1.npy %t/block-out.2.npy
// RUN: onyx-run %models/cnn_small.onnx \
// RUN:   --input=@%models/cnn_small.input_0.npy --output=@%t/cnn-out.1.npy
// RUN: onyx-run %models/cnn_small.onnx \
// RUN:   --input=@%models/cnn_small.input_0.npy --output=@%t/cnn-out.2.npy
// RUN: cmp %t/cnn-out.1.npy %t/cnn-out.2.npy

// Generation samples from the logits: the same seed gives the same ids.
// RUN: onyx-run %models/contrib/genai_decoder.onnx --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --temperature=0.8 --top-p=0.9 --seed=7 \
// RUN:   | grep -v ' ms' > %t/sampled.1.txt
// RUN: onyx-run %models/contrib/genai_decoder.onnx --generate=12 \
// RUN:   --prompt-ids=5,17,42,8,3,29,11 --temperature=0.8 --top-p=0.9 --seed=7 \
// RUN:   | grep -v ' ms' > %t/sampled.2.txt
// RUN: cmp %t/sampled.1.txt %t/sampled.2.txt

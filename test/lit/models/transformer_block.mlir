// The GPT-2-style block has a symbolic sequence length: onyx-run binds it
// from the input's shape, so the shape computations fold and the model runs
// at both of the sequence lengths PyTorch's outputs were computed at, from
// the opset-13 export (decomposed LayerNorm) and the opset-17 one.

// RUN: onyx-run %models/transformer_block.onnx --backend=ref \
// RUN:   --input=@%models/transformer_block.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=SEQ16
// RUN: onyx-run %models/transformer_block.opset17.onnx --backend=ref \
// RUN:   --input=@%models/transformer_block.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=SEQ16
// SEQ16: output 0: tensor<1x16x16xf32> = [
// SEQ16: output 0: max abs error {{.*}}: PASS

// RUN: onyx-run %models/transformer_block.onnx --backend=ref \
// RUN:   --input=@%models/transformer_block.case1.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.case1.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=SEQ7
// RUN: onyx-run %models/transformer_block.opset17.onnx --backend=ref \
// RUN:   --input=@%models/transformer_block.case1.input_0.npy \
// RUN:   --expected-output=@%models/transformer_block.case1.output_0.npy \
// RUN:   --rtol=1e-4 --atol=1e-5 | FileCheck %s --check-prefix=SEQ7
// SEQ7: output 0: tensor<1x7x16xf32> = [
// SEQ7: output 0: max abs error {{.*}}: PASS

// --bind-dims must agree with the inputs.
// RUN: not onyx-run %models/transformer_block.onnx --backend=ref --bind-dims=seq=7 \
// RUN:   --input=@%models/transformer_block.input_0.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CONFLICT
// CONFLICT: error: dimension 'seq' is bound to 7 and, by input 'x', to 16

// The imported function is specialized to the bound length, and the
// decomposed LayerNorms and GELU of the opset-13 export become one op each.
// RUN: onyx-run %models/transformer_block.onnx --backend=ref \
// RUN:   --input=@%models/transformer_block.case1.input_0.npy \
// RUN:   --print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=IR
// IR-LABEL: IR Dump After ONNX import (import-onnx)
// IR: func.func @main(%arg0: tensor<1x7x16xf32>
// IR-LABEL: IR Dump After Canonicalizer (canonicalize)
// IR-NOT: onnx.ReduceMean
// IR: "onnx.LayerNormalization"
// IR-NOT: onnx.ReduceMean
// IR: "onnx.LayerNormalization"
// IR: "onnx.Gelu"
// IR-NOT: onnx.ReduceMean
// IR-LABEL: IR Dump After CSE (cse)

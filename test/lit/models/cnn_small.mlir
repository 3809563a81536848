// The small CNN (Conv, BatchNormalization, Relu, MaxPool, GlobalAveragePool,
// Flatten, Gemm) at opsets 13 and 17 runs on the reference backend and
// matches PyTorch's outputs; canonicalization folds each
// BatchNormalization into the Conv before it.

// RUN: onyx-run %models/cnn_small.onnx --backend=ref --input=@%models/cnn_small.input_0.npy \
// RUN:   --expected-output=@%models/cnn_small.output_0.npy --rtol=1e-4 --atol=1e-5 \
// RUN:   | FileCheck %s
// RUN: onyx-run %models/cnn_small.opset17.onnx --backend=ref --input=@%models/cnn_small.input_0.npy \
// RUN:   --expected-output=@%models/cnn_small.output_0.npy --rtol=1e-4 --atol=1e-5 \
// RUN:   | FileCheck %s

// CHECK: output 0: tensor<1x10xf32> = [
// CHECK: output 0: max abs error {{.*}}: PASS

// RUN: onyx-run %models/cnn_small.onnx --backend=ref --input=@%models/cnn_small.input_0.npy \
// RUN:   --print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=IR
// IR-LABEL: IR Dump After ONNX import (import-onnx)
// IR: "onnx.BatchNormalization"
// IR-LABEL: IR Dump After Canonicalizer (canonicalize)
// IR-NOT: "onnx.BatchNormalization"
// IR-LABEL: IR Dump After CSE (cse)

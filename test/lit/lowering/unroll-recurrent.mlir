// RNN, GRU and LSTM on Vulkan, unrolled by onnx-unroll-recurrent into
// MatMul, Slice and elementwise ops per step, give what the reference
// backend gives: a bidirectional LSTM with sequence_lens (steps past an
// entry's length keep its state and write zeros; the reverse direction
// starts at the last valid step), initial states, peepholes and clip; a
// batch-first GRU; a reverse GRU with linear_before_reset; a bidirectional
// RNN with Affine and ScaledTanh and their alpha and beta.

// RUN: split-file %s %t
// RUN: onyx-opt %t/main.mlir --onnx-unroll-recurrent | FileCheck %s --check-prefix=IR
// RUN: onyx-run %t/main.mlir --validate --check --atol=1e-5 \
// RUN:   --input=3x2x2xf32=0.5,-1,0.25,0.75,-0.5,1,1.5,-0.25,0.1,0.2,-0.3,0.4 \
// RUN:   --input=2x3x2xf32=1,-0.5,0.3,0.2,-0.7,0.9,0.4,0.4,-1,0.6,0.8,-0.2 \
// RUN:   | FileCheck %s
// RUN: not onyx-opt %t/dynamic.mlir --onnx-unroll-recurrent 2>&1 | FileCheck %s --check-prefix=DYNAMIC

// A batch known only at run time: the steps' ops take `?` rows, the zero
// initial state is a ConstantOfShape of [batch, hidden] from Shape(X), and
// sequence_lens is an input. Lowered once with the batch `?`, the module
// runs at batches 2 and 3 and matches the reference backend.
// RUN: onyx-opt %t/batch.mlir --onnx-unroll-recurrent | FileCheck %s --check-prefix=BATCH-IR
// RUN: onyx-opt %t/batch.mlir --lower --target=lavapipe -o %t/batch-gpu.mlir
// RUN: FileCheck %s --check-prefix=BATCH-GPU < %t/batch-gpu.mlir
// RUN: onyx-run %t/batch.mlir --backend=ref --input=3x2x2xf32=0.5,-1,0.25,0.75,-0.5,1,1.5,-0.25,0.1,0.2,-0.3,0.4 --input=2xi32=3,2 \
// RUN:   --input=2x3x2xf32=1,-0.5,0.3,0.2,-0.7,0.9,0.4,0.4,-1,0.6,0.8,-0.2 \
// RUN:   --output=@%t/b2-0.npy --output=@%t/b2-1.npy --output=@%t/b2-2.npy --output=@%t/b2-3.npy --output=@%t/b2-4.npy
// RUN: onyx-run %t/batch-gpu.mlir --validate --atol=1e-5 --input=3x2x2xf32=0.5,-1,0.25,0.75,-0.5,1,1.5,-0.25,0.1,0.2,-0.3,0.4 --input=2xi32=3,2 \
// RUN:   --input=2x3x2xf32=1,-0.5,0.3,0.2,-0.7,0.9,0.4,0.4,-1,0.6,0.8,-0.2 \
// RUN:   --expected-output=@%t/b2-0.npy --expected-output=@%t/b2-1.npy --expected-output=@%t/b2-2.npy --expected-output=@%t/b2-3.npy --expected-output=@%t/b2-4.npy | FileCheck %s --check-prefix=BATCH
// RUN: onyx-run %t/batch.mlir --backend=ref --input=3x3x2xf32=0.5,-1,0.25,0.75,-0.5,1,1.5,-0.25,0.1,0.2,-0.3,0.4,0.9,-0.9,0.3,0.6,-0.6,0.2 \
// RUN:   --input=3xi32=1,3,0 --input=3x3x2xf32=1,-0.5,0.3,0.2,-0.7,0.9,0.4,0.4,-1,0.6,0.8,-0.2,0.1,0.2,0.3,0.4,0.5,0.6 \
// RUN:   --output=@%t/b3-0.npy --output=@%t/b3-1.npy --output=@%t/b3-2.npy --output=@%t/b3-3.npy --output=@%t/b3-4.npy
// RUN: onyx-run %t/batch-gpu.mlir --validate --atol=1e-5 --input=3x3x2xf32=0.5,-1,0.25,0.75,-0.5,1,1.5,-0.25,0.1,0.2,-0.3,0.4,0.9,-0.9,0.3,0.6,-0.6,0.2 \
// RUN:   --input=3xi32=1,3,0 --input=3x3x2xf32=1,-0.5,0.3,0.2,-0.7,0.9,0.4,0.4,-1,0.6,0.8,-0.2,0.1,0.2,0.3,0.4,0.5,0.6 \
// RUN:   --expected-output=@%t/b3-0.npy --expected-output=@%t/b3-1.npy --expected-output=@%t/b3-2.npy --expected-output=@%t/b3-3.npy --expected-output=@%t/b3-4.npy | FileCheck %s --check-prefix=BATCH
// BATCH-GPU: gpu.dim %arg0[1]
// BATCH-COUNT-5: max abs error {{.*}}: PASS
// BATCH-NOT: FAIL
// BATCH-IR:     onnx.Shape
// BATCH-IR:     onnx.ConstantOfShape
// BATCH-IR-NOT: onnx.LSTM
// BATCH-IR-NOT: onnx.GRU

// IR-NOT: onnx.LSTM
// IR-NOT: onnx.GRU
// IR-NOT: onnx.RNN
// IR: return

// CHECK-COUNT-8: vs ref: max abs error {{.*}}: PASS
// CHECK-NOT: FAIL

// DYNAMIC: error: 'onnx.GRU' op has a sequence length or hidden size known only at run time (X is tensor<?x2x2xf32>, R is tensor<1x9x3xf32>); a recurrent layer runs on Vulkan unrolled, its steps known when compiling (bind the model's symbolic dimensions, or --backend=ref)

//--- main.mlir
func.func @main(%x: tensor<3x2x2xf32>, %xb: tensor<2x3x2xf32>) -> (tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x3x1x3xf32>, tensor<2x1x3xf32>, tensor<3x1x2x3xf32>, tensor<3x2x2x3xf32>, tensor<2x2x3xf32>) {
  %none = "onnx.NoValue"() {value} : () -> none
  %lw = onnx.Constant dense<[[[-0.51, 0.34], [-0.07, 0.27], [0.57, 0.05], [0.0, -0.51], [-0.28, -0.0], [0.22, 0.36], [-0.14, -0.52], [-0.25, 0.49], [-0.34, -0.06], [0.52, -0.57], [0.12, 0.54], [-0.32, 0.06]], [[0.49, -0.44], [0.03, 0.3], [0.2, -0.04], [-0.35, -0.01], [-0.15, -0.03], [-0.16, 0.41], [0.32, -0.22], [0.09, -0.27], [-0.06, -0.18], [0.19, -0.16], [-0.05, 0.26], [-0.1, 0.49]]]> : tensor<2x12x2xf32>
  %lr = onnx.Constant dense<[[[-0.38, 0.29, -0.09], [-0.09, 0.16, 0.03], [-0.1, -0.6, -0.49], [0.25, 0.03, 0.24], [0.55, 0.22, -0.54], [-0.23, 0.11, -0.32], [0.56, 0.53, 0.42], [-0.03, 0.41, -0.44], [-0.23, -0.04, 0.29], [-0.02, -0.44, -0.19], [-0.21, -0.24, -0.4], [-0.1, -0.06, 0.33]], [[0.36, 0.03, -0.05], [0.33, 0.46, 0.21], [0.36, 0.53, -0.55], [0.45, -0.27, -0.03], [0.36, 0.26, -0.42], [0.19, -0.52, -0.17], [0.38, -0.09, 0.12], [0.27, 0.39, 0.31], [-0.59, -0.1, -0.04], [-0.53, 0.05, 0.13], [0.39, 0.53, -0.45], [-0.32, 0.19, -0.44]]]> : tensor<2x12x3xf32>
  %lb = onnx.Constant dense<[[-0.33, 0.09, -0.4, 0.34, 0.43, -0.56, 0.04, 0.36, 0.57, -0.27, -0.4, 0.45, 0.49, -0.36, -0.07, 0.26, 0.41, -0.4, 0.2, 0.37, 0.06, -0.4, -0.56, -0.26], [0.37, -0.55, -0.59, -0.17, -0.52, -0.42, -0.57, 0.03, 0.24, -0.09, -0.44, -0.2, 0.11, 0.53, 0.59, -0.31, -0.59, 0.4, 0.51, -0.05, 0.33, 0.44, 0.13, 0.45]]> : tensor<2x24xf32>
  %lens = onnx.Constant dense<[3, 1]> : tensor<2xi32>
  %h0 = onnx.Constant dense<[[[-0.57, -0.27, -0.27], [-0.46, 0.49, -0.56]], [[0.21, -0.51, -0.17], [-0.1, -0.38, 0.03]]]> : tensor<2x2x3xf32>
  %c0 = onnx.Constant dense<[[[0.04, -0.22, 0.28], [-0.41, -0.37, -0.17]], [[-0.15, -0.35, 0.5], [0.39, -0.47, -0.16]]]> : tensor<2x2x3xf32>
  %p = onnx.Constant dense<[[-0.32, -0.06, -0.27, 0.0, 0.51, -0.14, 0.18, 0.11, 0.3], [-0.53, 0.29, 0.54, 0.12, -0.25, 0.21, 0.25, 0.19, -0.42]]> : tensor<2x9xf32>
  %ly, %lh, %lc = "onnx.LSTM"(%x, %lw, %lr, %lb, %lens, %h0, %c0, %p) {direction = "bidirectional", hidden_size = 3 : si64, clip = 1.5 : f32} : (tensor<3x2x2xf32>, tensor<2x12x2xf32>, tensor<2x12x3xf32>, tensor<2x24xf32>, tensor<2xi32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x9xf32>) -> (tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>)
  %gw = onnx.Constant dense<[[[0.57, 0.55], [-0.09, 0.11], [-0.55, 0.59], [0.38, 0.16], [0.31, -0.37], [-0.23, -0.3], [0.12, -0.49], [0.47, -0.05], [-0.07, -0.47]]]> : tensor<1x9x2xf32>
  %gr = onnx.Constant dense<[[[0.22, 0.38, 0.16], [-0.31, 0.34, -0.43], [0.39, 0.1, -0.25], [0.02, 0.15, -0.29], [0.42, -0.09, 0.47], [0.4, -0.48, 0.18], [-0.23, 0.3, 0.05], [-0.05, 0.47, -0.53], [0.07, -0.21, -0.56]]]> : tensor<1x9x3xf32>
  %gb = onnx.Constant dense<[[0.3, 0.07, 0.47, 0.12, -0.2, 0.58, -0.46, -0.54, 0.28, -0.15, -0.17, 0.45, -0.21, 0.47, 0.17, -0.21, -0.53, -0.31]]> : tensor<1x18xf32>
  %gy, %gh = "onnx.GRU"(%xb, %gw, %gr, %gb) {hidden_size = 3 : si64, layout = 1 : si64} : (tensor<2x3x2xf32>, tensor<1x9x2xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>) -> (tensor<2x3x1x3xf32>, tensor<2x1x3xf32>)
  %gy2, %gh2 = "onnx.GRU"(%x, %gw, %gr, %gb) {hidden_size = 3 : si64, direction = "reverse", linear_before_reset = 1 : si64} : (tensor<3x2x2xf32>, tensor<1x9x2xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>) -> (tensor<3x1x2x3xf32>, tensor<1x2x3xf32>)
  %rw = onnx.Constant dense<[[[0.56, -0.11], [-0.41, -0.24], [0.48, -0.4]], [[0.33, -0.44], [0.55, 0.04], [-0.55, 0.52]]]> : tensor<2x3x2xf32>
  %rr = onnx.Constant dense<[[[-0.17, 0.28, 0.03], [-0.49, -0.47, -0.42], [-0.41, -0.54, -0.54]], [[0.54, -0.49, 0.01], [-0.46, -0.34, 0.32], [0.53, -0.04, -0.59]]]> : tensor<2x3x3xf32>
  %ry, %rh = "onnx.RNN"(%x, %rw, %rr) {direction = "bidirectional", hidden_size = 3 : si64, activations = ["Affine", "ScaledTanh"], activation_alpha = [0.5 : f32, 1.5 : f32], activation_beta = [0.1 : f32, 0.7 : f32]} : (tensor<3x2x2xf32>, tensor<2x3x2xf32>, tensor<2x3x3xf32>) -> (tensor<3x2x2x3xf32>, tensor<2x2x3xf32>)
  return %ly, %lh, %lc, %gy, %gh, %gy2, %ry, %rh : tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x3x1x3xf32>, tensor<2x1x3xf32>, tensor<3x1x2x3xf32>, tensor<3x2x2x3xf32>, tensor<2x2x3xf32>
}

//--- dynamic.mlir
func.func @main(%x: tensor<?x2x2xf32>, %w: tensor<1x9x2xf32>, %r: tensor<1x9x3xf32>) -> tensor<1x2x3xf32> {
  %y, %h = "onnx.GRU"(%x, %w, %r) {hidden_size = 3 : si64} : (tensor<?x2x2xf32>, tensor<1x9x2xf32>, tensor<1x9x3xf32>) -> (tensor<?x1x2x3xf32>, tensor<1x2x3xf32>)
  return %h : tensor<1x2x3xf32>
}

//--- batch.mlir
func.func @main(%x: tensor<3x?x2xf32>, %lens: tensor<?xi32>, %xb: tensor<?x3x2xf32>) -> (tensor<3x2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x?x3xf32>, tensor<?x3x1x3xf32>, tensor<?x1x3xf32>) {
  %none = "onnx.NoValue"() {value} : () -> none
  %lw = onnx.Constant dense<[[[-0.51, 0.34], [-0.07, 0.27], [0.57, 0.05], [0.0, -0.51], [-0.28, -0.0], [0.22, 0.36], [-0.14, -0.52], [-0.25, 0.49], [-0.34, -0.06], [0.52, -0.57], [0.12, 0.54], [-0.32, 0.06]], [[0.49, -0.44], [0.03, 0.3], [0.2, -0.04], [-0.35, -0.01], [-0.15, -0.03], [-0.16, 0.41], [0.32, -0.22], [0.09, -0.27], [-0.06, -0.18], [0.19, -0.16], [-0.05, 0.26], [-0.1, 0.49]]]> : tensor<2x12x2xf32>
  %lr = onnx.Constant dense<[[[-0.38, 0.29, -0.09], [-0.09, 0.16, 0.03], [-0.1, -0.6, -0.49], [0.25, 0.03, 0.24], [0.55, 0.22, -0.54], [-0.23, 0.11, -0.32], [0.56, 0.53, 0.42], [-0.03, 0.41, -0.44], [-0.23, -0.04, 0.29], [-0.02, -0.44, -0.19], [-0.21, -0.24, -0.4], [-0.1, -0.06, 0.33]], [[0.36, 0.03, -0.05], [0.33, 0.46, 0.21], [0.36, 0.53, -0.55], [0.45, -0.27, -0.03], [0.36, 0.26, -0.42], [0.19, -0.52, -0.17], [0.38, -0.09, 0.12], [0.27, 0.39, 0.31], [-0.59, -0.1, -0.04], [-0.53, 0.05, 0.13], [0.39, 0.53, -0.45], [-0.32, 0.19, -0.44]]]> : tensor<2x12x3xf32>
  %lb = onnx.Constant dense<[[-0.33, 0.09, -0.4, 0.34, 0.43, -0.56, 0.04, 0.36, 0.57, -0.27, -0.4, 0.45, 0.49, -0.36, -0.07, 0.26, 0.41, -0.4, 0.2, 0.37, 0.06, -0.4, -0.56, -0.26], [0.37, -0.55, -0.59, -0.17, -0.52, -0.42, -0.57, 0.03, 0.24, -0.09, -0.44, -0.2, 0.11, 0.53, 0.59, -0.31, -0.59, 0.4, 0.51, -0.05, 0.33, 0.44, 0.13, 0.45]]> : tensor<2x24xf32>
  %p = onnx.Constant dense<[[-0.32, -0.06, -0.27, 0.0, 0.51, -0.14, 0.18, 0.11, 0.3], [-0.53, 0.29, 0.54, 0.12, -0.25, 0.21, 0.25, 0.19, -0.42]]> : tensor<2x9xf32>
  %ly, %lh, %lc = "onnx.LSTM"(%x, %lw, %lr, %lb, %lens, %none, %none, %p) {direction = "bidirectional", hidden_size = 3 : si64} : (tensor<3x?x2xf32>, tensor<2x12x2xf32>, tensor<2x12x3xf32>, tensor<2x24xf32>, tensor<?xi32>, none, none, tensor<2x9xf32>) -> (tensor<3x2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x?x3xf32>)
  %gw = onnx.Constant dense<[[[0.57, 0.55], [-0.09, 0.11], [-0.55, 0.59], [0.38, 0.16], [0.31, -0.37], [-0.23, -0.3], [0.12, -0.49], [0.47, -0.05], [-0.07, -0.47]]]> : tensor<1x9x2xf32>
  %gr = onnx.Constant dense<[[[0.22, 0.38, 0.16], [-0.31, 0.34, -0.43], [0.39, 0.1, -0.25], [0.02, 0.15, -0.29], [0.42, -0.09, 0.47], [0.4, -0.48, 0.18], [-0.23, 0.3, 0.05], [-0.05, 0.47, -0.53], [0.07, -0.21, -0.56]]]> : tensor<1x9x3xf32>
  %gb = onnx.Constant dense<[[0.3, 0.07, 0.47, 0.12, -0.2, 0.58, -0.46, -0.54, 0.28, -0.15, -0.17, 0.45, -0.21, 0.47, 0.17, -0.21, -0.53, -0.31]]> : tensor<1x18xf32>
  %gy, %gh = "onnx.GRU"(%xb, %gw, %gr, %gb) {hidden_size = 3 : si64, layout = 1 : si64} : (tensor<?x3x2xf32>, tensor<1x9x2xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>) -> (tensor<?x3x1x3xf32>, tensor<?x1x3xf32>)
  return %ly, %lh, %lc, %gy, %gh : tensor<3x2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x?x3xf32>, tensor<?x3x1x3xf32>, tensor<?x1x3xf32>
}

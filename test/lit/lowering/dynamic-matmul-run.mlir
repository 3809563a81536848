// Products with dims known only at run time, lowered and loaded once and run
// at several shapes on the device with the validation layer, against the
// reference backend: M of 1 (the matrix-vector kernel), 7 and 128 (the tiled
// one), broadcast batches, a k known only at run time, Gemm, a fused epilogue
// and attention's two products (N, then k, the growing past length). The
// kernels are shaped for a GPU (--kernels-for=gpu): a CPU device keeps k
// whole.

// RUN: split-file %s %t
// RUN: %python %S/Inputs/make_npy.py %t/a0.npy 1 3 128 8
// RUN: %python %S/Inputs/make_npy.py %t/b0.npy 2 1 8 40
// RUN: %python %S/Inputs/make_npy.py %t/w0.npy 3 40 8
// RUN: %python %S/Inputs/make_npy.py %t/a1.npy 4 1 1 70
// RUN: %python %S/Inputs/make_npy.py %t/b1.npy 5 2 70 300
// RUN: %python %S/Inputs/make_npy.py %t/w1.npy 6 300 8
// RUN: %python %S/Inputs/make_npy.py %t/a2.npy 7 2 7 5
// RUN: %python %S/Inputs/make_npy.py %t/b2.npy 8 2 5 33
// RUN: %python %S/Inputs/make_npy.py %t/w2.npy 9 33 8
// RUN: %python %S/Inputs/make_npy.py %t/bias.npy 10 8
// RUN: %python %S/Inputs/make_npy.py %t/b3.npy 11 3 5 33
// RUN: onyx-run %t/batched.mlir --kernels-for=gpu --validate --check --profile \
// RUN:   --input-set='@%t/a0.npy;@%t/b0.npy;@%t/w0.npy;@%t/bias.npy' \
// RUN:   --input-set='@%t/a1.npy;@%t/b1.npy;@%t/w1.npy;@%t/bias.npy' \
// RUN:   --input-set='@%t/a2.npy;@%t/b2.npy;@%t/w2.npy;@%t/bias.npy' \
// RUN:   --input-set='@%t/a1.npy;@%t/b1.npy;@%t/w1.npy;@%t/bias.npy' | FileCheck %s --check-prefix=BATCHED

// Shapes that do not fit the op are an error of the run at the op, not a
// wrong output: an inner dimension that differs, batches that do not
// broadcast.
// RUN: not onyx-run %t/batched.mlir --input-set='@%t/a2.npy;@%t/b0.npy;@%t/w0.npy;@%t/bias.npy' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INNER
// RUN: not onyx-run %t/batched.mlir --input-set='@%t/a2.npy;@%t/b3.npy;@%t/w2.npy;@%t/bias.npy' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BROADCAST

// RUN: %python %S/Inputs/make_npy.py %t/x1.npy 12 1 256
// RUN: %python %S/Inputs/make_npy.py %t/x3.npy 13 3 256
// RUN: %python %S/Inputs/make_npy.py %t/x7.npy 14 7 256
// RUN: %python %S/Inputs/make_npy.py %t/x128.npy 15 128 256
// RUN: %python %S/Inputs/make_npy.py %t/lw.npy 24 96 256
// RUN: %python %S/Inputs/make_npy.py %t/lc.npy 25 96
// RUN: %python %S/Inputs/make_npy.py %t/lw2.npy 26 256 128
// RUN: onyx-run %t/linear.mlir --kernels-for=gpu --validate --check --atol=1e-5 \
// RUN:   --input-set='@%t/x128.npy;@%t/lw.npy;@%t/lc.npy;@%t/lw2.npy' \
// RUN:   --input-set='@%t/x1.npy;@%t/lw.npy;@%t/lc.npy;@%t/lw2.npy' \
// RUN:   --input-set='@%t/x7.npy;@%t/lw.npy;@%t/lc.npy;@%t/lw2.npy' \
// RUN:   --input-set='@%t/x3.npy;@%t/lw.npy;@%t/lc.npy;@%t/lw2.npy' | FileCheck %s --check-prefix=LINEAR

// RUN: %python %S/Inputs/make_npy.py %t/q1.npy 16 1 2 1 64
// RUN: %python %S/Inputs/make_npy.py %t/k1.npy 17 1 2 64 9
// RUN: %python %S/Inputs/make_npy.py %t/v1.npy 18 1 2 9 64
// RUN: %python %S/Inputs/make_npy.py %t/q7.npy 19 1 2 7 64
// RUN: %python %S/Inputs/make_npy.py %t/k7.npy 20 1 2 64 7
// RUN: %python %S/Inputs/make_npy.py %t/v7.npy 21 1 2 7 64
// RUN: %python %S/Inputs/make_npy.py %t/k2.npy 22 1 2 64 10
// RUN: %python %S/Inputs/make_npy.py %t/v2.npy 23 1 2 10 64
// RUN: onyx-run %t/attention.mlir --kernels-for=gpu --validate --check --atol=1e-6 \
// RUN:   --input-set='@%t/q7.npy;@%t/k7.npy;@%t/v7.npy' \
// RUN:   --input-set='@%t/q1.npy;@%t/k1.npy;@%t/v1.npy' \
// RUN:   --input-set='@%t/q1.npy;@%t/k2.npy;@%t/v2.npy' | FileCheck %s --check-prefix=ATTENTION

// k split among workgroups where the run's product has fewer than 128
// tiles and a tile's whole k is more work than a second dispatch (partial
// sums, then a kernel adding them), whole otherwise, decided on the host: a
// linear layer at M of 300 (split), 1 and 7 (whole: few rows) and batches
// of 2 (split) and 200 (whole) products of 64 x 256 x 64.
// RUN: %python %S/Inputs/make_npy.py %t/sx300.npy 27 300 256
// RUN: %python %S/Inputs/make_npy.py %t/sw.npy 28 256 192
// RUN: %python %S/Inputs/make_npy.py %t/sc.npy 29 192
// RUN: %python %S/Inputs/make_npy.py %t/ba2.npy 30 2 64 256
// RUN: %python %S/Inputs/make_npy.py %t/bb2.npy 31 2 256 64
// RUN: %python %S/Inputs/make_npy.py %t/ba200.npy 32 200 64 256
// RUN: %python %S/Inputs/make_npy.py %t/bb200.npy 33 200 256 64
// RUN: onyx-run %t/split.mlir --kernels-for=gpu --validate --check --atol=1e-5 --profile \
// RUN:   --input-set='@%t/sx300.npy;@%t/sw.npy;@%t/sc.npy;@%t/ba2.npy;@%t/bb2.npy' \
// RUN:   --input-set='@%t/x1.npy;@%t/sw.npy;@%t/sc.npy;@%t/ba200.npy;@%t/bb200.npy' \
// RUN:   --input-set='@%t/x7.npy;@%t/sw.npy;@%t/sc.npy;@%t/ba2.npy;@%t/bb2.npy' \
// RUN:   | FileCheck %s --check-prefix=SPLIT

// SPLIT: input set 0: run
// SPLIT: output 0 vs ref: {{.*}}: PASS
// SPLIT-NEXT: output 1 vs ref: {{.*}}: PASS
// SPLIT: input set 1: run
// SPLIT: output 0 vs ref: {{.*}}: PASS
// SPLIT-NEXT: output 1 vs ref: {{.*}}: PASS
// SPLIT: input set 2: run
// SPLIT: output 0 vs ref: {{.*}}: PASS
// SPLIT-NEXT: output 1 vs ref: {{.*}}: PASS

// BATCHED: compile: {{[0-9.]+}} ms (8 kernels compiled), load: {{[0-9.]+}} ms (8 pipelines created)
// BATCHED: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// BATCHED-NEXT: output 0: tensor<3x128x40xf32>
// BATCHED-NEXT: output 1: tensor<3x128x8xf32>
// BATCHED-NEXT: output 0 vs ref: {{.*}}: PASS
// BATCHED-NEXT: output 1 vs ref: {{.*}}: PASS
// BATCHED: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// BATCHED-NEXT: output 0: tensor<2x1x300xf32>
// BATCHED-NEXT: output 1: tensor<2x1x8xf32>
// BATCHED-NEXT: output 0 vs ref: {{.*}}: PASS
// BATCHED-NEXT: output 1 vs ref: {{.*}}: PASS
// BATCHED: input set 2: run {{.*}}, 0 kernels compiled, 0 pipelines created
// BATCHED-NEXT: output 0: tensor<2x7x33xf32>
// BATCHED-NEXT: output 1: tensor<2x7x8xf32>
// BATCHED-NEXT: output 0 vs ref: {{.*}}: PASS
// BATCHED-NEXT: output 1 vs ref: {{.*}}: PASS
// BATCHED: input set 3: run {{.*}} (recording reused), 0 kernels compiled, 0 pipelines created
// BATCHED: output 1 vs ref: {{.*}}: PASS
// BATCHED: work: 8 kernels compiled, 8 pipelines created, 3 recordings made ({{[0-9]+}} us), 1 reused

// INNER: batched.mlir:2:8: error: 'onnx.MatMul' op has inner dimensions 5 and 8 at run time, which differ
// BROADCAST: error: 'onnx.MatMul' op has batch dimensions 2 and 3 at run time, which do not broadcast

// LINEAR: input set 0: run
// LINEAR: output 1 vs ref: {{.*}}: PASS
// LINEAR: input set 1: run
// LINEAR: output 1 vs ref: {{.*}}: PASS
// LINEAR: input set 2: run
// LINEAR: output 1 vs ref: {{.*}}: PASS
// LINEAR: input set 3: run
// LINEAR: output 0: tensor<3x96xf32>
// LINEAR: output 0 vs ref: {{.*}}: PASS
// LINEAR: output 1 vs ref: {{.*}}: PASS

// ATTENTION: input set 0: run
// ATTENTION: output 1 vs ref: {{.*}}: PASS
// ATTENTION: input set 1: run
// ATTENTION: output 0: tensor<1x2x1x9xf32>
// ATTENTION: output 1 vs ref: {{.*}}: PASS
// ATTENTION: input set 2: run
// ATTENTION: output 0: tensor<1x2x1x10xf32>
// ATTENTION: output 1 vs ref: {{.*}}: PASS

//--- batched.mlir
func.func @main(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>, %w: tensor<?x8xf32>, %bias: tensor<8xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x8xf32>) {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %1 = "onnx.MatMul"(%0, %w) : (tensor<?x?x?xf32>, tensor<?x8xf32>) -> tensor<?x?x8xf32>
  %2 = "onnx.Add"(%1, %bias) : (tensor<?x?x8xf32>, tensor<8xf32>) -> tensor<?x?x8xf32>
  %3 = "onnx.Relu"(%2) : (tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %0, %3 : tensor<?x?x?xf32>, tensor<?x?x8xf32>
}

//--- linear.mlir
// A linear layer (Gemm with transB and a bias) and a MatMul by a weight of
// static k: vec4 loads as in the specialized kernels.
func.func @main(%x: tensor<?x256xf32>, %w: tensor<96x256xf32>, %c: tensor<96xf32>, %w2: tensor<256x128xf32>) -> (tensor<?x96xf32>, tensor<?x128xf32>) {
  %y = "onnx.Gemm"(%x, %w, %c) {transB = 1 : si64, alpha = 0.5 : f32} : (tensor<?x256xf32>, tensor<96x256xf32>, tensor<96xf32>) -> tensor<?x96xf32>
  %z = "onnx.MatMul"(%x, %w2) : (tensor<?x256xf32>, tensor<256x128xf32>) -> tensor<?x128xf32>
  return %y, %z : tensor<?x96xf32>, tensor<?x128xf32>
}

//--- attention.mlir
func.func @main(%q: tensor<1x2x?x64xf32>, %kt: tensor<1x2x64x?xf32>, %v: tensor<1x2x?x64xf32>) -> (tensor<1x2x?x?xf32>, tensor<1x2x?x64xf32>) {
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x?x64xf32>, tensor<1x2x64x?xf32>) -> tensor<1x2x?x?xf32>
  %o = "onnx.MatMul"(%s, %v) : (tensor<1x2x?x?xf32>, tensor<1x2x?x64xf32>) -> tensor<1x2x?x64xf32>
  return %s, %o : tensor<1x2x?x?xf32>, tensor<1x2x?x64xf32>
}

//--- split.mlir
func.func @main(%x: tensor<?x256xf32>, %w: tensor<256x192xf32>, %c: tensor<192xf32>, %a: tensor<?x64x256xf32>, %b: tensor<?x256x64xf32>) -> (tensor<?x192xf32>, tensor<?x64x64xf32>) {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<?x256xf32>, tensor<256x192xf32>) -> tensor<?x192xf32>
  %1 = "onnx.Add"(%0, %c) : (tensor<?x192xf32>, tensor<192xf32>) -> tensor<?x192xf32>
  %2 = "onnx.MatMul"(%a, %b) : (tensor<?x64x256xf32>, tensor<?x256x64xf32>) -> tensor<?x64x64xf32>
  return %1, %2 : tensor<?x192xf32>, tensor<?x64x64xf32>
}

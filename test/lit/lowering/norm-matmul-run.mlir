// A LayerNormalization or RMSNormalization that only MatMuls read is applied
// by the products as they load A (isNormFusedIntoMatMuls): run on the device
// with the validation layer against the reference backend, at rows of 1 and
// 3 (the matrix-vector kernel), 7 (the tiled one) and 300 (the tiled one
// over several row blocks, k split among workgroups), with a bias and its
// Add fused after the product, and with a batch of weights (each product's
// rows offset by its batch).

// RUN: split-file %s %t
// RUN: %python %S/Inputs/make_npy.py %t/x1.npy 1 1 256
// RUN: %python %S/Inputs/make_npy.py %t/x3.npy 2 3 256
// RUN: %python %S/Inputs/make_npy.py %t/x7.npy 3 7 256
// RUN: %python %S/Inputs/make_npy.py %t/x300.npy 4 300 256
// RUN: %python %S/Inputs/make_npy.py %t/g.npy 5 256
// RUN: %python %S/Inputs/make_npy.py %t/b.npy 6 256
// RUN: %python %S/Inputs/make_npy.py %t/w.npy 7 256 128
// RUN: %python %S/Inputs/make_npy.py %t/w2.npy 8 256 96
// RUN: %python %S/Inputs/make_npy.py %t/c.npy 9 96
// RUN: onyx-run %t/decode.mlir --validate --check --atol=1e-5 --profile \
// RUN:   --input-set='@%t/x1.npy;@%t/g.npy;@%t/b.npy;@%t/w.npy;@%t/w2.npy;@%t/c.npy' \
// RUN:   --input-set='@%t/x3.npy;@%t/g.npy;@%t/b.npy;@%t/w.npy;@%t/w2.npy;@%t/c.npy' \
// RUN:   --input-set='@%t/x7.npy;@%t/g.npy;@%t/b.npy;@%t/w.npy;@%t/w2.npy;@%t/c.npy' \
// RUN:   --input-set='@%t/x300.npy;@%t/g.npy;@%t/b.npy;@%t/w.npy;@%t/w2.npy;@%t/c.npy' \
// RUN:   | FileCheck %s --check-prefix=DECODE
// DECODE-NOT: @layer_norm
// DECODE-NOT: @rms_norm
// DECODE: input set 0: run
// DECODE-COUNT-3: vs ref: {{.*}}: PASS
// DECODE: input set 1: run
// DECODE-COUNT-3: vs ref: {{.*}}: PASS
// DECODE: input set 2: run
// DECODE-COUNT-3: vs ref: {{.*}}: PASS
// DECODE: input set 3: run
// DECODE-COUNT-3: vs ref: {{.*}}: PASS

// RUN: %python %S/Inputs/make_npy.py %t/bx.npy 10 2 5 64
// RUN: %python %S/Inputs/make_npy.py %t/bg.npy 11 64
// RUN: %python %S/Inputs/make_npy.py %t/bw.npy 12 2 64 48
// RUN: onyx-run %t/batched.mlir --validate --check --atol=1e-5 --profile \
// RUN:   --input='@%t/bx.npy' --input='@%t/bg.npy' --input='@%t/bw.npy' \
// RUN:   | FileCheck %s --check-prefix=BATCHED
// BATCHED-NOT: @layer_norm
// BATCHED: output 0 vs ref: {{.*}}: PASS

//--- decode.mlir
func.func @main(%x: tensor<?x256xf32>, %g: tensor<256xf32>, %b: tensor<256xf32>, %w: tensor<256x128xf32>, %w2: tensor<256x96xf32>, %c: tensor<96xf32>) -> (tensor<?x128xf32>, tensor<?x96xf32>, tensor<?x128xf32>) {
  %n = "onnx.LayerNormalization"(%x, %g, %b) {axis = -1 : si64, epsilon = 1.0e-05 : f32} : (tensor<?x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %0 = "onnx.MatMul"(%n, %w) : (tensor<?x256xf32>, tensor<256x128xf32>) -> tensor<?x128xf32>
  %1 = "onnx.MatMul"(%n, %w2) : (tensor<?x256xf32>, tensor<256x96xf32>) -> tensor<?x96xf32>
  %2 = "onnx.Add"(%1, %c) : (tensor<?x96xf32>, tensor<96xf32>) -> tensor<?x96xf32>
  %r = "onnx.RMSNormalization"(%x, %g) {epsilon = 1.0e-06 : f32} : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %3 = "onnx.MatMul"(%r, %w) : (tensor<?x256xf32>, tensor<256x128xf32>) -> tensor<?x128xf32>
  return %0, %2, %3 : tensor<?x128xf32>, tensor<?x96xf32>, tensor<?x128xf32>
}

//--- batched.mlir
func.func @main(%x: tensor<2x5x64xf32>, %g: tensor<64xf32>, %w: tensor<2x64x48xf32>) -> tensor<2x5x48xf32> {
  %n = "onnx.LayerNormalization"(%x, %g) {axis = 2 : si64} : (tensor<2x5x64xf32>, tensor<64xf32>) -> tensor<2x5x64xf32>
  %0 = "onnx.MatMul"(%n, %w) : (tensor<2x5x64xf32>, tensor<2x64x48xf32>) -> tensor<2x5x48xf32>
  return %0 : tensor<2x5x48xf32>
}

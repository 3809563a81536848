// Data movement of a decoder layer read in place by the kernels around it,
// with sizes known only at run time (a decode step's batch, past and
// sequence lengths): each case checks the dispatches the lowering emits,
// then runs on lavapipe against the reference evaluator at several shapes
// in one process, an empty past among them (the prefill).

// RUN: split-file %s %t

// The key/value cache's Concat with the past reads the new part's heads
// Transpose in place through permuted strides: no transpose kernel, one
// copy per input.
// RUN: onyx-opt %t/kv-concat.mlir --target=lavapipe --lower | FileCheck %s --check-prefix=KV
// RUN: onyx-run %t/kv-concat.mlir --validate --check \
// RUN:   --input-set='1x2x0x4xf32=;1x1x2x4xf32=1,2,3,4,5,6,7,8' \
// RUN:   --input-set='2x2x2x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31;2x3x2x4xf32=100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127,128,129,130,131,132,133,134,135,136,137,138,139,140,141,142,143,144,145,146,147' \
// RUN:   | FileCheck %s --check-prefix=PASS2
// KV-NOT: gpu.dispatch @transpose
// KV: gpu.dispatch @concat
// KV: gpu.dispatch @concat_1
// KV-NOT: gpu.dispatch
// PASS2: output 0 vs ref: {{.*}}: PASS
// PASS2: output 0 vs ref: {{.*}}: PASS

// RotaryEmbedding reads a heads-transposed input in place and its cos and
// sin through the Expand that broadcasts them (a batch of 1 to 2): the
// kernels left are Cos, Sin and the rotary embedding.
// RUN: onyx-opt %t/rotary.mlir --target=lavapipe --lower | FileCheck %s --check-prefix=ROT
// RUN: onyx-run %t/rotary.mlir --validate --check \
// RUN:   --input-set='2x3x2x8xf32=-2.5,-2.13,-1.76,-1.39,-1.02,-0.65,-0.28,0.09,0.46,0.83,1.2,1.57,1.94,2.31,-2.32,-1.95,-1.58,-1.21,-0.84,-0.47,-0.1,0.27,0.64,1.01,1.38,1.75,2.12,2.49,-2.14,-1.77,-1.4,-1.03,-0.66,-0.29,0.08,0.45,0.82,1.19,1.56,1.93,2.3,-2.33,-1.96,-1.59,-1.22,-0.85,-0.48,-0.11,0.26,0.63,1.0,1.37,1.74,2.11,2.48,-2.15,-1.78,-1.41,-1.04,-0.67,-0.3,0.07,0.44,0.81,1.18,1.55,1.92,2.29,-2.34,-1.97,-1.6,-1.23,-0.86,-0.49,-0.12,0.25,0.62,0.99,1.36,1.73,2.1,2.47,-2.16,-1.79,-1.42,-1.05,-0.68,-0.31,0.06,0.43,0.8,1.17,1.54,1.91,2.28,-2.35;1x3x4xf32=0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2' \
// RUN:   --input-set='1x1x2x8xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16;1x1x4xf32=0.3,-0.7,1.1,2.0' \
// RUN:   | FileCheck %s --check-prefix=PASS2
// ROT-NOT: gpu.dispatch @transpose
// ROT-NOT: gpu.dispatch @expand
// ROT: gpu.dispatch @cos
// ROT: gpu.dispatch @sin
// ROT: gpu.dispatch @rotary_embedding
// ROT-NOT: gpu.dispatch

// A cos whose length does not broadcast to the input's fails the run at
// the rotary embedding, which reads it in place of the Expand.
// RUN: not onyx-run %t/rotary.mlir --input-set='1x3x2x8xf32=0.5;1x2x4xf32=0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8' \
// RUN:   2>&1 | FileCheck %s --check-prefix=BCAST
// BCAST: error: 'onnx.RotaryEmbedding' op cos/sin length 2 does not broadcast to 3
// With the sizes bound when it is compiled, the lowering reports it.
// RUN: not onyx-run %t/rotary.mlir --input=1x3x2x8xf32=0.5 \
// RUN:   --input=1x2x4xf32=0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: error: 'onnx.RotaryEmbedding' op cos/sin of 1x2 rows do not broadcast to the input's 1x3

//--- kv-concat.mlir
func.func @main(%past: tensor<?x2x?x4xf32>, %new: tensor<?x?x2x4xf32>) -> tensor<?x2x?x4xf32> {
  %t = "onnx.Transpose"(%new) {perm = [0, 2, 1, 3]} : (tensor<?x?x2x4xf32>) -> tensor<?x2x?x4xf32>
  %0 = "onnx.Concat"(%past, %t) {axis = 2 : si64} : (tensor<?x2x?x4xf32>, tensor<?x2x?x4xf32>) -> tensor<?x2x?x4xf32>
  return %0 : tensor<?x2x?x4xf32>
}

//--- rotary.mlir
// The Shape of the transposed input reads the Transpose's dims, which its
// view keeps.
func.func @main(%x: tensor<?x?x2x8xf32>, %angles: tensor<1x?x4xf32>) -> tensor<?x2x?x8xf32> {
  %t = "onnx.Transpose"(%x) {perm = [0, 2, 1, 3]} : (tensor<?x?x2x8xf32>) -> tensor<?x2x?x8xf32>
  %b = "onnx.Shape"(%x) {end = 1 : si64} : (tensor<?x?x2x8xf32>) -> tensor<1xi64>
  %s = "onnx.Shape"(%t) {start = 2 : si64, end = 3 : si64} : (tensor<?x2x?x8xf32>) -> tensor<1xi64>
  %four = onnx.Constant dense<[4]> : tensor<1xi64>
  %shape = "onnx.Concat"(%b, %s, %four) {axis = 0 : si64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %c0 = "onnx.Cos"(%angles) : (tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  %s0 = "onnx.Sin"(%angles) : (tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  %c = "onnx.Expand"(%c0, %shape) : (tensor<1x?x4xf32>, tensor<3xi64>) -> tensor<?x?x4xf32>
  %sn = "onnx.Expand"(%s0, %shape) : (tensor<1x?x4xf32>, tensor<3xi64>) -> tensor<?x?x4xf32>
  %0 = "onnx.RotaryEmbedding"(%t, %c, %sn) : (tensor<?x2x?x8xf32>, tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x2x?x8xf32>
  return %0 : tensor<?x2x?x8xf32>
}

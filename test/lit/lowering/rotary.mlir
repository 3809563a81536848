// RotaryEmbedding (opset 23, also formed from PyTorch's rotate-half
// subgraph): one kernel, one invocation per element. The reference
// evaluator gives known values; on lavapipe the kernel matches it in each
// form: 4-D X with caches per position, 3-D X with num_heads and
// position_ids into a cache, interleaved pairs and a partial rotary_dim.

// RUN: split-file %s %t
// RUN: onyx-opt %t/kernel.mlir --target=lavapipe --convert-onnx-to-gpu | FileCheck %s
// RUN: onyx-run %t/values.mlir --backend=ref --input=1x1x1x4xf32=1,2,3,4 | FileCheck %s --check-prefix=REF
// RUN: onyx-run %t/values.mlir --validate --check --input=1x1x1x4xf32=1,2,3,4 | FileCheck %s --check-prefix=VK
// RUN: onyx-run %t/kernel.mlir --validate --check --input=2x3x5x8xf32=0.5 \
// RUN:   --input=2x5x4xf32=-3.0,-2.63,-2.26,-1.89,-1.52,-1.15,-0.78,-0.41,-0.04,0.33,0.7,1.07,1.44,1.81,2.18,2.55,2.92,3.29,3.66,4.03,4.4,4.77,5.14,5.51,5.88,6.25,6.62,6.99,7.36,7.73,8.1,8.47,8.84,9.21,9.58,9.95,10.32,10.69,11.06,11.43 | FileCheck %s --check-prefix=VK
// RUN: onyx-run %t/positions.mlir --validate --check --input=2x3x12xf32=-3.0,-2.9,-2.8,-2.7,-2.6,-2.5,-2.4,-2.3,-2.2,-2.1,-2.0,-1.9,-1.8,-1.7,-1.6,-1.5,-1.4,-1.3,-1.2,-1.1,-1.0,-0.9,-0.8,-0.7,-0.6,-0.5,-0.4,-0.3,-0.2,-0.1,0.0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2,1.3,1.4,1.5,1.6,1.7,1.8,1.9,2.0,2.1,2.2,2.3,2.4,2.5,2.6,2.7,2.8,2.9,3.0,3.1,3.2,3.3,3.4,3.5,3.6,3.7,3.8,3.9,4.0,4.1 \
// RUN:   --input=2x3xi64=0,1,2,4,3,0 | FileCheck %s --check-prefix=VK
// RUN: onyx-run %t/interleaved.mlir --validate --check --input=2x3x12xf32=-3.0,-2.9,-2.8,-2.7,-2.6,-2.5,-2.4,-2.3,-2.2,-2.1,-2.0,-1.9,-1.8,-1.7,-1.6,-1.5,-1.4,-1.3,-1.2,-1.1,-1.0,-0.9,-0.8,-0.7,-0.6,-0.5,-0.4,-0.3,-0.2,-0.1,0.0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2,1.3,1.4,1.5,1.6,1.7,1.8,1.9,2.0,2.1,2.2,2.3,2.4,2.5,2.6,2.7,2.8,2.9,3.0,3.1,3.2,3.3,3.4,3.5,3.6,3.7,3.8,3.9,4.0,4.1 \
// RUN:   --input=2x3xi64=0,1,2,4,3,0 | FileCheck %s --check-prefix=VK
// RUN: not onyx-run %t/positions.mlir --backend=ref --input=2x3x12xf32=0.5 --input=2x3xi64=0,1,2,4,3,9 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-opt %t/pair.mlir --target=lavapipe --convert-onnx-to-gpu | FileCheck %s --check-prefix=PAIR
// RUN: onyx-run %t/pair.mlir --validate --check --input=2x3x5x8xf32=0.5 --input=2x1x5x8xf32=-1.5 \
// RUN:   --input=2x5x4xf32=-3.0,-2.63,-2.26,-1.89,-1.52,-1.15,-0.78,-0.41,-0.04,0.33,0.7,1.07,1.44,1.81,2.18,2.55,2.92,3.29,3.66,4.03,4.4,4.77,5.14,5.51,5.88,6.25,6.62,6.99,7.36,7.73,8.1,8.47,8.84,9.21,9.58,9.95,10.32,10.69,11.06,11.43 | FileCheck %s --check-prefix=PAIR-VK

//--- kernel.mlir
// CHECK: gpu.kernel @rotary_embedding(read, read, read, write)
// CHECK-SAME: uint k = d % 4u;
// CHECK-SAME: bool first = d < 4u;
// CHECK-SAME: first ? a * c - bv * s : bv * c + a * s
// CHECK: gpu.dispatch @rotary_embedding
func.func @main(%x: tensor<2x3x5x8xf32>, %angles: tensor<2x5x4xf32>) -> tensor<2x3x5x8xf32> {
  %c = "onnx.Cos"(%angles) : (tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
  %s = "onnx.Sin"(%angles) : (tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
  %0 = "onnx.RotaryEmbedding"(%x, %c, %s) : (tensor<2x3x5x8xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5x8xf32>
  return %0 : tensor<2x3x5x8xf32>
}

//--- values.mlir
// Pairs (x0, x2) = (1, 3) turned by cos 0, sin 1 and (x1, x3) = (2, 4) by
// cos 1, sin 0: (1*0 - 3*1, 3*0 + 1*1) and (2, 4).
// REF: output 0: tensor<1x1x1x4xf32> = [-3, 2, 1, 4]
// VK: output 0 vs ref: {{.*}}: PASS
func.func @main(%x: tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32> {
  %c = onnx.Constant dense<[[[0.0, 1.0]]]> : tensor<1x1x2xf32>
  %s = onnx.Constant dense<[[[1.0, 0.0]]]> : tensor<1x1x2xf32>
  %0 = "onnx.RotaryEmbedding"(%x, %c, %s) : (tensor<1x1x1x4xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x1x4xf32>
  return %0 : tensor<1x1x1x4xf32>
}

//--- positions.mlir
// 3-D X [batch, seq, heads * 6], two heads, rotary_dim 4 of 6, a cache of
// five positions indexed by position_ids.
// RANGE: position id 9 is out of range for a cache of 5 positions
func.func @main(%x: tensor<2x3x12xf32>, %ids: tensor<2x3xi64>) -> tensor<2x3x12xf32> {
  %c = onnx.Constant dense<[[1.0, 0.5], [0.25, -1.0], [0.0, 0.75], [-0.5, 0.125], [0.9, -0.3]]> : tensor<5x2xf32>
  %s = onnx.Constant dense<[[0.0, 0.8], [0.95, 0.0], [1.0, 0.6], [0.8, 0.99], [0.4, 0.95]]> : tensor<5x2xf32>
  %0 = "onnx.RotaryEmbedding"(%x, %c, %s, %ids) {num_heads = 2 : si64, rotary_embedding_dim = 4 : si64} : (tensor<2x3x12xf32>, tensor<5x2xf32>, tensor<5x2xf32>, tensor<2x3xi64>) -> tensor<2x3x12xf32>
  return %0 : tensor<2x3x12xf32>
}

//--- interleaved.mlir
func.func @main(%x: tensor<2x3x12xf32>, %ids: tensor<2x3xi64>) -> tensor<2x3x12xf32> {
  %c = onnx.Constant dense<[[1.0, 0.5, 0.3], [0.25, -1.0, 0.1], [0.0, 0.75, 0.2], [-0.5, 0.125, 0.6], [0.9, -0.3, 0.7]]> : tensor<5x3xf32>
  %s = onnx.Constant dense<[[0.0, 0.8, 0.5], [0.95, 0.0, 0.4], [1.0, 0.6, 0.3], [0.8, 0.99, 0.2], [0.4, 0.95, 0.1]]> : tensor<5x3xf32>
  %0 = "onnx.RotaryEmbedding"(%x, %c, %s, %ids) {interleaved = 1 : si64, num_heads = 2 : si64} : (tensor<2x3x12xf32>, tensor<5x3xf32>, tensor<5x3xf32>, tensor<2x3xi64>) -> tensor<2x3x12xf32>
  return %0 : tensor<2x3x12xf32>
}

//--- invalid.mlir
func.func @cache_shape(%x: tensor<1x2x3x8xf32>, %c: tensor<1x3x8xf32>) -> tensor<1x2x3x8xf32> {
  // expected-error @+1 {{'onnx.RotaryEmbedding' op operand 'cos_cache' of type tensor<1x3x8xf32> does not fit tensor<1x2x3x8xf32> ([batch, seq, rotary_dim / 2])}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c) : (tensor<1x2x3x8xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>) -> tensor<1x2x3x8xf32>
  return %0 : tensor<1x2x3x8xf32>
}

// -----

func.func @no_heads(%x: tensor<1x3x8xf32>, %c: tensor<1x3x4xf32>) -> tensor<1x3x8xf32> {
  // expected-error @+1 {{'onnx.RotaryEmbedding' op attribute 'num_heads' must be positive when X has rank 3}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c) : (tensor<1x3x8xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x8xf32>
  return %0 : tensor<1x3x8xf32>
}

// -----

func.func @odd_dim(%x: tensor<1x2x3x8xf32>, %c: tensor<1x3x4xf32>) -> tensor<1x2x3x8xf32> {
  // expected-error @+1 {{'onnx.RotaryEmbedding' op attribute 'rotary_embedding_dim' must be even and at most the head size, got 3}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c) {rotary_embedding_dim = 3 : si64} : (tensor<1x2x3x8xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x2x3x8xf32>
  return %0 : tensor<1x2x3x8xf32>
}

// -----

func.func @rank(%x: tensor<3x8xf32>, %c: tensor<1x3x4xf32>) -> tensor<3x8xf32> {
  // expected-error @+1 {{'onnx.RotaryEmbedding' op operand 'X' must have rank 3 or 4, got tensor<3x8xf32>}}
  %0 = "onnx.RotaryEmbedding"(%x, %c, %c) : (tensor<3x8xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

//--- pair.mlir
// Queries and keys rotated by the same angles (a decoder layer's, here of 3
// and 1 heads): one dispatch rotates both, each into its own result.
// PAIR: gpu.kernel @rotary_embedding(read, read, read, write, read, write)
// PAIR: gpu.dispatch @rotary_embedding
// PAIR-NOT: gpu.dispatch @rotary_embedding
// PAIR-VK: output 0 vs ref: {{.*}}: PASS
// PAIR-VK: output 1 vs ref: {{.*}}: PASS
func.func @main(%q: tensor<2x3x5x8xf32>, %k: tensor<2x1x5x8xf32>, %angles: tensor<2x5x4xf32>) -> (tensor<2x3x5x8xf32>, tensor<2x1x5x8xf32>) {
  %c = "onnx.Cos"(%angles) : (tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
  %s = "onnx.Sin"(%angles) : (tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
  %0 = "onnx.RotaryEmbedding"(%q, %c, %s) : (tensor<2x3x5x8xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5x8xf32>
  %1 = "onnx.RotaryEmbedding"(%k, %c, %s) : (tensor<2x1x5x8xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>) -> tensor<2x1x5x8xf32>
  return %0, %1 : tensor<2x3x5x8xf32>, tensor<2x1x5x8xf32>
}

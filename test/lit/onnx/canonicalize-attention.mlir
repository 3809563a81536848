// The decomposed attention PyTorch exports, MatMul(Softmax(Add(Div(MatMul(Q,
// Transpose(K)), c), mask)), V), becomes one onnx.Attention (opset 23's op),
// rooted on the last MatMul: the scale a Div or Mul after the first MatMul
// or Muls on Q and K^T, the mask an Add or masked_fill's Where(cond, -inf,
// .), grouped-query repetition of K and V absorbed. Any intermediate with
// another use leaves everything as it is.
// RUN: onyx-opt %s --split-input-file --canonicalize | FileCheck %s

// The test decoders and the transformer block, with bound dims and with
// symbolic ones: every attention becomes one op and no Softmax is left.
// RUN: onyx-opt %S/../../../examples/decoders/gpt2_tiny.onnx --bind-dims=batch=1,seq=4,past=3,total=7 \
// RUN:   --canonicalize --cse | FileCheck %s --check-prefix=GPT2 --implicit-check-not=onnx.Softmax
// GPT2-COUNT-2: "onnx.Attention"({{.*}}) : (tensor<1x4x4x8xf32>, tensor<1x4x7x8xf32>, tensor<1x4x7x8xf32>, tensor<1x1x4x7xf32>) -> tensor<1x4x4x8xf32>
// GPT2-NOT: "onnx.Attention"
// RUN: onyx-opt %S/../../../examples/decoders/gpt2_tiny.onnx \
// RUN:   --canonicalize --cse | FileCheck %s --check-prefix=GPT2-DYN --implicit-check-not=onnx.Softmax
// GPT2-DYN-COUNT-2: "onnx.Attention"({{.*}}) : (tensor<?x4x?x8xf32>, tensor<?x4x?x8xf32>, tensor<?x4x?x8xf32>, tensor<?x1x?x?xf32>) -> tensor<?x4x?x8xf32>
// GPT2-DYN-NOT: "onnx.Attention"
// The Llama-style decoder's grouped-query attention reads its 2 kv heads:
// the Unsqueeze/Expand/Reshape repetition is gone (no Expand is left).
// RUN: onyx-opt %S/../../../examples/decoders/llama_tiny.onnx --bind-dims=batch=1,seq=4,past=3,total=7 \
// RUN:   --canonicalize --cse | FileCheck %s --check-prefix=LLAMA --implicit-check-not=onnx.Softmax --implicit-check-not=onnx.Expand
// LLAMA-COUNT-2: "onnx.Attention"({{.*}}) : (tensor<1x4x4x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x1x4x7xf32>) -> tensor<1x4x4x8xf32>
// LLAMA-NOT: "onnx.Attention"
// RUN: onyx-opt %S/../../../examples/decoders/llama_tiny.onnx \
// RUN:   --canonicalize --cse | FileCheck %s --check-prefix=LLAMA-DYN --implicit-check-not=onnx.Softmax
// LLAMA-DYN-COUNT-2: "onnx.Attention"({{.*}}) : (tensor<?x4x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x1x?x?xf32>) -> tensor<?x4x?x8xf32>
// LLAMA-DYN-NOT: "onnx.Attention"
// The transformer block's masked_fill becomes a bool mask.
// RUN: onyx-opt %S/../../models/transformer_block.onnx --bind-dims=seq=7 \
// RUN:   --canonicalize --cse | FileCheck %s --check-prefix=BLOCK --implicit-check-not=onnx.Softmax
// BLOCK: "onnx.Attention"({{.*}}) : (tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x1x7x7xi1>) -> tensor<1x2x7x8xf32>
// RUN: onyx-opt %S/../../models/transformer_block.onnx \
// RUN:   --canonicalize --cse | FileCheck %s --check-prefix=BLOCK-DYN --implicit-check-not=onnx.Softmax
// With the length `?`, the Equal and Not move before the Slices that cut
// the mask to it, onto the constant, and fold: the mask is a cut of a
// constant bool mask (lowering/dynamic-mask-slice.mlir).
// BLOCK-DYN-NOT: "onnx.Not"
// BLOCK-DYN-NOT: "onnx.Equal"
// BLOCK-DYN: %[[CUT:.+]] = "onnx.Slice"(%{{.+}}) : (tensor<1x1x?x32xi1>, {{.*}}) -> tensor<1x1x?x?xi1>
// BLOCK-DYN: "onnx.Attention"({{.*}}, %[[CUT]]) : (tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x1x?x?xi1>) -> tensor<1x2x?x8xf32>

// CHECK-LABEL: func.func @scaled_after
// CHECK-NEXT: %[[Y:.+]] = "onnx.Attention"(%arg0, %arg1, %arg2, %arg3) : (tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x4xf32>, tensor<1x1x3x5xf32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @scaled_after(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x5x4xf32>, %v: tensor<1x2x5x4xf32>, %m: tensor<1x1x3x5xf32>) -> tensor<1x2x3x4xf32> {
  %c = onnx.Constant dense<2.0> : tensor<f32>
  %kt = "onnx.Transpose"(%k) {perm = [0, 1, 3, 2]} : (tensor<1x2x5x4xf32>) -> tensor<1x2x4x5xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x3x4xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x3x5xf32>
  %d = "onnx.Div"(%s, %c) : (tensor<1x2x3x5xf32>, tensor<f32>) -> tensor<1x2x3x5xf32>
  %a = "onnx.Add"(%d, %m) : (tensor<1x2x3x5xf32>, tensor<1x1x3x5xf32>) -> tensor<1x2x3x5xf32>
  %p = "onnx.Softmax"(%a) : (tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
  %y = "onnx.MatMul"(%p, %v) : (tensor<1x2x3x5xf32>, tensor<1x2x5x4xf32>) -> tensor<1x2x3x4xf32>
  return %y : tensor<1x2x3x4xf32>
}

// -----

// Muls on Q and K^T (by 1/4 each: scale 1/16, not the default 1/4), no mask, `?` dims, K^T from
// a Transpose of [b, t, h, d]: the composed Transpose gives K.
// CHECK-LABEL: func.func @scaled_before
// CHECK: %[[K:.+]] = "onnx.Transpose"(%arg1) {perm = [0, 2, 1, 3]}
// CHECK: %[[Y:.+]] = "onnx.Attention"(%arg0, %[[K]], %arg2) {scale = 6.250000e-02 : f32} : (tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>) -> tensor<?x2x?x16xf32>
// CHECK-NEXT: return %[[Y]]
func.func @scaled_before(%q: tensor<?x2x?x16xf32>, %k: tensor<?x?x2x16xf32>, %v: tensor<?x2x?x16xf32>) -> tensor<?x2x?x16xf32> {
  %c = onnx.Constant dense<0.25> : tensor<f32>
  %kt = "onnx.Transpose"(%k) {perm = [0, 2, 3, 1]} : (tensor<?x?x2x16xf32>) -> tensor<?x2x16x?xf32>
  %qs = "onnx.Mul"(%q, %c) : (tensor<?x2x?x16xf32>, tensor<f32>) -> tensor<?x2x?x16xf32>
  %ks = "onnx.Mul"(%kt, %c) : (tensor<?x2x16x?xf32>, tensor<f32>) -> tensor<?x2x16x?xf32>
  %s = "onnx.MatMul"(%qs, %ks) : (tensor<?x2x?x16xf32>, tensor<?x2x16x?xf32>) -> tensor<?x2x?x?xf32>
  %p = "onnx.Softmax"(%s) {axis = -1 : si64} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  %y = "onnx.MatMul"(%p, %v) : (tensor<?x2x?x?xf32>, tensor<?x2x?x16xf32>) -> tensor<?x2x?x16xf32>
  return %y : tensor<?x2x?x16xf32>
}

// -----

// Grouped-query attention: K and V repeated from 1 kv head to 2 query heads.
// CHECK-LABEL: func.func @grouped
// CHECK-NEXT: %[[Y:.+]] = "onnx.Attention"(%arg0, %arg1, %arg2) : (tensor<1x2x3x4xf32>, tensor<1x1x5x4xf32>, tensor<1x1x5x4xf32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @grouped(%q: tensor<1x2x3x4xf32>, %k: tensor<1x1x5x4xf32>, %v: tensor<1x1x5x4xf32>) -> tensor<1x2x3x4xf32> {
  %c = onnx.Constant dense<0.5> : tensor<f32>
  %two = onnx.Constant dense<2> : tensor<1xi64>
  %e = onnx.Constant dense<[1, 1, 2, 5, 4]> : tensor<5xi64>
  %r = onnx.Constant dense<[1, 2, 5, 4]> : tensor<4xi64>
  %ku = "onnx.Unsqueeze"(%k, %two) : (tensor<1x1x5x4xf32>, tensor<1xi64>) -> tensor<1x1x1x5x4xf32>
  %ke = "onnx.Expand"(%ku, %e) : (tensor<1x1x1x5x4xf32>, tensor<5xi64>) -> tensor<1x1x2x5x4xf32>
  %kr = "onnx.Reshape"(%ke, %r) : (tensor<1x1x2x5x4xf32>, tensor<4xi64>) -> tensor<1x2x5x4xf32>
  %vu = "onnx.Unsqueeze"(%v, %two) : (tensor<1x1x5x4xf32>, tensor<1xi64>) -> tensor<1x1x1x5x4xf32>
  %ve = "onnx.Expand"(%vu, %e) : (tensor<1x1x1x5x4xf32>, tensor<5xi64>) -> tensor<1x1x2x5x4xf32>
  %vr = "onnx.Reshape"(%ve, %r) : (tensor<1x1x2x5x4xf32>, tensor<4xi64>) -> tensor<1x2x5x4xf32>
  %kt = "onnx.Transpose"(%kr) {perm = [0, 1, 3, 2]} : (tensor<1x2x5x4xf32>) -> tensor<1x2x4x5xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x3x4xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x3x5xf32>
  %d = "onnx.Mul"(%s, %c) : (tensor<1x2x3x5xf32>, tensor<f32>) -> tensor<1x2x3x5xf32>
  %p = "onnx.Softmax"(%d) : (tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
  %y = "onnx.MatMul"(%p, %vr) : (tensor<1x2x3x5xf32>, tensor<1x2x5x4xf32>) -> tensor<1x2x3x4xf32>
  return %y : tensor<1x2x3x4xf32>
}

// -----

// The probabilities are returned too: nothing changes.
// CHECK-LABEL: func.func @probabilities_used
// CHECK-NOT: onnx.Attention
// CHECK: "onnx.Softmax"
// CHECK-NOT: onnx.Attention
func.func @probabilities_used(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x5x4xf32>, %v: tensor<1x2x5x4xf32>) -> (tensor<1x2x3x4xf32>, tensor<1x2x3x5xf32>) {
  %c = onnx.Constant dense<2.0> : tensor<f32>
  %kt = "onnx.Transpose"(%k) {perm = [0, 1, 3, 2]} : (tensor<1x2x5x4xf32>) -> tensor<1x2x4x5xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x3x4xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x3x5xf32>
  %d = "onnx.Div"(%s, %c) : (tensor<1x2x3x5xf32>, tensor<f32>) -> tensor<1x2x3x5xf32>
  %p = "onnx.Softmax"(%d) : (tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
  %y = "onnx.MatMul"(%p, %v) : (tensor<1x2x3x5xf32>, tensor<1x2x5x4xf32>) -> tensor<1x2x3x4xf32>
  return %y, %p : tensor<1x2x3x4xf32>, tensor<1x2x3x5xf32>
}

// -----

// The scores before the scale have another use: nothing changes.
// CHECK-LABEL: func.func @scores_used
// CHECK-NOT: onnx.Attention
func.func @scores_used(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x5x4xf32>, %v: tensor<1x2x5x4xf32>) -> (tensor<1x2x3x4xf32>, tensor<1x2x3x5xf32>) {
  %c = onnx.Constant dense<2.0> : tensor<f32>
  %kt = "onnx.Transpose"(%k) {perm = [0, 1, 3, 2]} : (tensor<1x2x5x4xf32>) -> tensor<1x2x4x5xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x3x4xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x3x5xf32>
  %d = "onnx.Div"(%s, %c) : (tensor<1x2x3x5xf32>, tensor<f32>) -> tensor<1x2x3x5xf32>
  %p = "onnx.Softmax"(%d) : (tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
  %y = "onnx.MatMul"(%p, %v) : (tensor<1x2x3x5xf32>, tensor<1x2x5x4xf32>) -> tensor<1x2x3x4xf32>
  return %y, %s : tensor<1x2x3x4xf32>, tensor<1x2x3x5xf32>
}

// The rotary embedding in the rotate-half form PyTorch exports for Llama
// and its kin,
//   y = x * cos + Concat(-x[..., h:], x[..., :h]) * sin,
// with cos = Cos(Unsqueeze(Concat(f, f), 1)) (sin likewise), becomes one
// onnx.RotaryEmbedding (opset 23's op) over Cos(f) and Sin(f), rooted on the
// Add. Anything else stays as it is.
// RUN: onyx-opt %s --split-input-file --canonicalize | FileCheck %s

// The Llama-style test decoder (examples/decoders): the rotations of Q and
// K in both layers each become one op, and no Slice, Neg or Concat is left.
// RUN: onyx-opt %S/../../../examples/decoders/llama_tiny.onnx --bind-dims=batch=1,seq=4,past=3,total=7 \
// RUN:   --canonicalize --cse | FileCheck %s --check-prefix=LLAMA --implicit-check-not=onnx.Neg --implicit-check-not=onnx.Slice
// LLAMA-COUNT-4: "onnx.RotaryEmbedding"
// LLAMA-NOT: "onnx.RotaryEmbedding"
// Without bound dims batch and seq are `?`: the caches, which the Muls could
// broadcast at run time, are expanded to x's [batch, seq, 4].
// RUN: onyx-opt %S/../../../examples/decoders/llama_tiny.onnx \
// RUN:   --canonicalize --cse | FileCheck %s --check-prefix=LLAMA-DYN --implicit-check-not=onnx.Neg
// LLAMA-DYN-COUNT-4: "onnx.RotaryEmbedding"{{.*}}(tensor<?x{{[24]}}x?x8xf32>, tensor<?x?x4xf32>, tensor<?x?x4xf32>)
// LLAMA-DYN-NOT: "onnx.RotaryEmbedding"

// CHECK-LABEL: func.func @rotary
// CHECK-DAG: %[[COS:.+]] = "onnx.Cos"(%arg1) : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
// CHECK-DAG: %[[SIN:.+]] = "onnx.Sin"(%arg1) : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
// CHECK: %[[Y:.+]] = "onnx.RotaryEmbedding"(%arg0, %[[COS]], %[[SIN]]) : (tensor<1x2x3x8xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x2x3x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @rotary(%x: tensor<1x2x3x8xf32>, %f: tensor<1x3x4xf32>) -> tensor<1x2x3x8xf32> {
  %one = onnx.Constant dense<1> : tensor<1xi64>
  %zero = onnx.Constant dense<0> : tensor<1xi64>
  %four = onnx.Constant dense<4> : tensor<1xi64>
  %big = onnx.Constant dense<9223372036854775807> : tensor<1xi64>
  %last = onnx.Constant dense<3> : tensor<1xi64>
  %ff = "onnx.Concat"(%f, %f) {axis = -1 : si64} : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x8xf32>
  %u = "onnx.Unsqueeze"(%ff, %one) : (tensor<1x3x8xf32>, tensor<1xi64>) -> tensor<1x1x3x8xf32>
  %cos = "onnx.Cos"(%u) : (tensor<1x1x3x8xf32>) -> tensor<1x1x3x8xf32>
  %sin = "onnx.Sin"(%u) : (tensor<1x1x3x8xf32>) -> tensor<1x1x3x8xf32>
  %a = "onnx.Mul"(%x, %cos) : (tensor<1x2x3x8xf32>, tensor<1x1x3x8xf32>) -> tensor<1x2x3x8xf32>
  %hi = "onnx.Slice"(%x, %four, %big, %last, %one) : (tensor<1x2x3x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x3x4xf32>
  %neg = "onnx.Neg"(%hi) : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %lo = "onnx.Slice"(%x, %zero, %four, %last, %one) : (tensor<1x2x3x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x3x4xf32>
  %rot = "onnx.Concat"(%neg, %lo) {axis = -1 : si64} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x8xf32>
  %b = "onnx.Mul"(%rot, %sin) : (tensor<1x2x3x8xf32>, tensor<1x1x3x8xf32>) -> tensor<1x2x3x8xf32>
  %y = "onnx.Add"(%a, %b) : (tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>
  return %y : tensor<1x2x3x8xf32>
}

// -----

// Batch and seq known only at run time: a `?` cache dimension may be 1
// where x's is not, which the Muls broadcast and RotaryEmbedding does not,
// so the caches are expanded to x's [batch, seq, D / 2] first.
// CHECK-LABEL: func.func @rotary_dynamic
// CHECK-DAG: %[[COS:.+]] = "onnx.Cos"(%arg1) : (tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
// CHECK-DAG: %[[SIN:.+]] = "onnx.Sin"(%arg1) : (tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
// CHECK-DAG: %[[B:.+]] = "onnx.Shape"(%arg0) {end = 1 : si64} : (tensor<?x2x?x8xf32>) -> tensor<1xi64>
// CHECK-DAG: %[[S:.+]] = "onnx.Shape"(%arg0) {end = 3 : si64, start = 2 : si64} : (tensor<?x2x?x8xf32>) -> tensor<1xi64>
// CHECK-DAG: %[[H:.+]] = onnx.Constant dense<4> : tensor<1xi64>
// CHECK-DAG: %[[SHAPE:.+]] = "onnx.Concat"(%[[B]], %[[S]], %[[H]]) {axis = 0 : si64}
// CHECK-DAG: %[[C:.+]] = "onnx.Expand"(%[[COS]], %[[SHAPE]]) : (tensor<?x?x4xf32>, tensor<3xi64>) -> tensor<?x?x4xf32>
// CHECK-DAG: %[[N:.+]] = "onnx.Expand"(%[[SIN]], %[[SHAPE]]) : (tensor<?x?x4xf32>, tensor<3xi64>) -> tensor<?x?x4xf32>
// CHECK: %[[Y:.+]] = "onnx.RotaryEmbedding"(%arg0, %[[C]], %[[N]]) : (tensor<?x2x?x8xf32>, tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x2x?x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @rotary_dynamic(%x: tensor<?x2x?x8xf32>, %f: tensor<?x?x4xf32>) -> tensor<?x2x?x8xf32> {
  %one = onnx.Constant dense<1> : tensor<1xi64>
  %zero = onnx.Constant dense<0> : tensor<1xi64>
  %four = onnx.Constant dense<4> : tensor<1xi64>
  %big = onnx.Constant dense<9223372036854775807> : tensor<1xi64>
  %last = onnx.Constant dense<3> : tensor<1xi64>
  %ff = "onnx.Concat"(%f, %f) {axis = -1 : si64} : (tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x?x8xf32>
  %u = "onnx.Unsqueeze"(%ff, %one) : (tensor<?x?x8xf32>, tensor<1xi64>) -> tensor<?x1x?x8xf32>
  %cos = "onnx.Cos"(%u) : (tensor<?x1x?x8xf32>) -> tensor<?x1x?x8xf32>
  %sin = "onnx.Sin"(%u) : (tensor<?x1x?x8xf32>) -> tensor<?x1x?x8xf32>
  %a = "onnx.Mul"(%x, %cos) : (tensor<?x2x?x8xf32>, tensor<?x1x?x8xf32>) -> tensor<?x2x?x8xf32>
  %hi = "onnx.Slice"(%x, %four, %big, %last, %one) : (tensor<?x2x?x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x?x4xf32>
  %neg = "onnx.Neg"(%hi) : (tensor<?x2x?x4xf32>) -> tensor<?x2x?x4xf32>
  %lo = "onnx.Slice"(%x, %zero, %four, %last, %one) : (tensor<?x2x?x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x?x4xf32>
  %rot = "onnx.Concat"(%neg, %lo) {axis = -1 : si64} : (tensor<?x2x?x4xf32>, tensor<?x2x?x4xf32>) -> tensor<?x2x?x8xf32>
  %b = "onnx.Mul"(%rot, %sin) : (tensor<?x2x?x8xf32>, tensor<?x1x?x8xf32>) -> tensor<?x2x?x8xf32>
  %y = "onnx.Add"(%a, %b) : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  return %y : tensor<?x2x?x8xf32>
}

// -----

// A cache of batch 1 that the Muls broadcast over x's batch of 2: expanded
// to a constant shape.
// CHECK-LABEL: func.func @rotary_broadcast_batch
// CHECK-DAG: %[[SHAPE:.+]] = onnx.Constant dense<[2, 3, 4]> : tensor<3xi64>
// CHECK-DAG: "onnx.Expand"(%{{.+}}, %[[SHAPE]]) : (tensor<1x3x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
// CHECK: "onnx.RotaryEmbedding"(%arg0, %{{.+}}, %{{.+}}) : (tensor<2x2x3x8xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x2x3x8xf32>
func.func @rotary_broadcast_batch(%x: tensor<2x2x3x8xf32>, %f: tensor<1x3x4xf32>) -> tensor<2x2x3x8xf32> {
  %one = onnx.Constant dense<1> : tensor<1xi64>
  %zero = onnx.Constant dense<0> : tensor<1xi64>
  %four = onnx.Constant dense<4> : tensor<1xi64>
  %big = onnx.Constant dense<9223372036854775807> : tensor<1xi64>
  %last = onnx.Constant dense<3> : tensor<1xi64>
  %ff = "onnx.Concat"(%f, %f) {axis = -1 : si64} : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x8xf32>
  %u = "onnx.Unsqueeze"(%ff, %one) : (tensor<1x3x8xf32>, tensor<1xi64>) -> tensor<1x1x3x8xf32>
  %cos = "onnx.Cos"(%u) : (tensor<1x1x3x8xf32>) -> tensor<1x1x3x8xf32>
  %sin = "onnx.Sin"(%u) : (tensor<1x1x3x8xf32>) -> tensor<1x1x3x8xf32>
  %a = "onnx.Mul"(%x, %cos) : (tensor<2x2x3x8xf32>, tensor<1x1x3x8xf32>) -> tensor<2x2x3x8xf32>
  %hi = "onnx.Slice"(%x, %four, %big, %last, %one) : (tensor<2x2x3x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x2x3x4xf32>
  %neg = "onnx.Neg"(%hi) : (tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
  %lo = "onnx.Slice"(%x, %zero, %four, %last, %one) : (tensor<2x2x3x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x2x3x4xf32>
  %rot = "onnx.Concat"(%neg, %lo) {axis = -1 : si64} : (tensor<2x2x3x4xf32>, tensor<2x2x3x4xf32>) -> tensor<2x2x3x8xf32>
  %b = "onnx.Mul"(%rot, %sin) : (tensor<2x2x3x8xf32>, tensor<1x1x3x8xf32>) -> tensor<2x2x3x8xf32>
  %y = "onnx.Add"(%a, %b) : (tensor<2x2x3x8xf32>, tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  return %y : tensor<2x2x3x8xf32>
}

// -----

// Cos and Sin of halves that differ (Concat(f, g)) are not a rotary
// embedding's caches; neither are halves swapped in rotate_half.
// CHECK-LABEL: func.func @not_rotary
// CHECK-NOT: onnx.RotaryEmbedding
func.func @not_rotary(%x: tensor<1x2x3x8xf32>, %f: tensor<1x3x4xf32>, %g: tensor<1x3x4xf32>) -> (tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>) {
  %one = onnx.Constant dense<1> : tensor<1xi64>
  %zero = onnx.Constant dense<0> : tensor<1xi64>
  %four = onnx.Constant dense<4> : tensor<1xi64>
  %big = onnx.Constant dense<9223372036854775807> : tensor<1xi64>
  %last = onnx.Constant dense<3> : tensor<1xi64>
  %fg = "onnx.Concat"(%f, %g) {axis = -1 : si64} : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x8xf32>
  %u = "onnx.Unsqueeze"(%fg, %one) : (tensor<1x3x8xf32>, tensor<1xi64>) -> tensor<1x1x3x8xf32>
  %cos = "onnx.Cos"(%u) : (tensor<1x1x3x8xf32>) -> tensor<1x1x3x8xf32>
  %sin = "onnx.Sin"(%u) : (tensor<1x1x3x8xf32>) -> tensor<1x1x3x8xf32>
  %a = "onnx.Mul"(%x, %cos) : (tensor<1x2x3x8xf32>, tensor<1x1x3x8xf32>) -> tensor<1x2x3x8xf32>
  %hi = "onnx.Slice"(%x, %four, %big, %last, %one) : (tensor<1x2x3x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x3x4xf32>
  %neg = "onnx.Neg"(%hi) : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %lo = "onnx.Slice"(%x, %zero, %four, %last, %one) : (tensor<1x2x3x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x3x4xf32>
  %rot = "onnx.Concat"(%neg, %lo) {axis = -1 : si64} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x8xf32>
  %b = "onnx.Mul"(%rot, %sin) : (tensor<1x2x3x8xf32>, tensor<1x1x3x8xf32>) -> tensor<1x2x3x8xf32>
  %y = "onnx.Add"(%a, %b) : (tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>
  %ff = "onnx.Concat"(%f, %f) {axis = -1 : si64} : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x8xf32>
  %u2 = "onnx.Unsqueeze"(%ff, %one) : (tensor<1x3x8xf32>, tensor<1xi64>) -> tensor<1x1x3x8xf32>
  %cos2 = "onnx.Cos"(%u2) : (tensor<1x1x3x8xf32>) -> tensor<1x1x3x8xf32>
  %sin2 = "onnx.Sin"(%u2) : (tensor<1x1x3x8xf32>) -> tensor<1x1x3x8xf32>
  %a2 = "onnx.Mul"(%x, %cos2) : (tensor<1x2x3x8xf32>, tensor<1x1x3x8xf32>) -> tensor<1x2x3x8xf32>
  %hi2 = "onnx.Slice"(%x, %four, %big, %last, %one) : (tensor<1x2x3x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x3x4xf32>
  %lo2 = "onnx.Slice"(%x, %zero, %four, %last, %one) : (tensor<1x2x3x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x3x4xf32>
  %neg2 = "onnx.Neg"(%lo2) : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %rot2 = "onnx.Concat"(%neg2, %hi2) {axis = -1 : si64} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x8xf32>
  %b2 = "onnx.Mul"(%rot2, %sin2) : (tensor<1x2x3x8xf32>, tensor<1x1x3x8xf32>) -> tensor<1x2x3x8xf32>
  %y2 = "onnx.Add"(%a2, %b2) : (tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>
  return %y, %y2 : tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>
}

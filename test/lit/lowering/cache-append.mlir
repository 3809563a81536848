// A decoder's key/value cache kept in runtime states (arguments marked
// `gpu.state`, as onyx-run --generate marks the past inputs): the present,
// Concat(past, new) along the positions, is written in place into the
// state's memory, positions outermost ([t, b, kv_heads, d]), so that the
// past is a prefix of it. Only the new rows are copied; the past is not
// uploaded, the present is returned as a permuted download of the state,
// and the attention kernel reads keys and values in that order.

// RUN: split-file %s %t
// RUN: onyx-opt %t/append.mlir --target=lavapipe --lower | FileCheck %s
// RUN: onyx-opt %t/append.mlir --target=lavapipe --convert-onnx-to-gpu | FileCheck %s --check-prefix=GLSL
// RUN: onyx-opt %t/stored.mlir --target=lavapipe --lower | FileCheck %s --check-prefix=STORED
// RUN: onyx-opt %t/stored.mlir --target=lavapipe --convert-onnx-to-gpu | FileCheck %s --check-prefix=STORED-GLSL
// RUN: onyx-opt %t/rotary.mlir --target=lavapipe --lower | FileCheck %s --check-prefix=ROTARY
// RUN: onyx-opt %t/other-reader.mlir --target=lavapipe --lower | FileCheck %s --check-prefix=OTHER
// RUN: onyx-opt %t/unmarked.mlir --target=lavapipe --lower | FileCheck %s --check-prefix=UNMARKED
// RUN: onyx-opt %t/unmarked.mlir --target=lavapipe --convert-onnx-to-gpu | FileCheck %s --check-prefix=DENSE

//--- append.mlir
// Key row j of kv head (b, h / 2) is at (j * batch * 2 + b * 2 + h / 2) * 8.
// GLSL: gpu.kernel @attention
// GLSL-SAME: uint kvRow = b * 2u + h / 2u;
// GLSL-SAME: uint vBase = (kvRow + jv * pc.s4) * 8u;
// GLSL-SAME: uint kBase = (kvRow + j * pc.s4) * 8u;
// CHECK-LABEL: func.func @main
// CHECK-SAME: %arg1: tensor<?x2x?x8xf32> {gpu.state}
// CHECK-NOT: gpu.upload %arg1
// CHECK-NOT: gpu.upload %arg3
// CHECK: %[[K:.+]] = gpu.alloc({{.*}}) {state = 1 : i64} : !gpu.view<?x?x2x8xf32>
// CHECK: gpu.dispatch @cache_append{{.*}}(%{{.*}}, %[[K]])
// CHECK: %[[V:.+]] = gpu.alloc({{.*}}) {state = 3 : i64} : !gpu.view<?x?x2x8xf32>
// CHECK: gpu.dispatch @cache_append{{.*}}(%{{.*}}, %[[V]])
// CHECK-NOT: @concat
// CHECK: gpu.dispatch @attention{{.*}}(%{{.*}}, %[[K]], %[[V]],
// CHECK: gpu.download %[[K]] {permutation = [1, 2, 0, 3]} : !gpu.view<?x?x2x8xf32> to tensor<?x2x?x8xf32>
// CHECK: gpu.download %[[V]] {permutation = [1, 2, 0, 3]}
func.func @main(%q: tensor<?x4x?x8xf32>, %pk: tensor<?x2x?x8xf32> {gpu.state}, %k: tensor<?x2x?x8xf32>, %pv: tensor<?x2x?x8xf32> {gpu.state}, %v: tensor<?x2x?x8xf32>) -> (tensor<?x4x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) {
  %kk = "onnx.Concat"(%pk, %k) {axis = 2 : si64} : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  %vv = "onnx.Concat"(%pv, %v) {axis = -2 : si64} : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  %y = "onnx.Attention"(%q, %kk, %vv) : (tensor<?x4x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x4x?x8xf32>
  return %y, %kk, %vv : tensor<?x4x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>
}

//--- stored.mlir
// New rows that a product computes (Q, K and V as one product whose Split
// its store writes) reach the appends only through the Reshape to heads and
// the Transpose exporters emit: the product stores the key and value rows
// straight into the states, row r of [b * s, 16] at position past + r % s
// of sequence r / s, and no cache_append copies them.
// STORED-GLSL: gpu.kernel @matmul
// STORED-GLSL-SAME: (pc.s{{[0-9]+}} + (so) % pc.s{{[0-9]+}}) * pc.s{{[0-9]+}} + (so) / pc.s{{[0-9]+}} * 16u + sc - 16u
// STORED-GLSL-SAME: (pc.s{{[0-9]+}} + (so) % pc.s{{[0-9]+}}) * pc.s{{[0-9]+}} + (so) / pc.s{{[0-9]+}} * 16u + sc - 32u
// STORED: %[[K:.+]] = gpu.alloc({{.*}}) {state = 1 : i64} : !gpu.view<?x?x2x8xf32>
// STORED: %[[V:.+]] = gpu.alloc({{.*}}) {state = 2 : i64} : !gpu.view<?x?x2x8xf32>
// STORED: gpu.dispatch @matmul{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %[[K]], %[[V]])
// STORED-NOT: @cache_append
// STORED: gpu.dispatch @attention{{.*}}(%{{.*}}, %[[K]], %[[V]],
// STORED: gpu.download %[[K]] {permutation = [1, 2, 0, 3]}
func.func @main(%x: tensor<?x?x16xf32>, %pk: tensor<?x2x?x8xf32> {gpu.state}, %pv: tensor<?x2x?x8xf32> {gpu.state}, %w: tensor<16x48xf32>) -> (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) {
  %qkv = "onnx.MatMul"(%x, %w) : (tensor<?x?x16xf32>, tensor<16x48xf32>) -> tensor<?x?x48xf32>
  %sizes = onnx.Constant dense<16> : tensor<3xi64>
  %q, %k, %v = "onnx.Split"(%qkv, %sizes) {axis = 2 : si64} : (tensor<?x?x48xf32>, tensor<3xi64>) -> (tensor<?x?x16xf32>, tensor<?x?x16xf32>, tensor<?x?x16xf32>)
  %shape = onnx.Constant dense<[0, 0, 2, 8]> : tensor<4xi64>
  %q4 = "onnx.Reshape"(%q, %shape) : (tensor<?x?x16xf32>, tensor<4xi64>) -> tensor<?x?x2x8xf32>
  %k4 = "onnx.Reshape"(%k, %shape) : (tensor<?x?x16xf32>, tensor<4xi64>) -> tensor<?x?x2x8xf32>
  %v4 = "onnx.Reshape"(%v, %shape) : (tensor<?x?x16xf32>, tensor<4xi64>) -> tensor<?x?x2x8xf32>
  %qt = "onnx.Transpose"(%q4) {perm = [0, 2, 1, 3]} : (tensor<?x?x2x8xf32>) -> tensor<?x2x?x8xf32>
  %kt = "onnx.Transpose"(%k4) {perm = [0, 2, 1, 3]} : (tensor<?x?x2x8xf32>) -> tensor<?x2x?x8xf32>
  %vt = "onnx.Transpose"(%v4) {perm = [0, 2, 1, 3]} : (tensor<?x?x2x8xf32>) -> tensor<?x2x?x8xf32>
  %kk = "onnx.Concat"(%pk, %kt) {axis = 2 : si64} : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  %vv = "onnx.Concat"(%pv, %vt) {axis = 2 : si64} : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  %y = "onnx.Attention"(%qt, %kk, %vv) : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  return %y, %kk, %vv : tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>
}

//--- rotary.mlir
// Keys rotated by a RotaryEmbedding that only the append reads: the rotary
// kernel stores them into the state, and only the values are copied.
// ROTARY: %[[K:.+]] = gpu.alloc({{.*}}) {state = 1 : i64} : !gpu.view<?x?x2x8xf32>
// ROTARY: gpu.dispatch @rotary_embedding{{.*}}, %[[K]])
// ROTARY: %[[V:.+]] = gpu.alloc({{.*}}) {state = 3 : i64} : !gpu.view<?x?x2x8xf32>
// ROTARY: gpu.dispatch @cache_append{{.*}}(%{{.*}}, %[[V]])
// ROTARY-NOT: @cache_append
// ROTARY: gpu.dispatch @attention{{.*}}(%{{.*}}, %[[K]], %[[V]],
func.func @main(%q: tensor<?x2x?x8xf32>, %pk: tensor<?x2x?x8xf32> {gpu.state}, %k: tensor<?x2x?x8xf32>, %pv: tensor<?x2x?x8xf32> {gpu.state}, %v: tensor<?x2x?x8xf32>, %cos: tensor<64x4xf32>, %sin: tensor<64x4xf32>, %pos: tensor<?x?xi64>) -> (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) {
  %kr = "onnx.RotaryEmbedding"(%k, %cos, %sin, %pos) : (tensor<?x2x?x8xf32>, tensor<64x4xf32>, tensor<64x4xf32>, tensor<?x?xi64>) -> tensor<?x2x?x8xf32>
  %kk = "onnx.Concat"(%pk, %kr) {axis = 2 : si64} : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  %vv = "onnx.Concat"(%pv, %v) {axis = 2 : si64} : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  %y = "onnx.Attention"(%q, %kk, %vv) : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  return %y, %kk, %vv : tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>
}

//--- other-reader.mlir
// A present read by another op keeps the dense layout: the past is
// uploaded (the runtime copies it from its state) and both parts copied.
// OTHER-NOT: {state =
// OTHER: gpu.upload %arg0
// OTHER: gpu.dispatch @concat
// OTHER: gpu.dispatch @concat_1
// OTHER-NOT: permutation
func.func @main(%pk: tensor<1x2x?x8xf32> {gpu.state}, %k: tensor<1x2x?x8xf32>) -> (tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>) {
  %kk = "onnx.Concat"(%pk, %k) {axis = 2 : si64} : (tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>) -> tensor<1x2x?x8xf32>
  %n = "onnx.Neg"(%kk) : (tensor<1x2x?x8xf32>) -> tensor<1x2x?x8xf32>
  return %kk, %n : tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>
}

//--- unmarked.mlir
// Without `gpu.state` the caller gives the past from the host: the same
// Concat as any other.
// DENSE: gpu.kernel @attention
// DENSE-SAME: uint kvRow = (b * 2u + h / 2u) * T;
// DENSE-SAME: uint kBase = (kvRow + j) * 8u;
// UNMARKED-NOT: {state =
// UNMARKED: gpu.upload %arg1
// UNMARKED-NOT: permutation
func.func @main(%q: tensor<?x4x?x8xf32>, %pk: tensor<?x2x?x8xf32>, %k: tensor<?x2x?x8xf32>, %pv: tensor<?x2x?x8xf32>, %v: tensor<?x2x?x8xf32>) -> (tensor<?x4x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) {
  %kk = "onnx.Concat"(%pk, %k) {axis = 2 : si64} : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  %vv = "onnx.Concat"(%pv, %v) {axis = 2 : si64} : (tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x2x?x8xf32>
  %y = "onnx.Attention"(%q, %kk, %vv) : (tensor<?x4x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>) -> tensor<?x4x?x8xf32>
  return %y, %kk, %vv : tensor<?x4x?x8xf32>, tensor<?x2x?x8xf32>, tensor<?x2x?x8xf32>
}

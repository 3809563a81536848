// RUN: split-file %s %t
// RUN: onyx-opt %t/mask.mlir --canonicalize | FileCheck %s --check-prefix=CANON
// RUN: onyx-opt %t/mask.mlir --target=lavapipe --canonicalize --onnx-static-shapes --convert-onnx-to-gpu | FileCheck %s --check-prefix=LOWER
// RUN: onyx-opt %t/kept.mlir --canonicalize | FileCheck %s --check-prefix=KEPT
// RUN: onyx-opt %t/copied.mlir --target=lavapipe --canonicalize --onnx-static-shapes --convert-onnx-to-gpu | FileCheck %s --check-prefix=COPIED
// RUN: %python %S/Inputs/make_npy.py %t/q1.npy 1 1 2 1 8
// RUN: %python %S/Inputs/make_npy.py %t/k1.npy 2 1 2 1 8
// RUN: %python %S/Inputs/make_npy.py %t/v1.npy 3 1 2 1 8
// RUN: %python %S/Inputs/make_npy.py %t/k5.npy 4 1 2 5 8
// RUN: %python %S/Inputs/make_npy.py %t/v5.npy 5 1 2 5 8
// RUN: %python %S/Inputs/make_npy.py %t/q3.npy 6 1 2 3 8
// RUN: %python %S/Inputs/make_npy.py %t/k3.npy 7 1 2 3 8
// RUN: %python %S/Inputs/make_npy.py %t/v3.npy 8 1 2 3 8
// RUN: %python %S/Inputs/make_npy.py %t/q2.npy 9 1 2 2 8
// RUN: %python %S/Inputs/make_npy.py %t/k8.npy 10 1 2 8 8
// RUN: %python %S/Inputs/make_npy.py %t/v8.npy 11 1 2 8 8
// RUN: onyx-run %t/mask.mlir --validate --check --profile \
// RUN:   --input-set='@%t/q1.npy;@%t/k1.npy;@%t/v1.npy' \
// RUN:   --input-set='@%t/q1.npy;@%t/k5.npy;@%t/v5.npy' \
// RUN:   --input-set='@%t/q3.npy;@%t/k3.npy;@%t/v3.npy' \
// RUN:   --input-set='@%t/q2.npy;@%t/k8.npy;@%t/v8.npy' | FileCheck %s --check-prefix=SHAPES

// A causal mask cut from a constant by sizes known only at run time, as
// exporters write it (rows past .. past + S and keys 0 .. T of an [8, 8]
// buffer, past = T - S), then compared with 0: compiled once, it runs the
// kernels a specialized model runs, where the whole chain folds to a
// constant. Canonicalization moves Equal and Not before the Slice onto the
// constant, where they fold; the Slice is then read in place by the
// Attention kernel, at an offset and with strides the host computes from
// the run's S and T (no slice, no elementwise kernel).

// CANON-LABEL: func.func @main
// CANON: %[[MASK:.+]] = onnx.Constant dense<{{.*}}> : tensor<1x1x8x8xi1>
// CANON-NOT: onnx.Equal
// CANON-NOT: onnx.Not
// CANON: %[[ROWS:.+]] = "onnx.Slice"(%[[MASK]], {{.*}}) : (tensor<1x1x8x8xi1>, {{.*}}) -> tensor<1x1x?x8xi1>
// CANON: %[[CUT:.+]] = "onnx.Slice"(%[[ROWS]], {{.*}}) : (tensor<1x1x?x8xi1>, {{.*}}) -> tensor<1x1x?x?xi1>
// CANON: "onnx.Attention"(%arg0, %arg1, %arg2, %[[CUT]])

// LOWER-NOT: gpu.kernel @slice
// LOWER-NOT: gpu.kernel @fused
// LOWER: gpu.kernel @attention(read, read, read, read, write
// LOWER-SAME: buffer B3 { uint8_t d[]; } mask;
// LOWER-SAME: keep = (uint(mask.d[pc.s{{[0-9]+}} + c2 * pc.s{{[0-9]+}} + c3 * pc.s{{[0-9]+}}]) != 0u);
// LOWER-SAME: if (!keep) sc = NEG_INF;
// LOWER-NOT: gpu.kernel @slice
// LOWER: %[[W:.+]] = gpu.weight {{.*}} tensor<1x1x8x8xi1>
// LOWER: gpu.dispatch @attention[{{.*}}](%{{.+}}, %{{.+}}, %{{.+}}, %[[W]],
// LOWER-NOT: gpu.dispatch @{{slice|fused}}

// Four shapes, one compilation, rows cut at past = 0, 4, 0 and 6: each
// matches the reference backend in one dispatch.
// SHAPES-NOT: FAIL
// SHAPES: input set 0: {{.*}}, 0 kernels compiled, 0 pipelines created
// SHAPES: output 0 vs ref: {{.*}}: PASS
// SHAPES: profile: 1 dispatches
// SHAPES: input set 1: {{.*}}, 0 kernels compiled, 0 pipelines created
// SHAPES: output 0 vs ref: {{.*}}: PASS
// SHAPES: profile: 1 dispatches
// SHAPES: input set 2: {{.*}}, 0 kernels compiled, 0 pipelines created
// SHAPES: output 0 vs ref: {{.*}}: PASS
// SHAPES: profile: 1 dispatches
// SHAPES: input set 3: {{.*}}, 0 kernels compiled, 0 pipelines created
// SHAPES: output 0 vs ref: {{.*}}: PASS
// SHAPES: profile: 1 dispatches
// SHAPES-NOT: FAIL

//--- mask.mlir
func.func @main(%q: tensor<1x2x?x8xf32>, %k: tensor<1x2x?x8xf32>, %v: tensor<1x2x?x8xf32>) -> tensor<1x2x?x8xf32> {
  %sq = "onnx.Shape"(%q) : (tensor<1x2x?x8xf32>) -> tensor<4xi64>
  %sk = "onnx.Shape"(%k) : (tensor<1x2x?x8xf32>) -> tensor<4xi64>
  %i2 = onnx.Constant dense<2> : tensor<1xi64>
  %i3 = onnx.Constant dense<3> : tensor<1xi64>
  %i0 = onnx.Constant dense<0> : tensor<1xi64>
  %s = "onnx.Slice"(%sq, %i2, %i3, %i0) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %t = "onnx.Slice"(%sk, %i2, %i3, %i0) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %past = "onnx.Sub"(%t, %s) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %axis2 = onnx.Constant dense<2> : tensor<1xi64>
  %axis3 = onnx.Constant dense<3> : tensor<1xi64>
  %bias = onnx.Constant dense<[[[[1., 0., 0., 0., 0., 0., 0., 0.], [1., 1., 0., 0., 0., 0., 0., 0.], [1., 1., 1., 0., 0., 0., 0., 0.], [1., 1., 1., 1., 0., 0., 0., 0.], [1., 1., 1., 1., 1., 0., 0., 0.], [1., 1., 1., 1., 1., 1., 0., 0.], [1., 1., 1., 1., 1., 1., 1., 0.], [1., 1., 1., 1., 1., 1., 1., 1.]]]]> : tensor<1x1x8x8xf32>
  %rows = "onnx.Slice"(%bias, %past, %t, %axis2) : (tensor<1x1x8x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1x?x8xf32>
  %m = "onnx.Slice"(%rows, %i0, %t, %axis3) : (tensor<1x1x?x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1x?x?xf32>
  %zero = onnx.Constant dense<0.0> : tensor<f32>
  %eq = "onnx.Equal"(%m, %zero) : (tensor<1x1x?x?xf32>, tensor<f32>) -> tensor<1x1x?x?xi1>
  %keep = "onnx.Not"(%eq) : (tensor<1x1x?x?xi1>) -> tensor<1x1x?x?xi1>
  %y = "onnx.Attention"(%q, %k, %v, %keep) : (tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x1x?x?xi1>) -> tensor<1x2x?x8xf32>
  return %y : tensor<1x2x?x8xf32>
}

// Where the chain does not end in a constant (a mask the caller gives), or
// the other operand is not a constant of one element, nothing moves: the
// op would run on all of the data instead of the part the Slice keeps.
// KEPT-LABEL: func.func @main
// KEPT: %[[CUT:.+]] = "onnx.Slice"(%arg0,
// KEPT: "onnx.Equal"(%[[CUT]],
// KEPT: %[[CUT2:.+]] = "onnx.Slice"(%{{.+}},
// KEPT: "onnx.Equal"(%[[CUT2]], %arg2)

//--- kept.mlir
func.func @main(%mask: tensor<8x8xf32>, %n: tensor<1xi64>, %x: tensor<?x?xf32>) -> (tensor<?x8xi1>, tensor<?x?xi1>) {
  %i0 = onnx.Constant dense<0> : tensor<1xi64>
  %zero = onnx.Constant dense<0.0> : tensor<f32>
  %cut = "onnx.Slice"(%mask, %i0, %n) : (tensor<8x8xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x8xf32>
  %a = "onnx.Equal"(%cut, %zero) : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xi1>
  %c = onnx.Constant dense<1.0> : tensor<8x8xf32>
  %cut2 = "onnx.Slice"(%c, %i0, %n) : (tensor<8x8xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x8xf32>
  %b = "onnx.Equal"(%cut2, %x) : (tensor<?x8xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  return %a, %b : tensor<?x8xi1>, tensor<?x?xi1>
}

// A mask Slice that something besides the Attention reads (here the
// function's result) is copied by a slice kernel as before, and the
// Attention reads the copy.
// COPIED: gpu.kernel @slice(read, write)
// COPIED: gpu.kernel @attention(
// COPIED: %[[CUT:.+]] = gpu.alloc({{.*}}) : !gpu.view<1x1x?x?xi1>
// COPIED: gpu.dispatch @slice[{{.*}}](%{{.+}}, %[[CUT]])
// COPIED: gpu.dispatch @attention[{{.*}}](%{{.+}}, %{{.+}}, %{{.+}}, %[[CUT]],

//--- copied.mlir
func.func @main(%q: tensor<1x2x?x8xf32>, %k: tensor<1x2x?x8xf32>, %v: tensor<1x2x?x8xf32>, %mask: tensor<1x1x8x8xi1>) -> (tensor<1x2x?x8xf32>, tensor<1x1x?x?xi1>) {
  %sk = "onnx.Shape"(%k) : (tensor<1x2x?x8xf32>) -> tensor<4xi64>
  %i2 = onnx.Constant dense<2> : tensor<1xi64>
  %i3 = onnx.Constant dense<3> : tensor<1xi64>
  %i0 = onnx.Constant dense<0> : tensor<1xi64>
  %t = "onnx.Slice"(%sk, %i2, %i3, %i0) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %starts = "onnx.Concat"(%i0, %i0) {axis = 0 : si64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %ends = "onnx.Concat"(%t, %t) {axis = 0 : si64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %axes = onnx.Constant dense<[2, 3]> : tensor<2xi64>
  %m = "onnx.Slice"(%mask, %starts, %ends, %axes) : (tensor<1x1x8x8xi1>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xi1>
  %y = "onnx.Attention"(%q, %k, %v, %m) : (tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>, tensor<1x1x?x?xi1>) -> tensor<1x2x?x8xf32>
  return %y, %m : tensor<1x2x?x8xf32>, tensor<1x1x?x?xi1>
}

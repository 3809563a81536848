// RUN: split-file %s %t
// RUN: onyx-opt %t/mask.mlir --target=lavapipe --canonicalize --onnx-static-shapes --onnx-fuse-elementwise | FileCheck %s --check-prefix=FUSED
// RUN: onyx-opt %t/mask.mlir --target=lavapipe --canonicalize --onnx-static-shapes --onnx-fuse-elementwise --convert-onnx-to-gpu | FileCheck %s --check-prefix=LOWER
// RUN: onyx-opt %t/kept.mlir --target=lavapipe --canonicalize --onnx-static-shapes --onnx-fuse-elementwise | FileCheck %s --check-prefix=KEPT
// RUN: onyx-opt %t/bounds.mlir --target=lavapipe --canonicalize --onnx-static-shapes --onnx-fuse-elementwise --convert-onnx-to-gpu | FileCheck %s --check-prefix=BOUNDS
// RUN: onyx-run %t/mask.mlir --validate --check --profile \
// RUN:   --input-set='1x1xi64=7;1x1xi64=1' \
// RUN:   --input-set='2x3xi64=7;2x5xi64=0,0,1,1,1,1,1,1,1,1' \
// RUN:   --input-set='1x4xi64=7;1x4xi64=1' \
// RUN:   --input-set='1x1xi64=7;1x9xi64=0,1,1,1,1,1,1,1,1' | FileCheck %s --check-prefix=SHAPES
// RUN: onyx-run %t/kept.mlir --validate --check \
// RUN:   --input-set='3x4xf32=0.5,1,-1,2,0,1,2,3,4,5,6,7;3xf32=1,-2,3' \
// RUN:   --input-set='5x4xf32=0.25;4xf32=-1,2,0.5,3' | FileCheck %s --check-prefix=RUN-KEPT
// RUN: onyx-run %t/bounds.mlir --validate --check --profile \
// RUN:   --input-set='3x3xf32=1,2,3,4,5,6,7,8,9;2xi64=1' \
// RUN:   --input-set='1x3xf32=0.5;5xi64=1' | FileCheck %s --check-prefix=RUN-BOUNDS

// A decoder's additive attention bias as GPT-2-style exports build it from
// the run's lengths (examples/decoders/gen_decoders.py's attention_bias):
// Ranges of the query positions (shifted by past = total - seq) and of the
// keys, compared (key < query + 1), combined with attention_mask > 0 and
// turned into 0 or the lowest float. Where seq and total are known the
// Ranges fold and the bias is one kernel reading attention_mask; compiled
// once with `?` lengths, it is one kernel too: onnx-fuse-elementwise grows
// the tree through the Unsqueezes down to the Ranges, whose elements the
// kernel computes from the output's coordinates (start + index * delta),
// and past, one integer the host computes, is a push constant. No range,
// shape_value or cast kernel runs.

// FUSED-LABEL: func.func @main
// FUSED-NOT: "onnx.Range"
// FUSED-NOT: "onnx.Unsqueeze"
// FUSED: "onnx.FusedElementwise"(%{{.+}}, %{{.+}}, %{{.+}}, %arg1) ({
// FUSED: "onnx.Range"
// FUSED: "onnx.Unsqueeze"
// FUSED: "onnx.Range"
// FUSED: "onnx.Less"
// FUSED: "onnx.Where"
// FUSED: "onnx.Unsqueeze"
// FUSED: "onnx.Cast"
// FUSED-NEXT: "onnx.Yield"
// FUSED-NOT: "onnx.Range"
// FUSED-NOT: "onnx.Unsqueeze"

// LOWER-NOT: gpu.kernel @range
// LOWER-NOT: gpu.kernel @shape_value
// LOWER: gpu.kernel @fused(read, write)
// LOWER-SAME: int64_t x0 = in0.d[
// LOWER-SAME: int64_t(int64_t(0l) + int64_t(c2 * pc.s{{[0-9]+}}) * int64_t(1l))
// LOWER-SAME: + (int64_t(pc.s{{[0-9]+}}))
// LOWER-SAME: int64_t(int64_t(0l) + int64_t(c3 * pc.s{{[0-9]+}}) * int64_t(1l))
// LOWER-NOT: gpu.kernel
// LOWER: gpu.dispatch @fused[{{.*}}](%{{.+}}, %{{.+}}) push(
// LOWER-NOT: gpu.dispatch

// Four shapes, one compilation: prefill at 1 and 4 tokens, a left-padded
// batch of two at 3 new tokens after 2, a decode step after 8 with the first
// key masked out. Each matches the reference backend in one dispatch.
// SHAPES-NOT: FAIL
// SHAPES: input set 0: {{.*}}, 0 kernels compiled, 0 pipelines created
// SHAPES: output 0 vs ref: max abs error 0, {{.*}}: PASS
// SHAPES: profile: 1 dispatches
// SHAPES: input set 1: {{.*}}, 0 kernels compiled, 0 pipelines created
// SHAPES-NEXT: output 0: tensor<2x1x3x5xf32>
// SHAPES: output 0 vs ref: max abs error 0, {{.*}}: PASS
// SHAPES: profile: 1 dispatches
// SHAPES: input set 2: {{.*}}, 0 kernels compiled, 0 pipelines created
// SHAPES: output 0 vs ref: max abs error 0, {{.*}}: PASS
// SHAPES: profile: 1 dispatches
// SHAPES: input set 3: {{.*}}, 0 kernels compiled, 0 pipelines created
// SHAPES-NEXT: output 0: tensor<1x1x1x9xf32>
// SHAPES: output 0 vs ref: max abs error 0, {{.*}}: PASS
// SHAPES: profile: 1 dispatches
// SHAPES-NOT: FAIL

//--- mask.mlir
func.func @main(%ids: tensor<?x?xi64>, %mask: tensor<?x?xi64>) -> tensor<?x1x?x?xf32> {
  %one = onnx.Constant dense<1> : tensor<i64>
  %zero = onnx.Constant dense<0> : tensor<i64>
  %ax0 = onnx.Constant dense<0> : tensor<1xi64>
  %ax1 = onnx.Constant dense<1> : tensor<1xi64>
  %si = "onnx.Shape"(%ids) : (tensor<?x?xi64>) -> tensor<2xi64>
  %seq = "onnx.Gather"(%si, %one) : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %sm = "onnx.Shape"(%mask) : (tensor<?x?xi64>) -> tensor<2xi64>
  %total = "onnx.Gather"(%sm, %one) : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %past = "onnx.Sub"(%total, %seq) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %rows = "onnx.Range"(%zero, %seq, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %col = "onnx.Unsqueeze"(%rows, %ax1) : (tensor<?xi64>, tensor<1xi64>) -> tensor<?x1xi64>
  %query = "onnx.Add"(%col, %past) : (tensor<?x1xi64>, tensor<i64>) -> tensor<?x1xi64>
  %next = "onnx.Add"(%query, %one) : (tensor<?x1xi64>, tensor<i64>) -> tensor<?x1xi64>
  %keys = "onnx.Range"(%zero, %total, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %row = "onnx.Unsqueeze"(%keys, %ax0) : (tensor<?xi64>, tensor<1xi64>) -> tensor<1x?xi64>
  %causal = "onnx.Less"(%row, %next) : (tensor<1x?xi64>, tensor<?x1xi64>) -> tensor<?x?xi1>
  %causal3 = "onnx.Unsqueeze"(%causal, %ax0) : (tensor<?x?xi1>, tensor<1xi64>) -> tensor<1x?x?xi1>
  %mask3 = "onnx.Unsqueeze"(%mask, %ax1) : (tensor<?x?xi64>, tensor<1xi64>) -> tensor<?x1x?xi64>
  %kept = "onnx.Greater"(%mask3, %zero) : (tensor<?x1x?xi64>, tensor<i64>) -> tensor<?x1x?xi1>
  %allowed = "onnx.And"(%causal3, %kept) : (tensor<1x?x?xi1>, tensor<?x1x?xi1>) -> tensor<?x?x?xi1>
  %open = onnx.Constant dense<0.0> : tensor<f64>
  %closed = onnx.Constant dense<-3.4028234663852886E+38> : tensor<f64>
  %bias = "onnx.Where"(%allowed, %open, %closed) : (tensor<?x?x?xi1>, tensor<f64>, tensor<f64>) -> tensor<?x?x?xf64>
  %bias4 = "onnx.Unsqueeze"(%bias, %ax1) : (tensor<?x?x?xf64>, tensor<1xi64>) -> tensor<?x1x?x?xf64>
  %y = "onnx.Cast"(%bias4) {to = f32} : (tensor<?x1x?x?xf64>) -> tensor<?x1x?x?xf32>
  return %y : tensor<?x1x?x?xf32>
}

// Where the tree cannot take them: a Range that a Gather reads too stays a
// kernel of its own (computed once, the tree binds it); a value that two
// Unsqueezes would have the kernel read along two different axes (a row
// and a column of one vector) enters through one of them only, the other
// Unsqueeze a view as before; and a product whose tree holds a Range keeps
// its own kernel (the GEMM epilogue has no coordinates to compute the
// Range from). Each matches the reference backend.
// KEPT-LABEL: func.func @main
// KEPT: %[[POS:.+]] = "onnx.Range"
// KEPT: "onnx.Gather"(%{{.+}}, %[[POS]])
// KEPT: "onnx.FusedElementwise"(%[[POS]], %{{.+}}) ({
// KEPT-NOT: "onnx.Range"
// KEPT: "onnx.Yield"
// KEPT: %[[R:.+]] = "onnx.Relu"
// KEPT: %[[DOWN:.+]] = "onnx.Unsqueeze"(%[[R]],
// KEPT: "onnx.FusedElementwise"(%[[R]], %[[DOWN]]) ({
// KEPT: "onnx.Unsqueeze"
// KEPT-NOT: "onnx.Unsqueeze"
// KEPT: "onnx.Sub"
// KEPT: %[[P:.+]] = "onnx.MatMul"(%arg0,
// KEPT: "onnx.FusedElementwise"(%{{.+}}, %[[P]]) ({
// KEPT-NOT: "onnx.MatMul"
// KEPT: "onnx.Range"
// RUN-KEPT-NOT: FAIL
// RUN-KEPT-COUNT-6: vs ref: max abs error 0, {{.*}}: PASS
// RUN-KEPT-NOT: FAIL

//--- kept.mlir
func.func @main(%x: tensor<?x4xf32>, %v: tensor<?xf32>) -> (tensor<?x4xf32>, tensor<?x?xf32>, tensor<?x4xf32>) {
  %zero = onnx.Constant dense<0> : tensor<i64>
  %one = onnx.Constant dense<1> : tensor<i64>
  %ax0 = onnx.Constant dense<0> : tensor<1xi64>
  %ax1 = onnx.Constant dense<1> : tensor<1xi64>
  %shape = "onnx.Shape"(%x) : (tensor<?x4xf32>) -> tensor<2xi64>
  %n = "onnx.Gather"(%shape, %zero) : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %pos = "onnx.Range"(%zero, %n, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %table = onnx.Constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0]]> : tensor<5x4xf32>
  %rows = "onnx.Gather"(%table, %pos) : (tensor<5x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
  %posf = "onnx.Cast"(%pos) {to = f32} : (tensor<?xi64>) -> tensor<?xf32>
  %col = "onnx.Unsqueeze"(%posf, %ax1) : (tensor<?xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %a = "onnx.Mul"(%rows, %col) : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %r = "onnx.Relu"(%v) : (tensor<?xf32>) -> tensor<?xf32>
  %across = "onnx.Unsqueeze"(%r, %ax0) : (tensor<?xf32>, tensor<1xi64>) -> tensor<1x?xf32>
  %down = "onnx.Unsqueeze"(%r, %ax1) : (tensor<?xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %b = "onnx.Sub"(%across, %down) : (tensor<1x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %w = onnx.Constant dense<[[1.0, 0.5, 0.25, 0.0], [0.0, 1.0, 0.5, 0.25], [0.25, 0.0, 1.0, 0.5], [0.5, 0.25, 0.0, 1.0]]> : tensor<4x4xf32>
  %p = "onnx.MatMul"(%x, %w) : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %steps = "onnx.Range"(%zero, %n, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %stepsf = "onnx.Cast"(%steps) {to = f32} : (tensor<?xi64>) -> tensor<?xf32>
  %stepcol = "onnx.Unsqueeze"(%stepsf, %ax1) : (tensor<?xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %c = "onnx.Add"(%p, %stepcol) : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  return %a, %b, %c : tensor<?x4xf32>, tensor<?x?xf32>, tensor<?x4xf32>
}

// Ranges of other bounds: a float Range counting down from a Cast of a
// length to 0 (its count from the integral bounds, its start a tensor the
// kernel reads), and an integer Range starting at a length the host
// computes, step 2, each computed in the kernel of the tree that reads it.
// BOUNDS-NOT: gpu.kernel @range
// BOUNDS-NOT: gpu.dispatch @range
// RUN-BOUNDS-NOT: FAIL
// RUN-BOUNDS: input set 0:
// RUN-BOUNDS: output 1: tensor<3xi64> = [6, 12, 18]
// RUN-BOUNDS-COUNT-2: vs ref: max abs error 0, {{.*}}: PASS
// RUN-BOUNDS: input set 1:
// RUN-BOUNDS: output 0: tensor<1x3xf32> = [0.5, 0.5, 0.5]
// RUN-BOUNDS: output 1: tensor<1xi64> = [15]
// RUN-BOUNDS-COUNT-2: vs ref: max abs error 0, {{.*}}: PASS

//--- bounds.mlir
func.func @main(%x: tensor<?x3xf32>, %ids: tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?xi64>) {
  %zero = onnx.Constant dense<0> : tensor<i64>
  %two = onnx.Constant dense<2> : tensor<i64>
  %three = onnx.Constant dense<3> : tensor<i64>
  %ax1 = onnx.Constant dense<1> : tensor<1xi64>
  %sx = "onnx.Shape"(%x) : (tensor<?x3xf32>) -> tensor<2xi64>
  %n = "onnx.Gather"(%sx, %zero) : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %si = "onnx.Shape"(%ids) : (tensor<?xi64>) -> tensor<1xi64>
  %m = "onnx.Gather"(%si, %zero) : (tensor<1xi64>, tensor<i64>) -> tensor<i64>
  %nf = "onnx.Cast"(%n) {to = f32} : (tensor<i64>) -> tensor<f32>
  %fzero = onnx.Constant dense<0.0> : tensor<f32>
  %fminus = onnx.Constant dense<-1.0> : tensor<f32>
  %down = "onnx.Range"(%nf, %fzero, %fminus) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  %col = "onnx.Unsqueeze"(%down, %ax1) : (tensor<?xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %y = "onnx.Mul"(%x, %col) : (tensor<?x3xf32>, tensor<?x1xf32>) -> tensor<?x3xf32>
  %twice = "onnx.Mul"(%n, %two) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %end = "onnx.Add"(%m, %twice) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %pos = "onnx.Range"(%m, %end, %two) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %z = "onnx.Mul"(%pos, %three) : (tensor<?xi64>, tensor<i64>) -> tensor<?xi64>
  return %y, %z : tensor<?x3xf32>, tensor<?xi64>
}

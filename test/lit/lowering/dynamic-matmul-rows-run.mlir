// Products whose M is known only at run time, lowered and loaded once and
// run with the validation layer at M on both sides of every boundary
// between the kernels of dynamic-matmul.mlir against the reference backend:
// 1 (the one-row matrix-vector kernel), 3 and 4 (the one for up to 4 rows),
// 5 and 8 ((4, 8]), 9 and 16, 17 and 32, 33 and 64 (the classes of few rows,
// each with a kernel of its own, or merged with its neighbours), 65 and 200
// (the tiles for 256 rows, k split or whole as the run decides). Three
// products: a fused bias and Relu after the contraction, a LayerNorm applied
// as A is loaded (its Shape, which reads only its dims, reshaping the
// product), and a long k (4096) whose rows up to 32 keep k whole in
// one workgroup and whose 33 to 64 rows split it into the class's partial
// sums. No run compiles a kernel. The kernels are shaped for a GPU
// (--kernels-for=gpu), as dynamic-matmul.mlir checks them.

// RUN: split-file %s %t
// RUN: %python %S/Inputs/make_npy.py %t/w.npy 1 256 512
// RUN: %python %S/Inputs/make_npy.py %t/c.npy 2 512
// RUN: %python %S/Inputs/make_npy.py %t/s.npy 3 256
// RUN: %python %S/Inputs/make_npy.py %t/b.npy 4 256
// RUN: %python %S/Inputs/make_npy.py %t/w2.npy 5 256 128
// RUN: %python %S/Inputs/make_npy.py %t/w3.npy 6 4096 64
// RUN: %python %S/Inputs/make_npy.py %t/x1.npy 11 1 256
// RUN: %python %S/Inputs/make_npy.py %t/y1.npy 21 1 4096
// RUN: %python %S/Inputs/make_npy.py %t/x3.npy 13 3 256
// RUN: %python %S/Inputs/make_npy.py %t/y3.npy 23 3 4096
// RUN: %python %S/Inputs/make_npy.py %t/x4.npy 14 4 256
// RUN: %python %S/Inputs/make_npy.py %t/y4.npy 24 4 4096
// RUN: %python %S/Inputs/make_npy.py %t/x5.npy 15 5 256
// RUN: %python %S/Inputs/make_npy.py %t/y5.npy 25 5 4096
// RUN: %python %S/Inputs/make_npy.py %t/x8.npy 18 8 256
// RUN: %python %S/Inputs/make_npy.py %t/y8.npy 28 8 4096
// RUN: %python %S/Inputs/make_npy.py %t/x9.npy 19 9 256
// RUN: %python %S/Inputs/make_npy.py %t/y9.npy 29 9 4096
// RUN: %python %S/Inputs/make_npy.py %t/x16.npy 116 16 256
// RUN: %python %S/Inputs/make_npy.py %t/y16.npy 216 16 4096
// RUN: %python %S/Inputs/make_npy.py %t/x17.npy 117 17 256
// RUN: %python %S/Inputs/make_npy.py %t/y17.npy 217 17 4096
// RUN: %python %S/Inputs/make_npy.py %t/x32.npy 132 32 256
// RUN: %python %S/Inputs/make_npy.py %t/y32.npy 232 32 4096
// RUN: %python %S/Inputs/make_npy.py %t/x33.npy 133 33 256
// RUN: %python %S/Inputs/make_npy.py %t/y33.npy 233 33 4096
// RUN: %python %S/Inputs/make_npy.py %t/x64.npy 164 64 256
// RUN: %python %S/Inputs/make_npy.py %t/y64.npy 264 64 4096
// RUN: %python %S/Inputs/make_npy.py %t/x65.npy 165 65 256
// RUN: %python %S/Inputs/make_npy.py %t/y65.npy 265 65 4096
// RUN: %python %S/Inputs/make_npy.py %t/x200.npy 1200 200 256
// RUN: %python %S/Inputs/make_npy.py %t/y200.npy 2200 200 4096
// RUN: onyx-run %t/rows.mlir --kernels-for=gpu --validate --check --atol=2e-5 \
// RUN:   --input-set='@%t/x1.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y1.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x3.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y3.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x4.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y4.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x5.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y5.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x8.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y8.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x9.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y9.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x16.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y16.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x17.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y17.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x32.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y32.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x33.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y33.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x64.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y64.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x65.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y65.npy;@%t/w3.npy' \
// RUN:   --input-set='@%t/x200.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y200.npy;@%t/w3.npy' \
// RUN:   | FileCheck %s

// The LayerNorm is no kernel of its own: its Shape reads only its dims.
// RUN: onyx-run %t/rows.mlir --kernels-for=gpu --profile \
// RUN:   --input-set='@%t/x16.npy;@%t/w.npy;@%t/c.npy;@%t/s.npy;@%t/b.npy;@%t/w2.npy;@%t/y16.npy;@%t/w3.npy' \
// RUN:   | FileCheck %s --check-prefix=NORM
// NORM: profile: 3 dispatches
// NORM-NOT: @layer_norm
// NORM: work:

// Which kernel each M runs (--profile lists the dispatches that ran): one
// for each, the two-dispatch split of k only above 64 rows here.
// RUN: onyx-run %t/one.mlir --kernels-for=gpu --check --atol=2e-5 --profile \
// RUN:   --input-set='@%t/x1.npy;@%t/w.npy' --input-set='@%t/x4.npy;@%t/w.npy' \
// RUN:   --input-set='@%t/x5.npy;@%t/w.npy' --input-set='@%t/x8.npy;@%t/w.npy' \
// RUN:   --input-set='@%t/x9.npy;@%t/w.npy' --input-set='@%t/x16.npy;@%t/w.npy' \
// RUN:   --input-set='@%t/x17.npy;@%t/w.npy' --input-set='@%t/x32.npy;@%t/w.npy' \
// RUN:   --input-set='@%t/x33.npy;@%t/w.npy' --input-set='@%t/x64.npy;@%t/w.npy' \
// RUN:   --input-set='@%t/x65.npy;@%t/w.npy' \
// RUN:   | FileCheck %s --check-prefix=ONE
// ONE: input set 0: run
// ONE-NEXT: output 0:
// ONE-NEXT: output 0 vs ref: {{.*}}: PASS
// ONE: profile: 1 dispatches, {{.*}} (8 more with grids this run left empty, not listed)
// ONE-NEXT: kernel
// ONE-NEXT: 0  @matmul {{.*}} one.mlir:2
// ONE: input set 1: run
// ONE-NEXT: output 0:
// ONE-NEXT: output 0 vs ref: {{.*}}: PASS
// ONE: profile: 1 dispatches
// ONE-NEXT: kernel
// ONE-NEXT: 1  @matmul_1 {{.*}} one.mlir:2
// ONE: input set 2: run
// ONE-NEXT: output 0:
// ONE-NEXT: output 0 vs ref: {{.*}}: PASS
// ONE: profile: 1 dispatches
// ONE-NEXT: kernel
// ONE-NEXT: 2  @matmul_2 {{.*}} one.mlir:2
// ONE: input set 3: run
// ONE-NEXT: output 0:
// ONE-NEXT: output 0 vs ref: {{.*}}: PASS
// ONE: profile: 1 dispatches
// ONE-NEXT: kernel
// ONE-NEXT: 2  @matmul_2 {{.*}} one.mlir:2
// ONE: input set 4: run
// ONE-NEXT: output 0:
// ONE-NEXT: output 0 vs ref: {{.*}}: PASS
// ONE: profile: 1 dispatches
// ONE-NEXT: kernel
// ONE-NEXT: 3  @matmul_3 {{.*}} one.mlir:2
// ONE: input set 5: run
// ONE-NEXT: output 0:
// ONE-NEXT: output 0 vs ref: {{.*}}: PASS
// ONE: profile: 1 dispatches
// ONE-NEXT: kernel
// ONE-NEXT: 3  @matmul_3 {{.*}} one.mlir:2
// ONE: input set 6: run
// ONE-NEXT: output 0:
// ONE-NEXT: output 0 vs ref: {{.*}}: PASS
// ONE: profile: 1 dispatches
// ONE-NEXT: kernel
// ONE-NEXT: 4  @matmul_4 {{.*}} one.mlir:2
// ONE: input set 7: run
// ONE-NEXT: output 0:
// ONE-NEXT: output 0 vs ref: {{.*}}: PASS
// ONE: profile: 1 dispatches
// ONE-NEXT: kernel
// ONE-NEXT: 4  @matmul_4 {{.*}} one.mlir:2
// ONE: input set 8: run
// ONE-NEXT: output 0:
// ONE-NEXT: output 0 vs ref: {{.*}}: PASS
// ONE: profile: 1 dispatches
// ONE-NEXT: kernel
// ONE-NEXT: 5  @matmul_5 {{.*}} one.mlir:2
// ONE: input set 9: run
// ONE-NEXT: output 0:
// ONE-NEXT: output 0 vs ref: {{.*}}: PASS
// ONE: profile: 1 dispatches
// ONE-NEXT: kernel
// ONE-NEXT: 5  @matmul_5 {{.*}} one.mlir:2
// ONE: input set 10: run
// ONE-NEXT: output 0:
// ONE-NEXT: output 0 vs ref: {{.*}}: PASS
// ONE: profile: 2 dispatches
// ONE-NEXT: kernel
// ONE-NEXT: 6  @matmul_6 {{.*}} one.mlir:2
// ONE-NEXT: 7  @matmul_reduce {{.*}} one.mlir:2

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<3x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 2: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<4x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 3: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<5x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 4: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<8x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 5: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<9x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 6: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<16x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 7: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<17x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 8: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<32x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 9: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<33x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 10: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<64x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 11: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<65x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS
// CHECK: input set 12: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<200x512xf32>
// CHECK: output 0 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 1 vs ref: {{.*}}: PASS
// CHECK-NEXT: output 2 vs ref: {{.*}}: PASS

//--- rows.mlir
func.func @main(%x: tensor<?x256xf32>, %w: tensor<256x512xf32>, %c: tensor<512xf32>, %s: tensor<256xf32>, %b: tensor<256xf32>, %w2: tensor<256x128xf32>, %y: tensor<?x4096xf32>, %w3: tensor<4096x64xf32>) -> (tensor<?x512xf32>, tensor<?x2x64xf32>, tensor<?x64xf32>) {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<?x256xf32>, tensor<256x512xf32>) -> tensor<?x512xf32>
  %1 = "onnx.Add"(%0, %c) : (tensor<?x512xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %2 = "onnx.Relu"(%1) : (tensor<?x512xf32>) -> tensor<?x512xf32>
  %n = "onnx.LayerNormalization"(%x, %s, %b) {axis = -1 : si64, epsilon = 1.0e-5 : f32} : (tensor<?x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
  %3 = "onnx.MatMul"(%n, %w2) : (tensor<?x256xf32>, tensor<256x128xf32>) -> tensor<?x128xf32>
  %ns = "onnx.Shape"(%n) {end = 1 : si64} : (tensor<?x256xf32>) -> tensor<1xi64>
  %heads = onnx.Constant dense<[2, 64]> : tensor<2xi64>
  %shape = "onnx.Concat"(%ns, %heads) {axis = 0 : si64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %r = "onnx.Reshape"(%3, %shape) : (tensor<?x128xf32>, tensor<3xi64>) -> tensor<?x2x64xf32>
  %4 = "onnx.MatMul"(%y, %w3) : (tensor<?x4096xf32>, tensor<4096x64xf32>) -> tensor<?x64xf32>
  return %2, %r, %4 : tensor<?x512xf32>, tensor<?x2x64xf32>, tensor<?x64xf32>
}

//--- one.mlir
func.func @main(%x: tensor<?x256xf32>, %w: tensor<256x512xf32>) -> tensor<?x512xf32> {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<?x256xf32>, tensor<256x512xf32>) -> tensor<?x512xf32>
  return %0 : tensor<?x512xf32>
}

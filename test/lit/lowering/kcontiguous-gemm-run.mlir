// Products whose B is stored [n, k] keep both tiles contiguous along k in
// shared memory (useKContiguousTiles, lowering/TiledGemm.cpp), run on
// lavapipe with the validation layer against the reference backend: linear
// layers (Gemm with transB) whose workgroups share k among groups of
// threads, with and without alpha and a bias; one of 128 x 128 tiles, which
// step 32 along k on a GPU; and a LayerNormalization read by a MatMul with
// constant weights (64 x 256) and rows known only at run time, whose
// weights onnx-transpose-gemv-weights stores [n, k] and whose A is copied
// one normalized element at a time. Shaped for a GPU (--kernels-for=gpu)
// and for a CPU device (the default on lavapipe: 8 x 8 outputs a thread).

// RUN: split-file %s %t
// RUN: %python %S/Inputs/make_npy.py %t/x.npy 1 16 512
// RUN: %python %S/Inputs/make_npy.py %t/w.npy 2 32 512
// RUN: %python %S/Inputs/make_npy.py %t/x2.npy 3 64 256
// RUN: %python %S/Inputs/make_npy.py %t/w2.npy 4 96 256
// RUN: %python %S/Inputs/make_npy.py %t/c.npy 5 96
// RUN: onyx-opt %t/linear.mlir --target=nvidia --convert-onnx-to-gpu | FileCheck %s --check-prefix=GLSL
// RUN: onyx-run %t/linear.mlir --kernels-for=gpu --validate --check --atol=1e-5 \
// RUN:   --input=@%t/x.npy --input=@%t/w.npy --input=@%t/x2.npy --input=@%t/w2.npy \
// RUN:   --input=@%t/c.npy | FileCheck %s --check-prefix=LINEAR
// RUN: onyx-run %t/linear.mlir --validate --check --atol=1e-5 \
// RUN:   --input=@%t/x.npy --input=@%t/w.npy --input=@%t/x2.npy --input=@%t/w2.npy \
// RUN:   --input=@%t/c.npy | FileCheck %s --check-prefix=LINEAR

// RUN: %python %S/Inputs/make_npy.py %t/wx.npy 11 1024 64
// RUN: %python %S/Inputs/make_npy.py %t/ww.npy 12 1024 64
// RUN: onyx-opt %t/wide.mlir --target=nvidia --convert-onnx-to-gpu | FileCheck %s --check-prefix=WIDE-GLSL
// RUN: onyx-run %t/wide.mlir --kernels-for=gpu --validate --check --atol=1e-5 \
// RUN:   --input=@%t/wx.npy --input=@%t/ww.npy | FileCheck %s --check-prefix=WIDE

// RUN: %python %S/Inputs/make_npy.py %t/n1.npy 6 1 64
// RUN: %python %S/Inputs/make_npy.py %t/n7.npy 7 7 64
// RUN: %python %S/Inputs/make_npy.py %t/n70.npy 8 70 64
// RUN: %python %S/Inputs/make_npy.py %t/g.npy 9 64
// RUN: %python %S/Inputs/make_npy.py %t/b.npy 10 64
// RUN: onyx-opt %t/norm.mlir --canonicalize --target=nvidia --onnx-static-shapes \
// RUN:   --onnx-transpose-gemv-weights --onnx-fuse-elementwise --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=NORM-GLSL
// RUN: onyx-run %t/norm.mlir --kernels-for=gpu --validate --check --atol=1e-5 \
// RUN:   --input-set='@%t/n70.npy;@%t/g.npy;@%t/b.npy' \
// RUN:   --input-set='@%t/n7.npy;@%t/g.npy;@%t/b.npy' \
// RUN:   --input-set='@%t/n1.npy;@%t/g.npy;@%t/b.npy' | FileCheck %s --check-prefix=NORM
// RUN: onyx-run %t/norm.mlir --validate --check --atol=1e-5 \
// RUN:   --input-set='@%t/n70.npy;@%t/g.npy;@%t/b.npy' \
// RUN:   --input-set='@%t/n7.npy;@%t/g.npy;@%t/b.npy' | FileCheck %s --check-prefix=NORM

//--- linear.mlir
// Groups of 32 threads each sum a fourth of every step of 64 along k: a
// group reads its four vec4s of each row and column.
// GLSL: gpu.kernel @gemm(read, read, write)
// GLSL-SAME: shared vec4 As[264];
// GLSL-SAME: shared vec4 Bs[264];
// GLSL-SAME: for (uint kq = kg * 4u; kq < kg * 4u + 4u; ++kq)
// GLSL: gpu.kernel @gemm_1(read, read, read, write)
// GLSL-SAME: shared vec4 Bs[528];
// GLSL-SAME: for (uint kq = kg * 4u; kq < kg * 4u + 4u; ++kq)
// LINEAR: output 0 vs ref: {{.*}}: PASS
// LINEAR: output 1 vs ref: {{.*}}: PASS
func.func @main(%x: tensor<16x512xf32>, %w: tensor<32x512xf32>, %x2: tensor<64x256xf32>, %w2: tensor<96x256xf32>, %c: tensor<96xf32>) -> (tensor<16x32xf32>, tensor<64x96xf32>) {
  %0 = "onnx.Gemm"(%x, %w) {transB = 1 : si64} : (tensor<16x512xf32>, tensor<32x512xf32>) -> tensor<16x32xf32>
  %1 = "onnx.Gemm"(%x2, %w2, %c) {transB = 1 : si64, alpha = 0.5 : f32} : (tensor<64x256xf32>, tensor<96x256xf32>, tensor<96xf32>) -> tensor<64x96xf32>
  return %0, %1 : tensor<16x32xf32>, tensor<64x96xf32>
}

//--- wide.mlir
// Tiles of 128 x 128 with 8 x 8 outputs a thread step 32 along k on a GPU:
// 128 bytes of each row and column per step.
// WIDE-GLSL: gpu.kernel @gemm(read, read, write)
// WIDE-GLSL-SAME: shared vec4 As[1152];
// WIDE-GLSL-SAME: for (uint k0 = 0u; k0 < 64u; k0 += 32u)
// WIDE-GLSL-SAME: for (uint kq = 0u; kq < 8u; ++kq)
// WIDE: output 0 vs ref: {{.*}}: PASS
func.func @main(%x: tensor<1024x64xf32>, %w: tensor<1024x64xf32>) -> tensor<1024x1024xf32> {
  %0 = "onnx.Gemm"(%x, %w) {transB = 1 : si64} : (tensor<1024x64xf32>, tensor<1024x64xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

//--- norm.mlir
// The tiled kernel for more than 4 rows stores each normalized element of
// A at its place in the row's vec4s.
// NORM-GLSL: gpu.kernel @matmul_2(
// NORM-GLSL-SAME: As[ar0 * 5u + ac0 / 4u][ac0 % 4u] = av0;
// NORM-GLSL-SAME: for (uint kq = 0u; kq < 4u; ++kq)
// NORM: input set 0: run
// NORM: output 0 vs ref: {{.*}}: PASS
// NORM: input set 1: run
// NORM: output 0 vs ref: {{.*}}: PASS
func.func @main(%x: tensor<?x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<?x256xf32> {
  %c0 = onnx.Constant dense<0.0> : tensor<f32>
  %c1 = onnx.Constant dense<1.0> : tensor<f32>
  %count = onnx.Constant dense<16384.0> : tensor<f32>
  %r = "onnx.Range"(%c0, %count, %c1) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<16384xf32>
  %s = "onnx.Sin"(%r) : (tensor<16384xf32>) -> tensor<16384xf32>
  %shape = onnx.Constant dense<[64, 256]> : tensor<2xi64>
  %w = "onnx.Reshape"(%s, %shape) : (tensor<16384xf32>, tensor<2xi64>) -> tensor<64x256xf32>
  %n = "onnx.LayerNormalization"(%x, %g, %b) {axis = -1 : si64, epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %y = "onnx.MatMul"(%n, %w) : (tensor<?x64xf32>, tensor<64x256xf32>) -> tensor<?x256xf32>
  return %y : tensor<?x256xf32>
}

// com.microsoft MatMulNBits at sizes that exercise the plans of its kernels
// (lowering/BlockQuantizedKernels.cpp): the matrix-vector kernel's uvec4 or
// word loads, two columns per invocation, x staged in several passes, 1 to
// 4 rows, 2, 4 and 8 bits, each zero-point form, a bias; the tiled GEMM's
// kernels over several partial tiles, shaped for a CPU and for a GPU. The weights, scales, zero points and x are
// integer patterns (Range, Mul, Mod) that canonicalization folds, and each
// run is checked against the reference backend.

// RUN: split-file %s %t
// RUN: onyx-run %t/wide.mlir --validate --check --input=1x1024xf32=1 --atol=1e-5 | FileCheck %s
// RUN: onyx-run %t/long.mlir --validate --check --input=1x4160xf32=1 --atol=1e-5 | FileCheck %s
// RUN: onyx-run %t/rows.mlir --validate --check --input=3x1000xf32=1 --atol=1e-5 | FileCheck %s
// RUN: onyx-run %t/bits2.mlir --validate --check --input=1x2048xf32=1 --atol=1e-5 | FileCheck %s
// RUN: onyx-run %t/tiled.mlir --validate --check --input=70x1000xf32=1 --atol=1e-5 | FileCheck %s
// RUN: onyx-run %t/tiled_f32zp.mlir --validate --check --input=9x200xf32=1 --atol=1e-5 | FileCheck %s
// The tiled GEMM's kernels shaped for a GPU (lowering/nbits-tiled-run.mlir
// runs them with k split).
// RUN: onyx-run %t/tiled.mlir --kernels-for=gpu --validate --check --input=70x1000xf32=1 --atol=1e-5 | FileCheck %s
// RUN: onyx-run %t/tiled_f32zp.mlir --kernels-for=gpu --validate --check --input=9x200xf32=1 --atol=1e-5 | FileCheck %s
// RUN: onyx-run %t/bits8.mlir --validate --check --atol=1e-5 --input-set=1x520xf32=1 \
// RUN:   --input-set=4x520xf32=0.5 --input-set=2x520xf32=-1 --input-set=6x520xf32=1 \
// RUN:   | FileCheck %s --check-prefix=SETS

// CHECK: output 0 vs ref: {{.*}}: PASS
// SETS-COUNT-4: output 0 vs ref: {{.*}}: PASS
// SETS-NOT: FAIL

//--- wide.mlir
// 1024 x 4100, block 32, a bias: uvec4 loads, two columns per invocation,
// the last workgroup's columns past N.
func.func @main(%x: tensor<1x1024xf32>) -> tensor<1x4100xf32> {
  %c0 = onnx.Constant dense<0> : tensor<i32>
  %c1 = onnx.Constant dense<1> : tensor<i32>
  %xp_n = onnx.Constant dense<1024> : tensor<i32>
  %xp_r = "onnx.Range"(%c0, %xp_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1024xi32>
  %xp_k = onnx.Constant dense<7> : tensor<i32>
  %xp_p = "onnx.Mul"(%xp_r, %xp_k) : (tensor<1024xi32>, tensor<i32>) -> tensor<1024xi32>
  %xp_d = onnx.Constant dense<19> : tensor<i32>
  %xp_q = "onnx.Mod"(%xp_p, %xp_d) : (tensor<1024xi32>, tensor<i32>) -> tensor<1024xi32>
  %xp_s = onnx.Constant dense<9> : tensor<i32>
  %xp_t = "onnx.Sub"(%xp_q, %xp_s) : (tensor<1024xi32>, tensor<i32>) -> tensor<1024xi32>
  %xp_f = "onnx.Cast"(%xp_t) {to = f32} : (tensor<1024xi32>) -> tensor<1024xf32>
  %xp_m = onnx.Constant dense<0.0625> : tensor<f32>
  %xp = "onnx.Mul"(%xp_f, %xp_m) : (tensor<1024xf32>, tensor<f32>) -> tensor<1024xf32>
  %xr_shape = onnx.Constant dense<[1, 1024]> : tensor<2xi64>
  %xr = "onnx.Reshape"(%xp, %xr_shape) : (tensor<1024xf32>, tensor<2xi64>) -> tensor<1x1024xf32>
  %xa = "onnx.Mul"(%x, %xr) : (tensor<1x1024xf32>, tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %bq_n = onnx.Constant dense<2099200> : tensor<i32>
  %bq_r = "onnx.Range"(%c0, %bq_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2099200xi32>
  %bq_k = onnx.Constant dense<37> : tensor<i32>
  %bq_p = "onnx.Mul"(%bq_r, %bq_k) : (tensor<2099200xi32>, tensor<i32>) -> tensor<2099200xi32>
  %bq_d = onnx.Constant dense<251> : tensor<i32>
  %bq_q = "onnx.Mod"(%bq_p, %bq_d) : (tensor<2099200xi32>, tensor<i32>) -> tensor<2099200xi32>
  %bq_s = onnx.Constant dense<0> : tensor<i32>
  %bq_t = "onnx.Sub"(%bq_q, %bq_s) : (tensor<2099200xi32>, tensor<i32>) -> tensor<2099200xi32>
  %bq = "onnx.Cast"(%bq_t) {to = ui8} : (tensor<2099200xi32>) -> tensor<2099200xui8>
  %b_shape = onnx.Constant dense<[4100, 32, 16]> : tensor<3xi64>
  %b = "onnx.Reshape"(%bq, %b_shape) : (tensor<2099200xui8>, tensor<3xi64>) -> tensor<4100x32x16xui8>
  %sc_n = onnx.Constant dense<131200> : tensor<i32>
  %sc_r = "onnx.Range"(%c0, %sc_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<131200xi32>
  %sc_k = onnx.Constant dense<3> : tensor<i32>
  %sc_p = "onnx.Mul"(%sc_r, %sc_k) : (tensor<131200xi32>, tensor<i32>) -> tensor<131200xi32>
  %sc_d = onnx.Constant dense<7> : tensor<i32>
  %sc_q = "onnx.Mod"(%sc_p, %sc_d) : (tensor<131200xi32>, tensor<i32>) -> tensor<131200xi32>
  %sc_s = onnx.Constant dense<-1> : tensor<i32>
  %sc_t = "onnx.Sub"(%sc_q, %sc_s) : (tensor<131200xi32>, tensor<i32>) -> tensor<131200xi32>
  %sc_f = "onnx.Cast"(%sc_t) {to = f32} : (tensor<131200xi32>) -> tensor<131200xf32>
  %sc_m = onnx.Constant dense<0.01> : tensor<f32>
  %sc = "onnx.Mul"(%sc_f, %sc_m) : (tensor<131200xf32>, tensor<f32>) -> tensor<131200xf32>
  %none = "onnx.NoValue"() {value} : () -> none
  %bias_n = onnx.Constant dense<4100> : tensor<i32>
  %bias_r = "onnx.Range"(%c0, %bias_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4100xi32>
  %bias_k = onnx.Constant dense<11> : tensor<i32>
  %bias_p = "onnx.Mul"(%bias_r, %bias_k) : (tensor<4100xi32>, tensor<i32>) -> tensor<4100xi32>
  %bias_d = onnx.Constant dense<13> : tensor<i32>
  %bias_q = "onnx.Mod"(%bias_p, %bias_d) : (tensor<4100xi32>, tensor<i32>) -> tensor<4100xi32>
  %bias_s = onnx.Constant dense<6> : tensor<i32>
  %bias_t = "onnx.Sub"(%bias_q, %bias_s) : (tensor<4100xi32>, tensor<i32>) -> tensor<4100xi32>
  %bias_f = "onnx.Cast"(%bias_t) {to = f32} : (tensor<4100xi32>) -> tensor<4100xf32>
  %bias_m = onnx.Constant dense<0.25> : tensor<f32>
  %bias = "onnx.Mul"(%bias_f, %bias_m) : (tensor<4100xf32>, tensor<f32>) -> tensor<4100xf32>
  %y = "onnx.com.microsoft.MatMulNBits"(%xa, %b, %sc, %none, %none, %bias) {K = 1024 : si64, N = 4100 : si64, bits = 4 : si64, block_size = 32 : si64} : (tensor<1x1024xf32>, tensor<4100x32x16xui8>, tensor<131200xf32>, none, none, tensor<4100xf32>) -> tensor<1x4100xf32>
  return %y : tensor<1x4100xf32>
}

//--- long.mlir
// K = 4160 (130 uvec4s a row): x staged in two passes; uint8 zero points.
func.func @main(%x: tensor<1x4160xf32>) -> tensor<1x40xf32> {
  %c0 = onnx.Constant dense<0> : tensor<i32>
  %c1 = onnx.Constant dense<1> : tensor<i32>
  %xp_n = onnx.Constant dense<4160> : tensor<i32>
  %xp_r = "onnx.Range"(%c0, %xp_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4160xi32>
  %xp_k = onnx.Constant dense<7> : tensor<i32>
  %xp_p = "onnx.Mul"(%xp_r, %xp_k) : (tensor<4160xi32>, tensor<i32>) -> tensor<4160xi32>
  %xp_d = onnx.Constant dense<19> : tensor<i32>
  %xp_q = "onnx.Mod"(%xp_p, %xp_d) : (tensor<4160xi32>, tensor<i32>) -> tensor<4160xi32>
  %xp_s = onnx.Constant dense<9> : tensor<i32>
  %xp_t = "onnx.Sub"(%xp_q, %xp_s) : (tensor<4160xi32>, tensor<i32>) -> tensor<4160xi32>
  %xp_f = "onnx.Cast"(%xp_t) {to = f32} : (tensor<4160xi32>) -> tensor<4160xf32>
  %xp_m = onnx.Constant dense<0.0625> : tensor<f32>
  %xp = "onnx.Mul"(%xp_f, %xp_m) : (tensor<4160xf32>, tensor<f32>) -> tensor<4160xf32>
  %xr_shape = onnx.Constant dense<[1, 4160]> : tensor<2xi64>
  %xr = "onnx.Reshape"(%xp, %xr_shape) : (tensor<4160xf32>, tensor<2xi64>) -> tensor<1x4160xf32>
  %xa = "onnx.Mul"(%x, %xr) : (tensor<1x4160xf32>, tensor<1x4160xf32>) -> tensor<1x4160xf32>
  %bq_n = onnx.Constant dense<83200> : tensor<i32>
  %bq_r = "onnx.Range"(%c0, %bq_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<83200xi32>
  %bq_k = onnx.Constant dense<37> : tensor<i32>
  %bq_p = "onnx.Mul"(%bq_r, %bq_k) : (tensor<83200xi32>, tensor<i32>) -> tensor<83200xi32>
  %bq_d = onnx.Constant dense<251> : tensor<i32>
  %bq_q = "onnx.Mod"(%bq_p, %bq_d) : (tensor<83200xi32>, tensor<i32>) -> tensor<83200xi32>
  %bq_s = onnx.Constant dense<0> : tensor<i32>
  %bq_t = "onnx.Sub"(%bq_q, %bq_s) : (tensor<83200xi32>, tensor<i32>) -> tensor<83200xi32>
  %bq = "onnx.Cast"(%bq_t) {to = ui8} : (tensor<83200xi32>) -> tensor<83200xui8>
  %b_shape = onnx.Constant dense<[40, 65, 32]> : tensor<3xi64>
  %b = "onnx.Reshape"(%bq, %b_shape) : (tensor<83200xui8>, tensor<3xi64>) -> tensor<40x65x32xui8>
  %sc_n = onnx.Constant dense<2600> : tensor<i32>
  %sc_r = "onnx.Range"(%c0, %sc_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2600xi32>
  %sc_k = onnx.Constant dense<3> : tensor<i32>
  %sc_p = "onnx.Mul"(%sc_r, %sc_k) : (tensor<2600xi32>, tensor<i32>) -> tensor<2600xi32>
  %sc_d = onnx.Constant dense<7> : tensor<i32>
  %sc_q = "onnx.Mod"(%sc_p, %sc_d) : (tensor<2600xi32>, tensor<i32>) -> tensor<2600xi32>
  %sc_s = onnx.Constant dense<-1> : tensor<i32>
  %sc_t = "onnx.Sub"(%sc_q, %sc_s) : (tensor<2600xi32>, tensor<i32>) -> tensor<2600xi32>
  %sc_f = "onnx.Cast"(%sc_t) {to = f32} : (tensor<2600xi32>) -> tensor<2600xf32>
  %sc_m = onnx.Constant dense<0.01> : tensor<f32>
  %sc = "onnx.Mul"(%sc_f, %sc_m) : (tensor<2600xf32>, tensor<f32>) -> tensor<2600xf32>
  %zq_n = onnx.Constant dense<1320> : tensor<i32>
  %zq_r = "onnx.Range"(%c0, %zq_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1320xi32>
  %zq_k = onnx.Constant dense<29> : tensor<i32>
  %zq_p = "onnx.Mul"(%zq_r, %zq_k) : (tensor<1320xi32>, tensor<i32>) -> tensor<1320xi32>
  %zq_d = onnx.Constant dense<256> : tensor<i32>
  %zq_q = "onnx.Mod"(%zq_p, %zq_d) : (tensor<1320xi32>, tensor<i32>) -> tensor<1320xi32>
  %zq_s = onnx.Constant dense<0> : tensor<i32>
  %zq_t = "onnx.Sub"(%zq_q, %zq_s) : (tensor<1320xi32>, tensor<i32>) -> tensor<1320xi32>
  %zq = "onnx.Cast"(%zq_t) {to = ui8} : (tensor<1320xi32>) -> tensor<1320xui8>
  %y = "onnx.com.microsoft.MatMulNBits"(%xa, %b, %sc, %zq) {K = 4160 : si64, N = 40 : si64, bits = 4 : si64, block_size = 64 : si64} : (tensor<1x4160xf32>, tensor<40x65x32xui8>, tensor<2600xf32>, tensor<1320xui8>) -> tensor<1x40xf32>
  return %y : tensor<1x40xf32>
}

//--- rows.mlir
// Three rows, K = 1000 (a last block of 8 values, rows of 504 bytes: words),
// block 16 (two words a block).
func.func @main(%x: tensor<3x1000xf32>) -> tensor<3x37xf32> {
  %c0 = onnx.Constant dense<0> : tensor<i32>
  %c1 = onnx.Constant dense<1> : tensor<i32>
  %xp_n = onnx.Constant dense<3000> : tensor<i32>
  %xp_r = "onnx.Range"(%c0, %xp_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3000xi32>
  %xp_k = onnx.Constant dense<7> : tensor<i32>
  %xp_p = "onnx.Mul"(%xp_r, %xp_k) : (tensor<3000xi32>, tensor<i32>) -> tensor<3000xi32>
  %xp_d = onnx.Constant dense<19> : tensor<i32>
  %xp_q = "onnx.Mod"(%xp_p, %xp_d) : (tensor<3000xi32>, tensor<i32>) -> tensor<3000xi32>
  %xp_s = onnx.Constant dense<9> : tensor<i32>
  %xp_t = "onnx.Sub"(%xp_q, %xp_s) : (tensor<3000xi32>, tensor<i32>) -> tensor<3000xi32>
  %xp_f = "onnx.Cast"(%xp_t) {to = f32} : (tensor<3000xi32>) -> tensor<3000xf32>
  %xp_m = onnx.Constant dense<0.0625> : tensor<f32>
  %xp = "onnx.Mul"(%xp_f, %xp_m) : (tensor<3000xf32>, tensor<f32>) -> tensor<3000xf32>
  %xr_shape = onnx.Constant dense<[3, 1000]> : tensor<2xi64>
  %xr = "onnx.Reshape"(%xp, %xr_shape) : (tensor<3000xf32>, tensor<2xi64>) -> tensor<3x1000xf32>
  %xa = "onnx.Mul"(%x, %xr) : (tensor<3x1000xf32>, tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %bq_n = onnx.Constant dense<18648> : tensor<i32>
  %bq_r = "onnx.Range"(%c0, %bq_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<18648xi32>
  %bq_k = onnx.Constant dense<37> : tensor<i32>
  %bq_p = "onnx.Mul"(%bq_r, %bq_k) : (tensor<18648xi32>, tensor<i32>) -> tensor<18648xi32>
  %bq_d = onnx.Constant dense<251> : tensor<i32>
  %bq_q = "onnx.Mod"(%bq_p, %bq_d) : (tensor<18648xi32>, tensor<i32>) -> tensor<18648xi32>
  %bq_s = onnx.Constant dense<0> : tensor<i32>
  %bq_t = "onnx.Sub"(%bq_q, %bq_s) : (tensor<18648xi32>, tensor<i32>) -> tensor<18648xi32>
  %bq = "onnx.Cast"(%bq_t) {to = ui8} : (tensor<18648xi32>) -> tensor<18648xui8>
  %b_shape = onnx.Constant dense<[37, 63, 8]> : tensor<3xi64>
  %b = "onnx.Reshape"(%bq, %b_shape) : (tensor<18648xui8>, tensor<3xi64>) -> tensor<37x63x8xui8>
  %sc_n = onnx.Constant dense<2331> : tensor<i32>
  %sc_r = "onnx.Range"(%c0, %sc_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2331xi32>
  %sc_k = onnx.Constant dense<3> : tensor<i32>
  %sc_p = "onnx.Mul"(%sc_r, %sc_k) : (tensor<2331xi32>, tensor<i32>) -> tensor<2331xi32>
  %sc_d = onnx.Constant dense<7> : tensor<i32>
  %sc_q = "onnx.Mod"(%sc_p, %sc_d) : (tensor<2331xi32>, tensor<i32>) -> tensor<2331xi32>
  %sc_s = onnx.Constant dense<-1> : tensor<i32>
  %sc_t = "onnx.Sub"(%sc_q, %sc_s) : (tensor<2331xi32>, tensor<i32>) -> tensor<2331xi32>
  %sc_f = "onnx.Cast"(%sc_t) {to = f32} : (tensor<2331xi32>) -> tensor<2331xf32>
  %sc_m = onnx.Constant dense<0.01> : tensor<f32>
  %sc = "onnx.Mul"(%sc_f, %sc_m) : (tensor<2331xf32>, tensor<f32>) -> tensor<2331xf32>
  %zq_n = onnx.Constant dense<1184> : tensor<i32>
  %zq_r = "onnx.Range"(%c0, %zq_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1184xi32>
  %zq_k = onnx.Constant dense<29> : tensor<i32>
  %zq_p = "onnx.Mul"(%zq_r, %zq_k) : (tensor<1184xi32>, tensor<i32>) -> tensor<1184xi32>
  %zq_d = onnx.Constant dense<256> : tensor<i32>
  %zq_q = "onnx.Mod"(%zq_p, %zq_d) : (tensor<1184xi32>, tensor<i32>) -> tensor<1184xi32>
  %zq_s = onnx.Constant dense<0> : tensor<i32>
  %zq_t = "onnx.Sub"(%zq_q, %zq_s) : (tensor<1184xi32>, tensor<i32>) -> tensor<1184xi32>
  %zq = "onnx.Cast"(%zq_t) {to = ui8} : (tensor<1184xi32>) -> tensor<1184xui8>
  %y = "onnx.com.microsoft.MatMulNBits"(%xa, %b, %sc, %zq) {K = 1000 : si64, N = 37 : si64, bits = 4 : si64, block_size = 16 : si64} : (tensor<3x1000xf32>, tensor<37x63x8xui8>, tensor<2331xf32>, tensor<1184xui8>) -> tensor<3x37xf32>
  return %y : tensor<3x37xf32>
}

//--- bits2.mlir
// 2 bits: 64 values a uvec4.
func.func @main(%x: tensor<1x2048xf32>) -> tensor<1x24xf32> {
  %c0 = onnx.Constant dense<0> : tensor<i32>
  %c1 = onnx.Constant dense<1> : tensor<i32>
  %xp_n = onnx.Constant dense<2048> : tensor<i32>
  %xp_r = "onnx.Range"(%c0, %xp_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2048xi32>
  %xp_k = onnx.Constant dense<7> : tensor<i32>
  %xp_p = "onnx.Mul"(%xp_r, %xp_k) : (tensor<2048xi32>, tensor<i32>) -> tensor<2048xi32>
  %xp_d = onnx.Constant dense<19> : tensor<i32>
  %xp_q = "onnx.Mod"(%xp_p, %xp_d) : (tensor<2048xi32>, tensor<i32>) -> tensor<2048xi32>
  %xp_s = onnx.Constant dense<9> : tensor<i32>
  %xp_t = "onnx.Sub"(%xp_q, %xp_s) : (tensor<2048xi32>, tensor<i32>) -> tensor<2048xi32>
  %xp_f = "onnx.Cast"(%xp_t) {to = f32} : (tensor<2048xi32>) -> tensor<2048xf32>
  %xp_m = onnx.Constant dense<0.0625> : tensor<f32>
  %xp = "onnx.Mul"(%xp_f, %xp_m) : (tensor<2048xf32>, tensor<f32>) -> tensor<2048xf32>
  %xr_shape = onnx.Constant dense<[1, 2048]> : tensor<2xi64>
  %xr = "onnx.Reshape"(%xp, %xr_shape) : (tensor<2048xf32>, tensor<2xi64>) -> tensor<1x2048xf32>
  %xa = "onnx.Mul"(%x, %xr) : (tensor<1x2048xf32>, tensor<1x2048xf32>) -> tensor<1x2048xf32>
  %bq_n = onnx.Constant dense<12288> : tensor<i32>
  %bq_r = "onnx.Range"(%c0, %bq_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<12288xi32>
  %bq_k = onnx.Constant dense<37> : tensor<i32>
  %bq_p = "onnx.Mul"(%bq_r, %bq_k) : (tensor<12288xi32>, tensor<i32>) -> tensor<12288xi32>
  %bq_d = onnx.Constant dense<251> : tensor<i32>
  %bq_q = "onnx.Mod"(%bq_p, %bq_d) : (tensor<12288xi32>, tensor<i32>) -> tensor<12288xi32>
  %bq_s = onnx.Constant dense<0> : tensor<i32>
  %bq_t = "onnx.Sub"(%bq_q, %bq_s) : (tensor<12288xi32>, tensor<i32>) -> tensor<12288xi32>
  %bq = "onnx.Cast"(%bq_t) {to = ui8} : (tensor<12288xi32>) -> tensor<12288xui8>
  %b_shape = onnx.Constant dense<[24, 32, 16]> : tensor<3xi64>
  %b = "onnx.Reshape"(%bq, %b_shape) : (tensor<12288xui8>, tensor<3xi64>) -> tensor<24x32x16xui8>
  %sc_n = onnx.Constant dense<768> : tensor<i32>
  %sc_r = "onnx.Range"(%c0, %sc_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<768xi32>
  %sc_k = onnx.Constant dense<3> : tensor<i32>
  %sc_p = "onnx.Mul"(%sc_r, %sc_k) : (tensor<768xi32>, tensor<i32>) -> tensor<768xi32>
  %sc_d = onnx.Constant dense<7> : tensor<i32>
  %sc_q = "onnx.Mod"(%sc_p, %sc_d) : (tensor<768xi32>, tensor<i32>) -> tensor<768xi32>
  %sc_s = onnx.Constant dense<-1> : tensor<i32>
  %sc_t = "onnx.Sub"(%sc_q, %sc_s) : (tensor<768xi32>, tensor<i32>) -> tensor<768xi32>
  %sc_f = "onnx.Cast"(%sc_t) {to = f32} : (tensor<768xi32>) -> tensor<768xf32>
  %sc_m = onnx.Constant dense<0.01> : tensor<f32>
  %sc = "onnx.Mul"(%sc_f, %sc_m) : (tensor<768xf32>, tensor<f32>) -> tensor<768xf32>
  %none = "onnx.NoValue"() {value} : () -> none
  %bias_n = onnx.Constant dense<24> : tensor<i32>
  %bias_r = "onnx.Range"(%c0, %bias_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<24xi32>
  %bias_k = onnx.Constant dense<11> : tensor<i32>
  %bias_p = "onnx.Mul"(%bias_r, %bias_k) : (tensor<24xi32>, tensor<i32>) -> tensor<24xi32>
  %bias_d = onnx.Constant dense<13> : tensor<i32>
  %bias_q = "onnx.Mod"(%bias_p, %bias_d) : (tensor<24xi32>, tensor<i32>) -> tensor<24xi32>
  %bias_s = onnx.Constant dense<6> : tensor<i32>
  %bias_t = "onnx.Sub"(%bias_q, %bias_s) : (tensor<24xi32>, tensor<i32>) -> tensor<24xi32>
  %bias_f = "onnx.Cast"(%bias_t) {to = f32} : (tensor<24xi32>) -> tensor<24xf32>
  %bias_m = onnx.Constant dense<0.25> : tensor<f32>
  %bias = "onnx.Mul"(%bias_f, %bias_m) : (tensor<24xf32>, tensor<f32>) -> tensor<24xf32>
  %y = "onnx.com.microsoft.MatMulNBits"(%xa, %b, %sc, %none, %none, %bias) {K = 2048 : si64, N = 24 : si64, bits = 2 : si64, block_size = 64 : si64} : (tensor<1x2048xf32>, tensor<24x32x16xui8>, tensor<768xf32>, none, none, tensor<24xf32>) -> tensor<1x24xf32>
  return %y : tensor<1x24xf32>
}

//--- tiled.mlir
// The tiled kernel: 70 rows (two row tiles, the second partial), 100
// columns, K = 1000, uint8 zero points, a bias.
func.func @main(%x: tensor<70x1000xf32>) -> tensor<70x100xf32> {
  %c0 = onnx.Constant dense<0> : tensor<i32>
  %c1 = onnx.Constant dense<1> : tensor<i32>
  %xp_n = onnx.Constant dense<70000> : tensor<i32>
  %xp_r = "onnx.Range"(%c0, %xp_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<70000xi32>
  %xp_k = onnx.Constant dense<7> : tensor<i32>
  %xp_p = "onnx.Mul"(%xp_r, %xp_k) : (tensor<70000xi32>, tensor<i32>) -> tensor<70000xi32>
  %xp_d = onnx.Constant dense<19> : tensor<i32>
  %xp_q = "onnx.Mod"(%xp_p, %xp_d) : (tensor<70000xi32>, tensor<i32>) -> tensor<70000xi32>
  %xp_s = onnx.Constant dense<9> : tensor<i32>
  %xp_t = "onnx.Sub"(%xp_q, %xp_s) : (tensor<70000xi32>, tensor<i32>) -> tensor<70000xi32>
  %xp_f = "onnx.Cast"(%xp_t) {to = f32} : (tensor<70000xi32>) -> tensor<70000xf32>
  %xp_m = onnx.Constant dense<0.0625> : tensor<f32>
  %xp = "onnx.Mul"(%xp_f, %xp_m) : (tensor<70000xf32>, tensor<f32>) -> tensor<70000xf32>
  %xr_shape = onnx.Constant dense<[70, 1000]> : tensor<2xi64>
  %xr = "onnx.Reshape"(%xp, %xr_shape) : (tensor<70000xf32>, tensor<2xi64>) -> tensor<70x1000xf32>
  %xa = "onnx.Mul"(%x, %xr) : (tensor<70x1000xf32>, tensor<70x1000xf32>) -> tensor<70x1000xf32>
  %bq_n = onnx.Constant dense<50400> : tensor<i32>
  %bq_r = "onnx.Range"(%c0, %bq_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<50400xi32>
  %bq_k = onnx.Constant dense<37> : tensor<i32>
  %bq_p = "onnx.Mul"(%bq_r, %bq_k) : (tensor<50400xi32>, tensor<i32>) -> tensor<50400xi32>
  %bq_d = onnx.Constant dense<251> : tensor<i32>
  %bq_q = "onnx.Mod"(%bq_p, %bq_d) : (tensor<50400xi32>, tensor<i32>) -> tensor<50400xi32>
  %bq_s = onnx.Constant dense<0> : tensor<i32>
  %bq_t = "onnx.Sub"(%bq_q, %bq_s) : (tensor<50400xi32>, tensor<i32>) -> tensor<50400xi32>
  %bq = "onnx.Cast"(%bq_t) {to = ui8} : (tensor<50400xi32>) -> tensor<50400xui8>
  %b_shape = onnx.Constant dense<[100, 63, 8]> : tensor<3xi64>
  %b = "onnx.Reshape"(%bq, %b_shape) : (tensor<50400xui8>, tensor<3xi64>) -> tensor<100x63x8xui8>
  %sc_n = onnx.Constant dense<6300> : tensor<i32>
  %sc_r = "onnx.Range"(%c0, %sc_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<6300xi32>
  %sc_k = onnx.Constant dense<3> : tensor<i32>
  %sc_p = "onnx.Mul"(%sc_r, %sc_k) : (tensor<6300xi32>, tensor<i32>) -> tensor<6300xi32>
  %sc_d = onnx.Constant dense<7> : tensor<i32>
  %sc_q = "onnx.Mod"(%sc_p, %sc_d) : (tensor<6300xi32>, tensor<i32>) -> tensor<6300xi32>
  %sc_s = onnx.Constant dense<-1> : tensor<i32>
  %sc_t = "onnx.Sub"(%sc_q, %sc_s) : (tensor<6300xi32>, tensor<i32>) -> tensor<6300xi32>
  %sc_f = "onnx.Cast"(%sc_t) {to = f32} : (tensor<6300xi32>) -> tensor<6300xf32>
  %sc_m = onnx.Constant dense<0.01> : tensor<f32>
  %sc = "onnx.Mul"(%sc_f, %sc_m) : (tensor<6300xf32>, tensor<f32>) -> tensor<6300xf32>
  %zq_n = onnx.Constant dense<3200> : tensor<i32>
  %zq_r = "onnx.Range"(%c0, %zq_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3200xi32>
  %zq_k = onnx.Constant dense<29> : tensor<i32>
  %zq_p = "onnx.Mul"(%zq_r, %zq_k) : (tensor<3200xi32>, tensor<i32>) -> tensor<3200xi32>
  %zq_d = onnx.Constant dense<256> : tensor<i32>
  %zq_q = "onnx.Mod"(%zq_p, %zq_d) : (tensor<3200xi32>, tensor<i32>) -> tensor<3200xi32>
  %zq_s = onnx.Constant dense<0> : tensor<i32>
  %zq_t = "onnx.Sub"(%zq_q, %zq_s) : (tensor<3200xi32>, tensor<i32>) -> tensor<3200xi32>
  %zq = "onnx.Cast"(%zq_t) {to = ui8} : (tensor<3200xi32>) -> tensor<3200xui8>
  %none = "onnx.NoValue"() {value} : () -> none
  %bias_n = onnx.Constant dense<100> : tensor<i32>
  %bias_r = "onnx.Range"(%c0, %bias_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<100xi32>
  %bias_k = onnx.Constant dense<11> : tensor<i32>
  %bias_p = "onnx.Mul"(%bias_r, %bias_k) : (tensor<100xi32>, tensor<i32>) -> tensor<100xi32>
  %bias_d = onnx.Constant dense<13> : tensor<i32>
  %bias_q = "onnx.Mod"(%bias_p, %bias_d) : (tensor<100xi32>, tensor<i32>) -> tensor<100xi32>
  %bias_s = onnx.Constant dense<6> : tensor<i32>
  %bias_t = "onnx.Sub"(%bias_q, %bias_s) : (tensor<100xi32>, tensor<i32>) -> tensor<100xi32>
  %bias_f = "onnx.Cast"(%bias_t) {to = f32} : (tensor<100xi32>) -> tensor<100xf32>
  %bias_m = onnx.Constant dense<0.25> : tensor<f32>
  %bias = "onnx.Mul"(%bias_f, %bias_m) : (tensor<100xf32>, tensor<f32>) -> tensor<100xf32>
  %y = "onnx.com.microsoft.MatMulNBits"(%xa, %b, %sc, %zq, %none, %bias) {K = 1000 : si64, N = 100 : si64, bits = 4 : si64, block_size = 16 : si64} : (tensor<70x1000xf32>, tensor<100x63x8xui8>, tensor<6300xf32>, tensor<3200xui8>, none, tensor<100xf32>) -> tensor<70x100xf32>
  return %y : tensor<70x100xf32>
}

//--- tiled_f32zp.mlir
// The tiled kernel with float zero points, 2 bits.
func.func @main(%x: tensor<9x200xf32>) -> tensor<9x40xf32> {
  %c0 = onnx.Constant dense<0> : tensor<i32>
  %c1 = onnx.Constant dense<1> : tensor<i32>
  %xp_n = onnx.Constant dense<1800> : tensor<i32>
  %xp_r = "onnx.Range"(%c0, %xp_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1800xi32>
  %xp_k = onnx.Constant dense<7> : tensor<i32>
  %xp_p = "onnx.Mul"(%xp_r, %xp_k) : (tensor<1800xi32>, tensor<i32>) -> tensor<1800xi32>
  %xp_d = onnx.Constant dense<19> : tensor<i32>
  %xp_q = "onnx.Mod"(%xp_p, %xp_d) : (tensor<1800xi32>, tensor<i32>) -> tensor<1800xi32>
  %xp_s = onnx.Constant dense<9> : tensor<i32>
  %xp_t = "onnx.Sub"(%xp_q, %xp_s) : (tensor<1800xi32>, tensor<i32>) -> tensor<1800xi32>
  %xp_f = "onnx.Cast"(%xp_t) {to = f32} : (tensor<1800xi32>) -> tensor<1800xf32>
  %xp_m = onnx.Constant dense<0.0625> : tensor<f32>
  %xp = "onnx.Mul"(%xp_f, %xp_m) : (tensor<1800xf32>, tensor<f32>) -> tensor<1800xf32>
  %xr_shape = onnx.Constant dense<[9, 200]> : tensor<2xi64>
  %xr = "onnx.Reshape"(%xp, %xr_shape) : (tensor<1800xf32>, tensor<2xi64>) -> tensor<9x200xf32>
  %xa = "onnx.Mul"(%x, %xr) : (tensor<9x200xf32>, tensor<9x200xf32>) -> tensor<9x200xf32>
  %bq_n = onnx.Constant dense<2240> : tensor<i32>
  %bq_r = "onnx.Range"(%c0, %bq_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2240xi32>
  %bq_k = onnx.Constant dense<37> : tensor<i32>
  %bq_p = "onnx.Mul"(%bq_r, %bq_k) : (tensor<2240xi32>, tensor<i32>) -> tensor<2240xi32>
  %bq_d = onnx.Constant dense<251> : tensor<i32>
  %bq_q = "onnx.Mod"(%bq_p, %bq_d) : (tensor<2240xi32>, tensor<i32>) -> tensor<2240xi32>
  %bq_s = onnx.Constant dense<0> : tensor<i32>
  %bq_t = "onnx.Sub"(%bq_q, %bq_s) : (tensor<2240xi32>, tensor<i32>) -> tensor<2240xi32>
  %bq = "onnx.Cast"(%bq_t) {to = ui8} : (tensor<2240xi32>) -> tensor<2240xui8>
  %b_shape = onnx.Constant dense<[40, 7, 8]> : tensor<3xi64>
  %b = "onnx.Reshape"(%bq, %b_shape) : (tensor<2240xui8>, tensor<3xi64>) -> tensor<40x7x8xui8>
  %sc_n = onnx.Constant dense<280> : tensor<i32>
  %sc_r = "onnx.Range"(%c0, %sc_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<280xi32>
  %sc_k = onnx.Constant dense<3> : tensor<i32>
  %sc_p = "onnx.Mul"(%sc_r, %sc_k) : (tensor<280xi32>, tensor<i32>) -> tensor<280xi32>
  %sc_d = onnx.Constant dense<7> : tensor<i32>
  %sc_q = "onnx.Mod"(%sc_p, %sc_d) : (tensor<280xi32>, tensor<i32>) -> tensor<280xi32>
  %sc_s = onnx.Constant dense<-1> : tensor<i32>
  %sc_t = "onnx.Sub"(%sc_q, %sc_s) : (tensor<280xi32>, tensor<i32>) -> tensor<280xi32>
  %sc_f = "onnx.Cast"(%sc_t) {to = f32} : (tensor<280xi32>) -> tensor<280xf32>
  %sc_m = onnx.Constant dense<0.01> : tensor<f32>
  %sc = "onnx.Mul"(%sc_f, %sc_m) : (tensor<280xf32>, tensor<f32>) -> tensor<280xf32>
  %zf_n = onnx.Constant dense<280> : tensor<i32>
  %zf_r = "onnx.Range"(%c0, %zf_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<280xi32>
  %zf_k = onnx.Constant dense<5> : tensor<i32>
  %zf_p = "onnx.Mul"(%zf_r, %zf_k) : (tensor<280xi32>, tensor<i32>) -> tensor<280xi32>
  %zf_d = onnx.Constant dense<11> : tensor<i32>
  %zf_q = "onnx.Mod"(%zf_p, %zf_d) : (tensor<280xi32>, tensor<i32>) -> tensor<280xi32>
  %zf_s = onnx.Constant dense<0> : tensor<i32>
  %zf_t = "onnx.Sub"(%zf_q, %zf_s) : (tensor<280xi32>, tensor<i32>) -> tensor<280xi32>
  %zf_f = "onnx.Cast"(%zf_t) {to = f32} : (tensor<280xi32>) -> tensor<280xf32>
  %zf_m = onnx.Constant dense<0.5> : tensor<f32>
  %zf = "onnx.Mul"(%zf_f, %zf_m) : (tensor<280xf32>, tensor<f32>) -> tensor<280xf32>
  %y = "onnx.com.microsoft.MatMulNBits"(%xa, %b, %sc, %zf) {K = 200 : si64, N = 40 : si64, bits = 2 : si64, block_size = 32 : si64} : (tensor<9x200xf32>, tensor<40x7x8xui8>, tensor<280xf32>, tensor<280xf32>) -> tensor<9x40xf32>
  return %y : tensor<9x40xf32>
}

//--- bits8.mlir
// 8 bits, float zero points, rows known at run time (1, 4 and 2: the
// matrix-vector kernel with its row guards, the tiled one for none).
func.func @main(%x: tensor<?x520xf32>) -> tensor<?x33xf32> {
  %c0 = onnx.Constant dense<0> : tensor<i32>
  %c1 = onnx.Constant dense<1> : tensor<i32>
  %xp_n = onnx.Constant dense<520> : tensor<i32>
  %xp_r = "onnx.Range"(%c0, %xp_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<520xi32>
  %xp_k = onnx.Constant dense<7> : tensor<i32>
  %xp_p = "onnx.Mul"(%xp_r, %xp_k) : (tensor<520xi32>, tensor<i32>) -> tensor<520xi32>
  %xp_d = onnx.Constant dense<19> : tensor<i32>
  %xp_q = "onnx.Mod"(%xp_p, %xp_d) : (tensor<520xi32>, tensor<i32>) -> tensor<520xi32>
  %xp_s = onnx.Constant dense<9> : tensor<i32>
  %xp_t = "onnx.Sub"(%xp_q, %xp_s) : (tensor<520xi32>, tensor<i32>) -> tensor<520xi32>
  %xp_f = "onnx.Cast"(%xp_t) {to = f32} : (tensor<520xi32>) -> tensor<520xf32>
  %xp_m = onnx.Constant dense<0.0625> : tensor<f32>
  %xp = "onnx.Mul"(%xp_f, %xp_m) : (tensor<520xf32>, tensor<f32>) -> tensor<520xf32>
  %xa = "onnx.Mul"(%x, %xp) : (tensor<?x520xf32>, tensor<520xf32>) -> tensor<?x520xf32>
  %bq_n = onnx.Constant dense<17952> : tensor<i32>
  %bq_r = "onnx.Range"(%c0, %bq_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<17952xi32>
  %bq_k = onnx.Constant dense<37> : tensor<i32>
  %bq_p = "onnx.Mul"(%bq_r, %bq_k) : (tensor<17952xi32>, tensor<i32>) -> tensor<17952xi32>
  %bq_d = onnx.Constant dense<251> : tensor<i32>
  %bq_q = "onnx.Mod"(%bq_p, %bq_d) : (tensor<17952xi32>, tensor<i32>) -> tensor<17952xi32>
  %bq_s = onnx.Constant dense<0> : tensor<i32>
  %bq_t = "onnx.Sub"(%bq_q, %bq_s) : (tensor<17952xi32>, tensor<i32>) -> tensor<17952xi32>
  %bq = "onnx.Cast"(%bq_t) {to = ui8} : (tensor<17952xi32>) -> tensor<17952xui8>
  %b_shape = onnx.Constant dense<[33, 17, 32]> : tensor<3xi64>
  %b = "onnx.Reshape"(%bq, %b_shape) : (tensor<17952xui8>, tensor<3xi64>) -> tensor<33x17x32xui8>
  %sc_n = onnx.Constant dense<561> : tensor<i32>
  %sc_r = "onnx.Range"(%c0, %sc_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<561xi32>
  %sc_k = onnx.Constant dense<3> : tensor<i32>
  %sc_p = "onnx.Mul"(%sc_r, %sc_k) : (tensor<561xi32>, tensor<i32>) -> tensor<561xi32>
  %sc_d = onnx.Constant dense<7> : tensor<i32>
  %sc_q = "onnx.Mod"(%sc_p, %sc_d) : (tensor<561xi32>, tensor<i32>) -> tensor<561xi32>
  %sc_s = onnx.Constant dense<-1> : tensor<i32>
  %sc_t = "onnx.Sub"(%sc_q, %sc_s) : (tensor<561xi32>, tensor<i32>) -> tensor<561xi32>
  %sc_f = "onnx.Cast"(%sc_t) {to = f32} : (tensor<561xi32>) -> tensor<561xf32>
  %sc_m = onnx.Constant dense<0.01> : tensor<f32>
  %sc = "onnx.Mul"(%sc_f, %sc_m) : (tensor<561xf32>, tensor<f32>) -> tensor<561xf32>
  %zf_n = onnx.Constant dense<561> : tensor<i32>
  %zf_r = "onnx.Range"(%c0, %zf_n, %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<561xi32>
  %zf_k = onnx.Constant dense<5> : tensor<i32>
  %zf_p = "onnx.Mul"(%zf_r, %zf_k) : (tensor<561xi32>, tensor<i32>) -> tensor<561xi32>
  %zf_d = onnx.Constant dense<11> : tensor<i32>
  %zf_q = "onnx.Mod"(%zf_p, %zf_d) : (tensor<561xi32>, tensor<i32>) -> tensor<561xi32>
  %zf_s = onnx.Constant dense<0> : tensor<i32>
  %zf_t = "onnx.Sub"(%zf_q, %zf_s) : (tensor<561xi32>, tensor<i32>) -> tensor<561xi32>
  %zf_f = "onnx.Cast"(%zf_t) {to = f32} : (tensor<561xi32>) -> tensor<561xf32>
  %zf_m = onnx.Constant dense<0.5> : tensor<f32>
  %zf = "onnx.Mul"(%zf_f, %zf_m) : (tensor<561xf32>, tensor<f32>) -> tensor<561xf32>
  %y = "onnx.com.microsoft.MatMulNBits"(%xa, %b, %sc, %zf) {K = 520 : si64, N = 33 : si64, bits = 8 : si64, block_size = 32 : si64} : (tensor<?x520xf32>, tensor<33x17x32xui8>, tensor<561xf32>, tensor<561xf32>) -> tensor<?x33xf32>
  return %y : tensor<?x33xf32>
}

// convert-onnx-to-gpu{precision=f16} (onyx-run --precision=f16) runs the
// products of f32 tensors on f16 operands with f32 accumulation: a constant
// operand is bound as an f16 copy (weights stored as f16, the f32 constant
// not placed at all), any other operand is read as f32 and rounded to f16 as
// it is loaded, and the accumulators, the bias and the fused epilogue stay
// f32. Ops other than products are unchanged.

// RUN: split-file %s %t
// RUN: onyx-opt %t/matmul.mlir --target=lavapipe --onnx-fuse-elementwise \
// RUN:   --convert-onnx-to-gpu=precision=f16 | FileCheck %s --check-prefix=MATMUL
// RUN: onyx-opt %t/conv.mlir --target=lavapipe --onnx-fuse-elementwise \
// RUN:   --convert-onnx-to-gpu=precision=f16 | FileCheck %s --check-prefix=CONV
// RUN: onyx-opt %t/gemm.mlir --target=lavapipe --onnx-fuse-elementwise \
// RUN:   --convert-onnx-to-gpu=precision=f16 | FileCheck %s --check-prefix=GEMM
// The default keeps products in f32.
// RUN: onyx-opt %t/matmul.mlir --target=lavapipe --onnx-fuse-elementwise \
// RUN:   --convert-onnx-to-gpu | FileCheck %s --check-prefix=F32

// MATMUL: gpu.kernel @matmul(
// MATMUL-SAME: readonly buffer B0 { vec4 d[]; } a;
// MATMUL-SAME: readonly buffer B1 { f16vec4 d[]; } b;
// MATMUL-SAME: writeonly buffer B2 { float d[]; } y;
// MATMUL-SAME: float loadA(uint row, uint k) { return float(float16_t(a.d[
// MATMUL-SAME: float loadB(uint k, uint col) { return float(b.d[
// MATMUL-SAME: vec4 loadA4(uint row, uint k) { return vec4(f16vec4(a.d[
// MATMUL-SAME: vec4 loadB4(uint k, uint col) { return vec4(b.d[
// MATMUL-SAME: float c0_0 = float(0)
// Both operands of a product of activations are rounded as loaded.
// MATMUL: gpu.kernel @matmul_1(
// MATMUL-SAME: readonly buffer B1 { vec4 d[]; } b;
// MATMUL-SAME: float loadB(uint k, uint col) { return float(float16_t(b.d[
// MATMUL-SAME: vec4 loadB4(uint k, uint col) { return vec4(f16vec4(b.d[
// The weights are stored once, as f16 (0.1 rounds to 9.997550e-02).
// MATMUL-NOT: gpu.weight
// MATMUL: gpu.weight %{{.*}}[0] : !gpu.buffer<64> = dense<{{.*}}9.997550e-02{{.*}}> : tensor<4x8xf16>
// MATMUL-NOT: gpu.weight
// MATMUL: gpu.dispatch @matmul[1, 1, 1](%{{.*}}, %{{.*}}, %{{.*}}) : !gpu.view<2x4xf32>, !gpu.view<4x8xf16>, !gpu.view<2x8xf32>
// MATMUL: gpu.dispatch @matmul_1[1, 1, 1](%{{.*}}, %{{.*}}, %{{.*}}) : !gpu.view<2x4xf32>, !gpu.view<4x8xf32>, !gpu.view<2x8xf32>

// F32-NOT: float16_t
// F32-NOT: f16vec4
// F32: gpu.weight {{.*}} : tensor<4x8xf32>

// The filters (A) are f16 weights; the unfolded input (B) is rounded as it
// is loaded; the bias stays f32.
// CONV: gpu.kernel @conv(
// CONV-SAME: readonly buffer B0 { float d[]; } x;
// CONV-SAME: readonly buffer B1 { float16_t d[]; } w;
// CONV-SAME: readonly buffer B2 { float d[]; } bias;
// CONV-SAME: float loadA(uint row, uint k) { return float(w.d[wBase + row * 6u + k]); }
// CONV-SAME: ? float(float16_t(x.d[
// CONV-NOT: tensor<2x2x1x3xf32>
// CONV-DAG: gpu.weight {{.*}} : tensor<2x2x1x3xf16>
// CONV-DAG: gpu.weight {{.*}} : tensor<2xf32>

// Gemm with transB reads its f16 weights along k; C stays f32.
// GEMM: gpu.kernel @gemm(
// GEMM-SAME: readonly buffer B1 { f16vec4 d[]; } b;
// GEMM-SAME: readonly buffer B2 { float d[]; } cIn;
// GEMM-DAG: gpu.weight {{.*}} : tensor<8xf32>
// GEMM-DAG: gpu.weight {{.*}} : tensor<8x4xf16>

// A target without 16-bit floats cannot: the error names what it lacks.
// RUN: not onyx-opt %t/matmul.mlir --target='{features = ["storage_buffer_16bit"]}' \
// RUN:   --convert-onnx-to-gpu=precision=f16 2>&1 | FileCheck %s --check-prefix=NO-F16
// NO-F16: error: precision=f16 needs 16-bit floats, which the target lacks (features float16)
// RUN: not onyx-opt %t/matmul.mlir --target=vulkan \
// RUN:   --convert-onnx-to-gpu=precision=f16 2>&1 | FileCheck %s --check-prefix=VULKAN
// VULKAN: error: precision=f16 needs 16-bit floats, which the target lacks (features float16, storage_buffer_16bit)
// RUN: not onyx-opt %t/matmul.mlir --target=lavapipe \
// RUN:   --convert-onnx-to-gpu=precision=bf16 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown precision 'bf16' (expected f32 or f16)

//--- matmul.mlir
func.func @main(%x: tensor<2x4xf32>, %y: tensor<4x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %w = "onnx.Constant"() {value = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.5, 0.25, 0.125, 1.5, 2.5, 3.5, 4.5, 5.5], [-1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]]> : tensor<4x8xf32>} : () -> tensor<4x8xf32>
  %0 = "onnx.MatMul"(%x, %w) : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
  %1 = "onnx.Relu"(%0) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = "onnx.MatMul"(%x, %y) : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
  return %1, %2 : tensor<2x8xf32>, tensor<2x8xf32>
}

//--- conv.mlir
func.func @main(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32> {
  %w = "onnx.Constant"() {value = dense<[[[[1.0, 0.5, -1.0]], [[0.25, 2.0, 0.125]]], [[[-0.5, 1.5, 3.0]], [[0.75, -2.5, 1.0]]]]> : tensor<2x2x1x3xf32>} : () -> tensor<2x2x1x3xf32>
  %b = "onnx.Constant"() {value = dense<[0.5, -0.25]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "onnx.Conv"(%x, %w, %b) {pads = [0, 1, 0, 1]} : (tensor<1x2x5x5xf32>, tensor<2x2x1x3xf32>, tensor<2xf32>) -> tensor<1x2x5x5xf32>
  return %0 : tensor<1x2x5x5xf32>
}

//--- gemm.mlir
func.func @main(%x: tensor<3x4xf32>) -> tensor<3x8xf32> {
  %w = "onnx.Constant"() {value = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [0.5, 0.25, 0.125, 1.5], [2.5, 3.5, 4.5, 5.5], [-1.0, -2.0, -3.0, -4.0], [-5.0, -6.0, -7.0, -8.0], [0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8]]> : tensor<8x4xf32>} : () -> tensor<8x4xf32>
  %c = "onnx.Constant"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %0 = "onnx.Gemm"(%x, %w, %c) {transB = 1 : si64} : (tensor<3x4xf32>, tensor<8x4xf32>, tensor<8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

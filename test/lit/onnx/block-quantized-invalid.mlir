// com.microsoft.MatMulNBits and GatherBlockQuantized (docs/CONTRIB-OPS.md):
// attribute values and operand shapes outside the specification, and what
// onyx does not support, are located errors.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics

func.func @bits(%a: tensor<1x32xf32>, %b: tensor<4x1x12xui8>, %s: tensor<4x1xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op attribute 'bits' must be 2, 4 or 8, got 3}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s) {K = 32 : si64, N = 4 : si64, bits = 3 : si64, block_size = 32 : si64} : (tensor<1x32xf32>, tensor<4x1x12xui8>, tensor<4x1xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @block_size_8(%a: tensor<1x32xf32>, %b: tensor<4x4x4xui8>, %s: tensor<4x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op attribute 'block_size' must be a power of two of at least 16, got 8}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s) {K = 32 : si64, N = 4 : si64, block_size = 8 : si64} : (tensor<1x32xf32>, tensor<4x4x4xui8>, tensor<4x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @block_size_48(%a: tensor<1x48xf32>, %b: tensor<4x1x24xui8>, %s: tensor<4x1xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op attribute 'block_size' must be a power of two of at least 16, got 48}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s) {K = 48 : si64, N = 4 : si64, block_size = 48 : si64} : (tensor<1x48xf32>, tensor<4x1x24xui8>, tensor<4x1xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @packed_shape(%a: tensor<1x40xf32>, %b: tensor<4x1x16xui8>, %s: tensor<4x2xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op operand 'B' must be ui8 of shape [N, ceil(K / block_size), block_size * bits / 8] = [4, 2, 16], got tensor<4x1x16xui8>}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s) {K = 40 : si64, N = 4 : si64, block_size = 32 : si64} : (tensor<1x40xf32>, tensor<4x1x16xui8>, tensor<4x2xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @packed_type(%a: tensor<1x32xf32>, %b: tensor<4x1x16xi8>, %s: tensor<4x1xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op operand 'B' must be ui8 of shape}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s) {K = 32 : si64, N = 4 : si64, block_size = 32 : si64} : (tensor<1x32xf32>, tensor<4x1x16xi8>, tensor<4x1xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @k_mismatch(%a: tensor<1x30xf32>, %b: tensor<4x1x16xui8>, %s: tensor<4x1xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op operand 'A' must have K = 32 as its last dimension, got tensor<1x30xf32>}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s) {K = 32 : si64, N = 4 : si64, block_size = 32 : si64} : (tensor<1x30xf32>, tensor<4x1x16xui8>, tensor<4x1xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @scales_shape(%a: tensor<1x64xf32>, %b: tensor<4x2x16xui8>, %s: tensor<4x1xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op operand 'scales' must have shape [4, 2] or [8], got tensor<4x1xf32>}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s) {K = 64 : si64, N = 4 : si64, block_size = 32 : si64} : (tensor<1x64xf32>, tensor<4x2x16xui8>, tensor<4x1xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @scales_type(%a: tensor<1x32xf32>, %b: tensor<4x1x16xui8>, %s: tensor<4xf16>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s) {K = 32 : si64, N = 4 : si64, block_size = 32 : si64} : (tensor<1x32xf32>, tensor<4x1x16xui8>, tensor<4xf16>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

// Three blocks of 4-bit zero points take two bytes per row.
func.func @zero_points_shape(%a: tensor<1x96xf32>, %b: tensor<4x3x16xui8>, %s: tensor<4x3xf32>, %z: tensor<4x3xui8>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op operand 'zero_points' must have shape [4, 2] or [8], got tensor<4x3xui8>}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s, %z) {K = 96 : si64, N = 4 : si64, block_size = 32 : si64} : (tensor<1x96xf32>, tensor<4x3x16xui8>, tensor<4x3xf32>, tensor<4x3xui8>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @zero_points_type(%a: tensor<1x32xf32>, %b: tensor<4x1x16xui8>, %s: tensor<4x1xf32>, %z: tensor<4x1xi32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op operand 'zero_points' must be ui8 (packed) or of the scales' element type, got tensor<4x1xi32>}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s, %z) {K = 32 : si64, N = 4 : si64, block_size = 32 : si64} : (tensor<1x32xf32>, tensor<4x1x16xui8>, tensor<4x1xf32>, tensor<4x1xi32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @g_idx_shape(%a: tensor<1x32xf32>, %b: tensor<4x1x16xui8>, %s: tensor<4x1xf32>, %g: tensor<16xi32>) -> tensor<1x4xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op operand 'g_idx' must be i32 of shape [K] or [ceil(K / block_size) * block_size], got tensor<16xi32>}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s, %none, %g) {K = 32 : si64, N = 4 : si64, block_size = 32 : si64} : (tensor<1x32xf32>, tensor<4x1x16xui8>, tensor<4x1xf32>, none, tensor<16xi32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @bias_shape(%a: tensor<1x32xf32>, %b: tensor<4x1x16xui8>, %s: tensor<4x1xf32>, %c: tensor<3xf32>) -> tensor<1x4xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op operand 'bias' must have shape [N] = [4], got tensor<3xf32>}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s, %none, %none, %c) {K = 32 : si64, N = 4 : si64, block_size = 32 : si64} : (tensor<1x32xf32>, tensor<4x1x16xui8>, tensor<4x1xf32>, none, none, tensor<3xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @prepacked(%a: tensor<1x32xf32>, %b: tensor<4x1x16xui8>, %s: tensor<4x1xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op attribute 'weight_prepacked' is not supported: B must be in the portable layout (the prepacked layouts are ONNX Runtime CUDA's)}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s) {K = 32 : si64, N = 4 : si64, block_size = 32 : si64, weight_prepacked = 1 : si64} : (tensor<1x32xf32>, tensor<4x1x16xui8>, tensor<4x1xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @accuracy_level(%a: tensor<1x32xf32>, %b: tensor<4x1x16xui8>, %s: tensor<4x1xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op attribute 'accuracy_level' must be between 0 and 4, got 5}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s) {K = 32 : si64, N = 4 : si64, accuracy_level = 5 : si64, block_size = 32 : si64} : (tensor<1x32xf32>, tensor<4x1x16xui8>, tensor<4x1xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @missing_block_size(%a: tensor<1x32xf32>, %b: tensor<4x1x16xui8>, %s: tensor<4x1xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.MatMulNBits' op requires attribute 'block_size'}}
  %0 = "onnx.com.microsoft.MatMulNBits"(%a, %b, %s) {K = 32 : si64, N = 4 : si64} : (tensor<1x32xf32>, tensor<4x1x16xui8>, tensor<4x1xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @gather_data_type(%d: tensor<8x16xi8>, %i: tensor<2xi64>, %s: tensor<8x1xf32>) -> tensor<2x32xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.GatherBlockQuantized' op operand 'data' must be ui8 (values packed along the last axis; int4, uint4 and float8 tables are not supported), got tensor<8x16xi8>}}
  %0 = "onnx.com.microsoft.GatherBlockQuantized"(%d, %i, %s) {block_size = 32 : si64} : (tensor<8x16xi8>, tensor<2xi64>, tensor<8x1xf32>) -> tensor<2x32xf32>
  return %0 : tensor<2x32xf32>
}

// -----

func.func @gather_axis(%d: tensor<8x16xui8>, %i: tensor<2xi64>, %s: tensor<8x1xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.GatherBlockQuantized' op attribute 'gather_axis' must be 0 for ui8 data, got 1}}
  %0 = "onnx.com.microsoft.GatherBlockQuantized"(%d, %i, %s) {block_size = 32 : si64, gather_axis = 1 : si64} : (tensor<8x16xui8>, tensor<2xi64>, tensor<8x1xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

func.func @quantize_axis(%d: tensor<8x16x4xui8>, %i: tensor<2xi64>, %s: tensor<8x1x4xf32>) -> tensor<2x16x8xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.GatherBlockQuantized' op attribute 'quantize_axis' must be the last axis for ui8 data, got 1}}
  %0 = "onnx.com.microsoft.GatherBlockQuantized"(%d, %i, %s) {block_size = 32 : si64} : (tensor<8x16x4xui8>, tensor<2xi64>, tensor<8x1x4xf32>) -> tensor<2x16x8xf32>
  return %0 : tensor<2x16x8xf32>
}

// -----

func.func @gather_scales(%d: tensor<8x16xui8>, %i: tensor<2xi64>, %s: tensor<8x2xf32>) -> tensor<2x32xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.GatherBlockQuantized' op operand 'scales' must have shape [8, 1] (data's, with ceil(values / block_size) blocks along the last axis), got tensor<8x2xf32>}}
  %0 = "onnx.com.microsoft.GatherBlockQuantized"(%d, %i, %s) {block_size = 32 : si64} : (tensor<8x16xui8>, tensor<2xi64>, tensor<8x2xf32>) -> tensor<2x32xf32>
  return %0 : tensor<2x32xf32>
}

// -----

func.func @gather_zero_points(%d: tensor<8x32xui8>, %i: tensor<2xi64>, %s: tensor<8x4xf32>, %z: tensor<8x4xui8>) -> tensor<2x64xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.GatherBlockQuantized' op operand 'zero_points' must be ui8 of shape [8, 2] (packed like data), got tensor<8x4xui8>}}
  %0 = "onnx.com.microsoft.GatherBlockQuantized"(%d, %i, %s, %z) {block_size = 16 : si64} : (tensor<8x32xui8>, tensor<2xi64>, tensor<8x4xf32>, tensor<8x4xui8>) -> tensor<2x64xf32>
  return %0 : tensor<2x64xf32>
}

// -----

func.func @gather_bits(%d: tensor<8x32xui8>, %i: tensor<2xi64>, %s: tensor<8x1xf32>) -> tensor<2x32xf32> {
  // expected-error @+1 {{'onnx.com.microsoft.GatherBlockQuantized' op attribute 'bits' must be 2, 4 or 8, got 1}}
  %0 = "onnx.com.microsoft.GatherBlockQuantized"(%d, %i, %s) {bits = 1 : si64, block_size = 32 : si64} : (tensor<8x32xui8>, tensor<2xi64>, tensor<8x1xf32>) -> tensor<2x32xf32>
  return %0 : tensor<2x32xf32>
}

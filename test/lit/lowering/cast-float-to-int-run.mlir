// Cast from a float to an integer type on the device converts as the
// reference backend does (convertElement): NaN gives 0, infinities and values
// beyond the type's range give its nearest bound, the rest truncate toward
// zero; GLSL leaves the conversion undefined there (lavapipe gave the signed
// minimum for NaN and both infinities, and wrapped narrow types). Every
// output is compared with the reference backend's bit for bit.

// RUN: split-file %s %t
// RUN: onyx-run %t/f32.mlir --validate --check --rtol=0 --atol=0 \
// RUN:   --input=8xf32=nan,inf,-inf,1e30,-1e30,300,-300,-1.9 \
// RUN:   | FileCheck %s --check-prefix=SPECIAL
// SPECIAL: output 0: tensor<8xi8> = [0, 127, -128, 127, -128, 127, -128, -1]
// SPECIAL: output 1: tensor<8xui8> = [0, 255, 0, 255, 0, 255, 0, 0]
// SPECIAL: output 2: tensor<8xi16> = [0, 32767, -32768, 32767, -32768, 300, -300, -1]
// SPECIAL: output 3: tensor<8xui16> = [0, 65535, 0, 65535, 0, 300, 0, 0]
// SPECIAL: output 4: tensor<8xi32> = [0, 2147483647, -2147483648, 2147483647, -2147483648, 300, -300, -1]
// SPECIAL: output 5: tensor<8xui32> = [0, 4294967295, 0, 4294967295, 0, 300, 0, 0]
// SPECIAL: output 6: tensor<8xi64> = [0, 9223372036854775807, -9223372036854775808, 9223372036854775807, -9223372036854775808, 300, -300, -1]
// SPECIAL: output 7: tensor<8xui64> = [0, 18446744073709551615, 0, 18446744073709551615, 0, 300, 0, 0]
// SPECIAL-COUNT-8: vs ref: max abs error 0, max rel error 0: PASS

// The bounds: the largest floats below 2^31, 2^32 and 2^63 convert exactly,
// 2^31, 2^32, 2^63 and 2^64 saturate where they are out of range.
// RUN: onyx-run %t/f32.mlir --validate --check --rtol=0 --atol=0 \
// RUN:   --input=8xf32=127.9,-128.9,2147483520,2147483648,4294967040,4294967296,9223371487098961920,18446744073709551616 \
// RUN:   | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: output 0: tensor<8xi8> = [127, -128, 127, 127, 127, 127, 127, 127]
// BOUNDS: output 1: tensor<8xui8> = [127, 0, 255, 255, 255, 255, 255, 255]
// BOUNDS: output 4: tensor<8xi32> = [127, -128, 2147483520, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647]
// BOUNDS: output 5: tensor<8xui32> = [127, 0, 2147483520, 2147483648, 4294967040, 4294967295, 4294967295, 4294967295]
// BOUNDS: output 6: tensor<8xi64> = [127, -128, 2147483520, 2147483648, 4294967040, 4294967296, 9223371487098961920, 9223372036854775807]
// BOUNDS: output 7: tensor<8xui64> = [127, 0, 2147483520, 2147483648, 4294967040, 4294967296, 9223371487098961920, 18446744073709551615]
// BOUNDS-COUNT-8: vs ref: max abs error 0, max rel error 0: PASS

// From f64 and f16 too (f16's 65504 is beyond int8 and int16).
// RUN: onyx-run %t/f64.mlir --validate --check --rtol=0 --atol=0 \
// RUN:   --input=8xf64=nan,inf,-inf,2147483647.5,-2147483648.5,4294967295.5,9.3e18,1.9e19 \
// RUN:   | FileCheck %s --check-prefix=F64
// F64: output 0: tensor<8xi32> = [0, 2147483647, -2147483648, 2147483647, -2147483648, 2147483647, 2147483647, 2147483647]
// F64: output 1: tensor<8xui32> = [0, 4294967295, 0, 2147483647, 0, 4294967295, 4294967295, 4294967295]
// F64: output 2: tensor<8xi64> = [0, 9223372036854775807, -9223372036854775808, 2147483647, -2147483648, 4294967295, 9223372036854775807, 9223372036854775807]
// F64: output 3: tensor<8xui64> = [0, 18446744073709551615, 0, 2147483647, 0, 4294967295, 9300000000000000000, 18446744073709551615]
// F64-COUNT-4: vs ref: max abs error 0, max rel error 0: PASS
// RUN: onyx-run %t/f16.mlir --validate --check --rtol=0 --atol=0 \
// RUN:   --input=8xf16=nan,inf,-inf,65504,-65504,300,-1.5,255.9 \
// RUN:   | FileCheck %s --check-prefix=F16
// F16: output 0: tensor<8xi8> = [0, 127, -128, 127, -128, 127, -1, 127]
// F16: output 1: tensor<8xui8> = [0, 255, 0, 255, 0, 255, 0, 255]
// F16: output 2: tensor<8xi16> = [0, 32767, -32768, 32767, -32768, 300, -1, 255]
// F16: output 3: tensor<8xui16> = [0, 65535, 0, 65504, 0, 300, 0, 255]
// F16-COUNT-4: vs ref: max abs error 0, max rel error 0: PASS

// A value made in the same kernel (x / 0 is an infinity or NaN there).
// RUN: onyx-run %t/fused.mlir --validate --check --rtol=0 --atol=0 \
// RUN:   --input=4xf32=1,-1,0,5 --input=4xf32=0,0,0,2 \
// RUN:   | FileCheck %s --check-prefix=FUSED
// FUSED: output 0: tensor<4xi32> = [2147483647, -2147483648, 0, 2]
// FUSED: output 0 vs ref: max abs error 0, max rel error 0: PASS

//--- f32.mlir
func.func @main(%x: tensor<8xf32>) -> (tensor<8xi8>, tensor<8xui8>, tensor<8xi16>, tensor<8xui16>, tensor<8xi32>, tensor<8xui32>, tensor<8xi64>, tensor<8xui64>) {
  %0 = "onnx.Cast"(%x) {to = i8} : (tensor<8xf32>) -> tensor<8xi8>
  %1 = "onnx.Cast"(%x) {to = ui8} : (tensor<8xf32>) -> tensor<8xui8>
  %2 = "onnx.Cast"(%x) {to = i16} : (tensor<8xf32>) -> tensor<8xi16>
  %3 = "onnx.Cast"(%x) {to = ui16} : (tensor<8xf32>) -> tensor<8xui16>
  %4 = "onnx.Cast"(%x) {to = i32} : (tensor<8xf32>) -> tensor<8xi32>
  %5 = "onnx.Cast"(%x) {to = ui32} : (tensor<8xf32>) -> tensor<8xui32>
  %6 = "onnx.Cast"(%x) {to = i64} : (tensor<8xf32>) -> tensor<8xi64>
  %7 = "onnx.Cast"(%x) {to = ui64} : (tensor<8xf32>) -> tensor<8xui64>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<8xi8>, tensor<8xui8>, tensor<8xi16>, tensor<8xui16>, tensor<8xi32>, tensor<8xui32>, tensor<8xi64>, tensor<8xui64>
}

//--- f64.mlir
func.func @main(%x: tensor<8xf64>) -> (tensor<8xi32>, tensor<8xui32>, tensor<8xi64>, tensor<8xui64>) {
  %0 = "onnx.Cast"(%x) {to = i32} : (tensor<8xf64>) -> tensor<8xi32>
  %1 = "onnx.Cast"(%x) {to = ui32} : (tensor<8xf64>) -> tensor<8xui32>
  %2 = "onnx.Cast"(%x) {to = i64} : (tensor<8xf64>) -> tensor<8xi64>
  %3 = "onnx.Cast"(%x) {to = ui64} : (tensor<8xf64>) -> tensor<8xui64>
  return %0, %1, %2, %3 : tensor<8xi32>, tensor<8xui32>, tensor<8xi64>, tensor<8xui64>
}

//--- f16.mlir
func.func @main(%x: tensor<8xf16>) -> (tensor<8xi8>, tensor<8xui8>, tensor<8xi16>, tensor<8xui16>) {
  %0 = "onnx.Cast"(%x) {to = i8} : (tensor<8xf16>) -> tensor<8xi8>
  %1 = "onnx.Cast"(%x) {to = ui8} : (tensor<8xf16>) -> tensor<8xui8>
  %2 = "onnx.Cast"(%x) {to = i16} : (tensor<8xf16>) -> tensor<8xi16>
  %3 = "onnx.Cast"(%x) {to = ui16} : (tensor<8xf16>) -> tensor<8xui16>
  return %0, %1, %2, %3 : tensor<8xi8>, tensor<8xui8>, tensor<8xi16>, tensor<8xui16>
}

//--- fused.mlir
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi32> {
  %d = "onnx.Div"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = "onnx.Cast"(%d) {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

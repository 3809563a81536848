// Pow of an integer base gives an integer. Where the power is not a number
// (a negative base to a fraction), infinite (0 to a negative float power) or
// beyond the type's range, the device converts it as the reference backend
// does (Cast's conversion: NaN gives 0, the rest saturates) instead of
// GLSL's undefined float-to-integer conversion; with an integer exponent, 0
// to a negative power is 0 on both, as in numpy and ONNX Runtime. Found by
// fuzz-differential's Vulkan mode.

// RUN: split-file %s %t
// RUN: onyx-run %t/float-exponent.mlir --validate --check \
// RUN:   --input=6xi64=3,-1,0,2,-2,5 --input=6xf32=-2,0.5,-1,70,63.5,0 \
// RUN:   | FileCheck %s --check-prefix=FLOAT
// FLOAT: output 0: tensor<6xi64> = [0, 0, 9223372036854775807, 9223372036854775807, 0, 1]
// FLOAT: output 1: tensor<6xi8> = [0, 0, 127, 127, 0, 1]
// FLOAT: output 0 vs ref: {{.*}}PASS
// FLOAT: output 1 vs ref: {{.*}}PASS
// RUN: onyx-run %t/integer-exponent.mlir --validate --check \
// RUN:   --input=5xi32=0,2,-1,3,-2 --input=5xi64=-1,3,-3,-1,2 \
// RUN:   | FileCheck %s --check-prefix=INT
// INT: output 0: tensor<5xi32> = [0, 8, -1, 0, 4]
// INT: output 0 vs ref: {{.*}}PASS

//--- float-exponent.mlir
func.func @main(%a: tensor<6xi64>, %b: tensor<6xf32>) -> (tensor<6xi64>, tensor<6xi8>) {
  %0 = "onnx.Pow"(%a, %b) : (tensor<6xi64>, tensor<6xf32>) -> tensor<6xi64>
  %c = "onnx.Cast"(%a) {to = i8} : (tensor<6xi64>) -> tensor<6xi8>
  %1 = "onnx.Pow"(%c, %b) : (tensor<6xi8>, tensor<6xf32>) -> tensor<6xi8>
  return %0, %1 : tensor<6xi64>, tensor<6xi8>
}

//--- integer-exponent.mlir
func.func @main(%a: tensor<5xi32>, %b: tensor<5xi64>) -> tensor<5xi32> {
  %0 = "onnx.Pow"(%a, %b) : (tensor<5xi32>, tensor<5xi64>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}

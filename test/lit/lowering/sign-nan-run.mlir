// Sign keeps NaN a NaN on the device, as the reference backend and numpy
// do; GLSL leaves sign of NaN undefined and lavapipe gave 0. Found by
// fuzz-differential's Vulkan mode (the Sign of a NaN power).

// RUN: split-file %s %t
// RUN: onyx-run %t/float.mlir --validate --check --input=6xf32=nan,inf,-inf,0,2,-0.5 \
// RUN:   | FileCheck %s --check-prefix=FLOAT
// FLOAT: output 0: tensor<6xf32> = [{{-?}}nan, 1, -1, 0, 1, -1]
// FLOAT: output 1: tensor<6xf64> = [{{-?}}nan, 1, -1, 0, 1, -1]
// FLOAT-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS
// RUN: onyx-run %t/int.mlir --validate --check --input=3xi32=-5,0,7 --input=3xi64=-5,0,7 \
// RUN:   | FileCheck %s --check-prefix=INT
// INT: output 0: tensor<3xi32> = [-1, 0, 1]
// INT: output 1: tensor<3xi64> = [-1, 0, 1]
// INT-COUNT-2: vs ref: max abs error 0, max rel error 0: PASS

//--- float.mlir
func.func @main(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf64>) {
  %0 = "onnx.Sign"(%x) : (tensor<6xf32>) -> tensor<6xf32>
  %d = "onnx.Cast"(%x) {to = f64} : (tensor<6xf32>) -> tensor<6xf64>
  %1 = "onnx.Sign"(%d) : (tensor<6xf64>) -> tensor<6xf64>
  return %0, %1 : tensor<6xf32>, tensor<6xf64>
}

//--- int.mlir
func.func @main(%x: tensor<3xi32>, %y: tensor<3xi64>) -> (tensor<3xi32>, tensor<3xi64>) {
  %0 = "onnx.Sign"(%x) : (tensor<3xi32>) -> tensor<3xi32>
  %1 = "onnx.Sign"(%y) : (tensor<3xi64>) -> tensor<3xi64>
  return %0, %1 : tensor<3xi32>, tensor<3xi64>
}

// HardSigmoid is max(0, min(1, alpha * x + beta)) as the reference backend
// and numpy compute it, on the device too: NaN stays NaN (std::clamp and
// numpy's clip return it; GLSL leaves clamp of NaN undefined and lavapipe
// gave 0; found by fuzz-differential's Vulkan mode, HardSigmoid of the Log
// of a negative number), and with alpha 0 an infinite x gives NaN (0 * inf),
// where lavapipe folded the product by the constant 0 to 0 and gave beta.

// RUN: split-file %s %t
// RUN: onyx-run %t/default.mlir --validate --check --input=5xf32=nan,inf,-inf,0,10 \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: output 0: tensor<5xf32> = [{{-?}}nan, 1, 0, 0.5, 1]
// DEFAULT: output 0 vs ref: {{.*}}PASS

// RUN: onyx-run %t/alpha-zero.mlir --validate --check \
// RUN:   --input=6xf32=nan,inf,-inf,0,10,-3e38 | FileCheck %s --check-prefix=ZERO
// ZERO: output 0: tensor<6xf32> = [{{-?}}nan, {{-?}}nan, {{-?}}nan, 0.25, 0.25, 0.25]
// ZERO: output 1: tensor<6xf32> = [{{-?}}nan, {{-?}}nan, {{-?}}nan, 1, 1, 1]
// ZERO: output 0 vs ref: {{.*}}PASS
// ZERO: output 1 vs ref: {{.*}}PASS
// RUN: onyx-run %t/alpha-zero.mlir --backend=ref \
// RUN:   --input=6xf32=nan,inf,-inf,0,10,-3e38 | FileCheck %s --check-prefix=REF
// REF: output 0: tensor<6xf32> = [{{-?}}nan, {{-?}}nan, {{-?}}nan, 0.25, 0.25, 0.25]

// f64 takes the double helper.
// RUN: onyx-run %t/f64.mlir --validate --check --input=4xf64=nan,inf,-inf,2 \
// RUN:   | FileCheck %s --check-prefix=F64
// F64: output 0: tensor<4xf64> = [{{-?}}nan, {{-?}}nan, {{-?}}nan, 0.5]
// F64: output 1: tensor<4xf64> = [{{-?}}nan, 1, 0, 0.9]
// F64: output 0 vs ref: {{.*}}PASS
// F64: output 1 vs ref: {{.*}}PASS

//--- default.mlir
func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
  %0 = "onnx.HardSigmoid"(%x) : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

//--- alpha-zero.mlir
func.func @main(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %0 = "onnx.HardSigmoid"(%x) {alpha = 0.0 : f32, beta = 0.25 : f32} : (tensor<6xf32>) -> tensor<6xf32>
  %1 = "onnx.HardSigmoid"(%x) {alpha = 0.0 : f32, beta = 2.0 : f32} : (tensor<6xf32>) -> tensor<6xf32>
  return %0, %1 : tensor<6xf32>, tensor<6xf32>
}

//--- f64.mlir
func.func @main(%x: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  %0 = "onnx.HardSigmoid"(%x) {alpha = 0.0 : f32, beta = 0.5 : f32} : (tensor<4xf64>) -> tensor<4xf64>
  %1 = "onnx.HardSigmoid"(%x) : (tensor<4xf64>) -> tensor<4xf64>
  return %0, %1 : tensor<4xf64>, tensor<4xf64>
}

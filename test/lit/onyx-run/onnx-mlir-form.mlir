// IR written the way onnx-mlir writes it runs too: onnx.NoValue for an
// absent optional operand (Clip's max) and onnx.Return as the terminator.

// RUN: onyx-run %s --backend=ref --input=4xf32=-1,2,-3,4 | FileCheck %s
// CHECK: output 0: tensor<4xf32> = [0, 2, 0, 4]

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  %lo = onnx.Constant dense<0.0> : tensor<f32>
  %0 = "onnx.Clip"(%x, %lo, %none) : (tensor<4xf32>, tensor<f32>, none) -> tensor<4xf32>
  onnx.Return %0 : tensor<4xf32>
}

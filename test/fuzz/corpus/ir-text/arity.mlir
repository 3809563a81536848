// Operand counts and `none` operands are checked against the op's schema
// before its own inference reads anything: a variadic operand takes at
// least one value and never `none`; `none` stands only for an optional
// operand.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics

func.func @max_without_operands() -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Max' op expects at least 1 operands, got 0}}
  %0 = "onnx.Max"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @sum_with_none(%a: tensor<2xf32>) -> tensor<2xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Sum' op operand 'data_0' is required, got none}}
  %0 = "onnx.Sum"(%a, %n) : (tensor<2xf32>, none) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @mean_of_none() -> tensor<2xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Mean' op operand 'data_0' is required, got none}}
  %0 = "onnx.Mean"(%n) : (none) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @concat_without_operands() -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Concat' op expects at least 1 operands, got 0}}
  %0 = "onnx.Concat"() {axis = 0 : si64} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @required_operand_none(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %n = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Gemm' op operand 'B' is required, got none}}
  %0 = "onnx.Gemm"(%a, %n) : (tensor<2x3xf32>, none) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @too_many_operands(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Relu' op expects 1 operands, got 2}}
  %0 = "onnx.Relu"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @split_without_results(%a: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Split' op has 0 results, expected 1 or more}}
  "onnx.Split"(%a) : (tensor<2xf32>) -> ()
  return
}

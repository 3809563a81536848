// Verifier and shape-inference errors of onnx ops: each names the op, the
// operand or attribute, and the reason.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics

func.func @not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Add' op operands are not broadcast-compatible: tensor<2x3xf32> and tensor<3x2xf32>}}
  %0 = "onnx.Add"(%a, %b) : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @wrong_result_type(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'onnx.Relu' op result #0 has type tensor<3x2xf32>, but the operands give tensor<2x3xf32>}}
  %0 = "onnx.Relu"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @mixed_element_types(%a: tensor<3xf32>, %b: tensor<3xf16>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Mul' op operand 'B' must have the element type of 'A' (f32), got f16}}
  %0 = "onnx.Mul"(%a, %b) : (tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @float_only(%a: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'onnx.Exp' op operand 'X' must have a float element type, got i32}}
  %0 = "onnx.Exp"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @operand_count(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Sub' op expects 2 operands, got 1}}
  %0 = "onnx.Sub"(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @required_operand(%a: tensor<3xf32>) -> tensor<3xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Reshape' op operand 'shape' is required, got none}}
  %0 = "onnx.Reshape"(%a, %none) : (tensor<3xf32>, none) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Abs' op operand 'X' must be a ranked tensor, got tensor<*xf32>}}
  %0 = "onnx.Abs"(%a) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @unknown_attribute(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Relu' op has no attribute 'alpha'}}
  %0 = "onnx.Relu"(%a) {alpha = 1.0 : f32} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @attribute_kind(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.LeakyRelu' op attribute 'alpha' must be a float, got "big"}}
  %0 = "onnx.LeakyRelu"(%a) {alpha = "big"} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @attribute_value(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Gelu' op attribute 'approximate' must be one of "none", "tanh"; got "fast"}}
  %0 = "onnx.Gelu"(%a) {approximate = "fast"} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @missing_attribute(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Concat' op requires attribute 'axis'}}
  %0 = "onnx.Concat"(%a, %a) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @axis_out_of_range(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Softmax' op axis 2 is out of range for rank 2}}
  %0 = "onnx.Softmax"(%a) {axis = 2 : si64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @matmul_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.MatMul' op cannot multiply tensor<2x3xf32> by tensor<2x3xf32>: inner dimensions differ (3 and 2)}}
  %0 = "onnx.MatMul"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op operand 'W' has 2 input channels per group, but 'X' has 3 channels in 1 groups}}
  %0 = "onnx.Conv"(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_group(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op attribute 'group' must be positive, got 0}}
  %0 = "onnx.Conv"(%x, %w) {group = 0 : si64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_kernel_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op attribute 'kernel_shape' does not match the spatial dimensions of 'W' (tensor<4x3x3x3xf32>)}}
  %0 = "onnx.Conv"(%x, %w) {kernel_shape = [3, 2]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_strides(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'onnx.Conv' op strides, dilations and kernel sizes must be positive}}
  %0 = "onnx.Conv"(%x, %w) {strides = [1, 0]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_window(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32> {
  // expected-error @+1 {{'onnx.Conv' op window of size 3 does not fit spatial dimension 0 of size 2 with its padding}}
  %0 = "onnx.Conv"(%x, %w) : (tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) -> tensor<4xf32> {
  %s = onnx.Constant dense<4> : tensor<1xi64>
  // expected-error @+1 {{'onnx.Reshape' op operand 'shape' asks for 4 elements, but the input has 6}}
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @squeeze_non_one(%x: tensor<2x3xf32>) -> tensor<3xf32> {
  %axes = onnx.Constant dense<0> : tensor<1xi64>
  // expected-error @+1 {{'onnx.Squeeze' op cannot squeeze dimension 0 of size 2}}
  %0 = "onnx.Squeeze"(%x, %axes) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @transpose_perm(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'onnx.Transpose' op attribute 'perm' is not a permutation of the 2 dimensions of tensor<2x3xf32>}}
  %0 = "onnx.Transpose"(%x) {perm = [1, 1]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'onnx.Concat' op operand 'inputs' #1 of type tensor<3x3xf32> differs from tensor<2x3xf32> in dimension 0, which is not the concatenation axis}}
  %0 = "onnx.Concat"(%a, %b) {axis = 1 : si64} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @split_sizes(%a: tensor<5xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %s = onnx.Constant dense<2> : tensor<2xi64>
  // expected-error @+1 {{'onnx.Split' op operand 'split' sizes add up to 4, but the axis has 5 elements}}
  %0:2 = "onnx.Split"(%a, %s) : (tensor<5xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

func.func @training_mode(%x: tensor<2x3xf32>, %p: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.BatchNormalization' op attribute 'training_mode' must be 0: only inference mode is supported}}
  %0 = "onnx.BatchNormalization"(%x, %p, %p, %p, %p) {training_mode = 1 : si64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @mod_float(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Mod' op attribute 'fmod' must be 1 for float operands}}
  %0 = "onnx.Mod"(%a, %a) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @cast_to(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Cast' op attribute 'to' must be a supported element type, got index}}
  %0 = "onnx.Cast"(%a) {to = index} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @where_condition(%c: tensor<3xf32>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Where' op operand 'condition' must have element type i1, got f32}}
  %0 = "onnx.Where"(%c, %a, %a) : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @novalue_result() -> tensor<f32> {
  // expected-error @+1 {{'onnx.NoValue' op takes no operands and has one result of type none}}
  %0 = "onnx.NoValue"() {value} : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @return_types(%a: tensor<3xf32>) -> tensor<3xf16> {
  // expected-error @+1 {{type of return operand 0 (tensor<3xf32>) doesn't match function result type (tensor<3xf16>) in function @return_types}}
  onnx.Return %a : tensor<3xf32>
}

// -----

// training_mode is a flag: the evaluator reads its one element (a fuzz
// finding: an empty flag read past its end).
func.func @dropout_mode_not_one_element(%x: tensor<2xf32>, %mode: tensor<0xi1>) -> tensor<2xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{must have one element, got tensor<0xi1>}}
  %0:2 = "onnx.Dropout"(%x, %none, %mode) : (tensor<2xf32>, none, tensor<0xi1>) -> (tensor<2xf32>, tensor<2xi1>)
  return %0#0 : tensor<2xf32>
}

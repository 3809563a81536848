// Shape operands known only at run time: what is wrong for every possible
// value is still an error.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics

func.func @reshape_rank_unknown(%x: tensor<2x3xf32>, %s: tensor<?xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'onnx.Reshape' op operand 'shape' must have a static length, which gives the result's rank, got tensor<?xi64>}}
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @reshape_wrong_rank(%x: tensor<2x3xf32>, %s: tensor<3xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'onnx.Reshape' op result #0 has type tensor<?x?xf32>, but the operands give tensor<?x?x?xf32>}}
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @reshape_two_minus_ones(%x: tensor<2x3xf32>, %d: tensor<1xi64>) -> tensor<?x?x?xf32> {
  %m = onnx.Constant dense<-1> : tensor<1xi64>
  %s = "onnx.Concat"(%m, %d, %m) {axis = 0 : si64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  // expected-error @+1 {{'onnx.Reshape' op operand 'shape' has more than one -1}}
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

func.func @expand_mismatch(%x: tensor<2x3xf32>, %d: tensor<1xi64>) -> tensor<?x3xf32> {
  %c = onnx.Constant dense<4> : tensor<1xi64>
  %s = "onnx.Concat"(%d, %c) {axis = 0 : si64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  // expected-error @+1 {{'onnx.Expand' op operand 'shape' dimension 4 does not broadcast with 3}}
  %0 = "onnx.Expand"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @squeeze_too_many(%x: tensor<2x1xf32>, %axes: tensor<2xi64>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.Squeeze' op operand 'axes' has 2 axes, but only 1 dimensions of tensor<2x1xf32> can be squeezed}}
  %0 = "onnx.Squeeze"(%x, %axes) : (tensor<2x1xf32>, tensor<2xi64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @unsqueeze_rank_unknown(%x: tensor<2xf32>, %axes: tensor<?xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'onnx.Unsqueeze' op operand 'axes' must have a static length, which gives the result's rank, got tensor<?xi64>}}
  %0 = "onnx.Unsqueeze"(%x, %axes) : (tensor<2xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @reduce_rank_unknown(%x: tensor<2x3xf32>, %axes: tensor<?xi64>) -> tensor<?xf32> {
  // expected-error @+1 {{'onnx.ReduceSum' op operand 'axes' must have a static length, which gives the result's rank, got tensor<?xi64>}}
  %0 = "onnx.ReduceSum"(%x, %axes) {keepdims = 0 : si64} : (tensor<2x3xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @constant_of_shape_negative(%d: tensor<1xi64>) -> tensor<?x?xf32> {
  %c = onnx.Constant dense<-2> : tensor<1xi64>
  %s = "onnx.Concat"(%d, %c) {axis = 0 : si64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  // expected-error @+1 {{'onnx.ConstantOfShape' op operand 'input' has a negative dimension -2}}
  %0 = "onnx.ConstantOfShape"(%s) : (tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @tile_wrong_length(%x: tensor<2x3xf32>, %r: tensor<3xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'onnx.Tile' op operand 'repeats' must have one entry per dimension of tensor<2x3xf32>}}
  %0 = "onnx.Tile"(%x, %r) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @split_count_unknown(%x: tensor<6xf32>, %s: tensor<?xi64>) -> (tensor<?xf32>, tensor<?xf32>) {
  // The number of results is the op's own: a split of unknown length is
  // accepted when verifying, and checked at run time.
  %0:2 = "onnx.Split"(%x, %s) : (tensor<6xf32>, tensor<?xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

func.func @slice_bad_type(%x: tensor<6xf32>, %s: tensor<1xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'onnx.Slice' op operand 'starts' must be a 1-D tensor of i32 or i64, got tensor<1xf32>}}
  %0 = "onnx.Slice"(%x, %s, %s) : (tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

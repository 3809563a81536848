// Shape inference and errors of onnx.RNN, onnx.GRU and onnx.LSTM: Y is
// [seq, directions, batch, hidden] (batch first with layout = 1), Y_h and
// Y_c [directions, batch, hidden]; the weights' sizes must agree with the
// gates (1, 3, 4), the directions and hidden_size.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @lstm_bidirectional
// CHECK: "onnx.LSTM"{{.*}} -> (tensor<5x2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>)
func.func @lstm_bidirectional(%x: tensor<5x3x2xf32>, %w: tensor<2x16x2xf32>, %r: tensor<2x16x4xf32>) -> tensor<5x2x3x4xf32> {
  %y, %h, %c = "onnx.LSTM"(%x, %w, %r) {direction = "bidirectional", hidden_size = 4 : si64} : (tensor<5x3x2xf32>, tensor<2x16x2xf32>, tensor<2x16x4xf32>) -> (tensor<5x2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>)
  return %y : tensor<5x2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @gru_batch_first
// CHECK: "onnx.GRU"{{.*}} -> (tensor<3x?x1x4xf32>, tensor<3x1x4xf32>)
func.func @gru_batch_first(%x: tensor<3x?x2xf32>, %w: tensor<1x12x2xf32>, %r: tensor<1x12x4xf32>) -> tensor<3x1x4xf32> {
  %y, %h = "onnx.GRU"(%x, %w, %r) {layout = 1 : si64} : (tensor<3x?x2xf32>, tensor<1x12x2xf32>, tensor<1x12x4xf32>) -> (tensor<3x?x1x4xf32>, tensor<3x1x4xf32>)
  return %h : tensor<3x1x4xf32>
}

// -----

func.func @rnn_gates(%x: tensor<5x3x2xf32>, %w: tensor<1x8x2xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'onnx.RNN' op operand 'W' must have shape [1, 4, 2], got tensor<1x8x2xf32>}}
  %y, %h = "onnx.RNN"(%x, %w, %r) : (tensor<5x3x2xf32>, tensor<1x8x2xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x3x4xf32>, tensor<1x3x4xf32>)
  return
}

// -----

func.func @lstm_directions(%x: tensor<5x3x2xf32>, %w: tensor<1x16x2xf32>, %r: tensor<1x16x4xf32>) {
  // expected-error @+1 {{'onnx.LSTM' op operand 'W' must have shape [2, 16, 2], got tensor<1x16x2xf32>}}
  %y, %h = "onnx.LSTM"(%x, %w, %r) {direction = "bidirectional"} : (tensor<5x3x2xf32>, tensor<1x16x2xf32>, tensor<1x16x4xf32>) -> (tensor<5x2x3x4xf32>, tensor<2x3x4xf32>)
  return
}

// -----

func.func @activations_count(%x: tensor<5x3x2xf32>, %w: tensor<1x12x2xf32>, %r: tensor<1x12x4xf32>) {
  // expected-error @+1 {{'onnx.GRU' op attribute 'activations' has 1 entries, expected 2 (2 per direction)}}
  %y, %h = "onnx.GRU"(%x, %w, %r) {activations = ["Tanh"]} : (tensor<5x3x2xf32>, tensor<1x12x2xf32>, tensor<1x12x4xf32>) -> (tensor<5x1x3x4xf32>, tensor<1x3x4xf32>)
  return
}

// -----

func.func @unknown_activation(%x: tensor<5x3x2xf32>, %w: tensor<1x4x2xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'onnx.RNN' op attribute 'activations' names an unknown activation 'Swish'}}
  %y, %h = "onnx.RNN"(%x, %w, %r) {activations = ["Swish"]} : (tensor<5x3x2xf32>, tensor<1x4x2xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x3x4xf32>, tensor<1x3x4xf32>)
  return
}

// -----

func.func @sequence_lens_type(%x: tensor<5x3x2xf32>, %w: tensor<1x4x2xf32>, %r: tensor<1x4x4xf32>, %b: tensor<1x8xf32>, %l: tensor<3xi64>) {
  // expected-error @+1 {{'onnx.RNN' op operand 'sequence_lens' must have element type i32, got i64}}
  %y, %h = "onnx.RNN"(%x, %w, %r, %b, %l) : (tensor<5x3x2xf32>, tensor<1x4x2xf32>, tensor<1x4x4xf32>, tensor<1x8xf32>, tensor<3xi64>) -> (tensor<5x1x3x4xf32>, tensor<1x3x4xf32>)
  return
}

// -----

func.func @initial_state_shape(%x: tensor<5x3x2xf32>, %w: tensor<1x4x2xf32>, %r: tensor<1x4x4xf32>, %h0: tensor<1x2x4xf32>) {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.RNN' op operand 'initial_h' must have shape [1, 3, 4], got tensor<1x2x4xf32>}}
  %y, %h = "onnx.RNN"(%x, %w, %r, %none, %none, %h0) : (tensor<5x3x2xf32>, tensor<1x4x2xf32>, tensor<1x4x4xf32>, none, none, tensor<1x2x4xf32>) -> (tensor<5x1x3x4xf32>, tensor<1x3x4xf32>)
  return
}

// -----

func.func @layout(%x: tensor<5x3x2xf32>, %w: tensor<1x4x2xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'onnx.RNN' op attribute 'layout' must be 0 or 1, got 2}}
  %y, %h = "onnx.RNN"(%x, %w, %r) {layout = 2 : si64} : (tensor<5x3x2xf32>, tensor<1x4x2xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x3x4xf32>, tensor<1x3x4xf32>)
  return
}

// -----

func.func @clip(%x: tensor<5x3x2xf32>, %w: tensor<1x4x2xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'onnx.RNN' op attribute 'clip' must be positive}}
  %y, %h = "onnx.RNN"(%x, %w, %r) {clip = -1.0 : f32} : (tensor<5x3x2xf32>, tensor<1x4x2xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x3x4xf32>, tensor<1x3x4xf32>)
  return
}

// -----

func.func @hidden_size(%x: tensor<5x3x2xf32>, %w: tensor<1x16x2xf32>, %r: tensor<1x16x4xf32>) {
  // expected-error @+1 {{'onnx.LSTM' op operand 'W' must have shape [1, 20, 2], got tensor<1x16x2xf32>}}
  %y, %h = "onnx.LSTM"(%x, %w, %r) {hidden_size = 5 : si64} : (tensor<5x3x2xf32>, tensor<1x16x2xf32>, tensor<1x16x4xf32>) -> (tensor<5x1x3x5xf32>, tensor<1x3x5xf32>)
  return
}

// -----

func.func @peepholes(%x: tensor<5x3x2xf32>, %w: tensor<1x16x2xf32>, %r: tensor<1x16x4xf32>, %p: tensor<1x16xf32>) {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.LSTM' op operand 'P' must have shape [1, 12], got tensor<1x16xf32>}}
  %y, %h, %c = "onnx.LSTM"(%x, %w, %r, %none, %none, %none, %none, %p) : (tensor<5x3x2xf32>, tensor<1x16x2xf32>, tensor<1x16x4xf32>, none, none, none, none, tensor<1x16xf32>) -> (tensor<5x1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>)
  return
}

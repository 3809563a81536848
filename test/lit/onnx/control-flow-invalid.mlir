// Verifier errors of onnx.If, onnx.Loop and onnx.Scan: region signatures
// against operands and results, each error naming what disagrees.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics

func.func @if_branch_yields_too_few(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "onnx.If"(%c) ({
    // expected-error @+1 {{'onnx.Yield' op yields 0 values, but the enclosing onnx.If's then_branch must yield 1}}
    "onnx.Yield"() : () -> ()
  }, {
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @if_branch_type(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<2xf32> {
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    // expected-error @+1 {{'onnx.Yield' op value #0 has type tensor<3xf32>, but result #0 has type tensor<2xf32>}}
    "onnx.Yield"(%y) : (tensor<3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @if_condition_not_bool(%c: tensor<f32>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.If' op operand 'cond' must be a tensor<i1> of one element, got tensor<f32>}}
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }) : (tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Any rank holds one element where every size is 1; [1, 2] holds two.
func.func @if_condition_two_elements(%c: tensor<1x2xi1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.If' op operand 'cond' must be a tensor<i1> of one element, got tensor<1x2xi1>}}
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }) : (tensor<1x2xi1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @if_one_region(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.If' op expects two regions (then_branch and else_branch)}}
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A Loop with neither a trip count nor a condition would never end.
func.func @loop_forever(%v: tensor<2xf32>) -> tensor<2xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op has neither a trip count 'M' nor a condition 'cond': it would never end}}
  %0 = "onnx.Loop"(%none, %none, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>):
    "onnx.Yield"(%c, %x) : (tensor<i1>, tensor<2xf32>) -> ()
  }) : (none, none, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @loop_body_arguments(%m: tensor<i64>, %v: tensor<2xf32>) -> tensor<2xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op body takes 2 arguments, expected the iteration number, the condition and 1 carried values}}
  %0 = "onnx.Loop"(%m, %none, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    "onnx.Yield"(%c, %v) : (tensor<i1>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @loop_carried_type(%m: tensor<i64>, %v: tensor<2xf32>, %w: tensor<3xf32>) -> tensor<2xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  %0 = "onnx.Loop"(%m, %none, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>):
    // expected-error @+1 {{'onnx.Yield' op value #1 has type tensor<3xf32>, but the carried value has type tensor<2xf32>}}
    "onnx.Yield"(%c, %w) : (tensor<i1>, tensor<3xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @loop_scan_output(%m: tensor<i64>, %v: tensor<2xf32>) -> tensor<?x3xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op scan output #0 has type tensor<?x3xf32>, which does not stack values of type tensor<2xf32>}}
  %0 = "onnx.Loop"(%m, %none) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    "onnx.Yield"(%c, %v) : (tensor<i1>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, none) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @scan_axis(%s: tensor<2xf32>, %xs: tensor<3x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Scan' op scan input axis 2 is out of range for tensor<3x2xf32>}}
  %0 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    "onnx.Yield"(%a) : (tensor<2xf32>) -> ()
  }) {num_scan_inputs = 1 : si64, scan_input_axes = [2]} : (tensor<2xf32>, tensor<3x2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @scan_direction(%s: tensor<2xf32>, %xs: tensor<3x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Scan' op scan directions must be 0 (forward) or 1 (reverse), got 2}}
  %0 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    "onnx.Yield"(%a) : (tensor<2xf32>) -> ()
  }) {num_scan_inputs = 1 : si64, scan_input_directions = [2]} : (tensor<2xf32>, tensor<3x2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @scan_lengths(%xs: tensor<3x2xf32>, %ys: tensor<4x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op scan inputs have different lengths (3 and 4)}}
  "onnx.Scan"(%xs, %ys) ({
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    "onnx.Yield"() : () -> ()
  }) {num_scan_inputs = 2 : si64} : (tensor<3x2xf32>, tensor<4x2xf32>) -> ()
  return
}

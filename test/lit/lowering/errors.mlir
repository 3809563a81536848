// RUN: onyx-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --target=lavapipe --lower
// RUN: not onyx-opt %s --target=bogus --lower 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not onyx-opt %s --target="{features = [\"quantum\"]}" --lower 2>&1 | FileCheck %s --check-prefix=FEATURE

// TARGET: for the --target option: unknown target 'bogus'; expected vulkan, lavapipe, nvidia or a dictionary
// FEATURE: 'gpu.target' has unknown feature 'quantum'

// A dimension known only at run time needs a generator that handles it
// (elementwise ones and MatMul do); elsewhere it is an error that says how
// to bind it.
func.func @dyn(%x: tensor<?x2x4xf32>, %s: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<?x2x4xf32> {
  %0 = "onnx.Relu"(%x) : (tensor<?x2x4xf32>) -> tensor<?x2x4xf32>
  // expected-error @+1 {{'onnx.InstanceNormalization' op has a tensor without a static shape and no kernel for run-time dimensions yet; bind symbolic dimensions (--bind-dims=NAME=N) to lower it}}
  %1 = "onnx.InstanceNormalization"(%0, %s, %b) : (tensor<?x2x4xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<?x2x4xf32>
  return %1 : tensor<?x2x4xf32>
}

// -----

// ConvTranspose's weights are compiled in.
func.func @conv_transpose_weights(%x: tensor<1x1x4x4xf32>, %w: tensor<1x?x3x3xf32>) -> tensor<1x?x6x6xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op needs the shape of its weights known when it is compiled, got tensor<1x?x3x3xf32>}}
  %0 = "onnx.ConvTranspose"(%x, %w) : (tensor<1x1x4x4xf32>, tensor<1x?x3x3xf32>) -> tensor<1x?x6x6xf32>
  return %0 : tensor<1x?x6x6xf32>
}

// -----

// Only onnx ops lower.
func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'foo.bar' op cannot be lowered to the GPU: only onnx ops can}}
  %0 = "foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Resize's output size is a host value: a scale given at run time must be
// a graph input the host program reads, not a tensor kernels compute.
func.func @resize_computed_scales(%x: tensor<1x1x4x4xf32>, %s: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  %t = "onnx.Add"(%s, %s) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'onnx.Resize' op operand 'scales' must be a constant or a graph input to lower the op (it decides the result's size)}}
  %0 = "onnx.Resize"(%x, %none, %t) : (tensor<1x1x4x4xf32>, none, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_scales_length(%x: tensor<1x1x4x4xf32>, %s: tensor<3xf32>) -> tensor<?x?x?x?xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Resize' op operand 'scales' must have 4 elements, got tensor<3xf32>}}
  %0 = "onnx.Resize"(%x, %none, %s) : (tensor<1x1x4x4xf32>, none, tensor<3xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// With antialias, the number of taps depends on the scale.
func.func @resize_antialias(%x: tensor<1x1x4x4xf32>, %s: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Resize' op needs constant scales with antialias on Vulkan (the number of taps depends on them)}}
  %0 = "onnx.Resize"(%x, %none, %s) {antialias = 1 : si64, mode = "linear"} : (tensor<1x1x4x4xf32>, none, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_policy(%x: tensor<1x1x4x4xf32>, %z: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Resize' op needs its 'sizes' as a constant and the resized dims known when compiled with keep_aspect_ratio_policy 'not_larger'}}
  %0 = "onnx.Resize"(%x, %none, %none, %z) {axes = [2, 3], keep_aspect_ratio_policy = "not_larger"} : (tensor<1x1x4x4xf32>, none, none, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}

// -----

// Control flow that onnx-flatten-control-flow cannot make straight-line
// code is an error saying why: an If on a run-time condition whose branches
// yield different types, a Loop whose body computes its condition, a while
// loop, a Scan whose
// length is known only at run time, and a loop too large to unroll.
func.func @if_types_differ(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'onnx.If' op has a condition computed at run time, and its branches yield result #0 as tensor<2xf32> and tensor<3xf32>; on Vulkan both branches run and a select chooses, which needs equal static types (--backend=ref runs it)}}
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    "onnx.Yield"(%y) : (tensor<3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A Loop whose trip count is known only at run time runs as a gpu.loop, its
// body lowered once: a body that computes its condition (a while loop, a
// read-back per iteration), carried values that change type, and control
// flow in the body are refused.
func.func @loop_runtime_count_computed_condition(%m: tensor<i64>, %c0: tensor<i1>, %v: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Loop' op has a body that computes its condition from data: a while loop, whose every iteration would need the condition read back before the next is recorded; on Vulkan a Loop runs a trip count known when it starts (--backend=ref runs it)}}
  %0 = "onnx.Loop"(%m, %c0, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>):
    %r = "onnx.ReduceSum"(%x) {keepdims = 0 : si64} : (tensor<2xf32>) -> tensor<f32>
    %z = onnx.Constant dense<0.0> : tensor<f32>
    %go = "onnx.Greater"(%r, %z) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "onnx.Yield"(%go, %x) : (tensor<i1>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @loop_runtime_count_carried_type(%m: tensor<i64>, %v: tensor<2xf32>) -> tensor<?xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op carries value #0 as tensor<2xf32> into the loop and as tensor<4xf32> out of an iteration; a Loop of a trip count known only at run time runs on Vulkan its body lowered once, which needs each carried value to keep its element type, rank and sizes (--backend=ref runs it)}}
  %0 = "onnx.Loop"(%m, %none, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %x: tensor<?xf32>):
    %d = "onnx.Concat"(%x, %x) {axis = 0 : si64} : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xf32>
    "onnx.Yield"(%c, %d) : (tensor<i1>, tensor<4xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @loop_runtime_count_nested_if(%m: tensor<i64>, %b: tensor<i1>, %v: tensor<2xf32>) -> tensor<2xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  %0 = "onnx.Loop"(%m, %none, %v) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %x: tensor<2xf32>):
    // expected-error @+1 {{'onnx.If' op is control flow in the body of a Loop whose trip count is known only at run time, which does not run on Vulkan (--backend=ref runs it)}}
    %y = "onnx.If"(%b) ({
      "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
    }, {
      %n = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
      "onnx.Yield"(%n) : (tensor<2xf32>) -> ()
    }) : (tensor<i1>) -> tensor<2xf32>
    "onnx.Yield"(%cond, %y) : (tensor<i1>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @loop_computed_condition(%v: tensor<2xf32>) -> tensor<2xf32> {
  %m = onnx.Constant dense<4> : tensor<i64>
  %t = onnx.Constant dense<true> : tensor<i1>
  // expected-error @+1 {{'onnx.Loop' op has a body that computes its condition, which may end the loop early; a loop runs on Vulkan unrolled, every iteration known when compiling (--backend=ref runs it)}}
  %0 = "onnx.Loop"(%m, %t, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>):
    %r = "onnx.ReduceSum"(%x) {keepdims = 0 : si64} : (tensor<2xf32>) -> tensor<f32>
    %z = onnx.Constant dense<0.0> : tensor<f32>
    %go = "onnx.Greater"(%r, %z) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "onnx.Yield"(%go, %x) : (tensor<i1>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @while_loop(%v: tensor<2xf32>) -> tensor<2xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  %t = onnx.Constant dense<true> : tensor<i1>
  // expected-error @+1 {{'onnx.Loop' op has no trip count: a while loop, whose iterations a condition computed at run time decides, does not run on Vulkan (--backend=ref runs it)}}
  %0 = "onnx.Loop"(%none, %t, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>):
    %f = onnx.Constant dense<false> : tensor<i1>
    "onnx.Yield"(%f, %x) : (tensor<i1>, tensor<2xf32>) -> ()
  }) : (none, tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @scan_runtime_length(%s: tensor<2xf32>, %xs: tensor<?x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Scan' op scans input #0 whose length is known only at run time; a scan runs on Vulkan unrolled, its length known when compiling (bind the model's symbolic dimensions, or --backend=ref)}}
  %0 = "onnx.Scan"(%s, %xs) ({
  ^bb0(%acc: tensor<2xf32>, %x: tensor<2xf32>):
    %a = "onnx.Add"(%acc, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%a) : (tensor<2xf32>) -> ()
  }) {num_scan_inputs = 1 : si64} : (tensor<2xf32>, tensor<?x2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @too_large(%v: tensor<2xf32>) -> tensor<2xf32> {
  %m = onnx.Constant dense<100000> : tensor<i64>
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Loop' op would unroll to 100000 iterations of 2 ops, more than the 65536 an unrolled loop may have on Vulkan (--backend=ref runs it)}}
  %0 = "onnx.Loop"(%m, %none, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %x: tensor<2xf32>):
    %n = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%c, %n) : (tensor<i1>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, none, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// RUN: onyx-opt %s --split-input-file --verify-diagnostics \
// RUN:   --target='{max_storage_buffer_range = 1024}' --convert-onnx-to-gpu

// Operands that decide what a kernel copies must be constants or shape
// values of the host program (Slice's starts, ends, axes and steps may be
// known only at run time), not data a kernel computes.
func.func @main(%x: tensor<5x7xf32>, %d: tensor<2x1xi32>) -> tensor<?x7xf32> {
  %b = onnx.Constant dense<[0]> : tensor<1xi32>
  %e = onnx.Constant dense<[3]> : tensor<1xi32>
  %a = onnx.Constant dense<[0]> : tensor<1xi64>
  %s = "onnx.ReduceSum"(%d, %a) {keepdims = 0 : si64} : (tensor<2x1xi32>, tensor<1xi64>) -> tensor<1xi32>
  // expected-error @+1 {{'onnx.Slice' op operand 'steps' must be a constant to lower the op to GPU kernels, or computed from shapes on the host}}
  %0 = "onnx.Slice"(%x, %b, %e, %b, %s) : (tensor<5x7xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x7xf32>
  return %0 : tensor<?x7xf32>
}

// -----

// Only inference mode runs on the GPU: a training_mode known only at run
// time is refused rather than assumed false.
func.func @main(%x: tensor<4xf32>, %mode: tensor<i1>) -> tensor<4xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  // expected-error @+1 {{'onnx.Dropout' op operand 'training_mode' must be a constant false to lower the op to GPU kernels}}
  %0:2 = "onnx.Dropout"(%x, %none, %mode) : (tensor<4xf32>, none, tensor<i1>) -> (tensor<4xf32>, tensor<4xi1>)
  return %0#0 : tensor<4xf32>
}

// -----

// A tensor larger than one binding can hold is not split yet.
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'onnx.Transpose' op operand #0 of type tensor<64x64xf32> takes 16384 bytes, more than one binding can hold on the target (1024); splitting it is not implemented}}
  %0 = "onnx.Transpose"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

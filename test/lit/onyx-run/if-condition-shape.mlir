// An If's condition is "a tensor of one element" in ONNX, of any rank:
// openWakeWord's classifiers compare a [1, 1] probability with a threshold
// and run a verifier network where it passes. On Vulkan both branches run
// and a Where on the condition, reshaped to a scalar, chooses, so that a
// [1, 1] condition does not broadcast a scalar result to [1, 1].
// RUN: onyx-run %s --backend=ref --input=1x1xf32=0.75 | FileCheck %s --check-prefix=HIGH
// RUN: onyx-run %s --validate --input=1x1xf32=0.75 | FileCheck %s --check-prefix=HIGH
// RUN: onyx-run %s --backend=ref --input=1x1xf32=0.25 | FileCheck %s --check-prefix=LOW
// RUN: onyx-run %s --validate --input=1x1xf32=0.25 | FileCheck %s --check-prefix=LOW

// HIGH:      output 0: tensor<1x1xf32> = [-0.75]
// HIGH-NEXT: output 1: tensor<f32> = [2]
// LOW:       output 0: tensor<1x1xf32> = [0.25]
// LOW-NEXT:  output 1: tensor<f32> = [1]

func.func @main(%p: tensor<1x1xf32>) -> (tensor<1x1xf32>, tensor<f32>) {
  %threshold = onnx.Constant dense<5.000000e-01> : tensor<f32>
  %pass = "onnx.GreaterOrEqual"(%p, %threshold) : (tensor<1x1xf32>, tensor<f32>) -> tensor<1x1xi1>
  %r:2 = "onnx.If"(%pass) ({
    %n = "onnx.Neg"(%p) : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %two = onnx.Constant dense<2.000000e+00> : tensor<f32>
    "onnx.Yield"(%n, %two) : (tensor<1x1xf32>, tensor<f32>) -> ()
  }, {
    %one = onnx.Constant dense<1.000000e+00> : tensor<f32>
    "onnx.Yield"(%p, %one) : (tensor<1x1xf32>, tensor<f32>) -> ()
  }) : (tensor<1x1xi1>) -> (tensor<1x1xf32>, tensor<f32>)
  return %r#0, %r#1 : tensor<1x1xf32>, tensor<f32>
}

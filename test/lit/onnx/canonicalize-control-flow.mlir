// An onnx.If on a constant condition becomes the ops of the branch it
// takes; on a condition known only at run time it stays. The generic form
// of the regions round-trips and mlir-opt reads it.
// RUN: onyx-opt %s --canonicalize --split-input-file | FileCheck %s
// RUN: onyx-opt %s --split-input-file | onyx-opt --split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: onyx-opt %s --split-input-file --print-generic \
// RUN:   | mlir-opt --allow-unregistered-dialect --split-input-file | FileCheck %s --check-prefix=ROUND

// CHECK-LABEL: func.func @true_branch
// CHECK-SAME:    ([[X:%.+]]: tensor<2xf32>)
// CHECK-NEXT:    [[N:%.+]] = "onnx.Neg"([[X]])
// CHECK-NEXT:    return [[N]]
// ROUND-LABEL: func.func @true_branch
// ROUND:         "onnx.If"(%{{.*}}) ({
// ROUND:           "onnx.Yield"
// ROUND:         }, {
// ROUND:           "onnx.Yield"
// ROUND:         }) : (tensor<i1>) -> tensor<2xf32>
func.func @true_branch(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = onnx.Constant dense<true> : tensor<i1>
  %0 = "onnx.If"(%c) ({
    %n = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%n) : (tensor<2xf32>) -> ()
  }, {
    %r = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%r) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// The else branch yields a static size where the If's result is `?`: its
// users are onnx ops, which take the more static value.
// CHECK-LABEL: func.func @false_branch_more_static
// CHECK-NEXT:    [[R:%.+]] = "onnx.Relu"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    [[E:%.+]] = "onnx.Exp"([[R]]) : (tensor<3xf32>) -> tensor<?xf32>
// CHECK-NEXT:    return [[E]]
func.func @false_branch_more_static(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<?xf32> {
  %c = onnx.Constant dense<false> : tensor<1xi1>
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    %r = "onnx.Relu"(%y) : (tensor<3xf32>) -> tensor<3xf32>
    "onnx.Yield"(%r) : (tensor<3xf32>) -> ()
  }) : (tensor<1xi1>) -> tensor<?xf32>
  %1 = "onnx.Exp"(%0) : (tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// Returned directly, the more static value would not match the function's
// result type: the If stays.
// CHECK-LABEL: func.func @returned_result
// CHECK:         "onnx.If"
func.func @returned_result(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<?xf32> {
  %c = onnx.Constant dense<false> : tensor<i1>
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    "onnx.Yield"(%y) : (tensor<3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @runtime_condition
// CHECK:         "onnx.If"
func.func @runtime_condition(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    %n = "onnx.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%n) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// An unused If whose branches are pure is erased.
// CHECK-LABEL: func.func @unused
// CHECK-NOT:     onnx.If
func.func @unused(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    "onnx.Yield"(%x) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  return %x : tensor<2xf32>
}

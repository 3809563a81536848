// RUN: onyx-opt %s --target=vulkan --onnx-fuse-elementwise | FileCheck %s

// The portable Vulkan target lets a kernel bind 4 storage buffers: 3
// inputs and the result. The producer whose inputs would make a fourth
// stays outside the group.
// CHECK-LABEL: func.func @limit
// CHECK: %[[OUT:.+]] = "onnx.Add"(%arg2, %arg3)
// CHECK: "onnx.FusedElementwise"(%arg0, %arg1, %[[OUT]])
// CHECK: "onnx.Add"
// CHECK: "onnx.Mul"
// CHECK-NEXT: "onnx.Yield"
func.func @limit(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>, %d: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = "onnx.Add"(%c, %d) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = "onnx.Mul"(%0, %1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

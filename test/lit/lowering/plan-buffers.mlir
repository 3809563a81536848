// RUN: onyx-opt %s --target=lavapipe --convert-onnx-to-gpu --gpu-plan-buffers | FileCheck %s

// A chain of four 1 KiB tensors: each is dead once the next is computed, so
// two slots of the arena serve them all (first fit at 16-byte alignment).
// The input's slot is reused as soon as the first kernel has read it.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[ARENA:.+]] = gpu.buffer arena : !gpu.buffer<2048>
// CHECK-NEXT: %[[X:.+]] = gpu.view %[[ARENA]][0] : !gpu.buffer<2048> to !gpu.view<256xf32>
// CHECK-NEXT: gpu.upload %arg0, %[[X]]
// CHECK-NEXT: %[[A:.+]] = gpu.view %[[ARENA]][1024]
// CHECK-NEXT: gpu.dispatch @exp[1, 1, 1](%[[X]], %[[A]])
// CHECK-NEXT: %[[B:.+]] = gpu.view %[[ARENA]][0]
// CHECK-NEXT: gpu.dispatch @neg[1, 1, 1](%[[A]], %[[B]])
// CHECK-NEXT: %[[C:.+]] = gpu.view %[[ARENA]][1024]
// CHECK-NEXT: gpu.dispatch @exp[1, 1, 1](%[[B]], %[[C]])
// CHECK-NEXT: %[[R:.+]] = gpu.download %[[C]]
func.func @main(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = "onnx.Exp"(%x) : (tensor<256xf32>) -> tensor<256xf32>
  %1 = "onnx.Neg"(%0) : (tensor<256xf32>) -> tensor<256xf32>
  %2 = "onnx.Exp"(%1) : (tensor<256xf32>) -> tensor<256xf32>
  return %2 : tensor<256xf32>
}

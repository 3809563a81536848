// RUN: onyx-opt %s --split-input-file --target=lavapipe --lower | FileCheck %s
// RUN: onyx-opt %s --split-input-file --target=lavapipe --onnx-static-shapes --onnx-fuse-elementwise --convert-onnx-to-gpu | FileCheck %s --check-prefix=GLSL

// Elementwise trees with dimensions known only at run time are compiled once:
// the count and the strides reach the kernel as push constants computed on
// the host from the arguments' dims, which size the grid and the tensors too.

// CHECK-LABEL: func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4xf32>) -> tensor<?x4xf32>
// CHECK: %[[N:.+]] = gpu.dim %arg0[0] : tensor<?x4xf32>
// CHECK: %[[X:.+]] = gpu.alloc(%[[N]]) : !gpu.view<?x4xf32>
// CHECK: gpu.upload %arg0, %[[X]]
// CHECK: %[[COUNT:.+]] = gpu.muli %[[N]], %{{.+}}
// CHECK: %[[Y:.+]] = gpu.alloc(%[[N]]) : !gpu.view<?x4xf32>
// CHECK: %[[GRID:.+]] = gpu.ceildivi %[[COUNT]], %{{.+}}
// CHECK: gpu.dispatch @fused[%[[GRID]], 1, 1](%[[X]], %{{.+}}, %[[Y]]) push(%[[COUNT]])
// CHECK: gpu.download %[[Y]] : !gpu.view<?x4xf32> to tensor<?x4xf32>
// GLSL: gpu.kernel @fused(read, read, write) workgroup_size(256, 1, 1) push_constants(ui32)
// GLSL-SAME: layout(push_constant) uniform Sizes { uint s0; } pc;
// GLSL-SAME: if (i >= pc.s0) return;
// GLSL-SAME: uint c1 = ((i) / 1u) % 4u;
// GLSL-SAME: float x1 = in1.d[c1];
func.func @main(%x: tensor<?x4xf32>, %y: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = "onnx.Add"(%x, %y) : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = "onnx.Relu"(%0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = "onnx.Mul"(%1, %x) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}

// -----

// A `?` may be 1 at run time and broadcast: its stride is multiplied by
// min(max(dim - 1, 0), 1) on the host, and the result's dim is the larger.
// CHECK-LABEL: func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x1xf32>)
// CHECK: %[[A:.+]] = gpu.dim %arg0[0]
// CHECK: %[[B:.+]] = gpu.dim %arg1[0]
// CHECK: %[[ROWS:.+]] = gpu.maxi %[[A]], %[[B]]
// CHECK: gpu.alloc(%[[ROWS]]) : !gpu.view<?x4xf32>
// CHECK: gpu.subi %[[B]], %{{.+}}
// CHECK: gpu.dispatch @sub[%{{.+}}, 1, 1]({{.+}}) push(%{{.+}}, %{{.+}}, %{{.+}})
// GLSL: gpu.kernel @sub(read, read, write) workgroup_size(256, 1, 1) push_constants(ui32, ui32, ui32)
// GLSL-SAME: uniform Sizes { uint s0; uint s1; uint s2; } pc;
// GLSL-SAME: if (i >= pc.s0) return;
// GLSL-SAME: float x0 = in0.d[c0 * pc.s1 + c1];
// GLSL-SAME: float x1 = in1.d[c0 * pc.s2];
func.func @main(%x: tensor<?x4xf32>, %y: tensor<?x1xf32>) -> tensor<?x4xf32> {
  %0 = "onnx.Sub"(%x, %y) : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Known dims keep today's specialized kernel: no push constants.
// GLSL: gpu.kernel @add(read, read, write) workgroup_size(256, 1, 1) glsl(
// GLSL-SAME: if (i >= 8u) return;
func.func @main(%x: tensor<2x4xf32>, %y: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = "onnx.Add"(%x, %y) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

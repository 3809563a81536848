// RUN: onyx-opt %s --split-input-file --target=lavapipe --convert-onnx-to-gpu | FileCheck %s

// Arguments are uploaded, constants a kernel binds become weights, Reshape
// is a view of its operand's memory, results are downloaded. Each kernel
// holds GLSL with the shapes baked in.
// CHECK: gpu.kernel @add(read, read, write) workgroup_size(256, 1, 1) glsl("#version 450
// CHECK-SAME: if (i >= 6u) return;
// CHECK-SAME: float x0 = in0.d[i];
// CHECK-SAME: float x1 = in1.d[c1];
// CHECK-SAME: precise float v0 = float(((x0) + (x1)));
// CHECK: gpu.kernel @tanh(read, write)
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[WB:.+]] = gpu.buffer weights : !gpu.buffer<12>
// CHECK-NEXT: %[[W:.+]] = gpu.weight %[[WB]][0] : !gpu.buffer<12> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[X:.+]] = gpu.alloc : !gpu.view<2x3xf32>
// CHECK-NEXT: gpu.upload %arg0, %[[X]]
// CHECK-NEXT: %[[SUM:.+]] = gpu.alloc : !gpu.view<2x3xf32>
// CHECK-NEXT: gpu.dispatch @add[1, 1, 1](%[[X]], %[[W]], %[[SUM]])
// CHECK-NEXT: %[[R:.+]] = gpu.view %[[SUM]][0] : !gpu.view<2x3xf32> to !gpu.view<3x2xf32>
// CHECK-NEXT: %[[T:.+]] = gpu.alloc : !gpu.view<3x2xf32>
// CHECK-NEXT: gpu.dispatch @tanh[1, 1, 1](%[[R]], %[[T]])
// CHECK-NEXT: %[[O0:.+]] = gpu.download %[[T]]
// CHECK-NEXT: %[[O1:.+]] = gpu.download %[[SUM]]
// CHECK-NEXT: return %[[O0]], %[[O1]] : tensor<3x2xf32>, tensor<2x3xf32>
func.func @main(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %w = onnx.Constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %s = onnx.Constant dense<[3, 2]> : tensor<2xi64>
  %0 = "onnx.Add"(%x, %w) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Reshape"(%0, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %2 = "onnx.Tanh"(%1) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %2, %0 : tensor<3x2xf32>, tensor<2x3xf32>
}

// -----

// Equal kernels are one gpu.kernel; a splat constant is a literal in the
// kernel, not a weight; an argument returned as is needs no kernel.
// CHECK: gpu.kernel @mul(read, write)
// CHECK-SAME: precise float v0 = float(((x0) * (uintBitsToFloat(0x40000000u))));
// CHECK-NOT: gpu.kernel
// CHECK-LABEL: func.func @main
// CHECK-NOT: gpu.buffer weights
// CHECK: %[[X:.+]] = gpu.alloc : !gpu.view<64xf32>
// CHECK-NEXT: gpu.upload %arg0, %[[X]]
// CHECK: gpu.dispatch @mul
// CHECK: gpu.dispatch @mul
// CHECK: gpu.download
// CHECK-NEXT: gpu.download
// CHECK-NEXT: %[[A:.+]] = gpu.download %[[X]] : !gpu.view<64xf32>
// CHECK-NEXT: return %{{.+}}, %{{.+}}, %[[A]]
func.func @main(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %c = onnx.Constant dense<2.0> : tensor<f32>
  %0 = "onnx.Mul"(%x, %c) : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  %1 = "onnx.Mul"(%y, %c) : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  return %0, %1, %x : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// Types are stored as they are and computed wider: f16 loads convert to
// float, bool is a byte.
// CHECK: gpu.kernel @greater
// CHECK-SAME: readonly buffer B0 { float16_t d[]; } in0;
// CHECK-SAME: writeonly buffer B2 { uint8_t d[]; } result;
// CHECK-SAME: float x0 = float(in0.d[i]);
// CHECK-SAME: bool v0 = bool(((x0) > (x1)));
// CHECK-SAME: result.d[i] = uint8_t((v0) ? 1u : 0u);
func.func @main(%x: tensor<8xf16>, %y: tensor<8xf16>) -> tensor<8xi1> {
  %0 = "onnx.Greater"(%x, %y) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}

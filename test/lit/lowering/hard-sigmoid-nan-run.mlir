// HardSigmoid keeps NaN a NaN on the device, as the reference backend
// (std::clamp) and numpy's clip do; GLSL leaves clamp of NaN undefined and
// lavapipe gave 0. Found by fuzz-differential's Vulkan mode (HardSigmoid of
// the Log of a negative number).

// RUN: onyx-run %s --validate --check --input=5xf32=nan,inf,-inf,0,10 \
// RUN:   | FileCheck %s
// CHECK: output 0: tensor<5xf32> = [nan, 1, 0, 0.5, 1]
// CHECK: output 0 vs ref: {{.*}}PASS

func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
  %0 = "onnx.HardSigmoid"(%x) : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

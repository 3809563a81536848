// onyx-run's errors on the Vulkan backend: every bad input is one clear
// message and exit status 1, never a crash, and the validation layer stays
// silent on the way.

// Inputs are checked against @main's argument types before anything is
// lowered.
// RUN: not onyx-run %s --validate --input=2x3xf32=0 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: onyx-run: error: expected 2 inputs, got 1 (input 1 is tensor<3xf32>)
// RUN: not onyx-run %s --validate --input=2x3xf32=0 --input=3xf32=0 --input=3xf32=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TOO-MANY
// TOO-MANY: onyx-run: error: expected 2 inputs, got 3
// RUN: not onyx-run %s --validate --input=2x4xf32=0 --input=3xf32=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SHAPE
// SHAPE: onyx-run: error: input 0: expected tensor<2x3xf32>, got 2x4xf32
// RUN: not onyx-run %s --validate --input=2x3xf32=0 --input=3xi32=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DTYPE
// DTYPE: onyx-run: error: input 1: expected tensor<3xf32>, got 3xi32
// RUN: not onyx-run %s --validate --input=2x3xf32=0 --input=3xf32=0 --expected-output=f32=0 \
// RUN:   --expected-output=f32=0 2>&1 | FileCheck %s --check-prefix=NUM-EXPECTED
// NUM-EXPECTED: onyx-run: error: got 2 expected outputs for the 1 outputs of @main

// A module that does not parse is reported at its line.
// RUN: echo 'func.func @main(%%x: tensor<2xf32>) -> tensor<2xf32> {' > %t.bad.mlir
// RUN: not onyx-run %t.bad.mlir --validate --input=2xf32=0 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: bad.mlir:{{[0-9]+}}:{{[0-9]+}}: error:

// A gpu-dialect module runs as it is; one that the device cannot run is
// reported at the op where loading finds the problem. --check needs an
// onnx model.
// RUN: onyx-opt %s --lower --target=lavapipe -o %t.gpu.mlir
// RUN: onyx-run %t.gpu.mlir --validate --input=2x3xf32=1 --input=3xf32=2 \
// RUN:   | FileCheck %s --check-prefix=GPU
// GPU: output 0: tensor<2x3xf32> = [3, 3, 3, 3, 3, 3]
// RUN: not onyx-run %t.gpu.mlir --check --input=2x3xf32=1 --input=3xf32=2 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GPU-CHECK
// GPU-CHECK: onyx-run: error: --check needs an onnx-dialect model to run on the reference backend; '{{.*}}.gpu.mlir' is a gpu-dialect module
// RUN: sed -e 's/gpu.dispatch @\([a-z_0-9]*\)\[1, 1, 1\](%[0-9]*, /gpu.dispatch @\1[1, 1, 1](/' %t.gpu.mlir > %t.broken.mlir
// RUN: not onyx-run %t.broken.mlir --validate --input=2x3xf32=1 --input=3xf32=2 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BROKEN
// BROKEN: broken.mlir:{{[0-9]+}}:{{[0-9]+}}: error: custom op 'gpu.dispatch' 2 operands present, but expected 3
// A module of kernels still in GLSL (before --gpu-compile-kernels) is an
// error naming the kernel, not a crash.
// RUN: onyx-opt %s --target=lavapipe --convert-onnx-to-gpu -o %t.glsl.mlir
// RUN: not onyx-run %t.glsl.mlir --validate --input=2x3xf32=1 --input=3xf32=2 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GLSL
// GLSL: glsl.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'gpu.kernel' op has GLSL but no SPIR-V: the runtime loads compiled kernels (onyx-opt --gpu-compile-kernels compiles them)
// RUN: sed -e 's/max_compute_shared_memory_size = [0-9]*/max_compute_shared_memory_size = 1073741824/' \
// RUN:   %t.gpu.mlir > %t.big.mlir
// RUN: not onyx-run %t.big.mlir --validate --input=2x3xf32=1 --input=3xf32=2 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TARGET
// TARGET: big.mlir:1:1: error: device '{{.+}}' cannot run this module
// TARGET: note: max_compute_shared_memory_size: the module needs 1073741824, the device has {{[0-9]+}}

// Any message of the validation layer fails the run, listed at its end; the
// layer's best-practices checks are asked for here only to make it speak.
// RUN: not env VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT \
// RUN:   onyx-run %s --validate --input=2x3xf32=1 --input=3xf32=2 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=VALIDATION
// VALIDATION: onyx-run: error: the Vulkan validation layer reported {{[0-9]+}} message(s):
// VALIDATION-NEXT: {{warning|error}}: Validation

// No device: a missing Vulkan loader, or a loader without a driver.
// RUN: not onyx-run %s --vulkan-loader=libonyx-no-such-loader.so.1 --input=2x3xf32=0 \
// RUN:   --input=3xf32=0 2>&1 | FileCheck %s --check-prefix=NO-LOADER
// RUN: not onyx-run --list-devices --vulkan-loader=libonyx-no-such-loader.so.1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-LOADER
// NO-LOADER: error: cannot load the Vulkan loader 'libonyx-no-such-loader.so.1'
// RUN: not env VK_DRIVER_FILES=%t.no-driver.json VK_ICD_FILENAMES=%t.no-driver.json \
// RUN:   onyx-run %s --input=2x3xf32=0 --input=3xf32=0 2>&1 | FileCheck %s --check-prefix=NO-DEVICE
// NO-DEVICE: error: {{no Vulkan driver is installed|no Vulkan device}}
// RUN: not onyx-run %s --device=99 --input=2x3xf32=0 --input=3xf32=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-SUCH-DEVICE
// NO-SUCH-DEVICE: error: {{.*}}99

func.func @main(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "onnx.Add"(%x, %y) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

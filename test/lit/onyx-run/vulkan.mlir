// onyx-run on the Vulkan backend, the default: an onnx-dialect module is
// canonicalized, lowered for the selected device (lavapipe in CI) and run
// there, with the validation layer (any message it reports fails the run).

// RUN: onyx-run %s --validate --input=2x3xf32=1,2,3,4,5,6 --input=3xf32=10,20,30 \
// RUN:   | FileCheck %s --check-prefix=PRINT
// RUN: onyx-run %s --backend=vulkan --validate --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --input=3xf32=10,20,30 | FileCheck %s --check-prefix=PRINT
// PRINT:      output 0: tensor<2x3xf32> = [11, 22, 33, 14, 25, 36]
// PRINT-NEXT: output 1: tensor<2x3xi1> = [false, false, true, false, false, true]

// A dynamic dimension of @main takes the size of its input before lowering
// (here 1, broadcast by Add).
// RUN: onyx-run %s --validate --input=2x3xf32=1 --input=1xf32=2 \
// RUN:   | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: output 0: tensor<2x3xf32> = [3, 3, 3, 3, 3, 3]

// Outputs written to files read back as inputs and expected outputs; a
// mismatch fails, naming the first element out of tolerance.
// RUN: onyx-run %s --validate --input=2x3xf32=1,2,3,4,5,6 --input=3xf32=10,20,30 \
// RUN:   --output=@%t.sum.npy --output=@%t.mask.npy | count 0
// RUN: onyx-run %s --validate --input=2x3xf32=1,2,3,4,5,6 --input=3xf32=10,20,30 \
// RUN:   --expected-output=@%t.sum.npy --expected-output=@%t.mask.npy \
// RUN:   | FileCheck %s --check-prefix=PASS
// PASS: output 0: max abs error 0, max rel error 0: PASS
// PASS: output 1: max abs error 0, max rel error 0: PASS
// RUN: not onyx-run %s --validate --input=2x3xf32=1,2,3,4,5,6.5 --input=3xf32=10,20,30 \
// RUN:   --expected-output=@%t.sum.npy --expected-output=@%t.mask.npy \
// RUN:   | FileCheck %s --check-prefix=FAIL
// FAIL: output 0: max abs error 0.5, max rel error 0.014: FAIL (1 of 6 elements out of tolerance; first at index 5: 36.5, expected 36)

// --check runs the reference backend too and compares, one line per output.
// RUN: onyx-run %s --validate --check --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --input=3xf32=10,20,30 | FileCheck %s --check-prefix=CHECK-REF
// CHECK-REF:      output 1: tensor<2x3xi1>
// CHECK-REF-NEXT: output 0 vs ref: max abs error 0, max rel error 0: PASS
// CHECK-REF-NEXT: output 1 vs ref: max abs error 0, max rel error 0: PASS

// --benchmark prints latencies after a warm-up run; --profile each
// dispatch's time and how tightly buffer planning packed the arena.
// RUN: onyx-run %s --validate --benchmark=3 --profile --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --input=3xf32=10,20,30 | FileCheck %s --check-prefix=TIMES
// TIMES: benchmark: 3 runs after a warm-up run: median {{[0-9.]+}} ms, min {{[0-9.]+}} ms, max {{[0-9.]+}} ms
// TIMES-NEXT: gpu time: median {{[0-9.]+}} ms{{.*}}(sum of the dispatches' timestamps)
// TIMES-NEXT: gpu span: median {{[0-9.]+}} ms{{.*}}(first dispatch start to last dispatch end, barriers included)
// TIMES: profile: {{[0-9]+}} dispatches
// TIMES-NEXT: # kernel time (us) share nodes
// TIMES-NEXT: 0 @{{[a-z_0-9]+}} {{[0-9.]+}} {{[0-9.]+}}% vulkan.mlir:{{[0-9]+}}
// TIMES: arena: {{[0-9]+}} bytes for {{[0-9]+}} bytes of intermediates ({{[0-9.]+}}%)

// --warmup-seconds runs the model untimed for that long first, in the
// process that measures, right before the timed runs.
// RUN: onyx-run %s --benchmark=3 --warmup-seconds=0.05 --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --input=3xf32=10,20,30 | FileCheck %s --check-prefix=WARMUP
// WARMUP: warm-up: {{[1-9][0-9]*}} runs in {{0\.0[5-9][0-9]|0\.[1-9][0-9]+|[1-9][0-9]*\.[0-9]+}} s before the timed runs
// WARMUP-NEXT: benchmark: 3 runs after a warm-up run: median

// --print-ir-after-all shows the module after canonicalization and after
// each pass of the lowering.
// RUN: onyx-run %s --input=2x3xf32=0 --input=3xf32=0 --print-ir-after-all 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=IR
// IR-LABEL: IR Dump After Canonicalizer (canonicalize)
// IR-LABEL: IR Dump After CSE (cse)
// IR-LABEL: IR Dump After onnx-static-shapes
// IR: func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>)
// IR-LABEL: IR Dump After onnx-fuse-elementwise
// IR-LABEL: IR Dump After convert-onnx-to-gpu
// IR: gpu.dispatch
// IR-LABEL: IR Dump After gpu-plan-buffers
// IR: gpu.buffer arena
// IR-LABEL: IR Dump After gpu-compile-kernels
// IR: spirv(

// Devices: --list-devices prints each with its number and exits; --device
// picks one.
// RUN: onyx-run --list-devices | FileCheck %s --check-prefix=DEVICES
// DEVICES: 0: {{.+}}: usable
// RUN: onyx-run %s --device=0 --validate --input=2x3xf32=1 --input=3xf32=1 \
// RUN:   | FileCheck %s --check-prefix=DEVICE
// DEVICE: output 0: tensor<2x3xf32> = [2, 2, 2, 2, 2, 2]

func.func @main(%x: tensor<2x3xf32>, %y: tensor<?xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %sum = "onnx.Add"(%x, %y) : (tensor<2x3xf32>, tensor<?xf32>) -> tensor<2x3xf32>
  %limit = onnx.Constant dense<25.0> : tensor<f32>
  %mask = "onnx.Greater"(%sum, %limit) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  return %sum, %mask : tensor<2x3xf32>, tensor<2x3xi1>
}

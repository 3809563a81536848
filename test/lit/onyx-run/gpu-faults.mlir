// Vulkan failures injected by ONYX_VK_FAULT (runtime/FaultInjection.h) at
// each point that can fail on a real GPU: out of device memory at the Nth
// allocation or pipeline creation, a lost device at a submission or a fence
// wait, a wait that times out. Each is a clear error and exit code 1, and
// with the validation layer on, nothing created before the failure is left
// behind when the device is destroyed (the layer reports every object not
// freed by then, and any message fails the run).

// RUN: env ONYX_VK_FAULT=alloc:1 not onyx-run %models/mlp.onnx --validate \
// RUN:   --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=ALLOC
// ALLOC: error: vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY
// ALLOC-NOT: validation

// A later allocation fails once the weights are on the device.
// RUN: env ONYX_VK_FAULT=alloc:4 not onyx-run %models/mlp.onnx --validate \
// RUN:   --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=ALLOC
// RUN: env ONYX_VK_FAULT=alloc:6 not onyx-run %models/cnn_small.onnx --validate \
// RUN:   --input=@%models/cnn_small.input_0.npy 2>&1 | FileCheck %s --check-prefix=ALLOC

// RUN: env ONYX_VK_FAULT=pipeline:2 not onyx-run %models/mlp.onnx --validate \
// RUN:   --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: error: {{.*}}Gemm{{.*}}: vkCreateComputePipelines failed: VK_ERROR_OUT_OF_DEVICE_MEMORY
// PIPELINE-NOT: validation

// The first submission uploads the weights; the second runs the model.
// RUN: env ONYX_VK_FAULT=submit:1 not onyx-run %models/mlp.onnx --validate \
// RUN:   --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=SUBMIT
// RUN: env ONYX_VK_FAULT=submit:2:lost not onyx-run %models/mlp.onnx --validate \
// RUN:   --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=SUBMIT
// SUBMIT: error: vkQueueSubmit failed: VK_ERROR_DEVICE_LOST
// SUBMIT-NOT: validation

// RUN: env ONYX_VK_FAULT=wait:2 not onyx-run %models/mlp.onnx --validate \
// RUN:   --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=WAIT
// WAIT: error: vkWaitForFences failed: VK_ERROR_DEVICE_LOST
// WAIT-NOT: validation

// RUN: env ONYX_VK_FAULT=wait:2:timeout not onyx-run %models/mlp.onnx --validate \
// RUN:   --gpu-timeout=5 --input=@%models/mlp.input_0.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TIMEOUT
// TIMEOUT: error: device '{{.*}}' did not finish its work within 5 s (--gpu-timeout); it is treated as lost
// TIMEOUT-NOT: validation

// A loss in a later run (--benchmark's warm-up) fails the run too.
// RUN: env ONYX_VK_FAULT=wait:3 not onyx-run %models/mlp.onnx --validate \
// RUN:   --input=@%models/mlp.input_0.npy --benchmark=3 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOST
// LOST: error: vkWaitForFences failed: VK_ERROR_DEVICE_LOST
// LOST-NOT: validation

// Several faults, each once; only the first one reached matters here.
// RUN: env ONYX_VK_FAULT=pipeline:9,alloc:2 not onyx-run %models/mlp.onnx \
// RUN:   --validate --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=ALLOC

// Without a fault reached, the run is unchanged.
// RUN: env ONYX_VK_FAULT=submit:99 onyx-run %models/mlp.onnx --validate \
// RUN:   --input=@%models/mlp.input_0.npy --expected-output=@%models/mlp.output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s --check-prefix=PASS
// PASS: output 0: max abs error {{.*}}: PASS

// A malformed plan is an error, not a run without its fault.
// RUN: env ONYX_VK_FAULT=submit:1:timeout not onyx-run %models/mlp.onnx \
// RUN:   --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=BAD1
// BAD1: error: ONYX_VK_FAULT=submit:1:timeout: 'submit:1:timeout': only a wait can time out
// RUN: env ONYX_VK_FAULT=alloc:0 not onyx-run %models/mlp.onnx \
// RUN:   --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=BAD2
// BAD2: error: ONYX_VK_FAULT=alloc:0: 'alloc:0': N must be a positive integer
// RUN: env ONYX_VK_FAULT=free:1 not onyx-run %models/mlp.onnx \
// RUN:   --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=BAD3
// BAD3: error: ONYX_VK_FAULT=free:1: 'free:1': unknown point 'free'
// RUN: env ONYX_VK_FAULT=alloc:1:lost not onyx-run %models/mlp.onnx \
// RUN:   --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=BAD4
// BAD4: error: ONYX_VK_FAULT=alloc:1:lost: 'alloc:1:lost': only a submit or a wait loses the device

// RUN: not onyx-run %models/mlp.onnx --gpu-timeout=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: --gpu-timeout must be at least 1 second

// A long generation on Vulkan (lavapipe in CI, with the validation layer):
// every decode step has a new past length, so a new recording. Each is made
// ahead, while the device runs the step before (but the first, which waits
// for the prefill's token), and at most 8 are kept (the
// rest evicted, their descriptor sets and command buffers reused), however
// many steps run.

// RUN: onyx-run %S/../../../examples/decoders/llama_tiny.onnx --validate \
// RUN:   --generate=210 --prompt-ids=5,17,42,8,3,29,11 --profile | FileCheck %s
// CHECK: {{^}}70 32 83 50 46 50 92 22 65 45 57 95
// CHECK: decode: 209 tokens
// CHECK: 210 recordings
// CHECK: recordings: 208 ahead of their step, while the device ran the step before ({{[0-9.]+}} us each); 2 on the critical path ({{[0-9.]+}} us each); 8 kept, {{[1-9][0-9]+}} evicted
// CHECK-NEXT: per recording: {{[0-9.]+}} us of CPU; host ops {{[0-9.]+}} us, placement {{[0-9.]+}} us, descriptor sets {{[0-9.]+}} us ({{[0-9]+}} written, {{[1-9][0-9]*}} reused in all), commands

func.func @main() {
  return
}

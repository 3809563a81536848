// The lowering passes run without their usual predecessors: SegFormer's
// export (test/models/hf) straight from the importer, with no canonicalize,
// cse or onnx-static-shapes before convert-onnx-to-gpu: its batch dim stays
// `?`, its constants unfolded and its Shape, Slice and Concat feed Reshape
// and Resize at run time. This once crashed; the module it lowers to runs on the Vulkan
// device with the validation layer and matches ONNX Runtime's output.

// RUN: onyx-opt %models/hf/segformer.dynamo/model.onnx --target=lavapipe \
// RUN:   --convert-onnx-to-gpu > %t.gpu.mlir
// RUN: FileCheck %s --check-prefix=LOWERED < %t.gpu.mlir
// RUN: onyx-opt %t.gpu.mlir --gpu-plan-buffers --gpu-compile-kernels \
// RUN:   > %t.compiled.mlir
// RUN: onyx-run %t.compiled.mlir --validate \
// RUN:   --input=@%models/hf/segformer.dynamo/input_0.npy \
// RUN:   --expected-output=@%models/hf/segformer.dynamo/output_0.npy \
// RUN:   --rtol=1e-3 --atol=1e-4 | FileCheck %s

// Nothing of the onnx dialect is left but the text of run-time checks.
// LOWERED: func.func @main(%arg0: tensor<?x3x32x32xf32>
// LOWERED: gpu.dispatch
// LOWERED-NOT: = onnx.
// LOWERED-NOT: = "onnx.

// CHECK: output 0: tensor<1x4x8x8xf32> = [
// CHECK: output 0: max abs error {{.*}}: PASS

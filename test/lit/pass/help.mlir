// --help lists every registered pass with its description and options; the
// test passes only under --help-hidden, under a heading of their own.
// RUN: onyx-opt --help | FileCheck %s --implicit-check-not=--test-
// RUN: onyx-opt --help-hidden | FileCheck %s --check-prefix=HIDDEN

// CHECK:      Pass manager options:
// CHECK-DAG:    --pass-pipeline=<pipeline>
// CHECK-DAG:    --pass-statistics
// CHECK-DAG:    --print-ir-after=<pass>
// CHECK-DAG:    --print-ir-after-all
// CHECK-DAG:    --print-ir-after-change
// CHECK-DAG:    --print-ir-before=<pass>
// CHECK-DAG:    --timing
// CHECK:      Passes:
// CHECK:        --canonicalize[=<options>] - {{.+}}
// CHECK-NEXT:       max-iterations=<value> - {{.+}} (default: 10)
// CHECK:        --cse - Eliminate common sub-expressions
// CHECK-NEXT:   --dce - Erase operations without side effects whose results are unused
// The lowering passes, and `lower`, the pipeline of them.
// CHECK-NEXT:   --gpu-compile-kernels - Compile the GLSL of gpu.kernel ops to SPIR-V (shaderc)
// CHECK-NEXT:   --gpu-plan-buffers - Place gpu.alloc tensors in one arena by liveness (first fit)
// CHECK-NEXT:   --lower - Lower onnx to gpu: flattened control flow, unrolled recurrent layers, expanded quantization, static shapes, merged projections, elementwise fusion, kernel generation, cse of the host arithmetic, buffer planning, shader compilation
// CHECK-NEXT:   --onnx-expand-quantization - Expand QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear and the integer and QLinear MatMul and Conv into f32 ops
// CHECK-NEXT:   --onnx-flatten-control-flow[=<options>] - Unroll onnx.Loop and onnx.Scan of counts known when compiling, and turn onnx.If on a run-time condition into both branches and a Where
// CHECK-NEXT:       max-unrolled-ops=<value> - The most ops one unrolled Loop or Scan may have (iterations times the ops of its body) (default: 65536)
// CHECK-NEXT:   --onnx-fuse-elementwise - {{.+}}
// CHECK-NEXT:   --onnx-merge-projections - Merge MatMuls (and MatMulNBits) of one operand by constant weights into one product and a Split of its result
// CHECK-NEXT:   --onnx-static-shapes - Check that every tensor has a static shape, or a `?` the kernel generator of each op that touches it handles
// CHECK-NEXT:   --onnx-transpose-gemv-weights - Store the constant weights of products of few rows transposed, so that each column is contiguous
// CHECK-NEXT:   --onnx-unroll-recurrent[=<options>] - Unroll onnx.RNN, onnx.GRU and onnx.LSTM of static sizes into MatMul and elementwise ops per time step
// CHECK-NEXT:       max-unrolled-ops=<value> - The most ops one unrolled recurrent layer may have (default: 65536)
// CHECK-NEXT:   --symbol-dce - Erase private functions that nothing refers to
// CHECK:      onyx-opt options:

// HIDDEN:      Test passes (for onyx's own tests; builds with ONYX_INCLUDE_TESTS):
// HIDDEN:        --test-break-ir - {{.+}}
// HIDDEN-NEXT:   --test-func-count[=<options>] - Test pass on func.func: count the ops of each function
// HIDDEN-NEXT:       annotate=<value> - Write the count into an attribute (default: false)
// HIDDEN-NEXT:       attr-name=<value> - The attribute the count is written to (default: test.num_ops)
// HIDDEN-NEXT:   --test-pass-failure - {{.+}}

// onyx-run on the reference backend: inputs given inline, as .npy or as
// .pb files; outputs printed, written to .npy files, or compared with
// expected outputs (exit status 0 only if all of them match).

// RUN: onyx-run %s --backend=ref --input=2x3xf32=1,2,3,4,5,6 --input=3xf32=10,20,30 \
// RUN:   | FileCheck %s --check-prefix=PRINT
// PRINT:      output 0: tensor<2x3xf32> = [11, 22, 33, 14, 25, 36]
// PRINT-NEXT: output 1: tensor<2x3xi1> = [false, false, true, false, false, true]

// One value fills a whole input.
// RUN: onyx-run %s --backend=ref --input=2x3xf32=0.5 --input=3xf32=-1 \
// RUN:   | FileCheck %s --check-prefix=SPLAT
// SPLAT: output 0: tensor<2x3xf32> = [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5]

// Outputs written to files are not printed; they read back as inputs and
// as expected outputs.
// RUN: onyx-run %s --backend=ref --input=2x3xf32=1,2,3,4,5,6 --input=3xf32=10,20,30 \
// RUN:   --output=@%t.sum.npy --output=@%t.mask.npy | count 0
// RUN: onyx-run %s --backend=ref --input=@%t.sum.npy --input=3xf32=0,0,0 \
// RUN:   | FileCheck %s --check-prefix=READBACK
// READBACK: output 0: tensor<2x3xf32> = [11, 22, 33, 14, 25, 36]
// RUN: onyx-run %s --backend=ref --input=2x3xf32=1,2,3,4,5,6 --input=3xf32=10,20,30 \
// RUN:   --expected-output=@%t.sum.npy --expected-output=@%t.mask.npy \
// RUN:   | FileCheck %s --check-prefix=PASS
// PASS: output 0: max abs error 0, max rel error 0: PASS
// PASS: output 1: max abs error 0, max rel error 0: PASS

// A mismatch fails, naming the first element out of tolerance; --rtol and
// --atol widen the tolerance.
// RUN: not onyx-run %s --backend=ref --input=2x3xf32=1,2,3,4,5,6.5 --input=3xf32=10,20,30 \
// RUN:   --expected-output=@%t.sum.npy --expected-output=@%t.mask.npy \
// RUN:   | FileCheck %s --check-prefix=FAIL
// FAIL: output 0: max abs error 0.5, max rel error 0.014: FAIL (1 of 6 elements out of tolerance; first at index 5: 36.5, expected 36)
// FAIL: output 1: max abs error 0, max rel error 0: PASS
// RUN: onyx-run %s --backend=ref --input=2x3xf32=1,2,3,4,5,6.5 --input=3xf32=10,20,30 \
// RUN:   --expected-output=@%t.sum.npy --expected-output=@%t.mask.npy \
// RUN:   --rtol=0.02 | FileCheck %s --check-prefix=RTOL
// RUN: onyx-run %s --backend=ref --input=2x3xf32=1,2,3,4,5,6.5 --input=3xf32=10,20,30 \
// RUN:   --expected-output=@%t.sum.npy --expected-output=@%t.mask.npy \
// RUN:   --atol=0.5 | FileCheck %s --check-prefix=RTOL
// RTOL: output 0: max abs error 0.5, max rel error 0.014: PASS

// Shapes and element types must match exactly.
// RUN: not onyx-run %s --backend=ref --input=2x3xf32=1,2,3,4,5,6 --input=3xf32=10,20,30 \
// RUN:   --expected-output=3x2xf32=0 --expected-output=@%t.mask.npy \
// RUN:   | FileCheck %s --check-prefix=SHAPE
// SHAPE: output 0: expected 3x2xf32, got 2x3xf32: FAIL

// An ONNX model with ONNX TensorProto files, from ONNX's backend tests.
// RUN: onyx-run %libonnx_testdata/node/test_add_bcast/model.onnx --backend=ref \
// RUN:   --input=@%libonnx_testdata/node/test_add_bcast/test_data_set_0/input_0.pb \
// RUN:   --input=@%libonnx_testdata/node/test_add_bcast/test_data_set_0/input_1.pb \
// RUN:   --expected-output=@%libonnx_testdata/node/test_add_bcast/test_data_set_0/output_0.pb \
// RUN:   | FileCheck %s --check-prefix=ONNX
// ONNX: output 0: tensor<3x4x5xf32> = [
// ONNX: output 0: max abs error 0, max rel error 0: PASS

func.func @main(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %sum = "onnx.Add"(%x, %y) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %limit = onnx.Constant dense<25.0> : tensor<f32>
  %mask = "onnx.Greater"(%sum, %limit) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  return %sum, %mask : tensor<2x3xf32>, tensor<2x3xi1>
}

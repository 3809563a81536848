// Reduction and normalization kernels compiled once for dims known only at
// run time, run at several shapes in one process on the Vulkan device with
// the validation layer and checked against the reference backend: rows of
// length 0, 1 and longer than a workgroup (300 > 256), no rows at all, and
// the decoder case (rows known at run time, a static hidden size).
// Inputs/gen_dynamic_rows.py writes the inputs.
// RUN: split-file %s %t
// RUN: onyx-run %t/rows.mlir --validate --check \
// RUN:   --input-set=@%S/Inputs/rows_3x300.npy --input-set=@%S/Inputs/rows_2x1.npy \
// RUN:   --input-set=@%S/Inputs/rows_5x7.npy --input-set=@%S/Inputs/rows_4x0.npy \
// RUN:   --input-set=@%S/Inputs/rows_0x6.npy | FileCheck %s --check-prefix=ROWS
// RUN: onyx-run %t/norm.mlir --validate --check \
// RUN:   --input-set='@%S/Inputs/ln_x_3x16.npy;@%S/Inputs/ln_scale_16.npy;@%S/Inputs/ln_bias_16.npy' \
// RUN:   --input-set='@%S/Inputs/ln_x_2x1.npy;@%S/Inputs/ln_scale_1.npy;@%S/Inputs/ln_bias_1.npy' \
// RUN:   --input-set='@%S/Inputs/ln_x_1x300.npy;@%S/Inputs/ln_scale_300.npy;@%S/Inputs/ln_bias_300.npy' \
// RUN:   | FileCheck %s --check-prefix=NORM
// RUN: onyx-run %t/hidden.mlir --validate --check \
// RUN:   --input-set=@%S/Inputs/h16_1x16.npy --input-set=@%S/Inputs/h16_5x16.npy \
// RUN:   --input-set=@%S/Inputs/h16_40x16.npy | FileCheck %s --check-prefix=HIDDEN
// RUN: onyx-run %t/pool.mlir --validate --check \
// RUN:   --input-set=@%S/Inputs/pool_1x3x1x1.npy --input-set=@%S/Inputs/pool_2x3x4x5.npy \
// RUN:   --input-set=@%S/Inputs/pool_1x3x17x19.npy | FileCheck %s --check-prefix=POOL
// RUN: onyx-run %t/rotary.mlir --validate --check \
// RUN:   --input-set='@%S/Inputs/rot_x_1x1.npy;@%S/Inputs/rot_cos_1x1.npy;@%S/Inputs/rot_sin_1x1.npy' \
// RUN:   --input-set='@%S/Inputs/rot_x_2x3.npy;@%S/Inputs/rot_cos_2x3.npy;@%S/Inputs/rot_sin_2x3.npy' \
// RUN:   --input-set='@%S/Inputs/rot_x_1x5.npy;@%S/Inputs/rot_cos_1x5.npy;@%S/Inputs/rot_sin_1x5.npy' \
// RUN:   | FileCheck %s --check-prefix=ROT

// Softmax, LogSoftmax and the Reduce ops over rows of any length: a mean
// of no elements is NaN, a max -inf, a min +inf, a sum over no rows 0; a
// ReduceSum without axes and with noop_with_empty_axes is its input, and a
// Softmax over the outer axis reads rows that interleave.
// ROWS: compile: {{.*}} (11 kernels compiled)
// ROWS: input set 0: {{.*}}, 0 kernels compiled, 0 pipelines created
// ROWS-NEXT: output 0: tensor<3x300xf32>
// ROWS-COUNT-8: vs ref: {{.*}} PASS
// ROWS: input set 1: {{.*}}, 0 kernels compiled, 0 pipelines created
// ROWS-NEXT: output 0: tensor<2x1xf32> = [1, 1]
// ROWS-NEXT: output 1: tensor<2x1xf32> = [0, 0]
// ROWS-COUNT-8: vs ref: {{.*}} PASS
// ROWS: input set 2: {{.*}}, 0 kernels compiled, 0 pipelines created
// ROWS-COUNT-8: vs ref: {{.*}} PASS
// ROWS: input set 3: {{.*}}, 0 kernels compiled, 0 pipelines created
// ROWS-NEXT: output 0: tensor<4x0xf32> = []
// ROWS-NEXT: output 1: tensor<4x0xf32> = []
// ROWS-NEXT: output 2: tensor<4x1xf32> = [nan, nan, nan, nan]
// ROWS-NEXT: output 3: tensor<0xf32> = []
// ROWS-NEXT: output 4: tensor<f32> = [-inf]
// ROWS-NEXT: output 5: tensor<4x1xf32> = [inf, inf, inf, inf]
// ROWS-COUNT-8: vs ref: {{.*}} PASS
// ROWS: input set 4: {{.*}}, 0 kernels compiled, 0 pipelines created
// ROWS-NEXT: output 0: tensor<0x6xf32> = []
// ROWS: output 3: tensor<6xf32> = [0, 0, 0, 0, 0, 0]
// ROWS-NEXT: output 4: tensor<f32> = [-inf]
// ROWS-COUNT-8: vs ref: {{.*}} PASS

//--- rows.mlir
func.func @main(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x1xf32>, tensor<?xf32>, tensor<f32>, tensor<?x1xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %last = onnx.Constant dense<-1> : tensor<1xi64>
  %first = onnx.Constant dense<0> : tensor<1xi64>
  %0 = "onnx.Softmax"(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = "onnx.LogSoftmax"(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "onnx.ReduceMean"(%x, %last) : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %3 = "onnx.ReduceSum"(%x, %first) {keepdims = 0 : si64} : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?xf32>
  %4 = "onnx.ReduceMax"(%x) {keepdims = 0 : si64} : (tensor<?x?xf32>) -> tensor<f32>
  %5 = "onnx.ReduceMin"(%x, %last) : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %6 = "onnx.ReduceSum"(%x) {noop_with_empty_axes = 1 : si64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %7 = "onnx.Softmax"(%x) {axis = 0 : si64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x1xf32>, tensor<?xf32>, tensor<f32>, tensor<?x1xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

// LayerNorm and RMSNorm over a hidden size known only at run time (scale
// and bias are inputs of that size), and ArgMax over it.
// NORM: compile: {{.*}} (3 kernels compiled)
// NORM: input set 0: {{.*}}, 0 kernels compiled, 0 pipelines created
// NORM-COUNT-3: vs ref: {{.*}} PASS
// NORM: input set 1: {{.*}}, 0 kernels compiled, 0 pipelines created
// NORM-COUNT-3: vs ref: {{.*}} PASS
// NORM: input set 2: {{.*}}, 0 kernels compiled, 0 pipelines created
// NORM-NEXT: output 0: tensor<1x300xf32>
// NORM-COUNT-3: vs ref: {{.*}} PASS

//--- norm.mlir
func.func @main(%x: tensor<?x?xf32>, %scale: tensor<?xf32>, %bias: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>) {
  %0 = "onnx.LayerNormalization"(%x, %scale, %bias) : (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %1 = "onnx.RMSNormalization"(%x, %scale) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %2 = "onnx.ArgMax"(%x) {axis = 1 : si64, keepdims = 0 : si64} : (tensor<?x?xf32>) -> tensor<?xi64>
  return %0, %1, %2 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>
}

// The decoder case: 1, 5 and 40 rows of 16, LayerNorm with its Mean and
// InvStdDev outputs.
// HIDDEN: compile: {{.*}} (3 kernels compiled)
// HIDDEN: input set 0: {{.*}}, 0 kernels compiled, 0 pipelines created
// HIDDEN-COUNT-5: vs ref: {{.*}} PASS
// HIDDEN: input set 1: {{.*}}, 0 kernels compiled, 0 pipelines created
// HIDDEN-COUNT-5: vs ref: {{.*}} PASS
// HIDDEN: input set 2: {{.*}}, 0 kernels compiled, 0 pipelines created
// HIDDEN-NEXT: output 0: tensor<1x40x16xf32>
// HIDDEN-COUNT-5: vs ref: {{.*}} PASS

//--- hidden.mlir
func.func @main(%x: tensor<1x?x16xf32>) -> (tensor<1x?x16xf32>, tensor<1x?x1xf32>, tensor<1x?x1xf32>, tensor<1x?x16xf32>, tensor<1x?x16xf32>) {
  %g = onnx.Constant dense<[1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5]> : tensor<16xf32>
  %b = onnx.Constant dense<[0.0, 0.1, 0.2, 0.3, 0.0, 0.1, 0.2, 0.3, 0.0, 0.1, 0.2, 0.3, 0.0, 0.1, 0.2, 0.3]> : tensor<16xf32>
  %0, %1, %2 = "onnx.LayerNormalization"(%x, %g, %b) {axis = -1 : si64} : (tensor<1x?x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<1x?x16xf32>, tensor<1x?x1xf32>, tensor<1x?x1xf32>)
  %3 = "onnx.RMSNormalization"(%x, %g) : (tensor<1x?x16xf32>, tensor<16xf32>) -> tensor<1x?x16xf32>
  %4 = "onnx.Softmax"(%x) : (tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
  return %0, %1, %2, %3, %4 : tensor<1x?x16xf32>, tensor<1x?x1xf32>, tensor<1x?x1xf32>, tensor<1x?x16xf32>, tensor<1x?x16xf32>
}

// The global pools and BatchNormalization over batch and spatial dims known
// only at run time.
// POOL: input set 0: {{.*}}, 0 kernels compiled, 0 pipelines created
// POOL-COUNT-3: vs ref: {{.*}} PASS
// POOL: input set 1: {{.*}}, 0 kernels compiled, 0 pipelines created
// POOL-COUNT-3: vs ref: {{.*}} PASS
// POOL: input set 2: {{.*}}, 0 kernels compiled, 0 pipelines created
// POOL-NEXT: output 0: tensor<1x3x1x1xf32>
// POOL-COUNT-3: vs ref: {{.*}} PASS

//--- pool.mlir
func.func @main(%x: tensor<?x3x?x?xf32>) -> (tensor<?x3x1x1xf32>, tensor<?x3x1x1xf32>, tensor<?x3x?x?xf32>) {
  %scale = onnx.Constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %bias = onnx.Constant dense<[0.0, -1.0, 1.0]> : tensor<3xf32>
  %mean = onnx.Constant dense<[0.1, 0.2, -0.3]> : tensor<3xf32>
  %var = onnx.Constant dense<[1.0, 4.0, 0.25]> : tensor<3xf32>
  %0 = "onnx.GlobalAveragePool"(%x) : (tensor<?x3x?x?xf32>) -> tensor<?x3x1x1xf32>
  %1 = "onnx.GlobalMaxPool"(%x) : (tensor<?x3x?x?xf32>) -> tensor<?x3x1x1xf32>
  %2 = "onnx.BatchNormalization"(%x, %scale, %bias, %mean, %var) : (tensor<?x3x?x?xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3x?x?xf32>
  return %0, %1, %2 : tensor<?x3x1x1xf32>, tensor<?x3x1x1xf32>, tensor<?x3x?x?xf32>
}

// RotaryEmbedding at batch x seq 1x1, 2x3 and 1x5.
// ROT: compile: {{.*}} (1 kernels compiled)
// ROT: input set 0: {{.*}}, 0 kernels compiled, 0 pipelines created
// ROT-NEXT: output 0: tensor<1x2x1x8xf32>
// ROT-NEXT: vs ref: {{.*}} PASS
// ROT: input set 1: {{.*}}, 0 kernels compiled, 0 pipelines created
// ROT-NEXT: output 0: tensor<2x2x3x8xf32>
// ROT-NEXT: vs ref: {{.*}} PASS
// ROT: input set 2: {{.*}}, 0 kernels compiled, 0 pipelines created
// ROT-NEXT: output 0: tensor<1x2x5x8xf32>
// ROT-NEXT: vs ref: {{.*}} PASS

//--- rotary.mlir
func.func @main(%x: tensor<?x2x?x8xf32>, %cos: tensor<?x?x4xf32>, %sin: tensor<?x?x4xf32>) -> tensor<?x2x?x8xf32> {
  %0 = "onnx.RotaryEmbedding"(%x, %cos, %sin) : (tensor<?x2x?x8xf32>, tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x2x?x8xf32>
  return %0 : tensor<?x2x?x8xf32>
}

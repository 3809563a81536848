// onyx-run's errors on the reference backend: every bad input is one clear
// message and exit status 1, never a crash. vulkan-errors.mlir has the
// Vulkan backend's.

// Inputs are checked against @main's argument types before anything runs.
// RUN: not onyx-run %s --backend=ref --input=2x3xf32=0 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: onyx-run: error: expected 2 inputs, got 1 (input 1 is tensor<?xf32>)
// RUN: not onyx-run %s --backend=ref --input=2x4xf32=0 --input=3xf32=0 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: onyx-run: error: input 0: expected tensor<2x3xf32>, got 2x4xf32
// RUN: not onyx-run %s --backend=ref --input=2x3xf32=0 --input=3xf64=0 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: onyx-run: error: input 1: expected tensor<?xf32>, got 3xf64
// RUN: not onyx-run %s --backend=ref --input=2x3xf32=0 --input=2x3xf32=0 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: onyx-run: error: input 1: expected tensor<?xf32>, got 2x3xf32

// A dynamic dimension accepts any size (here 1, broadcast by Add).
// RUN: onyx-run %s --backend=ref --input=2x3xf32=1 --input=1xf32=2 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: output 0: tensor<2x3xf32> = [3, 3, 3, 3, 3, 3]

// Malformed tensors.
// RUN: not onyx-run %s --backend=ref --input=2x3xf32=1,2 2>&1 | FileCheck %s --check-prefix=VALUES
// VALUES: onyx-run: error: input 0: 2x3xf32 needs 6 values (or one for all), got 2
// RUN: not onyx-run %s --backend=ref --input=2x3xfloat=1 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: onyx-run: error: input 0: unknown element type 'float'
// RUN: not onyx-run %s --backend=ref --input=@%t.missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: onyx-run: error: input 0: cannot read '{{.*}}.missing.npy':
// RUN: not onyx-run %s --backend=ref --input=@%s 2>&1 | FileCheck %s --check-prefix=EXTENSION
// EXTENSION: onyx-run: error: input 0: '{{.*}}errors.mlir' is neither a .npy nor a .pb file
// RUN: cp %s %t.npy
// RUN: not onyx-run %s --backend=ref --input=@%t.npy 2>&1 | FileCheck %s --check-prefix=NPY
// NPY: onyx-run: error: input 0: '{{.*}}.npy': not a .npy file (bad magic string)
// RUN: cp %s %t.pb
// RUN: not onyx-run %s --backend=ref --input=@%t.pb 2>&1 | FileCheck %s --check-prefix=PB
// PB: error: not a valid ONNX tensor
// RUN: not onyx-run %s --backend=ref --input=2x3xf32=0 --input=3xf32=0 --expected-output=@%t.missing.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXPECTED
// EXPECTED: onyx-run: error: expected output 0: cannot read

// Outputs: as many files and expected values as @main has results, at most.
// RUN: not onyx-run %s --backend=ref --input=2x3xf32=0 --input=3xf32=0 --expected-output=f32=0 \
// RUN:   --expected-output=f32=0 2>&1 | FileCheck %s --check-prefix=NUM-EXPECTED
// NUM-EXPECTED: onyx-run: error: got 2 expected outputs for the 1 outputs of @main
// RUN: not onyx-run %s --backend=ref --input=2x3xf32=0 --input=3xf32=0 --output=@%t.a.npy \
// RUN:   --output=@%t.b.npy 2>&1 | FileCheck %s --check-prefix=NUM-OUTPUTS
// NUM-OUTPUTS: onyx-run: error: got 2 --output files for the 1 outputs of @main
// RUN: not onyx-run %s --backend=ref --input=2x3xf32=0 --input=3xf32=0 --output=%t.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OUTPUT
// OUTPUT: onyx-run: error: --output={{.*}}.npy: expected --output=@FILE.npy
// RUN: not onyx-run %s --backend=ref --input=2x3xf32=0 --input=3xf32=0 --output=@%t.missing/x.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRITE
// WRITE: onyx-run: error: output 0: cannot write '{{.*}}x.npy'

// Models.
// RUN: not onyx-run %t.missing.onnx --backend=ref 2>&1 | FileCheck %s --check-prefix=NO-MODEL
// NO-MODEL: error: cannot read the file
// RUN: not onyx-run %t.npy --backend=ref 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: onyx-run: error: '{{.*}}.npy' is neither an ONNX model (.onnx) nor a module (.mlir)
// RUN: cp %s %t.onnx
// RUN: not onyx-run %t.onnx --backend=ref 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: error: not a valid ONNX model
// RUN: not onyx-run %s --backend=ref --bind-dims=n=3 2>&1 | FileCheck %s --check-prefix=BIND
// BIND: onyx-run: error: --bind-dims applies to ONNX models only
// RUN: not onyx-run %s --backend=ref --check 2>&1 | FileCheck %s --check-prefix=REF-ONLY
// RUN: not onyx-run %s --backend=ref --validate 2>&1 | FileCheck %s --check-prefix=REF-ONLY
// RUN: not onyx-run %s --backend=ref --kernels-for=gpu 2>&1 | FileCheck %s --check-prefix=REF-ONLY
// REF-ONLY: onyx-run: error: --check, --benchmark, --profile, --validate, --device, --kernels-for and --precision apply to --backend=vulkan
// RUN: not onyx-run %s --backend=ref --precision=f16 2>&1 | FileCheck %s --check-prefix=REF-ONLY
// RUN: not onyx-run %s --precision=f8 2>&1 | FileCheck %s --check-prefix=PRECISION
// PRECISION: onyx-run: error: --precision expects f32 or f16, got 'f8'
// RUN: not onyx-run %s --kernels-for=tpu 2>&1 | FileCheck %s --check-prefix=KERNELS-FOR
// KERNELS-FOR: onyx-run: error: --kernels-for expects gpu or cpu, got 'tpu'
// RUN: not onyx-run %s --input=2x3xf32=1 --input=3xf32=1 --warmup-seconds=1 2>&1 | FileCheck %s --check-prefix=WARMUP-ALONE
// WARMUP-ALONE: onyx-run: error: --warmup-seconds applies to --benchmark and --generate
// RUN: not onyx-run %s --benchmark=2 --warmup-seconds=-1 2>&1 | FileCheck %s --check-prefix=WARMUP-RANGE
// RUN: not onyx-run %s --benchmark=2 --warmup-seconds=nan 2>&1 | FileCheck %s --check-prefix=WARMUP-RANGE
// WARMUP-RANGE: onyx-run: error: --warmup-seconds must be between 0 and 3600
// RUN: not onyx-run --backend=ref 2>&1 | FileCheck %s --check-prefix=NO-ARGS
// NO-ARGS: onyx-run: error: no model given

// RUN: onyx-run --help | FileCheck %s --check-prefix=HELP
// HELP: USAGE: onyx-run [options] <MODEL.onnx | MODULE.mlir>
// HELP-DAG: --atol=<number>
// HELP-DAG: --backend=<value>
// HELP-DAG: =ref
// HELP-DAG: =vulkan
// HELP-DAG: --bind-dims=<NAME=N,...>
// HELP-DAG: --expected-output=<tensor>
// HELP-DAG: --input=<tensor>
// HELP-DAG: --output=<@file>
// HELP-DAG: --print-ir-after-all
// HELP-DAG: --device=<N>
// HELP-DAG: --list-devices
// HELP-DAG: --validate
// HELP-DAG: --check
// HELP-DAG: --benchmark=<N>
// HELP-DAG: --warmup-seconds=<S>
// HELP-DAG: --profile
// HELP-DAG: --rtol=<number>
// HELP-NOT: --vulkan-loader

func.func @main(%x: tensor<2x3xf32>, %y: tensor<?xf32>) -> tensor<2x3xf32> {
  %0 = "onnx.Add"(%x, %y) : (tensor<2x3xf32>, tensor<?xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

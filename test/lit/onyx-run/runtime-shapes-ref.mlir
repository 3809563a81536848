// Shape operands known only at run time, on the reference backend: sizes
// that are wrong, cannot exist or cannot fit the memory budget are errors at
// the op, found before anything is allocated (the op's result types are
// inferred again from the inputs' shapes and small values); never an abort
// in malloc, a wrapped size or an empty result with exit status 0.

// RUN: split-file %s %t

// Reshape: the element count must match; -1 and 0 as ONNX says.
// RUN: onyx-run %t/reshape.mlir --backend=ref --input=2x3xf32=1,2,3,4,5,6 --input=2xi64=3,-1 | FileCheck %s --check-prefix=RESHAPE
// RESHAPE: output 0: tensor<3x2xf32> = [1, 2, 3, 4, 5, 6]
// RUN: not onyx-run %t/reshape.mlir --backend=ref --input=2x3xf32=1 --input=2xi64=4,2 2>&1 | FileCheck %s --check-prefix=RESHAPE-COUNT
// RESHAPE-COUNT: reshape.mlir:2:8: error: 'onnx.Reshape' op operand 'shape' asks for 8 elements, but the input has 6
// RUN: not onyx-run %t/reshape.mlir --backend=ref --input=2x3xf32=1 --input=2xi64=-2,3 2>&1 | FileCheck %s --check-prefix=RESHAPE-NEG
// RESHAPE-NEG: error: 'onnx.Reshape' op operand 'shape' has an invalid dimension -2
// RUN: not onyx-run %t/reshape.mlir --backend=ref --input=2x3xf32=1 --input=2xi64=-1,-1 2>&1 | FileCheck %s --check-prefix=RESHAPE-TWO
// RESHAPE-TWO: error: 'onnx.Reshape' op operand 'shape' has more than one -1

// Expand: negative sizes, sizes that overflow, sizes over the budget.
// RUN: onyx-run %t/expand.mlir --backend=ref --input=2xf32=1,2 --input=2xi64=2,1 | FileCheck %s --check-prefix=EXPAND
// EXPAND: output 0: tensor<2x2xf32> = [1, 2, 1, 2]
// RUN: not onyx-run %t/expand.mlir --backend=ref --input=2xf32=1 --input=2xi64=-3,2 2>&1 | FileCheck %s --check-prefix=EXPAND-NEG
// EXPAND-NEG: expand.mlir:2:8: error: 'onnx.Expand' op operand 'shape' has a negative dimension -3
// RUN: not onyx-run %t/expand.mlir --backend=ref --input=2xf32=1 --input=2xi64=4611686018427387904,2 2>&1 | FileCheck %s --check-prefix=EXPAND-OVERFLOW
// EXPAND-OVERFLOW: error: 'onnx.Expand' op result #0 would have type tensor<4611686018427387904x2xf32>, whose size in bytes does not fit in 64 bits
// RUN: not onyx-run %t/expand.mlir --backend=ref --input=2xf32=1 --input=2xi64=100000000000000,2 2>&1 | FileCheck %s --check-prefix=EXPAND-BUDGET
// EXPAND-BUDGET: error: 'onnx.Expand' op result #0 (tensor<100000000000000x2xf32>) needs 800000000000000 bytes; with 0 bytes of tensors live, that exceeds the memory budget of {{[0-9]+}} bytes (--max-memory)
// RUN: not onyx-run %t/expand.mlir --backend=ref --input=2xf32=1 --input=2xi64=100,2 --max-memory=100 2>&1 | FileCheck %s --check-prefix=EXPAND-SMALL
// EXPAND-SMALL: error: 'onnx.Expand' op result #0 (tensor<100x2xf32>) needs 800 bytes; with 0 bytes of tensors live, that exceeds the memory budget of 100 bytes (--max-memory)

// Tile: negative counts, products that overflow, results over the budget.
// RUN: onyx-run %t/tile.mlir --backend=ref --input=2xf32=1,2 --input=1xi64=2 | FileCheck %s --check-prefix=TILE
// TILE: output 0: tensor<4xf32> = [1, 2, 1, 2]
// RUN: not onyx-run %t/tile.mlir --backend=ref --input=2xf32=1 --input=1xi64=-1 2>&1 | FileCheck %s --check-prefix=TILE-NEG
// TILE-NEG: error: 'onnx.Tile' op operand 'repeats' has a negative repeat count
// RUN: not onyx-run %t/tile.mlir --backend=ref --input=2xf32=1 --input=1xi64=4611686018427387904 2>&1 | FileCheck %s --check-prefix=TILE-OVERFLOW
// TILE-OVERFLOW: error: 'onnx.Tile' op operand 'repeats' makes dimension 0 overflow 64 bits
// RUN: not onyx-run %t/tile.mlir --backend=ref --input=2xf32=1 --input=1xi64=1000000000000 2>&1 | FileCheck %s --check-prefix=TILE-BUDGET
// TILE-BUDGET: error: 'onnx.Tile' op result #0 (tensor<2000000000000xf32>) needs 8000000000000 bytes; with 0 bytes of tensors live, that exceeds the memory budget of {{[0-9]+}} bytes (--max-memory)

// ConstantOfShape.
// RUN: not onyx-run %t/constant-of-shape.mlir --backend=ref --input=2xi64=-1,3 2>&1 | FileCheck %s --check-prefix=COS-NEG
// COS-NEG: error: 'onnx.ConstantOfShape' op operand 'input' has a negative dimension -1
// RUN: not onyx-run %t/constant-of-shape.mlir --backend=ref --input=2xi64=10000000000,10000000000 2>&1 | FileCheck %s --check-prefix=COS-OVERFLOW
// COS-OVERFLOW: error: 'onnx.ConstantOfShape' op result #0 would have type tensor<10000000000x10000000000xf32>, whose size in bytes does not fit in 64 bits
// RUN: not onyx-run %t/constant-of-shape.mlir --backend=ref --input=2xi64=1000000,1000000 2>&1 | FileCheck %s --check-prefix=COS-BUDGET
// COS-BUDGET: error: 'onnx.ConstantOfShape' op result #0 (tensor<1000000x1000000xf32>) needs 4000000000000 bytes; with 0 bytes of tensors live, that exceeds the memory budget of {{[0-9]+}} bytes (--max-memory)

// Range: integers counted exactly (a span of int64 values can exceed
// int64), floats refused where the count is not finite.
// RUN: onyx-run %t/range.mlir --backend=ref --input=i64=10 --input=i64=0 --input=i64=-3 | FileCheck %s --check-prefix=RANGE
// RANGE: output 0: tensor<4xi64> = [10, 7, 4, 1]
// RUN: not onyx-run %t/range.mlir --backend=ref --input=i64=0 --input=i64=5 --input=i64=0 2>&1 | FileCheck %s --check-prefix=RANGE-ZERO
// RANGE-ZERO: error: 'onnx.Range' op delta must not be 0
// RUN: not onyx-run %t/range.mlir --backend=ref --input=i64=-9223372036854775807 --input=i64=9223372036854775807 --input=i64=1 2>&1 | FileCheck %s --check-prefix=RANGE-OVERFLOW
// RANGE-OVERFLOW: error: 'onnx.Range' op start -9223372036854775807, limit 9223372036854775807 and delta 1 give more elements than fit in 64 bits
// RUN: not onyx-run %t/range.mlir --backend=ref --input=i64=0 --input=i64=1000000000000 --input=i64=1 2>&1 | FileCheck %s --check-prefix=RANGE-BUDGET
// RANGE-BUDGET: error: 'onnx.Range' op result #0 (tensor<1000000000000xi64>) needs 8000000000000 bytes; with 0 bytes of tensors live, that exceeds the memory budget of {{[0-9]+}} bytes (--max-memory)
// RUN: onyx-run %t/range-f32.mlir --backend=ref --input=f32=0 --input=f32=1 --input=f32=0.25 | FileCheck %s --check-prefix=RANGE-F32
// RANGE-F32: output 0: tensor<4xf32> = [0, 0.25, 0.5, 0.75]
// RUN: not onyx-run %t/range-f32.mlir --backend=ref --input=f32=0 --input=f32=inf --input=f32=1 2>&1 | FileCheck %s --check-prefix=RANGE-INF
// RANGE-INF: error: 'onnx.Range' op start {{.*}}, limit INF and delta {{.*}} do not give a finite number of elements
// RUN: not onyx-run %t/range-f32.mlir --backend=ref --input=f32=0 --input=f32=nan --input=f32=1 2>&1 | FileCheck %s --check-prefix=RANGE-NAN
// RANGE-NAN: error: 'onnx.Range' op start {{.*}}, limit nan and delta {{.*}} do not give a finite number of elements

// Pad: pads that remove more than there is, overflow, or do not fit.
// RUN: onyx-run %t/pad.mlir --backend=ref --input=2xf32=1 --input=2xi64=1,2 | FileCheck %s --check-prefix=PAD
// PAD: output 0: tensor<5xf32> = [0, 1, 1, 0, 0]
// RUN: not onyx-run %t/pad.mlir --backend=ref --input=2xf32=1 --input=2xi64=-3,0 2>&1 | FileCheck %s --check-prefix=PAD-NEG
// PAD-NEG: error: 'onnx.Pad' op operand 'pads' removes more than dimension 0 has
// RUN: not onyx-run %t/pad.mlir --backend=ref --input=2xf32=1 --input=2xi64=9223372036854775807,1 2>&1 | FileCheck %s --check-prefix=PAD-OVERFLOW
// PAD-OVERFLOW: error: 'onnx.Pad' op operand 'pads' makes dimension 0 overflow 64 bits
// RUN: not onyx-run %t/pad.mlir --backend=ref --input=2xf32=1 --input=2xi64=100000000000,1 2>&1 | FileCheck %s --check-prefix=PAD-BUDGET
// PAD-BUDGET: error: 'onnx.Pad' op result #0 (tensor<100000000003xf32>) needs 400000000012 bytes

// Slice: axes out of range, zero steps; steps at the int64 limits count
// without overflow.
// RUN: not onyx-run %t/slice.mlir --backend=ref --input=10xf32=1 --input=1xi64=2 --input=1xi64=5 --input=1xi64=3 --input=1xi64=1 2>&1 | FileCheck %s --check-prefix=SLICE-AXIS
// SLICE-AXIS: slice.mlir:2:8: error: 'onnx.Slice' op axis 3 is out of range for rank 1
// RUN: not onyx-run %t/slice.mlir --backend=ref --input=10xf32=1 --input=1xi64=2 --input=1xi64=5 --input=1xi64=0 --input=1xi64=0 2>&1 | FileCheck %s --check-prefix=SLICE-STEP
// SLICE-STEP: error: 'onnx.Slice' op step must not be 0
// RUN: onyx-run %t/slice.mlir --backend=ref --input=10xf32=0,1,2,3,4,5,6,7,8,9 --input=1xi64=1 --input=1xi64=10 --input=1xi64=0 --input=1xi64=9223372036854775807 | FileCheck %s --check-prefix=SLICE-MAX
// SLICE-MAX: output 0: tensor<1xf32> = [1]
// RUN: onyx-run %t/slice.mlir --backend=ref --input=10xf32=0,1,2,3,4,5,6,7,8,9 --input=1xi64=9 --input=1xi64=-100 --input=1xi64=0 --input=1xi64=-9223372036854775808 | FileCheck %s --check-prefix=SLICE-MIN
// SLICE-MIN: output 0: tensor<1xf32> = [9]

// Split: sizes given at run time must be one per result (fewer read past
// the results' end), none negative, adding up to the dim without overflowing
// (INT64_MAX twice and 6 wrap around to 4: they used to pass, and the copy
// read far beyond the input).
// RUN: onyx-run %t/split.mlir --backend=ref --input=4xf32=1,2,3,4 --input=3xi64=1,3,0 | FileCheck %s --check-prefix=SPLIT
// SPLIT: output 0: tensor<1xf32> = [1]
// SPLIT-NEXT: output 1: tensor<3xf32> = [2, 3, 4]
// SPLIT-NEXT: output 2: tensor<0xf32> = []
// RUN: not onyx-run %t/split.mlir --backend=ref --input=4xf32=1 --input=3xi64=9223372036854775807,9223372036854775807,6 2>&1 | FileCheck %s --check-prefix=SPLIT-OVERFLOW
// SPLIT-OVERFLOW: split.mlir:2:10: error: 'onnx.Split' op operand 'split' has sizes whose sum overflows 64 bits
// RUN: not onyx-run %t/split-dynamic.mlir --backend=ref --input=4xf32=1 --input=1xi64=4 2>&1 | FileCheck %s --check-prefix=SPLIT-COUNT
// SPLIT-COUNT: split-dynamic.mlir:2:10: error: 'onnx.Split' op split sizes number 1, but the op has 2 results

// Gather: indices out of range.
// RUN: not onyx-run %t/gather.mlir --backend=ref --input=5xf32=1 --input=2xi64=1,5 2>&1 | FileCheck %s --check-prefix=GATHER
// GATHER: gather.mlir:2:8: error: 'onnx.Gather' op index 5 is out of range for a dimension of size 5
// RUN: not onyx-run %t/gather.mlir --backend=ref --input=5xf32=1 --input=2xi64=1,-6 2>&1 | FileCheck %s --check-prefix=GATHER-NEG
// GATHER-NEG: error: 'onnx.Gather' op index -6 is out of range for a dimension of size 5

// A result whose size only the inputs' run-time shapes decide (a broadcast
// of ?x1 and 1x?) is checked against the budget before it is allocated.
// RUN: not onyx-run %t/broadcast.mlir --backend=ref --input=1000x1xf32=1 --input=1x1000xf32=2 --max-memory=1M 2>&1 | FileCheck %s --check-prefix=BROADCAST
// BROADCAST: broadcast.mlir:2:8: error: 'onnx.Add' op result #0 (tensor<1000x1000xf32>) needs 4000000 bytes; with 0 bytes of tensors live, that exceeds the memory budget of 1048576 bytes (--max-memory)
// RUN: onyx-run %t/broadcast.mlir --backend=ref --input=3x1xf32=1 --input=1x2xf32=2 --max-memory=1M | FileCheck %s --check-prefix=BROADCAST-FITS
// BROADCAST-FITS: output 0: tensor<3x2xf32> = [3, 3, 3, 3, 3, 3]

//--- reshape.mlir
func.func @main(%x: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

//--- expand.mlir
func.func @main(%x: tensor<2xf32>, %s: tensor<2xi64>) -> tensor<?x2xf32> {
  %0 = "onnx.Expand"(%x, %s) : (tensor<2xf32>, tensor<2xi64>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

//--- tile.mlir
func.func @main(%x: tensor<2xf32>, %s: tensor<1xi64>) -> tensor<?xf32> {
  %0 = "onnx.Tile"(%x, %s) : (tensor<2xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

//--- constant-of-shape.mlir
func.func @main(%s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = "onnx.ConstantOfShape"(%s) : (tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

//--- range.mlir
func.func @main(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>) -> tensor<?xi64> {
  %0 = "onnx.Range"(%a, %b, %c) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

//--- range-f32.mlir
func.func @main(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>) -> tensor<?xf32> {
  %0 = "onnx.Range"(%a, %b, %c) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

//--- pad.mlir
func.func @main(%x: tensor<2xf32>, %p: tensor<2xi64>) -> tensor<?xf32> {
  %none = "onnx.NoValue"() : () -> none
  %0 = "onnx.Pad"(%x, %p, %none, %none) : (tensor<2xf32>, tensor<2xi64>, none, none) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

//--- slice.mlir
func.func @main(%x: tensor<10xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>, %a: tensor<1xi64>, %st: tensor<1xi64>) -> tensor<?xf32> {
  %0 = "onnx.Slice"(%x, %s, %e, %a, %st) : (tensor<10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

//--- split.mlir
func.func @main(%x: tensor<4xf32>, %s: tensor<3xi64>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0:3 = "onnx.Split"(%x, %s) {axis = 0 : si64} : (tensor<4xf32>, tensor<3xi64>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
  return %0#0, %0#1, %0#2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

//--- split-dynamic.mlir
func.func @main(%x: tensor<4xf32>, %s: tensor<?xi64>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0:2 = "onnx.Split"(%x, %s) {axis = 0 : si64} : (tensor<4xf32>, tensor<?xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<?xf32>
}

//--- gather.mlir
func.func @main(%x: tensor<5xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %0 = "onnx.Gather"(%x, %i) {axis = 0 : i64} : (tensor<5xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

//--- broadcast.mlir
func.func @main(%x: tensor<?x1xf32>, %y: tensor<1x?xf32>) -> tensor<?x?xf32> {
  %0 = "onnx.Add"(%x, %y) : (tensor<?x1xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

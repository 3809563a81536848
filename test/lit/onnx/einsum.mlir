// Einsum: the equation names operand dims with letters; output letters are
// free, the others summed; a letter repeated in a term reads a diagonal;
// "..." broadcasts the unnamed dims; without "->" the output is the
// letters that appear once, in ASCII order. The reference backend and the
// Vulkan kernel (one invocation per output element, loops over the summed
// letters) give the same results.

// RUN: split-file %s %t
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-opt %t/matmul.mlir --target=lavapipe --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=GLSL
// RUN: onyx-run %t/matmul.mlir --backend=ref \
// RUN:   --input=2x2x3xf32=-3,-2,-1,0,1,2,3,4,5,6,7,8 \
// RUN:   --input=2x3x3xf32=0.5,1,1.5,2,2.5,3,3.5,4,4.5,5,5.5,6,6.5,7,7.5,8,8.5,9 \
// RUN:   --expected-output=2x2x3xf32=-9,-12,-15,9,10.5,12,81,87,93,139.5,150,160.5 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: onyx-run %t/matmul.mlir --validate \
// RUN:   --input=2x2x3xf32=-3,-2,-1,0,1,2,3,4,5,6,7,8 \
// RUN:   --input=2x3x3xf32=0.5,1,1.5,2,2.5,3,3.5,4,4.5,5,5.5,6,6.5,7,7.5,8,8.5,9 \
// RUN:   --expected-output=2x2x3xf32=-9,-12,-15,9,10.5,12,81,87,93,139.5,150,160.5 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: onyx-run %t/diagonal.mlir --backend=ref \
// RUN:   --input=2x3x3xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18 \
// RUN:   --expected-output=2x3xf32=1,5,9,10,14,18 --expected-output=2xf32=15,42 \
// RUN:   | FileCheck %s --check-prefix=EXEC2
// RUN: onyx-run %t/diagonal.mlir --validate \
// RUN:   --input=2x3x3xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18 \
// RUN:   --expected-output=2x3xf32=1,5,9,10,14,18 --expected-output=2xf32=15,42 \
// RUN:   | FileCheck %s --check-prefix=EXEC2
// RUN: onyx-run %t/outer.mlir --validate --input=2xi64=1,2 --input=3xi64=3,4,5 \
// RUN:   --expected-output=2x3xi64=3,4,5,6,8,10 --expected-output=3x2xi64=3,6,4,8,5,10 \
// RUN:   | FileCheck %s --check-prefix=EXEC2

// EXEC: output 0: max abs error {{.*}}: PASS
// EXEC2: output 0: max abs error {{.*}}: PASS
// EXEC2: output 1: max abs error {{.*}}: PASS

//--- invalid.mlir

func.func @terms(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Einsum' op attribute 'equation' equation 'ij,jk->i' has 2 input terms for 1 operands}}
  %0 = "onnx.Einsum"(%a) {equation = "ij,jk->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @rank(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Einsum' op attribute 'equation' equation term 'ijk' does not fit operand 0 of rank 2}}
  %0 = "onnx.Einsum"(%a) {equation = "ijk->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @letter(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Einsum' op attribute 'equation' equation term 'i1' has '1', not a letter or '...'}}
  %0 = "onnx.Einsum"(%a) {equation = "i1->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @output(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Einsum' op attribute 'equation' equation output 'k' has 'k', which no input term has}}
  %0 = "onnx.Einsum"(%a) {equation = "ij->k"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @repeat(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'onnx.Einsum' op attribute 'equation' equation output 'ii' repeats 'i'}}
  %0 = "onnx.Einsum"(%a) {equation = "ij->ii"} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @ellipsis(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Einsum' op attribute 'equation' equation term '......' has more than one '...'}}
  %0 = "onnx.Einsum"(%a) {equation = "......"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'onnx.Einsum' op operand 1 has size 4 for an index whose size is 3 elsewhere}}
  %0 = "onnx.Einsum"(%a, %b) {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @types(%a: tensor<2x3xf32>, %b: tensor<3xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Einsum' op}}
  %0 = "onnx.Einsum"(%a, %b) {equation = "ij,j->i"} : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

//--- matmul.mlir

// GLSL: gpu.kernel @einsum(read, read, write)
// GLSL-SAME: for (uint l{{[0-9]+}} = 0u; l{{[0-9]+}} < 3u;
func.func @main(%a: tensor<2x2x3xf32>, %b: tensor<2x3x3xf32>) -> tensor<2x2x3xf32> {
  %0 = "onnx.Einsum"(%a, %b) {equation = "bij, bjk -> bik"} : (tensor<2x2x3xf32>, tensor<2x3x3xf32>) -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}

//--- diagonal.mlir

// The batched diagonal, and the implicit output of "bii": b (traces).
func.func @main(%d: tensor<2x3x3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>) {
  %0 = "onnx.Einsum"(%d) {equation = "...ii->...i"} : (tensor<2x3x3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Einsum"(%d) {equation = "bii"} : (tensor<2x3x3xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2xf32>
}

//--- outer.mlir

// Outer products of integers: explicit, and implicit (letters in ASCII
// order, so "j,i" gives [i, j]: [3, 2]).
func.func @main(%a: tensor<2xi64>, %b: tensor<3xi64>) -> (tensor<2x3xi64>, tensor<3x2xi64>) {
  %0 = "onnx.Einsum"(%a, %b) {equation = "i,j->ij"} : (tensor<2xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %1 = "onnx.Einsum"(%a, %b) {equation = "j,i"} : (tensor<2xi64>, tensor<3xi64>) -> tensor<3x2xi64>
  return %0, %1 : tensor<2x3xi64>, tensor<3x2xi64>
}

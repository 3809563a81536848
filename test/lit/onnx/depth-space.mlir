// DepthToSpace (DCR and CRD) and SpaceToDepth: shape inference, located
// errors, and the reference backend and the Vulkan kernel on blocks whose
// expected layout is worked out by hand (the spec's reshape, transpose,
// reshape).

// RUN: split-file %s %t
// RUN: onyx-opt %t/invalid.mlir --split-input-file --verify-diagnostics
// RUN: onyx-opt %t/run.mlir --target=lavapipe --convert-onnx-to-gpu \
// RUN:   | FileCheck %s --check-prefix=GLSL
// RUN: onyx-run %t/run.mlir --backend=ref --input=1x8x1x1xf32=0,1,2,3,4,5,6,7 \
// RUN:   --input=1x1x4x4xi64=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 \
// RUN:   --expected-output=1x2x2x2xf32=0,2,4,6,1,3,5,7 \
// RUN:   --expected-output=1x2x2x2xf32=0,1,2,3,4,5,6,7 \
// RUN:   --expected-output=1x4x2x2xi64=0,2,8,10,1,3,9,11,4,6,12,14,5,7,13,15 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: onyx-run %t/run.mlir --validate --input=1x8x1x1xf32=0,1,2,3,4,5,6,7 \
// RUN:   --input=1x1x4x4xi64=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 \
// RUN:   --expected-output=1x2x2x2xf32=0,2,4,6,1,3,5,7 \
// RUN:   --expected-output=1x2x2x2xf32=0,1,2,3,4,5,6,7 \
// RUN:   --expected-output=1x4x2x2xi64=0,2,8,10,1,3,9,11,4,6,12,14,5,7,13,15 \
// RUN:   | FileCheck %s --check-prefix=EXEC

// EXEC-COUNT-3: output {{[0-9]}}: max abs error 0, max rel error 0: PASS

//--- invalid.mlir

func.func @channels(%x: tensor<1x6x2x2xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{'onnx.DepthToSpace' op operand 'input' has 6 channels, not a multiple of 4}}
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 2 : si64} : (tensor<1x6x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @rows(%x: tensor<1x1x3x4xf32>) -> tensor<1x4x1x2xf32> {
  // expected-error @+1 {{'onnx.SpaceToDepth' op operand 'input' has 3 rows, not a multiple of 2}}
  %0 = "onnx.SpaceToDepth"(%x) {blocksize = 2 : si64} : (tensor<1x1x3x4xf32>) -> tensor<1x4x1x2xf32>
  return %0 : tensor<1x4x1x2xf32>
}

// -----

func.func @blocksize(%x: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  // expected-error @+1 {{'onnx.DepthToSpace' op attribute 'blocksize' must be positive, got 0}}
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 0 : si64} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

func.func @mode(%x: tensor<1x4x2x2xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{'onnx.DepthToSpace' op attribute 'mode'}}
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 2 : si64, mode = "RDC"} : (tensor<1x4x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

//--- run.mlir

// DCR reads channel (row in block * 2 + column in block) * C' + c, CRD
// channel c * 4 + row in block * 2 + column in block; SpaceToDepth the
// inverse of DCR, for any element type.
// GLSL: gpu.kernel @depth_to_space(read, write)
// GLSL-SAME: uint sc = (o2 % 2u * 2u + o3 % 2u) * 2u + o1, sy = o2 / 2u, sx = o3 / 2u;
// GLSL: gpu.kernel @depth_to_space_1(read, write)
// GLSL-SAME: uint sc = o1 * 4u + o2 % 2u * 2u + o3 % 2u, sy = o2 / 2u, sx = o3 / 2u;
// GLSL: gpu.kernel @space_to_depth(read, write)
// GLSL-SAME: int64_t d[]
func.func @main(%x: tensor<1x8x1x1xf32>, %s: tensor<1x1x4x4xi64>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x4x2x2xi64>) {
  %0 = "onnx.DepthToSpace"(%x) {blocksize = 2 : si64} : (tensor<1x8x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = "onnx.DepthToSpace"(%x) {blocksize = 2 : si64, mode = "CRD"} : (tensor<1x8x1x1xf32>) -> tensor<1x2x2x2xf32>
  %2 = "onnx.SpaceToDepth"(%s) {blocksize = 2 : si64} : (tensor<1x1x4x4xi64>) -> tensor<1x4x2x2xi64>
  return %0, %1, %2 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x4x2x2xi64>
}

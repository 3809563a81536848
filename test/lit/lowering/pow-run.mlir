// Pow on the device follows C's pow, as ONNX and the reference backend do,
// where GLSL's pow is undefined: a negative base (an integer exponent keeps
// the sign of the odd powers, any other gives NaN) and a zero base with an
// exponent of 0 or less. Found by fuzz-differential's Vulkan mode, as was
// a NaN base or exponent, whose powers lavapipe's pow gave as 0 (NaN
// unless the exponent is 0 or the base 1).

// RUN: onyx-run %s --validate --check \
// RUN:   --input=8xf32=-2,-2,-2,-0.5,0,0,-1,-3 \
// RUN:   --input=8xf32=2,3,-2,0.5,0,-1,-3,0 | FileCheck %s
// CHECK: output 0: tensor<8xf32> = [4, -8, 0.25, nan, 1, inf, -1, 1]
// CHECK: output 0 vs ref: max abs error {{.*}}: PASS
// RUN: onyx-run %s --validate --check \
// RUN:   --input=8xf32=nan,nan,nan,2,1,-1.5,0,3 \
// RUN:   --input=8xf32=2,-1,0,nan,nan,-1.5,nan,1 | FileCheck %s --check-prefix=NAN
// NAN: output 0: tensor<8xf32> = [nan, nan, 1, nan, 1, nan, nan, 3{{.*}}]
// NAN: output 0 vs ref: max abs error {{.*}}: PASS

func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "onnx.Pow"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}


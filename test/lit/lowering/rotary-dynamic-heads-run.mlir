// RotaryEmbedding whose number of heads is known only at run time: the
// heads come from a Reshape of a `?` hidden size into heads of a static
// size (as gemma3's export with its dims unbound does), so the head size is
// compiled in and the heads are a push constant. One compilation runs at
// two, three and one heads against the reference backend with the
// validation layer. A head size known only at run time is refused.

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='1x1x16xf32=0.5;1x1x4xf32=1,0.5,-0.25,0;1x1x4xf32=0,0.5,1,-1' \
// RUN:   --input-set='2x3x24xf32=1;2x3x4xf32=1,0.5,-0.25,0,0.75,0.125,-1,0.25,1,0.5,-0.25,0,0.75,0.125,-1,0.25,1,0.5,-0.25,0,0.75,0.125,-1,0.25;2x3x4xf32=0.5' \
// RUN:   --input-set='1x2x8xf32=2;1x2x4xf32=0.5;1x2x4xf32=-0.5' \
// RUN:   | FileCheck %s
// RUN: onyx-opt %S/Inputs/rotary-dynamic-head-size.mlir --verify-diagnostics --target=lavapipe --lower

// CHECK: input set 0: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x2x1x8xf32>
// CHECK-NEXT: vs ref: {{.*}}: PASS
// CHECK: input set 1: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<2x3x3x8xf32>
// CHECK-NEXT: vs ref: {{.*}}: PASS
// CHECK: input set 2: run {{.*}}, 0 kernels compiled, 0 pipelines created
// CHECK-NEXT: output 0: tensor<1x1x2x8xf32>
// CHECK-NEXT: vs ref: {{.*}}: PASS
// CHECK-NOT: FAIL

func.func @main(%p: tensor<?x?x?xf32>, %cos: tensor<?x?x4xf32>, %sin: tensor<?x?x4xf32>) -> tensor<?x?x?x8xf32> {
  %shape = onnx.Constant dense<[0, 0, -1, 8]> : tensor<4xi64>
  %q = "onnx.Reshape"(%p, %shape) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x?x?x8xf32>
  %t = "onnx.Transpose"(%q) {perm = [0, 2, 1, 3]} : (tensor<?x?x?x8xf32>) -> tensor<?x?x?x8xf32>
  %r = "onnx.RotaryEmbedding"(%t, %cos, %sin) : (tensor<?x?x?x8xf32>, tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x?x?x8xf32>
  return %r : tensor<?x?x?x8xf32>
}

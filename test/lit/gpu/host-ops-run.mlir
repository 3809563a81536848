// RUN: onyx-opt %s --gpu-compile-kernels -o %t.mlir
// RUN: onyx-opt %t.mlir | onyx-opt | FileCheck %s --check-prefix=ROUND
// RUN: onyx-run %t.mlir --validate --input-set=3xi64=7,-2,1 --input-set=3xi64=-7,2,0 | FileCheck %s --check-prefix=OK
// RUN: not onyx-run %t.mlir --validate --input=3xi64=7,0,1 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not onyx-run %t.mlir --validate --input=3xi64=5,5,1 2>&1 | FileCheck %s --check-prefix=ASSERT

// The host ops beyond +, -, *: truncating division (ONNX's integer Div),
// comparisons giving 0 or 1, select, and a check that fails the run with
// its message at the op.

// ROUND: %[[D:.+]] = gpu.divi %{{.+}}, %{{.+}}
// ROUND: gpu.select %{{.+}}, %{{.+}}, %{{.+}}
// ROUND: gpu.assert %{{.+}}, %{{.+}}, %{{.+}} {message = "{0} equals {1}"}

// 7 / -2 = -3 (floor division gives -4), 7 < -2 is 0, so select gives c = 1.
// OK: input set 0:
// OK: output 0: tensor<6xi32> = [-3, 0, 0, 0, 1, -2]
// -7 / 2 = -3, -7 < 2 is 1, -7 <= 2 is 1, select gives a = -7.
// OK: input set 1:
// OK: output 0: tensor<6xi32> = [-3, 1, 0, 1, -7, 2]
// DIV: error: 'gpu.divi' op of 7 and 0 divides by zero
// ASSERT: error: 5 equals 5

module {
  gpu.kernel @put(write) workgroup_size(1, 1, 1) push_constants(i32, i32, i32, i32, i32, i32) glsl("#version 450\0Alayout(local_size_x = 1) in;\0Alayout(set = 0, binding = 0) writeonly buffer C { int c[]; };\0Alayout(push_constant) uniform P { int v0; int v1; int v2; int v3; int v4; int v5; } p;\0Avoid main() {\0A  c[0] = p.v0; c[1] = p.v1; c[2] = p.v2; c[3] = p.v3; c[4] = p.v4; c[5] = p.v5;\0A}\0A")
  func.func @main(%arg0: tensor<3xi64>) -> tensor<6xi32> {
    %a = gpu.extract %arg0[0] : tensor<3xi64>
    %b = gpu.extract %arg0[1] : tensor<3xi64>
    %c = gpu.extract %arg0[2] : tensor<3xi64>
    %q = gpu.divi %a, %b
    %lt = gpu.lti %a, %b
    %eq = gpu.eqi %a, %b
    %le = gpu.lei %a, %b
    %s = gpu.select %lt, %a, %c
    %zero = gpu.constant 0
    %ne = gpu.eqi %eq, %zero
    gpu.assert %ne, %a, %b {message = "{0} equals {1}"}
    %y = gpu.alloc() : !gpu.view<6xi32>
    gpu.dispatch @put[1, 1, 1](%y) push(%q, %lt, %eq, %le, %s, %b) : !gpu.view<6xi32>
    %r = gpu.download %y : !gpu.view<6xi32> to tensor<6xi32>
    return %r : tensor<6xi32>
  }
}

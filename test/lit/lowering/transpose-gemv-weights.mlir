// onnx-transpose-gemv-weights stores the constant weights of products of
// few rows (or rows known only at run time) as [n, k], read back through a
// Transpose the MatMul absorbs or through Gemm's transB, so that the
// matrix-vector kernel reads each column contiguously. Weights something
// else reads too, products of many rows and small weights stay as they are.
// The values do not change: on the device with the validation layer, at 1
// and 3 rows (the matrix-vector kernel) and 7 (the tiled one, reading the
// transposed weights), every output matches the reference backend.

// RUN: %python %S/Inputs/gen_gemv_weights.py %t.mlir
// RUN: %python %S/Inputs/gen_gemv_weights.py %t.rows8.mlir 8
// RUN: onyx-opt %t.mlir --onnx-transpose-gemv-weights | FileCheck %s
// RUN: onyx-opt %t.rows8.mlir --onnx-transpose-gemv-weights \
// RUN:   | FileCheck %s --check-prefix=MANY
// RUN: %python %S/Inputs/make_npy.py %t.x1.npy 5 1 256
// RUN: %python %S/Inputs/make_npy.py %t.x3.npy 6 3 256
// RUN: %python %S/Inputs/make_npy.py %t.x7.npy 7 7 256
// RUN: %python %S/Inputs/make_npy.py %t.g.npy 8 256
// RUN: onyx-opt %t.mlir --target=lavapipe --onnx-static-shapes \
// RUN:   --onnx-transpose-gemv-weights --onnx-fuse-elementwise \
// RUN:   --convert-onnx-to-gpu | FileCheck %s --check-prefix=LOWER
// RUN: onyx-opt %t.mlir --target=lavapipe --onnx-static-shapes \
// RUN:   --onnx-transpose-gemv-weights --onnx-fuse-elementwise \
// RUN:   --convert-onnx-to-gpu | FileCheck %s --check-prefix=STAGE
// RUN: onyx-run %t.mlir --validate --check --atol=1e-5 --input-set='@%t.x1.npy;@%t.g.npy' \
// RUN:   --input-set='@%t.x3.npy;@%t.g.npy' --input-set='@%t.x7.npy;@%t.g.npy' \
// RUN:   | FileCheck %s --check-prefix=VK

// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[W1:.+]] = onnx.Constant dense<{{.+}}> : tensor<192x256xf32>
// CHECK-DAG: %[[W2:.+]] = onnx.Constant dense<{{.+}}> : tensor<128x256xf32>
// CHECK-DAG: %[[W3:.+]] = onnx.Constant dense<{{.+}}> : tensor<256x64xf32>
// CHECK: %[[T:.+]] = "onnx.Transpose"(%[[W1]]) {perm = [1, 0]} : (tensor<192x256xf32>) -> tensor<256x192xf32>
// CHECK: "onnx.MatMul"(%{{.+}}, %[[T]])
// CHECK: "onnx.Gemm"(%arg0, %[[W2]], %{{.+}}) {alpha = 5.000000e-01 : f32, transB = 1 : si64}
// CHECK: "onnx.MatMul"(%arg0, %[[W3]])
// CHECK: "onnx.Add"(%[[W3]], %[[W3]])

// Eight rows take the tiled kernel: nothing changes.
// MANY-NOT: onnx.Transpose
// MANY-NOT: transB

// The first two products' matrix-vector kernels (one for a single row, one
// for up to 4) read B's k contiguously, the third's (whose weight an Add
// reads too) its columns.
// LOWER-COUNT-4: uint lane = li % 32u, c = li / 32u;
// LOWER-NOT: uint lane = li %
// LOWER: uint lane = lt % {{[0-9]+}}u, kg = lt /
// The RMSNorm's products (one row, and up to 4) load B's first columns'
// worth before the row statistics, and normalize the rows once into shared
// memory for every column to read.
// STAGE: shared vec4 an[64u];
// STAGE-SAME: bool preloaded = inside && k + 128u < 256u;
// STAGE: shared vec4 an[256u];
// STAGE-SAME: bool preloaded = inside && k + 128u < 256u;
// STAGE-NOT: bool preloaded

// VK: input set 0: run
// VK-COUNT-4: vs ref: {{.*}}: PASS
// VK: input set 1: run
// VK-COUNT-4: vs ref: {{.*}}: PASS
// VK: input set 2: run
// VK-COUNT-4: vs ref: {{.*}}: PASS

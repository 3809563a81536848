// com.microsoft MatMulNBits of one input (a decoder's Q, K and V
// projections) merged into one product (onnx-merge-projections) whose
// kernels write the three results: run on the device with the validation
// layer against the reference backend (which runs the three products as
// they are), for random weights (Inputs/gen_nbits_gemv.py --n N,N,N) of
// block sizes 16 to 256, 2, 4 and 8 bits, without zero points and with
// uint8 ones (rows of ceil(k_blocks * bits / 8) bytes, some with a padding
// nibble) or float ones, a bias, a fused norm, K not a multiple of the
// block, and rows known at run time (the matrix-vector kernel for 1, the
// tiled one for 6). One dispatch each.

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x96a.npy 1 1 96
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x96b.npy 2 6 96
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x200.npy 3 3 200
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x64.npy 4 1 64
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x300.npy 5 2 300
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x512.npy 6 1 512

// Block 32, uint8 zero points (3 blocks: two bytes a row, one nibble of
// padding), a bias, an RMSNormalization, rows 1 and 6.
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/u8.mlir --k 96 --n 20,7,7 --block 32 --zeros u8 --bias --norm rms --rows ?
// RUN: onyx-run %t/u8.mlir --validate --check --atol=1e-4 --profile \
// RUN:   --input-set=@%t/x96a.npy --input-set=@%t/x96b.npy | FileCheck %s --check-prefix=SETS2
// SETS2: input set 0: run
// SETS2-COUNT-3: vs ref: {{.*}}: PASS
// SETS2: profile: 1 dispatches
// SETS2-NEXT: kernel
// SETS2-NEXT: @matmul_nbits_gemv {{.*}}u8.mlir:{{[0-9]+}}+{{.*}}u8.mlir:{{[0-9]+}}+{{.*}}u8.mlir:{{[0-9]+}}
// SETS2: input set 1: run
// SETS2-COUNT-3: vs ref: {{.*}}: PASS
// SETS2: profile: 1 dispatches
// SETS2-NEXT: kernel
// SETS2-NEXT: @matmul_nbits {{.*}}u8.mlir:{{[0-9]+}}+

// Block 64, float zero points, K = 200 (a last block of 8 values), a
// LayerNormalization, three rows.
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/f32.mlir --k 200 --n 9,3,3 --block 64 --zeros f32 --norm layer --rows 3
// RUN: onyx-run %t/f32.mlir --validate --check --atol=1e-4 --profile --input=@%t/x200.npy | FileCheck %s
// CHECK-COUNT-3: vs ref: {{.*}}: PASS
// CHECK: profile: 1 dispatches

// Block 16 without zero points; 8 bits and 2 bits with uint8 zero points
// (2 bits: 3 blocks a row in one byte).
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/bs16.mlir --k 64 --n 16,8,8 --block 16
// RUN: onyx-run %t/bs16.mlir --validate --check --atol=1e-4 --profile --input=@%t/x64.npy | FileCheck %s
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/b8.mlir --k 64 --n 5,5 --block 32 --bits 8 --zeros u8
// RUN: onyx-run %t/b8.mlir --validate --check --atol=1e-4 --profile --input=@%t/x64.npy | FileCheck %s --check-prefix=TWO
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/b2.mlir --k 48 --n 6,6 --block 16 --bits 2 --zeros u8
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x48.npy 7 1 48
// RUN: onyx-run %t/b2.mlir --validate --check --atol=1e-4 --profile --input=@%t/x48.npy | FileCheck %s --check-prefix=TWO
// TWO-COUNT-2: vs ref: {{.*}}: PASS
// TWO: profile: 1 dispatches

// Blocks 128 (K = 300, no zero points) and 256 (uint8 zero points).
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/bs128.mlir --k 300 --n 12,4,4 --block 128 --rows 2
// RUN: onyx-run %t/bs128.mlir --validate --check --atol=1e-4 --profile --input=@%t/x300.npy | FileCheck %s
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/bs256.mlir --k 512 --n 12,4,4 --block 256 --zeros u8
// RUN: onyx-run %t/bs256.mlir --validate --check --atol=1e-4 --profile --input=@%t/x512.npy | FileCheck %s

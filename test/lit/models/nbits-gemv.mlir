// com.microsoft MatMulNBits of a few rows: the matrix-vector kernel
// (lowering/NBitsGemv.cpp) on the device with the validation layer, against
// the reference backend, for random 4-bit weights (Inputs/gen_nbits_gemv.py)
// of block sizes 16, 32, 128 and 256, without zero points and with uint8 or
// float ones, K and N odd or not multiples of the block (a last word with
// values past K), one row and a few (static, and known only at run time
// with the tiled kernel for more than 4), two columns per invocation (wide
// N), lanes beyond a subgroup (long K), a bias, and a LayerNormalization or
// RMSNormalization before the product, which its kernels apply (no norm
// kernel is dispatched), with a residual Add fused after it. The same products lowered for a target without
// subgroup arithmetic (partial sums added in shared memory) and for NVIDIA's
// (the GLSL compiles).

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x1000.npy 1 1 1000
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x1001.npy 2 3 1001
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x4160a.npy 3 1 4160
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x4160b.npy 4 2 4160
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x4160c.npy 5 4 4160
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x4160d.npy 6 5 4160
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x768.npy 7 1 768
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x576a.npy 8 2 576
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x576b.npy 9 1 576
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x576c.npy 10 6 576
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x1000c.npy 11 3 1000
// RUN: %python %S/../lowering/Inputs/make_npy.py %t/x1000d.npy 12 70 1000

// Block 16, uint8 zero points, K = 1000 (a last block of 8 values), N = 333.
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/bs16.mlir --k 1000 --n 333 --block 16 --zeros u8
// RUN: onyx-run %t/bs16.mlir --validate --check --atol=1e-4 --input=@%t/x1000.npy | FileCheck %s

// Block 32, K = 1001 (a last word with one value of K: x read value by
// value), N = 257, three rows, a bias.
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/bs32.mlir --k 1001 --n 257 --block 32 --rows 3 --bias
// RUN: onyx-run %t/bs32.mlir --validate --check --atol=1e-4 --input=@%t/x1001.npy | FileCheck %s

// Block 128, uint8 zero points, K = 4160 (520 words: 256 lanes a column),
// N = 77, rows known at run time: 1, 2, 4 and 5 (the tiled kernel).
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/bs128.mlir --k 4160 --n 77 --block 128 --zeros u8 --rows ?
// RUN: onyx-run %t/bs128.mlir --validate --check --atol=1e-4 --input-set=@%t/x4160a.npy \
// RUN:   --input-set=@%t/x4160b.npy --input-set=@%t/x4160c.npy --input-set=@%t/x4160d.npy \
// RUN:   | FileCheck %s --check-prefix=SETS4

// Block 256, K = 768, N = 4100: two columns per invocation, the last
// workgroup's columns past N.
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/bs256.mlir --k 768 --n 4100 --block 256
// RUN: onyx-run %t/bs256.mlir --validate --check --atol=1e-4 --input=@%t/x768.npy | FileCheck %s

// Block 32, float zero points, two rows, the shape of a small Llama's
// up projection.
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/f32zp.mlir --k 576 --n 1536 --block 32 --zeros f32 --rows 2
// RUN: onyx-run %t/f32zp.mlir --validate --check --atol=1e-4 --input=@%t/x576a.npy | FileCheck %s

// An RMSNormalization before the product: rows 1 (matrix-vector) and 6
// (tiled), no rms_norm dispatch.
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/rms.mlir --k 576 --n 960 --block 32 --rows ? --norm rms
// RUN: onyx-run %t/rms.mlir --validate --check --atol=1e-4 --profile --input-set=@%t/x576b.npy \
// RUN:   --input-set=@%t/x576c.npy | FileCheck %s --check-prefix=NORM2
// A LayerNormalization with a bias, block 16, uint8 zero points, a bias of
// the product: rows 3 and 70 (two row tiles).
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/layer.mlir --k 1000 --n 100 --block 16 --zeros u8 --bias --rows ? --norm layer
// RUN: onyx-run %t/layer.mlir --validate --check --atol=1e-4 --profile --input-set=@%t/x1000c.npy \
// RUN:   --input-set=@%t/x1000d.npy | FileCheck %s --check-prefix=NORM2

// A LayerNormalization of rows of K = 1001 (its scale and bias read value by
// value), float zero points.
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/layer1001.mlir --k 1001 --n 50 --block 32 --zeros f32 --rows 3 --norm layer
// RUN: onyx-run %t/layer1001.mlir --validate --check --atol=1e-4 --input=@%t/x1001.npy | FileCheck %s

// The residual Add after the product fused into its kernels too (the
// product then reads the norm's result through the fused body's argument).
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/residual.mlir --k 576 --n 576 --block 32 --zeros u8 --rows ? --norm rms --residual
// RUN: onyx-run %t/residual.mlir --validate --check --atol=1e-4 --profile --input-set=@%t/x576b.npy \
// RUN:   --input-set=@%t/x576c.npy | FileCheck %s --check-prefix=NORM2
// RUN: onyx-opt %t/residual.mlir --canonicalize --lower --target=lavapipe | FileCheck %s --check-prefix=FUSED
// FUSED-NOT: gpu.dispatch @add
// FUSED-NOT: gpu.dispatch @rms_norm
// FUSED: gpu.dispatch @matmul_nbits_gemv
// FUSED-NOT: gpu.dispatch @add
// FUSED-NOT: gpu.dispatch @rms_norm

// CHECK: output 0 vs ref: {{.*}}: PASS
// SETS4-COUNT-4: output 0 vs ref: {{.*}}: PASS
// SETS4-NOT: FAIL
// NORM2-NOT: norm
// NORM2-COUNT-2: output 0 vs ref: {{.*}}: PASS
// NORM2-NOT: FAIL

// Without subgroup arithmetic (a target of Vulkan's minimum but for the
// bindings), against the reference backend's results.
// RUN: %python %S/Inputs/gen_nbits_gemv.py %t/plain.mlir --k 4160 --n 77 --block 128 --zeros u8 --norm rms
// RUN: onyx-run %t/plain.mlir --backend=ref --input=@%t/x4160a.npy --output=@%t/plain.ref.npy
// RUN: onyx-opt %t/plain.mlir --lower -o %t/plain.gpu.mlir \
// RUN:   --target='{max_per_stage_descriptor_storage_buffers = 8, min_storage_buffer_offset_alignment = 16}'
// RUN: onyx-run %t/plain.gpu.mlir --validate --input=@%t/x4160a.npy \
// RUN:   --expected-output=@%t/plain.ref.npy --atol=1e-4 | FileCheck %s --check-prefix=PLAIN
// PLAIN: output 0: max abs error {{.*}}: PASS
// RUN: FileCheck %s --check-prefix=NVIDIA --input-file=%t/plain.gpu.mlir

// NVIDIA's target: 32-lane subgroups, the kernels compile.
// RUN: onyx-opt %t/rms.mlir --lower --target=nvidia | FileCheck %s --check-prefix=NVIDIA
// RUN: onyx-opt %t/bs128.mlir --lower --target=nvidia | FileCheck %s --check-prefix=NVIDIA
// NVIDIA-NOT: rms_norm
// NVIDIA: gpu.dispatch @matmul_nbits_gemv
// NVIDIA-NOT: rms_norm

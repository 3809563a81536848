// RUN: onyx-opt %s | FileCheck %s
// RUN: onyx-opt %s | onyx-opt | FileCheck %s
// RUN: onyx-opt %s --print-generic | onyx-opt | FileCheck %s
// RUN: onyx-opt %s --print-generic | FileCheck %s --check-prefix=GENERIC

// A whole gpu-dialect module in the custom form, and the same module after a
// trip through the generic form. The SPIR-V kernels are hand-assembled
// minimal compute shaders: two storage buffers (readonly, writeonly) and one
// uint push constant.

// The target records what the module assumes of the device; integers read
// without a type are i64.
// CHECK: module attributes {gpu.target = {features = ["int64"], max_compute_shared_memory_size = 32768 : i64, min_storage_buffer_offset_alignment = 16 : i64}} {
module attributes {gpu.target = {features = ["int64"], max_compute_shared_memory_size = 32768, min_storage_buffer_offset_alignment = 16}} {
  // The SPIR-V prints as hex, as large dense data does in MLIR.
  // CHECK: gpu.kernel @copy(read, write) workgroup_size(64, 1, 1) push_constants(i32) spirv(dense<"0x03022307{{[0-9A-F]+}}"> : tensor<133xi32>)
  // GENERIC: "gpu.kernel"() {bindings = ["read", "write"], entry_point = "main", push_constants = [i32], spirv = dense<"0x03022307{{[0-9A-F]+}}"> : tensor<133xi32>, sym_name = "copy", workgroup_size = [64, 1, 1]} : () -> ()
  gpu.kernel @copy(read, write) workgroup_size(64, 1, 1) push_constants(i32) spirv(dense<"0x030223070005010000000700110000000000000011000200010000000E00030000000000010000000F00080005000000010000006D61696E00000000020000000300000004000000100006000100000011000000400000000100000001000000470004000500000006000000040000004800040006000000000000001800000048000500060000000000000023000000000000004700030006000000020000004800040007000000000000001900000048000500070000000000000023000000000000004700030007000000020000004700040002000000220000000000000047000400020000002100000000000000470004000300000022000000000000004700040003000000210000000100000048000500080000000000000023000000000000004700030008000000020000001300020009000000210003000A00000009000000160003000B00000020000000150004000C00000020000000000000001D000300050000000B0000001E00030006000000050000001E00030007000000050000001E000300080000000C000000200004000D0000000C00000006000000200004000E0000000C00000007000000200004000F00000009000000080000003B0004000D000000020000000C0000003B0004000E000000030000000C0000003B0004000F0000000400000009000000360005000900000001000000000000000A000000F800020010000000FD00010038000100"> : tensor<133xi32>)
  // An entry point other than main is spelled out; other attributes follow.
  // CHECK: gpu.kernel @run(read, write) workgroup_size(64, 1, 1) push_constants(i32) entry_point("run") attributes {note = "named run"} spirv(dense<"0x03022307{{[0-9A-F]+}}"> : tensor<132xi32>)
  gpu.kernel @run(read, write) workgroup_size(64, 1, 1) push_constants(i32) entry_point("run") attributes {note = "named run"} spirv(dense<"0x030223070005010000000700110000000000000011000200010000000E00030000000000010000000F000700050000000100000072756E00020000000300000004000000100006000100000011000000400000000100000001000000470004000500000006000000040000004800040006000000000000001800000048000500060000000000000023000000000000004700030006000000020000004800040007000000000000001900000048000500070000000000000023000000000000004700030007000000020000004700040002000000220000000000000047000400020000002100000000000000470004000300000022000000000000004700040003000000210000000100000048000500080000000000000023000000000000004700030008000000020000001300020009000000210003000A00000009000000160003000B00000020000000150004000C00000020000000000000001D000300050000000B0000001E00030006000000050000001E00030007000000050000001E000300080000000C000000200004000D0000000C00000006000000200004000E0000000C00000007000000200004000F00000009000000080000003B0004000D000000020000000C0000003B0004000E000000030000000C0000003B0004000F0000000400000009000000360005000900000001000000000000000A000000F800020010000000FD00010038000100"> : tensor<132xi32>)
  // A kernel that uses 64-bit integers, which the target lists.
  // CHECK: gpu.kernel @wide(read, write)
  gpu.kernel @wide(read, write) workgroup_size(64, 1, 1) push_constants(i32) spirv(dense<"0x03022307000501000000070012000000000000001100020001000000110002000B0000000E00030000000000010000000F00080005000000010000006D61696E00000000020000000300000004000000100006000100000011000000400000000100000001000000470004000500000006000000040000004800040006000000000000001800000048000500060000000000000023000000000000004700030006000000020000004800040007000000000000001900000048000500070000000000000023000000000000004700030007000000020000004700040002000000220000000000000047000400020000002100000000000000470004000300000022000000000000004700040003000000210000000100000048000500080000000000000023000000000000004700030008000000020000001300020009000000210003000A00000009000000160003000B00000020000000150004000C0000002000000000000000150004000D00000040000000000000001D000300050000000B0000001E00030006000000050000001E00030007000000050000001E000300080000000C000000200004000E0000000C00000006000000200004000F0000000C00000007000000200004001000000009000000080000003B0004000E000000020000000C0000003B0004000F000000030000000C0000003B000400100000000400000009000000360005000900000001000000000000000A000000F800020011000000FD00010038000100"> : tensor<139xi32>)

  // CHECK-LABEL: func.func @main(%arg0: tensor<16xf32>) -> (tensor<4x4xf32>, tensor<2xf32>)
  func.func @main(%arg0: tensor<16xf32>) -> (tensor<4x4xf32>, tensor<2xf32>) {
    // CHECK-NEXT: %[[ARENA:.+]] = gpu.buffer arena : !gpu.buffer<256>
    // CHECK-NEXT: %[[WEIGHTS:.+]] = gpu.buffer weights : !gpu.buffer<64>
    // GENERIC: "gpu.buffer"() {kind = "arena"} : () -> !gpu.buffer<256>
    %arena = gpu.buffer arena : !gpu.buffer<256>
    %weights = gpu.buffer weights : !gpu.buffer<64>
    // CHECK-NEXT: %[[X:.+]] = gpu.view %[[ARENA]][0] : !gpu.buffer<256> to !gpu.view<16xf32>
    // CHECK-NEXT: %[[Y:.+]] = gpu.view %[[ARENA]][64] : !gpu.buffer<256> to !gpu.view<16xf32>
    // GENERIC: "gpu.view"(%0) {offset = 64 : i64} : (!gpu.buffer<256>) -> !gpu.view<16xf32>
    %x = gpu.view %arena[0] : !gpu.buffer<256> to !gpu.view<16xf32>
    %y = gpu.view %arena[64] : !gpu.buffer<256> to !gpu.view<16xf32>
    // A view of a view aliases its memory: a reshape without a copy.
    // CHECK-NEXT: %[[Y2:.+]] = gpu.view %[[Y]][0] : !gpu.view<16xf32> to !gpu.view<4x4xf32>
    %y2 = gpu.view %y[0] : !gpu.view<16xf32> to !gpu.view<4x4xf32>
    // CHECK-NEXT: %[[W:.+]] = gpu.weight %[[WEIGHTS]][0] : !gpu.buffer<64> = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
    // GENERIC: "gpu.weight"(%1) {offset = 0 : i64, value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>} : (!gpu.buffer<64>) -> !gpu.view<2xf32>
    %w = gpu.weight %weights[0] : !gpu.buffer<64> = dense<[1.0, 2.0]> : tensor<2xf32>
    // CHECK-NEXT: %[[Z:.+]] = gpu.view %[[ARENA]][128]
    %z = gpu.view %arena[128] : !gpu.buffer<256> to !gpu.view<2xf32>
    // CHECK-NEXT: gpu.upload %arg0, %[[X]] : tensor<16xf32> to !gpu.view<16xf32>
    // GENERIC: "gpu.upload"(%arg0, %2) : (tensor<16xf32>, !gpu.view<16xf32>) -> ()
    gpu.upload %arg0, %x : tensor<16xf32> to !gpu.view<16xf32>
    // CHECK-NEXT: gpu.dispatch @copy[1, 1, 1](%[[X]], %[[Y]]) push(16 : i32) : !gpu.view<16xf32>, !gpu.view<16xf32>
    // GENERIC: "gpu.dispatch"(%2, %3) {kernel = @copy, push_constants = [16 : i32], workgroups = [1, 1, 1]} : (!gpu.view<16xf32>, !gpu.view<16xf32>) -> ()
    gpu.dispatch @copy[1, 1, 1](%x, %y) push(16 : i32) : !gpu.view<16xf32>, !gpu.view<16xf32>
    // CHECK-NEXT: gpu.copy %[[W]], %[[Z]] : !gpu.view<2xf32> to !gpu.view<2xf32>
    gpu.copy %w, %z : !gpu.view<2xf32> to !gpu.view<2xf32>
    // CHECK-NEXT: %[[R0:.+]] = gpu.download %[[Y2]] : !gpu.view<4x4xf32> to tensor<4x4xf32>
    // CHECK-NEXT: %[[R1:.+]] = gpu.download %[[Z]] : !gpu.view<2xf32> to tensor<2xf32>
    // CHECK-NEXT: return %[[R0]], %[[R1]] : tensor<4x4xf32>, tensor<2xf32>
    // GENERIC: "gpu.download"(%4) : (!gpu.view<4x4xf32>) -> tensor<4x4xf32>
    %r0 = gpu.download %y2 : !gpu.view<4x4xf32> to tensor<4x4xf32>
    %r1 = gpu.download %z : !gpu.view<2xf32> to tensor<2xf32>
    return %r0, %r1 : tensor<4x4xf32>, tensor<2xf32>
  }
}
// The generic form prints the module's attributes last.
// GENERIC: }) {gpu.target = {features = ["int64"], max_compute_shared_memory_size = 32768 : i64, min_storage_buffer_offset_alignment = 16 : i64}} : () -> ()

// What parses at the nesting limit prints to text that parses again: the
// implicit module around top-level ops counts as a level, because the
// printer writes it out, and a module at the top (or directly inside one)
// does not, because that is where the printer puts it. Canonicalize and cse
// walk such IR without running out of stack.

// 254 regions in the implicit module, and a type in the innermost: the
// deepest that parses.
// RUN: %python -c "q = chr(34); n = 254; print((q + 't.a' + q + '() ({') * n + q + 't.b' + q + '() : () -> ()' + '}) : () -> ()' * n)" > %t.bare.mlir
// RUN: onyx-opt %t.bare.mlir --allow-unregistered-dialect --canonicalize --cse \
// RUN:   | onyx-opt --allow-unregistered-dialect --print-generic \
// RUN:   | onyx-opt --allow-unregistered-dialect | FileCheck %s
// CHECK: module {
// CHECK-COUNT-254: "t.a"() ({
// CHECK: "t.b"() : () -> ()

// The same inside an explicit module, and as the second of two top-level
// modules (which the printer nests in a module of its own).
// RUN: %python -c "q = chr(34); n = 254; print('module {' + (q + 't.a' + q + '() ({') * n + q + 't.b' + q + '() : () -> ()' + '}) : () -> ()' * n + '}')" > %t.module.mlir
// RUN: onyx-opt %t.module.mlir --allow-unregistered-dialect | onyx-opt --allow-unregistered-dialect | FileCheck %s
// RUN: %python -c "q = chr(34); n = 254; print('module {} module {' + (q + 't.a' + q + '() ({') * n + q + 't.b' + q + '() : () -> ()' + '}) : () -> ()' * n + '}')" > %t.two.mlir
// RUN: onyx-opt %t.two.mlir --allow-unregistered-dialect --print-generic \
// RUN:   | onyx-opt --allow-unregistered-dialect | FileCheck %s --check-prefix=TWO
// TWO: module {
// TWO-NEXT: module {
// TWO-NEXT: }
// TWO-NEXT: module {
// TWO-COUNT-254: "t.a"() ({

// One region more is an error.
// RUN: %python -c "q = chr(34); n = 255; print((q + 't.a' + q + '() ({') * n + q + 't.b' + q + '() : () -> ()' + '}) : () -> ()' * n)" > %t.deep.mlir
// RUN: not onyx-opt %t.deep.mlir --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: error: nesting is deeper than the limit of 256

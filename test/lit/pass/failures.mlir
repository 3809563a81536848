// A pass that fails stops the pipeline with its diagnostics and exit code
// 1, and nothing is printed. With --verify-each (the default) a pass that
// leaves invalid IR is caught right after it runs.
// RUN: not onyx-opt %s --test-pass-failure --cse --print-ir-after-all 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: not onyx-opt %s --test-pass-failure 2>/dev/null | count 0
// RUN: not onyx-opt %s --test-break-ir 2>/dev/null | count 0
// RUN: not onyx-opt %s --test-break-ir --cse --print-ir-after-all 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: onyx-opt %s --test-break-ir --verify-each=false | FileCheck %s --check-prefix=UNCHECKED
// RUN: onyx-opt %s --split-input-file --test-pass-failure --verify-diagnostics

// FAIL:     error: test-pass-failure failed as asked
// FAIL-NOT: IR Dump

// BROKEN:     error: empty block: expect at least a terminator
// BROKEN:     error: the IR is invalid after pass 'test-break-ir'
// BROKEN-NOT: IR Dump

// UNCHECKED:      func.func @f() {
// UNCHECKED-NEXT: }

// expected-error @below {{test-pass-failure failed as asked}}
module {
  func.func @f() {
    return
  }
}

// A bare op name resolves as in mlir-opt: in the default dialect of the
// nearest op in custom form around it (func.func: func; module and the top
// level: builtin; other ops: none), and generic-form ops do not change it.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect \
// RUN:   | FileCheck %s

// CHECK-LABEL: module @inner
// CHECK:       func.func @f
// CHECK-NEXT:    return
module {
  module @inner {
  }
  func.func @f() {
    return
  }
}

// -----

// At the top level only builtin ops may go without their prefix.
// expected-error @+1 {{custom op 'return' is unknown (tried 'builtin.return' as well)}}
return

// -----

// A function body's default dialect is func's, not builtin's.
func.func @f() {
  // expected-error @+1 {{custom op 'module' is unknown (tried 'func.module' as well)}}
  module {}
  return
}

// -----

// The regions of a generic-form op keep the default of the op around it:
// `return` is func.return there (misplaced, so the verifier refuses it).
func.func @g() {
  "test.region"() ({
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    return
  }) : () -> ()
  return
}

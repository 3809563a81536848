// --verify-diagnostics, as in mlir-opt: `expected-error`, `expected-note`
// and `expected-warning` comments name a diagnostic and the line it is at
// (the comment's own line, `@+N`, `@-N`, `@above`, `@below`); the run
// succeeds when exactly the expected diagnostics are emitted, and reports
// both the unexpected ones and the expected ones that did not come. The
// text between `{{` and `}}` is matched as a substring, not a regex.
// RUN: split-file %s %t
// RUN: onyx-opt %t/pass.mlir --allow-unregistered-dialect --split-input-file --verify-diagnostics
// RUN: mlir-opt %t/pass.mlir --allow-unregistered-dialect --split-input-file --verify-diagnostics
// RUN: not onyx-opt %t/fail.mlir --allow-unregistered-dialect --split-input-file --verify-diagnostics 2>&1 | FileCheck %s
// RUN: not mlir-opt %t/fail.mlir --allow-unregistered-dialect --split-input-file --verify-diagnostics 2>&1 | FileCheck %s

//--- pass.mlir
"t.a"() {a = 256 : i8} : () -> () // expected-error {{integer constant out of range for attribute}}

// -----

// expected-error @+1 {{out of range}}
"t.a"() {a = 256 : i8} : () -> ()

// -----

// expected-error @+3 {{out of range}}
// Lines in between are counted.

"t.a"() {a = 256 : i8} : () -> ()

// -----

"t.a"() {a = 256 : i8} : () -> ()
// expected-error @-1 {{out of range}}

// -----

"t.a"() {a = 256 : i8} : () -> ()
// expected-error @above {{out of range}}

// -----

// expected-error @below {{out of range}}
"t.a"() {a = 256 : i8} : () -> ()

// -----

// No space is needed before `@`.
// expected-error@+1 {{out of range}}
"t.a"() {a = 256 : i8} : () -> ()

// -----

// A note goes with its error, at its own line.
// expected-note @+1 {{see existing symbol definition here}}
func.func private @twice()
// expected-error @+1 {{redefinition of symbol named 'twice'}}
func.func private @twice()

//--- fail.mlir
// An error that was not expected.
"t.a"() {a = 256 : i8} : () -> ()
// CHECK: fail.mlir:1 offset :2:14: error: unexpected error: integer constant out of range for attribute

// -----

// An expected error that was not emitted.
// expected-error @+1 {{never emitted}}
"t.a"() : () -> ()
// CHECK: fail.mlir:5 offset :4:4: error: expected error "never emitted" was not produced

// -----

// `@below` is the next line, even if it is blank.
// expected-error @below {{out of range}}

"t.a"() {a = 256 : i8} : () -> ()
// CHECK: fail.mlir:12 offset :6:14: error: unexpected error: integer constant out of range for attribute
// CHECK: fail.mlir:12 offset :4:4: error: expected error "out of range" was not produced

// -----

// `{{.*}}` inside the braces is literal text.
// expected-error @+1 {{integer constant {{.*}} range}}
"t.a"() {a = 256 : i8} : () -> ()
// CHECK: fail.mlir:21 offset :5:14: error: unexpected error: integer constant out of range for attribute
// CHECK: fail.mlir:21 offset :4:4: error: expected error "integer constant {{[{][{]}}.*{{[}][}]}} range" was not produced

// -----

// A note that was not expected fails the run even though its error was.
// expected-error @+2 {{redefinition of symbol named 'twice'}}
func.func private @twice()
func.func private @twice()
// CHECK: fail.mlir:29 offset :5:1: error: unexpected note: see existing symbol definition here

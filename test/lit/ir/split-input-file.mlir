// --split-input-file: the input is cut at each split marker (`//` and
// five dashes) and every chunk is parsed, verified and printed on its own;
// the outputs are joined by marker lines. Diagnostics count lines from the
// start of their chunk, in a buffer named after the marker's line. A chunk
// that fails does not stop the others, with or without
// --verify-diagnostics; the exit code says whether any failed. mlir-opt
// prints the same output (third RUN line).
// RUN: onyx-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics | FileCheck %s
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics 2> %t.mlir.err | FileCheck %s
// RUN: not onyx-opt %s --allow-unregistered-dialect --split-input-file 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR --input-file=%t.err
// RUN: FileCheck %s --check-prefix=WARN --input-file=%t.err

// Under --verify-diagnostics, an expectation that fails in one chunk is
// reported and makes the run fail, but the other chunks are still
// processed and checked (the markers below are written with octal dashes).
// RUN: printf '"t.ok"() : () -> ()\n// \055\055\055\055\055\n// expected-error @+1 {{this error is not produced}}\n"t.quiet"() : () -> ()\n// \055\055\055\055\055\n// expected-error @+1 {{integer constant out of range}}\n"t.bad"() {a = 256 : i8} : () -> ()\n// \055\055\055\055\055\n"t.after"() : () -> ()\n' > %t.expect.mlir
// RUN: not onyx-opt %t.expect.mlir --allow-unregistered-dialect --split-input-file --verify-diagnostics 2> %t.expect.err | FileCheck %s --check-prefix=EXPECT-OUT
// RUN: FileCheck %s --check-prefix=EXPECT-ERR --input-file=%t.expect.err --implicit-check-not=error:
// EXPECT-OUT: "t.ok"() : () -> ()
// EXPECT-OUT: {{^}}// {{-----$}}
// EXPECT-OUT-NEXT: {{^}}module {
// EXPECT-OUT-NEXT: "t.quiet"() : () -> ()
// EXPECT-OUT: {{^}}// {{-----$}}
// EXPECT-OUT-NEXT: {{^}}// {{-----$}}
// EXPECT-OUT-NEXT: {{^}}module {
// EXPECT-OUT-NEXT: "t.after"() : () -> ()
// EXPECT-ERR: expect.mlir:2 offset :2:4: error: expected error "this error is not produced" was not produced

// Each chunk is a module of its own, so the same symbol may be defined in
// several chunks.
// CHECK: {{^}}module {
// CHECK-NEXT: func.func private @same_name()
// CHECK-NEXT: "t.first"() : () -> ()
// CHECK-NEXT: {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}// {{-----$}}
func.func private @same_name()
"t.first"() : () -> ()

// -----

// CHECK-NEXT: {{^}}module {
// CHECK-NEXT: func.func private @same_name()
// CHECK-NEXT: {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}// {{-----$}}
func.func private @same_name()

// -----

// Names of values and aliases do not carry over between chunks either.
// ERR: within split at {{.*}}split-input-file.mlir:[[# @LINE - 3]] offset :8:9: error: use of undeclared SSA value name
// ERR-NEXT: {{^}}"t.use"(%0) : (i32) -> (){{$}}
// ERR-NEXT: {{^}}        ^{{$}}
// expected-error @+1 {{use of undeclared SSA value name}}
"t.use"(%0) : (i32) -> ()

// A failed chunk prints nothing, only its marker.
// CHECK-NEXT: {{^}}// {{-----$}}

// -----

// The chunks after a failed one are processed.
// CHECK-NEXT: {{^}}module {
// CHECK-NEXT: "t.after_failure"() : () -> ()
// CHECK-NEXT: {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}// {{-----$}}
"t.after_failure"() : () -> ()

// -----

// A verifier error is located in its chunk too; its note as well.
// ERR: within split at {{.*}}split-input-file.mlir:[[# @LINE - 3]] offset :9:1: error: redefinition of symbol named 'dup'
// ERR: within split at {{.*}}split-input-file.mlir:[[# @LINE - 4]] offset :7:1: note: see existing symbol definition here
// expected-note @+1 {{see existing symbol definition here}}
func.func private @dup()
// expected-error @+1 {{redefinition of symbol named 'dup'}}
func.func private @dup()

// CHECK-NEXT: {{^}}// {{-----$}}

// The empty chunk between the next two markers is an empty module.
// CHECK-NEXT: {{^}}module {
// CHECK-NEXT: {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}// {{-----$}}

// -----
// -----

// The marker may end a line of code; four dashes are not a marker (a
// warning, printed before any chunk is processed, points at the near
// miss, which stays in the chunk).
// WARN: split-input-file.mlir:[[# @LINE + 3]]:7: warning: near miss with file split marker
// CHECK-NEXT: {{^}}module {
// CHECK-NEXT: "t.before_marker"() : () -> ()
// ----
// CHECK-NEXT: "t.after_near_miss"() : () -> ()
// CHECK-NEXT: {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}// {{-----$}}
"t.before_marker"() : () -> ()
"t.after_near_miss"() : () -> () // -----
// CHECK-NEXT: {{^}}module {
// CHECK-NEXT: "t.last"() : () -> ()
// CHECK-NEXT: {{^}}}
// CHECK-NOT: {{.}}
"t.last"() : () -> ()

// MLIR's generic operation form: operands, results and result groups,
// attribute dictionaries, properties `<{...}>`, regions and blocks with
// arguments; how SSA values and blocks are renumbered; and --print-generic,
// which prints every op (module, func.func and func.return included)
// in this form.
// RUN: onyx-opt %s --allow-unregistered-dialect --split-input-file | FileCheck %s
// RUN: onyx-opt %s --allow-unregistered-dialect --split-input-file --print-generic | FileCheck %s --check-prefix=GENERIC

// Names are replaced by numbers in order of definition; arguments of the
// entry block are %argN.
// CHECK-LABEL: func.func @operands_and_results
// CHECK-SAME: (%arg0: i32, %arg1: f32)
// CHECK-NEXT: "t.none"() : () -> ()
// CHECK-NEXT: %0 = "t.one"(%arg0) : (i32) -> i64
// CHECK-NEXT: %1 = "t.two"(%0, %arg1, %0) : (i64, f32, i64) -> tensor<2xf32>
// CHECK-NEXT: return
// GENERIC-LABEL: "func.func"() <{function_type = (i32, f32) -> (), sym_name = "operands_and_results"}> ({
// GENERIC-NEXT: ^bb0(%arg0: i32, %arg1: f32):
// GENERIC-NEXT: "t.none"() : () -> ()
// GENERIC-NEXT: %0 = "t.one"(%arg0) : (i32) -> i64
// GENERIC-NEXT: %1 = "t.two"(%0, %arg1, %0) : (i64, f32, i64) -> tensor<2xf32>
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
func.func @operands_and_results(%a: i32, %b: f32) {
  "t.none"() : () -> ()
  %named = "t.one"(%a) : (i32) -> i64
  %9 = "t.two"(%named, %b, %named) : (i64, f32, i64) -> tensor<2xf32>
  return
}

// -----

// A result group `%name:N` prints as `%K:N`; a use of its result i prints
// as `%K#i`. `%x#0` of a single-result op is just that result.
// CHECK-LABEL: func.func @result_groups
// CHECK-NEXT: %0:2 = "t.pair"() : () -> (i32, f32)
// CHECK-NEXT: %1 = "t.single"() : () -> i8
// CHECK-NEXT: %2:3 = "t.three"() : () -> (i8, i16, i32)
// CHECK-NEXT: "t.use"(%0#1, %0#0, %1, %2#2, %2#0) : (f32, i32, i8, i32, i8) -> ()
func.func @result_groups() {
  %p:2 = "t.pair"() : () -> (i32, f32)
  %s = "t.single"() : () -> i8
  %x:3 = "t.three"() : () -> (i8, i16, i32)
  "t.use"(%p#1, %p#0, %s#0, %x#2, %x#0) : (f32, i32, i8, i32, i8) -> ()
  return
}

// -----

// One result type prints without parentheses unless it is a function type.
// CHECK-LABEL: func.func @result_types
// CHECK-NEXT: %0 = "t.a"() : () -> i32
// CHECK-NEXT: %1 = "t.b"() : () -> ((i32) -> i32)
// CHECK-NEXT: "t.c"() : () -> ()
func.func @result_types() {
  %0 = "t.a"() : () -> (i32)
  %1 = "t.b"() : () -> ((i32) -> i32)
  "t.c"() : () -> ()
  return
}

// -----

// Attributes print sorted; an empty dictionary is left out.
// CHECK-LABEL: func.func @attribute_dictionary
// CHECK-NEXT: "t.a"() {a = 2 : i32, b, c = "x"} : () -> ()
// CHECK-NEXT: "t.b"() : () -> ()
func.func @attribute_dictionary() {
  "t.a"() {c = "x", b, a = 2 : i32} : () -> ()
  "t.b"() {} : () -> ()
  return
}

// -----

// Properties `<{...}>` of an unregistered op are read as attributes and
// print in its attribute dictionary.
// CHECK-LABEL: func.func @properties
// CHECK-NEXT: "t.props"() {a = 2 : i32, p = 1 : i32, q} : () -> ()
// CHECK-NEXT: "t.only_props"() {p = [1]} : () -> ()
func.func @properties() {
  "t.props"() <{p = 1 : i32, q}> {a = 2 : i32} : () -> ()
  "t.only_props"() <{p = [1]}> : () -> ()
  return
}

// -----

// Regions: one or several, empty, with an entry block that has arguments,
// with more blocks (numbered ^bbN in each region, and unreachable since no
// op here branches).
// CHECK-LABEL: func.func @regions
// CHECK-NEXT: "t.regions"() ({
// CHECK-NEXT: "t.a"() : () -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%arg0: i32, %arg1: i64):
// CHECK-NEXT: "t.b"(%arg0, %arg1) : (i32, i64) -> ()
// CHECK-NEXT: ^bb1:  // no predecessors
// CHECK-NEXT: "t.d"() : () -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: }) : () -> ()
func.func @regions() {
  "t.regions"() ({
    "t.a"() : () -> ()
  }, {
  ^entry(%a: i32, %b: i64):
    "t.b"(%a, %b) : (i32, i64) -> ()
  ^other:
    "t.d"() : () -> ()
  }, {
  }) : () -> ()
  return
}

// -----

// An empty entry block is kept, and prints with its label.
// CHECK-LABEL: func.func @empty_block
// CHECK-NEXT: "t.r"() ({
// CHECK-NEXT: ^bb0:
// CHECK-NEXT: }) : () -> ()
func.func @empty_block() {
  "t.r"() ({
  ^bb0:
  }) : () -> ()
  return
}

// -----

// Values in a nested region are numbered after all those of the enclosing
// region, even ones defined after the op; a nested region sees the values
// of enclosing ones.
// CHECK-LABEL: func.func @nested_numbering
// CHECK-NEXT: %0 = "t.a"() : () -> i32
// CHECK-NEXT: "t.r"() ({
// CHECK-NEXT: %2 = "t.b"(%0) : (i32) -> i32
// CHECK-NEXT: "t.use"(%2, %0) : (i32, i32) -> ()
// CHECK-NEXT: }) : () -> ()
// CHECK-NEXT: %1 = "t.c"() : () -> i32
func.func @nested_numbering() {
  %a = "t.a"() : () -> i32
  "t.r"() ({
    %b = "t.b"(%a) : (i32) -> i32
    "t.use"(%b, %a) : (i32, i32) -> ()
  }) : () -> ()
  %c = "t.c"() : () -> i32
  return
}

// -----

// Numbering restarts in each function.
// CHECK-LABEL: func.func @first
// CHECK-NEXT: %0 = "t.a"(%arg0)
// CHECK-LABEL: func.func @second
// CHECK-NEXT: %0 = "t.b"(%arg0)
func.func @first(%x: i32) {
  %v = "t.a"(%x) : (i32) -> i32
  return
}
func.func @second(%y: i32) {
  %w = "t.b"(%y) : (i32) -> i32
  return
}

// -----

// Generic ops at the top level, with regions holding generic ops.
// CHECK: {{^}}module {
// CHECK-NEXT: %0 = "t.top"() ({
// CHECK-NEXT: ^bb0(%arg0: index):
// CHECK-NEXT: "t.inner"(%arg0) : (index) -> ()
// CHECK-NEXT: }) {t.attr} : () -> tensor<*xf32>
// CHECK-NEXT: }
%0 = "t.top"() ({
^bb0(%i: index):
  "t.inner"(%i) : (index) -> ()
}) {t.attr} : () -> tensor<*xf32>

// -----

// The generic forms of module, func.func and func.return. A func.func's
// inherent attributes are properties; argument and result attributes too.
// GENERIC: {{^}}"builtin.module"() <{sym_name = "m"}> ({
// GENERIC-NEXT: "func.func"() <{arg_attrs = [{t.a}, {}], function_type = (i32, f32) -> (i32, f32), res_attrs = [{}, {t.r}], sym_name = "g", sym_visibility = "private"}> ({
// GENERIC-NEXT: ^bb0(%arg0: i32, %arg1: f32):
// GENERIC-NEXT: "func.return"(%arg0, %arg1) : (i32, f32) -> ()
// GENERIC-NEXT: }) {t.other} : () -> ()
// GENERIC-NEXT: "func.func"() <{function_type = () -> (), sym_name = "decl", sym_visibility = "private"}> ({
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) {t.m} : () -> ()
module @m attributes {t.m} {
  func.func private @g(%a: i32 {t.a}, %b: f32) -> (i32, f32 {t.r}) attributes {t.other} {
    return %a, %b : i32, f32
  }
  func.func private @decl()
}

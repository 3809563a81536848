// The custom forms of builtin.module, func.func and func.return, and the
// default-dialect rule: inside a func.func, `return` stands for
// func.return, while the regions of other ops print full names. The second
// RUN line checks the same expectations against mlir-opt, the reference.
// RUN: onyx-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics | FileCheck %s
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics | FileCheck %s

// Top-level ops are wrapped in an unnamed module.
// CHECK: {{^}}module {
// CHECK-NEXT: func.func private @wrapped()
// CHECK-NEXT: }
func.func private @wrapped()

// -----

// A single top-level module is kept as it is: named, with attributes
// (sorted, after the keyword `attributes`), and with an empty body.
// CHECK: {{^}}module @named attributes {t.a = 1 : i64, t.b} {
// CHECK-NEXT: }
module @named attributes {t.b, t.a = 1} {
}

// -----

// Two top-level modules are wrapped too; `builtin.module` is the same op.
// CHECK: {{^}}module {
// CHECK-NEXT: module @first {
// CHECK-NEXT: }
// CHECK-NEXT: module @second {
// CHECK-NEXT: }
// CHECK-NEXT: }
module @first {}
builtin.module @second {}

// -----

// CHECK: {{^}}module {
// CHECK-NEXT: module @outer {
// CHECK-NEXT: module {
// CHECK-NEXT: func.func private @f()
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
module {
  module @outer {
    module {
      func.func private @f()
    }
  }
}

// -----

// Arguments are renamed %argN; `func.return` prints as `return`.
// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%arg0: i32) -> i32 {
// CHECK-NEXT: return %arg0 : i32
// CHECK-NEXT: }
func.func @identity(%x: i32) -> i32 {
  func.return %x : i32
}

// -----

// CHECK-LABEL: func.func @no_results() {
// CHECK-NEXT: return{{$}}
// CHECK-NEXT: }
func.func @no_results() {
  return
}

// -----

// Several results print in parentheses; one result without.
// CHECK-LABEL: func.func @multiple_results
// CHECK-SAME: (%arg0: i32, %arg1: f32) -> (f32, i32) {
// CHECK-NEXT: return %arg1, %arg0 : f32, i32
// CHECK-LABEL: func.func @one_result_in_parens() -> i32 {
// CHECK-NEXT: %[[C:.+]] = "t.c"() : () -> i32
// CHECK-NEXT: return %[[C]] : i32
func.func @multiple_results(%arg0: i32, %arg1: f32) -> (f32, i32) {
  return %arg1, %arg0 : f32, i32
}
func.func @one_result_in_parens() -> (i32) {
  %0 = "t.c"() : () -> i32
  return %0 : i32
}

// -----

// A function type as the result needs the parentheses.
// CHECK-LABEL: func.func @function_result() -> (() -> ()) {
// CHECK-NEXT: %[[F:.+]] = "t.f"() : () -> (() -> ())
// CHECK-NEXT: return %[[F]] : () -> ()
func.func @function_result() -> (() -> ()) {
  %0 = "t.f"() : () -> (() -> ())
  return %0 : () -> ()
}

// -----

// External functions print their signature without names, whether it was
// written with names or not.
// CHECK-LABEL: func.func private @external_named(i32, f32) -> i1
// CHECK-LABEL: func.func private @external_unnamed(i32, f32) -> i1
func.func private @external_named(%a: i32, %b: f32) -> i1
func.func private @external_unnamed(i32, f32) -> i1

// -----

// Argument and result attributes; a result with attributes needs the
// parentheses.
// CHECK-LABEL: func.func private @external_attrs(i32 {t.a}, f32) -> (f32 {t.b = 1 : i64}, i1)
// CHECK-LABEL: func.func private @external_unnamed_attrs(i32, f32 {t.c = "x"})
// CHECK-LABEL: func.func private @result_attr() -> (i1 {t.d})
func.func private @external_attrs(%a: i32 {t.a}, %b: f32) -> (f32 {t.b = 1}, i1)
func.func private @external_unnamed_attrs(i32, f32 {t.c = "x"})
func.func private @result_attr() -> (i1 {t.d})

// -----

// CHECK-LABEL: func.func @body_arg_attrs
// CHECK-SAME: (%arg0: tensor<?xf32> {t.a, t.b = 2 : i64}, %arg1: i32) -> (i32 {t.r}) {
// CHECK-NEXT: return %arg1 : i32
func.func @body_arg_attrs(%x: tensor<?xf32> {t.b = 2, t.a}, %y: i32) -> (i32 {t.r}) {
  return %y : i32
}

// -----

// Other attributes of a function follow the keyword `attributes`.
// CHECK-LABEL: func.func private @fn_attrs() attributes {t.e}
// CHECK-LABEL: func.func @fn_attrs_body() attributes {t.f = "x"} {
func.func private @fn_attrs() attributes {t.e}
func.func @fn_attrs_body() attributes {t.f = "x"} {
  return
}

// -----

// Visibility keywords.
// CHECK-LABEL: func.func private @v_private()
// CHECK-LABEL: func.func nested @v_nested() {
// CHECK-LABEL: func.func public @v_public() {
// CHECK-LABEL: func.func @v_default() {
func.func private @v_private()
func.func nested @v_nested() {
  return
}
func.func public @v_public() {
  return
}
func.func @v_default() {
  return
}

// -----

// Quoted symbol names stay quoted when they are not identifiers.
// CHECK-LABEL: func.func private @"with space"()
// CHECK-LABEL: func.func private @plain()
func.func private @"with space"()
func.func private @"plain"()

// -----

// The generic form of func.func and func.return reads back in custom form.
// CHECK-LABEL: func.func private @from_generic
// CHECK-SAME: (%arg0: i32) -> i32 attributes {t.y} {
// CHECK-NEXT: return %arg0 : i32
"func.func"() <{function_type = (i32) -> i32, sym_name = "from_generic", sym_visibility = "private"}> ({
^bb0(%a: i32):
  "func.return"(%a) : (i32) -> ()
}) {t.y} : () -> ()

// -----

// The region of an op without a custom form has no default dialect: ops in
// it print their full names, and `module` may be used again.
// CHECK-LABEL: func.func @in_generic_region
// CHECK-NEXT: "t.wrap"() ({
// CHECK-NEXT: func.func @inner() {
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: builtin.module {
// CHECK-NEXT: }
// CHECK-NEXT: }) : () -> ()
// CHECK-NEXT: return
func.func @in_generic_region() {
  "t.wrap"() ({
    func.func @inner() {
      return
    }
    builtin.module {}
  }) : () -> ()
  return
}

// -----

// CHECK-LABEL: "t.top"() ({
// CHECK-NEXT: module {
// CHECK-NEXT: }
// CHECK-NEXT: }) : () -> ()
"t.top"() ({
  module {}
}) : () -> ()

// -----

// Inside a func.func, even in another op's region, `return` is
// func.return; that one is not directly in a function.
func.func @return_in_generic_region() {
  "t.wrap"() ({
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    return
  }) : () -> ()
  return
}

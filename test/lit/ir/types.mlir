// Every builtin type syntax and how it prints back: integers of any width
// and signedness, index, floats, none, ranked/unranked tensors, function
// types, and opaque types of unregistered dialects. The second RUN line
// checks the same expectations against mlir-opt, the reference.
// RUN: onyx-opt %s --allow-unregistered-dialect --split-input-file | FileCheck %s
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file | FileCheck %s

// CHECK-LABEL: func.func private @signless
// CHECK-SAME: (i1, i7, i8, i32, i64, i65, i128, i16777215)
func.func private @signless(i1, i7, i8, i32, i64, i65, i128, i16777215)

// -----

// CHECK-LABEL: func.func private @signed_unsigned
// CHECK-SAME: (si1, si8, si33, ui1, ui16, ui128)
func.func private @signed_unsigned(si1, si8, si33, ui1, ui16, ui128)

// -----

// CHECK-LABEL: func.func private @index_float_none
// CHECK-SAME: (index, f16, bf16, f32, f64, none)
func.func private @index_float_none(index, f16, bf16, f32, f64, none)

// -----

// Static, dynamic and zero-sized dimensions, and rank 0.
// CHECK-LABEL: func.func private @ranked_tensors
// CHECK-SAME: (tensor<2x3xf32>, tensor<?x4xi8>, tensor<?x?xindex>, tensor<0x5xbf16>, tensor<f32>, tensor<1x1x1x1x1x1xi1>)
func.func private @ranked_tensors(tensor<2x3xf32>, tensor<?x4xi8>, tensor<?x?xindex>, tensor<0x5xbf16>, tensor<f32>, tensor<1x1x1x1x1x1xi1>)

// -----

// CHECK-LABEL: func.func private @unranked_tensors
// CHECK-SAME: (tensor<*xf32>, tensor<*xui8>)
func.func private @unranked_tensors(tensor<*xf32>, tensor<*xui8>)

// -----

// A dimension list may end in `x0` right before a type starting with `f`:
// `0xf32` still means `0 x f32`, not a hex number.
// CHECK-LABEL: func.func private @zero_then_float
// CHECK-SAME: (tensor<0xf32>, tensor<2x0xf16>)
func.func private @zero_then_float(tensor<0xf32>, tensor<2x0xf16>)

// -----

// Types that are used as values keep their exact spelling.
// CHECK-LABEL: func.func @tensor_of_values
// CHECK: "t.values"() : () -> (tensor<?xf32>, tensor<*xi32>, tensor<i1>)
func.func @tensor_of_values() {
  %0:3 = "t.values"() : () -> (tensor<?xf32>, tensor<*xi32>, tensor<i1>)
  return
}

// -----

// A single result prints without parentheses, unless it is itself a
// function type; parentheses around one plain result are dropped.
// CHECK-LABEL: func.func @function_types
// CHECK: "t.types"() {
// CHECK-SAME: a = () -> ()
// CHECK-SAME: b = (i32) -> i32
// CHECK-SAME: c = (i32, f32) -> (i64, f64)
// CHECK-SAME: d = (() -> ()) -> (() -> ())
// CHECK-SAME: e = ((i1) -> i2) -> ((i3) -> i4, i5)
// CHECK-SAME: f = () -> i32
// CHECK-SAME: g = (tensor<?xf32>) -> tensor<*xf32>
func.func @function_types() {
  "t.types"() {a = () -> (), b = (i32) -> i32, c = (i32, f32) -> (i64, f64), d = (() -> ()) -> (() -> ()), e = ((i1) -> i2) -> ((i3) -> i4, i5), f = () -> (i32), g = (tensor<?xf32>) -> tensor<*xf32>} : () -> ()
  return
}

// -----

// Function types as argument, result and value types.
// CHECK-LABEL: func.func private @function_typed_values
// CHECK-SAME: ((i32) -> i32) -> ((f32) -> (), i1)
func.func private @function_typed_values((i32) -> i32) -> ((f32) -> (), i1)

// -----

// CHECK-LABEL: func.func @function_result_of_op
// CHECK: %[[F:.+]] = "t.fn"() : () -> ((i32) -> i32)
// CHECK: "t.use"(%[[F]]) : ((i32) -> i32) -> ()
func.func @function_result_of_op() {
  %0 = "t.fn"() : () -> ((i32) -> i32)
  "t.use"(%0) : ((i32) -> i32) -> ()
  return
}

// -----

// Types of unregistered dialects are kept as text, with nested brackets and
// strings that contain brackets.
// CHECK-LABEL: func.func private @opaque_types
// CHECK-SAME: (!foo.bar, !foo.bar<1, 2>, !foo.bar<"x>y">, !foo.bar<a<b<c>>>, !foo.bar<[1, {2}], (3)>, !foo.bar<>, !foo.a.b)
func.func private @opaque_types(!foo.bar, !foo.bar<1, 2>, !foo.bar<"x>y">, !foo.bar<a<b<c>>>, !foo.bar<[1, {2}], (3)>, !foo.bar<>, !foo.a.b)

// -----

// `!ns<body>`: a body that is an identifier (with an optional `<...>`)
// prints in the pretty form `!ns.body`; any other body stays inside `<>`.
// CHECK-LABEL: func.func private @opaque_verbose
// CHECK-SAME: (!foo.bar, !foo.bar<1>, !foo<"bar">, !foo<"baz<">, !foo<1 : i32>, !foo<bar baz>)
func.func private @opaque_verbose(!foo<bar>, !foo<bar<1>>, !foo<"bar">, !foo<"baz<">, !foo<1 : i32>, !foo<bar baz>)

// -----

// Opaque types inside other types.
// CHECK-LABEL: func.func private @opaque_nested
// CHECK-SAME: (tensor<2x!foo.elt<f32>>, () -> !foo.t)
func.func private @opaque_nested(tensor<2x!foo.elt<f32>>, () -> !foo.t)

// -----

// A type alias is replaced by the type it names.
!tensor_alias = tensor<4x?xf32>
!opaque_alias = !foo.bar<"x">
// CHECK-LABEL: func.func private @type_aliases
// CHECK-SAME: (tensor<4x?xf32>, !foo.bar<"x">)
func.func private @type_aliases(!tensor_alias, !opaque_alias)

// Each error of the verifier, as reported after parsing: uses that are not
// dominated by their definition, terminators, symbol tables, the rules of
// builtin.module, func.func and func.return, and ops of unregistered
// dialects when they are not allowed. Scoping errors that the parser
// already catches are shown next to the dominance errors they resemble.
// RUN: split-file %s %t
// RUN: onyx-opt %t/errors.mlir --allow-unregistered-dialect --split-input-file --verify-diagnostics
// RUN: onyx-opt %t/unregistered.mlir --split-input-file --verify-diagnostics

//--- errors.mlir

func.func @use_before_def_in_block() {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "t.use"(%0) : (i32) -> ()
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %0 = "t.def"() : () -> i32
  return
}

// -----

func.func @use_by_its_own_definition() {
  // expected-error @+2 {{operand #0 does not dominate this use}}
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %0 = "t.self"(%0) : (i32) -> i32
  return
}

// -----

// A nested region sees the values of the enclosing region that are defined
// before the op that holds it, not those defined after.
func.func @use_in_nested_region_before_def() {
  "t.wrap"() ({
    // expected-error @+1 {{operand #0 does not dominate this use}}
    "t.use"(%0) : (i32) -> ()
  }) : () -> ()
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %0 = "t.def"() : () -> i32
  return
}

// -----

// Two levels down.
func.func @use_two_regions_deep_before_def() {
  "t.wrap"() ({
    "t.wrap"() ({
      // expected-error @+1 {{operand #0 does not dominate this use}}
      "t.use"(%0) : (i32) -> ()
    }) : () -> ()
  }) : () -> ()
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %0 = "t.def"() : () -> i32
  return
}

// -----

// A value of a later block: no block branches, so none dominates another.
func.func @use_of_later_block() {
  "t.wrap"() ({
    // expected-error @+1 {{operand #0 does not dominate this use}}
    "t.use"(%0) : (i32) -> ()
  ^bb1:
    // expected-note @+1 {{operand defined here (op in the same region)}}
    %0 = "t.def"() : () -> i32
  }) : () -> ()
  return
}

// -----

// Values of a nested region are not visible after it: the parser reports
// the name as undeclared.
func.func @use_of_nested_region_value() {
  "t.wrap"() ({
    %0 = "t.def"() : () -> i32
  }) : () -> ()
  // expected-error @+1 {{use of undeclared SSA value name}}
  "t.use"(%0) : (i32) -> ()
  return
}

// -----

// Nor does a sibling region see the values of another; a use that comes
// first reads as a forward reference, which the verifier rejects.
func.func @use_of_sibling_region_value() {
  "t.wrap"() ({
    // expected-error @+1 {{operand #0 does not dominate this use}}
    "t.use"(%0) : (i32) -> ()
  }, {
    // expected-note @+1 {{operand defined here (op is neither in a parent nor in a child region)}}
    %0 = "t.def"() : () -> i32
  }) : () -> ()
  return
}

// -----

// A function is isolated from above: the values around it are not
// visible inside (onyx's parser reports this; mlir-opt's verifier reports
// "using value defined outside the region").
%outer = "t.def"() : () -> i32
func.func @use_across_isolated_region() {
  // expected-error @+1 {{use of undeclared SSA value name}}
  "t.use"(%outer) : (i32) -> ()
  return
}

// -----

// expected-error @+1 {{empty block: expect at least a terminator}}
"func.func"() <{function_type = () -> (), sym_name = "empty_body"}> ({
^bb0:
}) : () -> ()

// -----

// The last op of a function body must be a terminator (an unregistered op
// might be one, a registered op that is not one cannot).
func.func @missing_terminator() {
  // expected-error @+1 {{block with no terminator, has}}
  builtin.module {}
}

// -----

func.func @terminator_not_last() {
  // expected-error @+1 {{'func.return' op must be the last operation in the parent block}}
  return
  "t.op"() : () -> ()
}

// -----

// expected-note @+1 {{see existing symbol definition here}}
func.func private @dup()
// expected-error @+1 {{redefinition of symbol named 'dup'}}
func.func private @dup()

// -----

// Symbols are unique per symbol table: the same name in a nested module is
// fine, but two nested modules cannot share a name.
func.func private @shared()
// expected-note @+1 {{see existing symbol definition here}}
module @m {
  func.func private @shared()
}
// expected-error @+1 {{redefinition of symbol named 'm'}}
module @m {
}

// -----

// expected-error @+1 {{'builtin.module' op expects a body block without arguments}}
"builtin.module"() ({
^bb0(%a: i32):
}) : () -> ()

// -----

// expected-error @+1 {{'builtin.module' op expects region #0 to have 0 or 1 blocks}}
"builtin.module"() ({
  "t.a"() : () -> ()
^bb1:
  "t.b"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'builtin.module' op Operations with a 'SymbolTable' must have exactly one region}}
"builtin.module"() ({
^bb0:
}, {
^bb0:
}) : () -> ()

// -----

// expected-error @+1 {{'builtin.module' op requires zero results}}
%0 = "builtin.module"() ({
^bb0:
}) : () -> i32

// -----

// expected-error @+1 {{'builtin.module' op expects 'sym_name' to be a string}}
"builtin.module"() <{sym_name = 1 : i32}> ({
^bb0:
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op requires string attribute 'sym_name'}}
"func.func"() <{function_type = () -> ()}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op requires a 'function_type' attribute of function type}}
"func.func"() <{function_type = i32, sym_name = "f"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op expects 'arg_attrs' to be an array of 1 dictionaries}}
"func.func"() <{arg_attrs = [{}, {}], function_type = (i32) -> (), sym_name = "f"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op visibility expected to be one of ["public", "private", "nested"], but got "bogus"}}
"func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "bogus"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op requires one region}}
"func.func"() <{function_type = () -> (), sym_name = "f"}> : () -> ()

// -----

// expected-error @+1 {{'func.func' op requires zero results}}
%0 = "func.func"() <{function_type = () -> (), sym_name = "f"}> ({
  "func.return"() : () -> ()
}) : () -> i32

// -----

// onyx has no branches, so a function body is a single block.
// expected-error @+1 {{'func.func' op expects a body region with exactly one block}}
func.func @two_blocks() {
  "t.a"() : () -> ()
^bb1:
  return
}

// -----

// expected-error @+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op type of entry block argument #0(f32) must match the type of the corresponding argument in function signature(i32)}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
^bb0(%arg0: f32):
  "func.return"() : () -> ()
}) : () -> ()

// -----

func.func @return_too_many(%arg0: i32) {
  // expected-error @+1 {{'func.return' op has 1 operands, but enclosing function (@return_too_many) returns 0}}
  return %arg0 : i32
}

// -----

func.func @return_too_few() -> i32 {
  // expected-error @+1 {{'func.return' op has 0 operands, but enclosing function (@return_too_few) returns 1}}
  return
}

// -----

func.func @return_type_mismatch(%arg0: i32) -> (i32, f32) {
  // expected-error @+1 {{type of return operand 1 (i32) doesn't match function result type (f32) in function @return_type_mismatch}}
  return %arg0, %arg0 : i32, i32
}

// -----

// expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
"func.return"() : () -> ()

// -----

func.func @return_with_result() {
  // expected-error @+1 {{'func.return' op requires zero results}}
  %0 = "func.return"() : () -> i32
}

// -----

func.func @return_with_region() {
  // expected-error @+1 {{'func.return' op requires zero regions}}
  "func.return"() ({
    "t.x"() : () -> ()
  }) : () -> ()
}

//--- unregistered.mlir

// expected-error @+1 {{operation 't.op' of unregistered dialect 't'. If this is intended, use --allow-unregistered-dialect}}
"t.op"() : () -> ()

// -----

// A registered dialect knows all its ops.
// expected-error @+1 {{unregistered operation 'func.call' found in dialect ('func') that does not allow unknown operations}}
"func.call"() : () -> ()

// -----

// expected-error @+1 {{type '!foo.bar<1>' created with unregistered dialect 'foo'. If this is intended, use --allow-unregistered-dialect}}
func.func private @opaque_type(!foo.bar<1>)

// -----

// expected-error @+1 {{attribute '#foo<"x y">' created with unregistered dialect 'foo'. If this is intended, use --allow-unregistered-dialect}}
func.func private @opaque_attr() attributes {a = #foo<"x y">}

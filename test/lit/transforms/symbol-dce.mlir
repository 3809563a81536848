// RUN: onyx-opt %s --split-input-file --allow-unregistered-dialect --symbol-dce | FileCheck %s

// Private functions nobody refers to go; public ones and referenced private
// ones stay.
// CHECK-LABEL: {{^}}module {
// CHECK-NOT:   @unused
// CHECK-NOT:   @declaration
// CHECK:       func.func private @used
// CHECK:       func.func @public
// CHECK-NOT:   @unused
func.func private @unused() {
  return
}
func.func private @declaration(i32) -> i32
func.func private @used() {
  return
}
func.func @public() {
  "test.side_effect"() {callee = @used} : () -> ()
  return
}

// -----

// Dead private functions that refer to each other, or only to themselves,
// go together; one referenced only from a dead one goes too.
// CHECK-LABEL: {{^}}module {
// CHECK-NEXT:  func.func @main
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  }
func.func private @ping() {
  "test.side_effect"() {callee = @pong} : () -> ()
  return
}
func.func private @pong() {
  "test.side_effect"() {callee = @ping} : () -> ()
  return
}
func.func private @self() {
  "test.side_effect"() {callee = @self} : () -> ()
  return
}
func.func private @leaf() {
  return
}
func.func private @caller_of_leaf() {
  "test.side_effect"() {callee = @leaf} : () -> ()
  return
}
func.func @main() {
  return
}

// -----

// References count wherever they are: inside arrays and dictionaries, in
// ops at module level, and through a private function kept alive.
// CHECK-LABEL: {{^}}module {
// CHECK-DAG:   func.func private @in_array
// CHECK-DAG:   func.func private @in_dict
// CHECK-DAG:   func.func private @from_module_op
// CHECK-DAG:   func.func private @transitive
// CHECK-DAG:   func.func private @first
func.func private @in_array()
func.func private @in_dict()
func.func private @from_module_op()
func.func private @transitive()
func.func private @first() {
  "test.side_effect"() {callee = @transitive} : () -> ()
  return
}
func.func @main() {
  "test.side_effect"() {refs = [1 : i32, [@in_array]], table = {entry = {f = @in_dict}}} : () -> ()
  "test.side_effect"() {callee = @first} : () -> ()
  return
}
"foo.global"() {init = @from_module_op} : () -> ()

// -----

// A nested module is a symbol table of its own: its private functions are
// judged by the references inside it. A reference into it from outside
// (`@inner::@f`) names the module, which is not private.
// CHECK-LABEL: {{^}}module {
// CHECK:       module @inner
// CHECK-NEXT:    func.func private @kept
// CHECK-NEXT:    func.func @entry
// CHECK:       func.func @main
// CHECK-NOT:   private @dropped
module @inner {
  func.func private @dropped()
  func.func private @kept()
  func.func @entry() {
    "test.side_effect"() {callee = @kept} : () -> ()
    return
  }
}
func.func private @dropped()
func.func @main() {
  "test.side_effect"() {callee = @inner::@entry} : () -> ()
  return
}

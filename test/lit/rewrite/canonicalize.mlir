// Folding and canonicalization patterns: what --canonicalize does to each
// kind of test op, one behaviour per function.
// RUN: onyx-opt %s --split-input-file --canonicalize | FileCheck %s

// Constant operands fold, through a chain of ops; the dialect materializes
// each result as a new constant and the inputs die.
// CHECK-LABEL: func.func @fold_chain
func.func @fold_chain() -> i32 {
  // CHECK-NEXT: %[[C:.+]] = "test.constant"() {value = -6 : i32}
  // CHECK-NEXT: return %[[C]]
  %c1 = "test.constant"() {value = 1 : i32} : () -> i32
  %c2 = "test.constant"() {value = 2 : i32} : () -> i32
  %0 = "test.add"(%c1, %c2) : (i32, i32) -> i32
  %1 = "test.mul"(%0, %c2) : (i32, i32) -> i32
  %2 = "test.negate"(%1) : (i32) -> i32
  return %2 : i32
}

// -----

// Folding computes in the width of the type, wrapping around.
// CHECK-LABEL: func.func @fold_wraps
func.func @fold_wraps() -> (i32, i64) {
  // CHECK-DAG: %[[A:.+]] = "test.constant"() {value = -2147483648 : i32}
  // CHECK-DAG: %[[B:.+]] = "test.constant"() {value = 2147483648 : i64}
  // CHECK:     return %[[A]], %[[B]]
  %max32 = "test.constant"() {value = 2147483647 : i32} : () -> i32
  %one32 = "test.constant"() {value = 1 : i32} : () -> i32
  %max64 = "test.constant"() {value = 2147483647 : i64} : () -> i64
  %one64 = "test.constant"() {value = 1 : i64} : () -> i64
  %0 = "test.add"(%max32, %one32) : (i32, i32) -> i32
  %1 = "test.add"(%max64, %one64) : (i64, i64) -> i64
  return %0, %1 : i32, i64
}

// -----

// A fold may return an existing value: x + 0, 0 + x and x * 1 are x.
// CHECK-LABEL: func.func @fold_to_value
func.func @fold_to_value(%a: i32) -> (i32, i32, i32) {
  // CHECK-NEXT: return %arg0, %arg0, %arg0
  %c0 = "test.constant"() {value = 0 : i32} : () -> i32
  %c1 = "test.constant"() {value = 1 : i32} : () -> i32
  %0 = "test.add"(%a, %c0) : (i32, i32) -> i32
  %1 = "test.add"(%c0, %a) : (i32, i32) -> i32
  %2 = "test.mul"(%a, %c1) : (i32, i32) -> i32
  return %0, %1, %2 : i32, i32, i32
}

// -----

// x * 0 folds to the zero constant it already has.
// CHECK-LABEL: func.func @fold_to_zero
func.func @fold_to_zero(%a: i32) -> i32 {
  // CHECK-NEXT: %[[Z:.+]] = "test.constant"() {value = 0 : i32}
  // CHECK-NEXT: return %[[Z]]
  %c0 = "test.constant"() {value = 0 : i32} : () -> i32
  %0 = "test.mul"(%a, %c0) : (i32, i32) -> i32
  return %0 : i32
}

// -----

// An in-place fold changes the op itself (test.mul moves a constant to
// the right) and the op is folded again: 1 * x -> x * 1 -> x.
// CHECK-LABEL: func.func @fold_in_place
func.func @fold_in_place(%a: i32, %b: i32) -> (i32, i32) {
  // CHECK-NEXT: %[[C:.+]] = "test.constant"() {value = 5 : i32}
  // CHECK-NEXT: %[[M:.+]] = "test.mul"(%arg1, %[[C]])
  // CHECK-NEXT: return %arg0, %[[M]]
  %c1 = "test.constant"() {value = 1 : i32} : () -> i32
  %c5 = "test.constant"() {value = 5 : i32} : () -> i32
  %0 = "test.mul"(%c1, %a) : (i32, i32) -> i32
  %1 = "test.mul"(%c5, %b) : (i32, i32) -> i32
  return %0, %1 : i32, i32
}

// -----

// A pattern that modifies its op in place: the constant operand of the
// commutative test.add goes to the right.
// CHECK-LABEL: func.func @commutative_constant_to_right
func.func @commutative_constant_to_right(%a: i32) -> i32 {
  // CHECK-NEXT: %[[C:.+]] = "test.constant"() {value = 7 : i32}
  // CHECK-NEXT: %[[X:.+]] = "test.add"(%arg0, %[[C]])
  // CHECK-NEXT: return %[[X]]
  %c7 = "test.constant"() {value = 7 : i32} : () -> i32
  %0 = "test.add"(%c7, %a) : (i32, i32) -> i32
  return %0 : i32
}

// -----

// A pattern that replaces its op with an existing value: -(-x) is x, and
// the inner negation dies.
// CHECK-LABEL: func.func @involution
func.func @involution(%a: i32) -> i32 {
  // CHECK-NEXT: return %arg0
  %0 = "test.negate"(%a) : (i32) -> i32
  %1 = "test.negate"(%0) : (i32) -> i32
  return %1 : i32
}

// -----

// A pattern that creates ops: a - b becomes a + (-b).
// CHECK-LABEL: func.func @creates_ops
func.func @creates_ops(%a: i32, %b: i32) -> i32 {
  // CHECK-NEXT: %[[N:.+]] = "test.negate"(%arg1)
  // CHECK-NEXT: %[[X:.+]] = "test.add"(%arg0, %[[N]])
  // CHECK-NEXT: return %[[X]]
  %0 = "test.sub"(%a, %b) : (i32, i32) -> i32
  return %0 : i32
}

// -----

// Created ops are canonicalized too: a - (-b) becomes a + b.
// CHECK-LABEL: func.func @created_ops_are_revisited
func.func @created_ops_are_revisited(%a: i32, %b: i32) -> i32 {
  // CHECK-NEXT: %[[X:.+]] = "test.add"(%arg0, %arg1)
  // CHECK-NEXT: return %[[X]]
  %0 = "test.negate"(%b) : (i32) -> i32
  %1 = "test.sub"(%a, %0) : (i32, i32) -> i32
  return %1 : i32
}

// -----

// A pattern that erases its root.
// CHECK-LABEL: func.func @erases_root
func.func @erases_root() {
  // CHECK-NEXT: return
  "test.erase_me"() : () -> ()
  return
}

// -----

// A chain rewritten one step per application: op_a -> op_b -> op_c.
// CHECK-LABEL: func.func @chain
func.func @chain(%a: i32) -> i32 {
  // CHECK-NEXT: %[[C:.+]] = "test.op_c"(%arg0) {tag = "kept"}
  // CHECK-NEXT: return %[[C]]
  %0 = "test.op_a"(%a) {tag = "kept"} : (i32) -> i32
  return %0 : i32
}

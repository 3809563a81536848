// canonicalize counts what it did: pattern applications, folds and dead
// ops erased.
// RUN: onyx-opt %s --canonicalize --pass-statistics -o /dev/null 2>&1 | FileCheck %s

// CHECK:      Canonicalizer
// CHECK-NEXT:   (S) 3 num-rewrites - Number of pattern applications
// CHECK-NEXT:   (S) 1 num-folds - Number of folded operations
// CHECK-NEXT:   (S) 3 num-erasures - Number of dead operations erased
func.func @counts(%a: i32) -> i32 {
  %c1 = "test.constant"() {value = 1 : i32} : () -> i32
  %c2 = "test.constant"() {value = 2 : i32} : () -> i32
  %0 = "test.add"(%c1, %c2) : (i32, i32) -> i32
  %1 = "test.mul"(%a, %0) : (i32, i32) -> i32
  %2 = "test.negate"(%1) : (i32) -> i32
  %3 = "test.negate"(%2) : (i32) -> i32
  %4 = "test.op_a"(%3) : (i32) -> i32
  return %4 : i32
}

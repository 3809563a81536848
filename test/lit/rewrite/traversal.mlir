// The order in which ops are visited: top-down (program order, the
// default of canonicalize) or bottom-up (from the end of each block).
// Constants made by folding are placed in the order they are created, so
// the two orders show in the output.
// RUN: onyx-opt %s --canonicalize | FileCheck %s --check-prefix=TOPDOWN
// RUN: onyx-opt %s --canonicalize=top-down=false | FileCheck %s --check-prefix=BOTTOMUP
// RUN: onyx-opt %s --canonicalize=trace=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRACE-TOPDOWN
// RUN: onyx-opt %s --canonicalize="top-down=false trace=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRACE-BOTTOMUP

// TOPDOWN:       %[[THREE:.+]] = "test.constant"() {value = 3 : i32}
// TOPDOWN-NEXT:  %[[THIRTY:.+]] = "test.constant"() {value = 30 : i32}
// TOPDOWN-NEXT:  "test.side_effect"(%[[THREE]], %[[THIRTY]])

// BOTTOMUP:      %[[THIRTY:.+]] = "test.constant"() {value = 30 : i32}
// BOTTOMUP-NEXT: %[[THREE:.+]] = "test.constant"() {value = 3 : i32}
// BOTTOMUP-NEXT: "test.side_effect"(%[[THREE]], %[[THIRTY]])

// TRACE-TOPDOWN:      fold 'test.add' at loc("first")
// TRACE-TOPDOWN-NOT:  fold
// TRACE-TOPDOWN:      fold 'test.add' at loc("second")

// TRACE-BOTTOMUP:     fold 'test.add' at loc("second")
// TRACE-BOTTOMUP-NOT: fold
// TRACE-BOTTOMUP:     fold 'test.add' at loc("first")
func.func @order() {
  %c1 = "test.constant"() {value = 1 : i32} : () -> i32
  %c2 = "test.constant"() {value = 2 : i32} : () -> i32
  %c10 = "test.constant"() {value = 10 : i32} : () -> i32
  %c20 = "test.constant"() {value = 20 : i32} : () -> i32
  %0 = "test.add"(%c1, %c2) : (i32, i32) -> i32 loc("first")
  %1 = "test.add"(%c10, %c20) : (i32, i32) -> i32 loc("second")
  "test.side_effect"(%0, %1) : (i32, i32) -> ()
  return
}

// Constants: equal ones are merged, and all of them move to the start of
// the entry block of the closest isolated region, in the order in which
// they were first seen or created.
// RUN: onyx-opt %s --split-input-file --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @merge_and_hoist
func.func @merge_and_hoist(%a: i32) -> i32 {
  // CHECK-NEXT: %[[C1:.+]] = "test.constant"() {value = 1 : i32}
  // CHECK-NEXT: %[[C2:.+]] = "test.constant"() {value = 2 : i32}
  // CHECK-NEXT: %[[X:.+]] = "test.side_effect"(%arg0, %[[C1]])
  // CHECK-NEXT: %[[Y:.+]] = "test.side_effect"(%[[X]], %[[C2]], %[[C1]])
  // CHECK-NEXT: return %[[Y]]
  %c1 = "test.constant"() {value = 1 : i32} : () -> i32
  %0 = "test.side_effect"(%a, %c1) : (i32, i32) -> i32
  %c2 = "test.constant"() {value = 2 : i32} : () -> i32
  %c1b = "test.constant"() {value = 1 : i32} : () -> i32
  %1 = "test.side_effect"(%0, %c2, %c1b) : (i32, i32, i32) -> i32
  return %1 : i32
}

// -----

// Equal values of different types are different constants.
// CHECK-LABEL: func.func @types_differ
func.func @types_differ() -> (i32, i64) {
  // CHECK-NEXT: %[[A:.+]] = "test.constant"() {value = 1 : i32}
  // CHECK-NEXT: %[[B:.+]] = "test.constant"() {value = 1 : i64}
  // CHECK-NEXT: return %[[A]], %[[B]]
  %0 = "test.constant"() {value = 1 : i32} : () -> i32
  %1 = "test.constant"() {value = 1 : i64} : () -> i64
  return %0, %1 : i32, i64
}

// -----

// A fold whose value already exists reuses the constant; new constants go
// after the existing ones.
// CHECK-LABEL: func.func @fold_reuses_constants
func.func @fold_reuses_constants(%a: i32) -> i32 {
  // CHECK-NEXT: %[[C3:.+]] = "test.constant"() {value = 3 : i32}
  // CHECK-NEXT: %[[C9:.+]] = "test.constant"() {value = 9 : i32}
  // CHECK-NEXT: %[[X:.+]] = "test.side_effect"(%[[C3]], %[[C3]], %[[C9]])
  // CHECK-NEXT: return %[[X]]
  %c1 = "test.constant"() {value = 1 : i32} : () -> i32
  %c2 = "test.constant"() {value = 2 : i32} : () -> i32
  %c3 = "test.constant"() {value = 3 : i32} : () -> i32
  %0 = "test.add"(%c1, %c2) : (i32, i32) -> i32
  %1 = "test.mul"(%c3, %c3) : (i32, i32) -> i32
  %2 = "test.side_effect"(%0, %c3, %1) : (i32, i32, i32) -> i32
  return %2 : i32
}

// -----

// Constants leave regions that are not isolated (and merge with the ones
// outside), but stay in isolated regions, hoisted to their start.
// CHECK-LABEL: func.func @regions
func.func @regions(%a: i32) -> i32 {
  // CHECK-NEXT: %[[C4:.+]] = "test.constant"() {value = 4 : i32}
  // CHECK-NEXT: %[[C5:.+]] = "test.constant"() {value = 5 : i32}
  // CHECK-NEXT: %[[R:[0-9]+]]:2 = "test.region_op"() ({
  // CHECK-NEXT:   %[[M:.+]] = "test.mul"(%arg0, %[[C5]])
  // CHECK-NEXT:   "test.yield"(%[[M]], %[[C4]])
  // CHECK-NEXT: })
  // CHECK-NEXT: "test.isolated"() ({
  // CHECK-NEXT:   %[[I4:.+]] = "test.constant"() {value = 4 : i32}
  // CHECK-NEXT:   %[[I6:.+]] = "test.constant"() {value = 6 : i32}
  // CHECK-NEXT:   "test.side_effect"(%[[I4]], %[[I6]])
  // CHECK-NEXT: })
  // CHECK-NEXT: "test.side_effect"(%[[R]]#0, %[[R]]#1)
  %c4 = "test.constant"() {value = 4 : i32} : () -> i32
  %0:2 = "test.region_op"() ({
    %c5 = "test.constant"() {value = 5 : i32} : () -> i32
    %c4b = "test.constant"() {value = 4 : i32} : () -> i32
    %1 = "test.mul"(%a, %c5) : (i32, i32) -> i32
    "test.yield"(%1, %c4b) : (i32, i32) -> ()
  }) : () -> (i32, i32)
  "test.isolated"() ({
    %c2 = "test.constant"() {value = 2 : i32} : () -> i32
    %c3 = "test.constant"() {value = 3 : i32} : () -> i32
    %2 = "test.mul"(%c2, %c3) : (i32, i32) -> i32
    %c4c = "test.constant"() {value = 4 : i32} : () -> i32
    "test.side_effect"(%c4c, %2) : (i32, i32) -> ()
  }) : () -> ()
  "test.side_effect"(%0#0, %0#1) : (i32, i32) -> ()
  return %a : i32
}

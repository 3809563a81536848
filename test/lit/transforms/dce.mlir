// RUN: onyx-opt %s --split-input-file --allow-unregistered-dialect --dce | FileCheck %s

// A dead pure op goes, and so do the ops that only it used.
// CHECK-LABEL: func.func @chain
func.func @chain(%a: i32, %b: i32) -> i32 {
  // CHECK-NEXT: %[[X:.+]] = "test.add"(%arg0, %arg1)
  // CHECK-NEXT: return %[[X]]
  %0 = "test.add"(%a, %b) : (i32, i32) -> i32
  %1 = "test.constant"() {value = 1 : i32} : () -> i32
  %2 = "test.mul"(%0, %1) : (i32, i32) -> i32
  %3 = "test.negate"(%2) : (i32) -> i32
  return %0 : i32
}

// -----

// Ops with side effects stay, and so do the values they use; so do
// unregistered ops, whose effects are unknown.
// CHECK-LABEL: func.func @side_effects
func.func @side_effects(%a: i32) {
  // CHECK-NEXT: %[[N:.+]] = "test.negate"(%arg0)
  // CHECK-NEXT: "test.side_effect"(%[[N]])
  // CHECK-NEXT: %[[M:.+]] = "test.negate"(%arg0)
  // CHECK-NEXT: "foo.unknown"(%[[M]])
  // CHECK-NEXT: return
  %0 = "test.negate"(%a) : (i32) -> i32
  %1 = "test.side_effect"(%0) : (i32) -> i32
  %2 = "test.negate"(%a) : (i32) -> i32
  %3 = "foo.unknown"(%2) : (i32) -> i32
  return
}

// -----

// Nested regions are swept first: once the dead op inside is gone, the
// outer value it used is dead too.
// CHECK-LABEL: func.func @nested
func.func @nested(%a: i32) -> i32 {
  // CHECK-NEXT: %[[R:.+]] = "test.region_op"() ({
  // CHECK-NEXT:   "test.yield"(%arg0)
  // CHECK-NEXT: })
  // CHECK-NEXT: return %[[R]]
  %0 = "test.negate"(%a) : (i32) -> i32
  %1 = "test.region_op"() ({
    %2 = "test.add"(%0, %0) : (i32, i32) -> i32
    "test.yield"(%a) : (i32) -> ()
  }) : () -> i32
  return %1 : i32
}

// -----

// A dead op with regions goes if everything inside is pure, and stays if
// something inside has effects.
// CHECK-LABEL: func.func @dead_region_ops
func.func @dead_region_ops(%a: i32) {
  // CHECK-NEXT: "test.region_op"() ({
  // CHECK-NEXT:   "test.side_effect"(%arg0)
  // CHECK-NEXT:   "test.yield"(%arg0)
  // CHECK-NEXT: })
  // CHECK-NEXT: return
  %0 = "test.region_op"() ({
    %1 = "test.negate"(%a) : (i32) -> i32
    "test.yield"(%1) : (i32) -> ()
  }) : () -> i32
  %2 = "test.region_op"() ({
    "test.side_effect"(%a) : (i32) -> ()
    "test.yield"(%a) : (i32) -> ()
  }) : () -> i32
  return
}

// -----

// An op that is not pure stays even without results, and its regions are
// swept.
// CHECK-LABEL: func.func @isolated
func.func @isolated() {
  // CHECK-NEXT: "test.isolated"() ({
  // CHECK-NEXT:   %[[C:.+]] = "test.constant"() {value = 2 : i32}
  // CHECK-NEXT:   "test.side_effect"(%[[C]])
  // CHECK-NEXT: })
  "test.isolated"() ({
    %0 = "test.constant"() {value = 1 : i32} : () -> i32
    %1 = "test.constant"() {value = 2 : i32} : () -> i32
    "test.side_effect"(%1) : (i32) -> ()
  }) : () -> ()
  return
}

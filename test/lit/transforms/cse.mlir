// RUN: onyx-opt %s --split-input-file --allow-unregistered-dialect --cse | FileCheck %s

// Equal pure ops are merged into the first one, and so are the ops that
// become equal once their operands are merged.
// CHECK-LABEL: func.func @duplicates
func.func @duplicates(%a: i32, %b: i32) -> (i32, i32) {
  // CHECK-NEXT: %[[X:.+]] = "test.add"(%arg0, %arg1)
  // CHECK-NEXT: %[[Y:.+]] = "test.mul"(%[[X]], %[[X]])
  // CHECK-NEXT: return %[[Y]], %[[Y]]
  %0 = "test.add"(%a, %b) : (i32, i32) -> i32
  %1 = "test.add"(%a, %b) : (i32, i32) -> i32
  %2 = "test.mul"(%0, %0) : (i32, i32) -> i32
  %3 = "test.mul"(%1, %1) : (i32, i32) -> i32
  return %2, %3 : i32, i32
}

// -----

// Operand order does not matter for commutative ops, and does otherwise.
// CHECK-LABEL: func.func @commutative
func.func @commutative(%a: i32, %b: i32) -> (i32, i32, i32, i32) {
  // CHECK-NEXT: %[[ADD:.+]] = "test.add"(%arg0, %arg1)
  // CHECK-NEXT: %[[SUB1:.+]] = "test.sub"(%arg0, %arg1)
  // CHECK-NEXT: %[[SUB2:.+]] = "test.sub"(%arg1, %arg0)
  // CHECK-NEXT: return %[[ADD]], %[[ADD]], %[[SUB1]], %[[SUB2]]
  %0 = "test.add"(%a, %b) : (i32, i32) -> i32
  %1 = "test.add"(%b, %a) : (i32, i32) -> i32
  %2 = "test.sub"(%a, %b) : (i32, i32) -> i32
  %3 = "test.sub"(%b, %a) : (i32, i32) -> i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// Attributes and result types are part of what an op computes.
// CHECK-LABEL: func.func @attributes_and_types
func.func @attributes_and_types(%a: i32) -> (i32, i32, i32, i32, i64) {
  // CHECK-NEXT: %[[C1:.+]] = "test.constant"() {value = 1 : i32}
  // CHECK-NEXT: %[[C2:.+]] = "test.constant"() {value = 2 : i32}
  // CHECK-NEXT: %[[A32:.+]] = "test.op_a"(%arg0) : (i32) -> i32
  // CHECK-NEXT: %[[A64:.+]] = "test.op_a"(%arg0) : (i32) -> i64
  // CHECK-NEXT: return %[[C1]], %[[C1]], %[[C2]], %[[A32]], %[[A64]]
  %0 = "test.constant"() {value = 1 : i32} : () -> i32
  %1 = "test.constant"() {value = 1 : i32} : () -> i32
  %2 = "test.constant"() {value = 2 : i32} : () -> i32
  %3 = "test.op_a"(%a) : (i32) -> i32
  %4 = "test.op_a"(%a) : (i32) -> i64
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i64
}

// -----

// Every result of a merged op is replaced.
// CHECK-LABEL: func.func @several_results
func.func @several_results(%a: i32) -> (i32, i32, i32, i32) {
  // CHECK-NEXT: %[[R:.+]]:2 = "test.op_b"(%arg0)
  // CHECK-NEXT: return %[[R]]#0, %[[R]]#1, %[[R]]#0, %[[R]]#1
  %0:2 = "test.op_b"(%a) : (i32) -> (i32, i32)
  %1:2 = "test.op_b"(%a) : (i32) -> (i32, i32)
  return %0#0, %0#1, %1#0, %1#1 : i32, i32, i32, i32
}

// -----

// A value computed before a nested region is reused inside it.
// CHECK-LABEL: func.func @into_nested_region
func.func @into_nested_region(%a: i32, %b: i32) -> (i32, i32) {
  // CHECK-NEXT: %[[X:.+]] = "test.add"(%arg0, %arg1)
  // CHECK-NEXT: %[[R:.+]] = "test.region_op"() ({
  // CHECK-NEXT:   "test.yield"(%[[X]])
  // CHECK-NEXT: })
  // CHECK-NEXT: return %[[X]], %[[R]]
  %0 = "test.add"(%a, %b) : (i32, i32) -> i32
  %1 = "test.region_op"() ({
    %2 = "test.add"(%a, %b) : (i32, i32) -> i32
    "test.yield"(%2) : (i32) -> ()
  }) : () -> i32
  return %0, %1 : i32, i32
}

// -----

// A value computed inside a region is not visible after it, nor in a
// sibling region.
// CHECK-LABEL: func.func @not_out_of_regions
func.func @not_out_of_regions(%a: i32, %b: i32) -> (i32, i32, i32) {
  // CHECK-NEXT: "test.region_op"() ({
  // CHECK-NEXT:   "test.add"(%arg0, %arg1)
  // CHECK:      "test.region_op"() ({
  // CHECK-NEXT:   "test.add"(%arg0, %arg1)
  // CHECK:      }) : () -> i32
  // CHECK-NEXT: "test.add"(%arg0, %arg1)
  %0 = "test.region_op"() ({
    %3 = "test.add"(%a, %b) : (i32, i32) -> i32
    "test.yield"(%3) : (i32) -> ()
  }) : () -> i32
  %1 = "test.region_op"() ({
    %4 = "test.add"(%a, %b) : (i32, i32) -> i32
    "test.yield"(%4) : (i32) -> ()
  }) : () -> i32
  %2 = "test.add"(%a, %b) : (i32, i32) -> i32
  return %0, %1, %2 : i32, i32, i32
}

// -----

// Blocks of one region are separate scopes: nothing branches between them.
// CHECK-LABEL: func.func @sibling_blocks
func.func @sibling_blocks(%a: i32) -> i32 {
  // CHECK-NEXT: "test.region_op"() ({
  // CHECK-NEXT:   "test.negate"(%arg0)
  // CHECK-NEXT:   "test.yield"
  // CHECK-NEXT: ^bb1:
  // CHECK-NEXT:   "test.negate"(%arg0)
  %0 = "test.region_op"() ({
  ^bb0:
    %1 = "test.negate"(%a) : (i32) -> i32
    "test.yield"(%1) : (i32) -> ()
  ^bb1:
    %2 = "test.negate"(%a) : (i32) -> i32
    "test.yield"(%2) : (i32) -> ()
  }) : () -> i32
  return %0 : i32
}

// -----

// Ops with regions are not merged, even equal ones; their regions are
// simplified.
// CHECK-LABEL: func.func @region_ops_stay
func.func @region_ops_stay(%a: i32) -> (i32, i32) {
  // CHECK-NEXT: "test.region_op"() ({
  // CHECK-NEXT:   %[[N:.+]] = "test.negate"(%arg0)
  // CHECK-NEXT:   "test.yield"(%[[N]])
  // CHECK:      "test.region_op"() ({
  %0 = "test.region_op"() ({
    %2 = "test.negate"(%a) : (i32) -> i32
    %3 = "test.negate"(%a) : (i32) -> i32
    "test.yield"(%3) : (i32) -> ()
  }) : () -> i32
  %1 = "test.region_op"() ({
    %4 = "test.negate"(%a) : (i32) -> i32
    "test.yield"(%4) : (i32) -> ()
  }) : () -> i32
  return %0, %1 : i32, i32
}

// -----

// An isolated op's region sees nothing from outside, so it starts with no
// known values; inside, duplicates are merged as usual.
// CHECK-LABEL: func.func @isolated
func.func @isolated() -> i32 {
  // CHECK-NEXT: %[[C:.+]] = "test.constant"() {value = 7 : i32}
  // CHECK-NEXT: "test.isolated"() ({
  // CHECK-NEXT:   %[[D:.+]] = "test.constant"() {value = 7 : i32}
  // CHECK-NEXT:   "test.side_effect"(%[[D]], %[[D]])
  // CHECK-NEXT: })
  // CHECK-NEXT: return %[[C]]
  %0 = "test.constant"() {value = 7 : i32} : () -> i32
  "test.isolated"() ({
    %1 = "test.constant"() {value = 7 : i32} : () -> i32
    %2 = "test.constant"() {value = 7 : i32} : () -> i32
    "test.side_effect"(%1, %2) : (i32, i32) -> ()
  }) : () -> ()
  return %0 : i32
}

// -----

// Ops with side effects, and unregistered ops whose effects are unknown,
// are never merged.
// CHECK-LABEL: func.func @side_effects
func.func @side_effects(%a: i32) -> (i32, i32, i32, i32) {
  // CHECK-NEXT: %[[S1:.+]] = "test.side_effect"(%arg0)
  // CHECK-NEXT: %[[S2:.+]] = "test.side_effect"(%arg0)
  // CHECK-NEXT: %[[U1:.+]] = "foo.bar"(%arg0)
  // CHECK-NEXT: %[[U2:.+]] = "foo.bar"(%arg0)
  // CHECK-NEXT: return %[[S1]], %[[S2]], %[[U1]], %[[U2]]
  %0 = "test.side_effect"(%a) : (i32) -> i32
  %1 = "test.side_effect"(%a) : (i32) -> i32
  %2 = "foo.bar"(%a) : (i32) -> i32
  %3 = "foo.bar"(%a) : (i32) -> i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// Like mlir-opt's CSE, a pure op found unused on the way is erased.
// CHECK-LABEL: func.func @dead_on_the_way
func.func @dead_on_the_way(%a: i32) -> i32 {
  // CHECK-NEXT: return %arg0
  %0 = "test.negate"(%a) : (i32) -> i32
  return %a : i32
}

// -----

// Each function is its own scope.
// CHECK-LABEL: func.func @f1
// CHECK-NEXT:  "test.constant"
// CHECK-LABEL: func.func @f2
// CHECK-NEXT:  "test.constant"
func.func @f1() -> i32 {
  %0 = "test.constant"() {value = 3 : i32} : () -> i32
  return %0 : i32
}
func.func @f2() -> i32 {
  %0 = "test.constant"() {value = 3 : i32} : () -> i32
  return %0 : i32
}

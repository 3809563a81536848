// Dead code elimination within --canonicalize: unused ops without side
// effects are erased, and with them the ops that only they used.
// RUN: onyx-opt %s --split-input-file --allow-unregistered-dialect --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @dead_chain
func.func @dead_chain(%a: i32) -> i32 {
  // CHECK-NEXT: return %arg0
  %0 = "test.negate"(%a) : (i32) -> i32
  %1 = "test.add"(%0, %a) : (i32, i32) -> i32
  %2 = "test.op_c"(%1) : (i32) -> i32
  return %a : i32
}

// -----

// Side effects stay, and so do the values they use; unregistered ops stay
// too, since their effects are unknown.
// CHECK-LABEL: func.func @side_effects_stay
func.func @side_effects_stay(%a: i32) {
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

// An unused op with a region goes only if everything in the region is free
// of side effects; then what only its region used goes too.
// CHECK-LABEL: func.func @regions
func.func @regions(%a: i32) {
  // CHECK-NEXT: %{{.+}} = "test.region_op"() ({
  // CHECK-NEXT:   "test.side_effect"()
  // CHECK-NEXT:   "test.yield"(%arg0)
  // CHECK-NEXT: })
  // CHECK-NEXT: return
  %0 = "test.negate"(%a) : (i32) -> i32
  %1 = "test.region_op"() ({
    %2 = "test.add"(%0, %0) : (i32, i32) -> i32
    "test.yield"(%2) : (i32) -> ()
  }) : () -> i32
  %3 = "test.region_op"() ({
    "test.side_effect"() : () -> ()
    "test.yield"(%a) : (i32) -> ()
  }) : () -> i32
  return
}

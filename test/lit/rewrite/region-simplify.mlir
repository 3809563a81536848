// Region simplification. No op has successors, so a block after the entry
// block of its region is never reached: canonicalize erases it, with
// whatever it holds (side effects included, as they never run).
// RUN: onyx-opt %s --canonicalize | FileCheck %s
// RUN: onyx-opt %s --canonicalize=region-simplify=false | FileCheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @unreachable_blocks
// CHECK-NEXT:  %[[R:.+]] = "test.region_op"() ({
// CHECK-NEXT:    "test.yield"(%arg0)
// CHECK-NEXT:  })
// CHECK-NEXT:  return %[[R]]

// KEEP-LABEL:  func.func @unreachable_blocks
// KEEP:        ^bb1:
// KEEP-NEXT:     "test.side_effect"()
// KEEP:        ^bb2:
// KEEP-NEXT:     "test.yield"(%arg0)
func.func @unreachable_blocks(%a: i32) -> i32 {
  %0 = "test.region_op"() ({
    "test.yield"(%a) : (i32) -> ()
  ^bb1:
    %1 = "test.side_effect"() : () -> i32
    "test.yield"(%1) : (i32) -> ()
  ^bb2:
    "test.yield"(%a) : (i32) -> ()
  }) : () -> i32
  return %0 : i32
}

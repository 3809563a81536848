// Expensive checks: after each pattern the driver checks that the IR
// changed exactly when the pattern returned success and that it still
// verifies, and reports the pattern by name. Test builds check by default;
// without the checks the lying patterns go unnoticed.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics --canonicalize=expensive-checks=true
// RUN: onyx-opt %s --split-input-file --canonicalize=expensive-checks=false | FileCheck %s

// CHECK-LABEL: func.func @success_without_change
// CHECK-NEXT:  "test.broken_success"()
func.func @success_without_change() {
  // expected-error @below {{pattern 'test-broken-success' returned success but did not change the IR}}
  "test.broken_success"() : () -> ()
  return
}

// -----

// CHECK-LABEL: func.func @change_with_failure
// CHECK-NEXT:  "test.broken_failure"() {touched}
func.func @change_with_failure() {
  // expected-error @below {{pattern 'test-broken-failure' returned failure but changed the IR}}
  "test.broken_failure"() : () -> ()
  return
}

// -----

// Correct patterns pass the checks.
// CHECK-LABEL: func.func @correct_patterns
// CHECK-NEXT:  %[[N:.+]] = "test.negate"(%arg1)
// CHECK-NEXT:  %[[X:.+]] = "test.add"(%arg0, %[[N]])
// CHECK-NEXT:  %[[C:.+]] = "test.op_c"(%[[X]])
// CHECK-NEXT:  return %[[C]]
func.func @correct_patterns(%a: i32, %b: i32) -> i32 {
  %0 = "test.sub"(%a, %b) : (i32, i32) -> i32
  %1 = "test.negate"(%0) : (i32) -> i32
  %2 = "test.negate"(%1) : (i32) -> i32
  %3 = "test.op_a"(%2) : (i32) -> i32
  "test.erase_me"() : () -> ()
  return %3 : i32
}

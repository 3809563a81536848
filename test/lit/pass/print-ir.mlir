// IR dumps around passes go to stderr, with mlir-opt's headers. A pass on
// a nested op dumps that op.
// RUN: onyx-opt %s --test-func-count --cse --print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: onyx-opt %s --cse --dce --print-ir-before=dce --print-ir-after=cse -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: onyx-opt %s --cse --dce --cse --print-ir-after-all --print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE
// RUN: onyx-opt %s --dce --cse --print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE-ALONE
// RUN: onyx-opt %s --cse --mlir-print-ir-after-all --print-generic -o /dev/null 2>&1 | FileCheck %s --check-prefix=GENERIC

// ALL:      // -----// IR Dump After TestFuncCount (test-func-count) //----- //
// ALL-NEXT: func.func @f(%arg0: i32) -> i32 {
// ALL:      // -----// IR Dump After TestFuncCount (test-func-count) //----- //
// ALL-NEXT: func.func @g() {
// ALL:      // -----// IR Dump After CSE (cse) //----- //
// ALL-NEXT: module {
// ALL-NEXT:   func.func @f(%arg0: i32) -> i32 {
// ALL-NEXT:     %[[X:.+]] = "test.add"(%arg0, %arg0)
// ALL-NEXT:     "test.mul"(%[[X]], %[[X]])

// NAMED-NOT:  IR Dump Before CSE
// NAMED:      // -----// IR Dump After CSE (cse) //----- //
// NAMED:      // -----// IR Dump Before DCE (dce) //----- //
// NAMED-NOT:  IR Dump After DCE

// Only the first cse changes anything.
// CHANGE:     // -----// IR Dump After CSE (cse) //----- //
// CHANGE-NOT: IR Dump

// CHANGE-ALONE:     // -----// IR Dump After DCE (dce) //----- //
// CHANGE-ALONE:     // -----// IR Dump After CSE (cse) //----- //
// CHANGE-ALONE-NOT: IR Dump

// GENERIC:      // -----// IR Dump After CSE (cse) //----- //
// GENERIC-NEXT: "builtin.module"() ({

func.func @f(%a: i32) -> i32 {
  %dead = "test.negate"(%a) : (i32) -> i32
  %0 = "test.add"(%a, %a) : (i32, i32) -> i32
  %1 = "test.add"(%a, %a) : (i32, i32) -> i32
  %2 = "test.mul"(%0, %1) : (i32, i32) -> i32
  return %2 : i32
}
func.func @g() {
  return
}

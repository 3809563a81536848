// Pipelines given as text: anchored on the module, as a bare list, nested
// on op kinds, with pass options.
// RUN: onyx-opt %s --pass-pipeline='builtin.module(func.func(test-func-count{annotate=true}),cse)' | FileCheck %s --check-prefix=NESTED
// RUN: onyx-opt %s --pass-pipeline=' func.func( test-func-count{annotate=1 attr-name="n"} ) , cse ' | FileCheck %s --check-prefix=BARE
// RUN: onyx-opt %s --pass-pipeline='builtin.module()' | FileCheck %s --check-prefix=EMPTY

// Each function is counted on its own; cse ran on the module afterwards.
// NESTED-LABEL: func.func @f
// NESTED-SAME:    attributes {test.num_ops = 4 : i64}
// NESTED-NEXT:    %[[X:.+]] = "test.add"(%arg0, %arg0)
// NESTED-NEXT:    "test.mul"(%[[X]], %[[X]])
// NESTED-LABEL: func.func @g
// NESTED-SAME:    attributes {test.num_ops = 1 : i64}

// BARE-LABEL: func.func @f
// BARE-SAME:    attributes {n = 4 : i64}
// BARE-NEXT:    %[[X:.+]] = "test.add"(%arg0, %arg0)
// BARE-NEXT:    "test.mul"(%[[X]], %[[X]])
// BARE-LABEL: func.func @g
// BARE-SAME:    attributes {n = 1 : i64}

// EMPTY:      "test.add"
// EMPTY-NEXT: "test.add"

func.func @f(%a: i32) -> i32 {
  %0 = "test.add"(%a, %a) : (i32, i32) -> i32
  %1 = "test.add"(%a, %a) : (i32, i32) -> i32
  %2 = "test.mul"(%0, %1) : (i32, i32) -> i32
  return %2 : i32
}
func.func @g(%a: i32) -> i32 {
  return %a : i32
}

// Each registered pass is a flag; flags run in command-line order, a pass
// restricted to func.func is nested on each function, and options follow
// `=` as one word.
// RUN: onyx-opt %s --test-func-count=annotate=true --cse | FileCheck %s --check-prefix=BEFORE
// RUN: onyx-opt %s --cse --test-func-count="annotate=1 attr-name=count" | FileCheck %s --check-prefix=AFTER
// RUN: onyx-opt %s --cse --test-func-count --pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=ORDER
// RUN: onyx-opt %s --canonicalize="max-iterations=3 top-down=false" --cse --pass-statistics 2>&1 | FileCheck %s --check-prefix=CANON
// RUN: not onyx-opt %s --test-func-count=colour=red 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not onyx-opt %s --cse --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not onyx-opt %s --cse --print-ir-after=nope 2>&1 | FileCheck %s --check-prefix=BADNAME

// BEFORE: func.func @f(%arg0: i32) -> i32 attributes {test.num_ops = 4 : i64}
// AFTER:  func.func @f(%arg0: i32) -> i32 attributes {count = 3 : i64}

// ORDER:      CSE
// ORDER:      'func.func' Pipeline
// ORDER-NEXT:   TestFuncCount

// CANON:      Canonicalizer
// CANON:      CSE
// CANON-NEXT:   (S) 1 num-cse'd
// CANON:      %[[X:.+]] = "test.add"(%arg0, %arg0)
// CANON-NEXT: "test.mul"(%[[X]], %[[X]])

// BADOPT: error: --test-func-count=colour=red: no such option 'colour'; valid options of 'test-func-count': annotate, attr-name
// BOTH: error: --pass-pipeline can't be combined with pass flags such as --cse
// BADNAME: error: --print-ir-after: 'nope' does not refer to a registered pass

func.func @f(%a: i32) -> i32 {
  %0 = "test.add"(%a, %a) : (i32, i32) -> i32
  %1 = "test.add"(%a, %a) : (i32, i32) -> i32
  %2 = "test.mul"(%0, %1) : (i32, i32) -> i32
  return %2 : i32
}

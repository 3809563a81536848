// --timing prints a tree of wall times, --pass-statistics each pass's
// counters, both on stderr at the end of the run, in mlir-opt's layout.
// RUN: onyx-opt %s --test-func-count --cse --symbol-dce --timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: onyx-opt %s --test-func-count --cse --symbol-dce --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: onyx-opt %s --pass-pipeline='builtin.module(func.func(test-func-count,cse),cse,symbol-dce)' --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// TIMING:      ===-------------------------------------------------------------------------===
// TIMING-NEXT:                          ... Execution time report ...
// TIMING-NEXT: ===-------------------------------------------------------------------------===
// TIMING-NEXT:   Total Execution Time: {{[0-9]+\.[0-9][0-9][0-9][0-9]}} seconds
// TIMING-EMPTY:
// TIMING-NEXT:   ----Wall Time----  ----Name----
// TIMING-NEXT:     {{[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  'func.func' Pipeline
// TIMING-NEXT:     {{[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}    TestFuncCount
// TIMING-NEXT:     {{[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  CSE
// TIMING-NEXT:     {{[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  SymbolDCE
// TIMING-NEXT:     {{[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Rest
// TIMING-NEXT:     {{[0-9]+\.[0-9][0-9][0-9][0-9]}} (100.0%)  Total

// Statistics of a nested pass add up over the ops it ran on; values are
// aligned within a pass.
// STATS:      ===-------------------------------------------------------------------------===
// STATS-NEXT:                          ... Pass statistics report ...
// STATS-NEXT: ===-------------------------------------------------------------------------===
// STATS-NEXT: 'func.func' Pipeline
// STATS-NEXT:   TestFuncCount
// STATS-NEXT:     (S)  3 num-funcs - Number of functions visited
// STATS-NEXT:     (S) 10 num-ops - Number of operations counted
// STATS-NEXT:   CSE
// STATS-NEXT:     (S) 2 num-cse'd - Number of operations CSE'd
// STATS-NEXT:     (S) 0 num-dce'd - Number of operations DCE'd
// STATS-NEXT: CSE
// STATS-NEXT:   (S) 0 num-cse'd - Number of operations CSE'd
// STATS-NEXT:   (S) 0 num-dce'd - Number of operations DCE'd
// STATS-NEXT: SymbolDCE
// STATS-NEXT:   (S) 1 num-dce'd - Number of symbols DCE'd

func.func @f(%a: i32) -> i32 {
  %0 = "test.add"(%a, %a) : (i32, i32) -> i32
  %1 = "test.add"(%a, %a) : (i32, i32) -> i32
  %2 = "test.mul"(%0, %1) : (i32, i32) -> i32
  return %2 : i32
}
func.func @g(%a: i32) -> i32 {
  %0 = "test.negate"(%a) : (i32) -> i32
  %1 = "test.negate"(%a) : (i32) -> i32
  %2 = "test.mul"(%0, %1) : (i32, i32) -> i32
  %3 = "test.negate"(%2) : (i32) -> i32
  return %3 : i32
}
func.func private @unused() {
  return
}

// canonicalize{trace=true} prints to stderr one line per sweep, applied
// pattern, fold and erasure, with the op's name and location.
// RUN: onyx-opt %s --canonicalize=trace=true -o /dev/null 2>&1 | FileCheck %s

// CHECK:      [greedy] iteration 1
// CHECK-NEXT: [greedy] fold 'test.add' at loc("{{.*}}trace.mlir":[[#@LINE+10]]:8)
// CHECK-NEXT: [greedy] erase 'test.constant' at loc("{{.*}}trace.mlir":[[#@LINE+8]]:9)
// CHECK-NEXT: [greedy] apply pattern 'test-negate-involution' to 'test.negate' at loc("{{.*}}trace.mlir":[[#@LINE+10]]:8)
// CHECK-NEXT: [greedy] erase 'test.negate' at loc("{{.*}}trace.mlir":[[#@LINE+8]]:8)
// CHECK-NEXT: [greedy] apply pattern 'test-op-a-to-b' to 'test.op_a' at loc("{{.*}}trace.mlir":[[#@LINE+9]]:8)
// CHECK-NEXT: [greedy] apply pattern 'test-op-b-to-c' to 'test.op_b' at loc("{{.*}}trace.mlir":[[#@LINE+8]]:8)
// CHECK-NEXT: [greedy] iteration 2
// CHECK-NOT:  [greedy]
func.func @trace(%a: i32) -> i32 {
  %c0 = "test.constant"() {value = 0 : i32} : () -> i32
  %0 = "test.add"(%a, %c0) : (i32, i32) -> i32
  %1 = "test.negate"(%0) : (i32) -> i32
  %2 = "test.negate"(%1) : (i32) -> i32
  %3 = "test.op_a"(%2) : (i32) -> i32
  return %3 : i32
}

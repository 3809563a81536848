// A fixpoint is only known once a sweep over the IR changes nothing: the
// chain op_a -> op_b -> op_c is done in the first sweep and the second one
// proves it, so one iteration is too few. With test-convergence that is an
// error on the op canonicalize runs on; without it, canonicalize stops
// quietly and keeps what it did.
// RUN: onyx-opt %s --verify-diagnostics --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))'
// RUN: onyx-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=2 test-convergence=true}))' | FileCheck %s
// RUN: onyx-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=1}))' | FileCheck %s

// CHECK-LABEL: func.func @needs_two_sweeps
// CHECK-NEXT:  %[[C:.+]] = "test.op_c"(%arg0)
// CHECK-NEXT:  return %[[C]]
// expected-error @below {{greedy pattern rewrite did not converge after 1 iterations}}
func.func @needs_two_sweeps(%a: i32) -> i32 {
  %0 = "test.op_a"(%a) : (i32) -> i32
  return %0 : i32
}

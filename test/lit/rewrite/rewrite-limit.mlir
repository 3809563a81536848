// test.flip and test.flop rewrite into each other forever, within one
// sweep, so only max-num-rewrites stops them. With test-convergence,
// reaching the limit is an error.
// RUN: onyx-opt %s --verify-diagnostics --canonicalize="max-num-rewrites=20 test-convergence=true"
// RUN: onyx-opt %s --canonicalize=max-num-rewrites=20 | FileCheck %s --check-prefix=EVEN
// RUN: onyx-opt %s --canonicalize=max-num-rewrites=3 | FileCheck %s --check-prefix=ODD

// EVEN-LABEL: func.func @never_converges
// EVEN-NEXT:  "test.flip"() {tag = "t"}
// EVEN-NEXT:  return

// ODD-LABEL:  func.func @never_converges
// ODD-NEXT:   "test.flop"() {tag = "t"}
// ODD-NEXT:   return

// expected-error @below {{greedy pattern rewrite did not converge after 1 iterations (reached the limit of 20 rewrites); applied most: pattern 'test-flip-to-flop' (10 times), pattern 'test-flop-to-flip' (10 times)}}
module {
  func.func @never_converges() {
    "test.flip"() {tag = "t"} : () -> ()
    return
  }
}

// Patterns that never reach a fixpoint hit the driver's default bounds (64
// rewrites, or 128 created ops, per op of the IR, plus 4096) and the run
// fails naming the patterns that kept firing, instead of hanging.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics --canonicalize

// test.flip and test.flop rewrite into each other forever.
// expected-error @below {{greedy pattern rewrite does not terminate: it made 4288 rewrites on IR of 3 ops; applied most: pattern 'test-flip-to-flop' (2144 times), pattern 'test-flop-to-flip' (2144 times)}}
module {
  func.func @flip_flop() {
    "test.flip"() : () -> ()
    return
  }
}

// -----

// test.divide replaces itself by three of itself: the IR grows without end.
// expected-error @below {{greedy pattern rewrite does not terminate: it created more than 4480 ops on IR of 3 ops; applied most: pattern 'test-divide'}}
module {
  func.func @divide() {
    "test.divide"() : () -> ()
    return
  }
}

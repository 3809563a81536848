//===- TestPasses.h - Passes for testing the pass manager -------*- C++ -*-===//
//
// Passes that fail, break the IR or are restricted to one op kind, so that
// lit tests can check how the pass manager reacts. onyx-opt registers them
// next to the real passes.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace onyx {

/// Registers test-pass-failure, test-break-ir and test-func-count.
void registerTestPasses();

} // namespace onyx

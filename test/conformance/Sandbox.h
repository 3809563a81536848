//===- Sandbox.h - Running a case in a child process ------------*- C++ -*-===//
//
// Each case runs in a forked child with a time limit, so that a crash, an
// assertion or a hang in one case becomes that case's result instead of
// ending the whole run. The child sends its CaseResult back over a pipe;
// what it wrote to stderr is kept for the report when it dies.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "test/conformance/CaseRunner.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace onyx::conformance {

/// Runs `body` in a child process; if the child crashes or runs longer
/// than `timeoutSeconds`, the result is a failure saying so.
CaseResult runInChild(llvm::function_ref<CaseResult()> body,
                      unsigned timeoutSeconds);

} // namespace onyx::conformance

//===- Sandbox.h - Running cases in a child process -------------*- C++ -*-===//
//
// Cases run in a forked child with a time limit, so that a crash, an
// assertion or a hang in one case becomes that case's result instead of
// ending the whole run. The child sends each CaseResult back over a pipe;
// what it wrote to stderr while running the case is kept for the report
// when it dies.
//
// A child may run several cases in turn (`casesPerChild`), so that what is
// expensive to set up and safe to share (a Vulkan device, the shader
// compiler) is set up once per child rather than once per case. A child
// that crashes or hangs is replaced for the next case.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "test/conformance/CaseRunner.h"

#include <functional>
#include <sys/types.h>

namespace onyx::conformance {

class Sandbox {
public:
  /// `body(i)` runs case `i` in the child. A child runs at most
  /// `casesPerChild` cases (0: as many as it lives for).
  Sandbox(std::function<CaseResult(unsigned)> body, unsigned timeoutSeconds,
          unsigned casesPerChild);
  ~Sandbox();
  Sandbox(const Sandbox &) = delete;
  Sandbox &operator=(const Sandbox &) = delete;

  /// Runs case `index` in the child (starting one if needed); if the child
  /// crashes or runs longer than the time limit, the result is a failure
  /// saying so.
  CaseResult run(unsigned index);

private:
  /// Forks a child that serves case numbers until its command pipe closes.
  CaseResult start();
  /// Ends the child: closes its pipes, kills it if `kill`, and returns its
  /// wait status.
  int stop(bool kill);

  std::function<CaseResult(unsigned)> body;
  unsigned timeoutSeconds;
  unsigned casesPerChild;
  pid_t pid = -1;
  int commandFd = -1, resultFd = -1, stderrFd = -1;
  unsigned casesRun = 0;
};

} // namespace onyx::conformance

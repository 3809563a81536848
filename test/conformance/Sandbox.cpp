//===- Sandbox.cpp - Running cases in a child process ---------------------===//

#include "test/conformance/Sandbox.h"
#include "support/Sanitizers.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef ONYX_LEAK_CHECKED
#include <sanitizer/lsan_interface.h>
#endif

using namespace onyx;
using namespace onyx::conformance;

/// How much of a crashed child's stderr the report keeps (its end).
static constexpr size_t kMaxStderr = 2000;

/// The result as the child sends it: its length (4 bytes, host order), the
/// status and whether shape inputs became constants (a digit each), then
/// reason and detail, each ended by a NUL.
static std::string serialize(const CaseResult &result) {
  std::string bytes(1, char('0' + int(result.status)));
  bytes += result.shapeInputsAsConstants ? '1' : '0';
  bytes += result.reason;
  bytes += '\0';
  bytes += result.detail;
  bytes += '\0';
  uint32_t size = bytes.size();
  return std::string(reinterpret_cast<const char *>(&size), sizeof(size)) +
         bytes;
}

static bool deserialize(StringRef bytes, CaseResult &result) {
  SmallVector<StringRef, 3> fields;
  if (bytes.size() < 2 || bytes[0] < '0' || bytes[0] > '2' ||
      (bytes[1] != '0' && bytes[1] != '1'))
    return false;
  bytes.drop_front(2).split(fields, '\0');
  if (fields.size() != 3 || !fields[2].empty())
    return false;
  result.status = Status(bytes[0] - '0');
  result.shapeInputsAsConstants = bytes[1] == '1';
  result.reason = fields[0].str();
  result.detail = fields[1].str();
  return true;
}

static bool writeAll(int fd, StringRef bytes) {
  while (!bytes.empty()) {
    ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    bytes = bytes.drop_front(n);
  }
  return true;
}

/// Reads exactly `size` bytes; false at the end of the input.
static bool readAll(int fd, char *data, size_t size) {
  while (size) {
    ssize_t n = read(fd, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data += n;
    size -= n;
  }
  return true;
}

/// The reason of a case after which LeakSanitizer found memory that
/// nothing points to any more.
static constexpr const char *kLeakReason = "memory leak";

/// In a LeakSanitizer build, looks for memory leaked by the case that just
/// ran. A child never gets to LeakSanitizer's check at exit (it ends with
/// _exit), so without this nothing a case leaks would be seen. The report
/// goes to stderr, where the parent picks it up.
static bool checkForLeaks(CaseResult &result) {
#ifdef ONYX_LEAK_CHECKED
  // 0 where leak detection is off (ASAN_OPTIONS=detect_leaks=0).
  if (__lsan_do_recoverable_leak_check()) {
    result = {Status::Fail, kLeakReason,
              "LeakSanitizer found memory leaked by this case"};
    return true;
  }
#else
  (void)result;
#endif
  return false;
}

/// The child's loop: runs the case whose number arrives on `commandFd`
/// and sends its result, until the parent closes the pipe.
[[noreturn]] static void serve(const std::function<CaseResult(unsigned)> &body,
                               int commandFd, int resultFd) {
  uint32_t index;
  while (readAll(commandFd, reinterpret_cast<char *>(&index), sizeof(index))) {
    CaseResult result = body(index);
    // Leaks stay leaked, and every later check would report them again:
    // the next case gets a new child.
    bool leaked = checkForLeaks(result);
    if (!writeAll(resultFd, serialize(result)) || leaked)
      break;
  }
  // Skips exit handlers and static destructors, which belong to the
  // parent.
  _exit(0);
}

Sandbox::Sandbox(std::function<CaseResult(unsigned)> body,
                 unsigned timeoutSeconds, unsigned casesPerChild)
    : body(std::move(body)), timeoutSeconds(timeoutSeconds),
      casesPerChild(casesPerChild) {
  // A child that died must not take the parent with it when the parent
  // sends it the next case.
  signal(SIGPIPE, SIG_IGN);
}

Sandbox::~Sandbox() {
  if (pid > 0)
    stop(/*kill=*/false);
}

static CaseResult runnerError() {
  return {Status::Fail, "runner error", std::strerror(errno)};
}

CaseResult Sandbox::start() {
  int commandPipe[2], resultPipe[2], stderrPipe[2];
  if (pipe(commandPipe) != 0)
    return runnerError();
  if (pipe(resultPipe) != 0) {
    close(commandPipe[0]);
    close(commandPipe[1]);
    return runnerError();
  }
  if (pipe(stderrPipe) != 0) {
    for (int fd :
         {commandPipe[0], commandPipe[1], resultPipe[0], resultPipe[1]})
      close(fd);
    return runnerError();
  }
  // Buffered output would otherwise be written twice, once by the child.
  llvm::outs().flush();
  llvm::errs().flush();
  pid = fork();
  if (pid == 0) {
    close(commandPipe[1]);
    close(resultPipe[0]);
    close(stderrPipe[0]);
    dup2(stderrPipe[1], STDERR_FILENO);
    serve(body, commandPipe[0], resultPipe[1]);
  }
  close(commandPipe[0]);
  close(resultPipe[1]);
  close(stderrPipe[1]);
  commandFd = commandPipe[1];
  resultFd = resultPipe[0];
  stderrFd = stderrPipe[0];
  casesRun = 0;
  if (pid < 0) {
    CaseResult error = runnerError();
    stop(/*kill=*/false);
    return error;
  }
  return {Status::Pass, "", ""};
}

int Sandbox::stop(bool kill) {
  for (int *fd : {&commandFd, &resultFd, &stderrFd}) {
    if (*fd >= 0)
      close(*fd);
    *fd = -1;
  }
  int status = 0;
  if (pid > 0) {
    if (kill)
      ::kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  pid = -1;
  return status;
}

namespace {
/// What the parent gathered from the child while a case ran.
enum class Outcome { Result, Closed, Timeout };
} // namespace

/// Reads from `resultFd` until one whole result has arrived, keeping what
/// arrives on `stderrFd` meanwhile, or until the result pipe closes or the
/// deadline passes.
static Outcome readResult(int resultFd, int stderrFd, std::string &result,
                          std::string &stderrText,
                          std::chrono::steady_clock::time_point deadline) {
  pollfd fds[2] = {{resultFd, POLLIN, 0}, {stderrFd, POLLIN, 0}};
  std::string *sinks[2] = {&result, &stderrText};
  auto complete = [&] {
    uint32_t size;
    if (result.size() < sizeof(size))
      return false;
    std::memcpy(&size, result.data(), sizeof(size));
    return result.size() >= sizeof(size) + size;
  };
  while (!complete()) {
    if (fds[0].fd < 0)
      return Outcome::Closed;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return Outcome::Timeout;
    int ready = poll(fds, 2, int(left.count()));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0)
      return Outcome::Closed;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !fds[i].revents)
        continue;
      char buffer[4096];
      ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        fds[i].fd = -1;
        continue;
      }
      sinks[i]->append(buffer, n);
    }
  }
  result.erase(0, sizeof(uint32_t));
  return Outcome::Result;
}

/// What is left in `fd` now, without waiting.
static void readAvailable(int fd, std::string &text) {
  pollfd ready = {fd, POLLIN, 0};
  char buffer[4096];
  while (poll(&ready, 1, 0) > 0 && (ready.revents & POLLIN)) {
    ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n <= 0)
      break;
    text.append(buffer, n);
  }
}

/// What a dead child left: how it ended and the end of its stderr.
static CaseResult describeCrash(int status, std::string stderrText) {
  stderrText = StringRef(stderrText).rtrim().str();
  if (stderrText.size() > kMaxStderr)
    stderrText = "..." + stderrText.substr(stderrText.size() - kMaxStderr);
  std::string how =
      WIFSIGNALED(status)
          ? std::string("killed by signal ") + strsignal(WTERMSIG(status))
          : "exited with status " + std::to_string(WEXITSTATUS(status));
  return {Status::Fail, "crash",
          how + (stderrText.empty() ? "" : ":\n" + stderrText)};
}

CaseResult Sandbox::run(unsigned index) {
  if (pid < 0) {
    CaseResult started = start();
    if (started.status != Status::Pass)
      return started;
  }
  uint32_t command = index;
  std::string resultBytes, stderrText;
  Outcome outcome = Outcome::Closed;
  if (writeAll(commandFd, StringRef(reinterpret_cast<const char *>(&command),
                                    sizeof(command))))
    outcome = readResult(resultFd, stderrFd, resultBytes, stderrText,
                         std::chrono::steady_clock::now() +
                             std::chrono::seconds(timeoutSeconds));

  CaseResult result;
  switch (outcome) {
  case Outcome::Timeout:
    stop(/*kill=*/true);
    return {Status::Fail, "timeout",
            "no result after " + std::to_string(timeoutSeconds) + " s"};
  case Outcome::Closed: {
    // The child died; what it wrote last may still be in the pipe, which
    // ends once it is reaped.
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    pid = -1;
    char buffer[4096];
    ssize_t n;
    while ((n = read(stderrFd, buffer, sizeof(buffer))) > 0)
      stderrText.append(buffer, n);
    stop(/*kill=*/false);
    return describeCrash(status, stderrText);
  }
  case Outcome::Result:
    if (!deserialize(resultBytes, result)) {
      stop(/*kill=*/true);
      return {Status::Fail, "runner error", "malformed result from the child"};
    }
    if (result.reason == kLeakReason) {
      // The child wrote the report before the result and ends after it.
      readAvailable(stderrFd, stderrText);
      // Without the rule of ='s that opens it, the report's first line
      // names the leak in the summary.
      StringRef report = StringRef(stderrText).trim().ltrim('=').ltrim();
      result.detail += ":\n" + report.take_front(2 * kMaxStderr).str() +
                       (report.size() > 2 * kMaxStderr ? "..." : "");
      stop(/*kill=*/false);
      return result;
    }
    break;
  }
  if (casesPerChild && ++casesRun >= casesPerChild)
    stop(/*kill=*/false);
  return result;
}

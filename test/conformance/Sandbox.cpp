//===- Sandbox.cpp - Running a case in a child process --------------------===//

#include "test/conformance/Sandbox.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace onyx;
using namespace onyx::conformance;

/// How much of a crashed child's stderr the report keeps (its end).
static constexpr size_t kMaxStderr = 2000;

/// The result as the child sends it: the status and whether shape inputs
/// became constants (a digit each), then reason and detail, each ended by a
/// NUL.
static std::string serialize(const CaseResult &result) {
  std::string bytes(1, char('0' + int(result.status)));
  bytes += result.shapeInputsAsConstants ? '1' : '0';
  bytes += result.reason;
  bytes += '\0';
  bytes += result.detail;
  bytes += '\0';
  return bytes;
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

static void writeAll(int fd, StringRef bytes) {
  while (!bytes.empty()) {
    ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    bytes = bytes.drop_front(n);
  }
}

/// Reads what the child writes to `resultFd` and `stderrFd` until both
/// close or the deadline passes; false on a timeout.
static bool readUntilClosed(int resultFd, int stderrFd, std::string &result,
                            std::string &stderrText,
                            std::chrono::steady_clock::time_point deadline) {
  pollfd fds[2] = {{resultFd, POLLIN, 0}, {stderrFd, POLLIN, 0}};
  std::string *sinks[2] = {&result, &stderrText};
  int open = 2;
  while (open > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return false;
    int ready = poll(fds, 2, int(left.count()));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0)
      return false;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !fds[i].revents)
        continue;
      char buffer[4096];
      ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        fds[i].fd = -1;
        --open;
        continue;
      }
      sinks[i]->append(buffer, n);
    }
  }
  return true;
}

CaseResult onyx::conformance::runInChild(llvm::function_ref<CaseResult()> body,
                                         unsigned timeoutSeconds) {
  int resultPipe[2], stderrPipe[2];
  if (pipe(resultPipe) != 0)
    return {Status::Fail, "runner error", std::strerror(errno)};
  if (pipe(stderrPipe) != 0) {
    close(resultPipe[0]);
    close(resultPipe[1]);
    return {Status::Fail, "runner error", std::strerror(errno)};
  }
  // Buffered output would otherwise be written twice, once by the child.
  llvm::outs().flush();
  llvm::errs().flush();
  pid_t pid = fork();
  if (pid == 0) {
    close(resultPipe[0]);
    close(stderrPipe[0]);
    dup2(stderrPipe[1], STDERR_FILENO);
    writeAll(resultPipe[1], serialize(body()));
    // Skips exit handlers and static destructors, which belong to the
    // parent.
    _exit(0);
  }
  close(resultPipe[1]);
  close(stderrPipe[1]);
  if (pid < 0) {
    close(resultPipe[0]);
    close(stderrPipe[0]);
    return {Status::Fail, "runner error", std::strerror(errno)};
  }

  std::string resultBytes, stderrText;
  bool finished = readUntilClosed(
      resultPipe[0], stderrPipe[0], resultBytes, stderrText,
      std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds));
  if (!finished)
    kill(pid, SIGKILL);
  close(resultPipe[0]);
  close(stderrPipe[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  if (!finished)
    return {Status::Fail, "timeout",
            "no result after " + std::to_string(timeoutSeconds) + " s"};
  CaseResult result;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
      deserialize(resultBytes, result))
    return result;
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

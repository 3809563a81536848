//===- Expectations.cpp - The list of cases that must pass ----------------===//

#include "test/conformance/Expectations.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace onyx;
using namespace onyx::conformance;

FailureOr<std::set<std::string>>
onyx::conformance::readExpectations(StringRef path, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error = "cannot read '" + path.str() + "': " + buffer.getError().message();
    return failure();
  }
  std::set<std::string> cases;
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (StringRef line : lines) {
    line = line.trim();
    if (!line.empty() && !line.starts_with("#"))
      cases.insert(line.str());
  }
  return cases;
}

LogicalResult
onyx::conformance::writeExpectations(StringRef path, StringRef header,
                                     const std::set<std::string> &cases,
                                     std::string &error) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (!ec) {
    os << header;
    for (const std::string &name : cases)
      os << name << '\n';
    os.close();
    ec = os.error();
  }
  if (ec) {
    error = "cannot write '" + path.str() + "': " + ec.message();
    os.clear_error();
    return failure();
  }
  return success();
}

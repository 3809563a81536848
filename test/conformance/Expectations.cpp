//===- Expectations.cpp - The list of cases that must pass ----------------===//

#include "test/conformance/Expectations.h"
#include "support/FileUtilities.h"

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
  return success(writeFile(
      path,
      [&](llvm::raw_ostream &os) {
        os << header;
        for (const std::string &name : cases)
          os << name << '\n';
      },
      error, /*text=*/true));
}

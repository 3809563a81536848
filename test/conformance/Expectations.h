//===- Expectations.h - The list of cases that must pass --------*- C++ -*-===//
//
// expected-ref.txt names one case per line as `SET/CASE`
// (`libonnx-testdata/test_add`), sorted; `#` starts a comment line. A run
// over one set checks and rewrites only that set's lines, so that both sets
// share one file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Support.h"

#include <set>
#include <string>

namespace onyx::conformance {

/// Reads the case names of `path`; fails with a message in `error`.
FailureOr<std::set<std::string>> readExpectations(StringRef path,
                                                  std::string &error);

/// Writes `cases` to `path` (sorted, after the comment lines of `header`).
LogicalResult writeExpectations(StringRef path, StringRef header,
                                const std::set<std::string> &cases,
                                std::string &error);

} // namespace onyx::conformance

//===- TestFiles.h - Files the unit tests write ------------------*- C++
//-*-===//
//
// The cache tests (shader kernels, the pipeline cache) corrupt the files a
// cache wrote and check that the next reader leaves them out.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/FileUtilities.h"

#include <gtest/gtest.h>

#include <string>

namespace onyx::unittest {

/// Replaces the file at `path` with `bytes`; a file that cannot be written
/// fails the test.
inline void overwriteFile(llvm::StringRef path, llvm::StringRef bytes) {
  std::string error;
  ASSERT_TRUE(writeFile(
      path, [&](llvm::raw_ostream &os) { os << bytes; }, error))
      << error;
}

} // namespace onyx::unittest

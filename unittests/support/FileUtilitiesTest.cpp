//===- FileUtilitiesTest.cpp - writeFileAtomically ------------------------===//
#include "support/FileUtilities.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

using namespace onyx;

namespace {

/// The names of the files in `directory`.
std::vector<std::string> listFiles(llvm::StringRef directory) {
  std::vector<std::string> names;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       !ec && it != end; it.increment(ec))
    names.push_back(llvm::sys::path::filename(it->path()).str());
  return names;
}

class FileUtilitiesTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("onyx-files", directory));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(directory); }
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, name);
    return path.str().str();
  }
  llvm::SmallString<256> directory;
};

TEST_F(FileUtilitiesTest, ReplacesTheFileWhole) {
  std::string path = file("cache");
  ASSERT_TRUE(writeFileAtomically(
      path, [](llvm::raw_ostream &os) { os << "old contents"; }));
  ASSERT_TRUE(
      writeFileAtomically(path, [](llvm::raw_ostream &os) { os << "new"; }));
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buffer));
  EXPECT_EQ((*buffer)->getBuffer(), "new");
  // No temporary is left beside it.
  EXPECT_EQ(listFiles(directory), std::vector<std::string>{"cache"});
}

TEST_F(FileUtilitiesTest, FailsWhereTheFolderIsMissing) {
  bool called = false;
  EXPECT_FALSE(writeFileAtomically(
      file("missing/cache"), [&](llvm::raw_ostream &) { called = true; }));
  EXPECT_FALSE(called);
  EXPECT_TRUE(listFiles(directory).empty());
}

TEST_F(FileUtilitiesTest, FailsWithoutATemporaryWhereTheRenameFails) {
  // A folder in the way: the rename over it fails.
  std::string path = file("cache");
  ASSERT_FALSE(llvm::sys::fs::create_directory(path));
  EXPECT_FALSE(
      writeFileAtomically(path, [](llvm::raw_ostream &os) { os << "data"; }));
  EXPECT_EQ(listFiles(directory), std::vector<std::string>{"cache"});
  EXPECT_TRUE(llvm::sys::fs::is_directory(path));
}

TEST_F(FileUtilitiesTest, WritesAFileOrSaysWhyNot) {
  std::string error;
  std::string path = file("out.txt");
  ASSERT_TRUE(writeFile(
      path, [](llvm::raw_ostream &os) { os << "text\n"; }, error,
      /*text=*/true));
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buffer));
  EXPECT_EQ((*buffer)->getBuffer(), "text\n");

  std::string missing = file("missing/out.txt");
  EXPECT_FALSE(writeFile(
      missing, [](llvm::raw_ostream &) {}, error));
  EXPECT_EQ(error, "cannot write '" + missing + "': No such file or directory");
}

} // namespace

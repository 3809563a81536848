//===- ShaderCompilerTest.cpp - GLSL to SPIR-V with a cache ---------------===//
#include "shader/ShaderCompiler.h"

#include "unittests/support/TestFiles.h"

#include "ir/Context.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

using namespace onyx;
using namespace onyx::shader;

namespace {

constexpr const char *kFill = R"(#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) writeonly buffer O { float o[]; };
void main() { o[gl_GlobalInvocationID.x] = 1.0; }
)";

TEST(ShaderCompilerTest, CompilesAndCachesBySource) {
  Context ctx;
  ShaderCompiler compiler;
  Location loc = UnknownLoc::get(&ctx);
  FailureOr<ArrayRef<uint32_t>> first = compiler.compile(kFill, loc);
  ASSERT_TRUE(succeeded(first));
  ASSERT_GT(first->size(), 5u);
  EXPECT_EQ((*first)[0], 0x07230203u) << "SPIR-V magic number";

  FailureOr<ArrayRef<uint32_t>> again = compiler.compile(kFill, loc);
  ASSERT_TRUE(succeeded(again));
  EXPECT_EQ(again->data(), first->data()) << "served from the cache";
  EXPECT_EQ(compiler.getStatistics().compiles, 1u);
  EXPECT_EQ(compiler.getStatistics().cacheHits, 1u);

  // Other options are another cache entry.
  CompileOptions vulkan10;
  vulkan10.vulkanVersion = {1, 0};
  FailureOr<ArrayRef<uint32_t>> old = compiler.compile(kFill, loc, vulkan10);
  ASSERT_TRUE(succeeded(old));
  EXPECT_EQ((*old)[1], 0x00010000u) << "SPIR-V 1.0";
  EXPECT_EQ((*first)[1], 0x00010500u) << "SPIR-V 1.5 for Vulkan 1.2";
  EXPECT_EQ(compiler.getStatistics().compiles, 2u);
}

/// The files in `directory`.
std::vector<std::string> listFiles(StringRef directory) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end;
       !ec && it != end; it.increment(ec))
    files.push_back(it->path());
  return files;
}

TEST(ShaderCompilerTest, KeepsKernelsInTheCacheDirectory) {
  Context ctx;
  Location loc = UnknownLoc::get(&ctx);
  llvm::SmallString<128> directory;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("onyx-cache", directory));
  llvm::sys::path::append(directory, "kernels"); // made when first written

  std::vector<uint32_t> compiled;
  {
    ShaderCompiler first;
    first.setCacheDirectory(directory);
    FailureOr<ArrayRef<uint32_t>> words = first.compile(kFill, loc);
    ASSERT_TRUE(succeeded(words));
    compiled.assign(words->begin(), words->end());
    EXPECT_EQ(first.getStatistics().compiles, 1u);
    EXPECT_EQ(first.getStatistics().diskHits, 0u);
  }
  std::vector<std::string> files = listFiles(directory);
  ASSERT_EQ(files.size(), 1u) << "one file per kernel, no temporaries left";

  // Another compiler (another process) reads it instead of compiling.
  {
    ShaderCompiler second;
    second.setCacheDirectory(directory);
    FailureOr<ArrayRef<uint32_t>> words = second.compile(kFill, loc);
    ASSERT_TRUE(succeeded(words));
    EXPECT_EQ(std::vector<uint32_t>(words->begin(), words->end()), compiled);
    EXPECT_EQ(second.getStatistics().compiles, 0u);
    EXPECT_EQ(second.getStatistics().diskHits, 1u);
  }

  // A file that is truncated, of another format, or that holds another
  // source under the same name is a miss: the kernel is compiled again and
  // the file replaced with a good one.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> good =
      llvm::MemoryBuffer::getFile(files[0]);
  ASSERT_TRUE(bool(good));
  std::string bytes = (*good)->getBuffer().str();
  std::string otherSource = bytes;
  otherSource[otherSource.find("1.0")] = '2';
  std::string badMagic = bytes;
  badMagic[0] = 'X';
  for (const std::string &corrupt :
       {bytes.substr(0, bytes.size() - 3), bytes.substr(0, 10), badMagic,
        otherSource, std::string()}) {
    unittest::overwriteFile(files[0], corrupt);
    ShaderCompiler third;
    third.setCacheDirectory(directory);
    FailureOr<ArrayRef<uint32_t>> words = third.compile(kFill, loc);
    ASSERT_TRUE(succeeded(words));
    EXPECT_EQ(std::vector<uint32_t>(words->begin(), words->end()), compiled);
    EXPECT_EQ(third.getStatistics().compiles, 1u);
    EXPECT_EQ(third.getStatistics().diskHits, 0u);
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> rewritten =
        llvm::MemoryBuffer::getFile(files[0]);
    ASSERT_TRUE(bool(rewritten));
    EXPECT_EQ((*rewritten)->getBuffer(), bytes);
  }

  // A directory that cannot be made (a file is in the way) only costs the
  // compile.
  llvm::SmallString<128> blocked(files[0]);
  llvm::sys::path::append(blocked, "sub");
  ShaderCompiler fourth;
  fourth.setCacheDirectory(blocked);
  EXPECT_TRUE(succeeded(fourth.compile(kFill, loc)));
  EXPECT_EQ(fourth.getStatistics().compiles, 1u);
  llvm::sys::fs::remove_directories(llvm::sys::path::parent_path(directory));
}

TEST(ShaderCompilerTest, ReportsErrorsAtTheGivenLocation) {
  Context ctx;
  ShaderCompiler compiler;
  Location loc = FileLineColLoc::get(&ctx, "model.onnx", 3, 5);
  ScopedDiagnosticCollector diags(&ctx);
  EXPECT_TRUE(
      failed(compiler.compile("#version 450\nvoid main() { x = 1; }\n", loc)));
  ASSERT_EQ(diags.getDiagnostics().size(), 1u);
  const Diagnostic &d = diags.getDiagnostics()[0];
  EXPECT_EQ(d.getLocation(), loc);
  EXPECT_NE(d.str().find("GLSL compilation failed"), std::string::npos);
  EXPECT_NE(d.str().find("'x' : undeclared identifier"), std::string::npos)
      << d.str();
}

} // namespace

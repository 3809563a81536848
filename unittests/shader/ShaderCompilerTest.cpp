//===- ShaderCompilerTest.cpp - GLSL to SPIR-V with a cache ---------------===//
#include "shader/ShaderCompiler.h"

#include "ir/Context.h"

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

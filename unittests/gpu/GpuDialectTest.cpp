//===- GpuDialectTest.cpp - Types, text, targets and SPIR-V reflection ----===//
#include "unittests/runtime/TestModuleBuilder.h"

#include "dialect/gpu/BufferLiveness.h"
#include "dialect/gpu/SpirvReflection.h"
#include "dialect/gpu/Target.h"

#include "ir/AsmPrinter.h"
#include "ir/Parser.h"
#include "ir/Verifier.h"

#include "llvm/Support/raw_ostream.h"

using namespace onyx;
using namespace onyx::gpu;
using namespace onyx::gpu::testing;

namespace {

constexpr const char *kReduceGlsl = R"(#version 450
layout(local_size_x = 128, local_size_y = 2) in;
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(set = 0, binding = 0) readonly buffer I { float i[]; };
layout(push_constant) uniform P { uint n; float scale; } p;
shared float partial[256];
void main() {
  uint t = gl_LocalInvocationIndex;
  partial[t] = i[gl_GlobalInvocationID.x] * p.scale;
  barrier();
  if (t == 0) o[gl_WorkGroupID.x] = partial[0] + partial[p.n];
}
)";

class GpuDialectTest : public ::testing::Test {
protected:
  GpuDialectTest() { ctx.loadDialect<GpuDialect>(); }

  std::string print(Operation *op, bool generic = false) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os, OpPrintingFlags().printGenericOpForm(generic));
    return text;
  }

  Context ctx;
};

TEST_F(GpuDialectTest, TypesPrintAndParse) {
  Type f32 = FloatType::getF32(&ctx);
  for (Type type :
       {Type(BufferType::get(&ctx, 4096)), Type(ViewType::get({2, 3}, f32)),
        Type(ViewType::get({}, FloatType::getF16(&ctx))),
        Type(ViewType::get({2, ShapedType::kDynamic}, f32))}) {
    std::string text;
    llvm::raw_string_ostream os(text);
    type.print(os);
    EXPECT_EQ(parseType(text, &ctx), type) << text;
  }
  EXPECT_EQ(getMemorySize(ViewType::get({2, 3}, f32)), 24u);
  EXPECT_EQ(getMemorySize(BufferType::get(&ctx, 4096)), 4096u);
  // A dynamic view's size is known only at run time.
  EXPECT_EQ(getMemorySize(ViewType::get({ShapedType::kDynamic}, f32)), 0u);

  ScopedDiagnosticCollector diags(&ctx);
  EXPECT_FALSE(parseType("!gpu.view<2x?f32>", &ctx));
  EXPECT_FALSE(parseType("!gpu.view<2xfoo>", &ctx));
  EXPECT_FALSE(parseType("!gpu.buffer<x>", &ctx));
  EXPECT_FALSE(parseType("!gpu.nope<1>", &ctx));
}

TEST_F(GpuDialectTest, ModuleRoundTripsInCustomAndGenericForm) {
  TestModuleBuilder m(&ctx);
  Type i32 = m.getBuilder().getI32Type();
  m.kernel("reduce", kReduceGlsl, {Access::Read, Access::Write}, {128, 2, 1},
           {i32, m.f32Type()});
  TargetDesc target;
  target.maxComputeWorkGroupInvocations = 256;
  target.maxComputeSharedMemorySize = 32768;
  m.getModule()->setAttr(TargetDesc::getAttrName(), target.toAttr(&ctx));
  m.func({m.tensor({512})}, {m.tensor({2})});
  Value arena = m.arena(4096);
  Value weights = m.weights(256);
  Value x = m.view(arena, 0, {512});
  Value y = m.view(arena, 2048, {2});
  Value w = m.weight(weights, 0, {2}, {1.5f, -2.0f});
  m.upload(0, x);
  m.dispatch("reduce", {2, 1, 1}, {x, y}, {m.i32(7), m.f32(0.5f)});
  Value z = m.view(arena, 2304, {2});
  m.copy(w, z);
  m.ret(m.download(y));
  OwningOpRef<ModuleOp> module = m.takeModule();
  ASSERT_TRUE(succeeded(verify(*module)));

  for (bool generic : {false, true}) {
    std::string text = print(*module, generic);
    OwningOpRef<ModuleOp> parsed = parseSourceString(text, &ctx);
    ASSERT_TRUE(parsed) << text;
    EXPECT_TRUE(succeeded(verify(*parsed))) << text;
    EXPECT_EQ(print(*parsed, generic), text);
  }
  std::string text = print(*module);
  EXPECT_NE(text.find("gpu.kernel @reduce(read, write) workgroup_size(128, 2, "
                      "1) push_constants(i32, f32) spirv(dense<\"0x03022307"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("gpu.dispatch @reduce[2, 1, 1](%2, %3) push(7 : i32, "
                      "5.000000e-01 : f32) : !gpu.view<512xf32>, "
                      "!gpu.view<2xf32>"),
            std::string::npos)
      << text;
}

TEST_F(GpuDialectTest, ReflectsCompiledSpirv) {
  FailureOr<ArrayRef<uint32_t>> words =
      getShaderCompiler().compile(kReduceGlsl, UnknownLoc::get(&ctx));
  ASSERT_TRUE(succeeded(words));
  std::string error;
  FailureOr<SpirvInfo> info = reflectSpirv(*words, "main", error);
  ASSERT_TRUE(succeeded(info)) << error;
  EXPECT_EQ(info->localSize, (std::array<uint32_t, 3>{128, 2, 1}));
  ASSERT_EQ(info->bindings.size(), 2u);
  EXPECT_EQ(info->bindings[0].binding, 0u);
  EXPECT_TRUE(info->bindings[0].nonWritable);
  EXPECT_TRUE(info->bindings[1].nonReadable);
  EXPECT_EQ(info->pushConstantSize, 8u);
  EXPECT_EQ(info->sharedMemorySize, 1024u);
  EXPECT_EQ(info->version, (std::array<uint32_t, 2>{1, 5}));

  EXPECT_TRUE(failed(reflectSpirv(*words, "other", error)));
  EXPECT_EQ(error, "has no compute entry point named 'other'");
  EXPECT_TRUE(failed(reflectSpirv(words->take_front(3), "main", error)));
  SmallVector<uint32_t> truncated(words->begin(), words->end());
  truncated.back() = 0xffff0000u; // an instruction claiming 65535 words
  EXPECT_TRUE(failed(reflectSpirv(truncated, "main", error)));
}

TEST_F(GpuDialectTest, TargetAttributeRoundTripsAndComparesLimits) {
  TargetDesc device;
  device.features.insert(Feature::Float16);
  device.features.insert(Feature::Int64);
  device.maxPushConstantsSize = 256;
  device.minStorageBufferOffsetAlignment = 16;
  device.subgroupSize = 32;
  FailureOr<TargetDesc> back =
      TargetDesc::fromAttr(device.toAttr(&ctx), UnknownLoc::get(&ctx));
  ASSERT_TRUE(succeeded(back));
  EXPECT_EQ(back->toAttr(&ctx), device.toAttr(&ctx));
  EXPECT_EQ(back->features, device.features);
  EXPECT_EQ(back->subgroupSize, 32u);

  // Defaults are the Vulkan minimum, which every device meets.
  EXPECT_TRUE(device.findUnmet(TargetDesc()).empty());
  TargetDesc needs;
  needs.features.insert(Feature::Float64);
  needs.maxPushConstantsSize = 512;
  needs.minStorageBufferOffsetAlignment = 4;
  needs.subgroupSize = 64;
  SmallVector<std::string> unmet = device.findUnmet(needs);
  ASSERT_EQ(unmet.size(), 4u);
  EXPECT_EQ(unmet[0], "feature 'float64' is not supported");
  EXPECT_EQ(
      unmet[1],
      "max_push_constants_size: the module needs 512, the device has 256");

  ScopedDiagnosticCollector diags(&ctx);
  Builder b(&ctx);
  EXPECT_TRUE(failed(TargetDesc::fromAttr(
      b.getDictionaryAttr({b.getNamedAttr(
          "features", b.getArrayAttr({b.getStringAttr("fp128")}))}),
      UnknownLoc::get(&ctx))));
  ASSERT_EQ(diags.getDiagnostics().size(), 1u);
  EXPECT_EQ(diags.getDiagnostics()[0].str(),
            "'gpu.target' has unknown feature 'fp128'");
}

TEST_F(GpuDialectTest, LivenessFollowsAliasesAndDispatchOrder) {
  TestModuleBuilder m(&ctx);
  m.func({m.tensor({4})}, {m.tensor({4}), m.tensor({4})});
  Value arena = m.arena(512);
  Value a = m.view(arena, 0, {4});
  Value b = m.view(arena, 256, {4});
  Value c = m.view(arena, 0, {4}); // a's bytes again, once a is dead
  Value aliasOfC = m.view(c, 0, {2, 2});
  m.upload(0, a);           // 5
  m.copy(a, b);             // 6: a's last use
  m.copy(b, aliasOfC);      // 7: c's first use, through an alias
  Value r0 = m.download(b); // 8
  Value r1 = m.download(c); // 9
  m.ret({r0, r1});
  OwningOpRef<ModuleOp> module = m.takeModule();
  ASSERT_TRUE(succeeded(verify(*module)));

  auto buffer = cast<BufferOp>(arena.getDefiningOp());
  FailureOr<BufferLiveness> liveness = BufferLiveness::analyze(buffer);
  ASSERT_TRUE(succeeded(liveness));
  ArrayRef<Allocation> allocs = liveness->getAllocations();
  ASSERT_EQ(allocs.size(), 3u);
  auto find = [&](Value v) {
    return *llvm::find_if(
        allocs, [&](const Allocation &a) { return a.op == v.getDefiningOp(); });
  };
  EXPECT_EQ(find(a).live, std::make_pair(5u, 6u));
  EXPECT_EQ(find(b).live, std::make_pair(6u, 8u));
  EXPECT_EQ(find(c).live, std::make_pair(7u, 9u));
  EXPECT_TRUE(succeeded(liveness->verifyNoLiveOverlap()));
}

} // namespace

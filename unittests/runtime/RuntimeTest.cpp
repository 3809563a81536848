//===- RuntimeTest.cpp - gpu-dialect modules run on a Vulkan device -------===//
//
// Runs hand-written kernels through the whole runtime on the machine's
// Vulkan device (lavapipe in CI) with the validation layer, including
// synchronization validation, and requires it to stay silent: devices,
// dispatches at fixed and run-time sizes, barriers, weights, views and
// copies, large grids and profiling; and the errors of bad inputs, modules
// and devices. States are in RuntimeStateTest.cpp, recordings in
// RuntimeRecordingTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "unittests/runtime/RuntimeTestFixture.h"

using namespace onyx;
using namespace onyx::gpu;
using namespace onyx::gpu::testing;
using namespace onyx::runtime;

TEST_F(RuntimeTest, ListsAndSelectsADevice) {
  ASSERT_FALSE(instance->getDevices().empty());
  FailureOr<const DeviceInfo *> chosen = instance->selectDevice();
  ASSERT_TRUE(succeeded(chosen));
  EXPECT_TRUE((*chosen)->isUsable());
  EXPECT_FALSE((*chosen)->describe().empty());
  EXPECT_TRUE(succeeded(instance->selectDevice(0u)));

  ScopedDiagnosticCollector diags(ctx);
  EXPECT_TRUE(failed(instance->selectDevice(99u)));
  ASSERT_EQ(diags.getDiagnostics().size(), 1u);
  EXPECT_NE(
      diags.getDiagnostics()[0].str().find("there is no Vulkan device 99"),
      std::string::npos);
}

TEST_F(RuntimeTest, VectorAdd) {
  constexpr int64_t n = 100;
  TestModuleBuilder m = makeBuilder();
  Type i32 = m.getBuilder().getI32Type();
  m.kernel("add", kAddGlsl, {Access::Read, Access::Read, Access::Write},
           {64, 1, 1}, {i32});
  m.func({m.tensor({n}), m.tensor({n})}, {m.tensor({n})});
  Value arena = m.arena(3 * 512);
  Value a = m.view(arena, 0, {n});
  Value b = m.view(arena, 512, {n});
  Value c = m.view(arena, 1024, {n});
  m.upload(0, a);
  m.upload(1, b);
  m.dispatch("add", {2, 1, 1}, {a, b, c}, {m.i32(n)});
  m.ret(m.download(c));
  OwningOpRef<ModuleOp> module = m.takeModule();

  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  EXPECT_EQ(exe->getStats().dispatches, 1u);
  // The dispatch reads what the uploads wrote.
  EXPECT_EQ(exe->getStats().barriers, 2u);

  // The command buffer is recorded once and re-submitted per run.
  for (float offset : {0.0f, 1000.0f}) {
    FailureOr<std::vector<HostTensor>> out =
        exe->run({tensor({n}, iota(n, offset)), tensor({n}, iota(n, 1))});
    ASSERT_TRUE(succeeded(out));
    ASSERT_EQ(out->size(), 1u);
    EXPECT_EQ((*out)[0].type, m.tensor({n}));
    std::vector<float> c = floats((*out)[0]);
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(c[i], offset + 2 * i + 1) << "element " << i;
  }
}

// One function with a `?` dimension runs at several sizes: host ops compute
// the count and grid, the runtime places the tensors for each size, and a
// size seen before reuses its recording. No pipeline is created after load.
TEST_F(RuntimeTest, DynamicDimsRunAtSeveralSizes) {
  OwningOpRef<ModuleOp> module = makeDynamicAdd();

  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  EXPECT_EQ(exe->getCounters().pipelinesCreated, 1u);
  EXPECT_EQ(exe->getCounters().recordings, 0u);
  for (int64_t size : {300, 5, 300, 0, 1000, 5}) {
    FailureOr<std::vector<HostTensor>> out = exe->run(
        {tensor({size}, iota(size, 0)), tensor({size}, iota(size, 10))});
    ASSERT_TRUE(succeeded(out)) << "size " << size;
    EXPECT_EQ((*out)[0].type, f32Type({size}));
    std::vector<float> c = floats((*out)[0]);
    ASSERT_EQ(c.size(), size_t(size));
    for (int64_t i = 0; i < size; ++i)
      ASSERT_EQ(c[i], 2 * i + 10) << "element " << i << " of " << size;
  }
  EXPECT_EQ(exe->getCounters().pipelinesCreated, 1u);
  // The second run at 300 finds its recording; growing the buffers for
  // 1000 drops the recordings made before, so 5 is recorded again.
  EXPECT_EQ(exe->getCounters().recordings, 5u);
  EXPECT_EQ(exe->getCounters().recordingHits, 1u);
}

TEST_F(RuntimeTest, ChainNeedsOneBarrierIndependentDispatchesNone) {
  constexpr int64_t n = 64;
  TestModuleBuilder m = makeBuilder();
  Type i32 = m.getBuilder().getI32Type();
  Type f32 = m.f32Type();
  m.kernel("add", kAddGlsl, {Access::Read, Access::Read, Access::Write},
           {64, 1, 1}, {i32});
  m.kernel("scale", kScaleGlsl, {Access::Read, Access::Write}, {64, 1, 1},
           {i32, f32});
  m.func({m.tensor({n}), m.tensor({n})}, {m.tensor({n}), m.tensor({n})});
  Value arena = m.arena(5 * 256);
  Value a = m.view(arena, 0, {n});
  Value b = m.view(arena, 256, {n});
  Value sum = m.view(arena, 512, {n});
  Value scaled = m.view(arena, 768, {n});
  Value halved = m.view(arena, 1024, {n});
  m.upload(0, a);
  m.upload(1, b);
  m.dispatch("add", {1, 1, 1}, {a, b, sum}, {m.i32(n)});
  // Reads what the previous dispatch wrote: a barrier.
  m.dispatch("scale", {1, 1, 1}, {sum, scaled}, {m.i32(n), m.f32(3)});
  // Reads only what an earlier barrier already ordered: none.
  m.dispatch("scale", {1, 1, 1}, {sum, halved}, {m.i32(n), m.f32(0.5)});
  m.ret({m.download(scaled), m.download(halved)});
  OwningOpRef<ModuleOp> module = m.takeModule();

  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  // Uploads -> add, add -> scale, and the scales -> downloads.
  EXPECT_EQ(exe->getStats().barriers, 3u);
  FailureOr<std::vector<HostTensor>> out =
      exe->run({tensor({n}, iota(n, 0)), tensor({n}, iota(n, 0))});
  ASSERT_TRUE(succeeded(out));
  std::vector<float> s = floats((*out)[0]), h = floats((*out)[1]);
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(s[i], 6.0f * i);
    ASSERT_EQ(h[i], 1.0f * i);
  }
}

TEST_F(RuntimeTest, WeightsAreUploadedOnce) {
  constexpr int64_t n = 8;
  TestModuleBuilder m = makeBuilder();
  Type i32 = m.getBuilder().getI32Type();
  m.kernel("add", kAddGlsl, {Access::Read, Access::Read, Access::Write},
           {64, 1, 1}, {i32});
  m.func({m.tensor({n})}, {m.tensor({n}), m.tensor({n})});
  Value arena = m.arena(512);
  Value weights = m.weights(512);
  Value x = m.view(arena, 0, {n});
  Value y = m.view(arena, 256, {n});
  Value w = m.weight(weights, 0, {n}, iota(n, 10));
  // A splat: one element stored, expanded at upload.
  Value ones = m.weight(weights, 256, {n}, {1.0f});
  m.upload(0, x);
  m.dispatch("add", {1, 1, 1}, {x, w, y}, {m.i32(n)});
  // Outputs may come straight from the weights.
  m.ret({m.download(y), m.download(ones)});
  OwningOpRef<ModuleOp> module = m.takeModule();

  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  for (int run = 0; run < 2; ++run) {
    FailureOr<std::vector<HostTensor>> out =
        exe->run({tensor({n}, iota(n, 0))});
    ASSERT_TRUE(succeeded(out));
    std::vector<float> y = floats((*out)[0]), o = floats((*out)[1]);
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(y[i], 10.0f + 2 * i);
      ASSERT_EQ(o[i], 1.0f);
    }
  }
}

TEST_F(RuntimeTest, AliasingViewsShareMemory) {
  TestModuleBuilder m = makeBuilder();
  Type i32 = m.getBuilder().getI32Type();
  Type f32 = m.f32Type();
  m.kernel("scale", kScaleGlsl, {Access::Read, Access::Write}, {64, 1, 1},
           {i32, f32});
  m.func({m.tensor({2, 3})}, {m.tensor({3, 2}), m.tensor({2})});
  Value arena = m.arena(512);
  Value x = m.view(arena, 0, {2, 3});
  // A reshape of x (no copy) feeds the kernel; its output is read back as
  // another shape, and a slice of it through a view at an offset.
  Value flat = m.view(x, 0, {6});
  Value y = m.view(arena, 256, {6});
  Value y32 = m.view(y, 0, {3, 2});
  Value tail = m.view(y, 16, {2});
  m.upload(0, x);
  m.dispatch("scale", {1, 1, 1}, {flat, y}, {m.i32(6), m.f32(2)});
  m.ret({m.download(y32), m.download(tail)});
  OwningOpRef<ModuleOp> module = m.takeModule();

  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  FailureOr<std::vector<HostTensor>> out =
      exe->run({tensor({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ((*out)[0].type, m.tensor({3, 2}));
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(floats((*out)[1]), (std::vector<float>{10, 12}));
}

TEST_F(RuntimeTest, CopiesBetweenViews) {
  TestModuleBuilder m = makeBuilder();
  m.func({m.tensor({4})}, {m.tensor({4})});
  Value arena = m.arena(512);
  Value x = m.view(arena, 0, {4});
  Value y = m.view(arena, 256, {4});
  m.upload(0, x);
  m.copy(x, y);
  m.ret(m.download(y));
  OwningOpRef<ModuleOp> module = m.takeModule();

  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  EXPECT_EQ(exe->getStats().copies, 3u);
  FailureOr<std::vector<HostTensor>> out =
      exe->run({tensor({4}, {1, 2, 3, 4})});
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{1, 2, 3, 4}));
}

TEST_F(RuntimeTest, GridsLargerThanTheDeviceLimitRunInPieces) {
  uint32_t limit = device->getInfo().maxWorkGroupCount[0];
  int64_t n = int64_t(limit) + 1000;
  TestModuleBuilder m = makeBuilder();
  Type i32 = m.getBuilder().getI32Type();
  m.kernel("iota", kIotaGlsl, {Access::Write}, {1, 1, 1}, {i32});
  m.func({}, {RankedTensorType::get({n}, i32)});
  Value arena = m.arena(n * 4);
  Value out = m.view(arena, 0, {n}, i32);
  m.dispatch("iota", {uint64_t(n), 1, 1}, {out}, {m.i32(n)});
  m.ret(m.download(out));
  OwningOpRef<ModuleOp> module = m.takeModule();

  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  EXPECT_EQ(exe->getStats().dispatchCalls, 2u);
  FailureOr<std::vector<HostTensor>> result = exe->run({});
  ASSERT_TRUE(succeeded(result));
  std::vector<uint32_t> values(n);
  std::memcpy(values.data(), (*result)[0].data.data(), n * 4);
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(values[i], uint32_t(i)) << "element " << i;
}

TEST_F(RuntimeTest, ProfilesEachDispatch) {
  constexpr int64_t n = 64;
  TestModuleBuilder m = makeBuilder();
  Type i32 = m.getBuilder().getI32Type();
  Type f32 = m.f32Type();
  m.kernel("scale", kScaleGlsl, {Access::Read, Access::Write}, {64, 1, 1},
           {i32, f32});
  m.func({m.tensor({n})}, {m.tensor({n})});
  Value arena = m.arena(512);
  Value x = m.view(arena, 0, {n});
  Value y = m.view(arena, 256, {n});
  m.upload(0, x);
  m.dispatch("scale", {1, 1, 1}, {x, y}, {m.i32(n), m.f32(2)});
  m.dispatch("scale", {1, 1, 1}, {y, x}, {m.i32(n), m.f32(2)});
  m.ret(m.download(x));
  OwningOpRef<ModuleOp> module = m.takeModule();

  std::unique_ptr<Executable> exe = load(*module, /*profile=*/true);
  ASSERT_TRUE(exe);
  EXPECT_TRUE(exe->getProfile().empty());
  FailureOr<std::vector<HostTensor>> out = exe->run({tensor({n}, iota(n, 0))});
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(floats((*out)[0])[3], 12.0f);
  if (!device->getInfo().hasTimestamps)
    GTEST_SKIP() << "the device has no timestamps";
  ASSERT_EQ(exe->getProfile().size(), 2u);
  for (const DispatchTiming &t : exe->getProfile())
    EXPECT_GE(t.microseconds, 0.0);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// The messages of the diagnostics collected while running `fn`.
template <typename Fn> static std::string collectErrors(Context *ctx, Fn fn) {
  ScopedDiagnosticCollector diags(ctx);
  fn();
  std::string all;
  for (const Diagnostic &d : diags.getDiagnostics()) {
    all += d.str() + "\n";
    for (const auto &note : d.getNotes())
      all += "  note: " + note->str() + "\n";
  }
  return all;
}

TEST_F(RuntimeTest, RejectsWrongInputs) {
  TestModuleBuilder m = makeBuilder();
  m.func({m.tensor({4})}, {m.tensor({4})});
  Value arena = m.arena(256);
  Value x = m.view(arena, 0, {4});
  m.upload(0, x);
  m.ret(m.download(x));
  OwningOpRef<ModuleOp> module = m.takeModule();
  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);

  std::string errors = collectErrors(ctx, [&] {
    EXPECT_TRUE(failed(exe->run({})));
    EXPECT_TRUE(failed(exe->run({tensor({2, 2}, {1, 2, 3, 4})})));
    HostTensor shortData = tensor({4}, {1, 2, 3, 4});
    shortData.data.pop_back();
    EXPECT_TRUE(failed(exe->run({shortData})));
  });
  EXPECT_NE(errors.find("@main takes 1 inputs, got 0"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("input #0 of @main must be tensor<4xf32>, got "
                        "tensor<2x2xf32>"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("input #0 holds 15 bytes; its type needs 16"),
            std::string::npos)
      << errors;
}

TEST_F(RuntimeTest, RejectsModulesTheDeviceCannotRun) {
  TestModuleBuilder m(ctx);
  TargetDesc needs = device->getTarget();
  needs.maxPushConstantsSize = device->getTarget().maxPushConstantsSize * 2;
  m.getModule()->setAttr(TargetDesc::getAttrName(), needs.toAttr(ctx));
  m.func({m.tensor({4})}, {m.tensor({4})});
  Value arena = m.arena(256);
  Value x = m.view(arena, 0, {4});
  m.upload(0, x);
  m.ret(m.download(x));
  OwningOpRef<ModuleOp> module = m.takeModule();

  std::string errors = collectErrors(ctx, [&] { EXPECT_FALSE(load(*module)); });
  EXPECT_NE(errors.find("cannot run this module"), std::string::npos) << errors;
  EXPECT_NE(errors.find("note: max_push_constants_size: the module needs"),
            std::string::npos)
      << errors;
}

TEST_F(RuntimeTest, RejectsOpsItCannotRun) {
  ctx->allowUnregisteredDialects();
  TestModuleBuilder m = makeBuilder();
  m.func({}, {});
  OperationState state(m.loc(), "test.unknown");
  m.getBuilder().create(state);
  m.ret({});
  OwningOpRef<ModuleOp> module = m.takeModule();
  std::string errors = collectErrors(ctx, [&] { EXPECT_FALSE(load(*module)); });
  ctx->allowUnregisteredDialects(false);
  EXPECT_NE(errors.find("'test.unknown' op is not supported by the Vulkan "
                        "runtime"),
            std::string::npos)
      << errors;
}

TEST_F(RuntimeTest, RejectsModulesThatDoNotVerify) {
  TestModuleBuilder m = makeBuilder();
  Type i32 = m.getBuilder().getI32Type();
  m.kernel("add", kAddGlsl, {Access::Read, Access::Read, Access::Write},
           {64, 1, 1}, {i32});
  m.func({}, {});
  Value arena = m.arena(512);
  Value a = m.view(arena, 0, {4});
  m.dispatch("add", {1, 1, 1}, {a, a}, {m.i32(4)});
  m.ret({});
  OwningOpRef<ModuleOp> module = m.takeModule();
  std::string errors = collectErrors(ctx, [&] { EXPECT_FALSE(load(*module)); });
  EXPECT_NE(errors.find("kernel @add has 3 bindings but 2 views are bound"),
            std::string::npos)
      << errors;
}

TEST(RuntimeErrorTest, MissingLoaderIsAClearError) {
  Context ctx;
  InstanceOptions options;
  options.loaderLibrary = "libonyx-no-such-vulkan-loader.so.1";
  std::string errors = collectErrors(
      &ctx, [&] { EXPECT_TRUE(failed(Instance::create(&ctx, options))); });
  EXPECT_NE(errors.find("cannot load the Vulkan loader "
                        "'libonyx-no-such-vulkan-loader.so.1'"),
            std::string::npos)
      << errors;
}

TEST(RuntimeErrorTest, NoDeviceIsAClearError) {
  // Point the loader at a driver list that names no driver.
  const char *vars[] = {"VK_DRIVER_FILES", "VK_ICD_FILENAMES"};
  std::vector<std::optional<std::string>> saved;
  for (const char *var : vars) {
    const char *value = std::getenv(var);
    saved.push_back(value ? std::optional<std::string>(value) : std::nullopt);
    setenv(var, "/nonexistent/onyx-no-driver.json", 1);
  }
  Context ctx;
  std::string errors = collectErrors(&ctx, [&] {
    FailureOr<std::unique_ptr<Instance>> instance = Instance::create(&ctx);
    if (succeeded(instance)) {
      EXPECT_TRUE(failed((*instance)->selectDevice()));
    }
  });
  for (auto [var, value] : llvm::zip(vars, saved)) {
    if (value)
      setenv(var, value->c_str(), 1);
    else
      unsetenv(var);
  }
  EXPECT_TRUE(errors.find("no Vulkan driver is installed") !=
                  std::string::npos ||
              errors.find("no Vulkan device found") != std::string::npos)
      << errors;
}

//===- RuntimeTest.cpp - gpu-dialect modules run on a Vulkan device -------===//
//
// Runs hand-written kernels through the whole runtime on the machine's
// Vulkan device (lavapipe in CI) with the validation layer, including
// synchronization validation, and requires it to stay silent.
//
//===----------------------------------------------------------------------===//
#include "unittests/runtime/TestModuleBuilder.h"

#include "dialect/gpu/HostOps.h"
#include "runtime/Executable.h"
#include "runtime/Instance.h"

#include <cstring>
#include <numeric>

using namespace onyx;
using namespace onyx::gpu;
using namespace onyx::gpu::testing;
using namespace onyx::runtime;

namespace {

constexpr const char *kAddGlsl = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) c[i] = a[i] + b[i];
}
)";

constexpr const char *kScaleGlsl = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; float s; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) y[i] = x[i] * p.s;
}
)";

// One invocation per workgroup so that a small tensor needs a large grid.
constexpr const char *kIotaGlsl = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };
layout(push_constant) uniform P { uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) o[i] = i;
}
)";

class RuntimeTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    ctx = new Context();
    ctx->loadDialect<GpuDialect>();
    InstanceOptions options;
    options.validation = true;
    ScopedDiagnosticCollector diags(ctx);
    FailureOr<std::unique_ptr<Instance>> created =
        Instance::create(ctx, options);
    if (succeeded(created)) {
      instance = created->release();
      FailureOr<const DeviceInfo *> info = instance->selectDevice();
      if (succeeded(info)) {
        FailureOr<std::unique_ptr<Device>> dev =
            Device::create(*instance, **info);
        if (succeeded(dev))
          device = dev->release();
      }
    }
    for (const Diagnostic &d : diags.getDiagnostics())
      setupErrors += d.str() + "\n";
  }
  static void TearDownTestSuite() {
    delete device;
    delete instance;
    delete ctx;
  }

  void SetUp() override {
    ASSERT_TRUE(device) << "no Vulkan device to test on:\n" << setupErrors;
    messagesBefore = instance->getValidationMessageCount();
  }
  void TearDown() override {
    if (!instance)
      return;
    std::vector<std::string> messages = instance->getValidationMessages();
    EXPECT_EQ(messages.size(), messagesBefore) << [&] {
      std::string all;
      for (size_t i = messagesBefore; i < messages.size(); ++i)
        all += messages[i] + "\n";
      return all;
    }();
  }

  /// A module that assumes exactly the test device's features and limits.
  TestModuleBuilder makeBuilder() {
    TestModuleBuilder builder(ctx);
    builder.getModule()->setAttr(TargetDesc::getAttrName(),
                                 device->getTarget().toAttr(ctx));
    return builder;
  }

  /// @main(a: ?xf32, b: ?xf32) -> a + b: host ops size the grid and the
  /// tensors from a's dimension.
  OwningOpRef<ModuleOp> makeDynamicAdd() {
    TestModuleBuilder m = makeBuilder();
    OpBuilder &b = m.getBuilder();
    m.kernel("add", kAddGlsl, {Access::Read, Access::Read, Access::Write},
             {64, 1, 1}, {IntegerType::get(ctx, 32, IntegerType::Unsigned)});
    RankedTensorType dyn = m.tensor({ShapedType::kDynamic});
    m.func({dyn, dyn}, {dyn});
    Value n = b.create<DimOp>(m.loc(), m.arg(0), 0)->getResult(0);
    Value c64 = b.create<ConstantOp>(m.loc(), 64)->getResult(0);
    Value groups = HostArithOp::create(b, m.loc(), "gpu.ceildivi", n, c64);
    auto view = ViewType::get(dyn);
    SmallVector<Value> views;
    for (int i = 0; i < 3; ++i)
      views.push_back(b.create<AllocOp>(m.loc(), view, n)->getResult(0));
    m.upload(0, views[0]);
    m.upload(1, views[1]);
    b.create<DispatchOp>(m.loc(), "add",
                         SmallVector<OpFoldResult>{groups,
                                                   b.getI64IntegerAttr(1),
                                                   b.getI64IntegerAttr(1)},
                         views, SmallVector<OpFoldResult>{n});
    m.ret(m.download(views[2]));
    return m.takeModule();
  }

  std::unique_ptr<Executable> load(ModuleOp module, bool profile = false) {
    LoadOptions options;
    options.profile = profile;
    FailureOr<std::unique_ptr<Executable>> exe =
        Executable::load(*device, module, options);
    if (failed(exe))
      return nullptr;
    return std::move(*exe);
  }

  static RankedTensorType f32Type(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, FloatType::getF32(ctx));
  }
  HostTensor tensor(ArrayRef<int64_t> shape, ArrayRef<float> values) {
    HostTensor t{RankedTensorType::get(shape, FloatType::getF32(ctx)), {}};
    // An empty tensor's data may be null: memcpy must not see it.
    t.data.assign(reinterpret_cast<const char *>(values.begin()),
                  reinterpret_cast<const char *>(values.end()));
    return t;
  }
  static std::vector<float> floats(const HostTensor &t) {
    std::vector<float> values(t.data.size() / sizeof(float));
    if (!values.empty())
      std::memcpy(values.data(), t.data.data(), t.data.size());
    return values;
  }

  static Context *ctx;
  static Instance *instance;
  static Device *device;
  static std::string setupErrors;
  size_t messagesBefore = 0;
};

Context *RuntimeTest::ctx = nullptr;
Instance *RuntimeTest::instance = nullptr;
Device *RuntimeTest::device = nullptr;
std::string RuntimeTest::setupErrors;

std::vector<float> iota(size_t n, float start) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

} // namespace

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

// A result kept on the device feeds the next run's argument with no host
// copy (a decoder's cache): s_{t+1} = x_t + s_t, at a growing size. Only the
// last elements of the final result are read back.
TEST_F(RuntimeTest, StatesCarryResultsToTheNextRun) {
  OwningOpRef<ModuleOp> module = makeDynamicAdd();
  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  ASSERT_TRUE(succeeded(exe->setStateBindings({{0, 1}})));

  RunOptions first;
  first.resultsToState = {0};
  RunOptions next = first;
  next.argumentsFromState = {1};
  auto shapeOnly = [&](int64_t size) {
    return HostTensorRef{f32Type({size}), {}};
  };
  // s_1 = 1 + 10, from the host.
  HostTensor x = tensor({300}, std::vector<float>(300, 1));
  HostTensor s = tensor({300}, std::vector<float>(300, 10));
  FailureOr<std::vector<HostTensor>> out =
      exe->runViews({{x.type, x.data}, {s.type, s.data}}, first);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ((*out)[0].type, f32Type({300}));
  EXPECT_TRUE((*out)[0].data.empty());
  EXPECT_EQ(exe->getStateBytes(0), 300u * 4);
  // Twice more on the device: s_3 = 1 + 1 + 11.
  for (int step = 0; step < 2; ++step) {
    out = exe->runViews({{x.type, x.data}, shapeOnly(300)}, next);
    ASSERT_TRUE(succeeded(out)) << "step " << step;
  }
  // Read back the last 4 of x + s_3.
  RunOptions read;
  read.argumentsFromState = {1};
  read.lastElements = {{0, 4}};
  HostTensor ramp = tensor({300}, iota(300, 0));
  out = exe->runViews({{ramp.type, ramp.data}, shapeOnly(300)}, read);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ((*out)[0].type, f32Type({4}));
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{309, 310, 311, 312}));

  // A state read at another size than it holds is an error, and so is an
  // argument no binding names or an input with data from a state.
  ScopedDiagnosticCollector diags(ctx);
  EXPECT_TRUE(failed(exe->runViews({{x.type, x.data}, shapeOnly(301)}, next)));
  RunOptions unbound;
  unbound.argumentsFromState = {0};
  EXPECT_TRUE(
      failed(exe->runViews({shapeOnly(300), {s.type, s.data}}, unbound)));
  EXPECT_TRUE(
      failed(exe->runViews({{x.type, x.data}, {s.type, s.data}}, next)));
  EXPECT_TRUE(failed(exe->setStateBindings({{0, 0}, {0, 1}})));
  ASSERT_EQ(diags.getDiagnostics().size(), 4u);
  EXPECT_NE(diags.getDiagnostics()[0].str().find(
                "comes from the state of result #0, which holds 1200 bytes"),
            std::string::npos)
      << diags.getDiagnostics()[0].str();
}

constexpr const char *kAppendGlsl = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer S { float s[]; };
layout(push_constant) uniform P { uint past; uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) s[p.past + i] = a[i];
}
)";

// A result written in place into the state its argument reads (gpu.alloc
// {state}): each run appends its input after what the state holds, and
// nothing copies the state in or out.
TEST_F(RuntimeTest, StateWrittenInPlaceIsAppendedWithoutCopies) {
  TestModuleBuilder m = makeBuilder();
  OpBuilder &b = m.getBuilder();
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  m.kernel("append", kAppendGlsl, {Access::Read, Access::Write}, {64, 1, 1},
           {u32, u32});
  RankedTensorType dyn = m.tensor({ShapedType::kDynamic});
  m.func({dyn, dyn}, {dyn, dyn});
  Value past = b.create<DimOp>(m.loc(), m.arg(0), 0)->getResult(0);
  Value n = b.create<DimOp>(m.loc(), m.arg(1), 0)->getResult(0);
  Value total = HostArithOp::create(b, m.loc(), "gpu.addi", past, n);
  Value c64 = b.create<ConstantOp>(m.loc(), 64)->getResult(0);
  Value groups = HostArithOp::create(b, m.loc(), "gpu.ceildivi", n, c64);
  auto view = ViewType::get(dyn);
  Value fresh = b.create<AllocOp>(m.loc(), view, n)->getResult(0);
  m.upload(1, fresh);
  auto state = b.create<AllocOp>(m.loc(), view, total);
  state->setAttr("state", b.getI64IntegerAttr(0));
  b.create<DispatchOp>(m.loc(), "append",
                       SmallVector<OpFoldResult>{groups, b.getI64IntegerAttr(1),
                                                 b.getI64IntegerAttr(1)},
                       ValueRange{fresh, state->getResult(0)},
                       SmallVector<OpFoldResult>{past, n});
  // The whole state, read back through a copy.
  Value all = b.create<AllocOp>(m.loc(), view, total)->getResult(0);
  b.create<CopyOp>(m.loc(), state->getResult(0), all);
  Value kept =
      b.create<DownloadOp>(m.loc(), state->getResult(0), ArrayRef<int64_t>{0})
          ->getResult(0);
  m.ret({kept, m.download(all)});
  OwningOpRef<ModuleOp> module = m.takeModule();
  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  ASSERT_TRUE(succeeded(exe->setStateBindings({{0, 0}})));

  RunOptions first;
  first.resultsToState = {0};
  RunOptions next = first;
  next.argumentsFromState = {0};
  HostTensor a = tensor({3}, {1, 2, 3});
  FailureOr<std::vector<HostTensor>> out =
      exe->runViews({{f32Type({0}), {}}, {a.type, a.data}}, first);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ((*out)[0].type, f32Type({3}));
  EXPECT_TRUE((*out)[0].data.empty());
  EXPECT_EQ(exe->getStateBytes(0), 3u * 4);
  HostTensor c = tensor({2}, {4, 5});
  out = exe->runViews({{f32Type({3}), {}}, {c.type, c.data}}, next);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(floats((*out)[1]), (std::vector<float>{1, 2, 3, 4, 5}));
  EXPECT_EQ(exe->getStateBytes(0), 5u * 4);
  // The input in, the state's copy out; nothing of the state moved.
  EXPECT_EQ(exe->getStats().copies, 3u);
  EXPECT_EQ(exe->getStats().stateCopies, 0u);

  // A reserved state holds 6 elements and does not grow past them.
  ASSERT_TRUE(succeeded(exe->reserveState(0, 6 * 4)));
  EXPECT_EQ(exe->getStateCapacity(0), 6u * 4);
  HostTensor d = tensor({1}, {6});
  out = exe->runViews({{f32Type({5}), {}}, {d.type, d.data}}, next);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(floats((*out)[1]), (std::vector<float>{1, 2, 3, 4, 5, 6}));

  ScopedDiagnosticCollector diags(ctx);
  EXPECT_TRUE(
      failed(exe->runViews({{f32Type({6}), {}}, {d.type, d.data}}, next)));
  // An argument read in place takes no host data, and a result written in
  // place must stay in its state.
  HostTensor e = tensor({2}, {7, 8});
  EXPECT_TRUE(failed(
      exe->runViews({{e.type, e.data}, {d.type, d.data}}, RunOptions())));
  EXPECT_TRUE(failed(
      exe->runViews({{f32Type({0}), {}}, {d.type, d.data}}, RunOptions())));
  ASSERT_EQ(diags.getDiagnostics().size(), 3u);
  EXPECT_NE(diags.getDiagnostics()[0].str().find(
                "the state of argument #0 was reserved at 24 bytes; this run "
                "needs 28"),
            std::string::npos)
      << diags.getDiagnostics()[0].str();
  EXPECT_NE(
      diags.getDiagnostics()[1].str().find("is read in place from its state"),
      std::string::npos)
      << diags.getDiagnostics()[1].str();
  EXPECT_NE(diags.getDiagnostics()[2].str().find("the run must keep it there"),
            std::string::npos)
      << diags.getDiagnostics()[2].str();
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

// Recordings of the same shapes with different state use bind the same
// bytes in their dispatch: the second takes the first's descriptor set
// instead of writing its own.
TEST_F(RuntimeTest, RecordingsShareDescriptorSetsOfUnchangedBindings) {
  OwningOpRef<ModuleOp> module = makeDynamicAdd();
  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  HostTensor a = tensor({300}, iota(300, 0)), b = tensor({300}, iota(300, 10));
  ASSERT_TRUE(succeeded(exe->run({a, b})));
  EXPECT_EQ(exe->getCounters().descriptorSetsWritten, 1u);
  EXPECT_EQ(exe->getCounters().descriptorSetsReused, 0u);
  RunOptions tail;
  tail.lastElements = {{0, 2}};
  FailureOr<std::vector<HostTensor>> out =
      exe->runViews({{a.type, a.data}, {b.type, b.data}}, tail);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{606, 608}));
  EXPECT_EQ(exe->getCounters().recordings, 2u);
  EXPECT_EQ(exe->getCounters().descriptorSetsWritten, 1u);
  EXPECT_EQ(exe->getCounters().descriptorSetsReused, 1u);
  // Other sizes bind other bytes.
  HostTensor c = tensor({200}, iota(200, 0)), d = tensor({200}, iota(200, 10));
  ASSERT_TRUE(succeeded(exe->run({c, d})));
  EXPECT_EQ(exe->getCounters().descriptorSetsWritten, 2u);
}

// A recording prepared ahead (from shapes alone, while another run is in
// flight) is the one its run uses; a prepare that must grow a buffer waits
// for the run in flight first, whose outputs finish() still returns.
TEST_F(RuntimeTest, RecordingsArePreparedAheadOfTheirRun) {
  OwningOpRef<ModuleOp> module = makeDynamicAdd();
  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  auto check = [&](int64_t size, const std::vector<HostTensor> &out) {
    std::vector<float> c = floats(out[0]);
    ASSERT_EQ(c.size(), size_t(size));
    for (int64_t i = 0; i < size; ++i)
      ASSERT_EQ(c[i], 2 * i + 10) << "element " << i << " of " << size;
  };
  auto shapes = [&](int64_t size) {
    return std::vector<HostTensorRef>{{f32Type({size}), {}},
                                      {f32Type({size}), {}}};
  };
  HostTensor a = tensor({300}, iota(300, 0)), b = tensor({300}, iota(300, 10));
  ASSERT_TRUE(succeeded(exe->launch({{a.type, a.data}, {b.type, b.data}})));
  // Smaller: no buffer grows, the run stays in flight.
  ASSERT_TRUE(succeeded(exe->prepare(shapes(100))));
  // Larger: the arena grows after the run in flight finished.
  ASSERT_TRUE(succeeded(exe->prepare(shapes(5000))));
  FailureOr<std::vector<HostTensor>> out = exe->finish();
  ASSERT_TRUE(succeeded(out));
  check(300, *out);
  EXPECT_EQ(exe->getCounters().recordingsAhead, 2u);
  EXPECT_GE(exe->getCounters().bufferGrowths, 1u);
  unsigned made = exe->getCounters().recordings;
  HostTensor x = tensor({5000}, iota(5000, 0)),
             y = tensor({5000}, iota(5000, 10));
  out = exe->run({x, y});
  ASSERT_TRUE(succeeded(out));
  check(5000, *out);
  EXPECT_EQ(exe->getCounters().recordings, made);
  EXPECT_EQ(exe->getCounters().recordingHits, 1u);

  // One run at a time, and finish() only after a launch.
  ScopedDiagnosticCollector diags(ctx);
  ASSERT_TRUE(succeeded(exe->launch({{x.type, x.data}, {y.type, y.data}})));
  EXPECT_TRUE(failed(exe->launch({{x.type, x.data}, {y.type, y.data}})));
  EXPECT_TRUE(succeeded(exe->finish()));
  EXPECT_TRUE(failed(exe->finish()));
  ASSERT_EQ(diags.getDiagnostics().size(), 2u);
  EXPECT_NE(diags.getDiagnostics()[0].str().find("is in flight"),
            std::string::npos);
  EXPECT_NE(diags.getDiagnostics()[1].str().find("no run of @main"),
            std::string::npos);
}

// A generation's shapes never repeat: the recordings kept stay at
// LoadOptions::maxRecordings, the least recently used going first, and
// their descriptor sets and command buffers serve the new ones.
TEST_F(RuntimeTest, RecordingsAreEvictedBeyondTheLimit) {
  OwningOpRef<ModuleOp> module = makeDynamicAdd();
  LoadOptions options;
  options.maxRecordings = 3;
  FailureOr<std::unique_ptr<Executable>> exe =
      Executable::load(*device, *module, options);
  ASSERT_TRUE(succeeded(exe));
  // Largest first, so that no buffer grows (which drops every recording).
  for (int64_t size = 1000; size > 980; --size) {
    FailureOr<std::vector<HostTensor>> out = (*exe)->run(
        {tensor({size}, iota(size, 0)), tensor({size}, iota(size, 10))});
    ASSERT_TRUE(succeeded(out)) << "size " << size;
    std::vector<float> c = floats((*out)[0]);
    ASSERT_EQ(c.size(), size_t(size));
    EXPECT_EQ(c.back(), 2 * (size - 1) + 10) << "size " << size;
    EXPECT_LE((*exe)->getNumRecordings(), 3u);
  }
  const ExecutableCounters &counters = (*exe)->getCounters();
  EXPECT_EQ(counters.recordings, 20u);
  EXPECT_EQ(counters.recordingsEvicted, 17u);
  // The most recent sizes are still there.
  ASSERT_TRUE(succeeded((*exe)->run(
      {tensor({982}, iota(982, 0)), tensor({982}, iota(982, 10))})));
  EXPECT_EQ(counters.recordingHits, 1u);
  EXPECT_EQ(counters.recordings, 20u);
}

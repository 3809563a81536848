//===- RuntimeTestFixture.h - A Vulkan device for runtime tests -*- C++ -*-===//
//
// The fixture of the runtime's tests (RuntimeTest.cpp, RuntimeStateTest.cpp,
// RuntimeRecordingTest.cpp): one instance and device for the whole suite,
// with the validation layer, including synchronization validation, which
// each test requires to stay silent; and the kernels and modules several
// tests run.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "unittests/runtime/TestModuleBuilder.h"

#include "dialect/gpu/HostOps.h"
#include "runtime/Executable.h"
#include "runtime/Instance.h"

#include <cstring>
#include <numeric>

namespace onyx::gpu::testing {

using namespace onyx::runtime;

inline constexpr const char *kAddGlsl = R"(#version 450
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

inline constexpr const char *kScaleGlsl = R"(#version 450
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
inline constexpr const char *kIotaGlsl = R"(#version 450
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

  /// Run options that keep result #0 in its state: `first`, and `next`,
  /// which also reads argument `fromState` from that state.
  struct StateRuns {
    RunOptions first, next;
  };
  static StateRuns keepResultInState(unsigned fromState) {
    StateRuns runs;
    runs.first.resultsToState = {0};
    runs.next = runs.first;
    runs.next.argumentsFromState = {fromState};
    return runs;
  }
  /// Expects result #0 of a run, `results`, to have stayed in state 0: its
  /// type, of `size` floats, comes back without data.
  static void expectKeptInState(const Executable &exe,
                                const std::vector<HostTensor> &results,
                                int64_t size) {
    EXPECT_EQ(results[0].type, f32Type({size}));
    EXPECT_TRUE(results[0].data.empty());
    EXPECT_EQ(exe.getStateBytes(0), uint64_t(size) * 4);
  }

  inline static Context *ctx = nullptr;
  inline static Instance *instance = nullptr;
  inline static Device *device = nullptr;
  inline static std::string setupErrors;
  size_t messagesBefore = 0;
};

inline std::vector<float> iota(size_t n, float start) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

} // namespace onyx::gpu::testing

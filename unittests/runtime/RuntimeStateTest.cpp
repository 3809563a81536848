//===- RuntimeStateTest.cpp - Results kept on the device between runs -----===//
//
// States: a result kept in device memory feeds the next run's argument with
// no host copy (a decoder's cache), and a result written in place into the
// state its argument reads grows it run after run; what each misuse reports.
//
//===----------------------------------------------------------------------===//

#include "unittests/runtime/RuntimeTestFixture.h"

using namespace onyx;
using namespace onyx::gpu;
using namespace onyx::gpu::testing;
using namespace onyx::runtime;

// A result kept on the device feeds the next run's argument with no host
// copy (a decoder's cache): s_{t+1} = x_t + s_t, at a growing size. Only the
// last elements of the final result are read back.
TEST_F(RuntimeTest, StatesCarryResultsToTheNextRun) {
  OwningOpRef<ModuleOp> module = makeDynamicAdd();
  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  ASSERT_TRUE(succeeded(exe->setStateBindings({{0, 1}})));

  auto [first, next] = keepResultInState(1);
  auto shapeOnly = [&](int64_t size) {
    return HostTensorRef{f32Type({size}), {}};
  };
  // s_1 = 1 + 10, from the host.
  HostTensor x = tensor({300}, std::vector<float>(300, 1));
  HostTensor s = tensor({300}, std::vector<float>(300, 10));
  FailureOr<std::vector<HostTensor>> out =
      exe->runViews({{x.type, x.data}, {s.type, s.data}}, first);
  ASSERT_TRUE(succeeded(out));
  expectKeptInState(*exe, *out, 300);
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

  auto [first, next] = keepResultInState(0);
  HostTensor a = tensor({3}, {1, 2, 3});
  FailureOr<std::vector<HostTensor>> out =
      exe->runViews({{f32Type({0}), {}}, {a.type, a.data}}, first);
  ASSERT_TRUE(succeeded(out));
  expectKeptInState(*exe, *out, 3);
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

// Two runs in flight chained through a state, as a decoder's steps are when
// the token is picked on the device: the second is launched before the
// first finished, reads what the first leaves in the state (the queue runs
// them in order), and both results are also read back. A result may be
// discarded: it comes back with its shape and no data.
TEST_F(RuntimeTest, RunsInFlightChainThroughAState) {
  OwningOpRef<ModuleOp> module = makeDynamicAdd();
  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  ASSERT_TRUE(exe->canOverlapRuns());
  ASSERT_TRUE(succeeded(exe->setStateBindings({{0, 1}})));

  RunOptions first, next;
  first.resultsToStateAndHost = {0};
  next = first;
  next.argumentsFromState = {1};
  HostTensor x = tensor({300}, std::vector<float>(300, 1));
  HostTensor s = tensor({300}, std::vector<float>(300, 10));
  HostTensorRef fromState{f32Type({300}), {}};
  // s_1 = 1 + 10; s_2 = 1 + s_1, launched while s_1 may still run.
  ASSERT_TRUE(
      succeeded(exe->launch({{x.type, x.data}, {s.type, s.data}}, first)));
  ASSERT_TRUE(succeeded(exe->launch({{x.type, x.data}, fromState}, next)));
  std::vector<float> expected = {11, 12, 13, 14, 15};
  for (int step = 0; step < 5; ++step) {
    FailureOr<std::vector<HostTensor>> out = exe->finish();
    ASSERT_TRUE(succeeded(out)) << "step " << step;
    std::vector<float> values = floats((*out)[0]);
    ASSERT_EQ(values.size(), 300u);
    EXPECT_EQ(values.front(), expected[step]) << "step " << step;
    EXPECT_EQ(values.back(), expected[step]) << "step " << step;
    // The next one is launched before this one's successor finished.
    if (step + 2 < 5)
      ASSERT_TRUE(succeeded(exe->launch({{x.type, x.data}, fromState}, next)));
  }
  EXPECT_EQ(exe->getNumRunsInFlight(), 0u);
  EXPECT_EQ(exe->getStateBytes(0), 300u * 4);

  // Discarded: nothing comes back, and the state is untouched.
  RunOptions discard;
  discard.argumentsFromState = {1};
  discard.discardedResults = {0};
  FailureOr<std::vector<HostTensor>> out =
      exe->runViews({{x.type, x.data}, fromState}, discard);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ((*out)[0].type, f32Type({300}));
  EXPECT_TRUE((*out)[0].data.empty());
  RunOptions read;
  read.argumentsFromState = {1};
  HostTensor zero = tensor({300}, std::vector<float>(300, 0));
  out = exe->runViews({{zero.type, zero.data}, fromState}, read);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(floats((*out)[0]).front(), 15);

  // A result cannot be both kept only and downloaded too, nor discarded
  // while kept.
  ScopedDiagnosticCollector diags(ctx);
  RunOptions both;
  both.argumentsFromState = {1};
  both.resultsToState = {0};
  both.resultsToStateAndHost = {0};
  EXPECT_TRUE(failed(exe->runViews({{x.type, x.data}, fromState}, both)));
  RunOptions keptDiscarded;
  keptDiscarded.argumentsFromState = {1};
  keptDiscarded.resultsToState = {0};
  keptDiscarded.discardedResults = {0};
  EXPECT_TRUE(
      failed(exe->runViews({{x.type, x.data}, fromState}, keptDiscarded)));
  ASSERT_EQ(diags.getDiagnostics().size(), 2u);
  EXPECT_NE(diags.getDiagnostics()[1].str().find("cannot be discarded"),
            std::string::npos)
      << diags.getDiagnostics()[1].str();
}

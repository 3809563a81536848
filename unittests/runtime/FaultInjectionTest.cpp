//===- FaultInjectionTest.cpp - Vulkan failures injected into a device ----===//
//
// The plans of runtime/FaultInjection.h, and what a Device does after an
// injected failure: a lost device refuses further work with the reason, a
// new device on the same instance works, and the validation layer finds
// nothing left over when the devices are destroyed.
//
//===----------------------------------------------------------------------===//
#include "runtime/FaultInjection.h"
#include "runtime/Device.h"

#include "ir/Context.h"
#include "ir/Diagnostics.h"

#include <gtest/gtest.h>

using namespace onyx;
using namespace onyx::runtime;

namespace {

TEST(FaultPlanTest, ParsesAndCountsEachPointOnce) {
  std::string error;
  ASSERT_TRUE(succeeded(setFaultPlan("alloc:2, wait:1:timeout", error)));
  EXPECT_EQ(takeFault(FaultPoint::Alloc), VK_SUCCESS);
  EXPECT_EQ(takeFault(FaultPoint::Submit), VK_SUCCESS);
  EXPECT_EQ(takeFault(FaultPoint::Alloc), VK_ERROR_OUT_OF_DEVICE_MEMORY);
  EXPECT_EQ(takeFault(FaultPoint::Wait), VK_TIMEOUT);
  // Each entry fires once.
  EXPECT_EQ(takeFault(FaultPoint::Alloc), VK_SUCCESS);
  EXPECT_EQ(takeFault(FaultPoint::Wait), VK_SUCCESS);
  ASSERT_TRUE(succeeded(setFaultPlan("submit:1,pipeline:1", error)));
  EXPECT_EQ(takeFault(FaultPoint::Submit), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(takeFault(FaultPoint::Pipeline), VK_ERROR_OUT_OF_DEVICE_MEMORY);
  ASSERT_TRUE(succeeded(setFaultPlan("", error)));
  EXPECT_EQ(takeFault(FaultPoint::Submit), VK_SUCCESS);
}

TEST(FaultPlanTest, RefusesMalformedPlansAndKeepsTheOldOne) {
  std::string error;
  ASSERT_TRUE(succeeded(setFaultPlan("submit:1", error)));
  for (const char *bad :
       {"submit", "submit:x", "submit:0", "submit:1:2:3", "map:1",
        "alloc:1:timeout", "pipeline:1:lost", "wait:1:slow", "submit:-1"}) {
    error.clear();
    EXPECT_TRUE(failed(setFaultPlan(bad, error))) << bad;
    EXPECT_NE(error.find("expected POINT:N[:RESULT]"), std::string::npos)
        << error;
  }
  EXPECT_EQ(takeFault(FaultPoint::Submit), VK_ERROR_DEVICE_LOST);
  ASSERT_TRUE(succeeded(setFaultPlan("", error)));
}

class DeviceFaultTest : public ::testing::Test {
protected:
  void SetUp() override {
    InstanceOptions options;
    options.validation = true;
    ScopedDiagnosticCollector diags(&ctx);
    FailureOr<std::unique_ptr<Instance>> created =
        Instance::create(&ctx, options);
    ASSERT_TRUE(succeeded(created)) << "no Vulkan instance";
    instance = std::move(*created);
    FailureOr<const DeviceInfo *> selected = instance->selectDevice();
    ASSERT_TRUE(succeeded(selected)) << "no Vulkan device";
    info = *selected;
  }
  void TearDown() override {
    std::string error;
    EXPECT_TRUE(succeeded(setFaultPlan("", error)));
    if (!instance)
      return;
    // Every device is gone: the layer has reported any object left over.
    std::string all;
    for (const std::string &message : instance->getValidationMessages())
      all += message + "\n";
    EXPECT_EQ(all, "");
  }

  std::unique_ptr<Device> createDevice(DeviceOptions options = {}) {
    FailureOr<std::unique_ptr<Device>> device =
        Device::create(*instance, *info, options);
    EXPECT_TRUE(succeeded(device));
    return succeeded(device) ? std::move(*device) : nullptr;
  }

  /// Runs an empty command buffer; the errors reported, if any.
  std::string runEmpty(const Device &device, bool &ok) {
    ScopedDiagnosticCollector diags(&ctx);
    ok = succeeded(
        device.runOnce([](VkCommandBuffer) {}, UnknownLoc::get(&ctx)));
    std::string text;
    for (const Diagnostic &d : diags.getDiagnostics())
      text += d.str();
    return text;
  }

  Context ctx;
  std::unique_ptr<Instance> instance;
  const DeviceInfo *info = nullptr;
};

TEST_F(DeviceFaultTest, LostDeviceRefusesWorkAndANewOneRuns) {
  std::unique_ptr<Device> device = createDevice();
  ASSERT_TRUE(device);
  bool ok;
  EXPECT_EQ(runEmpty(*device, ok), "");
  EXPECT_TRUE(ok);
  std::string error;
  ASSERT_TRUE(succeeded(setFaultPlan("wait:1:lost", error)));
  EXPECT_NE(runEmpty(*device, ok)
                .find("vkWaitForFences failed: VK_ERROR_DEVICE_LOST"),
            std::string::npos);
  EXPECT_FALSE(ok);
  EXPECT_TRUE(device->isLost());
  // Lost for good, though the injected fault has fired.
  std::string again = runEmpty(*device, ok);
  EXPECT_FALSE(ok);
  EXPECT_NE(again.find("was lost (vkWaitForFences returned "
                       "VK_ERROR_DEVICE_LOST); what ran on it is gone"),
            std::string::npos)
      << again;
  {
    ScopedDiagnosticCollector diags(&ctx);
    EXPECT_TRUE(failed(
        device->createBuffer(16, MemoryKind::Device, UnknownLoc::get(&ctx))));
  }
  // Recovery: the device created again runs.
  device.reset();
  device = createDevice();
  ASSERT_TRUE(device);
  EXPECT_EQ(runEmpty(*device, ok), "");
  EXPECT_TRUE(ok);
  EXPECT_FALSE(device->isLost());
}

TEST_F(DeviceFaultTest, SubmitFailureLeavesNothingPending) {
  std::unique_ptr<Device> device = createDevice();
  ASSERT_TRUE(device);
  std::string error;
  ASSERT_TRUE(succeeded(setFaultPlan("submit:1:lost", error)));
  bool ok;
  EXPECT_NE(
      runEmpty(*device, ok).find("vkQueueSubmit failed: VK_ERROR_DEVICE_LOST"),
      std::string::npos);
  EXPECT_FALSE(ok);
  EXPECT_TRUE(device->isLost());
}

TEST_F(DeviceFaultTest, TimedOutWaitNamesTheTimeoutAndLosesTheDevice) {
  DeviceOptions options;
  options.waitTimeoutSeconds = 7;
  std::unique_ptr<Device> device = createDevice(options);
  ASSERT_TRUE(device);
  std::string error;
  ASSERT_TRUE(succeeded(setFaultPlan("wait:1:timeout", error)));
  bool ok;
  std::string text = runEmpty(*device, ok);
  EXPECT_FALSE(ok);
  EXPECT_NE(text.find("did not finish its work within 7 s"), std::string::npos)
      << text;
  EXPECT_TRUE(device->isLost());
}

TEST_F(DeviceFaultTest, FailedAllocationFreesTheBuffer) {
  std::unique_ptr<Device> device = createDevice();
  ASSERT_TRUE(device);
  std::string error;
  ASSERT_TRUE(succeeded(setFaultPlan("alloc:2", error)));
  ScopedDiagnosticCollector diags(&ctx);
  Location loc = UnknownLoc::get(&ctx);
  auto first = device->createBuffer(64, MemoryKind::Upload, loc);
  EXPECT_TRUE(succeeded(first));
  EXPECT_TRUE(failed(device->createBuffer(64, MemoryKind::Device, loc)));
  ASSERT_EQ(diags.getDiagnostics().size(), 1u);
  EXPECT_NE(diags.getDiagnostics()[0].str().find(
                "vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY"),
            std::string::npos);
  // Not lost: running out of memory leaves the device usable.
  EXPECT_FALSE(device->isLost());
  EXPECT_TRUE(succeeded(device->createBuffer(64, MemoryKind::Device, loc)));
}

} // namespace

//===- PipelineCacheTest.cpp - The pipeline cache kept between processes --===//
//
// A device given a cache directory reads its pipeline cache file when it is
// created, and only if the file's header names this device and driver: a
// truncated file, or one of another GPU, never reaches the driver.
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"

#include "unittests/support/TestFiles.h"

#include "dialect/gpu/GpuDialect.h"
#include "ir/Context.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace onyx;
using namespace onyx::runtime;

namespace {

TEST(PipelineCacheTest, ReadsOnlyAHeaderOfThisDevice) {
  Context ctx;
  ctx.loadDialect<gpu::GpuDialect>();
  FailureOr<std::unique_ptr<Instance>> instance = Instance::create(&ctx, {});
  ASSERT_TRUE(succeeded(instance)) << "no Vulkan loader";
  FailureOr<const DeviceInfo *> info = (*instance)->selectDevice();
  ASSERT_TRUE(succeeded(info)) << "no Vulkan device";
  llvm::SmallString<128> directory;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("onyx-cache", directory));
  DeviceOptions options;
  options.pipelineCacheDirectory = std::string(directory);

  auto create = [&]() -> std::unique_ptr<Device> {
    FailureOr<std::unique_ptr<Device>> device =
        Device::create(**instance, **info, options);
    return succeeded(device) ? std::move(*device) : nullptr;
  };
  std::string path;
  VkPipelineCacheHeaderVersionOne header;
  {
    std::unique_ptr<Device> device = create();
    ASSERT_TRUE(device);
    EXPECT_EQ(device->getPipelineCacheBytesLoaded(), 0u) << "no file yet";
    path = device->getPipelineCachePath();
    ASSERT_TRUE(StringRef(path).starts_with(directory));
    VkPhysicalDeviceProperties properties;
    (*instance)->getApi().vkGetPhysicalDeviceProperties((*info)->handle,
                                                        &properties);
    header.headerSize = sizeof(header);
    header.headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
    header.vendorID = properties.vendorID;
    header.deviceID = properties.deviceID;
    std::memcpy(header.pipelineCacheUUID, properties.pipelineCacheUUID,
                VK_UUID_SIZE);
  }
  StringRef bytes(reinterpret_cast<const char *>(&header), sizeof(header));

  // What this device's driver wrote (here: a header with no pipelines) is
  // read back.
  unittest::overwriteFile(path, bytes);
  EXPECT_EQ(create()->getPipelineCacheBytesLoaded(), sizeof(header));

  // Anything else is left out.
  VkPipelineCacheHeaderVersionOne other = header;
  other.vendorID ^= 1;
  VkPipelineCacheHeaderVersionOne otherUuid = header;
  otherUuid.pipelineCacheUUID[3] ^= 0xff;
  VkPipelineCacheHeaderVersionOne huge = header;
  huge.headerSize = 1 << 20;
  for (const VkPipelineCacheHeaderVersionOne &h : {other, otherUuid, huge}) {
    unittest::overwriteFile(
        path, StringRef(reinterpret_cast<const char *>(&h), sizeof(h)));
    std::unique_ptr<Device> device = create();
    ASSERT_TRUE(device);
    EXPECT_EQ(device->getPipelineCacheBytesLoaded(), 0u);
  }
  for (StringRef truncated : {bytes.take_front(7), StringRef()}) {
    unittest::overwriteFile(path, truncated);
    std::unique_ptr<Device> device = create();
    ASSERT_TRUE(device);
    EXPECT_EQ(device->getPipelineCacheBytesLoaded(), 0u);
  }
  llvm::sys::fs::remove_directories(directory);
}

} // namespace

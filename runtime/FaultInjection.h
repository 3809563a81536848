//===- FaultInjection.h - Vulkan failures on demand, for tests --*- C++ -*-===//
//
// Real GPUs run out of memory, lose the device (a driver reset after a hung
// kernel) or hang; lavapipe never does. So that the paths that handle those
// failures run in tests, the runtime asks this module before each call that
// can fail that way: the Nth memory allocation, compute pipeline creation,
// queue submission or fence wait of the process can be made to fail with a
// chosen VkResult. A plan is a comma-separated list of `POINT:N[:RESULT]`:
//
//   POINT   alloc (vkAllocateMemory), pipeline (vkCreateComputePipelines),
//           submit (vkQueueSubmit), wait (vkWaitForFences)
//   N       which call fails, counting from 1 since the plan was set
//   RESULT  oom (VK_ERROR_OUT_OF_DEVICE_MEMORY; the default of alloc and
//           pipeline), lost (VK_ERROR_DEVICE_LOST; the default of submit and
//           wait) or timeout (VK_TIMEOUT; wait only)
//
// e.g. ONYX_VK_FAULT=alloc:3 or ONYX_VK_FAULT=submit:1:lost,wait:2:timeout.
// Each entry fires once. The environment variable is read when the first
// device is created; setFaultPlan replaces the plan (Python's tests use it
// to lose a device mid-session). A failing call does nothing (a submission
// is not submitted, nothing is allocated), except a wait, which waits for
// the work first and then reports the failure, so that the work never
// outlives what it uses.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/VulkanApi.h"

#include <string>

namespace onyx::runtime {

enum class FaultPoint { Alloc, Pipeline, Submit, Wait };

/// Replaces the plan with `spec` (empty: no faults) and restarts the
/// counts; on a malformed spec keeps the old plan and says why.
LogicalResult setFaultPlan(StringRef spec, std::string &error);

/// Reads ONYX_VK_FAULT once per process (later calls repeat the verdict):
/// a malformed value is an error, so that a mistyped test does not pass
/// without its fault.
LogicalResult armFaultsFromEnvironment(std::string &error);

/// Counts a call at `point` and returns the failure to report instead of
/// making it, or VK_SUCCESS to go ahead.
VkResult takeFault(FaultPoint point);

} // namespace onyx::runtime

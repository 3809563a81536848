//===- GenerateCommand.h - onyx-run --generate ------------------*- C++ -*-===//
//
// Text generation from onyx-run's command line (Generation.h has the loop).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/onyx-run/Options.h"

#include "ir/Support.h"

namespace onyx::run {

class VulkanBackend;

/// Generates --generate tokens after --prompt-ids with the model of
/// `options`, on `vulkan` or, if null, on the reference backend; prints the
/// ids as they come, then the times. Errors are reported before failing.
LogicalResult runGeneration(const Options &options,
                            const VulkanBackend *vulkan);

} // namespace onyx::run

//===- FaultInjection.cpp - Vulkan failures on demand, for tests ----------===//
#include "runtime/FaultInjection.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

#include <cstdlib>
#include <mutex>

namespace onyx::runtime {

namespace {
struct Fault {
  FaultPoint point;
  uint64_t n;
  VkResult result;
};

struct Plan {
  std::mutex mutex;
  llvm::SmallVector<Fault, 4> faults;
  uint64_t counts[4] = {0, 0, 0, 0};
};
} // namespace

static Plan &getPlan() {
  static Plan plan;
  return plan;
}

static LogicalResult parse(StringRef spec, llvm::SmallVectorImpl<Fault> &out,
                           std::string &error) {
  llvm::SmallVector<StringRef, 4> entries;
  spec.split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    llvm::SmallVector<StringRef, 3> fields;
    entry.trim().split(fields, ':');
    auto bad = [&](const llvm::Twine &why) {
      error = ("'" + entry + "': " + why +
               " (expected POINT:N[:RESULT], POINT one of alloc, pipeline, "
               "submit, wait; RESULT one of oom, lost, timeout)")
                  .str();
      return failure();
    };
    if (fields.size() < 2 || fields.size() > 3)
      return bad("wrong number of fields");
    std::optional<FaultPoint> point =
        llvm::StringSwitch<std::optional<FaultPoint>>(fields[0])
            .Case("alloc", FaultPoint::Alloc)
            .Case("pipeline", FaultPoint::Pipeline)
            .Case("submit", FaultPoint::Submit)
            .Case("wait", FaultPoint::Wait)
            .Default(std::nullopt);
    if (!point)
      return bad("unknown point '" + fields[0] + "'");
    uint64_t n;
    if (fields[1].getAsInteger(10, n) || n == 0)
      return bad("N must be a positive integer");
    bool waitOrSubmit =
        *point == FaultPoint::Wait || *point == FaultPoint::Submit;
    VkResult result =
        waitOrSubmit ? VK_ERROR_DEVICE_LOST : VK_ERROR_OUT_OF_DEVICE_MEMORY;
    if (fields.size() == 3) {
      std::optional<VkResult> named =
          llvm::StringSwitch<std::optional<VkResult>>(fields[2])
              .Case("oom", VK_ERROR_OUT_OF_DEVICE_MEMORY)
              .Case("lost", VK_ERROR_DEVICE_LOST)
              .Case("timeout", VK_TIMEOUT)
              .Default(std::nullopt);
      if (!named)
        return bad("unknown result '" + fields[2] + "'");
      if (*named == VK_TIMEOUT && *point != FaultPoint::Wait)
        return bad("only a wait can time out");
      if (*named == VK_ERROR_DEVICE_LOST && !waitOrSubmit)
        return bad("only a submit or a wait loses the device");
      result = *named;
    }
    out.push_back({*point, n, result});
  }
  return success();
}

LogicalResult setFaultPlan(StringRef spec, std::string &error) {
  llvm::SmallVector<Fault, 4> faults;
  if (failed(parse(spec, faults, error)))
    return failure();
  Plan &plan = getPlan();
  std::lock_guard<std::mutex> lock(plan.mutex);
  plan.faults = std::move(faults);
  for (uint64_t &count : plan.counts)
    count = 0;
  return success();
}

LogicalResult armFaultsFromEnvironment(std::string &error) {
  static std::once_flag once;
  static std::string verdict;
  std::call_once(once, [] {
    const char *spec = std::getenv("ONYX_VK_FAULT");
    if (spec && failed(setFaultPlan(spec, verdict)))
      verdict = "ONYX_VK_FAULT=" + std::string(spec) + ": " + verdict;
  });
  if (verdict.empty())
    return success();
  error = verdict;
  return failure();
}

VkResult takeFault(FaultPoint point) {
  Plan &plan = getPlan();
  std::lock_guard<std::mutex> lock(plan.mutex);
  if (plan.faults.empty())
    return VK_SUCCESS;
  uint64_t count = ++plan.counts[unsigned(point)];
  for (auto it = plan.faults.begin(); it != plan.faults.end(); ++it) {
    if (it->point != point || it->n != count)
      continue;
    VkResult result = it->result;
    plan.faults.erase(it);
    return result;
  }
  return VK_SUCCESS;
}

} // namespace onyx::runtime

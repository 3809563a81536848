//===- Diagnostics.cpp - Diagnostics as Python exceptions -----------------===//

#include "python/Diagnostics.h"

#include "dialect/gpu/GpuDialect.h"
#include "dialect/onnx/OnnxDialect.h"

using namespace onyx;
using namespace onyx::python;

CapturingContext::CapturingContext() : ctx(std::make_unique<Context>()) {
  ctx->loadDialect<onnx::OnnxDialect>();
  ctx->loadDialect<gpu::GpuDialect>();
  handler =
      std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, ctx.get(), os);
}

// The handler unregisters itself from the Context, which must still exist.
CapturingContext::~CapturingContext() { handler.reset(); }

std::string CapturingContext::take() {
  os.flush();
  std::string result = std::move(text);
  text.clear();
  return result;
}

void CapturingContext::fail(ErrorKind kind, const std::string &fallback) {
  std::string message = take();
  // The tools end each diagnostic line with a newline; an exception's
  // message reads better without the last one.
  while (!message.empty() && message.back() == '\n')
    message.pop_back();
  throw Error(kind, message.empty() ? fallback : message);
}

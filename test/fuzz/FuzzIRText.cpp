//===- FuzzIRText.cpp - IR text: parse, verify, print, re-parse -----------===//
//
// Any text must parse or fail with a diagnostic; what parses and verifies
// must print in a form that parses again to the same text (generic form,
// so that the round trip does not depend on custom printers agreeing with
// their parsers on invalid IR).
//
//===----------------------------------------------------------------------===//

#include "dialect/gpu/GpuDialect.h"
#include "dialect/onnx/OnnxDialect.h"
#include "ir/AsmPrinter.h"
#include "ir/Parser.h"
#include "ir/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

using namespace onyx;

static std::string print(ModuleOp module, bool generic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module->print(os, flags);
  return text;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Context ctx;
  ctx.loadDialect<onnx::OnnxDialect>();
  ctx.loadDialect<gpu::GpuDialect>();
  ScopedDiagnosticCollector quiet(&ctx);
  StringRef source(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString(source, &ctx, "fuzz");
  if (!module || failed(verify(*module)))
    return 0;
  for (bool generic : {false, true}) {
    std::string first = print(*module, generic);
    OwningOpRef<ModuleOp> again = parseSourceString(first, &ctx, "printed");
    if (!again || failed(verify(*again))) {
      fprintf(stderr, "printed IR does not parse and verify:\n%s\n",
              first.c_str());
      for (const Diagnostic &diag : quiet.getDiagnostics())
        fprintf(stderr, "%s\n", diag.str().c_str());
      abort();
    }
    std::string second = print(*again, generic);
    if (first != second) {
      fprintf(stderr, "print is not stable:\n%s\n---\n%s\n", first.c_str(),
              second.c_str());
      abort();
    }
  }
  return 0;
}

//===- FuzzOnnxImport.cpp - ONNX bytes: import, verify, canonicalize ------===//
//
// Any bytes must import or fail with a diagnostic; an imported module must
// verify, and canonicalization must succeed or fail with a diagnostic and
// leave IR that verifies.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/import/Importer.h"
#include "ir/Verifier.h"
#include "rewrite/PassManager.h"
#include "rewrite/Passes.h"

#include <cstdio>
#include <cstdlib>

using namespace onyx;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Context ctx;
  ctx.loadDialect<onnx::OnnxDialect>();
  ScopedDiagnosticCollector quiet(&ctx);
  StringRef bytes(reinterpret_cast<const char *>(data), size);
  // External data would be looked up in a folder that does not exist.
  OwningOpRef<ModuleOp> module =
      onnx::importOnnxBuffer(bytes, "fuzz.onnx", "/nonexistent-fuzz-dir", &ctx);
  if (!module)
    return 0;
  if (failed(verify(*module))) {
    fprintf(stderr, "the importer produced IR that does not verify\n");
    abort();
  }
  PassManager pm(&ctx);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  (void)pm.run(*module);
  return 0;
}

//===- Passes.cpp - Registering the passes of the rewrite library ---------===//

#include "rewrite/Passes.h"

using namespace onyx;

void onyx::registerRewritePasses() {
  registerPass(createCanonicalizerPass);
  registerPass(createCSEPass);
  registerPass(createDCEPass);
  registerPass(createSymbolDCEPass);
}

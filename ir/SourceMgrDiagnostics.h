//===- SourceMgrDiagnostics.h - Diagnostics against source text -*- C++ -*-===//
//
// Handlers that map file:line:col locations back into the buffers of an
// llvm::SourceMgr: one prints `file:line:col: error: msg` with the source
// line and a caret; the other checks diagnostics against `expected-*`
// comments in the source, as mlir-opt's --verify-diagnostics does.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostics.h"

#include <memory>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace onyx {

class SourceMgrDiagnosticHandler {
public:
  SourceMgrDiagnosticHandler(llvm::SourceMgr &mgr, Context *ctx);
  SourceMgrDiagnosticHandler(llvm::SourceMgr &mgr, Context *ctx,
                             llvm::raw_ostream &os);
  ~SourceMgrDiagnosticHandler();

  /// Prints `diag` and its notes.
  void emitDiagnostic(Diagnostic &diag);

protected:
  llvm::SourceMgr &mgr;
  Context *ctx;
  llvm::raw_ostream &os;
  DiagnosticEngine::HandlerID handlerID;
};

/// Checks emitted diagnostics against `// expected-error {{...}}` (and
/// -warning, -note, -remark; `@above`, `@below`, `@+N`, `@-N`) comments.
class SourceMgrDiagnosticVerifierHandler : public SourceMgrDiagnosticHandler {
public:
  SourceMgrDiagnosticVerifierHandler(llvm::SourceMgr &mgr, Context *ctx);
  ~SourceMgrDiagnosticVerifierHandler();
  /// Reports expected diagnostics that were not emitted; fails if any
  /// diagnostic was unexpected or missing.
  LogicalResult verify();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace onyx

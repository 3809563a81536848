//===- Diagnostics.h - Diagnostics as Python exceptions ---------*- C++ -*-===//
//
// The Python module reports every problem as an exception whose message is
// the located diagnostic text onyx's tools print (`model.onnx: error: ...`,
// `<string>:3:5: error: ...` with the source line and a caret). A Context
// made here prints its diagnostics into a buffer instead of stderr; code
// that fails throws an `Error` carrying that text, which the bindings turn
// into the matching subclass of `onyx.Error`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Context.h"
#include "ir/SourceMgrDiagnostics.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace onyx::python {

/// Which Python exception a failure becomes.
enum class ErrorKind {
  /// Arguments the caller got wrong: input names, dtypes, shapes, options.
  InvalidArgument,
  /// A model that cannot be read, imported or compiled.
  Model,
  /// IR text that does not parse or verify, or a pass that fails.
  IR,
  /// The Vulkan loader, driver or device, or a module the device cannot
  /// load.
  Device,
  /// A run that fails (an evaluation error, a failed submission, a message
  /// of the validation layer).
  Run,
};

/// Thrown by the module's C++ code; the bindings translate it.
class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, const std::string &message)
      : std::runtime_error(message), kind(kind), message(message) {}
  ErrorKind getKind() const { return kind; }
  /// The whole message: what() stops at a NUL that a quoted source line
  /// may hold.
  const std::string &getMessage() const { return message; }

private:
  ErrorKind kind;
  std::string message;
};

/// A Context whose diagnostics are printed, as the tools print them, into
/// a buffer that failures take as their message. Buffers whose text is
/// located in them (IR parsed from a string) are added to its SourceMgr so
/// that messages show the source line.
class CapturingContext {
public:
  CapturingContext();
  ~CapturingContext();

  Context *get() { return ctx.get(); }
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

  /// The text printed since the last take(), which clears it.
  std::string take();
  /// Throws an Error of `kind` whose message is the text printed so far,
  /// or `fallback` if nothing was.
  [[noreturn]] void fail(ErrorKind kind, const std::string &fallback);

private:
  std::unique_ptr<Context> ctx;
  llvm::SourceMgr sourceMgr;
  std::string text;
  llvm::raw_string_ostream os{text};
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;
};

} // namespace onyx::python

//===- Diagnostics.h - Errors, warnings and notes with locations -*- C++
//-*-===//
//
// Every problem with user input is reported as a Diagnostic at a Location
// and sent through the Context's DiagnosticEngine to the innermost handler
// (a SourceMgr printer with carets, the --verify-diagnostics checker, a
// test's collector). `emitError(loc) << ...` converts to failure().
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Location.h"

#include "llvm/ADT/Twine.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace onyx {

enum class DiagnosticSeverity { Note, Warning, Error, Remark };
/// "note", "warning", "error" or "remark", as diagnostics print them.
StringRef getSeverityName(DiagnosticSeverity severity);

class Diagnostic {
public:
  Diagnostic(Location loc, DiagnosticSeverity severity)
      : loc(loc), severity(severity) {}
  Diagnostic(Diagnostic &&) = default;
  Diagnostic &operator=(Diagnostic &&) = default;

  Location getLocation() const { return loc; }
  DiagnosticSeverity getSeverity() const { return severity; }
  const std::string &str() const { return message; }

  Diagnostic &operator<<(const llvm::Twine &text);
  Diagnostic &operator<<(StringRef text);
  Diagnostic &operator<<(const char *text) { return *this << StringRef(text); }
  Diagnostic &operator<<(const std::string &text) {
    return *this << StringRef(text);
  }
  Diagnostic &operator<<(char c);
  Diagnostic &operator<<(int64_t v);
  Diagnostic &operator<<(uint64_t v);
  Diagnostic &operator<<(int v) { return *this << int64_t(v); }
  Diagnostic &operator<<(unsigned v) { return *this << uint64_t(v); }
  Diagnostic &operator<<(long long v) { return *this << int64_t(v); }
  Diagnostic &operator<<(unsigned long long v) { return *this << uint64_t(v); }
  Diagnostic &operator<<(double v);
  Diagnostic &operator<<(Type type);
  Diagnostic &operator<<(Attribute attr);
  /// Prints the op's name in quotes, as `'onnx.Add'`.
  Diagnostic &operator<<(const Operation &op);

  /// Attaches a note at `noteLoc` (this diagnostic's location if absent).
  Diagnostic &attachNote(std::optional<Location> noteLoc = std::nullopt);
  ArrayRef<std::unique_ptr<Diagnostic>> getNotes() const { return notes; }

private:
  Location loc;
  DiagnosticSeverity severity;
  std::string message;
  std::vector<std::unique_ptr<Diagnostic>> notes;
};

class DiagnosticEngine {
public:
  /// A handler returns success if it consumed the diagnostic; otherwise the
  /// next older handler gets it, and finally the default one (stderr).
  using Handler = std::function<LogicalResult(Diagnostic &)>;
  using HandlerID = uint64_t;

  HandlerID registerHandler(Handler handler);
  void eraseHandler(HandlerID id);
  void emit(Diagnostic &&diag);

private:
  std::vector<std::pair<HandlerID, Handler>> handlers;
  HandlerID nextID = 0;
};

/// A diagnostic being built; reported when it goes out of scope.
class [[nodiscard]] InFlightDiagnostic {
public:
  InFlightDiagnostic() = default;
  InFlightDiagnostic(DiagnosticEngine *owner, Diagnostic &&diag)
      : owner(owner), diag(std::move(diag)) {}
  InFlightDiagnostic(InFlightDiagnostic &&other)
      : owner(other.owner), diag(std::move(other.diag)) {
    other.owner = nullptr;
    other.diag.reset();
  }
  InFlightDiagnostic &operator=(InFlightDiagnostic &&) = delete;
  ~InFlightDiagnostic() { report(); }

  template <typename T> InFlightDiagnostic &operator<<(T &&value) & {
    if (diag)
      *diag << std::forward<T>(value);
    return *this;
  }
  template <typename T> InFlightDiagnostic &&operator<<(T &&value) && {
    return std::move(*this << std::forward<T>(value));
  }

  Diagnostic &attachNote(std::optional<Location> noteLoc = std::nullopt) {
    return diag->attachNote(noteLoc);
  }
  void report();
  /// Drops the diagnostic without reporting it.
  void abandon() { diag.reset(); }

  operator LogicalResult() const { return failure(); }
  operator ParseResult() const { return failure(); }
  template <typename T> operator FailureOr<T>() const { return failure(); }

private:
  DiagnosticEngine *owner = nullptr;
  std::optional<Diagnostic> diag;
};

InFlightDiagnostic emitError(Location loc);
InFlightDiagnostic emitError(Location loc, const llvm::Twine &message);
InFlightDiagnostic emitWarning(Location loc);
InFlightDiagnostic emitRemark(Location loc);

/// Collects the diagnostics emitted while it is alive instead of printing
/// them; for tests and for code that decides later whether to report.
class ScopedDiagnosticCollector {
public:
  explicit ScopedDiagnosticCollector(Context *ctx);
  ~ScopedDiagnosticCollector();
  std::vector<Diagnostic> &getDiagnostics() { return diags; }

private:
  Context *ctx;
  DiagnosticEngine::HandlerID id;
  std::vector<Diagnostic> diags;
};

} // namespace onyx

//===- Diagnostics.cpp - Errors, warnings and notes with locations --------===//
#include "ir/Diagnostics.h"

#include "ir/Context.h"
#include "ir/Operation.h"

#include "llvm/Support/raw_ostream.h"

namespace onyx {

Diagnostic &Diagnostic::operator<<(const llvm::Twine &text) {
  message += text.str();
  return *this;
}
Diagnostic &Diagnostic::operator<<(StringRef text) {
  message.append(text.begin(), text.end());
  return *this;
}
Diagnostic &Diagnostic::operator<<(char c) {
  message.push_back(c);
  return *this;
}
Diagnostic &Diagnostic::operator<<(int64_t v) {
  message += std::to_string(v);
  return *this;
}
Diagnostic &Diagnostic::operator<<(uint64_t v) {
  message += std::to_string(v);
  return *this;
}
Diagnostic &Diagnostic::operator<<(double v) {
  llvm::raw_string_ostream os(message);
  os << v;
  return *this;
}
Diagnostic &Diagnostic::operator<<(Type type) {
  llvm::raw_string_ostream os(message);
  os << type;
  return *this;
}
Diagnostic &Diagnostic::operator<<(Attribute attr) {
  llvm::raw_string_ostream os(message);
  os << attr;
  return *this;
}
Diagnostic &Diagnostic::operator<<(const Operation &op) {
  message += "'";
  message += op.getName().getStringRef();
  message += "'";
  return *this;
}

Diagnostic &Diagnostic::attachNote(std::optional<Location> noteLoc) {
  notes.push_back(std::make_unique<Diagnostic>(noteLoc.value_or(loc),
                                               DiagnosticSeverity::Note));
  return *notes.back();
}

//===----------------------------------------------------------------------===//

DiagnosticEngine::HandlerID DiagnosticEngine::registerHandler(Handler handler) {
  handlers.emplace_back(nextID, std::move(handler));
  return nextID++;
}

void DiagnosticEngine::eraseHandler(HandlerID id) {
  llvm::erase_if(handlers, [&](auto &entry) { return entry.first == id; });
}

StringRef getSeverityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  llvm_unreachable("unknown severity");
}

/// Used when no handler is registered: `loc: error: message` on stderr.
static void printToStderr(const Diagnostic &diag) {
  llvm::raw_ostream &os = llvm::errs();
  os << diag.getLocation() << ": " << getSeverityName(diag.getSeverity())
     << ": " << diag.str() << "\n";
  for (const auto &note : diag.getNotes())
    printToStderr(*note);
}

void DiagnosticEngine::emit(Diagnostic &&diag) {
  for (auto it = handlers.rbegin(); it != handlers.rend(); ++it)
    if (succeeded(it->second(diag)))
      return;
  printToStderr(diag);
}

void InFlightDiagnostic::report() {
  if (owner && diag)
    owner->emit(std::move(*diag));
  diag.reset();
  owner = nullptr;
}

static InFlightDiagnostic emit(Location loc, DiagnosticSeverity severity) {
  return InFlightDiagnostic(&loc.getContext()->getDiagEngine(),
                            Diagnostic(loc, severity));
}

InFlightDiagnostic emitError(Location loc) {
  return emit(loc, DiagnosticSeverity::Error);
}
InFlightDiagnostic emitError(Location loc, const llvm::Twine &message) {
  InFlightDiagnostic diag = emit(loc, DiagnosticSeverity::Error);
  diag << message;
  return diag;
}
InFlightDiagnostic emitWarning(Location loc) {
  return emit(loc, DiagnosticSeverity::Warning);
}
InFlightDiagnostic emitRemark(Location loc) {
  return emit(loc, DiagnosticSeverity::Remark);
}

ScopedDiagnosticCollector::ScopedDiagnosticCollector(Context *ctx) : ctx(ctx) {
  id = ctx->getDiagEngine().registerHandler([this](Diagnostic &diag) {
    diags.push_back(std::move(diag));
    return success();
  });
}
ScopedDiagnosticCollector::~ScopedDiagnosticCollector() {
  ctx->getDiagEngine().eraseHandler(id);
}

} // namespace onyx

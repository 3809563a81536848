//===- SourceMgrDiagnostics.cpp - Diagnostics against source text ---------===//
//
// Printing goes through llvm::SourceMgr so that diagnostics look like every
// other LLVM tool's (`file:line:col: error: msg`, the line, a caret) and so
// that output matches mlir-opt's, which users and tests compare against.
// The verifying handler follows mlir-opt's --verify-diagnostics rules
// exactly, including its quirks, so that test files work with both tools.
//
//===----------------------------------------------------------------------===//

#include "ir/SourceMgrDiagnostics.h"

#include "ir/Context.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace onyx;

/// How many callers of a call-site location are shown.
static constexpr unsigned kCallStackLimit = 10;

static llvm::SourceMgr::DiagKind toDiagKind(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Note:
    return llvm::SourceMgr::DK_Note;
  case DiagnosticSeverity::Warning:
    return llvm::SourceMgr::DK_Warning;
  case DiagnosticSeverity::Error:
    return llvm::SourceMgr::DK_Error;
  case DiagnosticSeverity::Remark:
    return llvm::SourceMgr::DK_Remark;
  }
  llvm_unreachable("unknown diagnostic severity");
}

/// The buffer of `mgr` named `identifier`, or 0.
static unsigned findBuffer(const llvm::SourceMgr &mgr, StringRef identifier) {
  for (unsigned id = 1, e = mgr.getNumBuffers(); id <= e; ++id)
    if (mgr.getMemoryBuffer(id)->getBufferIdentifier() == identifier)
      return id;
  return 0;
}

/// The position `loc` names in a buffer of `mgr`; invalid if none.
static llvm::SMLoc findSMLoc(llvm::SourceMgr &mgr, FileLineColLoc loc) {
  unsigned id = findBuffer(mgr, loc.getFilename().getValue());
  if (!id)
    return {};
  return mgr.FindLocForLineAndColumn(id, loc.getLine(), loc.getColumn());
}

/// Prints one message at `loc`: with the source line and a caret where `loc`
/// holds a position in a buffer of `mgr`, else with the position or the
/// location as text.
static void printMessage(llvm::SourceMgr &mgr, llvm::raw_ostream &os,
                         Location loc, const llvm::Twine &message,
                         DiagnosticSeverity severity, bool showSourceLine) {
  llvm::SourceMgr::DiagKind kind = toDiagKind(severity);
  FileLineColLoc fileLoc = loc.findFileLineCol();
  if (!fileLoc) {
    std::string text;
    llvm::raw_string_ostream textOS(text);
    if (!isa<UnknownLoc>(loc))
      textOS << loc << ": ";
    textOS << message;
    mgr.PrintMessage(os, llvm::SMLoc(), kind, text);
    return;
  }
  // Line 0 names a whole file (an .onnx model has no lines): `file: error:`.
  bool wholeFile = fileLoc.getLine() == 0;
  if (showSourceLine && !wholeFile) {
    llvm::SMLoc smLoc = findSMLoc(mgr, fileLoc);
    if (smLoc.isValid()) {
      mgr.PrintMessage(os, smLoc, kind, message);
      return;
    }
  }
  // The position is in no buffer (or its line was just shown): print it
  // as text in front of the message.
  std::string position;
  llvm::raw_string_ostream positionOS(position);
  positionOS << fileLoc.getFilename().getValue();
  if (!wholeFile)
    positionOS << ":" << fileLoc.getLine() << ":" << fileLoc.getColumn();
  llvm::SMDiagnostic(position, kind, message.str()).print(nullptr, os);
}

/// The call site that `loc` is or wraps, if any.
static std::optional<CallSiteLoc> findCallSite(Location loc) {
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return callSite;
  if (auto name = dyn_cast<NameLoc>(loc))
    return findCallSite(name.getChildLoc());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (std::optional<CallSiteLoc> callSite = findCallSite(part))
        return callSite;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// SourceMgrDiagnosticHandler
//===----------------------------------------------------------------------===//

SourceMgrDiagnosticHandler::SourceMgrDiagnosticHandler(llvm::SourceMgr &mgr,
                                                       Context *ctx)
    : SourceMgrDiagnosticHandler(mgr, ctx, llvm::errs()) {}

SourceMgrDiagnosticHandler::SourceMgrDiagnosticHandler(llvm::SourceMgr &mgr,
                                                       Context *ctx,
                                                       llvm::raw_ostream &os)
    : mgr(mgr), ctx(ctx), os(os) {
  handlerID = ctx->getDiagEngine().registerHandler([this](Diagnostic &diag) {
    emitDiagnostic(diag);
    return success();
  });
}

SourceMgrDiagnosticHandler::~SourceMgrDiagnosticHandler() {
  ctx->getDiagEngine().eraseHandler(handlerID);
}

void SourceMgrDiagnosticHandler::emitDiagnostic(Diagnostic &diag) {
  // A diagnostic in inlined code is shown at the callee, followed by the
  // chain of callers.
  Location shown = diag.getLocation();
  printMessage(mgr, os, shown, diag.str(), diag.getSeverity(),
               /*showSourceLine=*/true);
  std::optional<CallSiteLoc> callSite = findCallSite(shown);
  for (unsigned depth = 0; callSite && depth < kCallStackLimit; ++depth) {
    shown = callSite->getCaller();
    if (shown.findFileLineCol())
      printMessage(mgr, os, shown, "called from", DiagnosticSeverity::Note,
                   /*showSourceLine=*/true);
    callSite = findCallSite(shown);
  }
  // A note at the place just shown need not show the same line again.
  for (const std::unique_ptr<Diagnostic> &note : diag.getNotes()) {
    printMessage(mgr, os, note->getLocation(), note->str(), note->getSeverity(),
                 note->getLocation() != shown);
    shown = note->getLocation();
  }
}

//===----------------------------------------------------------------------===//
// SourceMgrDiagnosticVerifierHandler
//===----------------------------------------------------------------------===//

namespace {

/// One `expected-*` comment.
struct ExpectedDiag {
  DiagnosticSeverity severity;
  /// The line the diagnostic is expected on; 0 if it names no line.
  unsigned line;
  /// Where the comment's `expected-` starts: misses are reported there.
  llvm::SMLoc commentLoc;
  /// The text between `{{` and `}}`.
  StringRef text;
  /// For `expected-*-re`: the text with its `{{regex}}` parts as a regex.
  std::optional<llvm::Regex> regex;
  bool matched = false;

  bool matches(StringRef message) const {
    return regex ? regex->match(message) : message.contains(text);
  }
};

/// The expectations of one buffer, with an index by line.
struct BufferExpectations {
  std::vector<ExpectedDiag> diags;
  llvm::DenseMap<unsigned, SmallVector<unsigned, 1>> byLine;
};

/// An `expected-*` comment as written in one line.
struct ExpectationSyntax {
  DiagnosticSeverity severity;
  bool isRegex = false;
  /// `@+N`, `@-N`, `@above`, `@below`, or empty.
  StringRef designator;
  StringRef text;
};

} // namespace

struct SourceMgrDiagnosticVerifierHandler::Impl {
  Impl(llvm::SourceMgr &mgr, llvm::raw_ostream &os) : mgr(mgr), os(os) {}
  /// Checks one diagnostic (not its notes) against the expectations.
  void process(Diagnostic &diag);
  LogicalResult verify();

  llvm::SourceMgr &mgr;
  llvm::raw_ostream &os;
  /// Expectations per buffer identifier, in buffer order.
  llvm::StringMap<BufferExpectations> perBuffer;
  SmallVector<StringRef> bufferOrder;
  LogicalResult status = success();
};

/// Parses an expectation whose `expected-` ends right before `rest`, as
/// `KIND[-re] *[@DESIGNATOR] *{{TEXT}}` up to the end of the line.
static std::optional<ExpectationSyntax> parseExpectation(StringRef rest) {
  static constexpr std::pair<StringRef, DiagnosticSeverity> kKinds[] = {
      {"error", DiagnosticSeverity::Error},
      {"note", DiagnosticSeverity::Note},
      {"remark", DiagnosticSeverity::Remark},
      {"warning", DiagnosticSeverity::Warning}};
  ExpectationSyntax result;
  auto kind = llvm::find_if(
      kKinds, [&](const auto &entry) { return rest.starts_with(entry.first); });
  if (kind == std::end(kKinds))
    return std::nullopt;
  result.severity = kind->second;
  rest = rest.drop_front(kind->first.size());
  result.isRegex = rest.consume_front("-re");
  rest = rest.ltrim(' ');
  if (rest.consume_front("@")) {
    size_t length = 0;
    if (rest.starts_with("above") || rest.starts_with("below")) {
      length = 5;
    } else if (rest.starts_with("+") || rest.starts_with("-")) {
      // Digits must follow, and then the `{{` at least.
      size_t digits = rest.drop_front().find_if_not(llvm::isDigit);
      if (digits == 0 || digits == StringRef::npos)
        return std::nullopt;
      length = 1 + digits;
    } else {
      return std::nullopt;
    }
    result.designator = rest.take_front(length);
    rest = rest.drop_front(length).ltrim(' ');
  }
  if (!rest.starts_with("{{") || !rest.ends_with("}}") || rest.size() < 4)
    return std::nullopt;
  result.text = rest.drop_front(2).drop_back(2);
  return result;
}

/// Builds the regex of an `expected-*-re` text: literal text with `{{re}}`
/// parts. Reports a malformed one at `loc`.
static std::optional<llvm::Regex> buildRegex(llvm::SourceMgr &mgr,
                                             llvm::raw_ostream &os,
                                             llvm::SMLoc loc, StringRef text) {
  std::string pattern;
  while (!text.empty()) {
    size_t start = text.find("{{");
    pattern += llvm::Regex::escape(text.take_front(start));
    if (start == StringRef::npos)
      break;
    text = text.drop_front(start + 2);
    size_t end = text.find("}}");
    if (end == StringRef::npos) {
      mgr.PrintMessage(os, loc, llvm::SourceMgr::DK_Error,
                       "found start of regex with no end '}}'");
      return std::nullopt;
    }
    StringRef part = text.take_front(end);
    std::string error;
    if (!llvm::Regex(part).isValid(error)) {
      mgr.PrintMessage(os, loc, llvm::SourceMgr::DK_Error,
                       "invalid regex: " + error);
      return std::nullopt;
    }
    pattern.append("(").append(part.str()).append(")");
    text = text.drop_front(end + 2);
  }
  return llvm::Regex(pattern);
}

/// Reads the expectations of buffer `id`. Lines are numbered from 1. A
/// line holding an expectation is a "designator line" even if it holds code
/// too: `@above` and `@below` skip such lines, as in mlir-opt.
static LogicalResult collectExpectations(llvm::SourceMgr &mgr,
                                         llvm::raw_ostream &os, unsigned id,
                                         BufferExpectations &result) {
  LogicalResult status = success();
  StringRef buffer = mgr.getMemoryBuffer(id)->getBuffer();
  SmallVector<StringRef> lines;
  buffer.split(lines, '\n');
  unsigned lastPlainLine = 0;
  SmallVector<unsigned> waitingForNextLine;
  for (unsigned index = 0, e = lines.size(); index != e; ++index) {
    StringRef line = lines[index].rtrim();
    unsigned lineNo = index + 1;
    std::optional<ExpectationSyntax> syntax;
    llvm::SMLoc commentLoc;
    for (size_t pos = line.find("expected-"); pos != StringRef::npos;
         pos = line.find("expected-", pos + 1)) {
      syntax = parseExpectation(line.drop_front(pos + 9));
      if (syntax) {
        commentLoc = llvm::SMLoc::getFromPointer(line.data() + pos);
        break;
      }
    }
    if (!syntax) {
      for (unsigned waiting : waitingForNextLine)
        result.diags[waiting].line = lineNo;
      waitingForNextLine.clear();
      lastPlainLine = lineNo;
      continue;
    }

    ExpectedDiag diag{syntax->severity, lineNo, commentLoc, syntax->text,
                      std::nullopt};
    StringRef designator = syntax->designator;
    if (designator == "above") {
      diag.line = lastPlainLine;
    } else if (designator == "below") {
      diag.line = 0;
      waitingForNextLine.push_back(result.diags.size());
    } else if (!designator.empty()) {
      unsigned offset = 0;
      designator.drop_front().getAsInteger(10, offset);
      diag.line = designator.front() == '+' ? lineNo + offset : lineNo - offset;
    }
    if (syntax->isRegex) {
      diag.regex = buildRegex(mgr, os, commentLoc, diag.text);
      if (!diag.regex) {
        status = failure();
        continue;
      }
    }
    result.diags.push_back(std::move(diag));
  }
  for (unsigned i = 0, e = result.diags.size(); i != e; ++i)
    result.byLine[result.diags[i].line].push_back(i);
  return status;
}

SourceMgrDiagnosticVerifierHandler::SourceMgrDiagnosticVerifierHandler(
    llvm::SourceMgr &mgr, Context *ctx)
    : SourceMgrDiagnosticHandler(mgr, ctx),
      impl(std::make_unique<Impl>(mgr, os)) {
  for (unsigned id = 1, e = mgr.getNumBuffers(); id <= e; ++id) {
    StringRef name = mgr.getMemoryBuffer(id)->getBufferIdentifier();
    auto [it, inserted] = impl->perBuffer.try_emplace(name);
    if (!inserted)
      continue;
    impl->bufferOrder.push_back(it->first());
    if (failed(collectExpectations(mgr, os, id, it->second)))
      impl->status = failure();
  }

  // Replace the printing handler with one that checks each diagnostic and
  // each of its notes against the expectations.
  ctx->getDiagEngine().eraseHandler(handlerID);
  handlerID = ctx->getDiagEngine().registerHandler([this](Diagnostic &diag) {
    impl->process(diag);
    for (const std::unique_ptr<Diagnostic> &note : diag.getNotes())
      impl->process(*note);
    return success();
  });
}

SourceMgrDiagnosticVerifierHandler::~SourceMgrDiagnosticVerifierHandler() =
    default;

LogicalResult SourceMgrDiagnosticVerifierHandler::verify() {
  return impl->verify();
}

void SourceMgrDiagnosticVerifierHandler::Impl::process(Diagnostic &diag) {
  DiagnosticSeverity severity = diag.getSeverity();
  StringRef severityName = getSeverityName(severity);
  if (FileLineColLoc fileLoc = diag.getLocation().findFileLineCol()) {
    auto buffer = perBuffer.find(fileLoc.getFilename().getValue());
    if (buffer != perBuffer.end()) {
      BufferExpectations &expectations = buffer->second;
      ExpectedDiag *nearMiss = nullptr;
      for (unsigned index : expectations.byLine.lookup(fileLoc.getLine())) {
        ExpectedDiag &expected = expectations.diags[index];
        if (!expected.matches(diag.str()))
          continue;
        if (expected.severity == severity) {
          expected.matched = true;
          return;
        }
        nearMiss = &expected;
      }
      // Right text, wrong severity: say so rather than "unexpected".
      if (nearMiss) {
        mgr.PrintMessage(os, nearMiss->commentLoc, llvm::SourceMgr::DK_Error,
                         "'" + severityName +
                             "' diagnostic emitted when expecting a '" +
                             getSeverityName(nearMiss->severity) + "'");
        status = failure();
        return;
      }
    }
  }
  printMessage(mgr, os, diag.getLocation(),
               "unexpected " + severityName + ": " + diag.str(),
               DiagnosticSeverity::Error, /*showSourceLine=*/true);
  status = failure();
}

LogicalResult SourceMgrDiagnosticVerifierHandler::Impl::verify() {
  for (StringRef name : bufferOrder) {
    for (ExpectedDiag &expected : perBuffer[name].diags) {
      if (expected.matched)
        continue;
      const char *start = expected.commentLoc.getPointer();
      mgr.PrintMessage(os, expected.commentLoc, llvm::SourceMgr::DK_Error,
                       "expected " + getSeverityName(expected.severity) +
                           " \"" + expected.text + "\" was not produced",
                       llvm::SMRange(expected.commentLoc,
                                     llvm::SMLoc::getFromPointer(
                                         start + expected.text.size())));
      status = failure();
    }
  }
  return status;
}

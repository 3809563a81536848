//===- Parser.h - Reading IR text -------------------------------*- C++ -*-===//
//
// Parses MLIR's textual IR: the generic form of any op, the custom forms
// registered by dialects, attribute/type/location aliases, and `//`
// comments. Errors are reported through the Context's diagnostics at
// file:line:col locations; parsing stops at the first error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/BuiltinOps.h"
#include "ir/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace onyx {

/// Parses the main buffer of `sourceMgr`. Top-level ops that are not a
/// single builtin.module are wrapped in a new module, as mlir-opt does.
/// Returns null after reporting an error. The result is not verified.
OwningOpRef<ModuleOp> parseSourceFile(const llvm::SourceMgr &sourceMgr,
                                      Context *ctx);
/// Parses `source`, naming it `bufferName` in locations.
OwningOpRef<ModuleOp> parseSourceString(StringRef source, Context *ctx,
                                        StringRef bufferName = "<string>");
/// Parses one type or attribute from text, e.g. for command-line options.
Type parseType(StringRef text, Context *ctx);
Attribute parseAttribute(StringRef text, Context *ctx);

} // namespace onyx

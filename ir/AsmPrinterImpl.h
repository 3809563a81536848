//===- AsmPrinterImpl.h - What the IR text printers share -------*- C++ -*-===//
//
// The printer behind ir/AsmPrinter.h is split as the parser is:
// TypePrinter.cpp (types), AttributePrinter.cpp (attributes, locations
// among them) and AsmPrinter.cpp (the spelling of names, and operations with
// their SSA names). Not a public header: only ir/ includes it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Attributes.h"
#include "ir/Types.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace onyx::detail {

/// Whether the `: type` of an attribute may be left out where MLIR leaves it
/// out (i64 and f64 inside arrays).
enum class TypeElision { Never, May };

void printTypeImpl(Type type, llvm::raw_ostream &os);
/// An attribute; dense elements with more than `hexThreshold` elements
/// print as a hex string. `withType` false leaves out the `: type` that
/// follows some attributes.
void printAttributeImpl(Attribute attr, llvm::raw_ostream &os,
                        TypeElision elision, int64_t hexThreshold,
                        bool withType = true);
/// `name = value, ...` (a unit attribute by its name alone) for those of
/// `attrs` whose name `shown` accepts.
void printAttrDictBody(ArrayRef<NamedAttribute> attrs,
                       llvm::function_ref<bool(StringRef)> shown,
                       llvm::raw_ostream &os, int64_t hexThreshold);

/// `s` in double quotes, escaped.
void printQuoted(StringRef s, llvm::raw_ostream &os);
/// `name` bare where MLIR's lexer reads it as an identifier, else quoted.
void printKeyword(StringRef name, llvm::raw_ostream &os);
/// `@name`.
void printSymbol(StringRef name, llvm::raw_ostream &os);
/// `!ns.body` or `!ns<body>` (`#` instead of `!` for attributes).
void printDialectSymbol(char prefix, StringRef ns, StringRef body,
                        llvm::raw_ostream &os);

} // namespace onyx::detail

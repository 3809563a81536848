//===- OpAsmHelpers.h - Pieces of the gpu ops' custom forms -----*- C++ -*-===//
//
// Private to the gpu dialect: integers, `[offset]` and `(a, b, c)` lists as
// the ops' custom forms write them, parsed through the generic OpAsmParser.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostics.h"
#include "ir/OpAsm.h"

namespace onyx::gpu::detail {

/// An integer literal.
ParseResult parseInteger(OpAsmParser &parser, int64_t &value);
/// `[offset]` after a buffer or view operand.
ParseResult parseOffset(OpAsmParser &parser, int64_t &offset);
/// `(1, 2, 3)`: a parenthesized list of exactly `count` integers.
ParseResult parseIntegerTuple(OpAsmParser &parser, unsigned count,
                              SmallVectorImpl<int64_t> &values);
void printIntegerTuple(OpAsmPrinter &p, ArrayRef<int64_t> values);

} // namespace onyx::gpu::detail

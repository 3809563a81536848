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

/// The entries of a comma-separated list (its brackets are the caller's),
/// each an SSA value or another form: `entry` gets the operand where the
/// entry is one, or null where it must parse the entry itself.
ParseResult parseOperandOrOtherList(
    OpAsmParser &parser,
    llvm::function_ref<ParseResult(const OpAsmParser::UnresolvedOperand *)>
        entry);

/// A list of integers and SSA values between `open` and `close` brackets
/// ('[' or '('), as in `[%n, 1, 1]`: each value is an `index` operand and
/// its entry in `values` is ShapedType::kDynamic. `count` 0 takes any number.
ParseResult
parseMixedList(OpAsmParser &parser, char open, unsigned count,
               SmallVectorImpl<int64_t> &values,
               SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dynamic);
/// Prints what parseMixedList reads; `dynamic` holds one value per
/// ShapedType::kDynamic entry of `values`.
void printMixedList(OpAsmPrinter &p, char open, ArrayRef<int64_t> values,
                    ValueRange dynamic);

} // namespace onyx::gpu::detail

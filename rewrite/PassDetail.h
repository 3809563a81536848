//===- PassDetail.h - Internals of the pass files ---------------*- C++ -*-===//
//
// The pass option parser reports where in the option text a problem is, so
// that the pipeline parser can point at the offending option rather than
// at the whole `{...}`. Not part of the public API.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "rewrite/Pass.h"

#include <string>

namespace onyx::detail {

/// Sets `pass`'s options from `text` (`name=value name2=value2`). On
/// failure, `error` says why and `errorOffset` is the offset in `text` of
/// the option (or character) at fault.
LogicalResult setPassOptions(Pass &pass, StringRef text, std::string &error,
                             size_t &errorOffset);

} // namespace onyx::detail

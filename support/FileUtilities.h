//===- FileUtilities.h - Writing files that others may read -----*- C++ -*-===//
//
// The caches on disk (compiled shaders, the Vulkan pipeline cache) are read
// by processes that may start while another writes them; a reader must see
// the old file or the whole new one, never a part.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace onyx {

/// Writes the file at `path` through `write`, in text mode where `text`.
/// Returns false where it cannot be created or written, with `error` set to
/// "cannot write '<path>': <reason>".
bool writeFile(llvm::StringRef path,
               llvm::function_ref<void(llvm::raw_ostream &)> write,
               std::string &error, bool text = false);

/// Writes the file at `path` through `write` under a unique temporary name
/// beside it, then renames the temporary over `path`. Returns false, and
/// leaves no temporary behind, where the file cannot be created, written or
/// renamed; `path` is then as it was.
bool writeFileAtomically(llvm::StringRef path,
                         llvm::function_ref<void(llvm::raw_ostream &)> write);

} // namespace onyx

//===- FileUtilities.cpp - Writing files that others may read -------------===//
#include "support/FileUtilities.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

namespace onyx {

bool writeFile(llvm::StringRef path,
               llvm::function_ref<void(llvm::raw_ostream &)> write,
               std::string &error, bool text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(
      path, ec, text ? llvm::sys::fs::OF_Text : llvm::sys::fs::OF_None);
  if (!ec) {
    write(os);
    os.close();
    ec = os.error();
  }
  if (ec) {
    error = "cannot write '" + path.str() + "': " + ec.message();
    // Cleared so that the stream's destructor does not treat it as fatal.
    os.clear_error();
    return false;
  }
  return true;
}

bool writeFileAtomically(llvm::StringRef path,
                         llvm::function_ref<void(llvm::raw_ostream &)> write) {
  llvm::SmallString<256> temporary;
  int fd;
  if (llvm::sys::fs::createUniqueFile(path + ".%%%%%%.tmp", fd, temporary))
    return false;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    write(os);
    os.close();
    // A write error is cleared so that the stream's destructor does not
    // treat it as fatal: the caller decides what a failed write means.
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return false;
    }
  }
  if (llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return false;
  }
  return true;
}

} // namespace onyx

//===- StandaloneMain.cpp - Replays fuzz inputs without libFuzzer ---------===//
//
// In builds without ONYX_FUZZ (the compiler need not be clang), each fuzz
// target links this driver instead of libFuzzer: it runs the target once
// on every file named on the command line or found in a named folder, so
// that ctest replays the seed corpora and the reproducers of past crashes.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool runFile(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer) {
    llvm::errs() << "cannot read '" << path << "'\n";
    return false;
  }
  LLVMFuzzerTestOneInput(
      reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
      (*buffer)->getBufferSize());
  return true;
}

int main(int argc, char **argv) {
  unsigned count = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (!arg.empty() && arg[0] == '-')
      continue; // libFuzzer flags, ignored here.
    std::vector<std::string> files;
    if (llvm::sys::fs::is_directory(arg)) {
      std::error_code ec;
      for (llvm::sys::fs::directory_iterator it(arg, ec), end; it != end && !ec;
           it.increment(ec))
        if (llvm::sys::fs::is_regular_file(it->path()))
          files.push_back(it->path());
    } else {
      files.push_back(arg);
    }
    for (const std::string &file : files) {
      if (!runFile(file))
        return 1;
      ++count;
    }
  }
  llvm::outs() << "ran " << count << " inputs\n";
  return 0;
}

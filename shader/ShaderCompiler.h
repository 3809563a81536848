//===- ShaderCompiler.h - GLSL compute shaders to SPIR-V --------*- C++ -*-===//
//
// Compiles the GLSL that kernel generators write into the SPIR-V that
// gpu.kernel holds, with shaderc, at compile time (the runtime never
// compiles shaders). Results are cached in memory by a hash of the source
// and options: generated kernels repeat (every Add of the same shape), and
// a compile costs milliseconds while a cache hit costs a hash.
//
// This is a library of its own, beside the dialect rather than in it, so
// that only code that generates kernels links shaderc's large static
// archives; the dialect and the runtime do not.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Location.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace onyx::shader {

struct CompileOptions {
  /// The Vulkan version whose SPIR-V to produce, as {major, minor}: 1.0
  /// gives SPIR-V 1.0, 1.1 gives 1.3, 1.2 gives 1.5, 1.3 gives 1.6.
  std::pair<unsigned, unsigned> vulkanVersion = {1, 2};
  /// glslc -O; without it the SPIR-V is as glslang emits it.
  bool optimize = true;
};

class ShaderCompiler {
public:
  ShaderCompiler();
  ~ShaderCompiler();
  ShaderCompiler(const ShaderCompiler &) = delete;
  ShaderCompiler &operator=(const ShaderCompiler &) = delete;

  /// Compiles a GLSL compute shader with entry point `main`. Errors are
  /// reported at `loc` (the op the kernel is for) with the compiler's
  /// messages; the result stays valid as long as the compiler. Safe to call
  /// from several threads.
  FailureOr<ArrayRef<uint32_t>> compile(StringRef glsl, Location loc,
                                        const CompileOptions &options = {});

  /// Keeps compiled kernels in `directory` (created when first written;
  /// empty: only in memory). A file read back is used only if it holds the
  /// same source and options and well-formed SPIR-V; otherwise the kernel
  /// is compiled again and the file replaced. Disk errors only cost a
  /// compile: the cache never makes a compile fail.
  void setCacheDirectory(StringRef directory);

  struct Statistics {
    unsigned compiles = 0;
    unsigned cacheHits = 0;
    /// Kernels read from the cache directory instead of compiled.
    unsigned diskHits = 0;
  };
  Statistics getStatistics() const;

private:
  struct Entry {
    std::string source;
    CompileOptions options;
    std::vector<uint32_t> words;
  };

  bool readFromDisk(uint64_t hash, Entry &entry) const;
  void writeToDisk(uint64_t hash, const Entry &entry) const;

  void *compiler; // shaderc_compiler_t, kept out of this header
  std::string cacheDirectory;
  mutable std::mutex mutex;
  /// Entries by hash; entries with equal hashes are told apart by source.
  llvm::DenseMap<uint64_t, SmallVector<std::unique_ptr<Entry>, 1>> cache;
  Statistics stats;
};

} // namespace onyx::shader

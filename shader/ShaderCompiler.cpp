//===- ShaderCompiler.cpp - GLSL compute shaders to SPIR-V ----------------===//
#include "shader/ShaderCompiler.h"

#include "ir/Diagnostics.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/Support/xxhash.h"

#include <shaderc/shaderc.h>

#include <cstring>

namespace onyx::shader {

ShaderCompiler::ShaderCompiler() : compiler(shaderc_compiler_initialize()) {}

ShaderCompiler::~ShaderCompiler() {
  shaderc_compiler_release(static_cast<shaderc_compiler_t>(compiler));
}

static std::optional<shaderc_env_version>
getEnvVersion(std::pair<unsigned, unsigned> version) {
  if (version.first != 1)
    return std::nullopt;
  switch (version.second) {
  case 0:
    return shaderc_env_version_vulkan_1_0;
  case 1:
    return shaderc_env_version_vulkan_1_1;
  case 2:
    return shaderc_env_version_vulkan_1_2;
  case 3:
    return shaderc_env_version_vulkan_1_3;
  default:
    return std::nullopt;
  }
}

/// Releases a shaderc object when leaving scope.
template <typename T, void (*Release)(T)> struct Owned {
  T value;
  ~Owned() { Release(value); }
};

FailureOr<ArrayRef<uint32_t>>
ShaderCompiler::compile(StringRef glsl, Location loc,
                        const CompileOptions &options) {
  uint64_t hash =
      llvm::hash_combine(llvm::xxh3_64bits(glsl), options.vulkanVersion.first,
                         options.vulkanVersion.second, options.optimize);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(hash);
    for (const std::unique_ptr<Entry> &entry :
         it == cache.end() ? ArrayRef<std::unique_ptr<Entry>>()
                           : ArrayRef<std::unique_ptr<Entry>>(it->second)) {
      if (entry->source == glsl &&
          entry->options.vulkanVersion == options.vulkanVersion &&
          entry->options.optimize == options.optimize) {
        ++stats.cacheHits;
        return ArrayRef<uint32_t>(entry->words);
      }
    }
  }

  std::optional<shaderc_env_version> env = getEnvVersion(options.vulkanVersion);
  if (!env)
    return emitError(loc) << "cannot compile shaders for Vulkan "
                          << options.vulkanVersion.first << "."
                          << options.vulkanVersion.second;
  Owned<shaderc_compile_options_t, shaderc_compile_options_release> opts{
      shaderc_compile_options_initialize()};
  shaderc_compile_options_set_source_language(opts.value,
                                              shaderc_source_language_glsl);
  shaderc_compile_options_set_target_env(opts.value, shaderc_target_env_vulkan,
                                         *env);
  if (options.optimize)
    shaderc_compile_options_set_optimization_level(
        opts.value, shaderc_optimization_level_performance);

  // shaderc's compiler object may be used from several threads at once.
  std::string source = glsl.str();
  Owned<shaderc_compilation_result_t, shaderc_result_release> result{
      shaderc_compile_into_spv(static_cast<shaderc_compiler_t>(compiler),
                               source.data(), source.size(),
                               shaderc_compute_shader, "kernel.comp", "main",
                               opts.value)};
  if (shaderc_result_get_compilation_status(result.value) !=
      shaderc_compilation_status_success)
    return emitError(loc)
           << "GLSL compilation failed:\n"
           << StringRef(shaderc_result_get_error_message(result.value)).rtrim();

  auto entry = std::make_unique<Entry>();
  entry->source = std::move(source);
  entry->options = options;
  size_t bytes = shaderc_result_get_length(result.value);
  entry->words.resize(bytes / sizeof(uint32_t));
  std::memcpy(entry->words.data(), shaderc_result_get_bytes(result.value),
              entry->words.size() * sizeof(uint32_t));

  std::lock_guard<std::mutex> lock(mutex);
  ++stats.compiles;
  ArrayRef<uint32_t> words = entry->words;
  cache[hash].push_back(std::move(entry));
  return words;
}

ShaderCompiler::Statistics ShaderCompiler::getStatistics() const {
  std::lock_guard<std::mutex> lock(mutex);
  return stats;
}

} // namespace onyx::shader

//===- ShaderCompiler.cpp - GLSL compute shaders to SPIR-V ----------------===//
#include "shader/ShaderCompiler.h"

#include "ir/Diagnostics.h"
#include "support/FileUtilities.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <shaderc/shaderc.h>

#include <cstdio>
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
  auto entry = std::make_unique<Entry>();
  entry->source = glsl.str();
  entry->options = options;
  // hash_combine's seed may differ between processes; files need a hash
  // that does not.
  uint64_t parts[] = {llvm::xxh3_64bits(glsl), options.vulkanVersion.first,
                      options.vulkanVersion.second, options.optimize};
  uint64_t fileHash = llvm::xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(parts), sizeof(parts)));
  if (readFromDisk(fileHash, *entry)) {
    std::lock_guard<std::mutex> lock(mutex);
    ++stats.diskHits;
    ArrayRef<uint32_t> words = entry->words;
    cache[hash].push_back(std::move(entry));
    return words;
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
  const std::string &source = entry->source;
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

  size_t bytes = shaderc_result_get_length(result.value);
  entry->words.resize(bytes / sizeof(uint32_t));
  std::memcpy(entry->words.data(), shaderc_result_get_bytes(result.value),
              entry->words.size() * sizeof(uint32_t));
  writeToDisk(fileHash, *entry);

  std::lock_guard<std::mutex> lock(mutex);
  ++stats.compiles;
  ArrayRef<uint32_t> words = entry->words;
  cache[hash].push_back(std::move(entry));
  return words;
}

void ShaderCompiler::setCacheDirectory(StringRef directory) {
  std::lock_guard<std::mutex> lock(mutex);
  cacheDirectory = directory.str();
}

// A cached kernel's file: the magic "onyxspv1", the options (Vulkan major
// and minor version, optimize) and the source's and SPIR-V's sizes as
// little-endian uint32, then the source and the SPIR-V words. The source is
// kept so that a hash collision, or a file of another version, is a miss.
static constexpr char kMagic[8] = {'o', 'n', 'y', 'x', 's', 'p', 'v', '1'};
static constexpr size_t kHeaderSize = sizeof(kMagic) + 5 * sizeof(uint32_t);

static std::string getCachePath(StringRef directory, uint64_t hash) {
  llvm::SmallString<256> path(directory);
  char name[32];
  std::snprintf(name, sizeof(name), "%016llx.spv", (unsigned long long)hash);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

bool ShaderCompiler::readFromDisk(uint64_t hash, Entry &entry) const {
  std::string directory;
  {
    std::lock_guard<std::mutex> lock(mutex);
    directory = cacheDirectory;
  }
  if (directory.empty())
    return false;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(getCachePath(directory, hash),
                                  /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return false;
  StringRef bytes = (*file)->getBuffer();
  if (bytes.size() < kHeaderSize ||
      !bytes.starts_with(StringRef(kMagic, sizeof(kMagic))))
    return false;
  uint32_t header[5];
  std::memcpy(header, bytes.data() + sizeof(kMagic), sizeof(header));
  uint64_t sourceSize = header[3], wordCount = header[4];
  if (header[0] != entry.options.vulkanVersion.first ||
      header[1] != entry.options.vulkanVersion.second ||
      header[2] != uint32_t(entry.options.optimize) ||
      sourceSize != entry.source.size() || wordCount < 5 ||
      bytes.size() != kHeaderSize + sourceSize + wordCount * sizeof(uint32_t))
    return false;
  if (bytes.substr(kHeaderSize, sourceSize) != entry.source)
    return false;
  entry.words.resize(wordCount);
  std::memcpy(entry.words.data(), bytes.data() + kHeaderSize + sourceSize,
              wordCount * sizeof(uint32_t));
  // SPIR-V's magic number; the rest is checked when the kernel is loaded.
  return entry.words[0] == 0x07230203u;
}

void ShaderCompiler::writeToDisk(uint64_t hash, const Entry &entry) const {
  std::string directory;
  {
    std::lock_guard<std::mutex> lock(mutex);
    directory = cacheDirectory;
  }
  if (directory.empty() || llvm::sys::fs::create_directories(directory))
    return;
  std::string path = getCachePath(directory, hash);
  // A concurrent reader sees the old file or the whole new one; a failure
  // only loses the cache.
  writeFileAtomically(path, [&](llvm::raw_ostream &os) {
    uint32_t header[5] = {
        entry.options.vulkanVersion.first, entry.options.vulkanVersion.second,
        uint32_t(entry.options.optimize), uint32_t(entry.source.size()),
        uint32_t(entry.words.size())};
    os.write(kMagic, sizeof(kMagic));
    os.write(reinterpret_cast<const char *>(header), sizeof(header));
    os << entry.source;
    os.write(reinterpret_cast<const char *>(entry.words.data()),
             entry.words.size() * sizeof(uint32_t));
  });
}

ShaderCompiler::Statistics ShaderCompiler::getStatistics() const {
  std::lock_guard<std::mutex> lock(mutex);
  return stats;
}

} // namespace onyx::shader

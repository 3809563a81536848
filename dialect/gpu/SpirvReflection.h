//===- SpirvReflection.h - What a SPIR-V kernel declares --------*- C++ -*-===//
//
// Reads the parts of a SPIR-V binary that the gpu dialect's kernel verifier
// and the runtime must agree on: the entry point and its workgroup size,
// the storage-buffer bindings with their read/write decorations, the
// push-constant block size, the shared memory it declares, the capabilities
// it uses and the SPIR-V version. Malformed binaries and constructs onyx does
// not support are reported as a message, never by crashing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Support.h"

#include <array>
#include <cstdint>
#include <string>

namespace onyx::gpu {

struct SpirvBinding {
  uint32_t binding = 0;
  /// `readonly` / `writeonly` in GLSL.
  bool nonWritable = false;
  bool nonReadable = false;
};

struct SpirvInfo {
  /// Major and minor version, e.g. {1, 3}.
  std::array<uint32_t, 2> version = {0, 0};
  std::array<uint32_t, 3> localSize = {0, 0, 0};
  /// Storage buffers of descriptor set 0, sorted by binding number.
  SmallVector<SpirvBinding> bindings;
  /// Bytes of the push-constant block; 0 if there is none.
  uint32_t pushConstantSize = 0;
  /// Bytes of workgroup-shared variables, packed without padding (a lower
  /// bound of what the driver allocates).
  uint64_t sharedMemorySize = 0;
  SmallVector<uint32_t> capabilities;
};

/// Reflects the GLCompute entry point named `entryPoint`. On failure returns
/// the reason in `error`.
FailureOr<SpirvInfo> reflectSpirv(ArrayRef<uint32_t> words,
                                  StringRef entryPoint, std::string &error);

} // namespace onyx::gpu

//===- Glsl.h - Pieces of GLSL that kernel generators share -----*- C++ -*-===//
//
// Every generated kernel is GLSL 4.50 for Vulkan: storage buffers at set 0,
// bindings in dispatch operand order, elements stored as the tensor's element
// type (as DenseElementsAttr lays them out) and computed in a wider type:
//
//   element type     stored as     computed as
//   f32              float         float
//   f16              float16_t     float      (16-bit storage)
//   bf16             uint16_t      float      (bits shifted by 16)
//   f64              double        double     (feature float64)
//   i64 / ui64       int64_t / uint64_t      (feature int64)
//   i32 / ui32       int / uint
//   i16 / ui16       int16_t / uint16_t  int / uint   (16-bit storage)
//   i8 / ui8         int8_t / uint8_t    int / uint   (8-bit storage)
//   i1 (bool)        uint8_t       bool
//
// The extensions all kernels enable cost nothing unless used; the SPIR-V
// capabilities a kernel ends up using decide the device features the module
// needs (gpu-compile-kernels records them).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/Target.h"

#include <array>
#include <string>

namespace onyx::lowering::glsl {

/// Whether kernels can hold tensors of `elementType`.
bool isSupported(Type elementType);
/// The type elements of `elementType` are stored as in buffers.
std::string storageType(Type elementType);
/// The type generated code computes `elementType` values in (float, double,
/// int, uint, int64_t, uint64_t, bool).
std::string computeType(Type elementType);
bool isFloat(Type elementType);

/// `#version 450`, the extensions, and the workgroup size declaration;
/// `extra` names further extensions the kernel requires (such as
/// GL_KHR_shader_subgroup_clustered).
std::string header(std::array<uint32_t, 3> workgroupSize,
                   ArrayRef<StringRef> extra = {});
/// Inserts `text` into kernel source `glsl` right after its header (the
/// workgroup size declaration), where declarations every kernel of a
/// problem shares (its push constants) go.
void insertAfterHeader(std::string &glsl, StringRef text);

/// A storage buffer `name` with elements `name.d[]` at `binding`:
/// `layout(set = 0, binding = 1, std430) readonly buffer B1 { float d[]; } x;`
std::string buffer(unsigned binding, gpu::Access access, Type elementType,
                   StringRef name);

/// An expression reading element `index` (GLSL text) of buffer `name`,
/// converted to the compute type.
std::string load(Type elementType, StringRef name, StringRef index);
/// A statement writing `value` (of the compute type) to element `index`.
std::string store(Type elementType, StringRef name, StringRef index,
                  StringRef value);
/// `value` (an expression of the compute type of `from`) converted to the
/// compute type of `to`, with ONNX Cast semantics (float to int truncates,
/// non-zero to bool is true).
std::string convert(Type from, Type to, StringRef value);

/// A literal of the compute type of `elementType`: `1.5`, `-0.0`, `(1.0/0.0)`
/// and NaN as bit patterns for floats, `3`, `3u`, `3l`, `3ul` for integers,
/// `true`/`false` for bool.
std::string literal(Type elementType, double value);
std::string integerLiteral(Type elementType, int64_t value);
/// A uint literal (`12u`). Negative values wrap to 32 bits, as GLSL's uint
/// arithmetic does, so offsets may step backwards (negative Slice steps).
std::string uintLiteral(int64_t value);
/// The smallest and largest values of `elementType` as literals (-inf and
/// +inf for floats), for reductions.
std::string lowest(Type elementType);
std::string highest(Type elementType);

/// Statements declaring `uint <prefix>0 .. <prefix>{rank-1}`, the
/// coordinates of flat row-major index `flat` (a uint expression) in
/// `shape`.
std::string unflatten(ArrayRef<int64_t> shape, StringRef flat,
                      StringRef prefix);
/// The flat index (a uint expression) of an element of `inputShape`
/// broadcast (numpy rules, right-aligned) to an output whose coordinates
/// are `<prefix>0 ..` in a shape of rank `outputRank`.
std::string broadcastIndex(ArrayRef<int64_t> inputShape, unsigned outputRank,
                           StringRef prefix);

/// Functions GLSL lacks that expressions may call: onyx_erf, onyx_mod_*,
/// onyx_gelu_*, ... Emitted only for those `code` mentions.
std::string helpers(StringRef code);

inline uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/// The workgroup size elementwise-like kernels use on `target` (one
/// invocation per output element).
uint32_t linearWorkgroupSize(const gpu::TargetDesc &target);

} // namespace onyx::lowering::glsl

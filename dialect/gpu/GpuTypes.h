//===- GpuTypes.h - Types of the gpu dialect --------------------*- C++ -*-===//
//
//   !gpu.buffer<4096>      a device buffer of 4096 bytes (the arena, or the
//                          weights)
//   !gpu.view<2x3xf32>     a tensor stored densely, row-major, in a range of
//                          a buffer
//   !gpu.view<?x3xf32>     the same with a dimension known only when the
//                          function runs: the op that makes the view takes
//                          it as an `index` operand (see GpuOps.h)
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Types.h"

namespace onyx::gpu {

/// Which of the gpu dialect's types a dialect type storage holds.
enum class GpuTypeKind : unsigned { Buffer, View };

class BufferType : public Type {
public:
  using Type::Type;
  static BufferType get(Context *ctx, uint64_t size);
  /// Size in bytes.
  uint64_t getSize() const;
  static bool classof(Type t);
};

class ViewType : public Type {
public:
  using Type::Type;
  static ViewType get(RankedTensorType tensorType);
  static ViewType get(ArrayRef<int64_t> shape, Type elementType) {
    return get(RankedTensorType::get(shape, elementType));
  }
  RankedTensorType getTensorType() const;
  ArrayRef<int64_t> getShape() const { return getTensorType().getShape(); }
  Type getElementType() const { return getTensorType().getElementType(); }
  bool hasStaticShape() const { return getTensorType().hasStaticShape(); }
  /// Number of `?` dimensions.
  unsigned getNumDynamicDims() const;
  /// Bytes the tensor occupies; only for a static shape.
  uint64_t getSizeInBytes() const;
  static bool classof(Type t);
};

/// Bytes a buffer or view of static shape occupies; 0 for other types and
/// for views with dynamic dimensions (their size is known at run time).
uint64_t getMemorySize(Type type);

} // namespace onyx::gpu

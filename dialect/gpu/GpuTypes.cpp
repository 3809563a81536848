//===- GpuTypes.cpp - Types of the gpu dialect ----------------------------===//
#include "dialect/gpu/GpuTypes.h"
#include "dialect/gpu/GpuDialect.h"

#include "ir/TypeDetail.h"

namespace onyx::gpu {

namespace {

struct BufferTypeStorage : detail::DialectTypeStorage {
  using KeyTy = uint64_t;
  uint64_t size;
  static llvm::hash_code hashKey(const KeyTy &k) { return llvm::hash_value(k); }
  bool operator==(const KeyTy &k) const { return size == k; }
  static BufferTypeStorage *construct(llvm::BumpPtrAllocator &alloc,
                                      const KeyTy &k) {
    return new (alloc.Allocate<BufferTypeStorage>()) BufferTypeStorage{
        {{TypeKind::Dialect, nullptr}, nullptr, unsigned(GpuTypeKind::Buffer)},
        k};
  }
};

struct ViewTypeStorage : detail::DialectTypeStorage {
  using KeyTy = Type;
  RankedTensorType tensorType;
  static llvm::hash_code hashKey(const KeyTy &k) { return hash_value(k); }
  bool operator==(const KeyTy &k) const { return tensorType == k; }
  static ViewTypeStorage *construct(llvm::BumpPtrAllocator &alloc,
                                    const KeyTy &k) {
    return new (alloc.Allocate<ViewTypeStorage>()) ViewTypeStorage{
        {{TypeKind::Dialect, nullptr}, nullptr, unsigned(GpuTypeKind::View)},
        cast<RankedTensorType>(k)};
  }
};

} // namespace

/// Uniques a storage of this dialect. The dialect must be loaded: its types
/// print and parse through it.
template <typename StorageT>
static StorageT *getStorage(Context *ctx, const typename StorageT::KeyTy &key) {
  StorageT *storage = ctx->unique<StorageT>(key);
  if (!storage->dialect) {
    storage->dialect = ctx->getLoadedDialect(GpuDialect::getDialectNamespace());
    assert(storage->dialect && "the gpu dialect is not loaded");
  }
  return storage;
}

static bool isGpuType(Type t, GpuTypeKind kind) {
  if (t.getKind() != TypeKind::Dialect)
    return false;
  auto *storage = static_cast<const detail::DialectTypeStorage *>(t.getImpl());
  return storage->subKind == unsigned(kind) &&
         storage->dialect->getNamespace() == GpuDialect::getDialectNamespace();
}

BufferType BufferType::get(Context *ctx, uint64_t size) {
  return BufferType(getStorage<BufferTypeStorage>(ctx, size));
}
uint64_t BufferType::getSize() const {
  return static_cast<const BufferTypeStorage *>(impl)->size;
}
bool BufferType::classof(Type t) { return isGpuType(t, GpuTypeKind::Buffer); }

ViewType ViewType::get(RankedTensorType tensorType) {
  return ViewType(
      getStorage<ViewTypeStorage>(tensorType.getContext(), tensorType));
}
RankedTensorType ViewType::getTensorType() const {
  return static_cast<const ViewTypeStorage *>(impl)->tensorType;
}
unsigned ViewType::getNumDynamicDims() const {
  return llvm::count_if(getShape(), ShapedType::isDynamic);
}
uint64_t ViewType::getSizeInBytes() const {
  assert(hasStaticShape() && "the size of a dynamic view is known at run time");
  return uint64_t(getTensorType().getNumElements()) *
         getElementByteSize(getElementType());
}
bool ViewType::classof(Type t) { return isGpuType(t, GpuTypeKind::View); }

uint64_t getMemorySize(Type type) {
  if (auto buffer = dyn_cast<BufferType>(type))
    return buffer.getSize();
  if (auto view = dyn_cast<ViewType>(type))
    return view.hasStaticShape() ? view.getSizeInBytes() : 0;
  return 0;
}

} // namespace onyx::gpu

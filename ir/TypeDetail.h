//===- TypeDetail.h - Storage of the builtin types --------------*- C++ -*-===//
//
// Private to the IR library: the uniqued storage behind each Type handle.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/OpaqueStorage.h"
#include "ir/Types.h"

#include <tuple>

namespace onyx::detail {

struct TypeStorage {
  TypeKind kind;
  Context *context;
};

struct IntegerTypeStorage : TypeStorage {
  using KeyTy = std::pair<unsigned, IntegerType::Signedness>;
  unsigned width;
  IntegerType::Signedness signedness;
  static llvm::hash_code hashKey(const KeyTy &k) {
    return llvm::hash_combine(k.first, static_cast<int>(k.second));
  }
  bool operator==(const KeyTy &k) const {
    return width == k.first && signedness == k.second;
  }
  static IntegerTypeStorage *construct(llvm::BumpPtrAllocator &alloc,
                                       const KeyTy &k) {
    return new (alloc.Allocate<IntegerTypeStorage>())
        IntegerTypeStorage{{TypeKind::Integer, nullptr}, k.first, k.second};
  }
};

struct FloatTypeStorage : TypeStorage {
  FloatType::Width width;
};

struct RankedTensorTypeStorage : TypeStorage {
  using KeyTy = std::pair<ArrayRef<int64_t>, Type>;
  ArrayRef<int64_t> shape;
  Type elementType;
  static llvm::hash_code hashKey(const KeyTy &k) {
    return llvm::hash_combine(
        llvm::hash_combine_range(k.first.begin(), k.first.end()), k.second);
  }
  bool operator==(const KeyTy &k) const {
    return shape == k.first && elementType == k.second;
  }
  static RankedTensorTypeStorage *construct(llvm::BumpPtrAllocator &alloc,
                                            const KeyTy &k) {
    int64_t *dims = alloc.Allocate<int64_t>(k.first.size());
    std::copy(k.first.begin(), k.first.end(), dims);
    return new (alloc.Allocate<RankedTensorTypeStorage>())
        RankedTensorTypeStorage{{TypeKind::RankedTensor, nullptr},
                                {dims, k.first.size()},
                                k.second};
  }
};

struct UnrankedTensorTypeStorage : TypeStorage {
  using KeyTy = Type;
  Type elementType;
  static llvm::hash_code hashKey(const KeyTy &k) { return hash_value(k); }
  bool operator==(const KeyTy &k) const { return elementType == k; }
  static UnrankedTensorTypeStorage *construct(llvm::BumpPtrAllocator &alloc,
                                              const KeyTy &k) {
    return new (alloc.Allocate<UnrankedTensorTypeStorage>())
        UnrankedTensorTypeStorage{{TypeKind::UnrankedTensor, nullptr}, k};
  }
};

struct FunctionTypeStorage : TypeStorage {
  using KeyTy = std::pair<ArrayRef<Type>, ArrayRef<Type>>;
  ArrayRef<Type> inputs;
  ArrayRef<Type> results;
  static llvm::hash_code hashKey(const KeyTy &k) {
    return llvm::hash_combine(
        llvm::hash_combine_range(k.first.begin(), k.first.end()),
        llvm::hash_combine_range(k.second.begin(), k.second.end()));
  }
  bool operator==(const KeyTy &k) const {
    return inputs == k.first && results == k.second;
  }
  static FunctionTypeStorage *construct(llvm::BumpPtrAllocator &alloc,
                                        const KeyTy &k) {
    Type *mem = alloc.Allocate<Type>(k.first.size() + k.second.size());
    std::uninitialized_copy(k.first.begin(), k.first.end(), mem);
    std::uninitialized_copy(k.second.begin(), k.second.end(),
                            mem + k.first.size());
    return new (alloc.Allocate<FunctionTypeStorage>())
        FunctionTypeStorage{{TypeKind::Function, nullptr},
                            {mem, k.first.size()},
                            {mem + k.first.size(), k.second.size()}};
  }
};

using OpaqueTypeStorage = OpaqueStorage<TypeStorage, TypeKind::Opaque>;

/// Base of types defined by dialects: `dialect` prints and parses them and
/// `subKind` tells the dialect's own kinds apart.
struct DialectTypeStorage : TypeStorage {
  Dialect *dialect;
  unsigned subKind;
};

} // namespace onyx::detail

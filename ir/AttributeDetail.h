//===- AttributeDetail.h - Storage of the builtin attributes ----*- C++ -*-===//
//
// Private to the IR library: the uniqued storage behind Attribute handles.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Location.h"
#include "ir/OpaqueStorage.h"

namespace onyx::detail {

struct AttributeStorage {
  AttrKind kind;
  Context *context;
};

struct IntegerAttrStorage : AttributeStorage {
  using KeyTy = std::pair<Type, llvm::APInt>;
  Type type;
  llvm::APInt value;
  static llvm::hash_code hashKey(const KeyTy &k) {
    return llvm::hash_combine(k.first, llvm::hash_value(k.second));
  }
  bool operator==(const KeyTy &k) const {
    return type == k.first && value.getBitWidth() == k.second.getBitWidth() &&
           value == k.second;
  }
  static IntegerAttrStorage *construct(llvm::BumpPtrAllocator &alloc,
                                       const KeyTy &k) {
    return new (alloc.Allocate<IntegerAttrStorage>())
        IntegerAttrStorage{{AttrKind::Integer, nullptr}, k.first, k.second};
  }
};

struct FloatAttrStorage : AttributeStorage {
  // Keyed by the bit pattern so that -0.0 and 0.0 (and NaN payloads) differ.
  using KeyTy = std::pair<Type, uint64_t>;
  Type type;
  uint64_t bits;
  static llvm::hash_code hashKey(const KeyTy &k) {
    return llvm::hash_combine(k.first, k.second);
  }
  bool operator==(const KeyTy &k) const {
    return type == k.first && bits == k.second;
  }
  static FloatAttrStorage *construct(llvm::BumpPtrAllocator &alloc,
                                     const KeyTy &k) {
    return new (alloc.Allocate<FloatAttrStorage>())
        FloatAttrStorage{{AttrKind::Float, nullptr}, k.first, k.second};
  }
};

struct StringAttrStorage : AttributeStorage {
  using KeyTy = StringRef;
  StringRef value;
  static llvm::hash_code hashKey(const KeyTy &k) { return llvm::hash_value(k); }
  bool operator==(const KeyTy &k) const { return value == k; }
  static StringAttrStorage *construct(llvm::BumpPtrAllocator &alloc,
                                      const KeyTy &k) {
    return new (alloc.Allocate<StringAttrStorage>())
        StringAttrStorage{{AttrKind::String, nullptr}, copyString(alloc, k)};
  }
};

/// Storage of attributes that are a list of attributes: arrays,
/// dictionaries (pairs flattened), symbol references and fused locations.
template <typename ElemT, AttrKind Kind>
struct ListAttrStorage : AttributeStorage {
  using KeyTy = std::pair<ArrayRef<ElemT>, Attribute>;
  ArrayRef<ElemT> elements;
  Attribute extra;
  static llvm::hash_code hashKey(const KeyTy &k) {
    llvm::hash_code h = hash_value(k.second);
    for (const ElemT &e : k.first)
      h = llvm::hash_combine(h, hashElem(e));
    return h;
  }
  bool operator==(const KeyTy &k) const {
    return extra == k.second && elements == k.first;
  }
  static ListAttrStorage *construct(llvm::BumpPtrAllocator &alloc,
                                    const KeyTy &k) {
    ElemT *mem = alloc.Allocate<ElemT>(k.first.size());
    std::uninitialized_copy(k.first.begin(), k.first.end(), mem);
    return new (alloc.Allocate<ListAttrStorage>()) ListAttrStorage{
        {Kind, nullptr}, ArrayRef<ElemT>(mem, k.first.size()), k.second};
  }

private:
  static llvm::hash_code hashElem(Attribute a) { return hash_value(a); }
  static llvm::hash_code hashElem(const NamedAttribute &a) {
    return llvm::hash_combine(hash_value(a.name), hash_value(a.value));
  }
};

using ArrayAttrStorage = ListAttrStorage<Attribute, AttrKind::Array>;
using DictionaryAttrStorage =
    ListAttrStorage<NamedAttribute, AttrKind::Dictionary>;
// Root reference in `extra`, nested references as elements.
using SymbolRefAttrStorage = ListAttrStorage<Attribute, AttrKind::SymbolRef>;
// Metadata in `extra`.
using FusedLocStorage = ListAttrStorage<Attribute, AttrKind::FusedLoc>;
// Callee and caller as the two elements.
using CallSiteLocStorage = ListAttrStorage<Attribute, AttrKind::CallSiteLoc>;

struct TypeAttrStorage : AttributeStorage {
  using KeyTy = Type;
  Type value;
  static llvm::hash_code hashKey(const KeyTy &k) { return hash_value(k); }
  bool operator==(const KeyTy &k) const { return value == k; }
  static TypeAttrStorage *construct(llvm::BumpPtrAllocator &alloc,
                                    const KeyTy &k) {
    return new (alloc.Allocate<TypeAttrStorage>())
        TypeAttrStorage{{AttrKind::Type, nullptr}, k};
  }
};

struct DenseElementsAttrStorage : AttributeStorage {
  using KeyTy = std::pair<Type, ArrayRef<char>>;
  Type type;
  ArrayRef<char> data;
  bool splat;
  static llvm::hash_code hashKey(const KeyTy &k) {
    return llvm::hash_combine(
        k.first, llvm::hash_value(StringRef(k.second.data(), k.second.size())));
  }
  bool operator==(const KeyTy &k) const {
    return type == k.first && data == k.second;
  }
  static DenseElementsAttrStorage *construct(llvm::BumpPtrAllocator &alloc,
                                             const KeyTy &k) {
    // Aligned for the widest element so typed views of the bytes are valid.
    char *mem = static_cast<char *>(
        alloc.Allocate(std::max<size_t>(k.second.size(), 1), llvm::Align(16)));
    std::copy(k.second.begin(), k.second.end(), mem);
    auto shaped = llvm::cast<ShapedType>(k.first);
    bool splat = shaped.getNumElements() > 0 &&
                 k.second.size() == getElementByteSize(shaped.getElementType());
    return new (alloc.Allocate<DenseElementsAttrStorage>())
        DenseElementsAttrStorage{{AttrKind::DenseElements, nullptr},
                                 k.first,
                                 {mem, k.second.size()},
                                 splat};
  }
};

using OpaqueAttrStorage = OpaqueStorage<AttributeStorage, AttrKind::Opaque>;

struct FileLineColLocStorage : AttributeStorage {
  using KeyTy = std::tuple<Attribute, unsigned, unsigned>;
  StringAttr file;
  unsigned line, column;
  static llvm::hash_code hashKey(const KeyTy &k) {
    return llvm::hash_combine(std::get<0>(k), std::get<1>(k), std::get<2>(k));
  }
  bool operator==(const KeyTy &k) const {
    return file == std::get<0>(k) && line == std::get<1>(k) &&
           column == std::get<2>(k);
  }
  static FileLineColLocStorage *construct(llvm::BumpPtrAllocator &alloc,
                                          const KeyTy &k) {
    return new (alloc.Allocate<FileLineColLocStorage>())
        FileLineColLocStorage{{AttrKind::FileLineColLoc, nullptr},
                              StringAttr(std::get<0>(k).getImpl()),
                              std::get<1>(k),
                              std::get<2>(k)};
  }
};

struct NameLocStorage : AttributeStorage {
  using KeyTy = std::pair<Attribute, Attribute>;
  StringAttr name;
  Location child;
  static llvm::hash_code hashKey(const KeyTy &k) {
    return llvm::hash_combine(k.first, k.second);
  }
  bool operator==(const KeyTy &k) const {
    return name == k.first && child == k.second;
  }
  static NameLocStorage *construct(llvm::BumpPtrAllocator &alloc,
                                   const KeyTy &k) {
    return new (alloc.Allocate<NameLocStorage>())
        NameLocStorage{{AttrKind::NameLoc, nullptr},
                       StringAttr(k.first.getImpl()),
                       Location(k.second.getImpl())};
  }
};

} // namespace onyx::detail

//===- StorageUniquer.h - Uniqued immutable storage -------------*- C++ -*-===//
//
// Types and attributes are created once per distinct key and live as long as
// the Context. A storage class provides
//   using KeyTy = ...;                       // a cheap, non-owning view
//   static llvm::hash_code hashKey(const KeyTy &);
//   bool operator==(const KeyTy &) const;
//   static Storage *construct(llvm::BumpPtrAllocator &, const KeyTy &);
// and `construct` copies whatever the key only references into the allocator.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/TinyPtrVector.h"
#include "llvm/Support/Allocator.h"

#include <cstring>
#include <functional>
#include <type_traits>
#include <vector>

namespace onyx::detail {

class StorageUniquer {
public:
  template <typename StorageT, typename KeyT> StorageT *get(const KeyT &key) {
    const void *id = &typeTag<StorageT>;
    unsigned hash = llvm::hash_combine(id, StorageT::hashKey(key));
    auto &bucket = buckets[hash];
    for (void *candidate : bucket) {
      auto *entry = static_cast<Entry *>(candidate);
      if (entry->id == id && *static_cast<StorageT *>(entry->storage) == key)
        return static_cast<StorageT *>(entry->storage);
    }
    StorageT *storage = StorageT::construct(allocator, key);
    bucket.push_back(new (allocator.Allocate<Entry>()) Entry{id, storage});
    // The allocator frees memory without running destructors; storage that
    // owns heap memory (a wide APInt) is destroyed explicitly.
    if constexpr (!std::is_trivially_destructible_v<StorageT>)
      destructors.push_back([storage] { storage->~StorageT(); });
    return storage;
  }

  StorageUniquer() = default;
  StorageUniquer(const StorageUniquer &) = delete;
  ~StorageUniquer() {
    for (auto &destroy : destructors)
      destroy();
  }

  llvm::BumpPtrAllocator &getAllocator() { return allocator; }

  /// Copies `data` into memory that lives as long as the Context.
  template <typename T> llvm::ArrayRef<T> copyInto(llvm::ArrayRef<T> data) {
    if (data.empty())
      return {};
    T *mem = allocator.Allocate<T>(data.size());
    std::uninitialized_copy(data.begin(), data.end(), mem);
    return {mem, data.size()};
  }
  llvm::StringRef copyInto(llvm::StringRef str) {
    if (str.empty())
      return {};
    char *mem = allocator.Allocate<char>(str.size());
    std::memcpy(mem, str.data(), str.size());
    return {mem, str.size()};
  }

private:
  struct Entry {
    const void *id;
    void *storage;
  };
  template <typename T> static inline char typeTag = 0;

  llvm::BumpPtrAllocator allocator;
  llvm::DenseMap<unsigned, llvm::TinyPtrVector<void *>> buckets;
  std::vector<std::function<void()>> destructors;
};

} // namespace onyx::detail

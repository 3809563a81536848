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
    return storage;
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
};

} // namespace onyx::detail

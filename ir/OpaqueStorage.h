//===- OpaqueStorage.h - Storage of opaque types and attributes -*- C++ -*-===//
//
// Private to the IR library (TypeDetail.h, AttributeDetail.h): what an
// opaque type and an opaque attribute store, defined once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/StorageUniquer.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <utility>

namespace onyx::detail {

/// Copies `s` into `alloc` with a terminating NUL (so that `data()` is a C
/// string too).
inline llvm::StringRef copyString(llvm::BumpPtrAllocator &alloc,
                                  llvm::StringRef s) {
  char *mem = alloc.Allocate<char>(s.size() + 1);
  std::copy(s.begin(), s.end(), mem);
  mem[s.size()] = 0;
  return {mem, s.size()};
}

/// Storage of an opaque type or attribute (`BaseT` is TypeStorage or
/// AttributeStorage, `Kind` its kind): the dialect's name and the body text,
/// kept as written for a dialect that is not loaded. One definition serves
/// both, so that types and attributes key, hash and copy them alike.
template <typename BaseT, auto Kind> struct OpaqueStorage : BaseT {
  using KeyTy = std::pair<llvm::StringRef, llvm::StringRef>;
  llvm::StringRef dialect;
  llvm::StringRef body;
  static llvm::hash_code hashKey(const KeyTy &k) {
    return llvm::hash_combine(k.first, k.second);
  }
  bool operator==(const KeyTy &k) const {
    return dialect == k.first && body == k.second;
  }
  static OpaqueStorage *construct(llvm::BumpPtrAllocator &alloc,
                                  const KeyTy &k) {
    return new (alloc.Allocate<OpaqueStorage>())
        OpaqueStorage{{Kind, nullptr},
                      copyString(alloc, k.first),
                      copyString(alloc, k.second)};
  }
};

} // namespace onyx::detail

//===- Context.h - Owner of everything uniqued ------------------*- C++ -*-===//
//
// The Context owns the uniqued types and attributes, the loaded dialects and
// the table of operation names, and routes diagnostics to handlers. IR built
// in one Context must not be mixed with another's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostics.h"
#include "ir/StorageUniquer.h"
#include "ir/Support.h"

#include "llvm/ADT/StringMap.h"

#include <memory>

namespace onyx {

namespace detail {
struct AttributeStorage;
struct TypeStorage;
} // namespace detail

class OpInfo;
class OperationName;

class Context {
public:
  /// Loads the builtin and func dialects.
  Context();
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  /// Loads dialect T once and returns it.
  template <typename T> T *loadDialect() {
    if (Dialect *d = getLoadedDialect(T::getDialectNamespace()))
      return static_cast<T *>(d);
    auto owned = std::make_unique<T>(this);
    T *result = owned.get();
    registerDialect(std::move(owned));
    return result;
  }
  Dialect *getLoadedDialect(StringRef ns) const;
  /// Loaded dialects in load order.
  ArrayRef<Dialect *> getLoadedDialects() const { return dialectOrder; }

  /// Whether ops, types and attributes of unknown dialects are accepted.
  bool allowsUnregisteredDialects() const { return allowUnregistered; }
  void allowUnregisteredDialects(bool allow = true) {
    allowUnregistered = allow;
  }

  /// The info record of `name`: registered by a dialect, or created on first
  /// use for an unregistered name.
  OpInfo *getOrCreateOpInfo(StringRef name);
  /// Only registered ops; nullptr otherwise.
  OpInfo *lookupRegisteredOp(StringRef name) const;
  /// Every registered op, sorted by name.
  SmallVector<OpInfo *> getRegisteredOperations() const;

  DiagnosticEngine &getDiagEngine() { return diagEngine; }

  // Implementation details of the IR library.
  detail::StorageUniquer &getUniquer() { return uniquer; }
  /// Uniques storage of type StorageT and sets its context.
  template <typename StorageT, typename KeyT>
  StorageT *unique(const KeyT &key) {
    StorageT *s = uniquer.get<StorageT>(key);
    s->context = this;
    return s;
  }

  struct Singletons;
  const Singletons &getSingletons() const { return *singletons; }

private:
  friend class Dialect;
  void registerDialect(std::unique_ptr<Dialect> dialect);

  detail::StorageUniquer uniquer;
  std::unique_ptr<Singletons> singletons;
  llvm::StringMap<std::unique_ptr<Dialect>> dialects;
  SmallVector<Dialect *> dialectOrder;
  llvm::StringMap<OpInfo *> opInfos;
  DiagnosticEngine diagEngine;
  bool allowUnregistered = false;
};

} // namespace onyx

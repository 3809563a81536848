//===- Context.cpp - Owner of everything uniqued --------------------------===//
#include "ir/ContextImpl.h"

#include "ir/BuiltinOps.h"

namespace onyx {

Context::Context() : singletons(std::make_unique<Singletons>()) {
  Singletons &s = *singletons;
  for (detail::TypeStorage *t :
       {&s.index, &s.none, static_cast<detail::TypeStorage *>(&s.floats[0]),
        static_cast<detail::TypeStorage *>(&s.floats[1]),
        static_cast<detail::TypeStorage *>(&s.floats[2]),
        static_cast<detail::TypeStorage *>(&s.floats[3])})
    t->context = this;
  s.unit.context = this;
  s.unknownLoc.context = this;
  IntegerType i1 = IntegerType::get(this, 1);
  s.trueAttr = IntegerAttr::get(i1, 1);
  s.falseAttr = IntegerAttr::get(i1, 0);
  s.emptyDict = DictionaryAttr::getSorted(this, {});
  loadDialect<BuiltinDialect>();
  loadDialect<FuncDialect>();
}

Context::~Context() {
  for (auto &entry : opInfos)
    delete entry.second;
}

Dialect *Context::getLoadedDialect(StringRef ns) const {
  auto it = dialects.find(ns);
  return it == dialects.end() ? nullptr : it->second.get();
}

void Context::registerDialect(std::unique_ptr<Dialect> dialect) {
  dialectOrder.push_back(dialect.get());
  StringRef ns = dialect->getNamespace();
  dialects[ns] = std::move(dialect);
}

OpInfo *Context::getOrCreateOpInfo(StringRef name) {
  auto [it, inserted] = opInfos.try_emplace(name, nullptr);
  if (inserted)
    it->second = new OpInfo(it->first(), nullptr, /*registered=*/false);
  return it->second;
}

OpInfo *Context::lookupRegisteredOp(StringRef name) const {
  auto it = opInfos.find(name);
  if (it == opInfos.end() || !it->second->isRegistered())
    return nullptr;
  return it->second;
}

SmallVector<OpInfo *> Context::getRegisteredOperations() const {
  SmallVector<OpInfo *> result;
  for (const auto &entry : opInfos)
    if (entry.second->isRegistered())
      result.push_back(entry.second);
  llvm::sort(result, [](OpInfo *a, OpInfo *b) {
    return a->getName() < b->getName();
  });
  return result;
}

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

Dialect::~Dialect() = default;

Operation *Dialect::materializeConstant(OpBuilder &, Attribute, Type,
                                        Location) {
  return nullptr;
}

Type Dialect::parseType(StringRef body, Location loc) {
  emitError(loc) << "dialect '" << ns << "' provides no type named '" << body
                 << "'";
  return {};
}

void Dialect::printType(Type, llvm::raw_ostream &os) const {
  os << "<<unknown type>>";
}

OpInfo *Dialect::registerOp(StringRef name) {
  OpInfo *info = context->getOrCreateOpInfo(name);
  // A name used before its dialect was loaded already has a record that
  // existing ops point to; it becomes the registered one.
  info->dialect = this;
  info->registered = true;
  return info;
}

OperationName::OperationName(StringRef name, Context *ctx)
    : info(ctx->getOrCreateOpInfo(name)) {}

} // namespace onyx

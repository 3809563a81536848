//===- Types.cpp - Uniqued types of the IR --------------------------------===//
#include "ir/ContextImpl.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace onyx {

TypeKind Type::getKind() const { return impl->kind; }
Context *Type::getContext() const { return impl->context; }

bool Type::isF16() const {
  return isFloat() && cast<FloatType>(*this).getFloatKind() == FloatType::F16;
}
bool Type::isBF16() const {
  return isFloat() && cast<FloatType>(*this).getFloatKind() == FloatType::BF16;
}
bool Type::isF32() const {
  return isFloat() && cast<FloatType>(*this).getFloatKind() == FloatType::F32;
}
bool Type::isF64() const {
  return isFloat() && cast<FloatType>(*this).getFloatKind() == FloatType::F64;
}
bool Type::isInteger(unsigned width) const {
  return isInteger() && cast<IntegerType>(*this).getWidth() == width;
}

unsigned Type::getIntOrFloatBitWidth() const {
  if (auto i = dyn_cast<IntegerType>(*this))
    return i.getWidth();
  if (auto f = dyn_cast<FloatType>(*this))
    return f.getWidth();
  if (isIndex())
    return 64;
  return 0;
}

unsigned getElementByteSize(Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits <= 8)
    return 1;
  return llvm::PowerOf2Ceil((bits + 7) / 8);
}

std::optional<int64_t> getCheckedNumElements(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0)
      return std::nullopt;
    std::optional<int64_t> product = llvm::checkedMul(n, d);
    if (!product)
      return std::nullopt;
    n = *product;
  }
  return n;
}

std::optional<int64_t> getCheckedNumBytes(int64_t numElements,
                                          Type elementType) {
  if (numElements < 0)
    return std::nullopt;
  return llvm::checkedMul(numElements,
                          int64_t(getElementByteSize(elementType)));
}

bool hasRepresentableSize(ShapedType type) {
  if (!type.hasRank())
    return true;
  SmallVector<int64_t, 4> staticDims;
  for (int64_t d : type.getShape()) {
    if (ShapedType::isDynamic(d))
      continue;
    if (d < 0)
      return false;
    staticDims.push_back(d);
  }
  std::optional<int64_t> n = getCheckedNumElements(staticDims);
  return n && getCheckedNumBytes(*n, type.getElementType());
}

//===----------------------------------------------------------------------===//

IntegerType IntegerType::get(Context *ctx, unsigned width,
                             Signedness signedness) {
  return IntegerType(ctx->unique<detail::IntegerTypeStorage>(
      detail::IntegerTypeStorage::KeyTy(width, signedness)));
}
unsigned IntegerType::getWidth() const {
  return static_cast<const detail::IntegerTypeStorage *>(impl)->width;
}
IntegerType::Signedness IntegerType::getSignedness() const {
  return static_cast<const detail::IntegerTypeStorage *>(impl)->signedness;
}

IndexType IndexType::get(Context *ctx) {
  return IndexType(&ctx->getSingletons().index);
}
NoneType NoneType::get(Context *ctx) {
  return NoneType(&ctx->getSingletons().none);
}

FloatType FloatType::get(Context *ctx, Width width) {
  return FloatType(&ctx->getSingletons().floats[width]);
}
FloatType::Width FloatType::getFloatKind() const {
  return static_cast<const detail::FloatTypeStorage *>(impl)->width;
}
unsigned FloatType::getWidth() const {
  switch (getFloatKind()) {
  case F16:
  case BF16:
    return 16;
  case F32:
    return 32;
  case F64:
    return 64;
  }
  llvm_unreachable("unknown float kind");
}
const llvm::fltSemantics &FloatType::getFloatSemantics() const {
  switch (getFloatKind()) {
  case F16:
    return llvm::APFloat::IEEEhalf();
  case BF16:
    return llvm::APFloat::BFloat();
  case F32:
    return llvm::APFloat::IEEEsingle();
  case F64:
    return llvm::APFloat::IEEEdouble();
  }
  llvm_unreachable("unknown float kind");
}

Type ShapedType::getElementType() const {
  if (getKind() == TypeKind::RankedTensor)
    return static_cast<const detail::RankedTensorTypeStorage *>(impl)
        ->elementType;
  return static_cast<const detail::UnrankedTensorTypeStorage *>(impl)
      ->elementType;
}
ArrayRef<int64_t> ShapedType::getShape() const {
  if (getKind() == TypeKind::RankedTensor)
    return static_cast<const detail::RankedTensorTypeStorage *>(impl)->shape;
  return {};
}
bool ShapedType::hasStaticShape() const {
  return hasRank() && llvm::none_of(getShape(), isDynamic);
}
int64_t ShapedType::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

RankedTensorType RankedTensorType::get(ArrayRef<int64_t> shape,
                                       Type elementType) {
  return RankedTensorType(
      elementType.getContext()->unique<detail::RankedTensorTypeStorage>(
          detail::RankedTensorTypeStorage::KeyTy(shape, elementType)));
}

UnrankedTensorType UnrankedTensorType::get(Type elementType) {
  return UnrankedTensorType(
      elementType.getContext()->unique<detail::UnrankedTensorTypeStorage>(
          elementType));
}

FunctionType FunctionType::get(Context *ctx, ArrayRef<Type> inputs,
                               ArrayRef<Type> results) {
  return FunctionType(ctx->unique<detail::FunctionTypeStorage>(
      detail::FunctionTypeStorage::KeyTy(inputs, results)));
}
ArrayRef<Type> FunctionType::getInputs() const {
  return static_cast<const detail::FunctionTypeStorage *>(impl)->inputs;
}
ArrayRef<Type> FunctionType::getResults() const {
  return static_cast<const detail::FunctionTypeStorage *>(impl)->results;
}

OpaqueType OpaqueType::get(Context *ctx, StringRef dialect, StringRef body) {
  return OpaqueType(ctx->unique<detail::OpaqueTypeStorage>(
      detail::OpaqueTypeStorage::KeyTy(dialect, body)));
}
StringRef OpaqueType::getDialectNamespace() const {
  return static_cast<const detail::OpaqueTypeStorage *>(impl)->dialect;
}
StringRef OpaqueType::getBody() const {
  return static_cast<const detail::OpaqueTypeStorage *>(impl)->body;
}

} // namespace onyx

//===- TypePrinter.cpp - Writing types ------------------------------------===//
//
// Builtin types as MLIR spells them (integers with their signedness, the
// float kinds, index, tensors with `?` for dynamic sizes, functions) and
// dialect types through their dialect's hook as `!ns.body` or `!ns<body>`.
//
//===----------------------------------------------------------------------===//
#include "ir/AsmPrinterImpl.h"

#include "ir/Dialect.h"
#include "ir/TypeDetail.h"

#include "llvm/Support/raw_ostream.h"

namespace onyx {

using namespace detail;

static void printDim(int64_t dim, llvm::raw_ostream &os) {
  if (ShapedType::isDynamic(dim))
    os << '?';
  else
    os << dim;
}

void detail::printTypeImpl(Type type, llvm::raw_ostream &os) {
  switch (type.getKind()) {
  case TypeKind::Integer: {
    auto it = cast<IntegerType>(type);
    if (it.isSigned())
      os << 's';
    else if (it.isUnsigned())
      os << 'u';
    os << 'i' << it.getWidth();
    return;
  }
  case TypeKind::Index:
    os << "index";
    return;
  case TypeKind::Float:
    switch (cast<FloatType>(type).getFloatKind()) {
    case FloatType::F16:
      os << "f16";
      return;
    case FloatType::BF16:
      os << "bf16";
      return;
    case FloatType::F32:
      os << "f32";
      return;
    case FloatType::F64:
      os << "f64";
      return;
    }
    return;
  case TypeKind::None:
    os << "none";
    return;
  case TypeKind::RankedTensor: {
    auto t = cast<RankedTensorType>(type);
    os << "tensor<";
    for (int64_t dim : t.getShape()) {
      printDim(dim, os);
      os << 'x';
    }
    printTypeImpl(t.getElementType(), os);
    os << '>';
    return;
  }
  case TypeKind::UnrankedTensor:
    os << "tensor<*x";
    printTypeImpl(cast<UnrankedTensorType>(type).getElementType(), os);
    os << '>';
    return;
  case TypeKind::Function: {
    auto ft = cast<FunctionType>(type);
    os << '(';
    llvm::interleaveComma(ft.getInputs(), os,
                          [&](Type t) { printTypeImpl(t, os); });
    os << ") -> ";
    ArrayRef<Type> results = ft.getResults();
    if (results.size() == 1 && !isa<FunctionType>(results[0])) {
      printTypeImpl(results[0], os);
    } else {
      os << '(';
      llvm::interleaveComma(results, os, [&](Type t) { printTypeImpl(t, os); });
      os << ')';
    }
    return;
  }
  case TypeKind::Opaque: {
    auto ot = cast<OpaqueType>(type);
    printDialectSymbol('!', ot.getDialectNamespace(), ot.getBody(), os);
    return;
  }
  case TypeKind::Dialect: {
    auto *storage =
        static_cast<const detail::DialectTypeStorage *>(type.getImpl());
    std::string body;
    llvm::raw_string_ostream bodyOS(body);
    storage->dialect->printType(type, bodyOS);
    printDialectSymbol('!', storage->dialect->getNamespace(), body, os);
    return;
  }
  }
}

void Type::print(llvm::raw_ostream &os) const { printTypeImpl(*this, os); }
void Type::dump() const {
  print(llvm::errs());
  llvm::errs() << "\n";
}
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Type type) {
  type.print(os);
  return os;
}

} // namespace onyx

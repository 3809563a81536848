//===- GpuDialect.cpp - The gpu dialect -----------------------------------===//
#include "dialect/gpu/GpuDialect.h"
#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/GpuTypes.h"
#include "dialect/gpu/HostOps.h"

#include "ir/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace onyx::gpu {

GpuDialect::GpuDialect(Context *ctx) : Dialect(getDialectNamespace(), ctx) {
  addOperations<KernelOp, BufferOp, AllocOp, ViewOp, WeightOp, DispatchOp,
                CopyOp, UploadOp, DownloadOp, DimOp, ExtractOp, ConstantOp,
                RangeCountOp, ScaleDimOp, ReadCountOp, SelectOp, AssertOp,
                LoopOp>();
  for (StringRef name : getHostArithOpNames())
    fillHostArithOpInfo(addOperation(name, OpTrait::Pure));
}

/// Parses the element type of a view, reporting problems at `loc`: errors of
/// the nested parser would otherwise point into a buffer the user never saw.
static Type parseElementType(StringRef text, Location loc) {
  Context *ctx = loc.getContext();
  Type type;
  {
    ScopedDiagnosticCollector collector(ctx);
    type = onyx::parseType(text, ctx);
  }
  if (!type || !(type.isIntOrIndex() || type.isFloat())) {
    emitError(loc) << "invalid view element type '" << text << "'";
    return {};
  }
  return type;
}

Type GpuDialect::parseType(StringRef body, Location loc) {
  StringRef name = body.take_until([](char c) { return c == '<'; });
  StringRef params = body.drop_front(name.size());
  if (!params.consume_front("<") || !params.consume_back(">")) {
    if (name == "buffer" || name == "view")
      emitError(loc) << "expected '!gpu." << name << "<...>'";
    else
      emitError(loc) << "unknown gpu type '" << name << "'";
    return {};
  }
  params = params.trim();
  if (name == "buffer") {
    uint64_t size;
    if (params.getAsInteger(10, size)) {
      emitError(loc) << "expected the size in bytes of '!gpu.buffer', got '"
                     << params << "'";
      return {};
    }
    return BufferType::get(getContext(), size);
  }
  if (name == "view") {
    // `2x?xf32`: dimensions (`?` for one known at run time), each followed
    // by `x`, then the element type.
    SmallVector<int64_t, 4> shape;
    while (params.starts_with("?x") ||
           (!params.empty() && llvm::isDigit(params.front()))) {
      if (params.consume_front("?x")) {
        shape.push_back(ShapedType::kDynamic);
        continue;
      }
      size_t digits = params.find_first_not_of("0123456789");
      if (digits == StringRef::npos || params[digits] != 'x')
        break;
      int64_t dim;
      if (params.take_front(digits).getAsInteger(10, dim)) {
        emitError(loc) << "view dimension is too large";
        return {};
      }
      shape.push_back(dim);
      params = params.drop_front(digits + 1);
    }
    Type elementType = parseElementType(params, loc);
    if (!elementType)
      return {};
    // Byte sizes and offsets are computed in 64 bits; keep them exact.
    int64_t bytes = getElementByteSize(elementType);
    for (int64_t dim : shape) {
      if (ShapedType::isDynamic(dim))
        continue;
      if (llvm::MulOverflow(bytes, dim, bytes)) {
        emitError(loc) << "view of more than 2^63 bytes";
        return {};
      }
    }
    return ViewType::get(shape, elementType);
  }
  emitError(loc) << "unknown gpu type '" << name << "'";
  return {};
}

void GpuDialect::printType(Type type, llvm::raw_ostream &os) const {
  if (auto buffer = dyn_cast<BufferType>(type)) {
    os << "buffer<" << buffer.getSize() << '>';
    return;
  }
  auto view = cast<ViewType>(type);
  os << "view<";
  for (int64_t dim : view.getShape()) {
    if (ShapedType::isDynamic(dim))
      os << "?x";
    else
      os << dim << 'x';
  }
  os << view.getElementType() << '>';
}

} // namespace onyx::gpu

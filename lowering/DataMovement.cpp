//===- DataMovement.cpp - What the data movement generators share ---------===//

#include "lowering/DataMovement.h"

#include "lowering/Glsl.h"

#include "dialect/onnx/OnnxDialect.h"

#include "ir/Operation.h"

#include <fmt/format.h>

#include <cstring>

namespace onyx::lowering::datamovement {

unsigned getByteSize(Type elementType) {
  std::optional<onnx::ElementType> kind = onnx::getElementType(elementType);
  return kind ? onnx::getByteSize(*kind) : 0;
}

std::string bitsType(unsigned byteSize) {
  switch (byteSize) {
  case 1:
    return "uint8_t";
  case 2:
    return "uint16_t";
  case 4:
    return "uint";
  case 8:
    return "uvec2";
  case 16:
    return "uvec4";
  }
  llvm_unreachable("no GLSL type of this size");
}

std::string bitsBuffer(unsigned binding, gpu::Access access, unsigned byteSize,
                       StringRef name) {
  std::string b = std::to_string(binding);
  std::string qualifier = access == gpu::Access::Read    ? "readonly "
                          : access == gpu::Access::Write ? "writeonly "
                                                         : "";
  return "layout(set = 0, binding = " + b + ", std430) " + qualifier +
         "buffer B" + b + " { " + bitsType(byteSize) + " d[]; } " + name.str() +
         ";\n";
}

std::string bitsZero(unsigned byteSize) {
  return byteSize == 4 ? "0u" : bitsType(byteSize) + "(0u)";
}

unsigned getWidestUnit(LoweringContext &ctx, unsigned byteSize, int64_t run) {
  for (unsigned wide : {16u, 8u, 4u})
    if (wide > byteSize && wide % byteSize == 0 &&
        ctx.getTarget().minStorageBufferOffsetAlignment % wide == 0 &&
        run % (wide / byteSize) == 0)
      return wide;
  return byteSize;
}

std::string indexBuffer(unsigned binding, Type indexType, StringRef name) {
  std::string b = std::to_string(binding);
  return "layout(set = 0, binding = " + b + ", std430) readonly buffer B" + b +
         " { " + (indexType.isInteger(64) ? "ivec2" : "int") + " d[]; } " +
         name.str() + ";\n";
}

std::string readIndex(Type indexType, StringRef name, StringRef at,
                      StringRef var) {
  std::string v = var.str(), load = name.str() + ".d[" + at.str() + "]";
  if (!indexType.isInteger(64))
    return "int " + v + " = " + load + ";\nbool " + v + "Fits = true;\n";
  // The high word of an i64 that fits in 32 bits is its sign.
  return "ivec2 " + v + "Words = " + load + ";\nint " + v + " = " + v +
         "Words.x;\nbool " + v + "Fits = " + v + "Words.y == (" + v +
         "Words.x >> 31);\n";
}

std::string bitsLiteral(DenseElementsAttr value, int64_t index) {
  unsigned size = getByteSize(value.getElementType());
  ArrayRef<char> raw = value.getRawData();
  const char *bytes = raw.data() + (value.isSplat() ? 0 : index * size);
  uint64_t bits = 0;
  std::memcpy(&bits, bytes, size); // Little-endian, as the data is stored.
  switch (size) {
  case 1:
    return "uint8_t(" + uintLiteral(int64_t(bits)) + ")";
  case 2:
    return "uint16_t(" + uintLiteral(int64_t(bits)) + ")";
  case 4:
    return uintLiteral(int64_t(bits));
  default:
    return "uvec2(" + uintLiteral(int64_t(bits)) + ", " +
           uintLiteral(int64_t(bits >> 32)) + ")";
  }
}

RankedTensorType checkTensor(LoweringContext &ctx, Value value,
                             StringRef what) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape()) {
    ctx.emitError() << what << " must have a static shape, got "
                    << value.getType();
    return {};
  }
  unsigned size = getByteSize(type.getElementType());
  if (!size || !glsl::isSupported(type.getElementType())) {
    ctx.emitError() << what << " has element type " << type.getElementType()
                    << ", which GPU kernels do not support";
    return {};
  }
  uint64_t bytes = uint64_t(type.getNumElements()) * size;
  if (bytes > ctx.getTarget().maxStorageBufferRange) {
    ctx.emitError() << what << " of type " << type << " takes " << bytes
                    << " bytes, more than one binding can hold on the target ("
                    << ctx.getTarget().maxStorageBufferRange
                    << "); splitting it is not implemented";
    return {};
  }
  return type;
}

bool hasOperand(Operation *op, unsigned i) {
  return i < op->getNumOperands() && !onnx::isNoValue(op->getOperand(i));
}

std::optional<SmallVector<int64_t>> getConstantInts(Value value) {
  DenseElementsAttr attr = onnx::getConstantValue(value);
  if (!attr || !attr.getElementType().isInteger())
    return std::nullopt;
  SmallVector<int64_t> values;
  for (int64_t i = 0, e = attr.getNumElements(); i < e; ++i)
    values.push_back(attr.getIntValue(i).getSExtValue());
  return values;
}

std::optional<SmallVector<int64_t>> getConstantOperandInts(LoweringContext &ctx,
                                                           Operation *op,
                                                           unsigned i,
                                                           StringRef name) {
  std::optional<SmallVector<int64_t>> values =
      getConstantInts(op->getOperand(i));
  if (!values)
    ctx.emitError() << "operand '" << name
                    << "' must be a constant to lower the op to GPU kernels";
  return values;
}

std::string coordinates(ArrayRef<int64_t> shape, StringRef flat,
                        StringRef prefix) {
  std::string p = prefix.str();
  if (shape.empty())
    return "";
  if (shape.size() == 1)
    return "uint " + p + "0 = " + flat.str() + ";\n";
  std::string code = "uint " + p + "t = " + flat.str() + ";\n";
  for (size_t d = shape.size(); d-- > 1;)
    code += "uint " + p + std::to_string(d) + " = " + p + "t % " +
            uintLiteral(shape[d]) + "; " + p + "t /= " + uintLiteral(shape[d]) +
            ";\n";
  code += "uint " + p + "0 = " + p + "t;\n";
  return code;
}

CopyPiece gatherPiece(ArrayRef<int64_t> shape, unsigned src, int64_t srcBase,
                      ArrayRef<int64_t> srcStrides, unsigned dst) {
  CopyPiece piece;
  piece.shape.assign(shape.begin(), shape.end());
  piece.src = src;
  piece.srcBase = srcBase;
  piece.srcStrides.assign(srcStrides.begin(), srcStrides.end());
  piece.dst = dst;
  piece.dstStrides = onnx::getStrides(shape);
  return piece;
}

unsigned getMaxBatch(LoweringContext &ctx, unsigned other) {
  uint32_t limit = ctx.getTarget().maxPerStageDescriptorStorageBuffers;
  // More parts per kernel save dispatches, but every part is a branch.
  return std::clamp<uint32_t>(limit > other ? limit - other : 1, 1, 15);
}

namespace {

/// Drops dimensions of size 1 and merges dimensions that both sides walk
/// contiguously, so that e.g. a Concat along axis 0 copies one flat range.
void simplify(CopyPiece &p) {
  CopyPiece s = p;
  s.shape.clear();
  s.srcStrides.clear();
  s.dstStrides.clear();
  for (size_t d = 0; d < p.shape.size(); ++d) {
    if (p.shape[d] == 1)
      continue;
    if (!s.shape.empty() &&
        s.srcStrides.back() == p.srcStrides[d] * p.shape[d] &&
        s.dstStrides.back() == p.dstStrides[d] * p.shape[d]) {
      s.shape.back() *= p.shape[d];
      s.srcStrides.back() = p.srcStrides[d];
      s.dstStrides.back() = p.dstStrides[d];
      continue;
    }
    s.shape.push_back(p.shape[d]);
    s.srcStrides.push_back(p.srcStrides[d]);
    s.dstStrides.push_back(p.dstStrides[d]);
  }
  p = std::move(s);
}

/// Whether `p` can move `factor` elements at a time: its innermost
/// dimension is contiguous on both sides and everything else is a multiple
/// of `factor`.
bool canWiden(const CopyPiece &p, int64_t factor) {
  if (p.shape.empty() || p.srcStrides.back() != 1 || p.dstStrides.back() != 1 ||
      p.shape.back() % factor || p.srcBase % factor || p.dstBase % factor)
    return false;
  for (size_t d = 0; d + 1 < p.shape.size(); ++d)
    if (p.srcStrides[d] % factor || p.dstStrides[d] % factor)
      return false;
  return true;
}

void widen(CopyPiece &p, int64_t factor) {
  p.shape.back() /= factor;
  p.srcBase /= factor;
  p.dstBase /= factor;
  for (size_t d = 0; d + 1 < p.shape.size(); ++d) {
    p.srcStrides[d] /= factor;
    p.dstStrides[d] /= factor;
  }
}

std::string indexExpr(int64_t base, ArrayRef<int64_t> strides) {
  std::string e;
  for (size_t d = 0; d < strides.size(); ++d) {
    if (strides[d] == 0)
      continue;
    if (!e.empty())
      e += " + ";
    e += fmt::format("c{}", d);
    if (strides[d] != 1)
      e += " * " + uintLiteral(strides[d]);
  }
  if (base != 0 || e.empty())
    e = e.empty() ? uintLiteral(base) : uintLiteral(base) + " + " + e;
  return e;
}

} // namespace

void dispatchCopies(LoweringContext &ctx, StringRef name,
                    SmallVector<CopyPiece> pieces, unsigned byteSize,
                    ValueRange bindings, ArrayRef<gpu::Access> access) {
  llvm::erase_if(pieces, [](const CopyPiece &p) {
    return llvm::is_contained(p.shape, 0);
  });
  if (pieces.empty())
    return;
  for (CopyPiece &p : pieces)
    simplify(p);
  // Wider units where every piece and the bindings' alignment allow them.
  unsigned unit = byteSize;
  for (unsigned wide : {16u, 8u, 4u}) {
    if (wide <= byteSize ||
        ctx.getTarget().minStorageBufferOffsetAlignment % wide)
      continue;
    int64_t factor = wide / byteSize;
    if (llvm::all_of(pieces,
                     [&](const CopyPiece &p) { return canWiden(p, factor); })) {
      for (CopyPiece &p : pieces)
        widen(p, factor);
      unit = wide;
      break;
    }
  }

  uint32_t workgroup = glsl::linearWorkgroupSize(ctx.getTarget());
  std::string body;
  uint64_t total = 0;
  for (const CopyPiece &p : pieces) {
    uint64_t count = 1;
    for (int64_t n : p.shape)
      count *= n;
    // Pieces after the first index from their own start.
    StringRef local = total ? "j" : "i";
    if (total)
      body += " else ";
    body += "if (i < " + uintLiteral(int64_t(total + count)) + ") {\n";
    if (total)
      body += "uint j = i - " + uintLiteral(int64_t(total)) + ";\n";
    // A side that walks its elements in order indexes with the flat index.
    SmallVector<int64_t> contiguous = onnx::getStrides(p.shape);
    auto index = [&](int64_t base, ArrayRef<int64_t> strides) {
      if (strides != ArrayRef<int64_t>(contiguous))
        return indexExpr(base, strides);
      return base ? uintLiteral(base) + " + " + local.str() : local.str();
    };
    std::string dst = index(p.dstBase, p.dstStrides);
    std::string src = index(p.srcBase, p.srcStrides);
    if (dst.find('c') != std::string::npos ||
        src.find('c') != std::string::npos)
      body += coordinates(p.shape, local, "c");
    body += fmt::format("b{}.d[{}] = b{}.d[{}];\n}}", p.dst, dst, p.src, src);
    total += count;
  }

  KernelSpec spec;
  spec.name = name.str();
  spec.workgroupSize = {workgroup, 1, 1};
  spec.bindings.assign(access.begin(), access.end());
  std::string glsl = glsl::header(spec.workgroupSize);
  for (unsigned b = 0; b < access.size(); ++b)
    glsl += bitsBuffer(b, access[b], unit, fmt::format("b{}", b));
  glsl += "void main() {\nuint i = gl_GlobalInvocationID.x;\n" + body + "\n}\n";
  spec.glsl = std::move(glsl);
  ctx.dispatch(ctx.getOrCreateKernel(spec),
               {glsl::ceilDiv(total, workgroup), 1, 1}, bindings);
}

} // namespace onyx::lowering::datamovement

//===- DataMovement.cpp - What the data movement generators share ---------===//

#include "lowering/DataMovement.h"

#include "lowering/Glsl.h"

#include "dialect/gpu/HostOps.h"
#include "dialect/onnx/OnnxDialect.h"

#include "ir/Operation.h"

#include "llvm/Support/MathExtras.h"

#include <fmt/format.h>

#include <cstring>
#include <numeric>

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

RankedTensorType checkTensor(LoweringContext &ctx, Value value, StringRef what,
                             bool dynamic) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !(dynamic || type.hasStaticShape())) {
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
  if (!type.hasStaticShape())
    return type;
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
unsigned checkTensors(LoweringContext &ctx, Operation *op,
                      ArrayRef<unsigned> data) {
  unsigned size = 0;
  for (unsigned i : data) {
    RankedTensorType t = checkTensor(ctx, op->getOperand(i),
                                     "operand #" + std::to_string(i), true);
    if (!t)
      return 0;
    size = getByteSize(t.getElementType());
  }
  for (Value r : op->getResults())
    if (!checkTensor(ctx, r,
                     "result #" +
                         std::to_string(cast<OpResult>(r).getResultNumber()),
                     true))
      return 0;
  return size;
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

std::optional<SmallVector<Size>> getOperandSizes(LoweringContext &ctx,
                                                 Operation *op, unsigned i,
                                                 StringRef name) {
  if (std::optional<SmallVector<int64_t>> values =
          getConstantInts(op->getOperand(i)))
    return SmallVector<Size>(values->begin(), values->end());
  if (std::optional<SmallVector<Size>> values =
          ctx.getShapeValue(op->getOperand(i)))
    return values;
  ctx.emitError() << "operand '" << name
                  << "' must be a constant to lower the op to GPU kernels, "
                     "or computed from shapes on the host";
  return std::nullopt;
}

std::string coordinates(ArrayRef<int64_t> shape, StringRef flat,
                        StringRef prefix) {
  SmallVector<std::string> dims;
  for (int64_t d : shape)
    dims.push_back(uintLiteral(d));
  return coordinates(dims, flat, prefix);
}

std::string coordinates(ArrayRef<std::string> shape, StringRef flat,
                        StringRef prefix) {
  std::string p = prefix.str();
  if (shape.empty())
    return "";
  if (shape.size() == 1)
    return "uint " + p + "0 = " + flat.str() + ";\n";
  std::string code = "uint " + p + "t = " + flat.str() + ";\n";
  for (size_t d = shape.size(); d-- > 1;)
    code += "uint " + p + std::to_string(d) + " = " + p + "t % " + shape[d] +
            "; " + p + "t /= " + shape[d] + ";\n";
  code += "uint " + p + "0 = " + p + "t;\n";
  return code;
}

//===----------------------------------------------------------------------===//
// Poly and Symbols
//===----------------------------------------------------------------------===//

Poly::Poly(int64_t constant) {
  if (constant)
    terms.push_back({{}, constant});
}

Poly Poly::symbol(unsigned number) {
  Poly p;
  p.terms.push_back({{number}, 1});
  return p;
}

int64_t Poly::getConstant() const {
  assert(isStatic() && "a polynomial of symbols has no constant value");
  return terms.empty() ? 0 : terms[0].coefficient;
}

int64_t Poly::getDivisor() const {
  int64_t g = 0;
  for (const Term &t : terms)
    g = std::gcd(g, t.coefficient < 0 ? -t.coefficient : t.coefficient);
  return g;
}

bool Poly::isNegative() const {
  return !terms.empty() &&
         llvm::all_of(terms, [](const Term &t) { return t.coefficient < 0; });
}

Poly Poly::divideExactly(int64_t divisor) const {
  Poly p = *this;
  for (Term &t : p.terms) {
    assert(t.coefficient % divisor == 0 && "not a divisor");
    t.coefficient /= divisor;
  }
  return p;
}

bool Poly::normalize() {
  llvm::sort(terms, [](const Term &a, const Term &b) {
    return std::lexicographical_compare(a.symbols.begin(), a.symbols.end(),
                                        b.symbols.begin(), b.symbols.end());
  });
  SmallVector<Term, 2> merged;
  bool overflowed = false;
  for (Term &t : terms) {
    if (!merged.empty() && merged.back().symbols == t.symbols)
      overflowed |= llvm::AddOverflow(merged.back().coefficient, t.coefficient,
                                      merged.back().coefficient);
    else
      merged.push_back(std::move(t));
  }
  llvm::erase_if(merged, [](const Term &t) { return t.coefficient == 0; });
  terms = std::move(merged);
  return overflowed;
}

Poly Poly::operator+(const Poly &other) const {
  Poly p = *this;
  p.terms.append(other.terms.begin(), other.terms.end());
  p.normalize();
  return p;
}

Poly Poly::operator-(const Poly &other) const {
  Poly p = *this;
  for (Term t : other.terms) {
    t.coefficient = -t.coefficient;
    p.terms.push_back(std::move(t));
  }
  p.normalize();
  return p;
}

Poly Poly::operator*(const Poly &other) const {
  Poly p;
  for (const Term &a : terms)
    for (const Term &b : other.terms) {
      Term t{a.symbols, a.coefficient * b.coefficient};
      t.symbols.append(b.symbols.begin(), b.symbols.end());
      llvm::sort(t.symbols);
      p.terms.push_back(std::move(t));
    }
  p.normalize();
  return p;
}

std::optional<Poly> Poly::checkedMul(const Poly &other) const {
  Poly p;
  for (const Term &a : terms)
    for (const Term &b : other.terms) {
      Term t{a.symbols, 0};
      if (llvm::MulOverflow(a.coefficient, b.coefficient, t.coefficient))
        return std::nullopt;
      t.symbols.append(b.symbols.begin(), b.symbols.end());
      llvm::sort(t.symbols);
      p.terms.push_back(std::move(t));
    }
  if (p.normalize())
    return std::nullopt;
  return p;
}

bool Poly::operator==(const Poly &other) const {
  if (terms.size() != other.terms.size())
    return false;
  for (auto [a, b] : llvm::zip(terms, other.terms))
    if (a.coefficient != b.coefficient || a.symbols != b.symbols)
      return false;
  return true;
}

Poly Symbols::get(Size size) {
  if (size.isStatic())
    return Poly(size.constant);
  auto it = llvm::find(values, size.value);
  unsigned number = it - values.begin();
  if (it == values.end())
    values.push_back(size.value);
  return Poly::symbol(number);
}

SmallVector<Poly> Symbols::get(ArrayRef<Size> sizes) {
  SmallVector<Poly> polys;
  for (Size s : sizes)
    polys.push_back(get(s));
  return polys;
}

/// A key naming a polynomial: its terms.
static std::string keyOf(const Poly &p) {
  std::string key;
  for (const Poly::Term &t : p.getTerms()) {
    key += std::to_string(t.coefficient);
    for (unsigned s : t.symbols) {
      key += '*';
      key += std::to_string(s);
    }
    key += '+';
  }
  return key;
}

static Value toValue(LoweringContext &ctx, Size s) {
  if (!s.isStatic())
    return s.value;
  return ctx.getBuilder()
      .create<gpu::ConstantOp>(ctx.getLoc(), s.constant)
      ->getResult(0);
}

Size Symbols::materialize(const Poly &value) {
  if (value.isStatic())
    return Size(value.getConstant());
  std::string key = keyOf(value);
  auto it = materialized.find(key);
  if (it != materialized.end())
    return it->second;
  // Positive terms first, then the negative ones subtracted: every partial
  // result stays as small as the final one where the value is a size.
  Size sum(0);
  bool first = true;
  SmallVector<const Poly::Term *> terms;
  for (const Poly::Term &t : value.getTerms())
    if (t.coefficient > 0)
      terms.push_back(&t);
  for (const Poly::Term &t : value.getTerms())
    if (t.coefficient < 0)
      terms.push_back(&t);
  for (const Poly::Term *t : terms) {
    Size product(t->coefficient < 0 ? -t->coefficient : t->coefficient);
    for (unsigned s : t->symbols)
      product = ctx.mul(product, Size(values[s]));
    if (first && t->coefficient > 0) {
      sum = product;
    } else if (product.isStatic() && sum.isStatic()) {
      sum = Size(sum.constant +
                 (t->coefficient < 0 ? -product.constant : product.constant));
    } else {
      sum =
          gpu::HostArithOp::create(ctx.getBuilder(), ctx.getLoc(),
                                   t->coefficient < 0 ? "gpu.subi" : "gpu.addi",
                                   toValue(ctx, sum), toValue(ctx, product));
    }
    first = false;
  }
  materialized[key] = sum;
  return sum;
}

SmallVector<Size> Symbols::materialize(ArrayRef<Poly> polys) {
  SmallVector<Size> sizes;
  for (const Poly &p : polys)
    sizes.push_back(materialize(p));
  return sizes;
}

std::string Symbols::text(const Poly &value, KernelSizes &sizes) {
  return sizes.get(materialize(value));
}

std::string Symbols::intText(const Poly &value, KernelSizes &sizes) {
  if (value.isStatic())
    return std::to_string(value.getConstant());
  return "int(" + text(value, sizes) + ")";
}

// Operands are materialized last first, in statements of their own: the
// order of a call's arguments is unspecified, and the host program must not
// depend on the compiler.
Poly Symbols::arith(StringRef name, const Poly &a, const Poly &b) {
  Size second = materialize(b);
  Size first = materialize(a);
  return get(ctx.arith(name, first, second));
}

Poly Symbols::select(const Poly &condition, const Poly &a, const Poly &b) {
  if (a == b)
    return a;
  Size ifFalse = materialize(b);
  Size ifTrue = materialize(a);
  Size test = materialize(condition);
  return get(ctx.select(test, ifTrue, ifFalse));
}

Poly Symbols::min(const Poly &a, const Poly &b) {
  if (a.isStatic() && b.isStatic())
    return std::min(a.getConstant(), b.getConstant());
  return arith("gpu.mini", a, b);
}

Poly Symbols::max(const Poly &a, const Poly &b) {
  if (a.isStatic() && b.isStatic())
    return std::max(a.getConstant(), b.getConstant());
  return arith("gpu.maxi", a, b);
}

Poly Symbols::ceilDiv(const Poly &a, const Poly &b) {
  if (a.isStatic() && b.isStatic())
    return (a.getConstant() + b.getConstant() - 1) / b.getConstant();
  if (b.isConstant(1))
    return a;
  return arith("gpu.ceildivi", a, b);
}

SmallVector<Poly> getStrides(ArrayRef<Poly> shape) {
  SmallVector<Poly> strides(shape.size(), Poly(1));
  for (int d = int(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

Poly getNumElements(ArrayRef<Poly> shape) {
  Poly n(1);
  for (const Poly &d : shape)
    n = n * d;
  return n;
}

SmallVector<Poly> toPolys(ArrayRef<int64_t> values) {
  return SmallVector<Poly>(values.begin(), values.end());
}

LogicalResult checkAtRunTime(Symbols &symbols, StringRef relation,
                             const Poly &a, const Poly &b,
                             const std::string &message) {
  if ((a.isStatic() && b.isStatic()) || (relation != "gpu.lti" && a == b))
    return success();
  // One statement per value that may create host ops: the order of a call's
  // arguments is unspecified, and the host program must not depend on the
  // compiler.
  Size first = symbols.materialize(a);
  Size second = symbols.materialize(b);
  Size holds = symbols.materialize(symbols.arith(relation, a, b));
  return symbols.getContext().check(holds, message, {first, second});
}

SmallVector<Poly> getDims(Symbols &symbols, Value value) {
  return symbols.get(symbols.getContext().getDims(value));
}

SmallVector<Poly> resultDims(RankedTensorType type, ArrayRef<Poly> computed) {
  SmallVector<Poly> dims;
  for (auto [d, dim] : llvm::enumerate(type.getShape()))
    dims.push_back(ShapedType::isDynamic(dim) ? computed[d] : Poly(dim));
  return dims;
}

Value allocateResult(Symbols &symbols, Value result, ArrayRef<Poly> dims) {
  LoweringContext &ctx = symbols.getContext();
  Value out = ctx.allocate(cast<RankedTensorType>(result.getType()),
                           symbols.materialize(dims));
  ctx.setResult(result, out);
  return out;
}

void dispatchLinear(Symbols &symbols, KernelSpec &spec,
                    const KernelSizes &sizes, const Poly &invocations,
                    ValueRange bindings) {
  sizes.dispatch(spec, symbols.materialize(invocations), bindings);
}

CopyPiece gatherPiece(ArrayRef<Poly> shape, unsigned src, Poly srcBase,
                      ArrayRef<Poly> srcStrides, unsigned dst) {
  CopyPiece piece;
  piece.shape.assign(shape.begin(), shape.end());
  piece.src = src;
  piece.srcBase = srcBase;
  piece.srcStrides.assign(srcStrides.begin(), srcStrides.end());
  piece.dst = dst;
  piece.dstStrides = getStrides(shape);
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
    if (p.shape[d].isConstant(1))
      continue;
    if (!s.shape.empty() &&
        s.srcStrides.back() == p.srcStrides[d] * p.shape[d] &&
        s.dstStrides.back() == p.dstStrides[d] * p.shape[d]) {
      s.shape.back() = s.shape.back() * p.shape[d];
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

bool divides(int64_t factor, const Poly &p) {
  return p.getDivisor() % factor == 0;
}

/// Whether `p` can move `factor` elements at a time: its innermost
/// dimension is contiguous on both sides and everything else is a multiple
/// of `factor` (whatever the values of run-time dims).
bool canWiden(const CopyPiece &p, int64_t factor) {
  if (p.shape.empty() || !p.srcStrides.back().isConstant(1) ||
      !p.dstStrides.back().isConstant(1) || !divides(factor, p.shape.back()) ||
      !divides(factor, p.srcBase) || !divides(factor, p.dstBase))
    return false;
  for (size_t d = 0; d + 1 < p.shape.size(); ++d)
    if (!divides(factor, p.srcStrides[d]) || !divides(factor, p.dstStrides[d]))
      return false;
  return true;
}

void widen(CopyPiece &p, int64_t factor) {
  p.shape.back() = p.shape.back().divideExactly(factor);
  p.srcBase = p.srcBase.divideExactly(factor);
  p.dstBase = p.dstBase.divideExactly(factor);
  for (size_t d = 0; d + 1 < p.shape.size(); ++d) {
    p.srcStrides[d] = p.srcStrides[d].divideExactly(factor);
    p.dstStrides[d] = p.dstStrides[d].divideExactly(factor);
  }
}

/// The element offset `base + sum(c<d> * strides[d])` as a uint
/// expression; a run-time stride that is negative is subtracted (uint
/// arithmetic wraps).
std::string indexExpr(Symbols &symbols, KernelSizes &sizes, const Poly &base,
                      ArrayRef<Poly> strides) {
  std::string e;
  for (size_t d = 0; d < strides.size(); ++d) {
    const Poly &stride = strides[d];
    if (stride.isConstant(0))
      continue;
    if (!stride.isStatic() && stride.isNegative()) {
      e += fmt::format("{}c{} * {}", e.empty() ? "0u - " : " - ", d,
                       symbols.text(-stride, sizes));
      continue;
    }
    // A run-time stride of terms of both signs (a Slice's step known only
    // at run time, P - N) may be negative: its two parts are push constants
    // of their own, added and subtracted.
    if (!stride.isStatic() &&
        llvm::any_of(stride.getTerms(),
                     [](const Poly::Term &t) { return t.coefficient < 0; })) {
      Poly up(0), down(0);
      for (const Poly::Term &t : stride.getTerms()) {
        Poly term(t.coefficient < 0 ? -t.coefficient : t.coefficient);
        for (unsigned symbol : t.symbols)
          term = term * Poly::symbol(symbol);
        (t.coefficient < 0 ? down : up) =
            (t.coefficient < 0 ? down : up) + term;
      }
      // The texts in statements of their own, the last first: each may
      // create host ops, and the order of a call's arguments is unspecified.
      std::string downText = symbols.text(down, sizes);
      std::string upText = symbols.text(up, sizes);
      e += fmt::format("{}c{} * {} - c{} * {}", e.empty() ? "" : " + ", d,
                       upText, d, downText);
      continue;
    }
    if (!e.empty())
      e += " + ";
    e += fmt::format("c{}", d);
    if (!stride.isConstant(1))
      e += " * " + (stride.isStatic() ? uintLiteral(stride.getConstant())
                                      : symbols.text(stride, sizes));
  }
  if (!base.isConstant(0) || e.empty()) {
    std::string b = base.isStatic() ? uintLiteral(base.getConstant())
                                    : symbols.text(base, sizes);
    e = e.empty() ? b : b + " + " + e;
  }
  return e;
}

/// Whether the terms of indexExpr use the coordinates.
bool usesCoordinates(ArrayRef<Poly> strides) {
  return llvm::any_of(strides, [](const Poly &s) { return !s.isConstant(0); });
}

} // namespace

void dispatchCopies(Symbols &symbols, StringRef name,
                    SmallVector<CopyPiece, 2> pieces, unsigned byteSize,
                    ValueRange bindings, ArrayRef<gpu::Access> access) {
  LoweringContext &ctx = symbols.getContext();
  llvm::erase_if(pieces, [](const CopyPiece &p) {
    return llvm::any_of(p.shape, [](const Poly &d) { return d.isConstant(0); });
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
  KernelSizes sizes(ctx);
  auto text = [&](const Poly &p) {
    return p.isStatic() ? uintLiteral(p.getConstant()) : symbols.text(p, sizes);
  };
  std::string body;
  Poly total(0);
  for (const CopyPiece &p : pieces) {
    Poly count = getNumElements(p.shape);
    // Pieces after the first index from their own start.
    bool first = total.isConstant(0);
    StringRef local = first ? "i" : "j";
    if (!first)
      body += " else ";
    body += "if (i < " + text(total + count) + ") {\n";
    if (!first)
      body += "uint j = i - " + text(total) + ";\n";
    // A side that walks its elements in order indexes with the flat index.
    SmallVector<Poly> contiguous = getStrides(p.shape);
    bool coords = false;
    auto index = [&](const Poly &base, ArrayRef<Poly> strides) {
      if (strides != ArrayRef<Poly>(contiguous)) {
        coords |= usesCoordinates(strides);
        return indexExpr(symbols, sizes, base, strides);
      }
      return base.isConstant(0) ? local.str()
                                : text(base) + " + " + local.str();
    };
    std::string dst = index(p.dstBase, p.dstStrides);
    std::string src = index(p.srcBase, p.srcStrides);
    if (coords) {
      // The outermost dim takes what is left: its size is not needed.
      SmallVector<std::string> dims = {""};
      for (const Poly &d : ArrayRef<Poly>(p.shape).drop_front())
        dims.push_back(text(d));
      body += coordinates(dims, local, "c");
    }
    body += fmt::format("b{}.d[{}] = b{}.d[{}];\n}}", p.dst, dst, p.src, src);
    total = total + count;
  }

  KernelSpec spec;
  spec.name = name.str();
  spec.workgroupSize = {workgroup, 1, 1};
  spec.bindings.assign(access.begin(), access.end());
  std::string glsl = glsl::header(spec.workgroupSize) + sizes.declaration();
  for (unsigned b = 0; b < access.size(); ++b)
    glsl += bitsBuffer(b, access[b], unit, fmt::format("b{}", b));
  glsl += "void main() {\nuint i = gl_GlobalInvocationID.x;\n" + body + "\n}\n";
  spec.glsl = std::move(glsl);
  dispatchLinear(symbols, spec, sizes, total, bindings);
}

} // namespace onyx::lowering::datamovement

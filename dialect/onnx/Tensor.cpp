//===- Tensor.cpp - Runtime tensors for evaluation and folding ------------===//

#include "dialect/onnx/Tensor.h"

#include "ir/Context.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace onyx::onnx {

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

unsigned getByteSize(ElementType type) {
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::I16:
  case ElementType::U16:
    return 2;
  case ElementType::F32:
  case ElementType::I32:
  case ElementType::U32:
    return 4;
  case ElementType::F64:
  case ElementType::I64:
  case ElementType::U64:
    return 8;
  case ElementType::I8:
  case ElementType::U8:
  case ElementType::Bool:
    return 1;
  }
  llvm_unreachable("unknown element type");
}

bool isFloat(ElementType type) {
  return type == ElementType::F16 || type == ElementType::BF16 ||
         type == ElementType::F32 || type == ElementType::F64;
}

bool isSignedInteger(ElementType type) {
  return type == ElementType::I8 || type == ElementType::I16 ||
         type == ElementType::I32 || type == ElementType::I64;
}

bool isUnsignedInteger(ElementType type) {
  return type == ElementType::U8 || type == ElementType::U16 ||
         type == ElementType::U32 || type == ElementType::U64;
}

StringRef getTypeName(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F32:
    return "f32";
  case ElementType::F64:
    return "f64";
  case ElementType::I8:
    return "i8";
  case ElementType::I16:
    return "i16";
  case ElementType::I32:
    return "i32";
  case ElementType::I64:
    return "i64";
  case ElementType::U8:
    return "ui8";
  case ElementType::U16:
    return "ui16";
  case ElementType::U32:
    return "ui32";
  case ElementType::U64:
    return "ui64";
  case ElementType::Bool:
    return "i1";
  }
  llvm_unreachable("unknown element type");
}

/// ONNX's TensorProto.DataType numbering, indexed by ElementType.
static constexpr int onnxDataTypes[] = {
    /*F16=*/10, /*BF16=*/16, /*F32=*/1,  /*F64=*/11, /*I8=*/3,
    /*I16=*/5,  /*I32=*/6,   /*I64=*/7,  /*U8=*/2,   /*U16=*/4,
    /*U32=*/12, /*U64=*/13,  /*Bool=*/9,
};

int getOnnxDataType(ElementType type) {
  return onnxDataTypes[static_cast<unsigned>(type)];
}

std::optional<ElementType> fromOnnxDataType(int64_t code) {
  for (unsigned i = 0; i < std::size(onnxDataTypes); ++i)
    if (onnxDataTypes[i] == code)
      return static_cast<ElementType>(i);
  return std::nullopt;
}

std::optional<ElementType> getElementType(Type type) {
  if (auto ft = dyn_cast<FloatType>(type)) {
    switch (ft.getFloatKind()) {
    case FloatType::F16:
      return ElementType::F16;
    case FloatType::BF16:
      return ElementType::BF16;
    case FloatType::F32:
      return ElementType::F32;
    case FloatType::F64:
      return ElementType::F64;
    }
    return std::nullopt;
  }
  auto it = dyn_cast<IntegerType>(type);
  if (!it || it.isSigned())
    return std::nullopt;
  bool isUnsigned = it.isUnsigned();
  switch (it.getWidth()) {
  case 1:
    if (isUnsigned)
      return std::nullopt;
    return ElementType::Bool;
  case 8:
    return isUnsigned ? ElementType::U8 : ElementType::I8;
  case 16:
    return isUnsigned ? ElementType::U16 : ElementType::I16;
  case 32:
    return isUnsigned ? ElementType::U32 : ElementType::I32;
  case 64:
    return isUnsigned ? ElementType::U64 : ElementType::I64;
  default:
    return std::nullopt;
  }
}

Type getIRType(Context *ctx, ElementType type) {
  switch (type) {
  case ElementType::F16:
    return FloatType::getF16(ctx);
  case ElementType::BF16:
    return FloatType::getBF16(ctx);
  case ElementType::F32:
    return FloatType::getF32(ctx);
  case ElementType::F64:
    return FloatType::getF64(ctx);
  case ElementType::Bool:
    return IntegerType::get(ctx, 1);
  default:
    break;
  }
  unsigned width = getByteSize(type) * 8;
  return IntegerType::get(ctx, width,
                          isUnsignedInteger(type) ? IntegerType::Unsigned
                                                  : IntegerType::Signless);
}

//===----------------------------------------------------------------------===//
// 16-bit floats
//===----------------------------------------------------------------------===//

Float16::operator float() const {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  uint32_t result;
  if (exponent == 0x1f) {
    result = sign | 0x7f800000 | (mantissa << 13);
  } else if (exponent != 0) {
    result = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    result = sign;
  } else {
    // A subnormal half is a normal float: shift the mantissa up until its
    // leading one becomes the implicit bit.
    int shift = 0;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      ++shift;
    }
    result = sign | uint32_t(113 - shift) << 23 | ((mantissa & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &result, 4);
  return f;
}

/// `value` rounded to float such that a second rounding to a narrower type
/// gives the same result as rounding `value` directly: inexact results are
/// truncated and their last bit set ("round to odd").
static float roundToOddFloat(double value) {
  float truncated = static_cast<float>(value);
  if (std::isnan(value) || std::isinf(value) || double(truncated) == value)
    return truncated;
  // Step towards zero if rounding went away from it.
  if (std::fabs(double(truncated)) > std::fabs(value))
    truncated = std::nextafter(truncated, 0.0f);
  uint32_t bits;
  std::memcpy(&bits, &truncated, 4);
  bits |= 1;
  std::memcpy(&truncated, &bits, 4);
  return truncated;
}

static uint16_t floatToHalfBits(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  uint16_t sign = (f >> 16) & 0x8000;
  uint32_t absBits = f & 0x7fffffff;
  if (absBits >= 0x7f800000) {
    // Inf stays Inf; NaN keeps a quiet NaN payload.
    uint16_t nan = absBits > 0x7f800000 ? 0x200 | ((absBits >> 13) & 0x3ff) : 0;
    return sign | 0x7c00 | nan;
  }
  if (absBits >= 0x477ff000) // Rounds to a value beyond the largest half.
    return sign | 0x7c00;
  if (absBits < 0x38800000) {
    // Subnormal half (or zero): the value in units of 2^-24, rounded to
    // nearest even.
    if (absBits < 0x33000000)
      return sign;
    uint32_t mantissa = (absBits & 0x7fffff) | 0x800000;
    int shift = 126 - int(absBits >> 23);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1)))
      ++half;
    return sign | half;
  }
  // Normal: rebias the exponent and round the 13 dropped bits to nearest
  // even; a carry into the exponent is the correct result.
  uint32_t rebased = absBits - (112u << 23);
  uint32_t half = rebased >> 13;
  uint32_t rest = rebased & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return sign | half;
}

Float16 Float16::fromDouble(double value) {
  return {floatToHalfBits(roundToOddFloat(value))};
}

BFloat16::operator float() const {
  uint32_t result = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &result, 4);
  return f;
}

BFloat16 BFloat16::fromDouble(double value) {
  float narrowed = roundToOddFloat(value);
  uint32_t f;
  std::memcpy(&f, &narrowed, 4);
  if ((f & 0x7fffffff) > 0x7f800000)
    return {uint16_t((f >> 16) | 0x40)};
  // Round to nearest even on the 16 dropped bits.
  uint32_t rounded = f + 0x7fff + ((f >> 16) & 1);
  return {uint16_t(rounded >> 16)};
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

int64_t getNumElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

static std::shared_ptr<uint64_t[]> allocateZeroed(size_t bytes) {
  return std::shared_ptr<uint64_t[]>(new uint64_t[(bytes + 7) / 8]());
}

Tensor::Tensor(ElementType type, ArrayRef<int64_t> shape)
    : present(true), elementType(type), shape(shape),
      numElements(onnx::getNumElements(shape)) {
  storage = allocateZeroed(getNumBytes());
  data = reinterpret_cast<const char *>(storage.get());
}

std::optional<Tensor> Tensor::fromAttr(DenseElementsAttr attr) {
  std::optional<ElementType> type = onnx::getElementType(attr.getElementType());
  if (!type || !attr.getType().hasStaticShape())
    return std::nullopt;
  Tensor t;
  t.present = true;
  t.elementType = *type;
  t.shape.assign(attr.getType().getShape().begin(),
                 attr.getType().getShape().end());
  t.numElements = onnx::getNumElements(t.shape);
  ArrayRef<char> raw = attr.getRawData();
  if (!attr.isSplat() || t.numElements == 1) {
    // The attribute's bytes are aligned for their element type and live as
    // long as the Context: read them in place.
    t.data = raw.data();
    return t;
  }
  t.storage = allocateZeroed(t.getNumBytes());
  char *out = reinterpret_cast<char *>(t.storage.get());
  size_t elemSize = raw.size();
  for (int64_t i = 0; i < t.numElements; ++i)
    std::memcpy(out + i * elemSize, raw.data(), elemSize);
  t.data = out;
  return t;
}

Tensor Tensor::fromInts(ElementType type, ArrayRef<int64_t> shape,
                        ArrayRef<int64_t> values) {
  Tensor t(type, shape);
  assert(int64_t(values.size()) == t.getNumElements() && "wrong value count");
  for (size_t i = 0; i < values.size(); ++i)
    t.setInt(i, values[i]);
  return t;
}

Tensor Tensor::fromDoubles(ElementType type, ArrayRef<int64_t> shape,
                           ArrayRef<double> values) {
  Tensor t(type, shape);
  assert(int64_t(values.size()) == t.getNumElements() && "wrong value count");
  for (size_t i = 0; i < values.size(); ++i)
    t.setDouble(i, values[i]);
  return t;
}

RankedTensorType Tensor::getType(Context *ctx) const {
  return RankedTensorType::get(shape, getIRType(ctx, elementType));
}

DenseElementsAttr Tensor::toAttr(Context *ctx) const {
  ArrayRef<char> bytes = getBytes();
  size_t elemSize = getByteSize(elementType);
  bool splat = numElements > 1;
  for (int64_t i = 1; splat && i < numElements; ++i)
    splat =
        std::memcmp(bytes.data(), bytes.data() + i * elemSize, elemSize) == 0;
  return DenseElementsAttr::getFromRawBuffer(
      getType(ctx), splat ? bytes.take_front(elemSize) : bytes);
}

MutableArrayRef<char> Tensor::getMutableBytes() {
  if (!storage || storage.use_count() > 1) {
    std::shared_ptr<uint64_t[]> copy = allocateZeroed(getNumBytes());
    std::memcpy(copy.get(), data, getNumBytes());
    storage = std::move(copy);
    data = reinterpret_cast<const char *>(storage.get());
  }
  return {const_cast<char *>(data), getNumBytes()};
}

double Tensor::getDouble(int64_t i) const {
  return dispatchType(elementType, [&](auto tag) -> double {
    using T = decltype(tag);
    return static_cast<double>(static_cast<ComputeType<T>>(getValues<T>()[i]));
  });
}

int64_t Tensor::getInt(int64_t i) const {
  return dispatchType(elementType, [&](auto tag) -> int64_t {
    using T = decltype(tag);
    return convertElement<int64_t>(getValues<T>()[i]);
  });
}

void Tensor::setDouble(int64_t i, double value) {
  dispatchType(elementType, [&](auto tag) {
    using T = decltype(tag);
    getMutableValues<T>()[i] = convertElement<T>(value);
  });
}

void Tensor::setInt(int64_t i, int64_t value) {
  dispatchType(elementType, [&](auto tag) {
    using T = decltype(tag);
    getMutableValues<T>()[i] = convertElement<T>(value);
  });
}

SmallVector<int64_t> Tensor::toInts() const {
  SmallVector<int64_t> result(numElements);
  for (int64_t i = 0; i < numElements; ++i)
    result[i] = getInt(i);
  return result;
}

Tensor Tensor::reshape(ArrayRef<int64_t> newShape) const {
  assert(onnx::getNumElements(newShape) == numElements &&
         "reshape changes the element count");
  Tensor t = *this;
  t.shape.assign(newShape.begin(), newShape.end());
  return t;
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> a,
                                                    ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == 1)
      result[i] = db;
    else if (db == 1)
      result[i] = da;
    else if (ShapedType::isDynamic(da))
      result[i] = db;
    else if (ShapedType::isDynamic(db) || da == db)
      result[i] = da;
    else
      return std::nullopt;
  }
  return result;
}

SmallVector<int64_t> getBroadcastStrides(ArrayRef<int64_t> inShape,
                                         ArrayRef<int64_t> outShape) {
  assert(inShape.size() <= outShape.size() && "input of higher rank");
  SmallVector<int64_t> inStrides = getStrides(inShape);
  SmallVector<int64_t> result(outShape.size(), 0);
  size_t lead = outShape.size() - inShape.size();
  for (size_t i = 0; i < inShape.size(); ++i)
    result[lead + i] = inShape[i] == 1 ? 0 : inStrides[i];
  return result;
}

BroadcastIterator::BroadcastIterator(ArrayRef<int64_t> outShape,
                                     ArrayRef<ArrayRef<int64_t>> inShapes)
    : outShape(outShape), index(outShape.size(), 0),
      offsets(inShapes.size(), 0) {
  for (ArrayRef<int64_t> in : inShapes) {
    SmallVector<int64_t> s = getBroadcastStrides(in, outShape);
    strides.append(s.begin(), s.end());
  }
}

void BroadcastIterator::next() {
  size_t rank = outShape.size();
  for (size_t d = rank; d-- > 0;) {
    if (++index[d] < outShape[d]) {
      for (size_t i = 0; i < offsets.size(); ++i)
        offsets[i] += strides[i * rank + d];
      return;
    }
    // Wrap this dimension: undo its full walk and carry to the next.
    index[d] = 0;
    for (size_t i = 0; i < offsets.size(); ++i)
      offsets[i] -= strides[i * rank + d] * (outShape[d] - 1);
  }
}

Tensor convertTensor(const Tensor &t, ElementType type) {
  if (t.getElementType() == type)
    return t;
  Tensor result(type, t.getShape());
  dispatchType(t.getElementType(), [&](auto fromTag) {
    using From = decltype(fromTag);
    dispatchType(type, [&](auto toTag) {
      using To = decltype(toTag);
      ArrayRef<From> in = t.getValues<From>();
      MutableArrayRef<To> out = result.getMutableValues<To>();
      for (size_t i = 0; i < in.size(); ++i)
        out[i] = convertElement<To>(in[i]);
    });
  });
  return result;
}

Tensor broadcastTo(const Tensor &t, ArrayRef<int64_t> shape) {
  if (t.getShape() == shape)
    return t;
  Tensor result(t.getElementType(), shape);
  int64_t total = result.getNumElements();
  if (total == 0)
    return result;
  // Row by row along the last dimension, which numpy aligns in both: a row
  // is a copy of an input row, or one input element repeated (doubling
  // copies), so a fill such as ConstantOfShape's is a few large copies
  // rather than one call per element.
  ArrayRef<int64_t> inShape = t.getShape();
  size_t elemSize = getByteSize(t.getElementType());
  int64_t cols = shape.empty() ? 1 : shape.back();
  int64_t inCols = inShape.empty() ? 1 : inShape.back();
  size_t rowBytes = size_t(cols) * elemSize;
  ArrayRef<int64_t> outer = shape.empty() ? shape : shape.drop_back();
  ArrayRef<int64_t> inOuter = inShape.empty() ? inShape : inShape.drop_back();
  const char *in = t.getBytes().data();
  char *out = result.getMutableBytes().data();
  BroadcastIterator it(outer, {inOuter});
  for (int64_t r = 0, rows = total / cols; r < rows; ++r, it.next()) {
    char *dst = out + r * rowBytes;
    const char *src = in + it.offset(0) * inCols * elemSize;
    if (inCols == cols) {
      std::memcpy(dst, src, rowBytes);
      continue;
    }
    std::memcpy(dst, src, elemSize);
    for (size_t done = elemSize; done < rowBytes;) {
      size_t n = std::min(done, rowBytes - done);
      std::memcpy(dst + done, dst, n);
      done += n;
    }
  }
  return result;
}

} // namespace onyx::onnx

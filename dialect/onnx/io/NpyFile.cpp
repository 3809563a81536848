//===- NpyFile.cpp - Reading and writing NumPy .npy files -----------------===//
//
// The format (numpy/lib/format.py): the magic "\x93NUMPY", a major and a
// minor version byte, the header length (2 bytes in 1.0, 4 in 2.0 and 3.0,
// little-endian), then a Python dict literal with the keys 'descr',
// 'fortran_order' and 'shape', padded so that the data starts at a multiple
// of 64 bytes. The data follows, exactly the tensor's bytes.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/io/NpyFile.h"
#include "support/FileUtilities.h"

#include <algorithm>

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace onyx;
using namespace onyx::onnx;

static constexpr StringRef kMagic = "\x93NUMPY";
/// NumPy aligns the start of the data to this many bytes.
static constexpr size_t kAlignment = 64;

namespace {

/// A NumPy type code ('f' + 4 is "f4") and the element type it holds.
struct NpyType {
  char kind;
  unsigned size;
  ElementType type;
};

constexpr NpyType kNpyTypes[] = {
    {'f', 2, ElementType::F16}, {'f', 4, ElementType::F32},
    {'f', 8, ElementType::F64}, {'i', 1, ElementType::I8},
    {'i', 2, ElementType::I16}, {'i', 4, ElementType::I32},
    {'i', 8, ElementType::I64}, {'u', 1, ElementType::U8},
    {'u', 2, ElementType::U16}, {'u', 4, ElementType::U32},
    {'u', 8, ElementType::U64}, {'b', 1, ElementType::Bool},
};

/// The fields of a header; each must be present exactly once.
struct NpyHeader {
  std::optional<std::string> descr;
  std::optional<bool> fortranOrder;
  std::optional<SmallVector<int64_t>> shape;
};

/// Reads the dict literal of a header. It accepts the subset of Python
/// syntax that NumPy writes (and that hand-written headers plausibly use):
/// quoted keys, strings, True/False, tuples of integers, trailing commas.
class HeaderParser {
public:
  HeaderParser(StringRef text, std::string &error) : rest(text), error(error) {}

  LogicalResult parse(NpyHeader &header) {
    if (!consume('{'))
      return fail("expected '{' at the start of the header");
    while (!consume('}')) {
      FailureOr<std::string> key = parseString();
      if (failed(key))
        return failure();
      if (!consume(':'))
        return fail("expected ':' after key '" + *key + "'");
      if (failed(parseValue(*key, header)))
        return failure();
      if (!consume(',') && !peek('}'))
        return fail("expected ',' or '}' in the header");
    }
    skipSpace();
    if (!rest.empty())
      return fail("unexpected text after the header dict");
    if (!header.descr || !header.fortranOrder || !header.shape)
      return fail("the header lacks 'descr', 'fortran_order' or 'shape'");
    return success();
  }

private:
  LogicalResult parseValue(StringRef key, NpyHeader &header) {
    if (key == "descr") {
      FailureOr<std::string> descr = parseString();
      if (failed(descr))
        return failure();
      return set(header.descr, *descr, key);
    }
    if (key == "fortran_order") {
      skipSpace();
      bool value;
      if (rest.consume_front("True"))
        value = true;
      else if (rest.consume_front("False"))
        value = false;
      else
        return fail("expected True or False for 'fortran_order'");
      return set(header.fortranOrder, value, key);
    }
    if (key == "shape") {
      FailureOr<SmallVector<int64_t>> shape = parseShape();
      if (failed(shape))
        return failure();
      return set(header.shape, *shape, key);
    }
    return fail("unknown header key '" + key.str() + "'");
  }

  template <typename T>
  LogicalResult set(std::optional<T> &field, T value, StringRef key) {
    if (field)
      return fail("duplicate header key '" + key.str() + "'");
    field = std::move(value);
    return success();
  }

  FailureOr<std::string> parseString() {
    skipSpace();
    if (rest.empty() || (rest.front() != '\'' && rest.front() != '"'))
      return fail("expected a quoted string in the header");
    char quote = rest.front();
    size_t end = rest.find(quote, 1);
    if (end == StringRef::npos)
      return fail("unterminated string in the header");
    std::string value = rest.slice(1, end).str();
    rest = rest.drop_front(end + 1);
    return value;
  }

  /// `()`, `(N,)` or `(N, M, ...)` with an optional trailing comma.
  FailureOr<SmallVector<int64_t>> parseShape() {
    if (!consume('('))
      return fail("expected '(' to start 'shape'");
    SmallVector<int64_t> shape;
    while (!consume(')')) {
      skipSpace();
      // A header may end inside a dimension: then the digits run to its end.
      size_t digits =
          std::min(rest.find_first_not_of("0123456789"), rest.size());
      uint64_t dim;
      if (digits == 0 || rest.take_front(digits).getAsInteger(10, dim) ||
          dim > uint64_t(std::numeric_limits<int64_t>::max()))
        return fail("expected a non-negative dimension in 'shape'");
      shape.push_back(int64_t(dim));
      rest = rest.drop_front(digits);
      if (!consume(',') && !peek(')'))
        return fail("expected ',' or ')' in 'shape'");
    }
    return shape;
  }

  void skipSpace() { rest = rest.ltrim(" \t\r\n"); }
  bool peek(char c) {
    skipSpace();
    return !rest.empty() && rest.front() == c;
  }
  bool consume(char c) {
    if (!peek(c))
      return false;
    rest = rest.drop_front();
    return true;
  }
  LogicalResult fail(const llvm::Twine &message) {
    error = message.str();
    return failure();
  }

  StringRef rest;
  std::string &error;
};

} // namespace

/// The element type of a 'descr' such as "<f4" or "|b1".
static std::optional<ElementType> parseDescr(StringRef descr,
                                             std::string &error) {
  unsigned size;
  if (descr.size() < 3 || !StringRef("<>|=").contains(descr[0]) ||
      descr.drop_front(2).getAsInteger(10, size)) {
    error = "unsupported dtype '" + descr.str() + "'";
    return std::nullopt;
  }
  for (const NpyType &entry : kNpyTypes) {
    if (entry.kind != descr[1] || entry.size != size)
      continue;
    // '=' is the writer's native order; NumPy itself always writes '<' or
    // '>', so '=' only comes from hand-made files on little-endian hosts.
    if (size > 1 && (descr[0] == '>' || descr[0] == '|')) {
      error = "dtype '" + descr.str() +
              "' is not little-endian; only little-endian data is supported";
      return std::nullopt;
    }
    return entry.type;
  }
  error = "unsupported dtype '" + descr.str() +
          "' (supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1)";
  return std::nullopt;
}

FailureOr<Tensor> onyx::onnx::parseNpy(StringRef bytes, std::string &error) {
  if (!bytes.starts_with(kMagic) || bytes.size() < kMagic.size() + 2) {
    error = "not a .npy file (bad magic string)";
    return failure();
  }
  unsigned major = uint8_t(bytes[kMagic.size()]);
  unsigned lengthSize;
  if (major == 1) {
    lengthSize = 2;
  } else if (major == 2 || major == 3) {
    lengthSize = 4;
  } else {
    error = "unsupported .npy format version " + std::to_string(major) + "." +
            std::to_string(uint8_t(bytes[kMagic.size() + 1]));
    return failure();
  }
  size_t lengthOffset = kMagic.size() + 2;
  if (bytes.size() < lengthOffset + lengthSize) {
    error = "truncated .npy header";
    return failure();
  }
  const char *lengthBytes = bytes.data() + lengthOffset;
  uint64_t headerSize =
      lengthSize == 2 ? llvm::support::endian::read16le(lengthBytes)
                      : uint64_t(llvm::support::endian::read32le(lengthBytes));
  size_t headerOffset = lengthOffset + lengthSize;
  if (bytes.size() - headerOffset < headerSize) {
    error = "truncated .npy header";
    return failure();
  }

  NpyHeader header;
  if (failed(HeaderParser(bytes.substr(headerOffset, headerSize), error)
                 .parse(header)))
    return failure();
  std::optional<ElementType> type = parseDescr(*header.descr, error);
  if (!type)
    return failure();
  if (*header.fortranOrder) {
    error = "Fortran-order arrays are not supported; save the array in C "
            "order";
    return failure();
  }

  int64_t numBytes = getByteSize(*type);
  for (int64_t dim : *header.shape) {
    if (llvm::MulOverflow(numBytes, dim, numBytes)) {
      error = "the shape in the header is too large";
      return failure();
    }
  }
  StringRef data = bytes.drop_front(headerOffset + headerSize);
  if (data.size() != uint64_t(numBytes)) {
    error = "the header describes " + std::to_string(numBytes) +
            " bytes of data but the file holds " + std::to_string(data.size());
    return failure();
  }
  Tensor tensor(*type, *header.shape);
  if (numBytes)
    std::memcpy(tensor.getMutableBytes().data(), data.data(), numBytes);
  return tensor;
}

FailureOr<Tensor> onyx::onnx::readNpyFile(StringRef path, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read '" + path.str() + "': " + buffer.getError().message();
    return failure();
  }
  FailureOr<Tensor> tensor = parseNpy((*buffer)->getBuffer(), error);
  if (failed(tensor))
    error = ("'" + path + "': " + error).str();
  return tensor;
}

/// The 'descr' of `type`, such as "<f4"; nullopt for types NumPy lacks.
static std::optional<std::string> getDescr(ElementType type) {
  for (const NpyType &entry : kNpyTypes)
    if (entry.type == type)
      return std::string(entry.size == 1 ? "|" : "<") + entry.kind +
             std::to_string(entry.size);
  return std::nullopt;
}

FailureOr<std::string> onyx::onnx::serializeNpy(const Tensor &tensor,
                                                std::string &error) {
  std::optional<std::string> descr = getDescr(tensor.getElementType());
  if (!descr) {
    error = "element type " + getTypeName(tensor.getElementType()).str() +
            " has no NumPy dtype";
    return failure();
  }
  std::string dict =
      "{'descr': '" + *descr + "', 'fortran_order': False, 'shape': (";
  for (int64_t dim : tensor.getShape())
    dict += std::to_string(dim) + ", ";
  // A 1-tuple needs its comma; NumPy drops the space of the last one.
  if (tensor.getRank() != 1 && tensor.getRank() != 0)
    dict.resize(dict.size() - 2);
  else if (tensor.getRank() == 1)
    dict.pop_back();
  dict += "), }";

  // Version 1.0 stores the header length in 2 bytes; the padded header
  // ends with a newline, as NumPy writes it.
  unsigned lengthSize = 2;
  auto paddedSize = [&] {
    size_t prefix = kMagic.size() + 2 + lengthSize;
    return llvm::alignTo(prefix + dict.size() + 1, kAlignment) - prefix;
  };
  if (paddedSize() > std::numeric_limits<uint16_t>::max())
    lengthSize = 4;
  size_t headerSize = paddedSize();
  dict.resize(headerSize - 1, ' ');
  dict += '\n';

  std::string bytes(kMagic);
  bytes += char(lengthSize == 2 ? 1 : 2);
  bytes += char(0);
  char length[4];
  llvm::support::endian::write32le(length, uint32_t(headerSize));
  bytes.append(length, lengthSize);
  bytes += dict;
  ArrayRef<char> data = tensor.getBytes();
  bytes.append(data.data(), data.size());
  return bytes;
}

LogicalResult onyx::onnx::writeNpyFile(StringRef path, const Tensor &tensor,
                                       std::string &error) {
  FailureOr<std::string> bytes = serializeNpy(tensor, error);
  if (failed(bytes))
    return failure();
  return success(writeFile(
      path, [&](llvm::raw_ostream &os) { os << *bytes; }, error));
}

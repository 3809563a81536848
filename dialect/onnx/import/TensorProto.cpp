//===- TensorProto.cpp - ONNX tensors and data types as IR values ---------===//
//
// ONNX stores tensor data in one of several places. Whatever the source, the
// bytes end up little-endian and row-major in one DenseElementsAttr, which
// the Context keeps once; a model's weights are therefore copied exactly once
// on import (from the protobuf or the external file into the attribute).
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/import/TensorProto.h"

#include "ir/Types.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SwapByteOrder.h"

#include "onnx/onnx_pb.h"

#include <cstring>

namespace onyx::onnx {

static_assert(llvm::sys::IsLittleEndianHost,
              "ONNX data is little-endian and is stored as is");

std::optional<ElementType> convertDataType(int32_t dataType) {
  switch (dataType) {
  case pb::TensorProto::FLOAT:
    return ElementType::F32;
  case pb::TensorProto::UINT8:
    return ElementType::U8;
  case pb::TensorProto::INT8:
    return ElementType::I8;
  case pb::TensorProto::UINT16:
    return ElementType::U16;
  case pb::TensorProto::INT16:
    return ElementType::I16;
  case pb::TensorProto::INT32:
    return ElementType::I32;
  case pb::TensorProto::INT64:
    return ElementType::I64;
  case pb::TensorProto::BOOL:
    return ElementType::Bool;
  case pb::TensorProto::FLOAT16:
    return ElementType::F16;
  case pb::TensorProto::DOUBLE:
    return ElementType::F64;
  case pb::TensorProto::UINT32:
    return ElementType::U32;
  case pb::TensorProto::UINT64:
    return ElementType::U64;
  case pb::TensorProto::BFLOAT16:
    return ElementType::BF16;
  default:
    return std::nullopt;
  }
}

/// ONNX's data type names, indexed by number, up to ONNX 1.22 (the ONNX
/// library installed may know fewer).
static const char *const dataTypeNames[] = {
    "UNDEFINED",      "FLOAT",      "UINT8",
    "INT8",           "UINT16",     "INT16",
    "INT32",          "INT64",      "STRING",
    "BOOL",           "FLOAT16",    "DOUBLE",
    "UINT32",         "UINT64",     "COMPLEX64",
    "COMPLEX128",     "BFLOAT16",   "FLOAT8E4M3FN",
    "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ",
    "UINT4",          "INT4",       "FLOAT4E2M1",
    "FLOAT8E8M0",     "UINT2",      "INT2"};

std::string getDataTypeName(int32_t dataType) {
  if (dataType >= 0 && size_t(dataType) < std::size(dataTypeNames))
    return dataTypeNames[dataType];
  return "data type " + std::to_string(dataType);
}

std::optional<int32_t> lookupDataType(StringRef name) {
  const auto *it = llvm::find(dataTypeNames, name);
  if (it == std::end(dataTypeNames))
    return std::nullopt;
  return int32_t(it - std::begin(dataTypeNames));
}

namespace {

/// Gathers the bytes of one tensor and reports problems with it.
class TensorReader {
public:
  TensorReader(const pb::TensorProto &tensor, StringRef baseDir, Location loc,
               const llvm::Twine &what)
      : tensor(tensor), baseDir(baseDir), loc(loc), what(what.str()) {}

  FailureOr<DenseElementsAttr> read(Context *ctx);

private:
  InFlightDiagnostic emitError() const {
    return onyx::emitError(loc) << what << ": ";
  }
  LogicalResult readExternal();
  LogicalResult readTypedField();
  template <typename Field>
  LogicalResult copyValues(const Field &values, StringRef fieldName);

  const pb::TensorProto &tensor;
  StringRef baseDir;
  Location loc;
  std::string what;

  ElementType elementType = ElementType::F32;
  int64_t numElements = 1;
  size_t numBytes = 0;
  /// The bytes: either borrowed (raw_data, a file) or `owned`.
  ArrayRef<char> bytes;
  std::unique_ptr<llvm::MemoryBuffer> file;
  std::vector<char> owned;
};

} // namespace

FailureOr<DenseElementsAttr> TensorReader::read(Context *ctx) {
  std::optional<ElementType> type = convertDataType(tensor.data_type());
  if (!type)
    return emitError() << "unsupported element type "
                       << getDataTypeName(tensor.data_type());
  elementType = *type;
  if (tensor.has_segment())
    return emitError() << "segmented tensors are not supported";

  SmallVector<int64_t> shape;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0)
      return emitError() << "negative dimension " << dim;
    if (llvm::MulOverflow(numElements, dim, numElements))
      return emitError() << "too many elements";
    shape.push_back(dim);
  }
  uint64_t byteSize = getByteSize(elementType);
  if (uint64_t(numElements) > std::numeric_limits<int64_t>::max() / byteSize)
    return emitError() << "too many elements";
  numBytes = size_t(numElements) * byteSize;

  if (tensor.data_location() == pb::TensorProto::EXTERNAL) {
    if (failed(readExternal()))
      return failure();
  } else if (tensor.has_raw_data()) {
    const std::string &raw = tensor.raw_data();
    if (raw.size() != numBytes)
      return emitError() << "raw_data holds " << uint64_t(raw.size())
                         << " bytes, the shape needs " << uint64_t(numBytes);
    bytes = ArrayRef<char>(raw.data(), raw.size());
  } else if (failed(readTypedField())) {
    return failure();
  }

  // ONNX gives no guarantee that a bool byte is 0 or 1; i1 data must be.
  if (elementType == ElementType::Bool &&
      llvm::any_of(bytes, [](char c) { return c != 0 && c != 1; })) {
    owned.assign(bytes.begin(), bytes.end());
    for (char &c : owned)
      c = c != 0;
    bytes = owned;
  }
  auto attrType = RankedTensorType::get(shape, getIRType(ctx, elementType));
  return DenseElementsAttr::getFromRawBuffer(attrType, bytes);
}

LogicalResult TensorReader::readExternal() {
  std::string location;
  std::optional<uint64_t> offset, length;
  for (const pb::StringStringEntryProto &entry : tensor.external_data()) {
    const std::string &key = entry.key();
    if (key == "location") {
      location = entry.value();
    } else if (key == "offset" || key == "length") {
      uint64_t value;
      if (!llvm::to_integer(entry.value(), value, 10))
        return emitError() << "external data " << key << " '" << entry.value()
                           << "' is not a number";
      (key == "offset" ? offset : length) = value;
    }
  }
  if (location.empty())
    return emitError() << "external data without a location";
  // The model names a file next to itself; never one elsewhere.
  if (llvm::sys::path::is_absolute(location) ||
      llvm::is_contained(llvm::make_range(llvm::sys::path::begin(location),
                                          llvm::sys::path::end(location)),
                         ".."))
    return emitError() << "external data location '" << location
                       << "' must be a relative path inside the model's "
                          "directory";
  if (length && *length != numBytes)
    return emitError() << "external data length " << *length
                       << " does not match the " << uint64_t(numBytes)
                       << " bytes of its shape";

  llvm::SmallString<256> path(baseDir);
  llvm::sys::path::append(path, location);
  // A relative path may still leave the folder through a symbolic link (of
  // the file or of a folder on the way): what it resolves to must be inside
  // the model's folder as resolved, as ONNX's checker requires.
  llvm::SmallString<256> realBase, realPath;
  if (!llvm::sys::fs::real_path(baseDir.empty() ? "." : baseDir, realBase) &&
      !llvm::sys::fs::real_path(path, realPath)) {
    StringRef inside = realPath;
    bool baseEndsInSeparator =
        !realBase.empty() && llvm::sys::path::is_separator(realBase.back());
    if (!inside.consume_front(realBase) ||
        (!inside.empty() && !baseEndsInSeparator &&
         !llvm::sys::path::is_separator(inside.front())))
      return emitError() << "external data location '" << location
                         << "' leads out of the model's directory through a "
                            "symbolic link (to '"
                         << realPath.str() << "')";
  }
  uint64_t fileSize;
  if (std::error_code ec = llvm::sys::fs::file_size(path, fileSize))
    return emitError() << "cannot read external data file '" << location
                       << "': " << ec.message();
  uint64_t start = offset.value_or(0);
  if (start > fileSize || fileSize - start < numBytes)
    return emitError() << "external data file '" << location << "' has "
                       << fileSize << " bytes, too few for " << numBytes
                       << " bytes at offset " << start;
  if (numBytes == 0)
    return success();
  auto buffer = llvm::MemoryBuffer::getFileSlice(path, numBytes, start);
  if (!buffer)
    return emitError() << "cannot read external data file '" << location
                       << "': " << buffer.getError().message();
  file = std::move(*buffer);
  bytes = ArrayRef<char>(file->getBufferStart(), file->getBufferSize());
  return success();
}

/// Copies the low bytes of each value: ONNX widens small types to the field's
/// type (float16 bits, int8 and bool in int32_data; uint32 in uint64_data).
template <typename Field>
LogicalResult TensorReader::copyValues(const Field &values,
                                       StringRef fieldName) {
  if (int64_t(values.size()) != numElements)
    return emitError() << fieldName << " holds " << int64_t(values.size())
                       << " values, the shape needs " << numElements;
  unsigned size = getByteSize(elementType);
  owned.resize(numBytes);
  char *out = owned.data();
  for (auto value : values) {
    std::memcpy(out, &value, size);
    out += size;
  }
  bytes = owned;
  return success();
}

LogicalResult TensorReader::readTypedField() {
  switch (elementType) {
  case ElementType::F32:
    return copyValues(tensor.float_data(), "float_data");
  case ElementType::F64:
    return copyValues(tensor.double_data(), "double_data");
  case ElementType::I64:
    return copyValues(tensor.int64_data(), "int64_data");
  case ElementType::U32:
  case ElementType::U64:
    return copyValues(tensor.uint64_data(), "uint64_data");
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::I8:
  case ElementType::I16:
  case ElementType::I32:
  case ElementType::U8:
  case ElementType::U16:
  case ElementType::Bool:
    return copyValues(tensor.int32_data(), "int32_data");
  }
  llvm_unreachable("unknown element type");
}

FailureOr<DenseElementsAttr> convertTensor(const pb::TensorProto &tensor,
                                           Context *ctx, StringRef baseDir,
                                           Location loc,
                                           const llvm::Twine &what) {
  return TensorReader(tensor, baseDir, loc, what).read(ctx);
}

} // namespace onyx::onnx

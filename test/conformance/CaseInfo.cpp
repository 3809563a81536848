//===- CaseInfo.cpp - What a test case's model declares -------------------===//

#include "test/conformance/CaseInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"

#include <onnx/onnx_pb.h>

#include <limits>
#include <set>

using namespace onyx;
using namespace onyx::conformance;

/// The ONNX name of a TensorProto.DataType number, as of ONNX 1.22 (whose
/// tests use numbers the ONNX 1.12 library has no names for).
static std::string getTypeName(int32_t type) {
  static constexpr const char *kNames[] = {"float",        "uint8",
                                           "int8",         "uint16",
                                           "int16",        "int32",
                                           "int64",        "string",
                                           "bool",         "float16",
                                           "double",       "uint32",
                                           "uint64",       "complex64",
                                           "complex128",   "bfloat16",
                                           "float8e4m3fn", "float8e4m3fnuz",
                                           "float8e5m2",   "float8e5m2fnuz",
                                           "uint4",        "int4",
                                           "float4e2m1",   "float8e8m0",
                                           "uint2",        "int2"};
  if (type >= 1 && type <= int32_t(std::size(kNames)))
    return kNames[type - 1];
  return type == 0 ? "non-tensor" : "type " + std::to_string(type);
}

/// Whether a Tensor can hold TensorProto.DataType `type`: float, uint8,
/// int8, uint16, int16, int32, int64, bool, float16, double, uint32,
/// uint64, bfloat16.
static bool isRepresentable(int32_t type) {
  static constexpr int32_t kTypes[] = {1, 2,  3,  4,  5,  6, 7,
                                       9, 10, 11, 12, 13, 16};
  return llvm::is_contained(kTypes, type);
}

static int32_t getElemType(const ::onnx::ValueInfoProto &value) {
  return value.type().has_tensor_type() ? value.type().tensor_type().elem_type()
                                        : 0;
}

CaseInfo onyx::conformance::readCaseInfo(StringRef modelPath) {
  CaseInfo info;
  auto buffer = llvm::MemoryBuffer::getFile(modelPath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    info.error =
        "cannot read '" + modelPath.str() + "': " + buffer.getError().message();
    return info;
  }
  StringRef bytes = (*buffer)->getBuffer();
  ::onnx::ModelProto model;
  if (bytes.size() > size_t(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(bytes.data(), int(bytes.size()))) {
    info.error = ("'" + modelPath + "' is not an ONNX model").str();
    return info;
  }

  const ::onnx::GraphProto &graph = model.graph();
  std::set<std::string> initializers;
  for (const ::onnx::TensorProto &initializer : graph.initializer())
    initializers.insert(initializer.name());
  SmallVector<int32_t> types;
  for (const ::onnx::ValueInfoProto &value : graph.input()) {
    if (initializers.count(value.name()))
      continue;
    info.inputNames.push_back(value.name());
    types.push_back(getElemType(value));
  }
  for (const ::onnx::ValueInfoProto &value : graph.output())
    types.push_back(getElemType(value));

  std::set<std::string> typeNames, ops;
  for (int32_t type : types) {
    typeNames.insert(getTypeName(type));
    info.representable &= isRepresentable(type);
  }
  for (const ::onnx::NodeProto &node : graph.node()) {
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    ops.insert(defaultDomain ? node.op_type()
                             : node.domain() + "." + node.op_type());
  }
  info.ops.assign(ops.begin(), ops.end());
  info.elemTypes.assign(typeNames.begin(), typeNames.end());
  return info;
}

//===- FuzzTensorReaders.cpp - .npy and TensorProto bytes -----------------===//
//
// The first byte picks the reader (even: .npy, odd: a serialized
// TensorProto); the rest is its input. Either reads a tensor whose bytes
// match its shape, or fails with a message.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/import/TensorProto.h"
#include "dialect/onnx/io/NpyFile.h"

#include "onnx/onnx_pb.h"

#include <cstdio>
#include <cstdlib>

using namespace onyx;
using namespace onyx::onnx;

static void checkTensor(const Tensor &t) {
  std::optional<int64_t> n = getCheckedNumElements(t.getShape());
  if (!n || *n != t.getNumElements() ||
      t.getBytes().size() != t.getNumBytes()) {
    fprintf(stderr, "a reader returned a tensor whose size is inconsistent\n");
    abort();
  }
  // Touch every byte, so that ASan sees a short buffer.
  volatile char sink = 0;
  for (char c : t.getBytes())
    sink = sink ^ c;
  (void)sink;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  StringRef bytes(reinterpret_cast<const char *>(data + 1), size - 1);
  if (data[0] % 2 == 0) {
    std::string error;
    FailureOr<Tensor> t = parseNpy(bytes, error);
    if (succeeded(t))
      checkTensor(*t);
    return 0;
  }
  Context ctx;
  ctx.loadDialect<OnnxDialect>();
  ScopedDiagnosticCollector quiet(&ctx);
  pb::TensorProto proto;
  if (!proto.ParseFromArray(bytes.data(), int(bytes.size())))
    return 0;
  try {
    FailureOr<DenseElementsAttr> attr = convertTensor(
        proto, &ctx, "/nonexistent-fuzz-dir", UnknownLoc::get(&ctx), "tensor");
    if (succeeded(attr))
      checkTensor(*Tensor::fromAttr(*attr));
  } catch (const std::exception &) {
    // Protobuf's accessors do not throw; the importer's own file reading
    // may, and reports it as an error at the API edge.
  }
  return 0;
}

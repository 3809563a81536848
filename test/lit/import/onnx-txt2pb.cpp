//===- onnx-txt2pb.cpp - Text-format ONNX protobufs to binary ones --------===//
//
// The import tests write their models as protobuf text (readable, diffable,
// next to the CHECK lines) and turn them into .onnx files with this tool
// when they run, so no binary model needs to be checked in:
//
//   onnx-txt2pb model.textproto -o model.onnx
//   onnx-txt2pb --tensor input.textproto -o input_0.pb
//
// Options shape the output the way model writers do: --external-data moves
// initializer data into a file beside the model (as ONNX's
// save_as_external_data does), and --zero-fill gives initializers declared
// without data zero bytes of their size, so that a test can make a model
// of any size from a few lines of text.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "onnx/onnx_pb.h"

#include <google/protobuf/text_format.h>

namespace cl = llvm::cl;

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::desc("<text proto>"), cl::init("-"));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("file"),
                                           cl::Required);
static cl::opt<bool> tensorInput("tensor",
                                 cl::desc("The input is a TensorProto, not "
                                          "a ModelProto"));
static cl::opt<std::string> externalData(
    "external-data",
    cl::desc("Move the data of every initializer into this file, named "
             "relative to the output's directory"),
    cl::value_desc("file"));
static cl::opt<bool>
    zeroFill("zero-fill",
             cl::desc("Fill initializers that hold no data with zero bytes"));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "onnx-txt2pb: " << message << '\n';
  return 1;
}

/// Bytes per element of the ONNX data types that --zero-fill sizes.
static size_t getElementSize(int32_t dataType) {
  switch (dataType) {
  case onnx::TensorProto::DOUBLE:
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
    return 8;
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    return 4;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
    return 2;
  default:
    return 1;
  }
}

static bool holdsData(const onnx::TensorProto &t) {
  return t.has_raw_data() || t.float_data_size() || t.int32_data_size() ||
         t.int64_data_size() || t.double_data_size() || t.uint64_data_size() ||
         t.string_data_size() ||
         t.data_location() == onnx::TensorProto::EXTERNAL;
}

static void fillWithZeros(onnx::TensorProto &tensor) {
  size_t count = 1;
  for (int64_t dim : tensor.dims())
    count *= size_t(dim);
  tensor.set_raw_data(
      std::string(count * getElementSize(tensor.data_type()), '\0'));
}

/// Moves the raw data of each initializer into `file`, one after another.
static int externalize(onnx::GraphProto &graph, llvm::StringRef location,
                       llvm::StringRef file) {
  std::error_code ec;
  llvm::raw_fd_ostream os(file, ec);
  if (ec)
    return fail("cannot write '" + file + "': " + ec.message());
  uint64_t offset = 0;
  for (onnx::TensorProto &tensor : *graph.mutable_initializer()) {
    if (!tensor.has_raw_data())
      continue;
    const std::string &data = tensor.raw_data();
    os << data;
    auto addEntry = [&](const std::string &key, const std::string &value) {
      onnx::StringStringEntryProto *entry = tensor.add_external_data();
      entry->set_key(key);
      entry->set_value(value);
    };
    addEntry("location", location.str());
    addEntry("offset", std::to_string(offset));
    addEntry("length", std::to_string(data.size()));
    offset += data.size();
    tensor.clear_raw_data();
    tensor.set_data_location(onnx::TensorProto::EXTERNAL);
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "text-format ONNX to binary\n");
  auto input = llvm::MemoryBuffer::getFileOrSTDIN(inputFilename);
  if (!input)
    return fail("cannot read '" + inputFilename +
                "': " + input.getError().message());
  std::string text = (*input)->getBuffer().str();

  std::string bytes;
  if (tensorInput) {
    onnx::TensorProto tensor;
    if (!google::protobuf::TextFormat::ParseFromString(text, &tensor))
      return fail("'" + inputFilename + "' is not a text-format TensorProto");
    if (zeroFill && !holdsData(tensor))
      fillWithZeros(tensor);
    bytes = tensor.SerializeAsString();
  } else {
    onnx::ModelProto model;
    if (!google::protobuf::TextFormat::ParseFromString(text, &model))
      return fail("'" + inputFilename + "' is not a text-format ModelProto");
    onnx::GraphProto &graph = *model.mutable_graph();
    if (zeroFill)
      for (onnx::TensorProto &tensor : *graph.mutable_initializer())
        if (!holdsData(tensor))
          fillWithZeros(tensor);
    if (!externalData.empty()) {
      llvm::SmallString<256> file =
          llvm::sys::path::parent_path(outputFilename);
      llvm::sys::path::append(file, externalData);
      if (int status = externalize(graph, externalData, file))
        return status;
    }
    bytes = model.SerializeAsString();
  }

  std::error_code ec;
  llvm::raw_fd_ostream os(outputFilename, ec);
  if (ec)
    return fail("cannot write '" + outputFilename + "': " + ec.message());
  os << bytes;
  return 0;
}

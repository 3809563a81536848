//===- ImporterTest.cpp - The ONNX importer's API -------------------------===//
//
// What the lit tests cannot reach through onyx-opt: binding dimensions from
// input shapes and importing inputs as constants (as onyx-run and the
// conformance runner do), reading test data tensors, and models above
// protobuf's default 64 MB limit. Models are written as protobuf text.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/import/Importer.h"

#include "dialect/onnx/OnnxDialect.h"

#include "ir/Operation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "onnx/onnx_pb.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

using namespace onyx;
using namespace onyx::onnx;

namespace {

class ImporterTest : public ::testing::Test {
protected:
  ImporterTest() : collector(&ctx) {}

  /// Imports a model written as protobuf text.
  OwningOpRef<ModuleOp> import(const std::string &text,
                               const ImportOptions &options = {}) {
    ::onnx::ModelProto model;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &model));
    return importOnnxBuffer(model.SerializeAsString(), "test.onnx", "", &ctx,
                            options);
  }

  FuncOp getMain(ModuleOp module) {
    return cast<FuncOp>(&module.getBody()->front());
  }

  /// The messages reported so far, one per line.
  std::string messages() {
    std::string text;
    for (const Diagnostic &diag : collector.getDiagnostics())
      text += diag.str() + "\n";
    return text;
  }

  Context ctx;
  ScopedDiagnosticCollector collector;
};

/// y = Reshape(x, shape) where x is [batch, 4] and `shape` a graph input.
const char *const reshapeModel = R"(
  ir_version: 8
  opset_import { domain: "" version: 13 }
  graph {
    name: "reshape"
    node { op_type: "Reshape" input: "x" input: "shape" output: "y" }
    input { name: "x" type { tensor_type { elem_type: 1
      shape { dim { dim_param: "batch" } dim { dim_value: 4 } } } } }
    input { name: "shape" type { tensor_type { elem_type: 7
      shape { dim { dim_value: 1 } } } } }
    output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } } } } }
  })";

TEST_F(ImporterTest, ParsesDimensionBindings) {
  llvm::StringMap<int64_t> bindings;
  std::string error;
  ASSERT_TRUE(
      succeeded(parseDimBindings(" batch=1, seq = 16,", bindings, error)));
  EXPECT_EQ(bindings.size(), 2u);
  EXPECT_EQ(bindings.lookup("batch"), 1);
  EXPECT_EQ(bindings.lookup("seq"), 16);

  EXPECT_TRUE(failed(parseDimBindings("seq", bindings, error)));
  EXPECT_EQ(error, "expected NAME=SIZE, got 'seq'");
  bindings.clear();
  EXPECT_TRUE(failed(parseDimBindings("seq=x", bindings, error)));
  EXPECT_EQ(error, "the size of 'seq' must be a non-negative integer, got 'x'");
}

TEST_F(ImporterTest, ConstantInputsAndInputShapes) {
  ImportOptions options;
  options.constantInputs["shape"] =
      Tensor::fromInts(ElementType::I64, {1}, {-1});
  options.inputShapes.push_back({3, 4});
  OwningOpRef<ModuleOp> module = import(reshapeModel, options);
  ASSERT_TRUE(module) << messages();
  // `shape` is a constant, no argument; `batch` is 3 from the input's shape.
  FunctionType type = getMain(*module).getFunctionType();
  ASSERT_EQ(type.getInputs().size(), 1u);
  EXPECT_EQ(type.getInputs()[0],
            RankedTensorType::get({3, 4}, FloatType::getF32(&ctx)));
  EXPECT_EQ(type.getResults()[0],
            RankedTensorType::get({12}, FloatType::getF32(&ctx)));
}

TEST_F(ImporterTest, InputShapesMustAgreeWithTheModel) {
  ImportOptions options;
  options.constantInputs["shape"] =
      Tensor::fromInts(ElementType::I64, {1}, {-1});
  options.inputShapes.push_back({3, 5});
  EXPECT_FALSE(import(reshapeModel, options));
  EXPECT_EQ(messages(), "input 'x' has size 4 in dimension 1, given 5\n");
}

TEST_F(ImporterTest, InputShapesMustAgreeWithBindings) {
  ImportOptions options;
  options.dimBindings["batch"] = 2;
  options.constantInputs["shape"] =
      Tensor::fromInts(ElementType::I64, {1}, {-1});
  options.inputShapes.push_back({3, 4});
  EXPECT_FALSE(import(reshapeModel, options));
  EXPECT_EQ(messages(),
            "dimension 'batch' is bound to 2 and, by input 'x', to 3\n");
}

TEST_F(ImporterTest, ConstantInputsMustBeInputs) {
  ImportOptions options;
  options.constantInputs["y"] = Tensor::fromInts(ElementType::I64, {1}, {-1});
  EXPECT_FALSE(import(reshapeModel, options));
  EXPECT_EQ(messages(), "'y', given a value, is not an input of the model\n");
}

TEST_F(ImporterTest, ReadsTensorFiles) {
  ::onnx::TensorProto proto;
  proto.set_name("t");
  proto.set_data_type(::onnx::TensorProto::INT32);
  proto.add_dims(2);
  proto.add_int32_data(-3);
  proto.add_int32_data(4);
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("tensor", "pb", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << proto.SerializeAsString();
  }
  FailureOr<Tensor> tensor = readTensorProtoFile(path, &ctx);
  ASSERT_TRUE(succeeded(tensor)) << messages();
  EXPECT_EQ(tensor->getElementType(), ElementType::I32);
  EXPECT_EQ(tensor->toInts(), (SmallVector<int64_t>{-3, 4}));

  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << "\xff\xff\xff";
  }
  EXPECT_TRUE(failed(readTensorProtoFile(path, &ctx)));
  EXPECT_EQ(messages(), "not a valid ONNX tensor (protobuf parse failed)\n");
  llvm::sys::fs::remove(path);
}

TEST_F(ImporterTest, ImportsModelsAboveProtobufsDefaultLimit) {
  // 17M floats: 68 MB of raw data, more than protobuf's default 64 MB.
  ::onnx::ModelProto model;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(R"(
    ir_version: 8
    opset_import { domain: "" version: 13 }
    graph {
      name: "large"
      node { op_type: "Shape" input: "w" output: "s" }
      initializer { name: "w" data_type: 1 dims: 17000000 }
      output { name: "s" type { tensor_type { elem_type: 7 shape { dim { dim_value: 1 } } } } }
    })",
                                                            &model));
  model.mutable_graph()->mutable_initializer(0)->set_raw_data(
      std::string(17000000 * sizeof(float), '\0'));
  std::string bytes = model.SerializeAsString();
  ASSERT_GT(bytes.size(), size_t(64) << 20);
  OwningOpRef<ModuleOp> module =
      importOnnxBuffer(bytes, "large.onnx", "", &ctx);
  ASSERT_TRUE(module) << messages();
  // The Shape of the initializer folds; the 68 MB constant goes away.
  Operation &ret = getMain(*module).front().back();
  DenseElementsAttr shape = getConstantValue(ret.getOperand(0));
  ASSERT_TRUE(shape);
  EXPECT_EQ(Tensor::fromAttr(shape)->toInts(),
            (SmallVector<int64_t>{17000000}));
}

} // namespace

//===- ModelReader.cpp - Reading and checking ONNX protobufs --------------===//

#include "dialect/onnx/import/ModelReader.h"

#include "dialect/onnx/import/OpsetMapping.h"

#include "llvm/ADT/StringExtras.h"

#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>

namespace onyx::onnx {

/// Protobuf's default limit of nested messages, kept explicitly.
static constexpr int kMaxMessageNesting = 100;

/// Parses `bytes` into `message`, up to protobuf's hard limit of 2 GB
/// rather than its default of 64 MB, which real models exceed.
static LogicalResult parseMessage(StringRef bytes,
                                  google::protobuf::MessageLite &message,
                                  Location loc, StringRef kind) {
  if (bytes.empty())
    return emitError(loc) << "not a valid " << kind << " (empty file)";
  if (bytes.size() > size_t(INT_MAX))
    return emitError(loc) << "not a valid " << kind
                          << " (protobuf cannot read more than 2 GB; large "
                             "weights must be stored as external data)";
  auto parse = [&](int recursionLimit) {
    google::protobuf::io::ArrayInputStream input(bytes.data(),
                                                 int(bytes.size()));
    google::protobuf::io::CodedInputStream coded(&input);
    coded.SetTotalBytesLimit(INT_MAX);
    coded.SetRecursionLimit(recursionLimit);
    return message.ParseFromCodedStream(&coded) &&
           coded.ConsumedEntireMessage();
  };
  // Protobuf's limit on nested messages (kMaxMessageNesting) is also what
  // bounds the nesting of subgraphs (If, Loop, Scan: node, attribute, graph
  // make three levels each), and so the importer's recursion over them.
  if (!parse(kMaxMessageNesting)) {
    // Said as such if the bytes parse without the limit (up to a bound
    // that keeps protobuf's own recursion off the end of the stack).
    message.Clear();
    if (parse(100 * kMaxMessageNesting))
      return emitError(loc)
             << "not a valid " << kind << " (messages nested deeper than "
             << kMaxMessageNesting
             << " levels, protobuf's limit; each subgraph of If, Loop or "
                "Scan nests three)";
    return emitError(loc) << "not a valid " << kind
                          << " (protobuf parse failed)";
  }
  return success();
}

LogicalResult parseModel(StringRef bytes, pb::ModelProto &model, Location loc) {
  if (failed(parseMessage(bytes, model, loc, "ONNX model")))
    return failure();
  // Protobuf accepts many byte strings (a prefix of a model cut at a field
  // boundary, say) as a message with parts missing.
  if (model.ir_version() <= 0)
    return emitError(loc) << "not a valid ONNX model (no IR version)";
  if (!model.has_graph())
    return emitError(loc) << "not a valid ONNX model (no graph)";
  return success();
}

LogicalResult parseTensor(StringRef bytes, pb::TensorProto &tensor,
                          Location loc) {
  return parseMessage(bytes, tensor, loc, "ONNX tensor");
}

/// Whether the installed ONNX library has a schema for every node of
/// `graph` in the ai.onnx domain (ONNX Runtime registers ops of its own
/// there, SimplifiedLayerNormalization, which the checker would reject).
static bool checkerKnowsOps(const pb::GraphProto &graph, int opset) {
  for (const pb::NodeProto &node : graph.node()) {
    if (isOnnxDomain(node.domain()) &&
        !pb::OpSchemaRegistry::Schema(node.op_type(), opset, ""))
      return false;
    for (const pb::AttributeProto &attr : node.attribute()) {
      if (attr.has_g() && !checkerKnowsOps(attr.g(), opset))
        return false;
      for (const pb::GraphProto &g : attr.graphs())
        if (!checkerKnowsOps(g, opset))
          return false;
    }
  }
  return true;
}

/// Whether the installed ONNX library knows the model's IR version, the
/// version of every opset the model imports and its ai.onnx ops. ONNX
/// Runtime's contrib domain is not ONNX's: the checker passes over its
/// nodes, which the dialect's own schemas and verifiers check.
static bool checkerKnowsVersions(const pb::ModelProto &model) {
  if (model.ir_version() > pb::IR_VERSION)
    return false;
  const auto &ranges =
      pb::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  int onnxOpset = 0;
  for (const pb::OperatorSetIdProto &opset : model.opset_import()) {
    if (opset.domain() == kMicrosoftDomain)
      continue;
    std::string domain = isOnnxDomain(opset.domain()) ? "" : opset.domain();
    if (domain.empty())
      onnxOpset = int(opset.version());
    auto it = ranges.find(domain);
    if (it == ranges.end() || opset.version() > it->second.second)
      return false;
  }
  return checkerKnowsOps(model.graph(), onnxOpset);
}

/// The checker's messages span several lines (a node is printed in the
/// middle); a diagnostic is one.
static std::string joinLines(StringRef message) {
  SmallVector<StringRef> words;
  llvm::SplitString(message, words);
  return llvm::join(words, " ");
}

LogicalResult checkModel(const pb::ModelProto &model, StringRef modelDir,
                         Location loc) {
  if (!checkerKnowsVersions(model))
    return success();
  try {
    pb::checker::CheckerContext context;
    context.set_ir_version(int(model.ir_version()));
    std::unordered_map<std::string, int> opsets;
    for (const pb::OperatorSetIdProto &opset : model.opset_import())
      opsets[opset.domain()] = int(opset.version());
    context.set_opset_imports(opsets);
    context.set_model_dir(modelDir.str());
    pb::checker::LexicalScopeContext scope;
    pb::checker::check_graph(model.graph(), context, scope);
    pb::checker::check_model_local_functions(model, context, scope);
  } catch (const std::exception &e) {
    return emitError(loc) << "the ONNX checker rejects the model: "
                          << joinLines(e.what());
  }
  return success();
}

} // namespace onyx::onnx

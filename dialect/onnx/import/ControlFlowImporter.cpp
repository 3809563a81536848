//===- ControlFlowImporter.cpp - If, Loop and Scan nodes ------------------===//
//
// Control flow nodes: their graph attributes become regions, each imported
// as a scope nested in its node's that may read the names around it. If
// with a condition known while importing takes its branch right away;
// Loop's and Scan's bodies are imported again with the carried types
// generalized until they yield what they take; Scan before opset 9 (a batch
// axis first) becomes one Scan of opset 9's form per batch element.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/import/GraphImporterImpl.h"

#include "dialect/onnx/ControlFlow.h"
#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OnnxDialect.h"

#include "ir/Block.h"
#include "ir/Operation.h"
#include "ir/Region.h"
#include "ir/Verifier.h"

#include "llvm/ADT/ScopeExit.h"

namespace onyx::onnx::detail {

FailureOr<const pb::GraphProto *>
GraphImporter::getGraphAttribute(const pb::NodeProto &node, StringRef name) {
  for (const pb::AttributeProto &attr : node.attribute())
    if (attr.name() == name) {
      if (!attr.has_g())
        return emitError(fileLoc)
               << "attribute '" << name << "' must be a graph";
      return &attr.g();
    }
  return emitError(fileLoc) << "attribute '" << name << "' is missing";
}

FailureOr<SmallVector<Value>>
GraphImporter::importSubgraph(const pb::GraphProto &graph, StringRef attrName,
                              Block *block, ArrayRef<Value> args) {
  if (graph.input_size() != int64_t(args.size()))
    return emitError(fileLoc)
           << "subgraph '" << attrName << "' has " << graph.input_size()
           << " inputs, expected " << uint64_t(args.size());
  if (graph.sparse_initializer_size())
    return emitError(fileLoc) << "sparse initializers are not supported";
  Scope sub;
  sub.parent = scope;
  sub.block = block;
  for (const pb::TensorProto &init : graph.initializer())
    sub.initializers[init.name()] = &init;
  for (const pb::ValueInfoProto &info : graph.value_info())
    sub.declared[info.name()].push_back(&info);
  for (const pb::ValueInfoProto &info : graph.output())
    sub.declared[info.name()].push_back(&info);
  for (auto [input, arg] : llvm::zip(graph.input(), args)) {
    const pb::TypeProto &type = input.type();
    if (type.has_tensor_type() &&
        type.tensor_type().elem_type() != pb::TensorProto::UNDEFINED &&
        convertDataType(type.tensor_type().elem_type()) !=
            getElementType(
                cast<RankedTensorType>(arg.getType()).getElementType()))
      return emitError(fileLoc)
             << "input '" << input.name() << "' of subgraph '" << attrName
             << "' is declared with element type "
             << getDataTypeName(type.tensor_type().elem_type())
             << ", but it takes values of type " << arg.getType();
    if (!sub.values.try_emplace(input.name(), arg).second)
      return emitError(fileLoc)
             << "input '" << input.name() << "' is listed twice";
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  Scope *outer = scope;
  scope = &sub;
  auto restore = llvm::make_scope_exit([&] { scope = outer; });
  for (const pb::NodeProto &node : graph.node())
    if (failed(importNode(node)))
      return failure();
  SmallVector<Value> outputs;
  for (const pb::ValueInfoProto &output : graph.output()) {
    FailureOr<Value> value = lookupValue(output.name());
    if (failed(value))
      return failure();
    if (failed(checkDeclaredTypes(output.name(), *value)))
      return failure();
    outputs.push_back(*value);
  }
  return outputs;
}

FailureOr<std::unique_ptr<Region>>
GraphImporter::importRegion(const pb::GraphProto &graph, StringRef attrName,
                            ArrayRef<Type> argTypes,
                            SmallVectorImpl<Value> &outputs) {
  auto region = std::make_unique<Region>();
  Block *block = new Block();
  region->push_back(block);
  SmallVector<Value> args;
  for (auto [type, input] : llvm::zip(argTypes, graph.input()))
    args.push_back(block->addArgument(
        type, NameLoc::get(StringAttr::get(ctx, input.name()))));
  FailureOr<SmallVector<Value>> results =
      importSubgraph(graph, attrName, block, args);
  if (failed(results))
    return failure();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  OperationState yield(fileLoc, kYieldName);
  yield.addOperands(*results);
  builder.create(yield);
  outputs.assign(results->begin(), results->end());
  return region;
}

FailureOr<std::unique_ptr<Region>> GraphImporter::importLoopBody(
    const pb::GraphProto &graph, SmallVector<Type> argTypes,
    unsigned numLeading, unsigned numCarried, SmallVectorImpl<Value> &outputs) {
  if (graph.input_size() != int64_t(argTypes.size()))
    return emitError(fileLoc)
           << "subgraph 'body' has " << graph.input_size()
           << " inputs, expected " << uint64_t(argTypes.size());
  // Each round makes at least one more dimension `?`, so this ends.
  while (true) {
    FailureOr<std::unique_ptr<Region>> region =
        importRegion(graph, "body", argTypes, outputs);
    if (failed(region))
      return failure();
    unsigned outputOffset = numLeading == 2 ? 1 : 0;
    if (outputs.size() < outputOffset + numCarried)
      return emitError(fileLoc)
             << "subgraph 'body' has " << uint64_t(outputs.size())
             << " outputs, expected at least " << outputOffset + numCarried;
    bool changed = false;
    for (unsigned i = 0; i < numCarried; ++i) {
      Type &carried = argTypes[numLeading + i];
      Type yielded = outputs[outputOffset + i].getType();
      Type merged = mergeTensorTypes(carried, yielded);
      if (!merged)
        return emitError(fileLoc)
               << "carried value #" << i << " of type " << carried
               << " becomes " << yielded
               << " in the body; its element type and rank must not change";
      changed |= merged != carried;
      carried = merged;
    }
    if (!changed)
      return region;
  }
}

LogicalResult
GraphImporter::importControlFlow(const pb::NodeProto &node, Location loc,
                                 SmallVector<Value> operands,
                                 SmallVectorImpl<Value> &results) {
  StringRef opType = node.op_type();
  std::string opName = ("onnx." + opType).str();
  OperationState state(loc, opName);
  SmallVector<Type> resultTypes;

  if (opType == "If") {
    if (operands.size() != 1)
      return emitError(fileLoc)
             << "If takes 1 input, got " << uint64_t(operands.size());
    FailureOr<const pb::GraphProto *> thenGraph =
        getGraphAttribute(node, "then_branch");
    FailureOr<const pb::GraphProto *> elseGraph =
        getGraphAttribute(node, "else_branch");
    if (failed(thenGraph) || failed(elseGraph))
      return failure();
    // A condition known while importing (a shape test, with the dims bound)
    // takes its branch right away, as canonicalization would.
    if (DenseElementsAttr cond = getConstantValue(operands[0])) {
      std::optional<Tensor> t = Tensor::fromAttr(cond);
      if (t && t->getNumElements() == 1) {
        bool taken = t->getInt(0) != 0;
        FailureOr<SmallVector<Value>> outputs =
            importSubgraph(**(taken ? thenGraph : elseGraph),
                           taken ? "then_branch" : "else_branch",
                           builder.getInsertionBlock(), {});
        if (failed(outputs))
          return failure();
        results.assign(outputs->begin(), outputs->end());
        return success();
      }
    }
    SmallVector<Value> thenOutputs, elseOutputs;
    FailureOr<std::unique_ptr<Region>> thenRegion =
        importRegion(**thenGraph, "then_branch", {}, thenOutputs);
    if (failed(thenRegion))
      return failure();
    FailureOr<std::unique_ptr<Region>> elseRegion =
        importRegion(**elseGraph, "else_branch", {}, elseOutputs);
    if (failed(elseRegion))
      return failure();
    if (thenOutputs.size() != elseOutputs.size())
      return emitError(fileLoc)
             << "then_branch has " << uint64_t(thenOutputs.size())
             << " outputs and else_branch " << uint64_t(elseOutputs.size());
    for (auto [i, a, b] : llvm::enumerate(thenOutputs, elseOutputs)) {
      Type merged = mergeTensorTypes(a.getType(), b.getType());
      if (!merged)
        return emitError(fileLoc)
               << "output #" << uint64_t(i) << " is " << a.getType()
               << " in then_branch and " << b.getType()
               << " in else_branch; the element type and rank must agree";
      resultTypes.push_back(merged);
    }
    state.addOperands(operands);
    state.addRegion(std::move(*thenRegion));
    state.addRegion(std::move(*elseRegion));
  } else if (opType == "Loop") {
    while (operands.size() < 2)
      operands.push_back(emitter->getNoValue());
    FailureOr<const pb::GraphProto *> body = getGraphAttribute(node, "body");
    if (failed(body))
      return failure();
    // The iteration number and condition are scalars; a body declaring
    // them of shape [1] gets them so.
    auto scalarType = [&](int index, ElementType type) -> Type {
      const pb::ValueInfoProto *info =
          index < (*body)->input_size() ? &(*body)->input(index) : nullptr;
      bool rank1 = info && info->type().tensor_type().has_shape() &&
                   info->type().tensor_type().shape().dim_size() == 1;
      return RankedTensorType::get(rank1 ? ArrayRef<int64_t>{1}
                                         : ArrayRef<int64_t>{},
                                   getIRType(ctx, type));
    };
    unsigned numCarried = operands.size() - 2;
    SmallVector<Type> argTypes = {scalarType(0, ElementType::I64),
                                  scalarType(1, ElementType::Bool)};
    for (Value v : ArrayRef<Value>(operands).drop_front(2))
      argTypes.push_back(v.getType());
    SmallVector<Value> outputs;
    FailureOr<std::unique_ptr<Region>> region =
        importLoopBody(**body, argTypes, 2, numCarried, outputs);
    if (failed(region))
      return failure();
    Block &block = (*region)->front();
    for (unsigned i = 0; i < numCarried; ++i)
      resultTypes.push_back(block.getArgument(2 + i).getType());
    // Every iteration runs when the trip count is a constant and no
    // condition can stop the loop early.
    int64_t trips = ShapedType::kDynamic;
    if (DenseElementsAttr m = getConstantValue(operands[0]))
      if (isNoValue(operands[1]))
        trips = Tensor::fromAttr(m)->getInt(0);
    for (Value scan : ArrayRef<Value>(outputs).drop_front(1 + numCarried)) {
      auto type = cast<RankedTensorType>(scan.getType());
      SmallVector<int64_t> shape = {trips};
      shape.append(type.getShape().begin(), type.getShape().end());
      resultTypes.push_back(
          RankedTensorType::get(shape, type.getElementType()));
    }
    state.addOperands(operands);
    state.addRegion(std::move(*region));
  } else {
    if (opset < 9)
      return importBatchedScan(node, loc, operands, results);
    FailureOr<const pb::GraphProto *> body = getGraphAttribute(node, "body");
    if (failed(body))
      return failure();
    NodeImporter importer(*emitter, node, opset, loc, operands, baseDir);
    importer.takeAttribute("body");
    FailureOr<SmallVector<NamedAttribute>> attrs = importer.convertAttributes();
    if (failed(attrs))
      return failure();
    const OpSchema &schema = *lookupOpSchema(opName);
    DictionaryAttr dict =
        normalizeAttributes(ctx, schema, DictionaryAttr::get(ctx, *attrs));
    if (failed(verifyAttributes(schema, dict, loc)))
      return failure();
    return createScan(**body, loc, operands, dict, results);
  }

  state.addTypes(resultTypes);
  return createControlFlowOp(state, results);
}

LogicalResult
GraphImporter::createControlFlowOp(OperationState &state,
                                   SmallVectorImpl<Value> &results) {
  Operation *op = builder.create(state);
  // A subgraph's region is not attached to the function yet, so values it
  // reads from outside cannot be checked there: the op that holds it is
  // verified, with everything nested, once it is in the main graph.
  if (scope == &mainScope && failed(verify(op))) {
    op->erase();
    return failure();
  }
  results.assign(op->getResults().begin(), op->getResults().end());
  return success();
}

LogicalResult GraphImporter::createScan(const pb::GraphProto &body,
                                        Location loc, ArrayRef<Value> operands,
                                        DictionaryAttr dict,
                                        SmallVectorImpl<Value> &results) {
  OperationState state(loc, "onnx.Scan");
  SmallVector<Type> resultTypes;
  OpAttrs read(*lookupOpSchema("onnx.Scan"), dict);
  int64_t numInputs = read.getInt("num_scan_inputs");
  if (numInputs < 1 || numInputs > int64_t(operands.size()))
    return emitError(fileLoc)
           << "num_scan_inputs is " << numInputs << ", but the node has "
           << uint64_t(operands.size()) << " inputs";
  unsigned numState = operands.size() - numInputs;
  SmallVector<int64_t> axes = read.getInts("scan_input_axes")
                                  .value_or(SmallVector<int64_t>(numInputs, 0));
  SmallVector<Type> argTypes;
  for (Value v : ArrayRef<Value>(operands).take_front(numState))
    argTypes.push_back(v.getType());
  int64_t length = ShapedType::kDynamic;
  for (auto [j, v] :
       llvm::enumerate(ArrayRef<Value>(operands).drop_front(numState))) {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t axis = j < axes.size() ? axes[j] : 0;
    if (axis < 0)
      axis += type.getRank();
    Type slice = getScanSliceType(type, axis);
    if (!slice)
      return emitError(fileLoc) << "scan input axis " << axes[j]
                                << " is out of range for " << Type(type);
    argTypes.push_back(slice);
    if (!ShapedType::isDynamic(type.getShape()[axis]))
      length = type.getShape()[axis];
  }
  SmallVector<Value> outputs;
  FailureOr<std::unique_ptr<Region>> region =
      importLoopBody(body, argTypes, 0, numState, outputs);
  if (failed(region))
    return failure();
  Block &block = (*region)->front();
  for (unsigned i = 0; i < numState; ++i)
    resultTypes.push_back(block.getArgument(i).getType());
  SmallVector<int64_t> outAxes =
      read.getInts("scan_output_axes")
          .value_or(SmallVector<int64_t>(outputs.size() - numState, 0));
  for (auto [k, scan] :
       llvm::enumerate(ArrayRef<Value>(outputs).drop_front(numState))) {
    auto type = cast<RankedTensorType>(scan.getType());
    SmallVector<int64_t> shape(type.getShape());
    int64_t axis = k < outAxes.size() ? outAxes[k] : 0;
    if (axis < 0)
      axis += type.getRank() + 1;
    if (axis < 0 || axis > type.getRank())
      return emitError(fileLoc)
             << "scan output axis " << outAxes[k]
             << " is out of range for rank " << type.getRank() + 1;
    shape.insert(shape.begin() + axis, length);
    resultTypes.push_back(RankedTensorType::get(shape, type.getElementType()));
  }
  state.addOperands(operands);
  state.addRegion(std::move(*region));
  for (const NamedAttribute &named : dict)
    state.addAttribute(named.name, named.value);
  state.addTypes(resultTypes);
  return createControlFlowOp(state, results);
}

LogicalResult
GraphImporter::importBatchedScan(const pb::NodeProto &node, Location loc,
                                 ArrayRef<Value> operands,
                                 SmallVectorImpl<Value> &results) {
  // Opset 8's Scan: an optional sequence_lens, then the states and the scan
  // inputs, each with a batch axis first (the scan inputs scan axis 1); the
  // body sees one batch element. Each element becomes a Scan of opset 9's
  // form on its slices (Gather on axis 0), and their results are stacked
  // again (Unsqueeze, Concat).
  const pb::GraphProto *body = nullptr;
  std::optional<int64_t> numInputs;
  SmallVector<int64_t> directions;
  for (const pb::AttributeProto &attr : node.attribute()) {
    if (attr.name() == "body" && attr.has_g())
      body = &attr.g();
    else if (attr.name() == "num_scan_inputs" && attr.has_i())
      numInputs = attr.i();
    else if (attr.name() == "directions")
      directions.assign(attr.ints().begin(), attr.ints().end());
    else
      return emitError(fileLoc) << "Scan (opset 8) has no attribute '"
                                << attr.name() << "' of this type";
  }
  if (!body || !numInputs)
    return emitError(fileLoc)
           << "Scan (opset 8) needs attributes 'body' and 'num_scan_inputs'";
  if (operands.empty())
    return emitError(fileLoc) << "Scan (opset 8) takes sequence_lens first";
  ArrayRef<Value> batched = operands.drop_front();
  if (*numInputs < 1 || *numInputs > int64_t(batched.size()))
    return emitError(fileLoc)
           << "num_scan_inputs is " << *numInputs << ", but the node has "
           << uint64_t(batched.size()) << " inputs after sequence_lens";
  unsigned numState = batched.size() - *numInputs;
  // Every operand has the batch axis; its size must be known to split it.
  int64_t batch = ShapedType::kDynamic, length = ShapedType::kDynamic;
  for (auto [i, v] : llvm::enumerate(batched)) {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t minRank = i < numState ? 1 : 2;
    if (type.getRank() < minRank)
      return emitError(fileLoc)
             << "Scan (opset 8) " << (i < numState ? "state" : "scan input")
             << " #" << uint64_t(i < numState ? i : i - numState)
             << " must have rank " << minRank
             << " or more (a batch axis first), got " << Type(type);
    if (i >= numState && !ShapedType::isDynamic(type.getShape()[1]))
      length = type.getShape()[1];
    int64_t size = type.getShape()[0];
    if (ShapedType::isDynamic(size))
      continue;
    if (!ShapedType::isDynamic(batch) && size != batch)
      return emitError(fileLoc) << "Scan (opset 8) operands have batch sizes "
                                << batch << " and " << size;
    batch = size;
  }
  if (ShapedType::isDynamic(batch) || batch < 1)
    return emitError(fileLoc)
           << "Scan (opset 8) needs a batch size of at least 1 known when "
              "importing, to scan each batch element";
  // sequence_lens gives each element its own length, at most the scan
  // inputs': that element scans its first ones, and its scan outputs are
  // zero after them (as ONNX Runtime fills them). It must be a constant,
  // checked here.
  SmallVector<int64_t> lengths;
  if (!isNoValue(operands[0])) {
    DenseElementsAttr lens = getConstantValue(operands[0]);
    if (!lens)
      return emitError(fileLoc)
             << "Scan (opset 8) with a sequence_lens known only at run time "
                "is not supported; it must be a constant (an initializer)";
    std::optional<Tensor> t = Tensor::fromAttr(lens);
    if (!t || t->getShape().size() != 1 || t->getNumElements() != batch)
      return emitError(fileLoc)
             << "Scan (opset 8) sequence_lens must have one length per batch "
                "element ("
             << batch << "), got " << lens.getType();
    if (ShapedType::isDynamic(length))
      return emitError(fileLoc)
             << "Scan (opset 8) with a sequence_lens needs the scan inputs' "
                "length known when importing";
    for (int64_t b = 0; b < batch; ++b) {
      int64_t n = t->getInt(b);
      if (n < 0 || n > length)
        return emitError(fileLoc)
               << "Scan (opset 8) sequence_lens[" << b << "] is " << n
               << ", outside [0, " << length << "], the scan inputs' length";
      lengths.push_back(n);
    }
  }
  SmallVector<NamedAttribute> attrs = {
      {StringAttr::get(ctx, "num_scan_inputs"), getIntAttr(ctx, *numInputs)}};
  if (!directions.empty())
    attrs.push_back({StringAttr::get(ctx, "scan_input_directions"),
                     getIntsAttr(ctx, directions)});
  DictionaryAttr dict = DictionaryAttr::get(ctx, attrs);
  auto ints = [&](ArrayRef<int64_t> values, ArrayRef<int64_t> shape) {
    return emitter->createConstant(
        loc, Tensor::fromInts(ElementType::I64, shape, values).toAttr(ctx));
  };
  Value axis0 = ints({0}, {1});
  SmallVector<SmallVector<Value>> stacked;
  for (int64_t b = 0; b < batch; ++b) {
    Value index = ints({b}, {});
    // The element's own length, where shorter than the scan inputs'.
    int64_t shorter = lengths.empty() || lengths[b] == length ? -1 : lengths[b];
    SmallVector<Value> slices;
    for (auto [i, v] : llvm::enumerate(batched)) {
      FailureOr<SmallVector<Value>> slice = emitter->create(
          loc, "onnx.Gather", {v, index},
          {{StringAttr::get(ctx, "axis"), builder.getI64IntegerAttr(0)}});
      if (succeeded(slice) && i >= numState && shorter >= 0)
        slice = emitter->create(
            loc, "onnx.Slice",
            {(*slice)[0], ints({0}, {1}), ints({shorter}, {1})});
      if (failed(slice))
        return failure();
      slices.push_back((*slice)[0]);
    }
    SmallVector<Value> scanned;
    if (failed(createScan(*body, loc, slices, dict, scanned)))
      return failure();
    stacked.resize(scanned.size());
    for (auto [k, v] : llvm::enumerate(scanned)) {
      if (k >= numState && shorter >= 0) {
        // Zeros after the element's length, up to the scan inputs'.
        int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
        SmallVector<int64_t> pads(2 * rank, 0);
        pads[rank] = length - shorter;
        FailureOr<SmallVector<Value>> padded =
            emitter->create(loc, "onnx.Pad", {v, ints(pads, {2 * rank})});
        if (failed(padded))
          return failure();
        v = (*padded)[0];
      }
      FailureOr<SmallVector<Value>> one =
          emitter->create(loc, "onnx.Unsqueeze", {v, axis0});
      if (failed(one))
        return failure();
      stacked[k].push_back((*one)[0]);
    }
  }
  for (ArrayRef<Value> parts : stacked) {
    if (parts.size() == 1) {
      results.push_back(parts[0]);
      continue;
    }
    FailureOr<SmallVector<Value>> all = emitter->create(
        loc, "onnx.Concat", parts,
        {{StringAttr::get(ctx, "axis"), builder.getI64IntegerAttr(0)}});
    if (failed(all))
      return failure();
    results.push_back((*all)[0]);
  }
  return success();
}

} // namespace onyx::onnx::detail

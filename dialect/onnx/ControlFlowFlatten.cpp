//===- ControlFlowFlatten.cpp - If, Loop and Scan as straight-line ops ----===//
//
// A GPU runs a stream of dispatches recorded once; it has no branch or loop
// between them. Control flow whose shape is known when compiling becomes
// straight-line ops instead: a Loop of constant trip count and a Scan of
// static length are unrolled, and an If on a condition known only at run
// time computes both branches and selects (if-conversion). What is left
// (a loop whose count is data, branches of different shapes) is an error
// saying why.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/ControlFlow.h"

#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"
#include "dialect/onnx/Tensor.h"

#include "ir/Block.h"
#include "ir/Builder.h"
#include "ir/Diagnostics.h"
#include "ir/Region.h"

namespace onyx::onnx {

namespace {

/// `current` with the sizes of `inferred` where `current` has `?`; null
/// where the two disagree.
Type refineType(Type current, Type inferred) {
  auto c = dyn_cast<RankedTensorType>(current);
  auto i = dyn_cast<RankedTensorType>(inferred);
  if (!c || !i || c.getElementType() != i.getElementType() ||
      c.getRank() != i.getRank())
    return {};
  SmallVector<int64_t> shape(c.getShape());
  for (auto [d, e] : llvm::zip(shape, i.getShape())) {
    if (ShapedType::isDynamic(d))
      d = e;
    else if (!ShapedType::isDynamic(e) && d != e)
      return {};
  }
  return RankedTensorType::get(shape, c.getElementType());
}

/// Refines the result types of `op` (an onnx op without regions) from its
/// operands; returns whether one changed.
bool refineOp(Operation *op) {
  const OpDef *def = lookupOpDef(op);
  if (!def || !def->infer || op->getNumRegions())
    return false;
  FailureOr<SmallVector<Type>> inferred;
  {
    // Inference that fails here failed before too (the op verified).
    ScopedDiagnosticCollector silence(op->getContext());
    inferred =
        inferResultTypes(*def, op->getOperands(), op->getAttrDictionary(),
                         op->getLoc(), op->getNumResults());
  }
  if (failed(inferred))
    return false;
  bool changed = false;
  for (unsigned i = 0,
                e = std::min<size_t>(op->getNumResults(), inferred->size());
       i < e; ++i) {
    Value result = op->getResult(i);
    Type refined = refineType(result.getType(), (*inferred)[i]);
    if (refined && refined != result.getType()) {
      result.setType(refined);
      changed = true;
    }
  }
  return changed;
}

int64_t countOps(Block &block) {
  int64_t n = 0;
  for (Operation &op : block)
    op.walk([&](Operation *) { ++n; });
  return n;
}

/// A constant of `type` (a tensor of one element) holding `value`.
Value createScalar(OpBuilder &b, Location loc, Type type, int64_t value) {
  auto tensor = cast<RankedTensorType>(type);
  Tensor t = Tensor::fromInts(*getElementType(tensor.getElementType()),
                              tensor.getShape(), {value});
  return createConstant(b, loc, t.toAttr(b.getContext()));
}

Value createInts(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  Tensor t =
      Tensor::fromInts(ElementType::I64, {int64_t(values.size())}, values);
  return createConstant(b, loc, t.toAttr(b.getContext()));
}

/// Clones the ops of `body` before the builder's insertion point with the
/// arguments mapped by `map`, refining each clone's types; returns the
/// values the body yields.
SmallVector<Value> cloneBody(OpBuilder &b, Block &body, IRMapping &map) {
  SmallVector<Value> yielded;
  for (Operation &op : body) {
    if (isOp(&op, kYieldName)) {
      for (Value v : op.getOperands())
        yielded.push_back(map.lookupOrDefault(v));
      break;
    }
    refineOp(b.clone(op, map));
  }
  return yielded;
}

/// The values of one scan output, one per iteration in the output's order,
/// stacked along `axis`; an empty output is a constant of no elements.
FailureOr<Value> stack(OpBuilder &b, Location loc, ArrayRef<Value> elements,
                       int64_t axis, Type resultType) {
  if (elements.empty()) {
    auto type = cast<RankedTensorType>(resultType);
    SmallVector<int64_t> shape(type.getShape());
    shape[axis] = 0;
    if (llvm::any_of(shape, ShapedType::isDynamic))
      return failure();
    Tensor empty =
        Tensor::fromInts(*getElementType(type.getElementType()), shape, {});
    return createConstant(b, loc, empty.toAttr(b.getContext()));
  }
  SmallVector<Value> parts;
  for (Value element : elements) {
    Operation *unsqueeze = createOp(b, loc, "onnx.Unsqueeze",
                                    {element, createInts(b, loc, {axis})});
    if (!unsqueeze)
      return failure();
    parts.push_back(unsqueeze->getResult(0));
  }
  if (parts.size() == 1)
    return parts.front();
  Operation *concat =
      createOp(b, loc, "onnx.Concat", parts,
               {{b.getStringAttr("axis"), b.getI64IntegerAttr(axis)}});
  if (!concat)
    return failure();
  return concat->getResult(0);
}

/// Follows Identity to the value it passes on.
Value skipIdentity(Value v) {
  while (Operation *def = getDefiningOp(v, "onnx.Identity"))
    v = def->getOperand(0);
  return v;
}

std::optional<int64_t> getScalarInt(Value v) {
  DenseElementsAttr attr = getConstantValue(v);
  if (!attr || attr.getNumElements() != 1)
    return std::nullopt;
  std::optional<Tensor> t = Tensor::fromAttr(attr);
  if (!t)
    return std::nullopt;
  return t->getInt(0);
}

LogicalResult unrollLoop(Operation *op, int64_t maxOps) {
  Value m = op->getOperand(0), cond = op->getOperand(1);
  Block &body = op->getRegion(0).front();
  if (isNoValue(m))
    return op->emitOpError()
           << "has no trip count: a while loop, whose iterations a condition "
              "computed at run time decides, does not run on Vulkan "
              "(--backend=ref runs it)";
  std::optional<int64_t> trips = getScalarInt(m);
  if (!trips)
    return op->emitOpError()
           << "has a trip count computed at run time; a loop runs on Vulkan "
              "unrolled, with a trip count known when compiling (bind the "
              "model's symbolic dimensions, or --backend=ref)";
  int64_t count = std::max<int64_t>(*trips, 0);
  if (!isNoValue(cond)) {
    std::optional<int64_t> initial = getScalarInt(cond);
    if (!initial)
      return op->emitOpError()
             << "has an initial condition computed at run time; a loop runs "
                "on Vulkan unrolled, every iteration known when compiling "
                "(--backend=ref runs it)";
    Value next = skipIdentity(body.back().getOperand(0));
    std::optional<int64_t> yielded = getScalarInt(next);
    // A condition the body yields as a constant false ends the loop after
    // its first iteration; one it computes may end it at any iteration.
    if (*initial == 0)
      count = 0;
    else if (yielded && *yielded == 0)
      count = std::min<int64_t>(count, 1);
    else if (next != body.getArgument(1) && !yielded)
      return op->emitOpError()
             << "has a body that computes its condition, which may end the "
                "loop early; a loop runs on Vulkan unrolled, every iteration "
                "known when compiling (--backend=ref runs it)";
  }
  int64_t bodyOps = countOps(body);
  if (count > 0 && bodyOps > maxOps / count)
    return op->emitOpError()
           << "would unroll to " << count << " iterations of " << bodyOps
           << " ops, more than the " << maxOps
           << " an unrolled loop may have on Vulkan (--backend=ref runs it)";

  unsigned numCarried = op->getNumOperands() - 2;
  unsigned numScans = op->getNumResults() - numCarried;
  Location loc = op->getLoc();
  OpBuilder b(op->getContext());
  b.setInsertionPoint(op);
  SmallVector<Value> carried(op->getOperands().begin() + 2,
                             op->getOperands().end());
  SmallVector<SmallVector<Value>> scans(numScans);
  for (int64_t i = 0; i < count; ++i) {
    IRMapping map;
    map.map(body.getArgument(0),
            createScalar(b, loc, body.getArgument(0).getType(), i));
    map.map(body.getArgument(1),
            createScalar(b, loc, body.getArgument(1).getType(), 1));
    for (unsigned c = 0; c < numCarried; ++c)
      map.map(body.getArgument(2 + c), carried[c]);
    SmallVector<Value> yielded = cloneBody(b, body, map);
    for (unsigned c = 0; c < numCarried; ++c)
      carried[c] = yielded[1 + c];
    for (unsigned k = 0; k < numScans; ++k)
      scans[k].push_back(yielded[1 + numCarried + k]);
  }
  SmallVector<Value> results(carried);
  for (unsigned k = 0; k < numScans; ++k) {
    FailureOr<Value> stacked =
        stack(b, loc, scans[k], 0, op->getResult(numCarried + k).getType());
    if (failed(stacked))
      return op->emitOpError() << "runs no iteration, and scan output #" << k
                               << " has no static size to make empty";
    results.push_back(*stacked);
  }
  replaceAndErase(op, results);
  return success();
}

LogicalResult unrollScan(Operation *op, int64_t maxOps) {
  FailureOr<ScanLayout> layout = getScanLayout(op);
  if (failed(layout))
    return failure();
  // Every scan input's length must be known: the unrolled iterations read
  // each input at constant indices, which one shorter at run time than
  // another's static length would overrun.
  int64_t length = 0;
  for (int64_t j = 0; j < layout->numInputs; ++j) {
    auto type =
        cast<RankedTensorType>(op->getOperand(layout->numState + j).getType());
    length = type.getShape()[layout->inputAxes[j]];
    if (ShapedType::isDynamic(length))
      return op->emitOpError()
             << "scans input #" << j
             << " whose length is known only at run time; a scan runs on "
                "Vulkan unrolled, its length known when compiling (bind the "
                "model's symbolic dimensions, or --backend=ref)";
  }
  Block &body = op->getRegion(0).front();
  int64_t bodyOps = countOps(body);
  if (length > 0 && bodyOps > maxOps / length)
    return op->emitOpError()
           << "would unroll to " << length << " iterations of " << bodyOps
           << " ops, more than the " << maxOps
           << " an unrolled scan may have on Vulkan (--backend=ref runs it)";

  Location loc = op->getLoc();
  OpBuilder b(op->getContext());
  b.setInsertionPoint(op);
  SmallVector<Value> state(op->getOperands().begin(),
                           op->getOperands().begin() + layout->numState);
  SmallVector<SmallVector<Value>> outputs(layout->numOutputs);
  for (int64_t t = 0; t < length; ++t) {
    IRMapping map;
    for (int64_t i = 0; i < layout->numState; ++i)
      map.map(body.getArgument(i), state[i]);
    for (int64_t j = 0; j < layout->numInputs; ++j) {
      int64_t index = layout->inputDirections[j] ? length - 1 - t : t;
      Value index0d =
          createConstant(b, loc,
                         Tensor::fromInts(ElementType::I64, {}, {index})
                             .toAttr(b.getContext()));
      Operation *slice =
          createOp(b, loc, "onnx.Gather",
                   {op->getOperand(layout->numState + j), index0d},
                   {{b.getStringAttr("axis"),
                     b.getI64IntegerAttr(layout->inputAxes[j])}});
      if (!slice)
        return failure();
      map.map(body.getArgument(layout->numState + j), slice->getResult(0));
    }
    SmallVector<Value> yielded = cloneBody(b, body, map);
    for (int64_t i = 0; i < layout->numState; ++i)
      state[i] = yielded[i];
    for (int64_t k = 0; k < layout->numOutputs; ++k)
      outputs[k].push_back(yielded[layout->numState + k]);
  }
  SmallVector<Value> results(state);
  for (int64_t k = 0; k < layout->numOutputs; ++k) {
    if (layout->outputDirections[k])
      std::reverse(outputs[k].begin(), outputs[k].end());
    FailureOr<Value> stacked =
        stack(b, loc, outputs[k], layout->outputAxes[k],
              op->getResult(layout->numState + k).getType());
    if (failed(stacked))
      return op->emitOpError() << "scans inputs of length 0, and scan output #"
                               << k << " has no static size to make empty";
    results.push_back(*stacked);
  }
  replaceAndErase(op, results);
  return success();
}

LogicalResult selectIfBranches(Operation *op) {
  // Canonicalization keeps an If on a constant condition whose branch
  // yields a more static type to a user that needs the If's (a return);
  // here the function's type follows.
  if (std::optional<int64_t> cond = getScalarInt(op->getOperand(0))) {
    OpBuilder b(op->getContext());
    b.setInsertionPoint(op);
    IRMapping map;
    replaceAndErase(op,
                    cloneBody(b, op->getRegion(*cond ? 0 : 1).front(), map));
    return success();
  }
  Operation *thenYield = &op->getRegion(0).front().back();
  Operation *elseYield = &op->getRegion(1).front().back();
  for (auto [i, a, b] :
       llvm::enumerate(thenYield->getOperands(), elseYield->getOperands())) {
    auto type = dyn_cast<RankedTensorType>(a.getType());
    if (a.getType() != b.getType() || !type || !type.hasStaticShape())
      return op->emitOpError()
             << "has a condition computed at run time, and its branches "
                "yield result #"
             << uint64_t(i) << " as " << a.getType() << " and " << b.getType()
             << "; on Vulkan both branches run and a select chooses, which "
                "needs equal static types (--backend=ref runs it)";
  }
  Location loc = op->getLoc();
  OpBuilder b(op->getContext());
  b.setInsertionPoint(op);
  IRMapping map;
  SmallVector<Value> thenValues = cloneBody(b, op->getRegion(0).front(), map);
  SmallVector<Value> elseValues = cloneBody(b, op->getRegion(1).front(), map);
  // A condition of shape [1] would broadcast a scalar result to [1].
  Value cond = op->getOperand(0);
  if (cast<RankedTensorType>(cond.getType()).getRank() != 0) {
    Operation *reshape =
        createOp(b, loc, "onnx.Reshape", {cond, createInts(b, loc, {})});
    if (!reshape)
      return failure();
    cond = reshape->getResult(0);
  }
  SmallVector<Value> results;
  for (auto [t, e] : llvm::zip(thenValues, elseValues)) {
    Operation *where = createOp(b, loc, "onnx.Where", {cond, t, e});
    if (!where)
      return failure();
    results.push_back(where->getResult(0));
  }
  replaceAndErase(op, results);
  return success();
}

} // namespace

bool hasRunTimeTripCount(Operation *op) {
  return isOp(op, "onnx.Loop") && !isNoValue(op->getOperand(0)) &&
         !getScalarInt(op->getOperand(0));
}

std::optional<int64_t> getLoopIterationLimit(Operation *op) {
  Block &body = op->getRegion(0).front();
  std::optional<int64_t> yielded =
      getScalarInt(skipIdentity(body.back().getOperand(0)));
  if (!isNoValue(op->getOperand(1)) && yielded && *yielded == 0)
    return 1;
  return std::nullopt;
}

/// Whether `a` and `b` are tensors of one element type and rank whose
/// static sizes agree.
static bool areCompatible(Type a, Type b) {
  auto x = dyn_cast<RankedTensorType>(a), y = dyn_cast<RankedTensorType>(b);
  if (!x || !y || x.getElementType() != y.getElementType() ||
      x.getRank() != y.getRank())
    return false;
  for (auto [m, n] : llvm::zip(x.getShape(), y.getShape()))
    if (!ShapedType::isDynamic(m) && !ShapedType::isDynamic(n) && m != n)
      return false;
  return true;
}

LogicalResult checkDeviceLoop(Operation *op, bool report) {
  auto fail = [&](auto &&write) -> LogicalResult {
    if (report) {
      InFlightDiagnostic diag = op->emitOpError();
      write(diag);
    }
    return failure();
  };
  const char *kRef = " (--backend=ref runs it)";
  Block &body = op->getRegion(0).front();
  Operation *yield = &body.back();
  if (!isNoValue(op->getOperand(1))) {
    Value next = skipIdentity(yield->getOperand(0));
    if (next != body.getArgument(1) && !getScalarInt(next))
      return fail([&](InFlightDiagnostic &d) {
        d << "has a body that computes its condition from data: a while "
             "loop, whose every iteration would need the condition read "
             "back before the next is recorded; on Vulkan a Loop runs a "
             "trip count known when it starts"
          << kRef;
      });
  }
  unsigned numCarried = op->getNumOperands() - 2;
  for (unsigned k = 0; k < numCarried; ++k) {
    Type init = op->getOperand(2 + k).getType();
    Type arg = body.getArgument(2 + k).getType();
    Type next = yield->getOperand(1 + k).getType();
    if (!areCompatible(init, arg) || !areCompatible(init, next) ||
        !areCompatible(arg, next))
      return fail([&](InFlightDiagnostic &d) {
        d << "carries value #" << k << " as " << init
          << " into the loop and as " << next
          << " out of an iteration; a Loop of a trip count known only at "
             "run time runs on Vulkan its body lowered once, which needs "
             "each carried value to keep its element type, rank and sizes"
          << kRef;
      });
  }
  unsigned numScans = op->getNumResults() - numCarried;
  for (unsigned j = 0; j < numScans; ++j) {
    Value slice = yield->getOperand(1 + numCarried + j);
    auto type = dyn_cast<RankedTensorType>(slice.getType());
    auto result =
        dyn_cast<RankedTensorType>(op->getResult(numCarried + j).getType());
    // A `?` size of a slice must be known before the loop, to allocate
    // every iteration's row: from the result's type, or from the carried
    // value the slice is.
    Value source = skipIdentity(slice);
    bool carried = false;
    for (unsigned k = 0; k < numCarried; ++k)
      carried |= source == skipIdentity(yield->getOperand(1 + k)) ||
                 source == body.getArgument(2 + k);
    bool known = type && result && result.getRank() == type.getRank() + 1;
    for (int64_t d = 0; known && d < type.getRank(); ++d)
      known = !ShapedType::isDynamic(type.getShape()[d]) ||
              !ShapedType::isDynamic(result.getShape()[d + 1]) || carried;
    if (!known)
      return fail([&](InFlightDiagnostic &d) {
        d << "yields scan output #" << j << " as " << slice.getType()
          << ", whose size is known only inside the body; a Loop of a trip "
             "count known only at run time allocates its scan outputs before "
             "the first iteration"
          << kRef;
      });
  }
  for (Operation &inner : body)
    for (unsigned r = 0; r < inner.getNumRegions(); ++r) {
      if (report)
        inner.emitOpError()
            << "is control flow in the body of a Loop whose trip count is "
               "known only at run time, which does not run on Vulkan"
            << kRef;
      return failure();
    }
  return success();
}

LogicalResult foldConditionIntoTripCount(Operation *op) {
  Value m = op->getOperand(0), cond = op->getOperand(1);
  Location loc = op->getLoc();
  OpBuilder b(op->getContext());
  b.setInsertionPoint(op);
  Value zero = createScalar(b, loc, m.getType(), 0);
  if (!isNoValue(cond)) {
    std::optional<int64_t> initial = getScalarInt(cond);
    if (initial && *initial == 0) {
      m = zero;
    } else if (!initial) {
      // A condition of shape [1] would make the count [1].
      if (cast<RankedTensorType>(cond.getType()).getRank() != 0) {
        Operation *reshape =
            createOp(b, loc, "onnx.Reshape", {cond, createInts(b, loc, {})});
        if (!reshape)
          return failure();
        cond = reshape->getResult(0);
      }
      Operation *where = createOp(b, loc, "onnx.Where", {cond, m, zero});
      if (!where)
        return failure();
      m = where->getResult(0);
    }
  }
  Operation *max = createOp(b, loc, "onnx.Max", {m, zero});
  if (!max)
    return failure();
  op->setOperand(0, max->getResult(0));
  return success();
}

LogicalResult flattenControlFlow(Operation *op, int64_t maxOps) {
  if (isOp(op, "onnx.Loop"))
    return unrollLoop(op, maxOps);
  if (isOp(op, "onnx.Scan"))
    return unrollScan(op, maxOps);
  return selectIfBranches(op);
}

bool refineResultTypes(Region &region) {
  bool changed = false;
  for (Block &block : region)
    for (Operation &op : block) {
      changed |= refineOp(&op);
      for (unsigned i = 0, e = op.getNumRegions(); i < e; ++i)
        changed |= refineResultTypes(op.getRegion(i));
    }
  return changed;
}

} // namespace onyx::onnx

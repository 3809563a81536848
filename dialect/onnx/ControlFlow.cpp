//===- ControlFlow.cpp - onnx.If, onnx.Loop and onnx.Scan -----------------===//
//
// The three ops are built with their regions (by the importer or the
// parser), so they have no inference of their own: their verifiers check
// the regions' signatures against the operands and results instead.
// Evaluating one runs its region block by block with the dialect's
// evaluator; values the region reads from enclosing scopes come from the
// caller (CapturedValues).
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/ControlFlow.h"

#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OpDef.h"

#include "ir/Block.h"
#include "ir/Operation.h"
#include "ir/Region.h"

#include "llvm/ADT/DenseMap.h"

namespace onyx::onnx {

Type mergeTensorTypes(Type a, Type b) {
  if (a == b)
    return a;
  auto ta = dyn_cast<RankedTensorType>(a);
  auto tb = dyn_cast<RankedTensorType>(b);
  if (!ta || !tb || ta.getElementType() != tb.getElementType() ||
      ta.getRank() != tb.getRank())
    return {};
  SmallVector<int64_t> shape;
  for (auto [da, db] : llvm::zip(ta.getShape(), tb.getShape()))
    shape.push_back(da == db ? da : ShapedType::kDynamic);
  return RankedTensorType::get(shape, ta.getElementType());
}

Type getScanSliceType(Type type, int64_t axis) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || axis < 0 || axis >= tensor.getRank())
    return {};
  SmallVector<int64_t> shape(tensor.getShape());
  shape.erase(shape.begin() + axis);
  return RankedTensorType::get(shape, tensor.getElementType());
}

namespace {

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

/// Whether a value of type `actual` may stand where `expected` is declared:
/// the same element type and rank, equal sizes where both are static.
bool isCompatible(Type actual, Type expected) {
  Type merged = mergeTensorTypes(actual, expected);
  if (!merged)
    return false;
  auto a = cast<RankedTensorType>(actual), e = cast<RankedTensorType>(expected);
  for (auto [da, de] : llvm::zip(a.getShape(), e.getShape()))
    if (da != de && !ShapedType::isDynamic(da) && !ShapedType::isDynamic(de))
      return false;
  return true;
}

/// `type` is a tensor of element type `element` with one element (rank 0,
/// or 1 of size 1 or `?`).
bool isScalarOf(Type type, ElementType element) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || getElementType(tensor.getElementType()) != element ||
      tensor.getRank() > 1)
    return false;
  return tensor.getRank() == 0 || tensor.getShape()[0] == 1 ||
         ShapedType::isDynamic(tensor.getShape()[0]);
}

/// `type` is a tensor of element type `element` that may hold one element:
/// any rank, every size 1 or `?`. If's condition is "a tensor of one
/// element" in ONNX; exporters give it shapes such as [1, 1] (a comparison
/// of a [1, 1] probability).
bool isOneElementOf(Type type, ElementType element) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || getElementType(tensor.getElementType()) != element)
    return false;
  return llvm::all_of(tensor.getShape(), [](int64_t d) {
    return d == 1 || ShapedType::isDynamic(d);
  });
}

/// The one block of region `i`, which must have `numArgs` arguments.
LogicalResult verifyBody(Operation *op, unsigned i, StringRef what) {
  Region &region = op->getRegion(i);
  if (!region.hasOneBlock())
    return op->emitOpError() << what << " must be a region of one block";
  return success();
}

/// The onnx.Yield ending region `i`, with `count` operands.
Operation *getYield(Operation *op, unsigned i, unsigned count, StringRef what) {
  Block &block = op->getRegion(i).front();
  Operation *yield = block.empty() ? nullptr : &block.back();
  if (!isOp(yield, kYieldName)) {
    op->emitOpError() << what << " must end with " << kYieldName;
    return nullptr;
  }
  if (yield->getNumOperands() != count) {
    yield->emitOpError() << "yields " << yield->getNumOperands()
                         << " values, but the enclosing "
                         << op->getName().getStringRef() << "'s " << what
                         << " must yield " << count;
    return nullptr;
  }
  return yield;
}

LogicalResult checkYielded(Operation *yield, unsigned i, Type expected,
                           StringRef what) {
  Type actual = yield->getOperand(i).getType();
  if (isCompatible(actual, expected))
    return success();
  return yield->emitOpError() << "value #" << i << " has type " << actual
                              << ", but " << what << " has type " << expected;
}

/// Stacks `slices` (of equal shapes) along a new axis `axis`, last first if
/// `reverse`. `resultType` gives the element shape when there are none.
Tensor stack(ArrayRef<Tensor> slices, int64_t axis, bool reverse,
             ElementType type, ArrayRef<int64_t> elementShape) {
  int64_t n = slices.size();
  SmallVector<int64_t> shape(elementShape);
  shape.insert(shape.begin() + axis, n);
  Tensor out(type, shape);
  if (n == 0)
    return out;
  size_t size = getByteSize(type);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < int64_t(elementShape.size()); ++d)
    (d < axis ? outer : inner) *= elementShape[d];
  char *dst = out.getMutableBytes().data();
  for (int64_t j = 0; j < n; ++j) {
    int64_t pos = reverse ? n - 1 - j : j;
    const char *src = slices[j].getBytes().data();
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(dst + (o * n + pos) * inner * size, src + o * inner * size,
                  inner * size);
  }
  return out;
}

/// Slice `index` of `t` along `axis`, the axis removed.
Tensor sliceAt(const Tensor &t, int64_t axis, int64_t index) {
  ArrayRef<int64_t> shape = t.getShape();
  SmallVector<int64_t> sliceShape(shape);
  sliceShape.erase(sliceShape.begin() + axis);
  Tensor out(t.getElementType(), sliceShape);
  size_t size = getByteSize(t.getElementType());
  int64_t outer = 1, inner = 1, n = shape[axis];
  for (int64_t d = 0; d < t.getRank(); ++d)
    if (d != axis)
      (d < axis ? outer : inner) *= shape[d];
  const char *src = t.getBytes().data();
  char *dst = out.getMutableBytes().data();
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(dst + o * inner * size, src + (o * n + index) * inner * size,
                inner * size);
  return out;
}

/// Runs the one block of `region` on `args`, appending what its onnx.Yield
/// yields. Values of enclosing scopes come from `outer`.
LogicalResult runRegion(Operation *parent, Region &region,
                        ArrayRef<Tensor> args, CapturedValues outer,
                        const EvalBudget &budget,
                        SmallVectorImpl<Tensor> &yielded) {
  Block &block = region.front();
  llvm::DenseMap<Value, Tensor> local;
  for (auto [arg, tensor] : llvm::zip_equal(block.getArguments(), args))
    local[arg] = tensor;
  auto lookup = [&](Value value) -> const Tensor * {
    auto it = local.find(value);
    if (it != local.end())
      return &it->second;
    return outer ? outer(value) : nullptr;
  };
  for (Operation &op : block) {
    SmallVector<Tensor> inputs;
    for (Value operand : op.getOperands()) {
      const Tensor *t = lookup(operand);
      if (!t)
        return op.emitOpError()
               << "reads a value of an enclosing scope that is not available "
                  "to this evaluation";
      inputs.push_back(*t);
    }
    if (isOp(&op, kYieldName)) {
      yielded.append(inputs.begin(), inputs.end());
      return success();
    }
    SmallVector<Tensor> outputs;
    if (isOp(&op, "onnx.Constant")) {
      DenseElementsAttr attr = getConstantValue(op.getResult(0));
      std::optional<Tensor> t = attr ? Tensor::fromAttr(attr) : std::nullopt;
      if (!t)
        return op.emitOpError("holds a value the evaluator cannot read");
      outputs.push_back(std::move(*t));
    } else if (failed(evaluate(&op, inputs, outputs, budget, lookup))) {
      return failure();
    }
    for (auto [result, tensor] : llvm::zip(op.getResults(), outputs))
      local[result] = std::move(tensor);
  }
  return parent->emitOpError("region has no terminator");
}

/// A scalar of `type`'s shape (rank 0 or [1]) holding `value`.
Tensor scalarLike(Type type, ElementType element, int64_t value) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensor.getRank(), 1);
  return Tensor::fromInts(element, shape, {value});
}

/// The static sizes of `type` with `?` as 0 (the element shape of a scan
/// output that no iteration produced).
SmallVector<int64_t> sizesOrZero(Type type) {
  SmallVector<int64_t> shape(cast<RankedTensorType>(type).getShape());
  for (int64_t &d : shape)
    if (ShapedType::isDynamic(d))
      d = 0;
  return shape;
}

/// Checks that each iteration's slice of scan output `k` has the shape of
/// the first.
LogicalResult checkSliceShape(EvalState &s, ArrayRef<Tensor> slices,
                              const Tensor &next, unsigned k) {
  if (slices.empty() || slices.front().getShape() == next.getShape())
    return success();
  return s.emitError() << "scan output #" << k
                       << " changes its shape between iterations";
}

//===----------------------------------------------------------------------===//
// onnx.If
//===----------------------------------------------------------------------===//

const ValueSpec ifOperands[] = {{"cond"}};
const ValueSpec ifResults[] = {{"outputs", Presence::Variadic}};

LogicalResult verifyIf(Operation *op) {
  if (op->getNumOperands() != 1)
    return op->emitOpError()
           << "expects 1 operand (the condition), got " << op->getNumOperands();
  if (!isOneElementOf(op->getOperand(0).getType(), ElementType::Bool))
    return op->emitOpError()
           << "operand 'cond' must be a tensor<i1> of one element, got "
           << op->getOperand(0).getType();
  if (op->getNumRegions() != 2)
    return op->emitOpError("expects two regions (then_branch and else_branch)");
  for (unsigned i = 0; i < 2; ++i) {
    StringRef what = i == 0 ? "then_branch" : "else_branch";
    if (failed(verifyBody(op, i, what)))
      return failure();
    if (op->getRegion(i).front().getNumArguments() != 0)
      return op->emitOpError() << what << " takes no arguments";
  }
  for (Type type : op->getResultTypes())
    if (!isa<RankedTensorType>(type) ||
        !getElementType(cast<RankedTensorType>(type).getElementType()))
      return op->emitOpError()
             << "results must be ranked tensors, got " << type;
  return verifyAttributes(lookupOpDef(op)->schema, op->getAttrDictionary(),
                          op->getLoc());
}

LogicalResult verifyIfRegions(Operation *op) {
  for (unsigned i = 0; i < 2; ++i) {
    StringRef what = i == 0 ? "then_branch" : "else_branch";
    Operation *yield = getYield(op, i, op->getNumResults(), what);
    if (!yield)
      return failure();
    for (unsigned r = 0; r < op->getNumResults(); ++r)
      if (failed(checkYielded(yield, r, op->getResult(r).getType(),
                              ("result #" + llvm::Twine(r)).str())))
        return failure();
  }
  return success();
}

LogicalResult evalIf(EvalState &s) {
  Operation *op = s.getOp();
  const Tensor &cond = s.input(0);
  if (cond.getNumElements() != 1)
    return s.emitError() << "condition has " << cond.getNumElements()
                         << " elements, expected 1";
  bool taken = cond.getInt(0) != 0;
  SmallVector<Tensor> yielded;
  if (failed(runRegion(op, op->getRegion(taken ? 0 : 1), {}, s.getCaptured(),
                       s.getBudget(), yielded)))
    return failure();
  for (Tensor &t : yielded)
    s.addOutput(std::move(t));
  return success();
}

/// An If on a constant condition becomes the ops of the branch it takes.
/// A branch may yield more static types than the If's results (which merge
/// both branches); it replaces them only where every user is an onnx op,
/// whose verifier accepts the more static operand.
LogicalResult inlineConstantIf(Operation *op, PatternRewriter &rewriter) {
  DenseElementsAttr cond = getConstantValue(op->getOperand(0));
  if (!cond || cond.getNumElements() != 1)
    return failure();
  std::optional<Tensor> t = Tensor::fromAttr(cond);
  if (!t)
    return failure();
  Region &region = op->getRegion(t->getInt(0) != 0 ? 0 : 1);
  Block &block = region.front();
  Operation *yield = &block.back();
  for (auto [result, value] :
       llvm::zip(op->getResults(), yield->getOperands())) {
    if (result.getType() == value.getType())
      continue;
    for (Operation *user : result.getUsers())
      if (!lookupOpDef(user) && !isOp(user, kYieldName))
        return failure();
  }
  SmallVector<Value> values(yield->getOperands().begin(),
                            yield->getOperands().end());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&block, op->getBlock(), op->getIterator());
  rewriter.replaceOp(op, values);
  return success();
}

void canonicalizeIf(PatternSet &patterns, Context *) {
  addPattern(patterns, "onnx.If", inlineConstantIf, "onnx-if-constant-cond");
}

const OpDef ifDef = [] {
  OpDef def{{"onnx.If", ifOperands, ifResults, {}, OpTrait::Pure}};
  def.evaluate = evalIf;
  def.canonicalize = canonicalizeIf;
  def.verify = verifyIf;
  def.verifyRegions = verifyIfRegions;
  return def;
}();

//===----------------------------------------------------------------------===//
// onnx.Loop
//===----------------------------------------------------------------------===//

// The carried values may be none at all; the verifier checks the counts.
const ValueSpec loopOperands[] = {{"M", Presence::Optional},
                                  {"cond", Presence::Optional},
                                  {"v_initial", Presence::Variadic}};
const ValueSpec loopResults[] = {
    {"v_final_and_scan_outputs", Presence::Variadic}};

LogicalResult verifyLoop(Operation *op) {
  unsigned n = op->getNumOperands();
  if (n < 2)
    return op->emitOpError()
           << "expects the operands M, cond and the carried values, got " << n
           << " operands";
  Type m = op->getOperand(0).getType(), cond = op->getOperand(1).getType();
  if (!isa<NoneType>(m) && !isScalarOf(m, ElementType::I64))
    return op->emitOpError()
           << "operand 'M' must be none or a tensor<i64> of one element, got "
           << m;
  if (!isa<NoneType>(cond) && !isScalarOf(cond, ElementType::Bool))
    return op->emitOpError()
           << "operand 'cond' must be none or a tensor<i1> of one element, "
              "got "
           << cond;
  if (isa<NoneType>(m) && isa<NoneType>(cond))
    return op->emitOpError("has neither a trip count 'M' nor a condition "
                           "'cond': it would never end");
  unsigned numCarried = n - 2;
  if (op->getNumResults() < numCarried)
    return op->emitOpError() << "has " << op->getNumResults() << " results for "
                             << numCarried << " carried values";
  if (op->getNumRegions() != 1 || failed(verifyBody(op, 0, "body")))
    return op->emitOpError("expects one region (the body) of one block");
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 2 + numCarried)
    return op->emitOpError()
           << "body takes " << body.getNumArguments()
           << " arguments, expected the iteration number, the condition and "
           << numCarried << " carried values";
  if (!isScalarOf(body.getArgument(0).getType(), ElementType::I64))
    return op->emitOpError()
           << "body's iteration number must be a tensor<i64> of one element";
  if (!isScalarOf(body.getArgument(1).getType(), ElementType::Bool))
    return op->emitOpError()
           << "body's condition must be a tensor<i1> of one element";
  for (unsigned i = 0; i < numCarried; ++i) {
    Type arg = body.getArgument(2 + i).getType();
    if (!isCompatible(op->getOperand(2 + i).getType(), arg))
      return op->emitOpError() << "carried value #" << i << " has type "
                               << op->getOperand(2 + i).getType()
                               << ", but the body takes " << arg;
    if (!isCompatible(op->getResult(i).getType(), arg))
      return op->emitOpError()
             << "result #" << i << " has type " << op->getResult(i).getType()
             << ", but the body carries " << arg;
  }
  return verifyAttributes(lookupOpDef(op)->schema, op->getAttrDictionary(),
                          op->getLoc());
}

LogicalResult verifyLoopRegions(Operation *op) {
  unsigned numCarried = op->getNumOperands() - 2;
  unsigned numScans = op->getNumResults() - numCarried;
  Block &body = op->getRegion(0).front();
  Operation *yield = getYield(op, 0, 1 + numCarried + numScans, "body");
  if (!yield)
    return failure();
  if (!isScalarOf(yield->getOperand(0).getType(), ElementType::Bool))
    return yield->emitOpError()
           << "value #0 (the condition) must be a tensor<i1> of one element";
  for (unsigned i = 0; i < numCarried; ++i)
    if (failed(checkYielded(yield, 1 + i, body.getArgument(2 + i).getType(),
                            "the carried value")))
      return failure();
  for (unsigned k = 0; k < numScans; ++k) {
    Type element = yield->getOperand(1 + numCarried + k).getType();
    Type result = op->getResult(numCarried + k).getType();
    Type slice = getScanSliceType(result, 0);
    if (!slice || !isCompatible(element, slice))
      return op->emitOpError()
             << "scan output #" << k << " has type " << result
             << ", which does not stack values of type " << element;
  }
  return success();
}

LogicalResult evalLoop(EvalState &s) {
  Operation *op = s.getOp();
  Block &body = op->getRegion(0).front();
  bool hasM = s.hasInput(0), hasCond = s.hasInput(1);
  if (!hasM && !hasCond)
    return s.emitError() << "has neither a trip count nor a condition";
  int64_t tripCount = hasM ? s.input(0).getInt(0) : kMaxWhileIterations;
  bool cond = !hasCond || s.input(1).getInt(0) != 0;
  unsigned numCarried = op->getNumOperands() - 2;
  unsigned numScans = op->getNumResults() - numCarried;
  SmallVector<Tensor> carried(s.getInputs().drop_front(2));
  SmallVector<SmallVector<Tensor>> scans(numScans);
  // The scan outputs' slices grow with every iteration: they count against
  // the memory budget as they come, so that a trip count too large for it
  // (one known only at run time) fails at the iteration that passes it
  // rather than exhausting memory.
  EvalBudget budget = s.getBudget();
  uint64_t scanBytes = 0;
  int64_t i = 0;
  for (; i < tripCount && cond; ++i) {
    SmallVector<Tensor> args;
    args.push_back(
        scalarLike(body.getArgument(0).getType(), ElementType::I64, i));
    args.push_back(
        scalarLike(body.getArgument(1).getType(), ElementType::Bool, cond));
    args.append(carried.begin(), carried.end());
    SmallVector<Tensor> yielded;
    if (failed(runRegion(op, op->getRegion(0), args, s.getCaptured(), budget,
                         yielded)))
      return failure();
    // Without a condition operand the body's is ignored (ONNX's `for`).
    if (hasCond)
      cond = yielded[0].getInt(0) != 0;
    for (unsigned c = 0; c < numCarried; ++c)
      carried[c] = std::move(yielded[1 + c]);
    for (unsigned k = 0; k < numScans; ++k) {
      Tensor &next = yielded[1 + numCarried + k];
      if (failed(checkSliceShape(s, scans[k], next, k)))
        return failure();
      scanBytes += next.getNumBytes();
      scans[k].push_back(std::move(next));
    }
    uint64_t needed = s.getBudget().liveBytes + scanBytes;
    if (numScans && needed > s.getBudget().maxBytes)
      return s.emitError() << "scan outputs take " << scanBytes
                           << " bytes after " << i + 1 << " iterations"
                           << (hasM ? " (trip count " +
                                          std::to_string(tripCount) + ")"
                                    : std::string())
                           << "; with " << s.getBudget().liveBytes
                           << " bytes of tensors live, that exceeds the "
                              "memory budget of "
                           << s.getBudget().maxBytes << " bytes (--max-memory)";
    budget.liveBytes = needed;
  }
  if (!hasM && cond)
    return s.emitError() << "condition is still true after "
                         << kMaxWhileIterations
                         << " iterations; a loop without a trip count stops "
                            "there";
  for (Tensor &t : carried)
    s.addOutput(std::move(t));
  for (unsigned k = 0; k < numScans; ++k) {
    Type result = op->getResult(numCarried + k).getType();
    SmallVector<int64_t> elementShape =
        scans[k].empty() ? sizesOrZero(getScanSliceType(result, 0))
                         : SmallVector<int64_t>(scans[k].front().getShape());
    ElementType type =
        *getElementType(cast<RankedTensorType>(result).getElementType());
    s.addOutput(stack(scans[k], 0, false, type, elementShape));
  }
  return success();
}

const OpDef loopDef = [] {
  OpDef def{{"onnx.Loop", loopOperands, loopResults, {}, OpTrait::Pure}};
  def.evaluate = evalLoop;
  def.verify = verifyLoop;
  def.verifyRegions = verifyLoopRegions;
  return def;
}();

//===----------------------------------------------------------------------===//
// onnx.Scan
//===----------------------------------------------------------------------===//

const ValueSpec scanOperands[] = {
    {"initial_state_and_scan_inputs", Presence::Variadic}};
const ValueSpec scanResults[] = {
    {"final_state_and_scan_outputs", Presence::Variadic}};
const AttrSpec scanAttrs[] = {
    requiredAttr("num_scan_inputs", AttrType::Int),
    optionalAttr("scan_input_axes", AttrType::Ints),
    optionalAttr("scan_input_directions", AttrType::Ints),
    optionalAttr("scan_output_axes", AttrType::Ints),
    optionalAttr("scan_output_directions", AttrType::Ints),
};

/// Reads `name` (one entry per scan input or output, default `fill`).
LogicalResult readPerScan(Operation *op, const OpAttrs &attrs, StringRef name,
                          int64_t count, int64_t fill,
                          SmallVectorImpl<int64_t> &values) {
  std::optional<SmallVector<int64_t>> given = attrs.getInts(name);
  if (!given) {
    values.assign(count, fill);
    return success();
  }
  if (int64_t(given->size()) != count)
    return op->emitOpError()
           << "attribute '" << name << "' has " << uint64_t(given->size())
           << " entries, expected " << count;
  values.assign(given->begin(), given->end());
  return success();
}

} // namespace

FailureOr<ScanLayout> getScanLayout(Operation *op) {
  OpAttrs attrs(op);
  ScanLayout layout;
  layout.numInputs = attrs.getInt("num_scan_inputs");
  int64_t n = op->getNumOperands();
  if (layout.numInputs < 1 || layout.numInputs > n)
    return op->emitOpError()
           << "attribute 'num_scan_inputs' is " << layout.numInputs
           << ", but the op has " << n << " operands";
  layout.numState = n - layout.numInputs;
  if (int64_t(op->getNumResults()) < layout.numState)
    return op->emitOpError() << "has " << op->getNumResults() << " results for "
                             << layout.numState << " state values";
  layout.numOutputs = op->getNumResults() - layout.numState;
  if (failed(readPerScan(op, attrs, "scan_input_axes", layout.numInputs, 0,
                         layout.inputAxes)) ||
      failed(readPerScan(op, attrs, "scan_input_directions", layout.numInputs,
                         0, layout.inputDirections)) ||
      failed(readPerScan(op, attrs, "scan_output_axes", layout.numOutputs, 0,
                         layout.outputAxes)) ||
      failed(readPerScan(op, attrs, "scan_output_directions", layout.numOutputs,
                         0, layout.outputDirections)))
    return failure();
  for (int64_t d :
       llvm::concat<int64_t>(layout.inputDirections, layout.outputDirections))
    if (d != 0 && d != 1)
      return op->emitOpError()
             << "scan directions must be 0 (forward) or 1 (reverse), got " << d;
  for (int64_t j = 0; j < layout.numInputs; ++j) {
    auto type = dyn_cast<RankedTensorType>(
        op->getOperand(layout.numState + j).getType());
    if (!type)
      return op->emitOpError()
             << "scan input #" << j << " must be a ranked tensor";
    int64_t &axis = layout.inputAxes[j];
    if (axis < -type.getRank() || axis >= type.getRank())
      return op->emitOpError() << "scan input axis " << axis
                               << " is out of range for " << Type(type);
    if (axis < 0)
      axis += type.getRank();
  }
  for (int64_t k = 0; k < layout.numOutputs; ++k) {
    auto type = dyn_cast<RankedTensorType>(
        op->getResult(layout.numState + k).getType());
    if (!type)
      return op->emitOpError()
             << "scan output #" << k << " must be a ranked tensor";
    int64_t &axis = layout.outputAxes[k];
    if (axis < -type.getRank() || axis >= type.getRank())
      return op->emitOpError() << "scan output axis " << axis
                               << " is out of range for " << Type(type);
    if (axis < 0)
      axis += type.getRank();
  }
  return layout;
}

namespace {

LogicalResult verifyScan(Operation *op) {
  const OpSchema &schema = lookupOpDef(op)->schema;
  if (failed(verifyAttributes(schema, op->getAttrDictionary(), op->getLoc())))
    return failure();
  FailureOr<ScanLayout> layout = getScanLayout(op);
  if (failed(layout))
    return failure();
  if (op->getNumRegions() != 1 || failed(verifyBody(op, 0, "body")))
    return op->emitOpError("expects one region (the body) of one block");
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != layout->numState + layout->numInputs)
    return op->emitOpError()
           << "body takes " << body.getNumArguments() << " arguments, expected "
           << layout->numState << " state values and " << layout->numInputs
           << " scan input slices";
  for (int64_t i = 0; i < layout->numState; ++i) {
    Type arg = body.getArgument(i).getType();
    if (!isCompatible(op->getOperand(i).getType(), arg) ||
        !isCompatible(op->getResult(i).getType(), arg))
      return op->emitOpError()
             << "state value #" << i << " has type "
             << op->getOperand(i).getType() << " and result type "
             << op->getResult(i).getType() << ", but the body takes " << arg;
  }
  int64_t length = ShapedType::kDynamic;
  for (int64_t j = 0; j < layout->numInputs; ++j) {
    Type input = op->getOperand(layout->numState + j).getType();
    int64_t axis = layout->inputAxes[j];
    Type arg = body.getArgument(layout->numState + j).getType();
    if (!isCompatible(getScanSliceType(input, axis), arg))
      return op->emitOpError() << "scan input #" << j << " of type " << input
                               << " along axis " << axis
                               << " gives slices that the body's argument of "
                                  "type "
                               << arg << " does not take";
    int64_t d = cast<RankedTensorType>(input).getShape()[axis];
    if (ShapedType::isDynamic(d))
      continue;
    if (!ShapedType::isDynamic(length) && d != length)
      return op->emitOpError() << "scan inputs have different lengths ("
                               << length << " and " << d << ")";
    length = d;
  }
  return success();
}

LogicalResult verifyScanRegions(Operation *op) {
  FailureOr<ScanLayout> layout = getScanLayout(op);
  if (failed(layout))
    return failure();
  Block &body = op->getRegion(0).front();
  Operation *yield =
      getYield(op, 0, layout->numState + layout->numOutputs, "body");
  if (!yield)
    return failure();
  for (int64_t i = 0; i < layout->numState; ++i)
    if (failed(checkYielded(yield, i, body.getArgument(i).getType(),
                            "the state value")))
      return failure();
  for (int64_t k = 0; k < layout->numOutputs; ++k) {
    Type element = yield->getOperand(layout->numState + k).getType();
    Type result = op->getResult(layout->numState + k).getType();
    Type slice = getScanSliceType(result, layout->outputAxes[k]);
    if (!slice || !isCompatible(element, slice))
      return op->emitOpError()
             << "scan output #" << k << " has type " << result
             << ", which does not stack values of type " << element
             << " along axis " << layout->outputAxes[k];
  }
  return success();
}

LogicalResult evalScan(EvalState &s) {
  Operation *op = s.getOp();
  FailureOr<ScanLayout> layout = getScanLayout(op);
  if (failed(layout))
    return failure();
  int64_t length = -1;
  for (int64_t j = 0; j < layout->numInputs; ++j) {
    const Tensor &t = s.input(layout->numState + j);
    int64_t d = t.getShape()[layout->inputAxes[j]];
    if (length >= 0 && d != length)
      return s.emitError() << "scan inputs have different lengths (" << length
                           << " and " << d << ")";
    length = d;
  }
  SmallVector<Tensor> state(s.getInputs().take_front(layout->numState));
  SmallVector<SmallVector<Tensor>> outputs(layout->numOutputs);
  for (int64_t t = 0; t < length; ++t) {
    SmallVector<Tensor> args(state);
    for (int64_t j = 0; j < layout->numInputs; ++j) {
      int64_t index = layout->inputDirections[j] ? length - 1 - t : t;
      args.push_back(
          sliceAt(s.input(layout->numState + j), layout->inputAxes[j], index));
    }
    SmallVector<Tensor> yielded;
    if (failed(runRegion(op, op->getRegion(0), args, s.getCaptured(),
                         s.getBudget(), yielded)))
      return failure();
    for (int64_t i = 0; i < layout->numState; ++i)
      state[i] = std::move(yielded[i]);
    for (int64_t k = 0; k < layout->numOutputs; ++k) {
      Tensor &next = yielded[layout->numState + k];
      if (failed(checkSliceShape(s, outputs[k], next, k)))
        return failure();
      outputs[k].push_back(std::move(next));
    }
  }
  for (Tensor &t : state)
    s.addOutput(std::move(t));
  for (int64_t k = 0; k < layout->numOutputs; ++k) {
    Type result = op->getResult(layout->numState + k).getType();
    int64_t axis = layout->outputAxes[k];
    SmallVector<int64_t> elementShape =
        outputs[k].empty()
            ? sizesOrZero(getScanSliceType(result, axis))
            : SmallVector<int64_t>(outputs[k].front().getShape());
    ElementType type =
        *getElementType(cast<RankedTensorType>(result).getElementType());
    s.addOutput(stack(outputs[k], axis, layout->outputDirections[k] != 0, type,
                      elementShape));
  }
  return success();
}

const OpDef scanDef = [] {
  OpDef def{{"onnx.Scan", scanOperands, scanResults, scanAttrs, OpTrait::Pure}};
  def.evaluate = evalScan;
  def.verify = verifyScan;
  def.verifyRegions = verifyScanRegions;
  return def;
}();

} // namespace

void appendControlFlowOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&ifDef);
  defs.push_back(&loopDef);
  defs.push_back(&scanDef);
}

} // namespace onyx::onnx

//===- CacheAppend.cpp - A decoder's key/value cache appended in place ----===//
//
// A decoder in the exporters' interface takes its cache as an argument
// `past` [b, H, p, d] and returns `present` = Concat(past, new, axis 2)
// [b, H, p + s, d], which the caller feeds back as the next step's past.
// When the caller keeps the cache on the device (an argument marked
// `gpu.state`, as onyx-run --generate marks them), the lowering stores it
// in the runtime's state memory for that argument (gpu.alloc {state}) in
// the order [t, b, H, d]: positions outermost, so that the past of p
// positions is a prefix of the present's memory and a step writes only its
// s new rows, after the p the state holds. Nothing copies the cache, and a
// state grown to more positions keeps its bytes where they are.
//
// The present is returned as a permuted download of the state (the runtime
// keeps it there), and the Attention kernel reads its keys and values in
// that order (AttentionKernels.cpp). Any other reader of the present or of
// the past leaves the Concat as it was, with the runtime copying the
// cache in and out of its state.
//
//===----------------------------------------------------------------------===//
#include "lowering/DataMovement.h"

#include "dialect/gpu/HostOps.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/BuiltinOps.h"
#include "ir/Operation.h"

namespace onyx::lowering {

using namespace datamovement;

namespace {

constexpr StringRef kStateAttr = "gpu.state";

/// Whether `use` reads only the dims of its value: an onnx.Shape or Size,
/// or the gpu.dim ops the conversion made for an argument.
bool readsDims(OpOperand &use) {
  return isDimsOnlyUse(use) || isa<gpu::DimOp>(use.getOwner());
}

/// Whether `value` is an argument of the function being lowered that its
/// caller keeps in a state (the `gpu.state` argument attribute).
bool isStateArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return false;
  auto func = dyn_cast_or_null<FuncOp>(arg.getOwner()->getParentOp());
  if (!func || &func.front() != arg.getOwner())
    return false;
  DictionaryAttr attrs = func.getArgAttrDict(arg.getArgNumber());
  return attrs && attrs.get(kStateAttr);
}

/// The Concat's shape of a cache append, without looking at its readers:
/// Concat(state argument, new) along axis 2 of rank 4 with the heads and
/// head size known, the argument read by nothing else.
bool isAppendShaped(Operation *op) {
  if (!op || op->getName().getStringRef() != "onnx.Concat" ||
      op->getNumOperands() != 2)
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || type.getRank() != 4 ||
      ShapedType::isDynamic(type.getShape()[1]) ||
      ShapedType::isDynamic(type.getShape()[3]))
    return false;
  int64_t axis = onnx::OpAttrs(op).getInt("axis");
  if (axis != 2 && axis != -2)
    return false;
  Value past = op->getOperand(0);
  return isStateArgument(past) &&
         llvm::all_of(past.getUses(), [&](OpOperand &use) {
           return use.getOwner() == op || readsDims(use);
         });
}

/// Whether `use` is an Attention reading keys or values that it can read in
/// the cache's order: both of them appends.
bool isAttentionReadingCache(OpOperand &use) {
  Operation *user = use.getOwner();
  if (user->getName().getStringRef() != "onnx.Attention" ||
      (use.getOperandNumber() != 1 && use.getOperandNumber() != 2) ||
      user->getNumOperands() > 4)
    return false;
  return isAppendShaped(user->getOperand(1).getDefiningOp()) &&
         isAppendShaped(user->getOperand(2).getDefiningOp());
}

} // namespace

bool isCacheAppend(Operation *op) {
  if (!isAppendShaped(op))
    return false;
  unsigned returned = 0;
  for (OpOperand &use : op->getResult(0).getUses()) {
    if (use.getOwner()->hasTrait(OpTrait::ReturnLike)) {
      ++returned;
      continue;
    }
    if (!isDimsOnlyUse(use) && !isAttentionReadingCache(use))
      return false;
  }
  return returned == 1;
}

bool isCacheArgument(BlockArgument arg) {
  if (!isStateArgument(arg))
    return false;
  bool appended = false;
  for (OpOperand &use : arg.getUses()) {
    if (readsDims(use))
      continue;
    if (!isCacheAppend(use.getOwner()) || use.getOperandNumber() != 0)
      return false;
    appended = true;
  }
  return appended;
}

bool isReadFromCache(Value value) {
  return isCacheAppend(value.getDefiningOp());
}

namespace datamovement {

LogicalResult lowerCacheAppend(Operation *op, LoweringContext &ctx,
                               unsigned byteSize) {
  auto past = cast<BlockArgument>(op->getOperand(0));
  Value fresh = op->getOperand(1);
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  Symbols symbols(ctx);
  SmallVector<Poly> pastDims = getDims(symbols, past);
  SmallVector<Poly> newDims = getDims(symbols, fresh);
  if (pastDims.size() != 4 || newDims.size() != 4)
    return failure();
  for (int64_t d : {0, 1, 3})
    if (failed(checkAtRunTime(symbols, "gpu.eqi", newDims[d], pastDims[d],
                              "input 1 has {0} elements along axis " +
                                  std::to_string(d) +
                                  " where input 0 has {1}")))
      return failure();
  Poly batch = pastDims[0], heads = pastDims[1], rows = pastDims[2];
  Poly total = rows + newDims[2], headSize = pastDims[3];
  SmallVector<Poly> outDims =
      resultDims(outType, {batch, heads, total, headSize});

  // The state's memory, positions outermost.
  SmallVector<Poly> stateDims = {outDims[2], outDims[0], outDims[1],
                                 outDims[3]};
  SmallVector<int64_t> stateShape = {
      outType.getShape()[2], outType.getShape()[0], outType.getShape()[1],
      outType.getShape()[3]};
  Value state =
      ctx.allocate(RankedTensorType::get(stateShape, outType.getElementType()),
                   symbols.materialize(stateDims));
  state.getDefiningOp()->setAttr(
      "state", ctx.getBuilder().getI64IntegerAttr(past.getArgNumber()));
  ctx.setResult(op->getResult(0), state);
  ctx.setDims(op->getResult(0), symbols.materialize(outDims));

  // The new rows after the past's: element [b, h, i, c] of the new tensor
  // goes to position rows + i of the state.
  CopyPiece piece;
  piece.shape = newDims;
  piece.srcStrides = getStrides(newDims);
  // A Transpose read in place: its input's strides, permuted.
  if (Operation *def = fresh.getDefiningOp();
      def && isTransposeReadByCopies(def)) {
    SmallVector<Poly> inStrides =
        getStrides(getDims(symbols, def->getOperand(0)));
    if (inStrides.size() != 4)
      return failure();
    std::optional<SmallVector<int64_t>> perm =
        onnx::OpAttrs(def).getInts("perm");
    if (!perm || perm->size() != 4)
      return failure();
    for (int64_t d = 0; d < 4; ++d)
      piece.srcStrides[d] = inStrides[(*perm)[d]];
  }
  SmallVector<Poly> stateStrides = getStrides(stateDims);
  piece.dstStrides = {stateStrides[1], stateStrides[2], stateStrides[0],
                      stateStrides[3]};
  piece.dstBase = rows * stateStrides[0];
  if (getNumElements(newDims).isConstant(0))
    return success();
  Value in = ctx.getView(fresh);
  if (!in)
    return failure();
  piece.src = 0;
  piece.dst = 1;
  dispatchCopies(symbols, "cache_append", {std::move(piece)}, byteSize,
                 {in, state}, {gpu::Access::Read, gpu::Access::Write});
  return success();
}

} // namespace datamovement
} // namespace onyx::lowering

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
// Where the new rows come from a kernel that can store them anywhere (a
// product's store, through the Reshape to heads and the Transpose exporters
// emit), that kernel writes them into the state itself (storeIntoCache) and
// the append is no dispatch at all: a decode step then has no copy of its
// key or value.
//
// The present is returned as a permuted download of the state (the runtime
// keeps it there), and the Attention kernel reads its keys and values in
// that order (AttentionKernels.cpp). Any other reader of the present or of
// the past leaves the Concat as it was, with the runtime copying the
// cache in and out of its state.
//
//===----------------------------------------------------------------------===//
#include "lowering/DataMovement.h"
#include "lowering/KernelSizes.h"

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

/// The state memory [total, b, H, d] holding cache append `op`'s present,
/// set as its result, for a past of `pastDims` and `newRows` new rows of
/// `batch` sequences.
static Value allocateState(Operation *op, Symbols &symbols,
                           ArrayRef<Poly> pastDims, const Poly &batch,
                           const Poly &newRows) {
  LoweringContext &ctx = symbols.getContext();
  auto past = cast<BlockArgument>(op->getOperand(0));
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Poly> outDims = resultDims(
      outType, {batch, pastDims[1], pastDims[2] + newRows, pastDims[3]});
  // Positions outermost.
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
  return state;
}

} // namespace datamovement

/// The only reader of `value` but for dims, null if none or several.
static Operation *getOnlyReader(Value value) {
  Operation *reader = nullptr;
  for (OpOperand &use : value.getUses()) {
    if (isDimsOnlyUse(use))
      continue;
    if (reader)
      return nullptr;
    reader = use.getOwner();
  }
  return reader;
}

/// The cache append that takes `rows` as its new rows: rows [b, s, H * d]
/// through a Reshape to [b, s, H, d] and a Transpose to [b, H, s, d] that
/// nothing else reads (but for dims), or heads [b, H, s, d] as they are;
/// null if there is none.
static Operation *getAppendOfRows(Value rows) {
  auto rowsType = dyn_cast<RankedTensorType>(rows.getType());
  if (!rowsType || (rowsType.getRank() != 3 && rowsType.getRank() != 4))
    return nullptr;
  Value fresh = rows;
  if (rowsType.getRank() == 3) {
    Operation *reshape = getOnlyReader(rows);
    if (!reshape || reshape->getName().getStringRef() != "onnx.Reshape" ||
        reshape->getOperand(0) != rows)
      return nullptr;
    auto headsType = cast<RankedTensorType>(reshape->getResult(0).getType());
    if (headsType.getRank() != 4 ||
        ShapedType::isDynamic(headsType.getShape()[2]) ||
        ShapedType::isDynamic(headsType.getShape()[3]) ||
        ShapedType::isDynamic(rowsType.getShape()[2]) ||
        headsType.getShape()[2] * headsType.getShape()[3] !=
            rowsType.getShape()[2])
      return nullptr;
    Operation *transpose = getOnlyReader(reshape->getResult(0));
    if (!transpose || !isTransposeReadByCopies(transpose) ||
        onnx::OpAttrs(transpose).getInts("perm") !=
            SmallVector<int64_t>{0, 2, 1, 3})
      return nullptr;
    fresh = transpose->getResult(0);
  }
  Operation *append = getOnlyReader(fresh);
  if (!append || !isCacheAppend(append) || append->getOperand(1) != fresh)
    return nullptr;
  return append;
}

std::string CacheRowsStore::index(KernelSizes &sizes, StringRef r,
                                  StringRef c) const {
  // Row r of the rows is position r % s of sequence r / s. One size per
  // statement: push-constant slots in a fixed order.
  std::string s = sizes.get(newRows);
  std::string past = sizes.get(pastRows);
  std::string position = sizes.get(sizes.getContext().mul(batch, rowElements));
  std::string row = std::to_string(rowElements) + "u";
  return "(" + past + " + (" + r.str() + ") % " + s + ") * " + position +
         " + (" + r.str() + ") / " + s + " * " + row + " + " + c.str();
}

std::optional<CacheRowsStore> storeIntoCache(LoweringContext &ctx, Value rows,
                                             ArrayRef<Size> dims) {
  Operation *append = getAppendOfRows(rows);
  if (!append || ctx.lookupResult(append->getResult(0)))
    return std::nullopt;
  auto rowsType = cast<RankedTensorType>(rows.getType());
  auto outType = cast<RankedTensorType>(append->getResult(0).getType());
  if (rowsType.getElementType() != outType.getElementType())
    return std::nullopt;
  datamovement::Symbols symbols(ctx);
  SmallVector<Poly> pastDims =
      datamovement::getDims(symbols, append->getOperand(0));
  if (pastDims.size() != 4)
    return std::nullopt;
  bool heads = rowsType.getRank() == 4;
  CacheRowsStore store;
  store.batch = dims[0];
  store.newRows = dims[heads ? 2 : 1];
  store.rowElements = heads ? outType.getShape()[1] * outType.getShape()[3]
                            : rowsType.getShape()[2];
  store.state = datamovement::allocateState(append, symbols, pastDims,
                                            symbols.get(store.batch),
                                            symbols.get(store.newRows));
  store.pastRows = symbols.materialize(pastDims[2]);
  // The rows' own view: the state's new rows, of the same bytes, in another
  // order but where b or s is 1; nothing reads it but the append, whose
  // copy is not made.
  unsigned bytes = datamovement::getByteSize(rowsType.getElementType());
  Size offset =
      ctx.mul(ctx.mul(store.pastRows, ctx.mul(store.batch, store.rowElements)),
              int64_t(bytes));
  ctx.setResult(rows, ctx.reinterpret(store.state, rowsType, dims, offset));
  return store;
}

namespace datamovement {

LogicalResult lowerCacheAppend(Operation *op, LoweringContext &ctx,
                               unsigned byteSize) {
  auto past = cast<BlockArgument>(op->getOperand(0));
  Value fresh = op->getOperand(1);
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
  if (ctx.lookupResult(op->getResult(0))) {
    // The kernel computing the new rows stored them into the state
    // (storeIntoCache), for the batch and rows of its own result: the
    // Reshape between must have kept them.
    SmallVector<Poly> outDims = getDims(symbols, op->getResult(0));
    if (outDims.size() != 4 ||
        failed(checkAtRunTime(symbols, "gpu.eqi", newDims[0], outDims[0],
                              "input 1 has {0} sequences where the rows "
                              "stored into the cache had {1}")) ||
        failed(checkAtRunTime(symbols, "gpu.eqi", pastDims[2] + newDims[2],
                              outDims[2],
                              "past and new rows make {0} positions where "
                              "the rows stored into the cache make {1}")))
      return failure();
    return success();
  }
  Value state = allocateState(op, symbols, pastDims, pastDims[0], newDims[2]);
  Poly rows = pastDims[2];
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Poly> outDims = resultDims(
      outType, {pastDims[0], pastDims[1], rows + newDims[2], pastDims[3]});
  SmallVector<Poly> stateDims = {outDims[2], outDims[0], outDims[1],
                                 outDims[3]};

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

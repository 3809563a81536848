//===- LoopLowering.cpp - onnx.Loop of a run-time trip count --------------===//
//
// A Loop whose trip count is known only at run time becomes a gpu.loop: its
// body is lowered once, and the runtime records it once per iteration
// (runtime/LoopRecording.h). The trip count is a value of the host program
// (a graph input, or computed from the inputs' shapes and integer values:
// ShapeValues.h) or, where kernels compute it (the Range function's
// expansion divides floats), a count read back before the loop
// (gpu.read_count), once per run rather than once per iteration.
//
// Memory, all allocated before the loop:
// - each carried value has a tensor of its own, which the initial value is
//   copied into; the body reads it, and at the end of each iteration the
//   value the body yields is copied back into it (through a temporary where
//   the yielded value is itself one of the carried tensors, as a body that
//   swaps two carried values yields). After the loop, it is the result.
// - each scan output is allocated at its N rows; each iteration copies its
//   slice into row %i (a view at byte offset %i times the slice's bytes).
// The iteration number is a shape value of the body (the gpu.loop's
// argument), and the condition passed on is 1: an iteration that runs had a
// true condition.
//
//===----------------------------------------------------------------------===//

#include "lowering/KernelGenerator.h"

#include "dialect/gpu/HostOps.h"
#include "dialect/onnx/ControlFlow.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"

#include "ir/Block.h"
#include "ir/Region.h"

namespace onyx::lowering {

namespace {

/// The tensor a view is of: its gpu.alloc (or weight, or argument's).
Value getRoot(Value view) {
  while (auto v = dyn_cast_or_null<gpu::ViewOp>(view.getDefiningOp()))
    view = v.getSource();
  return view;
}

/// `type` with the static sizes of `other` where it has `?`.
RankedTensorType refine(RankedTensorType type, RankedTensorType other) {
  SmallVector<int64_t> shape(type.getShape());
  for (auto [d, o] : llvm::zip(shape, other.getShape()))
    if (ShapedType::isDynamic(d))
      d = o;
  return RankedTensorType::get(shape, type.getElementType());
}

struct Carried {
  RankedTensorType type;
  SmallVector<Size> dims;
  Value view;
};

} // namespace

void prepareLoopTripCount(Operation *op, LoweringContext &ctx) {
  Value trips = op->getOperand(0);
  if (onnx::isNoValue(trips))
    return;
  // The host ops go before the op defining the count, so that they come
  // before any other use of it.
  Operation *def = trips.getDefiningOp();
  ctx.beginOp(def && def->getBlock() == op->getBlock() ? def : op);
  (void)ctx.getShapeValue(trips);
}

LogicalResult
lowerLoop(Operation *op, LoweringContext &ctx,
          llvm::function_ref<LogicalResult(Operation *)> convertOp) {
  if (failed(onnx::checkDeviceLoop(op)))
    return failure();
  Block &body = op->getRegion(0).front();
  Location loc = op->getLoc();
  OpBuilder &b = ctx.getBuilder();

  // The trip count, which onnx-flatten-control-flow made max(M, 0), or 0
  // where the initial condition is false: a value of the host program, or
  // one that kernels compute and the run reads back before the loop.
  Value trips = op->getOperand(0);
  Size count;
  if (std::optional<SmallVector<Size>> known = ctx.getShapeValue(trips);
      known && known->size() == 1) {
    count = ctx.atLeast((*known)[0], 0);
  } else {
    auto type = cast<RankedTensorType>(trips.getType());
    Value view = ctx.getView(trips);
    if (!view)
      return failure();
    if (type.getNumElements() != 1 || !type.getElementType().isInteger(64))
      return op->emitOpError() << "has a trip count of type " << type
                               << "; one int64 element is expected";
    count = b.create<gpu::ReadCountOp>(
                 loc, ctx.reinterpret(view, RankedTensorType::get(
                                                {1}, type.getElementType())))
                ->getResult(0);
  }
  if (std::optional<int64_t> limit = onnx::getLoopIterationLimit(op))
    count = ctx.min(count, *limit);

  // Carried values, in tensors of their own.
  unsigned numCarried = op->getNumOperands() - 2;
  unsigned numScans = op->getNumResults() - numCarried;
  Operation *yield = &body.back();
  SmallVector<Carried> carried;
  for (unsigned k = 0; k < numCarried; ++k) {
    Value init = op->getOperand(2 + k);
    Value view = ctx.getView(init);
    SmallVector<Size> dims = ctx.getDims(init);
    if (!view)
      return failure();
    auto type =
        refine(cast<RankedTensorType>(init.getType()),
               cast<RankedTensorType>(body.getArgument(2 + k).getType()));
    Value tensor = ctx.allocate(type, dims);
    b.create<gpu::CopyOp>(loc, ctx.reinterpret(view, type, dims), tensor);
    carried.push_back({type, dims, tensor});
  }
  // Scan outputs, at their N rows; a slice's `?` sizes from the result's
  // type or from the carried value it is (checkDeviceLoop).
  SmallVector<Carried> scans;
  for (unsigned j = 0; j < numScans; ++j) {
    Value slice = yield->getOperand(1 + numCarried + j);
    Value source = slice;
    while (Operation *def = onnx::getDefiningOp(source, "onnx.Identity"))
      source = def->getOperand(0);
    auto sliceType = cast<RankedTensorType>(slice.getType());
    auto result =
        cast<RankedTensorType>(op->getResult(numCarried + j).getType());
    SmallVector<Size> dims;
    for (int64_t d = 0; d < sliceType.getRank(); ++d) {
      int64_t size = sliceType.getShape()[d];
      if (ShapedType::isDynamic(size))
        size = result.getShape()[d + 1];
      if (!ShapedType::isDynamic(size)) {
        dims.push_back(size);
        continue;
      }
      for (unsigned k = 0; k < numCarried; ++k) {
        Value next = yield->getOperand(1 + k);
        while (Operation *def = onnx::getDefiningOp(next, "onnx.Identity"))
          next = def->getOperand(0);
        if (source == next || source == body.getArgument(2 + k)) {
          dims.push_back(carried[k].dims[d]);
          break;
        }
      }
      if (dims.size() != size_t(d + 1))
        return op->emitOpError() << "yields scan output #" << j
                                 << " of a size known only in the body";
    }
    SmallVector<int64_t> shape{ShapedType::kDynamic};
    SmallVector<Size> allDims{count};
    for (auto [d, size] : llvm::enumerate(dims)) {
      shape.push_back(size.isStatic() ? size.constant : ShapedType::kDynamic);
      allDims.push_back(size);
    }
    auto rowsType = RankedTensorType::get(shape, sliceType.getElementType());
    scans.push_back({rowsType, allDims, ctx.allocate(rowsType, allDims)});
  }

  // The body reads each carried value from its tensor.
  for (unsigned k = 0; k < numCarried; ++k) {
    Value arg = body.getArgument(2 + k);
    ctx.map(arg, ctx.reinterpret(carried[k].view,
                                 cast<RankedTensorType>(arg.getType()),
                                 carried[k].dims));
    ctx.setDims(arg, carried[k].dims);
  }
  Size tripCount = count;
  if (tripCount.isStatic())
    tripCount = b.create<gpu::ConstantOp>(loc, count.constant)->getResult(0);
  auto loop = b.create<gpu::LoopOp>(loc, tripCount.value);
  Block &loopBody = loop.getBody();
  Value iteration = loop.getIterationNumber();

  // The body's ops move into the gpu.loop and are lowered there, each at
  // its place.
  SmallVector<Operation *> ops;
  for (Operation &inner : body)
    ops.push_back(&inner);
  for (Operation *inner : ops) {
    inner->remove();
    loopBody.push_back(inner);
  }
  ctx.setShapeValue(body.getArgument(0), {Size(iteration)});
  if (!onnx::isNoValue(op->getOperand(1)))
    ctx.setShapeValue(body.getArgument(1), {Size(1)});
  auto eraseMoved = [&] {
    for (Operation *inner : llvm::reverse(ops)) {
      for (Value result : inner->getResults())
        result.dropAllUses();
      inner->erase();
    }
  };
  for (Operation *inner : ArrayRef(ops).drop_back())
    if (failed(convertOp(inner))) {
      eraseMoved();
      return failure();
    }

  // The end of an iteration: the slices into their rows, then the carried
  // values back into their tensors.
  ctx.beginOp(yield);
  LogicalResult status = success();
  auto yielded = [&](Value value, const Carried &into,
                     ArrayRef<Size> dims) -> Value {
    Value view = ctx.getView(value);
    SmallVector<Size> actual = ctx.getDims(value);
    if (!view || actual.size() != dims.size()) {
      status = failure();
      return nullptr;
    }
    for (auto [d, size] : llvm::enumerate(dims))
      ctx.same(size, actual[d],
               "yields a value of size {1} along dimension " +
                   std::to_string(d) + " where the loop holds {0}");
    return view;
  };
  for (unsigned j = 0; j < numScans; ++j) {
    Value slice = yield->getOperand(1 + numCarried + j);
    ArrayRef<Size> dims = ArrayRef(scans[j].dims).drop_front();
    Value view = yielded(slice, scans[j], dims);
    if (!view)
      break;
    auto sliceType = RankedTensorType::get(
        scans[j].type.getShape().drop_front(), scans[j].type.getElementType());
    Size bytes = int64_t(getElementByteSize(sliceType.getElementType()));
    for (Size size : dims)
      bytes = ctx.mul(bytes, size);
    Value row = ctx.reinterpret(scans[j].view, sliceType, dims,
                                ctx.mul(Size(iteration), bytes));
    b.create<gpu::CopyOp>(loc, ctx.reinterpret(view, sliceType, dims), row);
  }
  SmallVector<Value> nextValues;
  for (unsigned k = 0; k < numCarried && succeeded(status); ++k) {
    Value view = yielded(yield->getOperand(1 + k), carried[k], carried[k].dims);
    if (!view)
      break;
    view = ctx.reinterpret(view, carried[k].type, carried[k].dims);
    // A carried tensor the body passes on as it is needs no copy; another
    // one (a swap) is copied aside first, before any is overwritten.
    Value root = getRoot(view);
    if (root == getRoot(carried[k].view)) {
      nextValues.push_back(nullptr);
      continue;
    }
    if (llvm::any_of(carried, [&](const Carried &c) {
          return getRoot(c.view) == root;
        })) {
      Value aside = ctx.allocate(carried[k].type, carried[k].dims);
      b.create<gpu::CopyOp>(loc, view, aside);
      view = aside;
    }
    nextValues.push_back(view);
  }
  if (failed(status) || nextValues.size() != numCarried) {
    eraseMoved();
    return failure();
  }
  for (unsigned k = 0; k < numCarried; ++k)
    if (nextValues[k])
      b.create<gpu::CopyOp>(loc, nextValues[k], carried[k].view);
  eraseMoved();

  // After the loop, the results are the loop's tensors.
  ctx.beginOp(op);
  for (unsigned k = 0; k < numCarried; ++k) {
    Value result = op->getResult(k);
    ctx.setResult(result,
                  ctx.reinterpret(carried[k].view,
                                  cast<RankedTensorType>(result.getType()),
                                  carried[k].dims));
    ctx.setDims(result, carried[k].dims);
  }
  for (unsigned j = 0; j < numScans; ++j) {
    Value result = op->getResult(numCarried + j);
    ctx.setResult(result,
                  ctx.reinterpret(scans[j].view,
                                  cast<RankedTensorType>(result.getType()),
                                  scans[j].dims));
    ctx.setDims(result, scans[j].dims);
  }
  return success();
}

} // namespace onyx::lowering

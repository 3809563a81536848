//===- SliceKernels.cpp - Slice as a copy or a strided read ---------------===//
//
// A Slice is an affine copy (DataMovement.h) whose source strides are the
// data's scaled by the steps, from the clamped starts. Its parameters are
// computed here as dialect/onnx/Slice.cpp defines them, on the host where
// starts, ends, steps or dims are known only at run time; the result type,
// which the dialect inferred, is checked against them. A Slice that only
// feeds an Attention's mask is no copy: the Attention reads its data in
// place through the strides (isSliceReadByAttention).
//
//===----------------------------------------------------------------------===//

#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"
#include "lowering/ShapeValues.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"
#include "dialect/onnx/SlicePad.h"

#include "ir/Operation.h"

namespace onyx::lowering::datamovement {

namespace {

/// Dims, starts and ends beyond any dim a kernel can index (its sizes are
/// 32-bit) are the end of the dim, as ONNX's INT_MAX is.
constexpr int64_t kBeyond = int64_t(1) << 32;

/// The first index and the count of a Slice of `dim` elements from `b` to
/// `e` in steps of `s` (not 0, at most kBeyond in magnitude), with ONNX's
/// clamping: onnx::sliceAxis (dialect/onnx/SlicePad.h) for a static dim, and
/// the same rules on the host for a dim known only at run time.
std::pair<Poly, Poly> sliceAxis(Symbols &symbols, const Poly &dim, int64_t b,
                                int64_t e, int64_t s) {
  if (dim.isStatic()) {
    auto [first, count] = onnx::sliceAxis(dim.getConstant(), b, e, s);
    return {Poly(first), Poly(count)};
  }
  // Starts and ends near the int64 limits would overflow the coefficients
  // of dim + b (and its negation on the host): clamped first, which changes
  // nothing for a dim below kBeyond.
  b = std::clamp(b, -kBeyond, kBeyond);
  e = std::clamp(e, -kBeyond, kBeyond);
  if (s > 0) {
    Poly first = b < 0    ? symbols.max(dim + Poly(b), 0)
                 : b == 0 ? Poly(0)
                          : symbols.min(b, dim);
    Poly last = e >= kBeyond ? dim
                : e < 0      ? symbols.max(dim + Poly(e), 0)
                             : symbols.min(e, dim);
    Poly length = last - first;
    if (!first.isConstant(0))
      length = symbols.max(length, 0);
    return {first, symbols.ceilDiv(length, s)};
  }
  // Counting down: first in [-1, dim - 1] (-1 only for an empty dim), last
  // in [-1, dim - 1].
  Poly top = dim - Poly(1);
  Poly first = b < 0 ? symbols.min(symbols.max(dim + Poly(b), 0), top)
                     : (b >= kBeyond ? top : symbols.min(b, top));
  Poly last = e < 0 ? symbols.min(symbols.max(dim + Poly(e), -1), top)
                    : symbols.min(e, top);
  Poly count = symbols.ceilDiv(symbols.max(first - last, 0), -s);
  return {symbols.max(first, 0), count};
}

/// The same for starts or ends known only at run time: a value of either
/// sign, clamped first to where adding a dim cannot overflow.
std::pair<Poly, Poly> sliceAxisAtRunTime(Symbols &symbols, const Poly &dim,
                                         const Poly &b, const Poly &e,
                                         int64_t s) {
  constexpr int64_t kFar = int64_t(1) << 62;
  auto normalize = [&](const Poly &v) {
    Poly c = symbols.min(symbols.max(v, -kFar), kFar);
    return symbols.select(symbols.arith("gpu.lti", c, 0), c + dim, c);
  };
  Poly first = normalize(b), last = normalize(e);
  if (s > 0) {
    first = symbols.min(symbols.max(first, 0), dim);
    last = symbols.min(symbols.max(last, 0), dim);
    return {first, symbols.ceilDiv(symbols.max(last - first, 0), s)};
  }
  Poly top = dim - Poly(1);
  first = symbols.min(symbols.max(first, 0), top);
  last = symbols.min(symbols.max(last, -1), top);
  return {symbols.max(first, 0),
          symbols.ceilDiv(symbols.max(first - last, 0), -s)};
}

/// The first index, the count and the step of a Slice of `dim` elements
/// from `b` to `e` where the step `s` is known only at run time: both
/// directions' clamping computed on the host and one picked by the step's
/// sign. A step of 0 fails the run. The step is returned as `P - N` for
/// index values P, N >= 0 (one of them 0), so that the copy kernel's
/// offsets stay sums and differences of non-negative push constants.
std::tuple<Poly, Poly, Poly>
sliceAxisWithRunTimeStep(Symbols &symbols, const Poly &dim, const Poly &b,
                         const Poly &e, const Poly &s) {
  LoweringContext &ctx = symbols.getContext();
  Size step = symbols.materialize(s);
  (void)ctx.check(ctx.arith("gpu.subi", 1, ctx.arith("gpu.eqi", step, 0)),
                  "has a step of 0");
  Poly positive = symbols.arith("gpu.lti", 0, s);
  // A step longer than the dim takes one element at most, as one of the
  // dim's length does: bounded by it, so that neither -s (of INT64_MIN) nor
  // the step times the dim's stride overflows on the host.
  // One statement per host op: the order of a call's arguments is
  // unspecified, and the IR must not depend on the compiler.
  Poly longest = symbols.max(dim, 1);
  Poly upTo = symbols.min(s, longest);
  Poly up = symbols.select(positive, upTo, 0);
  Poly downFrom = symbols.max(s, -longest);
  Poly down = symbols.select(positive, 0, -downFrom);
  // max(|s|, 1): the division stays defined after a failed check.
  Poly magnitude = symbols.max(up + down, 1);
  auto [firstUp, countUp] = sliceAxisAtRunTime(symbols, dim, b, e, 1);
  countUp = symbols.ceilDiv(countUp, magnitude);
  auto [firstDown, countDown] = sliceAxisAtRunTime(symbols, dim, b, e, -1);
  countDown = symbols.ceilDiv(countDown, magnitude);
  return {symbols.select(positive, firstUp, firstDown),
          symbols.select(positive, countUp, countDown), up - down};
}

/// Per dimension of a Slice's data: the first index, the count and the
/// step, as computeSlice in dialect/onnx/Slice.cpp defines them, with
/// checks of the run where the result type has a size that operands known
/// only then must give.
struct SliceGeometry {
  SmallVector<Poly> start, count, step;
};

FailureOr<SliceGeometry> computeSliceGeometry(Symbols &symbols, Operation *op,
                                              ArrayRef<Poly> shape) {
  LoweringContext &ctx = symbols.getContext();
  RankedTensorType outType = tensorType(op->getResult(0));
  int64_t rank = tensorType(op->getOperand(0)).getRank();
  static const char *const names[] = {"data", "starts", "ends", "axes",
                                      "steps"};
  // Starts, ends, axes and steps may be known only at run time (shape values
  // of the host program). Constant axes and steps keep the kernel's strides
  // literals; a step known only at run time is a push constant, and axes
  // known only then make every dimension's start, end and step a selection
  // among the operands' (the default 0, the dim and 1 where no axis names
  // it).
  SmallVector<SmallVector<Poly>, 4> params;
  for (unsigned i = 1; i < 5; ++i) {
    if (!hasOperand(op, i)) {
      params.emplace_back();
      continue;
    }
    std::optional<SmallVector<Size>> v = getOperandSizes(ctx, op, i, names[i]);
    if (!v)
      return failure();
    params.push_back(symbols.get(*v));
  }
  const SmallVector<Poly> &starts = params[0], &ends = params[1],
                          &axes = params[2], &steps = params[3];
  size_t n = starts.size();
  if (ends.size() != n || (hasOperand(op, 3) && axes.size() != n) ||
      (hasOperand(op, 4) && steps.size() != n))
    return ctx.emitError() << "starts, ends, axes and steps must have the "
                              "same length";
  if (shape.size() != size_t(rank))
    return failure();
  SmallVector<Poly> start(rank, Poly(0)), count(shape), step(rank, Poly(1));
  auto sliceOne = [&](int64_t axis, const Poly &b, const Poly &e,
                      const Poly &s) {
    if (!s.isStatic()) {
      std::tie(start[axis], count[axis], step[axis]) =
          sliceAxisWithRunTimeStep(symbols, shape[axis], b, e, s);
      return;
    }
    // A step longer than the dim takes one element at most, as one of the
    // dim's length does: bounded by the dim (kBeyond where it is known only
    // at run time), so that the counts and the step times the stride do not
    // overflow for a step near the int64 limits.
    int64_t longest = shape[axis].isStatic()
                          ? std::max<int64_t>(shape[axis].getConstant(), 1)
                          : kBeyond;
    int64_t bounded = std::clamp(s.getConstant(), -longest, longest);
    std::tie(start[axis], count[axis]) =
        b.isStatic() && e.isStatic()
            ? sliceAxis(symbols, shape[axis], b.getConstant(), e.getConstant(),
                        bounded)
            : sliceAxisAtRunTime(symbols, shape[axis], b, e, bounded);
    step[axis] = bounded;
  };
  bool staticAxes =
      llvm::all_of(axes, [](const Poly &a) { return a.isStatic(); });
  if (staticAxes) {
    for (size_t i = 0; i < n; ++i) {
      int64_t axis =
          hasOperand(op, 3) ? normalizeAxis(axes[i].getConstant(), rank) : i;
      Poly s = hasOperand(op, 4) ? steps[i] : Poly(1);
      if (axis < 0 || axis >= rank || s.isConstant(0))
        return ctx.emitError() << "has an axis out of range or a step of 0";
      sliceOne(axis, starts[i], ends[i], s);
    }
  } else {
    std::optional<SmallVector<Size>> normalized =
        normalizeAxesAtRunTime(ctx, symbols.materialize(axes), rank, "axis");
    if (!normalized || !getAxisFlags(ctx, *normalized, rank))
      return failure();
    for (int64_t d = 0; d < rank; ++d) {
      Poly b(0), e = shape[d], s(1);
      for (size_t i = 0; i < n; ++i) {
        Poly named = symbols.arith("gpu.eqi", symbols.get((*normalized)[i]), d);
        b = symbols.select(named, starts[i], b);
        e = symbols.select(named, ends[i], e);
        s = symbols.select(named, hasOperand(op, 4) ? steps[i] : Poly(1), s);
      }
      sliceOne(d, b, e, s);
    }
  }
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = outType.getShape()[d];
    if (ShapedType::isDynamic(size) || count[d].isConstant(size))
      continue;
    if (count[d].isStatic())
      return ctx.emitError()
             << "slices a result shape other than its type's " << outType;
    // Starts or ends known only at run time must give the type's size.
    if (failed(ctx.check(
            symbols.materialize(symbols.arith("gpu.eqi", count[d], size)),
            "slices {0} elements along axis " + std::to_string(d) +
                ", where its result type has " + std::to_string(size),
            {symbols.materialize(count[d])})))
      return failure();
  }
  return SliceGeometry{std::move(start), std::move(count), std::move(step)};
}

/// The source stride of a Slice along an axis of `dim` elements whose
/// stride in the data is `stride`: the step times that stride, or an error.
/// A constant step no longer than the dim (sliceOne bounds it) keeps the
/// product a literal that fits a kernel's 32-bit sizes where the dim is
/// static; a long step along a dim known only at run time (INT64_MAX, as
/// models write "to the end") is bounded by the dim on the host instead,
/// which takes as many elements: one at most.
FailureOr<Poly> stepTimesStride(Symbols &symbols, const Poly &step,
                                const Poly &dim, const Poly &stride,
                                size_t axis) {
  auto fitsKernel = [](const Poly &p) {
    return llvm::all_of(p.getTerms(), [](const Poly::Term &t) {
      return t.coefficient >= -INT32_MAX && t.coefficient <= INT32_MAX;
    });
  };
  std::optional<Poly> product = step.checkedMul(stride);
  if ((!product || !fitsKernel(*product)) && step.isStatic() &&
      !dim.isStatic()) {
    int64_t s = step.getConstant();
    Poly longest = symbols.max(dim, 1);
    Poly bounded = symbols.min(s < 0 ? -s : s, longest);
    product = (s < 0 ? -bounded : bounded).checkedMul(stride);
  }
  if (!product) {
    symbols.getContext().emitError() << "has a step times the stride of axis "
                                     << axis << " that overflows 64 bits";
    return failure();
  }
  return *product;
}

/// A Slice read in place (isSliceReadByAttention): no kernel, a strided
/// read of its data's memory, composed with the data's own where the data
/// is such a Slice too.
LogicalResult lowerSliceRead(Operation *op, LoweringContext &ctx) {
  Symbols symbols(ctx);
  Value data = op->getOperand(0);
  StridedRead read;
  SmallVector<Poly> shape, strides;
  Poly base(0);
  if (const StridedRead *inner = ctx.lookupStridedRead(data)) {
    read.view = inner->view;
    shape = symbols.get(inner->dims);
    strides = symbols.get(inner->strides);
    base = symbols.get(inner->offset);
  } else {
    read.view = ctx.getView(data);
    shape = getDims(symbols, data);
    strides = getStrides(shape);
  }
  if (!read.view || shape.empty())
    return failure();
  FailureOr<SliceGeometry> g = computeSliceGeometry(symbols, op, shape);
  if (failed(g))
    return failure();
  SmallVector<Poly> dims = resultDims(tensorType(op->getResult(0)), g->count);
  for (size_t d = 0; d < shape.size(); ++d) {
    base = base + g->start[d] * strides[d];
    FailureOr<Poly> stride =
        stepTimesStride(symbols, g->step[d], shape[d], strides[d], d);
    if (failed(stride))
      return failure();
    read.strides.push_back(symbols.materialize(*stride));
  }
  read.dims = symbols.materialize(dims);
  read.offset = symbols.materialize(base);
  ctx.setDims(op->getResult(0), read.dims);
  ctx.setStridedRead(op->getResult(0), std::move(read));
  return success();
}

} // namespace

LogicalResult lowerSlice(Operation *op, LoweringContext &ctx) {
  unsigned byteSize = checkTensors(ctx, op, {0});
  if (!byteSize)
    return failure();
  if (isSliceReadByAttention(op))
    return lowerSliceRead(op, ctx);
  Symbols symbols(ctx);
  SmallVector<Poly> shape = getDims(symbols, op->getOperand(0));
  FailureOr<SliceGeometry> g = computeSliceGeometry(symbols, op, shape);
  if (failed(g))
    return failure();
  SmallVector<Poly> outDims =
      resultDims(tensorType(op->getResult(0)), g->count);
  Value in = ctx.getView(op->getOperand(0));
  if (!in)
    return failure();
  Value out = allocateResult(symbols, op->getResult(0), outDims);
  SmallVector<Poly> inStrides = getStrides(shape);
  Poly base(0);
  SmallVector<Poly> srcStrides;
  for (size_t d = 0; d < shape.size(); ++d) {
    base = base + g->start[d] * inStrides[d];
    FailureOr<Poly> stride =
        stepTimesStride(symbols, g->step[d], shape[d], inStrides[d], d);
    if (failed(stride))
      return failure();
    srcStrides.push_back(*stride);
  }
  dispatchCopies(symbols, "slice",
                 {gatherPiece(outDims, 0, base, srcStrides, 1)}, byteSize,
                 {in, out}, {gpu::Access::Read, gpu::Access::Write});
  return success();
}

} // namespace onyx::lowering::datamovement

namespace onyx::lowering {

using namespace datamovement;

bool isSliceReadByAttention(Operation *op) {
  if (op->getName().getStringRef() != "onnx.Slice" ||
      !op->getResult(0).hasOneUse())
    return false;
  // Steps of at least 1 keep the strides of the read positive.
  if (hasOperand(op, 4)) {
    std::optional<SmallVector<int64_t>> steps =
        getConstantInts(op->getOperand(4));
    if (!steps || llvm::any_of(*steps, [](int64_t s) { return s < 1; }))
      return false;
  }
  OpOperand &use = *op->getResult(0).getUses().begin();
  Operation *user = use.getOwner();
  StringRef name = user->getName().getStringRef();
  return (name == "onnx.Attention" && use.getOperandNumber() == 3) ||
         (name == "onnx.Slice" && use.getOperandNumber() == 0 &&
          isSliceReadByAttention(user));
}

} // namespace onyx::lowering

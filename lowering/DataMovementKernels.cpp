//===- DataMovementKernels.cpp - Kernel generators of data movement -------===//
//
// Transpose, Concat, Split, Slice and Tile are affine copies (DataMovement.h);
// a Transpose that swaps the last two dimensions of a batch of matrices goes
// through shared memory in tiles, so that both its reads and its writes are
// contiguous. This file also holds the family's table; Gather and ScatterND
// (IndexingKernels.cpp), Pad and Trilu (PadKernels.cpp), and the ops that
// fill a tensor (FillKernels.cpp) have their generators beside it.
//
// The parameters of Slice (clamped starts, steps) are computed here as
// dialect/onnx/Slice.cpp defines them; the result type, which the dialect
// inferred, is checked against them.
//
//===----------------------------------------------------------------------===//
#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"
#include "lowering/ShapeValues.h"
#include "lowering/TiledGemm.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"
#include "dialect/onnx/SlicePad.h"

#include "ir/Operation.h"

#include <numeric>

namespace onyx::lowering {

using namespace datamovement;

namespace {

/// The common checks: every operand listed in `data` and every result is a
/// tensor kernels can hold (its dims may be known only at run time). Returns
/// the element byte size, 0 after an error.
unsigned checkTensors(LoweringContext &ctx, Operation *op,
                      ArrayRef<unsigned> data) {
  unsigned size = 0;
  for (unsigned i : data) {
    RankedTensorType t = checkTensor(ctx, op->getOperand(i),
                                     "operand #" + std::to_string(i), true);
    if (!t)
      return 0;
    size = getByteSize(t.getElementType());
  }
  for (Value r : op->getResults())
    if (!checkTensor(ctx, r,
                     "result #" +
                         std::to_string(cast<OpResult>(r).getResultNumber()),
                     true))
      return 0;
  return size;
}

RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// Transpose
//===----------------------------------------------------------------------===//

/// A transpose that is, once dimensions of size 1 are dropped and
/// dimensions that stay together are merged, input [b, m, n] to output
/// [b, n, m].
struct MatrixTranspose {
  int64_t b = 1, m = 1, n = 1;
};

std::optional<MatrixTranspose> asMatrixTranspose(ArrayRef<int64_t> shape,
                                                 ArrayRef<int64_t> perm) {
  // Input dimensions of size > 1, in output order.
  SmallVector<int64_t> order;
  for (int64_t p : perm)
    if (shape[p] != 1)
      order.push_back(p);
  // Runs of consecutive input dimensions, as (first input dim, size).
  SmallVector<std::pair<int64_t, int64_t>> groups;
  for (size_t i = 0; i < order.size(); ++i) {
    bool follows = false;
    if (i) {
      // The previous kept input dimension, skipping those of size 1.
      int64_t prev = order[i] - 1;
      while (prev >= 0 && shape[prev] == 1)
        --prev;
      follows = prev == order[i - 1];
    }
    if (follows)
      groups.back().second *= shape[order[i]];
    else
      groups.push_back({order[i], shape[order[i]]});
  }
  if (groups.size() == 2 && groups[0].first > groups[1].first)
    return MatrixTranspose{1, groups[1].second, groups[0].second};
  if (groups.size() == 3 && groups[0].first < groups[2].first &&
      groups[2].first < groups[1].first)
    return MatrixTranspose{groups[0].second, groups[2].second,
                           groups[1].second};
  return std::nullopt;
}

void dispatchTiledTranspose(LoweringContext &ctx, const MatrixTranspose &t,
                            unsigned byteSize, Value in, Value out) {
  constexpr unsigned kTile = 32, kRows = 4;
  // Shared memory holds 32-bit words at least: 8- and 16-bit types there
  // would need more than the storage features.
  std::string shared = byteSize == 8 ? "uvec2" : "uint";
  std::string stored = bitsType(byteSize);
  std::string m = uintLiteral(t.m), n = uintLiteral(t.n);
  KernelSpec spec;
  spec.name = "transpose_tiled";
  spec.workgroupSize = {kTile, kRows, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  std::string tile = std::to_string(kTile), rows = uintLiteral(kRows);
  spec.glsl = glsl::header(spec.workgroupSize) +
              bitsBuffer(0, gpu::Access::Read, byteSize, "x") +
              bitsBuffer(1, gpu::Access::Write, byteSize, "y") +
              // One column of padding keeps the column reads of the second
              // phase off a single shared memory bank.
              "shared " + shared + " tile[" + tile + "][" + tile + " + 1];\n" +
              "void main() {\n"
              "uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;\n"
              "uint n0 = gl_WorkGroupID.x * " +
              tile +
              "u;\n"
              "uint m0 = gl_WorkGroupID.y * " +
              tile +
              "u;\n"
              "uint base = gl_WorkGroupID.z * " +
              uintLiteral(t.m * t.n) +
              ";\n"
              "for (uint k = ty; k < " +
              tile + "u; k += " + rows +
              ") {\n"
              "uint m = m0 + k, n = n0 + tx;\n"
              "if (m < " +
              m + " && n < " + n +
              ")\n"
              "tile[k][tx] = " +
              shared + "(x.d[base + m * " + n +
              " + n]);\n"
              "}\n"
              "barrier();\n"
              "for (uint k = ty; k < " +
              tile + "u; k += " + rows +
              ") {\n"
              "uint n = n0 + k, m = m0 + tx;\n"
              "if (m < " +
              m + " && n < " + n +
              ")\n"
              "y.d[base + n * " +
              m + " + m] = " + stored +
              "(tile[tx][k]);\n"
              "}\n"
              "}\n";
  ctx.dispatch(
      ctx.getOrCreateKernel(spec),
      {glsl::ceilDiv(t.n, kTile), glsl::ceilDiv(t.m, kTile), uint64_t(t.b)},
      {in, out});
}

/// The permutation of Transpose `op` (reversed dims by default).
SmallVector<int64_t> getTransposePerm(Operation *op) {
  int64_t rank = tensorType(op->getOperand(0)).getRank();
  SmallVector<int64_t> perm(rank);
  std::iota(perm.rbegin(), perm.rend(), 0);
  if (std::optional<SmallVector<int64_t>> p = onnx::OpAttrs(op).getInts("perm"))
    perm = *p;
  return perm;
}

LogicalResult lowerTranspose(Operation *op, LoweringContext &ctx) {
  unsigned byteSize = checkTensors(ctx, op, {0});
  if (!byteSize)
    return failure();
  RankedTensorType inType = tensorType(op->getOperand(0));
  int64_t rank = inType.getRank();
  SmallVector<int64_t> perm = getTransposePerm(op);
  Symbols symbols(ctx);
  SmallVector<Poly> inDims = getDims(symbols, op->getOperand(0));
  Value in = ctx.getView(op->getOperand(0));
  if (!in || inDims.size() != size_t(rank))
    return failure();
  SmallVector<Poly> permuted;
  for (int64_t p : perm)
    permuted.push_back(inDims[p]);
  SmallVector<Poly> outDims =
      resultDims(tensorType(op->getResult(0)), permuted);
  Value out = allocateResult(symbols, op->getResult(0), outDims);
  if (getNumElements(outDims).isConstant(0))
    return success();
  // Tiles pay off only where both sides are long enough to fill them.
  if (inType.hasStaticShape()) {
    std::optional<MatrixTranspose> matrix =
        asMatrixTranspose(inType.getShape(), perm);
    if (matrix && matrix->m >= 16 && matrix->n >= 16) {
      dispatchTiledTranspose(ctx, *matrix, byteSize, in, out);
      return success();
    }
  }
  SmallVector<Poly> inStrides = getStrides(inDims);
  SmallVector<Poly> srcStrides;
  for (int64_t p : perm)
    srcStrides.push_back(inStrides[p]);
  dispatchCopies(symbols, "transpose",
                 {gatherPiece(outDims, 0, 0, srcStrides, 1)}, byteSize,
                 {in, out}, {gpu::Access::Read, gpu::Access::Write});
  return success();
}

//===----------------------------------------------------------------------===//
// Concat and Split
//===----------------------------------------------------------------------===//

/// Elements after one step along `axis` of `shape`.
Poly innerSize(ArrayRef<Poly> shape, int64_t axis) {
  return getNumElements(shape.drop_front(axis + 1));
}

LogicalResult lowerConcat(Operation *op, LoweringContext &ctx) {
  SmallVector<unsigned> all(op->getNumOperands());
  std::iota(all.begin(), all.end(), 0);
  unsigned byteSize = checkTensors(ctx, op, all);
  if (!byteSize)
    return failure();
  if (isCacheAppend(op))
    return lowerCacheAppend(op, ctx, byteSize);
  RankedTensorType outType = tensorType(op->getResult(0));
  int64_t rank = outType.getRank();
  int64_t axis = normalizeAxis(onnx::OpAttrs(op).getInt("axis"), rank);
  Symbols symbols(ctx);
  SmallVector<SmallVector<Poly>, 4> inDims;
  Poly length(0);
  for (Value operand : op->getOperands()) {
    inDims.push_back(getDims(symbols, operand));
    if (inDims.back().size() != size_t(rank))
      return failure();
    length = length + inDims.back()[axis];
  }
  // Inputs' dims known only at run time must match but along the axis.
  for (size_t i = 1; i < inDims.size(); ++i)
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis &&
          failed(checkAtRunTime(
              symbols, "gpu.eqi", inDims[i][d], inDims[0][d],
              "input " + std::to_string(i) + " has {0} elements along axis " +
                  std::to_string(d) + " where input 0 has {1}")))
        return failure();
  SmallVector<Poly> computed = inDims.front();
  computed[axis] = length;
  SmallVector<Poly> outDims = resultDims(outType, computed);
  Poly inner = innerSize(outDims, axis);
  SmallVector<Poly> outStrides = getStrides(outDims);
  Value out = allocateResult(symbols, op->getResult(0), outDims);

  // Inputs in batches, each batch one kernel reading its inputs and
  // writing their parts of the output (the last binding).
  unsigned maxBatch = getMaxBatch(ctx, 1);
  SmallVector<CopyPiece, 2> pieces;
  SmallVector<Value> bindings;
  auto flush = [&] {
    if (pieces.empty())
      return;
    for (CopyPiece &p : pieces)
      p.dst = bindings.size();
    SmallVector<gpu::Access> access(bindings.size(), gpu::Access::Read);
    access.push_back(gpu::Access::Write);
    bindings.push_back(out);
    dispatchCopies(symbols, "concat", std::move(pieces), byteSize, bindings,
                   access);
    pieces.clear();
    bindings.clear();
  };
  Poly offset(0);
  for (auto [operand, shape] : llvm::zip(op->getOperands(), inDims)) {
    if (!getNumElements(shape).isConstant(0)) {
      Value in = ctx.getView(operand);
      if (!in)
        return failure();
      CopyPiece piece;
      piece.shape = shape;
      piece.srcStrides = getStrides(shape);
      // A Transpose read in place: its input's strides, permuted.
      if (Operation *def = operand.getDefiningOp();
          def && isTransposeReadByCopies(def)) {
        SmallVector<Poly> inStrides =
            getStrides(getDims(symbols, def->getOperand(0)));
        if (inStrides.size() != size_t(rank))
          return failure();
        SmallVector<int64_t> perm = getTransposePerm(def);
        for (int64_t d = 0; d < rank; ++d)
          piece.srcStrides[d] = inStrides[perm[d]];
      }
      piece.dstBase = offset * inner;
      piece.dstStrides = outStrides;
      // An input whose length along the axis is known only at run time may
      // be empty while the output is not: it goes in a kernel of its own,
      // whose grid is empty with it (the runtime binds no empty view to a
      // dispatch that runs). The other dims are the output's.
      bool alone = !shape[axis].isStatic();
      if (alone)
        flush();
      piece.src = bindings.size();
      pieces.push_back(std::move(piece));
      bindings.push_back(in);
      if (alone || pieces.size() == maxBatch)
        flush();
    }
    offset = offset + shape[axis];
  }
  flush();
  return success();
}

} // namespace

bool isTransposeReadByCopies(Operation *op) {
  if (op->getName().getStringRef() != "onnx.Transpose" ||
      op->getResult(0).use_empty() || isTransposeAbsorbed(op) ||
      isTransposeWrittenByMatMul(op) || isTransposeReadByAttention(op) ||
      isTransposeWrittenByAttention(op))
    return false;
  return llvm::all_of(op->getResult(0).getUses(), [](OpOperand &use) {
    return isDimsOnlyUse(use) ||
           use.getOwner()->getName().getStringRef() == "onnx.Concat";
  });
}

namespace {

LogicalResult lowerSplit(Operation *op, LoweringContext &ctx) {
  unsigned byteSize = checkTensors(ctx, op, {0});
  if (!byteSize)
    return failure();
  RankedTensorType inType = tensorType(op->getOperand(0));
  int64_t axis =
      normalizeAxis(onnx::OpAttrs(op).getInt("axis"), inType.getRank());
  // Sizes given at run time (a shape value) make the results' lengths along
  // the axis, and their offsets, index values of the host program.
  std::optional<SmallVector<Size>> splitSizes;
  if (hasOperand(op, 1)) {
    splitSizes = getOperandSizes(ctx, op, 1, "split");
    if (!splitSizes)
      return failure();
    if (splitSizes->size() != op->getNumResults())
      return ctx.emitError()
             << "has " << uint64_t(splitSizes->size()) << " split sizes for "
             << uint64_t(op->getNumResults()) << " results";
  } else if (ShapedType::isDynamic(inType.getShape()[axis])) {
    return ctx.emitError() << "splits axis " << axis
                           << ", whose size is known only at run time, "
                              "without split sizes; GPU kernels need a "
                              "static shape along it";
  }
  Symbols symbols(ctx);
  SmallVector<Poly> inDims = getDims(symbols, op->getOperand(0));
  Value in = ctx.getView(op->getOperand(0));
  if (!in || inDims.size() != size_t(inType.getRank()))
    return failure();
  SmallVector<Poly> lengths;
  Poly total(0);
  for (auto [i, result] : llvm::enumerate(op->getResults())) {
    int64_t typeLength = tensorType(result).getShape()[axis];
    if (!splitSizes && ShapedType::isDynamic(typeLength))
      return ctx.emitError() << "has a result whose size along axis " << axis
                             << " is known only at run time; GPU kernels "
                                "need a static shape along it";
    Poly length = splitSizes ? symbols.get((*splitSizes)[i]) : typeLength;
    if (!length.isStatic() &&
        (failed(checkAtRunTime(symbols, "gpu.lei", 0, length,
                               "split size {1} of result " + std::to_string(i) +
                                   " is negative")) ||
         (!ShapedType::isDynamic(typeLength) &&
          failed(checkAtRunTime(symbols, "gpu.eqi", length, typeLength,
                                "split size {0} of result " +
                                    std::to_string(i) +
                                    " is not its type's {1}")))))
      return failure();
    lengths.push_back(length);
    total = total + length;
  }
  if (total.isStatic() && inDims[axis].isStatic()) {
    if (total != inDims[axis])
      return ctx.emitError()
             << "results do not add up to the input along axis " << axis;
  } else if (failed(checkAtRunTime(
                 symbols, "gpu.eqi", total, inDims[axis],
                 "split sizes add up to {0}, not the input's {1} along axis " +
                     std::to_string(axis)))) {
    return failure();
  }
  Poly inner = innerSize(inDims, axis);
  SmallVector<Poly> inStrides = getStrides(inDims);

  // Outputs in batches, each batch one kernel reading the input (binding
  // 0) and writing its outputs.
  unsigned maxBatch = getMaxBatch(ctx, 1);
  SmallVector<CopyPiece, 2> pieces;
  SmallVector<Value> bindings = {in};
  auto flush = [&] {
    if (pieces.empty())
      return;
    SmallVector<gpu::Access> access(bindings.size(), gpu::Access::Write);
    access[0] = gpu::Access::Read;
    dispatchCopies(symbols, "split", std::move(pieces), byteSize, bindings,
                   access);
    pieces.clear();
    bindings.resize(1);
  };
  Poly offset(0);
  for (auto [result, length] : llvm::zip(op->getResults(), lengths)) {
    RankedTensorType type = tensorType(result);
    SmallVector<Poly> dims = inDims;
    dims[axis] = length;
    dims = resultDims(type, dims);
    Value out = allocateResult(symbols, result, dims);
    CopyPiece piece =
        gatherPiece(dims, 0, offset * inner, inStrides, bindings.size());
    // A length known only at run time may be 0 while the input is not: the
    // result goes in a kernel of its own, whose grid is empty with it.
    bool alone = !length.isStatic();
    if (alone)
      flush();
    // An empty input (static) has nothing to bind: its results are empty.
    if (!getNumElements(dims).isConstant(0) &&
        !getNumElements(inDims).isConstant(0)) {
      pieces.push_back(std::move(piece));
      bindings.push_back(out);
      if (alone || pieces.size() == maxBatch)
        flush();
    }
    offset = offset + length;
  }
  flush();
  return success();
}

//===----------------------------------------------------------------------===//
// Slice
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Tile
//===----------------------------------------------------------------------===//

/// Output dimension d of size repeats[d] * n[d] is walked as two, [repeat,
/// k], reading the input at k: the repeat's source stride is 0.
LogicalResult lowerTile(Operation *op, LoweringContext &ctx) {
  unsigned byteSize = checkTensors(ctx, op, {0});
  if (!byteSize)
    return failure();
  RankedTensorType outType = tensorType(op->getResult(0));
  // Repeats may be known only at run time (shape values of the host
  // program); a negative one is then an error of the run.
  std::optional<SmallVector<Size>> repeatSizes =
      getOperandSizes(ctx, op, 1, "repeats");
  if (!repeatSizes)
    return failure();
  Symbols symbols(ctx);
  SmallVector<Poly> repeats = symbols.get(*repeatSizes);
  SmallVector<Poly> shape = getDims(symbols, op->getOperand(0));
  if (shape.size() != size_t(outType.getRank()))
    return failure();
  SmallVector<Poly> inStrides = getStrides(shape);
  SmallVector<Poly> space, srcStrides, computed;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d >= repeats.size() ||
        (repeats[d].isStatic() && repeats[d].getConstant() < 0))
      return ctx.emitError()
             << "repeats do not give the result type " << outType;
    if (!repeats[d].isStatic() &&
        failed(ctx.check(
            symbols.materialize(symbols.arith("gpu.lei", 0, repeats[d])),
            "repeats must not be negative, got {0}",
            {symbols.materialize(repeats[d])})))
      return failure();
    Poly size = repeats[d] * shape[d];
    if (!ShapedType::isDynamic(outType.getShape()[d]) &&
        !size.isConstant(outType.getShape()[d]))
      return ctx.emitError()
             << "repeats do not give the result type " << outType;
    computed.push_back(size);
    space.append({repeats[d], shape[d]});
    srcStrides.append({Poly(0), inStrides[d]});
  }
  Value in = ctx.getView(op->getOperand(0));
  if (!in)
    return failure();
  Value out =
      allocateResult(symbols, op->getResult(0), resultDims(outType, computed));
  dispatchCopies(symbols, "tile", {gatherPiece(space, 0, 0, srcStrides, 1)},
                 byteSize, {in, out}, {gpu::Access::Read, gpu::Access::Write});
  return success();
}

const KernelGenerator generators[] = {
    {"onnx.Concat", lowerConcat, /*dynamicDims=*/true},
    {"onnx.ConstantOfShape", lowerConstantOfShape, /*dynamicDims=*/true},
    {"onnx.Gather", lowerGather, /*dynamicDims=*/true},
    {"onnx.GatherElements", lowerGatherElements, /*dynamicDims=*/true},
    {"onnx.Pad", lowerPad, /*dynamicDims=*/true},
    {"onnx.Range", lowerRange, /*dynamicDims=*/true},
    {"onnx.ScatterElements", lowerScatterElements, /*dynamicDims=*/true},
    {"onnx.GatherND", lowerGatherND, /*dynamicDims=*/true},
    {"onnx.ScatterND", lowerScatterND, /*dynamicDims=*/true},
    {"onnx.Slice", lowerSlice, /*dynamicDims=*/true},
    {"onnx.Split", lowerSplit, /*dynamicDims=*/true},
    {"onnx.Tile", lowerTile, /*dynamicDims=*/true},
    {"onnx.Transpose", lowerTranspose, /*dynamicDims=*/true},
    {"onnx.Trilu", lowerTrilu, /*dynamicDims=*/true},
};

} // namespace

ArrayRef<KernelGenerator> getDataMovementGenerators() { return generators; }

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

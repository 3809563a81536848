//===- DataMovementKernels.cpp - Kernel generators of data movement -------===//
//
// Transpose, Concat, Split and Tile are affine copies (DataMovement.h);
// a Transpose that swaps the last two dimensions of a batch of matrices goes
// through shared memory in tiles, so that both its reads and its writes are
// contiguous. This file also holds the family's table; Slice
// (SliceKernels.cpp), Gather and ScatterND (IndexingKernels.cpp), Pad and
// Trilu (PadKernels.cpp), and the ops that fill a tensor (FillKernels.cpp)
// have their generators beside it.
//
//===----------------------------------------------------------------------===//
#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"
#include "lowering/TiledGemm.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Operation.h"

#include <numeric>

namespace onyx::lowering {

using namespace datamovement;

namespace {

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

} // namespace onyx::lowering

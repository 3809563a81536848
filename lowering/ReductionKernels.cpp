//===- ReductionKernels.cpp - Reduce ops, ArgMax and ArgMin ---------------===//
//
// Every output element is one row of the input (WorkgroupReduce.h), reduced
// by the invocations of a workgroup: any set of axes, contiguous or not,
// since a row's elements are found through its merged dimensions' strides.
// Max and Min let NaN win, as the reference does; ArgMax and ArgMin carry the
// index along with the value and breaks ties towards the first (or, with
// select_last_index, the last) index; a NaN is taken only where it is the
// first element, as the reference's scan takes it.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/ShapeValues.h"
#include "lowering/WorkgroupReduce.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"

#include <fmt/format.h>

#include <limits>

namespace onyx::lowering {

/// The GLSL expression folding `b` into `a`.
static std::string combineExpr(ReduceKind kind, Type type) {
  bool isFloat = glsl::isFloat(type);
  bool isBool = type.isInteger(1);
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return "a + b";
  case ReduceKind::Max:
    // Max of bools is Or; a NaN wins over anything.
    if (isBool)
      return "a || b";
    return isFloat ? "(b > a || isnan(b)) ? b : a" : "b > a ? b : a";
  case ReduceKind::Min:
    if (isBool)
      return "a && b";
    return isFloat ? "(b < a || isnan(b)) ? b : a" : "b < a ? b : a";
  }
  llvm_unreachable("unknown reduction");
}

static std::string identity(ReduceKind kind, Type type) {
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return glsl::literal(type, 0);
  case ReduceKind::Max:
    return glsl::lowest(type);
  case ReduceKind::Min:
    return glsl::highest(type);
  }
  llvm_unreachable("unknown reduction");
}

static StringRef getKernelName(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
    return "reduce_sum";
  case ReduceKind::Mean:
    return "reduce_mean";
  case ReduceKind::Max:
    return "reduce_max";
  case ReduceKind::Min:
    return "reduce_min";
  }
  llvm_unreachable("unknown reduction");
}

/// The type partial results of `type` are kept in between two passes: the
/// compute type, so that nothing rounds twice.
static Type getPartialType(Type type) {
  Context *ctx = type.getContext();
  if (type.isF16() || type.isBF16())
    return FloatType::getF32(ctx);
  if (auto i = dyn_cast<IntegerType>(type);
      i && i.getWidth() > 1 && i.getWidth() < 32)
    return IntegerType::get(ctx, 32, i.getSignedness());
  return type;
}

/// One kernel reducing the rows of `space` in `input` (null when empty, of
/// element type `inType`) into `output` (of `outType`), dividing by
/// `meanCount` for a mean (nonzero where it is known only at run time), on
/// `workgroups`.
static void emitReduceKernel(LoweringContext &ctx, Value input, Type inType,
                             const RowSpace &space, const RowLayout &layout,
                             ReduceKind kind, Size meanCount, Value output,
                             Type outType, Size workgroups) {
  KernelSizes sizes(ctx);
  std::string rows = rowDeclarations(sizes, space, layout);
  std::string ct = glsl::computeType(inType);
  std::string result = "acc";
  if (kind == ReduceKind::Mean) {
    if (!meanCount.isStatic())
      result = fmt::format("acc / {}({})", ct, sizes.get(meanCount));
    else if (meanCount.constant == 0)
      result =
          glsl::isFloat(inType)
              ? glsl::literal(inType, std::numeric_limits<double>::quiet_NaN())
              : glsl::integerLiteral(inType, 0);
    else if (glsl::isFloat(inType))
      result = "acc / " + glsl::literal(inType, double(meanCount.constant));
    else
      result = "acc / " + glsl::integerLiteral(inType, meanCount.constant);
  }

  KernelSpec spec;
  spec.name = getKernelName(kind).str();
  if (layout.chunks > 1)
    spec.name += "_chunks";
  spec.workgroupSize = {layout.size(), 1, 1};
  std::string decls;
  SmallVector<Value> bindings;
  if (input) {
    decls += glsl::buffer(0, gpu::Access::Read, inType, "x");
    spec.bindings.push_back(gpu::Access::Read);
    bindings.push_back(input);
  }
  decls += glsl::buffer(bindings.size(), gpu::Access::Write, outType, "y");
  spec.bindings.push_back(gpu::Access::Write);
  bindings.push_back(output);
  std::string &glsl = spec.glsl;
  glsl = glsl::header(spec.workgroupSize) + sizes.declaration() + decls + rows +
         sharedArray(layout, ct, "red");
  glsl += fmt::format("{0} fold({0} a, {0} b) {{ return {1}; }}\n"
                      "void combine(uint a, uint b) {{\n"
                      "  red[a] = fold(red[a], red[b]);\n"
                      "}}\n",
                      ct, combineExpr(kind, inType));
  glsl += "void main() {\n" + rowPrologue() +
          fmt::format("  {} acc = {};\n", ct, identity(kind, inType));
  if (input)
    glsl += forEachElement("      acc = fold(acc, " +
                           glsl::load(inType, "x", "at") + ");\n");
  glsl += reduceAcrossRow(layout, {{"acc", "red"}}, "combine") +
          "  if (inRange && slot == 0u)\n    " +
          glsl::store(outType, "y", "row", result) + "\n}\n";
  dispatchRows(ctx, spec, sizes, workgroups, bindings);
}

LogicalResult lowerReduction(LoweringContext &ctx, Value input,
                             const llvm::SmallBitVector &reduced,
                             ReduceKind kind, Value output) {
  auto inputType = cast<RankedTensorType>(input.getType());
  Type type = inputType.getElementType();
  if (reportUnsupported(ctx, type))
    return failure();
  SmallVector<Size> dims = ctx.getDims(input);
  if (dims.size() != size_t(inputType.getRank()))
    return failure();
  return lowerReduction(ctx, input, getRowSpace(ctx, dims, reduced), kind,
                        output);
}

LogicalResult lowerReduction(LoweringContext &ctx, Value input,
                             const RowSpace &space, ReduceKind kind,
                             Value output) {
  Type type = cast<RankedTensorType>(input.getType()).getElementType();
  if (space.numRows.isZero())
    return success();
  // An empty input has nothing to bind: every row is the identity.
  Value inputView;
  bool empty = space.rowLength.isZero();
  if (!empty && !(inputView = ctx.getView(input)))
    return failure();

  unsigned sharedBytes = getSharedBytes(type);
  RowLayout layout = chooseRowLayout(ctx.getTarget(), space, sharedBytes,
                                     /*allowChunks=*/true);
  if (layout.chunks == 1) {
    emitReduceKernel(
        ctx, inputView, type, space, layout, kind, space.rowLength, output,
        type, getNumWorkgroups(ctx, space, layout, inputView != nullptr));
    // A row length known only at run time may be 0: then this kernel, which
    // binds nothing, writes the identity instead. It reads no element, so
    // its rows have no offsets (and no push constants the shader drops).
    if (!space.rowLength.isStatic()) {
      RowSpace none;
      none.numRows = space.numRows;
      none.rowLength = 0;
      RowLayout noneLayout = layout;
      noneLayout.chunkLength = 0;
      // One statement per host op: the order of a call's arguments is
      // unspecified, and the IR must not depend on the compiler.
      Size empty =
          ctx.arith("gpu.subi", 1, ctx.arith("gpu.mini", space.rowLength, 1));
      Size groups = getNumWorkgroups(ctx, space, layout, false);
      emitReduceKernel(ctx, nullptr, type, none, noneLayout, kind, 0, output,
                       type, ctx.mul(groups, empty));
    }
    return success();
  }
  // Each chunk of a row gives a partial result, [chunk][row]; a second
  // kernel reduces the chunks of each row (a mean divides only there).
  // Chunks are cut only where every size is known.
  int64_t numRows = space.numRows.constant;
  Type partialType = getPartialType(type);
  Value partials = ctx.allocate(
      RankedTensorType::get({layout.chunks, numRows}, partialType));
  emitReduceKernel(ctx, inputView, type, space, layout,
                   kind == ReduceKind::Mean ? ReduceKind::Sum : kind, 0,
                   partials, partialType, getNumWorkgroups(ctx, space, layout));
  llvm::SmallBitVector chunkDim(2);
  chunkDim.set(0);
  RowSpace chunkSpace =
      getRowSpace(ctx, {Size(layout.chunks), Size(numRows)}, chunkDim);
  RowLayout chunkLayout =
      chooseRowLayout(ctx.getTarget(), chunkSpace, sharedBytes);
  emitReduceKernel(ctx, partials, partialType, chunkSpace, chunkLayout, kind,
                   space.rowLength, output, type,
                   getNumWorkgroups(ctx, chunkSpace, chunkLayout));
  return success();
}

SmallVector<Size> getReducedDims(ArrayRef<Size> dims,
                                 const llvm::SmallBitVector &reduced,
                                 bool keepDims) {
  SmallVector<Size> result;
  for (auto [d, dim] : llvm::enumerate(dims))
    if (!reduced[d])
      result.push_back(dim);
    else if (keepDims)
      result.push_back(Size(1));
  return result;
}

/// A Reduce op whose axes (not empty) are known only at run time: the rank
/// is static, so each dimension gets a flag of the host program saying
/// whether it is reduced, and the kernel reduces rows of sizes selected by
/// those flags (getRowSpace). Bad axes are errors of the run.
static LogicalResult lowerReduceAtRunTimeAxes(Operation *op,
                                              LoweringContext &ctx,
                                              ReduceKind kind, Value axes) {
  Value data = op->getOperand(0);
  int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
  std::optional<SmallVector<Size>> values = ctx.getShapeValue(axes);
  if (!values)
    return ctx.emitError() << "operand 'axes' must be a constant or "
                              "computable on the host (from constants, "
                              "shapes and arguments) to lower the op";
  std::optional<SmallVector<Size>> normalized =
      normalizeAxesAtRunTime(ctx, *values, rank, "axis");
  if (!normalized)
    return failure();
  std::optional<SmallVector<Size>> reduced =
      getAxisFlags(ctx, *normalized, rank);
  SmallVector<Size> dims = ctx.getDims(data);
  if (!reduced || dims.size() != size_t(rank))
    return failure();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Size> resultDims;
  if (onnx::OpAttrs(op).getInt("keepdims")) {
    for (auto [dim, flag] : llvm::zip(dims, *reduced))
      resultDims.push_back(ctx.select(flag, 1, dim));
  } else {
    resultDims = selectUnflagged(ctx, dims, *reduced, resultType.getRank());
  }
  // Dims the result type knows (a dimension of size 1) are those.
  for (auto [d, dim] : llvm::enumerate(resultType.getShape()))
    if (!ShapedType::isDynamic(dim))
      resultDims[d] = dim;
  Value output = ctx.allocate(resultType, resultDims);
  ctx.setResult(op->getResult(0), output);
  if (reportUnsupported(ctx, resultType.getElementType()))
    return failure();
  RowSpace space = getRowSpace(ctx, dims, *reduced);
  // An input empty when compiled has nothing to bind: its rows, if any, are
  // empty and get the identity.
  if (llvm::is_contained(cast<RankedTensorType>(data.getType()).getShape(),
                         0)) {
    RowSpace none;
    none.numRows = space.numRows;
    none.rowLength = 0;
    space = none;
  }
  return lowerReduction(ctx, data, space, kind, output);
}

static LogicalResult lowerReduceOp(Operation *op, LoweringContext &ctx,
                                   ReduceKind kind) {
  Value data = op->getOperand(0);
  int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
  onnx::OpAttrs attrs(op);
  SmallVector<int64_t> axes;
  Value axesOperand;
  if (op->getNumOperands() > 1 && !onnx::isNoValue(op->getOperand(1)) &&
      !llvm::is_contained(
          cast<RankedTensorType>(op->getOperand(1).getType()).getShape(), 0))
    axesOperand = op->getOperand(1);
  if (axesOperand) {
    std::optional<SmallVector<int64_t>> values =
        onnx::getConstantInts(axesOperand);
    if (!values)
      return lowerReduceAtRunTimeAxes(op, ctx, kind, axesOperand);
    axes = std::move(*values);
  }
  if (axes.empty() && attrs.getInt("noop_with_empty_axes")) {
    Value view = ctx.getView(data);
    if (!view)
      return failure();
    ctx.setResult(op->getResult(0), view);
    return success();
  }
  llvm::SmallBitVector reduced(rank, axes.empty());
  for (int64_t axis : axes)
    reduced.set(axis < 0 ? axis + rank : axis);
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.size() != size_t(rank))
    return failure();
  Value output =
      ctx.allocate(cast<RankedTensorType>(op->getResult(0).getType()),
                   getReducedDims(dims, reduced, attrs.getInt("keepdims")));
  ctx.setResult(op->getResult(0), output);
  return lowerReduction(ctx, data, reduced, kind, output);
}

template <ReduceKind kind>
static LogicalResult lowerReduce(Operation *op, LoweringContext &ctx) {
  return lowerReduceOp(op, ctx, kind);
}

/// An invocation's scan of its elements for the best, in the order of their
/// indices, its loads issued kScanUnroll at a time before they are
/// compared: one long row (a vocabulary's logits, a few hundred elements an
/// invocation) otherwise waits on memory once per element.
static std::string
scanUnrolled(StringRef ct, llvm::function_ref<std::string(StringRef)> load) {
  constexpr unsigned kScanUnroll = 8;
  std::string loads, compares;
  for (unsigned u = 0; u < kScanUnroll; ++u) {
    std::string at = "at" + std::to_string(u);
    loads += fmt::format("      uint {0} = base + elementOffset(i + {1}u * "
                         "DEPTH);\n"
                         "      {2} v{1} = {3};\n",
                         at, u, ct.str(), load(at));
    compares += fmt::format("      if (better(v{0}, i + {0}u * DEPTH, best, "
                            "index)) {{\n"
                            "        best = v{0};\n"
                            "        index = i + {0}u * DEPTH;\n"
                            "      }}\n",
                            u);
  }
  return fmt::format("  if (inRange) {{\n"
                     "    uint i = begin + slot;\n"
                     "    for (; i + {0}u * DEPTH < end; i += {1}u * DEPTH) "
                     "{{\n"
                     "{2}{3}"
                     "    }}\n"
                     "    for (; i < end; i += DEPTH) {{\n"
                     "      uint at = base + elementOffset(i);\n"
                     "      {4} v = {5};\n"
                     "      if (better(v, i, best, index)) {{\n"
                     "        best = v;\n"
                     "        index = i;\n"
                     "      }}\n"
                     "    }}\n"
                     "  }}\n",
                     kScanUnroll - 1, kScanUnroll, loads, compares, ct.str(),
                     load("at"));
}

/// ArgMax and ArgMin: the value and index of each invocation's best element
/// meet in two shared arrays; an invocation that saw no element holds index
/// NONE.
static LogicalResult lowerArgMax(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  auto inputType = cast<RankedTensorType>(data.getType());
  Type type = inputType.getElementType();
  if (reportUnsupported(ctx, type) || reportNoInt64Indices(ctx))
    return failure();
  onnx::OpAttrs attrs(op);
  bool isMin = onnx::isOp(op, "onnx.ArgMin");
  int64_t rank = inputType.getRank();
  int64_t axis = attrs.getInt("axis");
  llvm::SmallBitVector reduced(rank);
  reduced.set(axis < 0 ? axis + rank : axis);
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.size() != size_t(rank))
    return failure();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Value output = ctx.allocate(
      resultType, getReducedDims(dims, reduced, attrs.getInt("keepdims")));
  ctx.setResult(op->getResult(0), output);
  RowSpace space = getRowSpace(ctx, dims, reduced);
  if (space.numRows.isZero())
    return success();
  // A row length of 0 known only at run time dispatches nothing (ONNX
  // leaves that undefined; the reference backend reports it).
  if (space.rowLength.isZero())
    return ctx.emitError() << "cannot take the "
                           << (isMin ? "minimum" : "maximum")
                           << " of no elements";
  Value input = ctx.getView(data);
  if (!input)
    return failure();

  RowLayout layout =
      chooseRowLayout(ctx.getTarget(), space, getSharedBytes(type) + 4);
  std::string ct = glsl::computeType(type);
  KernelSizes sizes(ctx);
  std::string rows = rowDeclarations(sizes, space, layout);
  KernelSpec spec = makeRowKernel(isMin ? "argmin" : "argmax", layout, sizes,
                                  rows, type, resultType.getElementType());
  spec.glsl +=
      sharedArray(layout, ct, "red_v") + sharedArray(layout, "uint", "red_i") +
      fmt::format("const uint NONE = 0xffffffffu;\n"
                  "bool better({0} b, uint bi, {0} a, uint ai) {{\n"
                  "  if (bi == NONE) return false;\n"
                  "  if (ai == NONE) return true;\n"
                  "{3}"
                  "  return b {2} a || (b == a && bi {1} ai);\n"
                  "}}\n"
                  "void combine(uint a, uint b) {{\n"
                  "  if (better(red_v[b], red_i[b], red_v[a], red_i[a])) {{\n"
                  "    red_v[a] = red_v[b];\n"
                  "    red_i[a] = red_i[b];\n"
                  "  }}\n"
                  "}}\n",
                  ct, attrs.getInt("select_last_index") ? ">" : "<",
                  isMin ? "<" : ">",
                  // The reference's scan: a NaN first element stays, any
                  // other NaN is never taken (whatever order the
                  // invocations meet in).
                  glsl::isFloat(type) ? "  if (isnan(b) || isnan(a)) return "
                                        "isnan(b) ? bi == 0u : ai != 0u;\n"
                                      : "") +
      "void main() {\n" + rowPrologue() +
      fmt::format("  {} best = {};\n  uint index = NONE;\n", ct,
                  isMin ? glsl::highest(type) : glsl::lowest(type)) +
      scanUnrolled(ct,
                   [&](StringRef at) { return glsl::load(type, "x", at); }) +
      reduceAcrossRow(layout, {{"best", "red_v"}, {"index", "red_i"}},
                      "combine") +
      "  if (inRange && slot == 0u)\n    " +
      glsl::store(resultType.getElementType(), "y", "row", "int64_t(index)") +
      "\n}\n";
  dispatchRows(ctx, spec, sizes, getNumWorkgroups(ctx, space, layout),
               {input, output});
  return success();
}

static const KernelGenerator reductionGenerators[] = {
    {"onnx.ReduceSum", lowerReduce<ReduceKind::Sum>, /*dynamicDims=*/true},
    {"onnx.ReduceMean", lowerReduce<ReduceKind::Mean>, /*dynamicDims=*/true},
    {"onnx.ReduceMax", lowerReduce<ReduceKind::Max>, /*dynamicDims=*/true},
    {"onnx.ReduceMin", lowerReduce<ReduceKind::Min>, /*dynamicDims=*/true},
    {"onnx.ArgMax", lowerArgMax, /*dynamicDims=*/true},
    {"onnx.ArgMin", lowerArgMax, /*dynamicDims=*/true},
};

ArrayRef<KernelGenerator> getReductionGenerators() {
  return reductionGenerators;
}

} // namespace onyx::lowering

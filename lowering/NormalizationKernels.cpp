//===- NormalizationKernels.cpp - Softmax, LayerNorm, BatchNorm -----------===//
//
// Softmax and LogSoftmax normalize rows along `axis`, LayerNormalization
// rows over the dimensions from `axis` on; both reduce each row with the
// invocations of a workgroup (WorkgroupReduce.h) and read it three times:
//
//   Softmax:    max, then sum of exp(x - max), then exp(x - max) / sum
//               (x - max - log(sum) for LogSoftmax): exp never overflows.
//   LayerNorm:  mean, then the mean of (x - mean)^2, then the output; two
//               passes, not E[x^2] - E[x]^2, which cancels catastrophically
//               when the mean is large against the deviation.
//   RMSNorm:    the mean of x^2, then the output (the LayerNorm kernel
//               without the mean).
//
// InstanceNormalization is the LayerNorm kernel over each image's channel
// (the spatial dimensions), its scale and B read per channel.
//
// BatchNormalization (inference) is elementwise per channel. Its five
// tensors and the result do not fit the four storage buffers every target
// has, so a first kernel packs scale / sqrt(var + epsilon) and B per channel
// and the second applies (x - mean) * that + B, the reference's formula.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelSizes.h"
#include "lowering/WorkgroupReduce.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include <fmt/format.h>

namespace onyx::lowering {

static RankedTensorType getTensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// `exp` and `log` of the compute type: GLSL has them for float only, so
/// doubles go through float (well within the tolerance of f64 results).
static std::string mathCall(StringRef fn, StringRef ct, StringRef arg) {
  if (ct == "double")
    return fmt::format("double({}(float({})))", fn.str(), arg.str());
  return fmt::format("{}({})", fn.str(), arg.str());
}

/// The combine functions the row reductions below use, on shared `red`.
static std::string combineFunctions(StringRef ct) {
  return fmt::format("{0} maxOf({0} a, {0} b) {{ return b > a ? b : a; }}\n"
                     "void combineMax(uint a, uint b) {{\n"
                     "  red[a] = maxOf(red[a], red[b]);\n"
                     "}}\n"
                     "void combineSum(uint a, uint b) {{\n"
                     "  red[a] = red[a] + red[b];\n"
                     "}}\n",
                     ct.str());
}

//===----------------------------------------------------------------------===//
// Softmax and LogSoftmax
//===----------------------------------------------------------------------===//

static LogicalResult lowerSoftmax(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  RankedTensorType type = getTensorType(data);
  Type et = type.getElementType();
  if (reportUnsupported(ctx, et))
    return failure();
  bool isLog = op->getName().getStringRef() == "onnx.LogSoftmax";
  int64_t rank = type.getRank();
  int64_t axis = onnx::OpAttrs(op).getInt("axis");
  llvm::SmallBitVector reduced(rank);
  reduced.set(axis < 0 ? axis + rank : axis);
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.size() != size_t(rank))
    return failure();
  Value output = ctx.allocate(type, dims);
  ctx.setResult(op->getResult(0), output);
  Size count = getNumElements(ctx, dims);
  if (count.isZero())
    return success();
  Value input = ctx.getView(data);
  if (!input)
    return failure();

  // A row length known only at run time gets the deepest tree, each
  // invocation striding over the row (values not cached in registers).
  RowSpace space = getRowSpace(ctx, dims, reduced);
  RowLayout layout =
      chooseRowLayout(ctx.getTarget(), space, getSharedBytes(et));
  std::string ct = glsl::computeType(et);
  RowValues values = getRowValues(layout, ct, glsl::load(et, "x", "at"));
  std::string e = mathCall("exp", ct, "xv - m");
  std::string result =
      isLog ? "xv - m - " + mathCall("log", ct, "s") : e + " / s";
  KernelSizes sizes(ctx);
  std::string rows = rowDeclarations(sizes, space, layout);
  KernelSpec spec = makeRowKernel(isLog ? "log_softmax" : "softmax", layout,
                                  sizes, rows, et, et);
  spec.glsl +=
      sharedArray(layout, ct, "red") + combineFunctions(ct) +
      "void main() {\n" + rowPrologue() + loadRowValues(values) +
      fmt::format("  {} m = {};\n", ct, glsl::lowest(et)) +
      forEachValue(values, "      m = maxOf(m, xv);\n") +
      reduceAcrossRow(layout, {{"m", "red"}}, "combineMax") +
      fmt::format("  {} s = {};\n", ct, glsl::literal(et, 0)) +
      forEachValue(values, "      s += " + e + ";\n") +
      reduceAcrossRow(layout, {{"s", "red"}}, "combineSum") +
      forEachValue(values,
                   "      " + glsl::store(et, "y", "at", result) + "\n") +
      "}\n";
  dispatchRows(ctx, spec, sizes, getNumWorkgroups(ctx, space, layout),
               {input, output});
  return success();
}

//===----------------------------------------------------------------------===//
// LayerNormalization
//===----------------------------------------------------------------------===//

namespace {
/// What one LayerNormalization kernel writes.
struct LayerNormOutputs {
  Value y;
  Value mean;
  Value invStdDev;
  /// The skip forms' input + skip (+ bias).
  Value sum;
};

/// Where a normalization op keeps its operands (-1: it has none such):
/// LayerNormalization's (X, Scale, B), or ONNX Runtime's skip forms, which
/// normalize X + skip (+ a bias) with gamma (and beta).
struct NormOperands {
  int scale = 1;
  int beta = 2;
  int skip = -1;
  int skipBias = -1;
  /// Where not empty, the GLSL index of scale and bias from the row `row`
  /// and the position `i` in it, instead of the broadcast of the normalized
  /// dims (Instance- and GroupNormalization: one value per channel or
  /// group).
  std::string paramIndex;
};
} // namespace

static bool isStatic(ArrayRef<Size> dims) {
  return llvm::all_of(dims, [](Size s) { return s.isStatic(); });
}

static SmallVector<int64_t> getConstants(ArrayRef<Size> dims) {
  SmallVector<int64_t> constants;
  for (Size s : dims)
    constants.push_back(s.constant);
  return constants;
}

/// Whether `a` and `b` are the same dims (the same constants or run-time
/// values).
static bool sameDims(ArrayRef<Size> a, ArrayRef<Size> b) {
  return a.size() == b.size() && llvm::all_of(llvm::zip(a, b), [](auto pair) {
           auto [x, y] = pair;
           return x.isStatic() == y.isStatic() &&
                  (x.isStatic() ? x.constant == y.constant
                                : x.value == y.value);
         });
}

/// `uint NAME(uint i)`: the index in a tensor of `dims`, broadcast to the
/// normalized dimensions `normalized`, of element i of a row.
static std::string broadcastFunction(KernelSizes &sizes, StringRef name,
                                     ArrayRef<Size> dims,
                                     ArrayRef<Size> normalized) {
  if (sameDims(dims, normalized))
    return fmt::format("uint {}(uint i) {{ return i; }}\n", name.str());
  std::string body;
  if (isStatic(dims) && isStatic(normalized))
    body = glsl::unflatten(getConstants(normalized), "i", "c") +
           fmt::format("  return {};\n",
                       glsl::broadcastIndex(getConstants(dims),
                                            normalized.size(), "c"));
  else
    body = sizes.unflatten(normalized, "i", "c") +
           fmt::format("  return {};\n",
                       sizes.broadcastIndex(dims, normalized.size(), "c"));
  return fmt::format("uint {}(uint i) {{\n", name.str()) + body + "}\n";
}

/// A LayerNormalization kernel, or with `rms` an RMSNormalization one.
/// `operands` says where scale, B and skip are and how scale and B are
/// indexed.
static LogicalResult emitLayerNorm(Operation *op, LoweringContext &ctx,
                                   const RowSpace &space, int64_t axis,
                                   const LayerNormOutputs &outputs,
                                   bool rms = false,
                                   const NormOperands &operands = {}) {
  Value data = op->getOperand(0);
  RankedTensorType type = getTensorType(data);
  Type et = type.getElementType();
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.size() != size_t(type.getRank()))
    return failure();
  ArrayRef<Size> normalized = ArrayRef<Size>(dims).drop_front(axis);
  auto present = [&](int i) {
    return i >= 0 && op->getNumOperands() > unsigned(i) &&
           !onnx::isNoValue(op->getOperand(i));
  };
  bool hasBias = present(operands.beta);
  const std::string &paramIndex = operands.paramIndex;
  double epsilon = onnx::OpAttrs(op).getFloat("epsilon");

  RowLayout layout =
      chooseRowLayout(ctx.getTarget(), space, getSharedBytes(et));
  std::string ct = glsl::computeType(et);
  KernelSizes sizes(ctx);
  std::string rows = rowDeclarations(sizes, space, layout);
  KernelSpec spec;
  spec.name = rms ? "rms_norm" : outputs.y ? "layer_norm" : "layer_norm_stats";
  if (operands.skip >= 0)
    spec.name = rms ? "skip_rms_norm" : "skip_layer_norm";
  spec.workgroupSize = {layout.size(), 1, 1};
  std::string decls, helpers;
  SmallVector<Value> bindings;
  auto bind = [&](Value view, gpu::Access access, Type elementType,
                  StringRef name) {
    decls += glsl::buffer(bindings.size(), access, elementType, name);
    spec.bindings.push_back(access);
    bindings.push_back(view);
  };
  auto bindOperand = [&](unsigned i, StringRef name) {
    Value view = ctx.getView(op->getOperand(i));
    if (!view)
      return false;
    Type operandType = getTensorType(op->getOperand(i)).getElementType();
    bind(view, gpu::Access::Read, operandType, name);
    if (!paramIndex.empty())
      return true;
    SmallVector<Size> operandDims = ctx.getDims(op->getOperand(i));
    if (operandDims.size() !=
        size_t(getTensorType(op->getOperand(i)).getRank()))
      return false;
    helpers += broadcastFunction(sizes, (name + "Index").str(), operandDims,
                                 normalized);
    return true;
  };
  Value x = ctx.getView(data);
  if (!x)
    return failure();
  bind(x, gpu::Access::Read, et, "x");
  // The value normalized: x, or x + skip (+ skipBias).
  std::string load = glsl::load(et, "x", "at");
  if (present(operands.skip)) {
    Value skip = op->getOperand(operands.skip);
    SmallVector<Size> skipDims = ctx.getDims(skip);
    Value skipView = ctx.getView(skip);
    if (!skipView)
      return failure();
    // skip is x's shape or, leading 1s apart, a suffix of it
    // ([seq, hidden] over [batch, seq, hidden]).
    std::string skipAt = "at";
    if (!sameDims(skipDims, dims)) {
      ArrayRef<Size> suffix = skipDims;
      while (!suffix.empty() && suffix.front().isStatic() &&
             suffix.front().constant == 1)
        suffix = suffix.drop_front();
      if (!isStatic(suffix) || !isStatic(dims) || suffix.size() > dims.size() ||
          getConstants(suffix) !=
              getConstants(ArrayRef<Size>(dims).take_back(suffix.size())))
        return ctx.emitError() << "needs skip of the input's shape or a "
                                  "static suffix of it";
      int64_t count = 1;
      for (Size size : suffix)
        count *= size.constant;
      skipAt = fmt::format("at % {}u", count);
    }
    bind(skipView, gpu::Access::Read, et, "skip");
    load = fmt::format("({} + {})", load, glsl::load(et, "skip", skipAt));
    if (present(operands.skipBias)) {
      if (!bindOperand(operands.skipBias, "skipBias"))
        return failure();
      load = fmt::format("({} + {})", load,
                         glsl::load(et, "skipBias", "skipBiasIndex(i)"));
    }
  }
  std::string value = fmt::format(
      "{} * invStdDev * {}", rms ? "xv" : "(xv - mean)",
      glsl::load(et, "scale",
                 paramIndex.empty() ? "scaleIndex(i)" : paramIndex));
  if (outputs.y) {
    if (!bindOperand(operands.scale, "scale"))
      return failure();
    if (hasBias) {
      if (!bindOperand(operands.beta, "bias"))
        return failure();
      value +=
          " + " + glsl::load(et, "bias",
                             paramIndex.empty() ? "biasIndex(i)" : paramIndex);
    }
    bind(outputs.y, gpu::Access::Write, et, "y");
  }
  if (outputs.sum)
    bind(outputs.sum, gpu::Access::Write, et, "sumOut");
  std::string stats;
  for (auto [view, name] : {std::pair(outputs.mean, "mean"),
                            std::pair(outputs.invStdDev, "invStdDev")}) {
    if (!view)
      continue;
    Type statsType = cast<gpu::ViewType>(view.getType()).getElementType();
    std::string out = (StringRef(name) + "Out").str();
    bind(view, gpu::Access::Write, statsType, out);
    stats +=
        "    " +
        glsl::store(statsType, out, "row", glsl::convert(et, statsType, name)) +
        "\n";
  }

  // The row length as a number of the compute type.
  std::string length = space.rowLength.isStatic()
                           ? glsl::literal(et, double(space.rowLength.constant))
                           : fmt::format("{}(LENGTH)", ct);
  RowValues values = getRowValues(layout, ct, load);
  std::string code = glsl::header(spec.workgroupSize) + sizes.declaration() +
                     decls + rows + sharedArray(layout, ct, "red") +
                     combineFunctions(ct) + helpers + "void main() {\n" +
                     rowPrologue() + loadRowValues(values);
  if (!rms)
    code += fmt::format("  {} sum = {};\n", ct, glsl::literal(et, 0)) +
            forEachValue(values, "      sum += xv;\n") +
            reduceAcrossRow(layout, {{"sum", "red"}}, "combineSum") +
            fmt::format("  {} mean = sum / {};\n", ct, length);
  code +=
      fmt::format("  {} squares = {};\n", ct, glsl::literal(et, 0)) +
      forEachValue(values, fmt::format("      {} d = xv{};\n"
                                       "      squares += d * d;\n",
                                       ct, rms ? "" : " - mean")) +
      reduceAcrossRow(layout, {{"squares", "red"}}, "combineSum") +
      fmt::format("  {0} invStdDev = {1} / sqrt(squares / {2} + {3});\n", ct,
                  glsl::literal(et, 1), length, glsl::literal(et, epsilon));
  if (outputs.y)
    code += forEachValue(values,
                         "      " + glsl::store(et, "y", "at", value) + "\n");
  if (outputs.sum)
    code += forEachValue(
        values, "      " + glsl::store(et, "sumOut", "at", "xv") + "\n");
  if (!stats.empty())
    code += "  if (inRange && slot == 0u) {\n" + stats + "  }\n";
  spec.glsl = code + "}\n";
  dispatchRows(ctx, spec, sizes, getNumWorkgroups(ctx, space, layout),
               bindings);
  return success();
}

/// The dims of LayerNormalization's Mean and InvStdDev: x's before `axis`,
/// then 1s.
static SmallVector<Size> getStatsDims(ArrayRef<Size> dims, int64_t axis) {
  SmallVector<Size> result(dims.take_front(axis));
  result.append(dims.size() - axis, Size(1));
  return result;
}

/// The rows of `data` normalized over its dimensions from `axis` on, its
/// dims in `dims`; nullopt after an error.
static std::optional<RowSpace> getTrailingRows(LoweringContext &ctx, Value data,
                                               int64_t axis,
                                               SmallVector<Size> &dims) {
  int64_t rank = getTensorType(data).getRank();
  llvm::SmallBitVector reduced(rank);
  reduced.set(axis, rank);
  dims = ctx.getDims(data);
  if (dims.size() != size_t(rank))
    return std::nullopt;
  return getRowSpace(ctx, dims, reduced);
}

/// What lowering a normalization over `space` ends in when it has no work:
/// success without rows, an error with empty ones; nullopt otherwise.
static std::optional<LogicalResult> finishEmpty(LoweringContext &ctx,
                                                const RowSpace &space) {
  if (space.numRows.isZero())
    return success();
  if (space.rowLength.isZero())
    return LogicalResult(ctx.emitError()
                         << "cannot normalize over no elements");
  return std::nullopt;
}

/// Allocates `outputs`: Y like the input (of `type` and `dims`) and each
/// result that is used of 1 Mean and 2 InvStdDev (one per row of the rows
/// from `axis`) and 3 the skip forms' sum (like the input). ONNX Runtime
/// does not define Mean for the simplified skip form (`noMean`).
static LogicalResult allocateNormOutputs(Operation *op, LoweringContext &ctx,
                                         RankedTensorType type,
                                         ArrayRef<Size> dims, int64_t axis,
                                         bool noMean,
                                         LayerNormOutputs &outputs) {
  outputs.y = ctx.allocate(type, dims);
  ctx.setResult(op->getResult(0), outputs.y);
  // The statistics are computed only if used.
  for (unsigned i = 1; i < op->getNumResults(); ++i) {
    OpResult result = op->getResult(i);
    if (result.use_empty())
      continue;
    if (i == 1 && noMean)
      return ctx.emitError() << "does not compute result 'mean' on Vulkan "
                                "(ONNX Runtime does not define it for the "
                                "simplified form)";
    RankedTensorType resultType = getTensorType(result);
    if (reportUnsupported(ctx, resultType.getElementType()))
      return failure();
    Value view = ctx.allocate(resultType, i == 3 ? SmallVector<Size>(dims)
                                                 : getStatsDims(dims, axis));
    ctx.setResult(result, view);
    (i == 1 ? outputs.mean : i == 2 ? outputs.invStdDev : outputs.sum) = view;
  }
  return success();
}

static LogicalResult lowerLayerNorm(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  RankedTensorType type = getTensorType(data);
  Type et = type.getElementType();
  if (reportUnsupported(ctx, et))
    return failure();
  int64_t rank = type.getRank();
  int64_t axis = onnx::OpAttrs(op).getInt("axis");
  if (axis < 0)
    axis += rank;
  SmallVector<Size> dims;
  std::optional<RowSpace> space = getTrailingRows(ctx, data, axis, dims);
  if (!space)
    return failure();

  LayerNormOutputs outputs;
  if (failed(allocateNormOutputs(op, ctx, type, dims, axis, false, outputs)))
    return failure();
  if (std::optional<LogicalResult> done = finishEmpty(ctx, *space))
    return *done;

  // One kernel writes everything if the target binds enough buffers;
  // otherwise a second one recomputes the statistics.
  bool hasBias =
      op->getNumOperands() > 2 && !onnx::isNoValue(op->getOperand(2));
  unsigned numStats = bool(outputs.mean) + bool(outputs.invStdDev);
  unsigned numBindings = 3 + hasBias + numStats;
  if (numStats &&
      numBindings > ctx.getTarget().maxPerStageDescriptorStorageBuffers) {
    LayerNormOutputs stats = outputs;
    stats.y = nullptr;
    outputs.mean = outputs.invStdDev = nullptr;
    if (failed(emitLayerNorm(op, ctx, *space, axis, stats)))
      return failure();
  }
  return emitLayerNorm(op, ctx, *space, axis, outputs);
}

/// InstanceNormalization: a LayerNormalization over the spatial dimensions
/// (rows of one image's channel) with a scale and B per channel.
static LogicalResult lowerInstanceNorm(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  RankedTensorType type = getTensorType(data);
  if (reportUnsupported(ctx, type.getElementType()))
    return failure();
  SmallVector<Size> dims;
  std::optional<RowSpace> space = getTrailingRows(ctx, data, 2, dims);
  if (!space)
    return failure();
  LayerNormOutputs outputs;
  outputs.y = ctx.allocate(type, dims);
  ctx.setResult(op->getResult(0), outputs.y);
  if (std::optional<LogicalResult> done = finishEmpty(ctx, *space))
    return *done;
  NormOperands operands;
  operands.paramIndex = fmt::format("row % {}u", type.getShape()[1]);
  return emitLayerNorm(op, ctx, *space, 2, outputs, /*rms=*/false, operands);
}

/// GroupNormalization: a LayerNormalization over rows of one image's group
/// of channels (the group's channels are consecutive, so a row is
/// contiguous), with scale and bias per channel (opset 21) or per group
/// (opset 18).
static LogicalResult lowerGroupNorm(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  RankedTensorType type = getTensorType(data);
  if (reportUnsupported(ctx, type.getElementType()))
    return failure();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t groups = onnx::OpAttrs(op).getInt("num_groups");
  int64_t channels = shape[1];
  int64_t params = getTensorType(op->getOperand(1)).getShape()[0];
  int64_t spatial = 1;
  for (int64_t d : shape.drop_front(2))
    spatial *= d;
  // Rows of [N * groups, channels / groups * spatial]: X's data as it is.
  llvm::SmallBitVector reduced(2);
  reduced.set(1);
  RowSpace space = getRowSpace(
      ctx, {Size(shape[0] * groups), Size(channels / groups * spatial)},
      reduced);
  LayerNormOutputs outputs;
  outputs.y = ctx.allocate(type);
  ctx.setResult(op->getResult(0), outputs.y);
  if (std::optional<LogicalResult> done = finishEmpty(ctx, space))
    return *done;
  NormOperands operands;
  operands.paramIndex = params == channels && params != groups
                            ? fmt::format("(row % {}u) * {}u + i / {}u", groups,
                                          channels / groups, spatial)
                            : fmt::format("row % {}u", groups);
  return emitLayerNorm(op, ctx, space, 1, outputs, /*rms=*/false, operands);
}

/// RMSNormalization, and ONNX Runtime's SimplifiedLayerNormalization, the
/// same with an optional inv_std_var result.
static LogicalResult lowerRMSNorm(Operation *op, LoweringContext &ctx) {
  RankedTensorType type = getTensorType(op->getOperand(0));
  if (reportUnsupported(ctx, type.getElementType()))
    return failure();
  int64_t rank = type.getRank();
  int64_t axis = onnx::OpAttrs(op).getInt("axis");
  if (axis < 0)
    axis += rank;
  SmallVector<Size> dims;
  std::optional<RowSpace> space =
      getTrailingRows(ctx, op->getOperand(0), axis, dims);
  if (!space)
    return failure();
  LayerNormOutputs outputs;
  outputs.y = ctx.allocate(type, dims);
  ctx.setResult(op->getResult(0), outputs.y);
  if (op->getNumResults() > 1 && !op->getResult(1).use_empty()) {
    RankedTensorType statsType = getTensorType(op->getResult(1));
    if (reportUnsupported(ctx, statsType.getElementType()))
      return failure();
    outputs.invStdDev = ctx.allocate(statsType, getStatsDims(dims, axis));
    ctx.setResult(op->getResult(1), outputs.invStdDev);
  }
  if (std::optional<LogicalResult> done = finishEmpty(ctx, *space))
    return *done;
  return emitLayerNorm(op, ctx, *space, axis, outputs, /*rms=*/true);
}

/// ONNX Runtime's SkipLayerNormalization and SkipSimplifiedLayerNormalization:
/// one kernel adds skip (and the bias) into each row as it loads it,
/// normalizes, and writes the output, the sum and the statistics asked for.
static LogicalResult lowerSkipLayerNorm(Operation *op, LoweringContext &ctx) {
  bool simplified = op->getName().getStringRef().contains("Simplified");
  RankedTensorType type = getTensorType(op->getOperand(0));
  Type et = type.getElementType();
  if (reportUnsupported(ctx, et))
    return failure();
  int64_t rank = type.getRank();
  int64_t axis = rank - 1;
  SmallVector<Size> dims;
  std::optional<RowSpace> space =
      getTrailingRows(ctx, op->getOperand(0), axis, dims);
  if (!space)
    return failure();
  NormOperands operands;
  operands.scale = 2;
  operands.skip = 1;
  operands.beta = simplified ? -1 : 3;
  operands.skipBias = simplified ? 3 : 4;
  LayerNormOutputs outputs;
  if (failed(
          allocateNormOutputs(op, ctx, type, dims, axis, simplified, outputs)))
    return failure();
  if (std::optional<LogicalResult> done = finishEmpty(ctx, *space))
    return *done;
  unsigned numBindings = 0;
  for (int i : {0, 1, operands.scale, operands.beta, operands.skipBias})
    numBindings += i >= 0 && op->getNumOperands() > unsigned(i) &&
                   !onnx::isNoValue(op->getOperand(i));
  numBindings +=
      1 + bool(outputs.mean) + bool(outputs.invStdDev) + bool(outputs.sum);
  if (failed(ctx.checkStorageBuffers(numBindings)))
    return failure();
  return emitLayerNorm(op, ctx, *space, axis, outputs, simplified, operands);
}

//===----------------------------------------------------------------------===//
// BatchNormalization
//===----------------------------------------------------------------------===//

static LogicalResult lowerBatchNorm(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  RankedTensorType type = getTensorType(data);
  Type et = type.getElementType();
  for (Value operand : op->getOperands())
    if (reportUnsupported(ctx, getTensorType(operand).getElementType()))
      return failure();
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.size() != size_t(type.getRank()))
    return failure();
  Value output = ctx.allocate(type, dims);
  ctx.setResult(op->getResult(0), output);
  Size total = getNumElements(ctx, dims);
  if (total.isZero())
    return success();
  // Batch and spatial dims may be known only at run time; the channels
  // size the coefficients.
  if (!dims[1].isStatic())
    return ctx.emitError() << "needs the number of channels known when it is "
                              "compiled";
  int64_t channels = dims[1].constant;
  Size plane = getNumElements(ctx, ArrayRef<Size>(dims).drop_front(2));
  SmallVector<Value> params;
  for (unsigned i = 0; i < 5; ++i) {
    params.push_back(ctx.getView(op->getOperand(i)));
    if (!params.back())
      return failure();
  }
  auto paramType = [&](unsigned i) {
    return getTensorType(op->getOperand(i)).getElementType();
  };

  // Per channel: scale / sqrt(var + epsilon), then B, in X's compute type.
  Type coefType = et.isF64() ? Type(FloatType::getF64(ctx.getContext()))
                             : Type(FloatType::getF32(ctx.getContext()));
  Value coefs = ctx.allocate(RankedTensorType::get({channels, 2}, coefType));
  std::string ct = glsl::computeType(coefType);
  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec prepare;
  prepare.name = "batch_norm_coefficients";
  prepare.workgroupSize = {wg, 1, 1};
  prepare.bindings = {gpu::Access::Read, gpu::Access::Read, gpu::Access::Read,
                      gpu::Access::Write};
  prepare.glsl =
      glsl::header(prepare.workgroupSize) +
      glsl::buffer(0, gpu::Access::Read, paramType(1), "scale") +
      glsl::buffer(1, gpu::Access::Read, paramType(2), "bias") +
      glsl::buffer(2, gpu::Access::Read, paramType(4), "var") +
      glsl::buffer(3, gpu::Access::Write, coefType, "coef") +
      fmt::format(
          "void main() {{\n"
          "  uint c = gl_GlobalInvocationID.x;\n"
          "  if (c >= {0}u) return;\n"
          "  {1} variance = {2};\n"
          "  {3}\n"
          "  {4}\n"
          "}}\n",
          channels, ct,
          glsl::convert(paramType(4), coefType,
                        glsl::load(paramType(4), "var", "c")),
          glsl::store(coefType, "coef", "2u * c",
                      glsl::convert(paramType(1), coefType,
                                    glsl::load(paramType(1), "scale", "c")) +
                          " / sqrt(variance + " +
                          glsl::literal(coefType,
                                        onnx::OpAttrs(op).getFloat("epsilon")) +
                          ")"),
          glsl::store(coefType, "coef", "2u * c + 1u",
                      glsl::convert(paramType(2), coefType,
                                    glsl::load(paramType(2), "bias", "c"))));
  ctx.dispatch(ctx.getOrCreateKernel(prepare),
               {glsl::ceilDiv(channels, wg), 1, 1},
               {params[1], params[2], params[4], coefs});

  KernelSpec apply;
  apply.name = "batch_norm";
  apply.workgroupSize = {wg, 1, 1};
  apply.bindings = {gpu::Access::Read, gpu::Access::Read, gpu::Access::Read,
                    gpu::Access::Write};
  std::string x = glsl::convert(et, coefType, glsl::load(et, "x", "i"));
  std::string mean = glsl::convert(paramType(3), coefType,
                                   glsl::load(paramType(3), "mean", "c"));
  KernelSizes sizes(ctx);
  std::string count = sizes.get(total);
  std::string planeSize = sizes.get(plane);
  std::string body =
      fmt::format("void main() {{\n"
                  "  uint i = gl_GlobalInvocationID.x;\n"
                  "  if (i >= {}) return;\n"
                  "  uint c = (i / {}) % {}u;\n"
                  "  {}\n"
                  "}}\n",
                  count, planeSize, channels,
                  glsl::store(et, "y", "i",
                              glsl::convert(coefType, et,
                                            "(" + x + " - " + mean +
                                                ") * coef.d[2u * c] + "
                                                "coef.d[2u * c + 1u]")));
  apply.glsl = glsl::header(apply.workgroupSize) + sizes.declaration() +
               glsl::buffer(0, gpu::Access::Read, et, "x") +
               glsl::buffer(1, gpu::Access::Read, paramType(3), "mean") +
               glsl::buffer(2, gpu::Access::Read, coefType, "coef") +
               glsl::buffer(3, gpu::Access::Write, et, "y") + body;
  dispatchRows(ctx, apply, sizes, ctx.ceilDiv(total, int64_t(wg)),
               {params[0], params[3], coefs, output});
  return success();
}

static const KernelGenerator normalizationGenerators[] = {
    {"onnx.Softmax", lowerSoftmax, /*dynamicDims=*/true},
    {"onnx.LogSoftmax", lowerSoftmax, /*dynamicDims=*/true},
    {"onnx.LayerNormalization", lowerLayerNorm, /*dynamicDims=*/true},
    {"onnx.InstanceNormalization", lowerInstanceNorm},
    {"onnx.GroupNormalization", lowerGroupNorm},
    {"onnx.RMSNormalization", lowerRMSNorm, /*dynamicDims=*/true},
    {"onnx.SimplifiedLayerNormalization", lowerRMSNorm, /*dynamicDims=*/true},
    {"onnx.com.microsoft.SkipLayerNormalization", lowerSkipLayerNorm,
     /*dynamicDims=*/true},
    {"onnx.com.microsoft.SkipSimplifiedLayerNormalization", lowerSkipLayerNorm,
     /*dynamicDims=*/true},
    {"onnx.BatchNormalization", lowerBatchNorm, /*dynamicDims=*/true},
};

ArrayRef<KernelGenerator> getNormalizationGenerators() {
  return normalizationGenerators;
}

} // namespace onyx::lowering

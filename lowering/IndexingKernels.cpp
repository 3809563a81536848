//===- IndexingKernels.cpp - Gather(ND), ScatterND and the Elements forms -===//
//
// Gather copies one run of `inner` elements per index and outer position,
// GatherND one slice per index tuple;
// ScatterND copies the data, then writes the updates over the copy in a
// second dispatch. Indices are read on the device (they are usually not
// constants); negative ones count from the end, and indices out of range,
// which the reference evaluator reports as errors, write zeros (Gather) or
// nothing (ScatterND) rather than touch memory outside a tensor.
//
// ScatterND without reduction runs one invocation per updated element. With
// a reduction, index tuples may repeat and each repeat must see the result
// of the one before, in order: one invocation per element of a slice walks
// all tuples. Two tuples write the same element only if they select the
// same slice, and then the same invocation writes both, so no two
// invocations race and the order is the reference's.
//
//===----------------------------------------------------------------------===//
#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering::datamovement {

namespace {

RankedTensorType checkIndices(LoweringContext &ctx, Value indices,
                              bool allowI32, bool dynamic = false) {
  RankedTensorType type =
      checkTensor(ctx, indices, "operand 'indices'", dynamic);
  if (!type)
    return {};
  Type element = type.getElementType();
  if (!element.isInteger(64) && !(allowI32 && element.isInteger(32))) {
    ctx.emitError() << "operand 'indices' has element type " << element
                    << ", expected " << (allowI32 ? "i32 or i64" : "i64");
    return {};
  }
  return type;
}

/// The operands of an indexing op, checked: data (operand 0), indices
/// (operand 1), a scatter's updates (operand 2) and the result, each a
/// ranked tensor that may have a `?`, with the dims of data and indices.
struct IndexingOperands {
  RankedTensorType dataType, indexType, outType;
  SmallVector<Poly> shape, indexShape;
};

/// Checks the operands of `op` (indices of i64, or i32 too where
/// `allowI32`) in the order the errors name them; for GatherND and
/// ScatterND (`tuples`), index tuples of a length known when compiling.
FailureOr<IndexingOperands> checkOperands(Operation *op, LoweringContext &ctx,
                                          Symbols &symbols, bool allowI32,
                                          bool tuples) {
  IndexingOperands o;
  o.dataType = checkTensor(ctx, op->getOperand(0), "operand 'data'", true);
  o.indexType = o.dataType
                    ? checkIndices(ctx, op->getOperand(1), allowI32, true)
                    : nullptr;
  if (!o.indexType ||
      (op->getNumOperands() > 2 &&
       !checkTensor(ctx, op->getOperand(2), "operand 'updates'", true)))
    return failure();
  o.outType = checkTensor(ctx, op->getResult(0), "the result", true);
  if (!o.outType)
    return failure();
  if (tuples && ShapedType::isDynamic(o.indexType.getShape().back())) {
    ctx.emitError() << "has index tuples whose length is known only at run "
                       "time; GPU kernels need a static shape there";
    return failure();
  }
  o.shape = getDims(symbols, op->getOperand(0));
  o.indexShape = getDims(symbols, op->getOperand(1));
  if (o.shape.size() != size_t(o.dataType.getRank()) ||
      o.indexShape.size() != size_t(o.indexType.getRank()))
    return failure();
  return o;
}

/// The GLSL expression a scatter's `reduction` (not "none") writes, of the
/// old value `a` and the update `b` in the computation type; as the
/// reference's, on i1 add and max are `or`, mul and min `and`.
std::string combineExpression(Type elementType, StringRef reduction) {
  if (elementType.isInteger(1))
    return reduction == "add" || reduction == "max" ? "a || b" : "a && b";
  if (reduction == "add")
    return "a + b";
  if (reduction == "mul")
    return "a * b";
  if (reduction == "max")
    return "a < b ? b : a";
  return "b < a ? b : a";
}

/// Statements declaring `int k` (element `at` of `indices`, normalized for a
/// dimension of `dim`, an int expression) and `bool valid`, whether it is in
/// range.
std::string readAxisIndex(Type indexType, StringRef at, StringRef dim) {
  std::string d = dim.str();
  return readIndex(indexType, "indices", at, "k") + "if (k < 0) k += " + d +
         ";\nbool valid = kFits && k >= 0 && k < " + d + ";\n";
}

/// `c0 * s0 + ...` over `strides` (uint expressions), with `axisTerm` for
/// dimension `axis`; `c<d>` are the coordinates.
std::string offsetExpression(ArrayRef<std::string> strides, int64_t axis,
                             StringRef axisTerm) {
  std::string expr = "0u";
  for (size_t d = 0; d < strides.size(); ++d) {
    std::string term =
        int64_t(d) == axis ? axisTerm.str() : fmt::format("c{}", d);
    expr += fmt::format(" + {} * {}", term, strides[d]);
  }
  return expr;
}

/// The GLSL texts of `values` for a kernel with `sizes`.
SmallVector<std::string> texts(Symbols &symbols, KernelSizes &sizes,
                               ArrayRef<Poly> values) {
  SmallVector<std::string> result;
  for (const Poly &p : values)
    result.push_back(symbols.text(p, sizes));
  return result;
}

/// The coordinates of `flat` in `shape` as data movement's coordinates()
/// declares them (the outermost size is not needed).
std::string coordinatesOf(Symbols &symbols, KernelSizes &sizes,
                          ArrayRef<Poly> shape, StringRef flat,
                          StringRef prefix) {
  SmallVector<std::string> dims = {""};
  for (const Poly &d : shape.drop_front())
    dims.push_back(symbols.text(d, sizes));
  return coordinates(shape.empty() ? ArrayRef<std::string>() : dims, flat,
                     prefix);
}

/// Statements adding to `uint offset` (in units of `factor` elements) the
/// place of index tuple `tuple` (a uint expression) of `indices`, one index
/// per dimension of `dims` with `strides`, and clearing `bool valid` if an
/// index is out of range; negative indices count from the end. GatherND and
/// ScatterND read their tuples this way.
std::string addTupleOffset(Symbols &symbols, KernelSizes &sizes, Type indexType,
                           StringRef tuple, ArrayRef<Poly> dims,
                           ArrayRef<Poly> strides, int64_t factor) {
  std::string code;
  int64_t k = dims.size();
  for (int64_t j = 0; j < k; ++j) {
    std::string v = fmt::format("k{}", j);
    std::string dim = symbols.intText(dims[j], sizes);
    code +=
        readIndex(indexType, "indices",
                  tuple.str() + " * " + uintLiteral(k) + " + " + uintLiteral(j),
                  v) +
        "if (" + v + " < 0) " + v + " += " + dim + ";\nvalid = valid && " + v +
        "Fits && " + v + " >= 0 && " + v + " < " + dim + ";\noffset += uint(" +
        v + ") * " + symbols.text(strides[j].divideExactly(factor), sizes) +
        ";\n";
  }
  return code;
}

/// How a gather moves runs of `runElements` elements of `dataType` into a
/// result of `outCount` elements: in units as wide as the runs allow,
/// `factor` elements each; `run` and `total` count units.
struct GatherUnits {
  unsigned unit;
  int64_t factor;
  Poly run, total;
};

GatherUnits getGatherUnits(LoweringContext &ctx, RankedTensorType dataType,
                           const Poly &runElements, const Poly &outCount) {
  unsigned byteSize = getByteSize(dataType.getElementType());
  unsigned unit = getWidestUnit(ctx, byteSize, runElements.getDivisor());
  int64_t factor = unit / byteSize;
  return {unit, factor, runElements.divideExactly(factor),
          outCount.divideExactly(factor)};
}

/// Dispatches a gather kernel `name` whose `main` reads units of `x` (data)
/// at `indices` of `indexType` and writes units of `y`, one invocation per
/// unit of the result. `main` is complete: its texts are in `sizes`.
void dispatchGatherKernel(LoweringContext &ctx, Symbols &symbols,
                          KernelSizes &sizes, StringRef name,
                          const GatherUnits &units, Type indexType,
                          const std::string &main, Value data, Value indices,
                          Value out) {
  KernelSpec spec;
  spec.name = name.str();
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Read, gpu::Access::Write};
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() +
              bitsBuffer(0, gpu::Access::Read, units.unit, "x") +
              indexBuffer(1, indexType, "indices") +
              bitsBuffer(2, gpu::Access::Write, units.unit, "y") + main;
  dispatchLinear(symbols, spec, sizes, units.total, {data, indices, out});
}

/// Copies `data` into `out`: the first step of the scatters.
void copyData(Symbols &symbols, ArrayRef<Poly> shape, unsigned byteSize,
              Value data, Value out) {
  dispatchCopies(symbols, "copy",
                 {gatherPiece(shape, 0, 0, getStrides(shape), 1)}, byteSize,
                 {data, out}, {gpu::Access::Read, gpu::Access::Write});
}

} // namespace

LogicalResult lowerGather(Operation *op, LoweringContext &ctx) {
  Symbols symbols(ctx);
  FailureOr<IndexingOperands> o = checkOperands(op, ctx, symbols, true, false);
  if (failed(o))
    return failure();
  auto &[dataType, indexType, outType, shape, indexShape] = *o;
  int64_t axis = onnx::OpAttrs(op).getInt("axis");
  if (axis < 0)
    axis += dataType.getRank();
  // The result is data's dims with the indices' in place of the axis.
  SmallVector<Poly> outDims(shape.begin(), shape.begin() + axis);
  outDims.append(indexShape.begin(), indexShape.end());
  outDims.append(shape.begin() + axis + 1, shape.end());
  Poly dim = shape[axis];
  Poly count = getNumElements(indexShape);
  Poly inner = getNumElements(ArrayRef<Poly>(shape).drop_front(axis + 1));
  Poly outCount = getNumElements(outDims);
  if (!outCount.isConstant(0) && dim.isConstant(0))
    return ctx.emitError() << "gathers from an empty dimension";
  Value out =
      allocateResult(symbols, op->getResult(0), resultDims(outType, outDims));
  if (outCount.isConstant(0))
    return success();
  Value data = ctx.getView(op->getOperand(0));
  Value indices = data ? ctx.getView(op->getOperand(1)) : nullptr;
  if (!indices)
    return failure();

  // Runs of `inner` elements move in units as wide as they allow.
  GatherUnits units = getGatherUnits(ctx, dataType, inner, outCount);
  const Poly &run = units.run;

  KernelSizes sizes(ctx);
  auto text = [&](const Poly &p) {
    return p.isStatic() ? uintLiteral(p.getConstant()) : symbols.text(p, sizes);
  };
  // The axis's size as an int.
  std::string dimInt = dim.isStatic() ? std::to_string(dim.getConstant())
                                      : "int(" + symbols.text(dim, sizes) + ")";
  // Each size's text in a statement of its own, the last first: a text may
  // create host ops, and the order of a `+`'s operands is unspecified (the
  // host program must not depend on the compiler).
  std::string runText = text(run), dimText = text(dim);
  std::string blockText = text(run * count), countText = text(count);
  std::string totalText = text(units.total);
  std::string main =
      "void main() {\n"
      "uint i = gl_GlobalInvocationID.x;\n"
      "if (i >= " +
      totalText +
      ") return;\n"
      "uint r = i % " +
      runText +
      ";\n"
      "uint t = (i / " +
      runText + ") % " + countText +
      ";\n"
      "uint o = i / " +
      blockText + ";\n" +
      readIndex(indexType.getElementType(), "indices", "t", "k") +
      "if (k < 0) k += " + dimInt +
      ";\n"
      "if (kFits && k >= 0 && k < " +
      dimInt +
      ")\n"
      "y.d[i] = x.d[(o * " +
      dimText + " + uint(k)) * " + runText +
      " + r];\n"
      "else\n"
      "y.d[i] = " +
      bitsZero(units.unit) +
      ";\n"
      "}\n";
  dispatchGatherKernel(ctx, symbols, sizes, "gather", units,
                       indexType.getElementType(), main, data, indices, out);
  return success();
}

/// GatherND: one invocation per unit of the result, which is the slice
/// `e` of tuple `t` of batch `n`; an index tuple out of range gives zeros.
LogicalResult lowerGatherND(Operation *op, LoweringContext &ctx) {
  Symbols symbols(ctx);
  FailureOr<IndexingOperands> o = checkOperands(op, ctx, symbols, false, true);
  if (failed(o))
    return failure();
  auto &[dataType, indexType, outType, shape, indexShape] = *o;
  int64_t k = indexType.getShape().back();
  int64_t b = onnx::OpAttrs(op).getInt("batch_dims");
  for (int64_t d = 0; d < b; ++d)
    if (failed(checkAtRunTime(symbols, "gpu.eqi", shape[d], indexShape[d],
                              "batch dimension " + std::to_string(d) +
                                  " is {0} in 'data' but {1} in 'indices'")))
      return failure();
  ArrayRef<Poly> inner = ArrayRef<Poly>(shape).drop_front(b);
  SmallVector<Poly> outDims(indexShape.begin(), indexShape.end() - 1);
  outDims.append(inner.begin() + k, inner.end());
  Poly tuples = getNumElements(
      ArrayRef<Poly>(indexShape).drop_front(b).drop_back()); // per batch
  Poly slice = getNumElements(inner.drop_front(k));
  Poly outCount = getNumElements(outDims);
  Value out =
      allocateResult(symbols, op->getResult(0), resultDims(outType, outDims));
  if (outCount.isConstant(0))
    return success();
  Value data = ctx.getView(op->getOperand(0));
  Value indices = data ? ctx.getView(op->getOperand(1)) : nullptr;
  if (!indices)
    return failure();

  // Slices move in units as wide as they allow.
  GatherUnits units = getGatherUnits(ctx, dataType, slice, outCount);
  int64_t factor = units.factor;
  SmallVector<Poly> strides = getStrides(inner);
  KernelSizes sizes(ctx);
  auto text = [&](const Poly &p) { return symbols.text(p, sizes); };
  // g counts tuples over all batches; the batch's data starts at
  // n * batchUnits. Each text in a statement of its own, the last first, as
  // in lowerGather.
  std::string batchUnits = text(getNumElements(inner).divideExactly(factor));
  std::string offset = "uint n = g / " + text(tuples) +
                       ";\nuint offset = n * " + batchUnits +
                       ";\nbool valid = true;\n";
  offset += addTupleOffset(symbols, sizes, indexType.getElementType(), "g",
                           inner.take_front(k), strides, factor);
  std::string runText = text(units.run);
  std::string main =
      "void main() {\n"
      "uint i = gl_GlobalInvocationID.x;\n"
      "if (i >= " +
      text(units.total) +
      ") return;\n"
      "uint g = i / " +
      runText + ", e = i % " + runText + ";\n" + offset +
      "y.d[i] = valid ? x.d[offset + e] : " + bitsZero(units.unit) + ";\n}\n";
  dispatchGatherKernel(ctx, symbols, sizes, "gather_nd", units,
                       indexType.getElementType(), main, data, indices, out);
  return success();
}

LogicalResult lowerScatterND(Operation *op, LoweringContext &ctx) {
  Symbols symbols(ctx);
  FailureOr<IndexingOperands> o = checkOperands(op, ctx, symbols, false, true);
  if (failed(o))
    return failure();
  auto &[dataType, indexType, outType, shape, indexShape] = *o;
  int64_t k = indexType.getShape().back();
  Type elementType = dataType.getElementType();
  StringRef reduction = onnx::OpAttrs(op).getString("reduction");
  Poly tuples = getNumElements(ArrayRef<Poly>(indexShape).drop_back());
  Poly slice = getNumElements(ArrayRef<Poly>(shape).drop_front(k));
  // Updates are [tuples..., slice...]: one per element the tuples select.
  SmallVector<Poly> updateShape = getDims(symbols, op->getOperand(2));
  SmallVector<Poly> expected(indexShape.begin(), indexShape.end() - 1);
  expected.append(shape.begin() + k, shape.end());
  if (updateShape.size() != expected.size())
    return failure();
  for (size_t d = 0; d < expected.size(); ++d)
    if (failed(checkAtRunTime(symbols, "gpu.eqi", updateShape[d], expected[d],
                              "updates have {0} elements along axis " +
                                  std::to_string(d) +
                                  " where {1} are "
                                  "scattered")))
      return failure();
  Value data = ctx.getView(op->getOperand(0));
  Value indices = data ? ctx.getView(op->getOperand(1)) : nullptr;
  Value updates = indices ? ctx.getView(op->getOperand(2)) : nullptr;
  if (!updates)
    return failure();
  Value out = allocateResult(symbols, op->getResult(0), shape);
  unsigned byteSize = getByteSize(elementType);
  copyData(symbols, shape, byteSize, data, out);
  // Nothing to write, or (data empty) no index that is in range.
  if (tuples.isConstant(0) || slice.isConstant(0) ||
      getNumElements(shape).isConstant(0))
    return success();

  // Without a reduction, elements move as bits, in units as wide as the
  // slices allow; reductions compute in the element type.
  bool bits = reduction == "none";
  unsigned unit =
      bits ? getWidestUnit(ctx, byteSize, slice.getDivisor()) : byteSize;
  int64_t factor = unit / byteSize;
  SmallVector<Poly> strides = getStrides(shape);
  KernelSizes sizes(ctx);
  auto text = [&](const Poly &p) { return symbols.text(p, sizes); };
  // The offset of the slice tuple `t` selects, or skips the tuple.
  std::string offset = "uint offset = 0u;\nbool valid = true;\n";
  offset +=
      addTupleOffset(symbols, sizes, indexType.getElementType(), "t",
                     ArrayRef<Poly>(shape).take_front(k), strides, factor);

  KernelSpec spec;
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::ReadWrite, gpu::Access::Read,
                   gpu::Access::Read};
  std::string code;
  Poly invocations;
  if (bits) {
    Poly run = slice.divideExactly(factor);
    invocations = tuples * run;
    spec.name = "scatter_nd";
    // Each text in a statement of its own, the last first, as in
    // lowerGather.
    std::string runText = text(run);
    code += bitsBuffer(0, gpu::Access::ReadWrite, unit, "y") +
            indexBuffer(1, indexType.getElementType(), "indices") +
            bitsBuffer(2, gpu::Access::Read, unit, "u") +
            "void main() {\n"
            "uint i = gl_GlobalInvocationID.x;\n"
            "if (i >= " +
            text(invocations) +
            ") return;\n"
            "uint t = i / " +
            runText + ", e = i % " + runText + ";\n" + offset +
            "if (valid)\n"
            "y.d[offset + e] = u.d[i];\n"
            "}\n";
  } else {
    std::string combined = combineExpression(elementType, reduction);
    std::string c = glsl::computeType(elementType);
    invocations = slice;
    spec.name = "scatter_nd_" + reduction.str();
    std::string sliceText = text(slice);
    std::string tuplesText = text(tuples);
    code +=
        glsl::buffer(0, gpu::Access::ReadWrite, elementType, "y") +
        indexBuffer(1, indexType.getElementType(), "indices") +
        glsl::buffer(2, gpu::Access::Read, elementType, "u") +
        "void main() {\n"
        "uint e = gl_GlobalInvocationID.x;\n"
        "if (e >= " +
        sliceText +
        ") return;\n"
        "for (uint t = 0u; t < " +
        tuplesText + "; ++t) {\n" + offset + "if (!valid) continue;\n" + c +
        " a = " + glsl::load(elementType, "y", "offset + e") + ";\n" + c +
        " b = " + glsl::load(elementType, "u", "t * " + sliceText + " + e") +
        ";\n" +
        glsl::store(elementType, "y", "offset + e", "(" + combined + ")") +
        "\n}\n}\n";
  }
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() + code;
  dispatchLinear(symbols, spec, sizes, invocations, {out, indices, updates});
  return success();
}

/// One invocation per output element: its coordinates are those of its
/// index, which replaces the one along `axis` to find the element of data.
LogicalResult lowerGatherElements(Operation *op, LoweringContext &ctx) {
  Symbols symbols(ctx);
  FailureOr<IndexingOperands> o = checkOperands(op, ctx, symbols, true, false);
  if (failed(o))
    return failure();
  auto &[dataType, indexType, outType, shape, indexShape] = *o;
  int64_t axis = onnx::OpAttrs(op).getInt("axis");
  if (axis < 0)
    axis += dataType.getRank();
  for (size_t d = 0; d < shape.size(); ++d)
    if (int64_t(d) != axis &&
        failed(checkAtRunTime(symbols, "gpu.lei", indexShape[d], shape[d],
                              "indices have {0} elements along axis " +
                                  std::to_string(d) +
                                  ", more than data's {1}")))
      return failure();
  SmallVector<Poly> outDims = resultDims(outType, indexShape);
  Poly total = getNumElements(outDims);
  if (!total.isConstant(0) && shape[axis].isConstant(0))
    return ctx.emitError() << "gathers from an empty dimension";
  Value out = allocateResult(symbols, op->getResult(0), outDims);
  if (total.isConstant(0))
    return success();
  Value data = ctx.getView(op->getOperand(0));
  Value indices = data ? ctx.getView(op->getOperand(1)) : nullptr;
  if (!indices)
    return failure();
  unsigned byteSize = getByteSize(dataType.getElementType());
  KernelSizes sizes(ctx);
  // Each text in a statement of its own, the last first, as in lowerGather.
  std::string offset = offsetExpression(
      texts(symbols, sizes, getStrides(shape)), axis, "uint(k)");
  std::string axisIndex = readAxisIndex(indexType.getElementType(), "i",
                                        symbols.intText(shape[axis], sizes));
  std::string coordinates = coordinatesOf(symbols, sizes, outDims, "i", "c");
  std::string main = "void main() {\n"
                     "uint i = gl_GlobalInvocationID.x;\n"
                     "if (i >= " +
                     symbols.text(total, sizes) + ") return;\n" + coordinates +
                     axisIndex +
                     "if (valid)\n"
                     "y.d[i] = x.d[" +
                     offset +
                     "];\n"
                     "else\n"
                     "y.d[i] = " +
                     bitsZero(byteSize) +
                     ";\n"
                     "}\n";
  KernelSpec spec;
  spec.name = "gather_elements";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Read, gpu::Access::Write};
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() +
              bitsBuffer(0, gpu::Access::Read, byteSize, "x") +
              indexBuffer(1, indexType.getElementType(), "indices") +
              bitsBuffer(2, gpu::Access::Write, byteSize, "y") + main;
  dispatchLinear(symbols, spec, sizes, total, {data, indices, out});
  return success();
}

/// The data is copied, then one invocation per line of indices along
/// `axis` applies that line's updates in order. Two updates write the same
/// element only if they are on the same line, so the same invocation writes
/// both, in the reference's order: repeated indices give the last update
/// (no reduction) or combine in order, without races.
LogicalResult lowerScatterElements(Operation *op, LoweringContext &ctx) {
  Symbols symbols(ctx);
  FailureOr<IndexingOperands> o = checkOperands(op, ctx, symbols, true, false);
  if (failed(o))
    return failure();
  auto &[dataType, indexType, outType, shape, indexShape] = *o;
  Type elementType = dataType.getElementType();
  onnx::OpAttrs attrs(op);
  StringRef reduction = attrs.getString("reduction");
  int64_t axis = attrs.getInt("axis");
  if (axis < 0)
    axis += dataType.getRank();
  Value data = ctx.getView(op->getOperand(0));
  Value indices = data ? ctx.getView(op->getOperand(1)) : nullptr;
  Value updates = indices ? ctx.getView(op->getOperand(2)) : nullptr;
  if (!updates)
    return failure();
  SmallVector<Poly> updateShape = getDims(symbols, op->getOperand(2));
  if (updateShape.size() != indexShape.size())
    return failure();
  for (size_t d = 0; d < shape.size(); ++d) {
    std::string along = " elements along axis " + std::to_string(d);
    if (failed(checkAtRunTime(symbols, "gpu.eqi", updateShape[d], indexShape[d],
                              "updates have {0}" + along +
                                  " where indices have {1}")) ||
        (int64_t(d) != axis &&
         failed(checkAtRunTime(symbols, "gpu.lei", indexShape[d], shape[d],
                               "indices have {0}" + along +
                                   ", more than data's {1}"))))
      return failure();
  }
  Value out = allocateResult(symbols, op->getResult(0), shape);
  unsigned byteSize = getByteSize(elementType);
  copyData(symbols, shape, byteSize, data, out);
  Poly count = getNumElements(indexShape);
  if (count.isConstant(0))
    return success();
  if (getNumElements(shape).isConstant(0))
    return ctx.emitError() << "scatters into an empty tensor";

  KernelSizes sizes(ctx);
  auto text = [&](const Poly &p) { return symbols.text(p, sizes); };
  Poly length = indexShape[axis];
  SmallVector<Poly> lineShape(indexShape);
  lineShape[axis] = 1;
  Poly lines = getNumElements(lineShape);
  SmallVector<Poly> indexStrides = getStrides(indexShape);
  // Each text in a statement of its own, the last first, as in lowerGather.
  std::string axisStride = text(indexStrides[axis]);
  std::string at = fmt::format(
      "({}) + j * {}",
      offsetExpression(texts(symbols, sizes, indexStrides), axis, "0u"),
      axisStride);
  std::string target = offsetExpression(
      texts(symbols, sizes, getStrides(shape)), axis, "uint(k)");
  bool bits = reduction == "none";
  KernelSpec spec;
  spec.name = bits ? "scatter_elements" : "scatter_elements_" + reduction.str();
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::ReadWrite, gpu::Access::Read,
                   gpu::Access::Read};
  std::string code;
  std::string write;
  if (bits) {
    code += bitsBuffer(0, gpu::Access::ReadWrite, byteSize, "y") +
            indexBuffer(1, indexType.getElementType(), "indices") +
            bitsBuffer(2, gpu::Access::Read, byteSize, "u");
    write = "y.d[target] = u.d[at];\n";
  } else {
    std::string c = glsl::computeType(elementType);
    code += glsl::buffer(0, gpu::Access::ReadWrite, elementType, "y") +
            indexBuffer(1, indexType.getElementType(), "indices") +
            glsl::buffer(2, gpu::Access::Read, elementType, "u");
    write = fmt::format(
        "{0} a = {1};\n{0} b = {2};\n{3}\n", c,
        glsl::load(elementType, "y", "target"),
        glsl::load(elementType, "u", "at"),
        glsl::store(
            elementType, "y", "target",
            fmt::format("({})", combineExpression(elementType, reduction))));
  }
  std::string axisIndex = readAxisIndex(indexType.getElementType(), "at",
                                        symbols.intText(shape[axis], sizes));
  std::string lengthText = text(length);
  std::string coordinates =
      coordinatesOf(symbols, sizes, lineShape, "line", "c");
  std::string linesText = text(lines);
  code += fmt::format("void main() {{\n"
                      "uint line = gl_GlobalInvocationID.x;\n"
                      "if (line >= {}) return;\n"
                      "{}"
                      "for (uint j = 0u; j < {}; ++j) {{\n"
                      "uint at = {};\n"
                      "{}"
                      "if (!valid) continue;\n"
                      "uint target = {};\n"
                      "{}}}\n}}\n",
                      linesText, coordinates, lengthText, at, axisIndex, target,
                      write);
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() + code;
  dispatchLinear(symbols, spec, sizes, lines, {out, indices, updates});
  return success();
}

} // namespace onyx::lowering::datamovement

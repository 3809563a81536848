//===- CompressKernels.cpp - NonZero, Compress and Unique -----------------===//
//
// NonZero's and Compress's result sizes depend on data: on which elements are
// nonzero, on which entries of the condition are true.
//
// Where that data is known to the host program (a Compress condition that is
// a constant or an input, a NonZero input that is an input of the function,
// each of at most kMaxShapeValueElements elements), its elements are index
// values (gpu.extract), so the count is host arithmetic that sizes the
// result, and the elements reach the kernel as push constants: one compiled
// kernel serves every value, and nothing is read back. Each output element
// finds the j-th selected position by a scan of those at most 16 flags.
//
// Data that kernels compute is read back: one workgroup scans it in chunks
// of its size (a prefix sum in shared memory per chunk) and writes the
// positions of the selected elements in order, at most all of them, and
// their count, which a gpu.read_count gives to the host program; the
// runtime splits the run there. A second kernel, sized by that count, writes
// the result from the positions. Unique finds each item's first occurrence
// and output position on the device and reads back the number of distinct
// items the same way (lowerUnique).
//
//===----------------------------------------------------------------------===//

#include "lowering/DataMovement.h"
#include "lowering/ShapeValues.h"

#include "dialect/gpu/HostOps.h"
#include "dialect/onnx/OpSchema.h"

#include <fmt/format.h>

namespace onyx::lowering {

using namespace datamovement;

namespace {

/// 1 where `v` is not 0, else 0.
Size isNonZero(LoweringContext &ctx, Size v) {
  return ctx.arith("gpu.subi", 1, ctx.arith("gpu.eqi", v, 0));
}

/// GLSL statements declaring `uint src`: the position of the (j+1)-th
/// nonzero of `flags` (GLSL uint expressions), for `uint j` below their
/// count.
std::string findSelected(ArrayRef<std::string> flags) {
  std::string list;
  for (const std::string &f : flags)
    list += (list.empty() ? "" : ", ") + f;
  return fmt::format("  const uint N = {0}u;\n"
                     "  uint flags[N] = uint[]({1});\n"
                     "  uint src = 0u;\n"
                     "  uint want = j;\n"
                     "  for (uint c = 0u; c < N; ++c) {{\n"
                     "    if (flags[c] == 0u) continue;\n"
                     "    if (want == 0u) {{ src = c; break; }}\n"
                     "    --want;\n"
                     "  }}\n",
                     flags.size(), list);
}

/// Invocations of the scanning workgroup: the least every Vulkan device
/// allows.
constexpr uint32_t kScanWorkgroup = 128;

/// Where `some` (0 or 1) is known only at run time: a kernel binding only
/// `count` writes 0 to it when `some` is 0, since the kernel that counts
/// cannot bind an input that is empty then.
void writeZeroCount(LoweringContext &ctx, Size some, Value count) {
  if (some.isStatic())
    return;
  KernelSpec zero;
  zero.name = "count_none";
  zero.workgroupSize = {1, 1, 1};
  zero.bindings = {gpu::Access::Write};
  zero.glsl = glsl::header(zero.workgroupSize) +
              bitsBuffer(0, gpu::Access::Write, 4, "count") +
              "void main() { count.d[0] = 0u; }\n";
  ctx.dispatch(ctx.getOrCreateKernel(zero),
               {ctx.sub(Size(1), some), Size(1), Size(1)}, {count}, {});
}

/// The number of `i < n` for which `predicate` (a GLSL bool expression of
/// `uint i`, reading buffers `declarations` declares at bindings 0 ..
/// inputs.size() - 1) holds, read back to the host, with their positions
/// in increasing order written to `positions` (ui32, at least n elements).
Size scanSelected(LoweringContext &ctx, Size n, StringRef declarations,
                  StringRef predicate, ValueRange inputs, Value positions) {
  if (n.isZero())
    return Size(0);
  OpBuilder &b = ctx.getBuilder();
  Type i32 = b.getIntegerType(32);
  Value count = ctx.allocate(RankedTensorType::get({1}, i32));
  unsigned p = inputs.size();
  KernelSizes sizes(ctx);
  std::string nText = sizes.get(n);
  KernelSpec spec;
  spec.name = "select_scan";
  spec.workgroupSize = {kScanWorkgroup, 1, 1};
  spec.bindings.assign(inputs.size(), gpu::Access::Read);
  spec.bindings.append({gpu::Access::Write, gpu::Access::Write});
  spec.glsl =
      glsl::header(spec.workgroupSize) + sizes.declaration() +
      declarations.str() + bitsBuffer(p, gpu::Access::Write, 4, "pos") +
      bitsBuffer(p + 1, gpu::Access::Write, 4, "count") +
      fmt::format("const uint W = {0}u;\n"
                  "shared uint sums[W];\n"
                  "void main() {{\n"
                  "  uint t = gl_LocalInvocationID.x;\n"
                  "  uint total = 0u;\n"
                  "  for (uint base = 0u; base < {1}; base += W) {{\n"
                  "    uint i = base + t;\n"
                  "    uint flag = 0u;\n"
                  "    if (i < {1}) flag = ({2}) ? 1u : 0u;\n"
                  "    sums[t] = flag;\n"
                  "    barrier();\n"
                  "    for (uint s = 1u; s < W; s <<= 1) {{\n"
                  "      uint add = t >= s ? sums[t - s] : 0u;\n"
                  "      barrier();\n"
                  "      sums[t] += add;\n"
                  "      barrier();\n"
                  "    }}\n"
                  "    if (flag != 0u) pos.d[total + sums[t] - 1u] = i;\n"
                  "    total += sums[W - 1u];\n"
                  "    barrier();\n"
                  "  }}\n"
                  "  if (t == 0u) count.d[0] = total;\n"
                  "}}\n",
                  kScanWorkgroup, nText, predicate.str());
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef scan = ctx.getOrCreateKernel(spec);
  SmallVector<Value> bindings(inputs.begin(), inputs.end());
  bindings.append({positions, count});
  Size some = ctx.min(n, Size(1));
  ctx.dispatch(scan, {some, Size(1), Size(1)}, bindings, push);
  writeZeroCount(ctx, some, count);
  return Size(b.create<gpu::ReadCountOp>(ctx.getLoc(), count)->getResult(0));
}

/// A scratch tensor of `n` ui32 positions.
Value allocatePositions(LoweringContext &ctx, Size n) {
  Type i32 = ctx.getBuilder().getIntegerType(32);
  if (n.isStatic())
    return ctx.allocate(
        RankedTensorType::get({std::max<int64_t>(n.constant, 1)}, i32));
  return ctx.allocate(RankedTensorType::get({ShapedType::kDynamic}, i32), {n});
}

/// How Compress sees its data: without an axis, the flattened input; with
/// one, `outer` rows of `length` entries of `inner` elements each.
struct CompressShape {
  bool hasAxis = false;
  int64_t axis = 0;
  Size outer{1}, length, inner{1};
};

/// Where a gather along one axis finds the position in the axis of its
/// entry `j`: in a list of u32 positions (the buffer `list`, bound between x
/// and y), or, where `list` is empty, among the nonzero `flags` of a
/// condition known on the host (findSelected).
struct GatherSource {
  StringRef list;
  StringRef j = "j";
  ArrayRef<Size> flags;
};

/// Dispatches kernel `name` gathering runs along one axis: element
/// i = (o, j, k) of y, of `total` elements, is x[(o * length + src) * inner +
/// k], where src is the position `source` gives for entry j of `count`.
/// Bound: x, the list if any, y.
void dispatchPositionGather(LoweringContext &ctx, StringRef name,
                            unsigned byteSize, Size total, Size inner,
                            Size count, Size length, const GatherSource &source,
                            ValueRange bindings) {
  KernelSizes sizes(ctx);
  std::string totalText = sizes.get(total), innerText = sizes.get(inner),
              countText = sizes.get(count), lengthText = sizes.get(length);
  bool listed = !source.list.empty();
  std::string find, src;
  if (listed) {
    src = fmt::format("{}.d[{}]", source.list, source.j);
  } else {
    SmallVector<std::string> flagTexts;
    for (Size f : source.flags)
      flagTexts.push_back(sizes.get(f));
    find = findSelected(flagTexts);
    src = "src";
  }
  KernelSpec spec;
  spec.name = name.str();
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  std::string buffers = bitsBuffer(0, gpu::Access::Read, byteSize, "x");
  spec.bindings = {gpu::Access::Read};
  if (listed) {
    buffers += bitsBuffer(1, gpu::Access::Read, 4, source.list);
    spec.bindings.push_back(gpu::Access::Read);
  }
  buffers +=
      bitsBuffer(spec.bindings.size(), gpu::Access::Write, byteSize, "y");
  spec.bindings.push_back(gpu::Access::Write);
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() + buffers +
              "void main() {\n"
              "  uint i = gl_GlobalInvocationID.x;\n"
              "  if (i >= " +
              totalText + ") return;\n" +
              fmt::format("  uint k = i % {0};\n"
                          "  uint t = i / {0};\n"
                          "  uint {2} = t % {1};\n"
                          "  uint o = t / {1};\n",
                          innerText, countText, source.j) +
              find +
              fmt::format("  y.d[i] = x.d[(o * {} + {}) * {} + k];\n}}\n",
                          lengthText, src, innerText);
  Symbols symbols(ctx);
  dispatchLinear(symbols, spec, sizes, symbols.get(total), bindings);
}

static CompressShape getCompressShape(LoweringContext &ctx, Operation *op,
                                      ArrayRef<Size> dims) {
  CompressShape shape;
  shape.length = getNumElements(ctx, dims);
  onnx::OpAttrs attrs(op);
  if (!attrs.has("axis"))
    return shape;
  shape.hasAxis = true;
  shape.axis = attrs.getInt("axis");
  if (shape.axis < 0)
    shape.axis += dims.size();
  shape.outer = getNumElements(ctx, dims.take_front(shape.axis));
  shape.length = dims[shape.axis];
  shape.inner = getNumElements(ctx, dims.drop_front(shape.axis + 1));
  return shape;
}

/// Allocates Compress's result for `count` selected entries (the data's
/// dims with `count` at the axis, or `count` alone; dims the result type
/// knows are taken from it) and gathers them from the data with kernel
/// `name`, `source` giving each entry's position (in the list `positions`
/// where it names one).
static LogicalResult gatherCompressed(LoweringContext &ctx, Operation *op,
                                      const CompressShape &shape,
                                      ArrayRef<Size> dims, Size count,
                                      unsigned byteSize, StringRef name,
                                      const GatherSource &source,
                                      Value positions = {}) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Size> resultDims = {count};
  if (shape.hasAxis) {
    resultDims.assign(dims.begin(), dims.end());
    resultDims[shape.axis] = count;
  }
  for (auto [d, dim] : llvm::enumerate(resultType.getShape()))
    if (!ShapedType::isDynamic(dim))
      resultDims[d] = dim;
  Value out = ctx.allocate(resultType, resultDims);
  ctx.setResult(op->getResult(0), out);
  Size total = ctx.mul(ctx.mul(shape.outer, count), shape.inner);
  if (total.isZero())
    return success();
  Value in = ctx.getView(op->getOperand(0));
  if (!in)
    return failure();
  SmallVector<Value, 3> bindings = {in};
  if (positions)
    bindings.push_back(positions);
  bindings.push_back(out);
  dispatchPositionGather(ctx, name, byteSize, total, shape.inner, count,
                         shape.length, source, bindings);
  return success();
}

/// Compress whose condition kernels compute: the positions of its true
/// entries are scanned on the device and their count read back.
LogicalResult lowerCompressOnDevice(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0), cond = op->getOperand(1);
  auto dataType = cast<RankedTensorType>(data.getType());
  auto condType = cast<RankedTensorType>(cond.getType());
  unsigned byteSize = getByteSize(dataType.getElementType());
  if (!byteSize)
    return ctx.emitError() << "has an element type kernels cannot hold";
  SmallVector<Size> dims = ctx.getDims(data), condDims = ctx.getDims(cond);
  if (dims.size() != size_t(dataType.getRank()) || condDims.size() != 1)
    return failure();
  CompressShape shape = getCompressShape(ctx, op, dims);
  Size length = shape.length;
  // ONNX refuses a condition longer than the dimension; the verifier does
  // where both are static.
  if (failed(ctx.check(ctx.arith("gpu.lei", condDims[0], length),
                       "operand 'condition' has {0} entries, more than the "
                       "dimension it selects from ({1})",
                       {condDims[0], length})))
    return failure();
  Value condView = ctx.getView(cond);
  if (!condView)
    return failure();
  Size n = condDims[0];
  Value positions = allocatePositions(ctx, n);
  Size count = scanSelected(
      ctx, n,
      glsl::buffer(0, gpu::Access::Read, condType.getElementType(), "c"),
      glsl::load(condType.getElementType(), "c", "i"), {condView}, positions);
  return gatherCompressed(ctx, op, shape, dims, count, byteSize,
                          "compress_gather", {"pos", "j", {}}, positions);
}

/// NonZero of data kernels compute: the flat positions of its nonzero
/// elements are scanned on the device and their count read back; a second
/// kernel writes their coordinates.
LogicalResult lowerNonZeroOnDevice(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  auto dataType = cast<RankedTensorType>(data.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type element = dataType.getElementType();
  if (!glsl::isSupported(element))
    return ctx.emitError() << "has an element type kernels cannot hold";
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.size() != size_t(dataType.getRank()))
    return failure();
  // A 0-D input counts as rank 1, as numpy's nonzero does.
  if (dims.empty())
    dims.push_back(Size(1));
  int64_t rank = dims.size();
  Size n = getNumElements(ctx, dims);
  Value in = ctx.getView(data);
  if (!in)
    return failure();
  Value positions = allocatePositions(ctx, n);
  Type i1 = ctx.getBuilder().getIntegerType(1);
  Size count =
      scanSelected(ctx, n, glsl::buffer(0, gpu::Access::Read, element, "x"),
                   glsl::convert(element, i1, glsl::load(element, "x", "i")),
                   {in}, positions);
  Value out = ctx.allocate(resultType, {Size(rank), count});
  ctx.setResult(op->getResult(0), out);
  Size total = ctx.mul(count, rank);
  if (total.isZero())
    return success();
  KernelSizes sizes(ctx);
  std::string countText = sizes.get(count), totalText = sizes.get(total);
  std::string select = "  uint c = 0u;\n";
  // Coordinate d of flat position `src`: the last dimension varies fastest.
  std::string stride = "1u";
  for (int64_t d = rank; d-- > 0;) {
    std::string extent = sizes.get(dims[d]);
    select += fmt::format("  if (d == {0}u) c = (src / ({1})) % {2};\n", d,
                          stride, extent);
    stride = "(" + stride + ") * " + extent;
  }
  KernelSpec spec;
  spec.name = "nonzero_coordinates";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() +
              bitsBuffer(0, gpu::Access::Read, 4, "pos") +
              bitsBuffer(1, gpu::Access::Write, 8, "y") +
              "void main() {\n"
              "  uint i = gl_GlobalInvocationID.x;\n"
              "  if (i >= " +
              totalText + ") return;\n  uint d = i / " + countText +
              ";\n  uint src = pos.d[i % " + countText + "];\n" + select +
              "  y.d[i] = uvec2(c, 0u);\n}\n";
  Symbols symbols(ctx);
  dispatchLinear(symbols, spec, sizes, symbols.get(total), {positions, out});
  return success();
}

LogicalResult lowerCompress(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  auto dataType = cast<RankedTensorType>(data.getType());
  unsigned byteSize = getByteSize(dataType.getElementType());
  if (!byteSize)
    return ctx.emitError() << "has an element type kernels cannot hold";
  std::optional<SmallVector<Size>> condition =
      ctx.getShapeValue(op->getOperand(1));
  if (!condition)
    return lowerCompressOnDevice(op, ctx);
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.size() != size_t(dataType.getRank()))
    return failure();
  CompressShape shape = getCompressShape(ctx, op, dims);
  Size length = shape.length;
  // Entries past the end of the dimension select nothing (the verifier
  // refuses a longer condition where both lengths are static).
  SmallVector<Size> flags;
  Size count(0);
  for (auto [i, c] : llvm::enumerate(*condition)) {
    // One statement per host op: the order of a call's arguments is
    // unspecified, and the IR must not depend on the compiler.
    Size inside = ctx.arith("gpu.lti", int64_t(i), length);
    Size taken = ctx.mul(isNonZero(ctx, c), inside);
    flags.push_back(taken);
    count = ctx.arith("gpu.addi", count, taken);
  }
  return gatherCompressed(ctx, op, shape, dims, count, byteSize, "compress",
                          {"", "j", flags});
}

/// NonZero of a small integer input of the function: its elements are
/// gpu.extracts.
LogicalResult lowerNonZero(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  auto dataType = cast<RankedTensorType>(data.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!isa<BlockArgument>(data) || !dataType.hasStaticShape() ||
      !dataType.getElementType().isInteger() || dataType.getRank() == 0 ||
      dataType.getNumElements() > kMaxShapeValueElements)
    return lowerNonZeroOnDevice(op, ctx);
  SmallVector<Size> flags;
  Size count(0);
  for (int64_t i = 0, e = dataType.getNumElements(); i < e; ++i) {
    Value v = ctx.getBuilder()
                  .create<gpu::ExtractOp>(ctx.getLoc(), data, i)
                  ->getResult(0);
    flags.push_back(isNonZero(ctx, Size(v)));
    count = ctx.arith("gpu.addi", count, flags.back());
  }
  int64_t rank = dataType.getRank();
  Value out = ctx.allocate(resultType, {Size(rank), count});
  ctx.setResult(op->getResult(0), out);
  if (count.isZero())
    return success();

  // Row d of the result holds coordinate d of each selected element, as
  // int64 (the bits of a uvec2).
  KernelSizes sizes(ctx);
  std::string countText = sizes.get(count);
  SmallVector<std::string> flagTexts;
  for (Size f : flags)
    flagTexts.push_back(sizes.get(f));
  std::string strides, extents;
  int64_t stride = 1;
  SmallVector<int64_t> strideValues(rank);
  for (int64_t d = rank; d-- > 0;) {
    strideValues[d] = stride;
    stride *= dataType.getShape()[d];
  }
  for (int64_t d = 0; d < rank; ++d) {
    strides += fmt::format("{}{}u", d ? ", " : "", strideValues[d]);
    extents += fmt::format("{}{}u", d ? ", " : "", dataType.getShape()[d]);
  }
  KernelSpec spec;
  spec.name = "nonzero";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::Write};
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() +
              bitsBuffer(0, gpu::Access::Write, 8, "y") +
              fmt::format("const uint STRIDES[{0}] = uint[]({1});\n"
                          "const uint EXTENTS[{0}] = uint[]({2});\n",
                          rank, strides, extents) +
              "void main() {\n"
              "  uint i = gl_GlobalInvocationID.x;\n"
              "  if (i >= " +
              std::to_string(rank) + "u * " + countText +
              ") return;\n"
              "  uint d = i / " +
              countText + ";\n  uint j = i % " + countText + ";\n" +
              findSelected(flagTexts) +
              "  y.d[i] = uvec2((src / STRIDES[d]) % EXTENTS[d], 0u);\n}\n";
  Symbols symbols(ctx);
  dispatchLinear(symbols, spec, sizes, symbols.get(ctx.mul(count, rank)),
                 {out});
  return success();
}

/// Unique: item j (an element of the flattened input, or a slice along
/// `axis`) is compared with others as the sequence of its elements (NaN
/// greater than every number and equal to itself, as the reference
/// evaluator orders them). Before the read-back, one invocation per item
/// finds its first occurrence (a scan of the items before it), then its
/// output position (the first occurrences before it, or those that sort
/// below it) and the inverse index; the number of first occurrences is the
/// count read back. After it, Y, indices and counts are written at that
/// count. Each invocation compares its item with every other: O(n^2)
/// comparisons of slices, meant for the sizes Unique sees in models
/// (post-processing, vocabularies of a batch), not for millions of items.
LogicalResult lowerUnique(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  auto dataType = cast<RankedTensorType>(data.getType());
  Type element = dataType.getElementType();
  unsigned byteSize = getByteSize(element);
  if (!byteSize || !glsl::isSupported(element))
    return ctx.emitError() << "has an element type kernels cannot hold";
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.size() != size_t(dataType.getRank()))
    return failure();
  onnx::OpAttrs attrs(op);
  bool sorted = attrs.getInt("sorted");
  bool hasAxis = attrs.has("axis");
  int64_t axis = 0;
  Size numel = getNumElements(ctx, dims);
  Size outer(1), inner(1), n = numel;
  if (hasAxis) {
    axis = attrs.getInt("axis");
    if (axis < 0)
      axis += dataType.getRank();
    outer = getNumElements(ctx, ArrayRef<Size>(dims).take_front(axis));
    n = dims[axis];
    inner = getNumElements(ctx, ArrayRef<Size>(dims).drop_front(axis + 1));
  }
  OpBuilder &b = ctx.getBuilder();
  Type i32 = b.getIntegerType(32);
  Value in = ctx.getView(data);
  if (!in)
    return failure();
  Value firsts = allocatePositions(ctx, n);
  Value items = allocatePositions(ctx, n);
  Value inverse =
      ctx.allocate(cast<RankedTensorType>(op->getResult(2).getType()), {n});
  Value count = ctx.allocate(RankedTensorType::get({1}, i32));
  ctx.setResult(op->getResult(2), inverse);

  // The element comparison, in a type GLSL orders.
  std::string type = glsl::computeType(element);
  std::string value = glsl::load(element, "x", "at");
  if (type == "bool") {
    type = "uint";
    value = "uint(" + value + ")";
  }
  std::string less =
      glsl::isFloat(element) ? "!isnan(a) && (isnan(b) || a < b)" : "a < b";
  KernelSizes sizes(ctx);
  std::string nText = sizes.get(n), outerText = sizes.get(outer),
              innerText = sizes.get(inner);
  std::string compare =
      fmt::format("{0} item(uint at) {{ return {1}; }}\n"
                  "bool less({0} a, {0} b) {{ return {2}; }}\n"
                  "int compareItems(uint a, uint b) {{\n"
                  "  for (uint o = 0u; o < {3}; ++o)\n"
                  "    for (uint k = 0u; k < {4}; ++k) {{\n"
                  "      {0} va = item((o * {5} + a) * {4} + k);\n"
                  "      {0} vb = item((o * {5} + b) * {4} + k);\n"
                  "      if (less(va, vb)) return -1;\n"
                  "      if (less(vb, va)) return 1;\n"
                  "    }}\n"
                  "  return 0;\n"
                  "}}\n",
                  type, value, less, outerText, innerText, nText);
  uint32_t workgroup = glsl::linearWorkgroupSize(ctx.getTarget());
  std::string input = glsl::buffer(0, gpu::Access::Read, element, "x");

  KernelSpec first;
  first.name = "unique_first";
  first.workgroupSize = {workgroup, 1, 1};
  first.bindings = {gpu::Access::Read, gpu::Access::Write};
  first.glsl = glsl::header(first.workgroupSize) + sizes.declaration() + input +
               bitsBuffer(1, gpu::Access::Write, 4, "first") + compare +
               "void main() {\n"
               "  uint j = gl_GlobalInvocationID.x;\n"
               "  if (j >= " +
               nText +
               ") return;\n"
               "  uint f = j;\n"
               "  for (uint k = 0u; k < j; ++k)\n"
               "    if (compareItems(k, j) == 0) { f = k; break; }\n"
               "  first.d[j] = f;\n}\n";
  SmallVector<OpFoldResult> firstPush;
  sizes.addTo(first, firstPush);

  // Output position of item j's group: sorted, the first occurrences that
  // compare below it; else those that come before its first occurrence.
  // Only the sorted kernel reads the items again.
  auto positionKernel = [&](bool sortedOrder,
                            SmallVectorImpl<OpFoldResult> &push) {
    KernelSizes unsortedSizes(ctx);
    KernelSizes &used = sortedOrder ? sizes : unsortedSizes;
    std::string nUsed = sortedOrder ? nText : unsortedSizes.get(n);
    std::string rank =
        sortedOrder
            ? "  for (uint k = 0u; k < " + nUsed +
                  "; ++k)\n"
                  "    if (first.d[k] == k && compareItems(k, g) < 0) ++p;\n"
            : "  for (uint k = 0u; k < g; ++k)\n"
              "    if (first.d[k] == k) ++p;\n";
    unsigned b0 = sortedOrder ? 1 : 0;
    KernelSpec spec;
    spec.name = sortedOrder ? "unique_sorted_position" : "unique_position";
    spec.workgroupSize = {workgroup, 1, 1};
    spec.bindings = {gpu::Access::Read, gpu::Access::Write, gpu::Access::Write,
                     gpu::Access::Write};
    if (sortedOrder)
      spec.bindings.insert(spec.bindings.begin(), gpu::Access::Read);
    spec.glsl = glsl::header(spec.workgroupSize) + used.declaration() +
                (sortedOrder ? input : "") +
                bitsBuffer(b0, gpu::Access::Read, 4, "first") +
                bitsBuffer(b0 + 1, gpu::Access::Write, 4, "items") +
                bitsBuffer(b0 + 2, gpu::Access::Write, 8, "inverse") +
                bitsBuffer(b0 + 3, gpu::Access::Write, 4, "count") +
                (sortedOrder ? compare : "") +
                "void main() {\n"
                "  uint j = gl_GlobalInvocationID.x;\n"
                "  if (j >= " +
                nUsed +
                ") return;\n"
                "  uint g = first.d[j];\n"
                "  uint p = 0u;\n" +
                rank +
                "  if (g == j) items.d[p] = j;\n"
                "  inverse.d[j] = uvec2(p, 0u);\n"
                "  if (j == 0u) {\n"
                "    uint total = 0u;\n"
                "    for (uint k = 0u; k < " +
                nUsed +
                "; ++k)\n"
                "      if (first.d[k] == k) ++total;\n"
                "    count.d[0] = total;\n"
                "  }\n}\n";
    used.addTo(spec, push);
    return ctx.getOrCreateKernel(spec);
  };
  SmallVector<Value> outputs = {firsts, items, inverse, count};
  SmallVector<Value> withInput = {in, firsts, items, inverse, count};

  // Items of no elements (a 0 among the other dims) cannot be bound, and
  // are all equal: every item's first occurrence is item 0, which a kernel
  // binding no input writes; the unsorted positions are then right for
  // either order.
  Size groups = ctx.ceilDiv(n, int64_t(workgroup));
  Size hasElements = ctx.min(ctx.mul(outer, inner), Size(1));
  bool mayBeEmpty = !hasElements.isStatic() || hasElements.constant == 0;
  Size full = ctx.mul(groups, hasElements);
  ctx.dispatch(ctx.getOrCreateKernel(first), {full, Size(1), Size(1)},
               {in, firsts}, firstPush);
  SmallVector<OpFoldResult> push;
  KernelRef position = positionKernel(sorted, push);
  if (sorted || !mayBeEmpty)
    ctx.dispatch(position, {full, Size(1), Size(1)},
                 sorted ? withInput : outputs, push);
  if (mayBeEmpty) {
    Size empty = ctx.mul(groups, ctx.sub(Size(1), hasElements));
    KernelSizes zeroSizes(ctx);
    std::string nZero = zeroSizes.get(n);
    KernelSpec zero;
    zero.name = "unique_first_all";
    zero.workgroupSize = {workgroup, 1, 1};
    zero.bindings = {gpu::Access::Write};
    zero.glsl = glsl::header(zero.workgroupSize) + zeroSizes.declaration() +
                bitsBuffer(0, gpu::Access::Write, 4, "first") +
                "void main() {\n"
                "  uint j = gl_GlobalInvocationID.x;\n"
                "  if (j < " +
                nZero + ") first.d[j] = 0u;\n}\n";
    SmallVector<OpFoldResult> zeroPush, unsortedPush;
    zeroSizes.addTo(zero, zeroPush);
    ctx.dispatch(ctx.getOrCreateKernel(zero), {empty, Size(1), Size(1)},
                 {firsts}, zeroPush);
    KernelRef unsorted = positionKernel(false, unsortedPush);
    ctx.dispatch(unsorted, {sorted ? empty : groups, Size(1), Size(1)}, outputs,
                 unsortedPush);
  }
  writeZeroCount(ctx, ctx.min(n, Size(1)), count);
  Size unique(b.create<gpu::ReadCountOp>(ctx.getLoc(), count)->getResult(0));

  // After the read-back: the results at the count.
  SmallVector<Size> yDims = {unique};
  if (hasAxis) {
    yDims.assign(dims.begin(), dims.end());
    yDims[axis] = unique;
  }
  auto resultType = [&](unsigned i) {
    return cast<RankedTensorType>(op->getResult(i).getType());
  };
  Value y = ctx.allocate(resultType(0), yDims);
  Value indices = ctx.allocate(resultType(1), {unique});
  Value counts = ctx.allocate(resultType(3), {unique});
  ctx.setResult(op->getResult(0), y);
  ctx.setResult(op->getResult(1), indices);
  ctx.setResult(op->getResult(3), counts);

  dispatchPositionGather(ctx, "unique_gather", byteSize,
                         ctx.mul(ctx.mul(outer, unique), inner), inner, unique,
                         n, {"items", "p", {}}, {in, items, y});

  KernelSizes counting(ctx);
  std::string uniqueCount = counting.get(unique), nCount = counting.get(n);
  KernelSpec tally;
  tally.name = "unique_counts";
  tally.workgroupSize = {workgroup, 1, 1};
  tally.bindings = {gpu::Access::Read, gpu::Access::Read, gpu::Access::Write,
                    gpu::Access::Write};
  tally.glsl = glsl::header(tally.workgroupSize) + counting.declaration() +
               bitsBuffer(0, gpu::Access::Read, 4, "first") +
               bitsBuffer(1, gpu::Access::Read, 4, "items") +
               bitsBuffer(2, gpu::Access::Write, 8, "indices") +
               bitsBuffer(3, gpu::Access::Write, 8, "counts") +
               "void main() {\n"
               "  uint p = gl_GlobalInvocationID.x;\n"
               "  if (p >= " +
               uniqueCount +
               ") return;\n"
               "  uint j = items.d[p];\n"
               "  uint c = 0u;\n"
               "  for (uint k = j; k < " +
               nCount +
               "; ++k)\n"
               "    if (first.d[k] == j) ++c;\n"
               "  indices.d[p] = uvec2(j, 0u);\n"
               "  counts.d[p] = uvec2(c, 0u);\n}\n";
  Symbols symbols(ctx);
  dispatchLinear(symbols, tally, counting, symbols.get(unique),
                 {firsts, items, indices, counts});
  return success();
}

const KernelGenerator generators[] = {
    {"onnx.Compress", lowerCompress, /*dynamicDims=*/true},
    {"onnx.NonZero", lowerNonZero, /*dynamicDims=*/true},
    {"onnx.Unique", lowerUnique, /*dynamicDims=*/true},
};

} // namespace

ArrayRef<KernelGenerator> getCompressGenerators() { return generators; }

} // namespace onyx::lowering

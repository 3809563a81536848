//===- CompressKernels.cpp - NonZero and Compress of host-known data ------===//
//
// NonZero's and Compress's result sizes depend on data: on which elements are
// nonzero, on which entries of the condition are true. Where that data is
// known to the host program (a Compress condition that is a constant or an
// input, a NonZero input that is an input of the function, each of at most
// kMaxShapeValueElements elements), its elements are index values
// (gpu.extract), so the count is host arithmetic that sizes the result, and
// the elements reach the kernel as push constants: one compiled kernel
// serves every value, and nothing is read back. Each output element finds
// the j-th selected position by a scan of those at most 16 flags.
//
// Data that kernels compute needs the read-back that "Data-dependent sizes
// on Vulkan" in docs/ARCHITECTURE.md designs; such ops are refused here with
// that reason.
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

LogicalResult lowerCompress(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  auto dataType = cast<RankedTensorType>(data.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  unsigned byteSize = getByteSize(dataType.getElementType());
  if (!byteSize)
    return ctx.emitError() << "has an element type kernels cannot hold";
  std::optional<SmallVector<Size>> condition =
      ctx.getShapeValue(op->getOperand(1));
  if (!condition)
    return ctx.emitError()
           << "needs operand 'condition' known on the host (a constant or an "
              "input of at most "
           << kMaxShapeValueElements
           << " elements); a condition computed by kernels needs a read-back "
              "of its count, which the Vulkan runtime does not do yet";
  SmallVector<Size> dims = ctx.getDims(data);
  if (dims.size() != size_t(dataType.getRank()))
    return failure();
  // Without an axis, the flattened input.
  onnx::OpAttrs attrs(op);
  int64_t axis = 0;
  Size outer(1), inner(1), length = getNumElements(ctx, dims);
  if (attrs.has("axis")) {
    axis = attrs.getInt("axis");
    if (axis < 0)
      axis += dataType.getRank();
    outer = getNumElements(ctx, ArrayRef<Size>(dims).take_front(axis));
    length = dims[axis];
    inner = getNumElements(ctx, ArrayRef<Size>(dims).drop_front(axis + 1));
  }
  // Entries past the end of the dimension select nothing (the verifier
  // refuses a longer condition where both lengths are static).
  SmallVector<Size> flags;
  Size count(0);
  for (auto [i, c] : llvm::enumerate(*condition)) {
    Size taken =
        ctx.mul(isNonZero(ctx, c), ctx.arith("gpu.lti", int64_t(i), length));
    flags.push_back(taken);
    count = ctx.arith("gpu.addi", count, taken);
  }
  SmallVector<Size> resultDims = {count};
  if (attrs.has("axis")) {
    resultDims.assign(dims.begin(), dims.end());
    resultDims[axis] = count;
  }
  for (auto [d, dim] : llvm::enumerate(resultType.getShape()))
    if (!ShapedType::isDynamic(dim))
      resultDims[d] = dim;
  Value out = ctx.allocate(resultType, resultDims);
  ctx.setResult(op->getResult(0), out);
  Size total = ctx.mul(ctx.mul(outer, count), inner);
  if (total.isStatic() && total.constant == 0)
    return success();
  Value in = ctx.getView(data);
  if (!in)
    return failure();

  KernelSizes sizes(ctx);
  std::string totalText = sizes.get(total), innerText = sizes.get(inner),
              countText = sizes.get(count), lengthText = sizes.get(length);
  SmallVector<std::string> flagTexts;
  for (Size f : flags)
    flagTexts.push_back(sizes.get(f));
  KernelSpec spec;
  spec.name = "compress";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() +
              bitsBuffer(0, gpu::Access::Read, byteSize, "x") +
              bitsBuffer(1, gpu::Access::Write, byteSize, "y") +
              "void main() {\n"
              "  uint i = gl_GlobalInvocationID.x;\n"
              "  if (i >= " +
              totalText + ") return;\n" +
              fmt::format("  uint k = i % {0};\n"
                          "  uint t = i / {0};\n"
                          "  uint j = t % {1};\n"
                          "  uint o = t / {1};\n",
                          innerText, countText) +
              findSelected(flagTexts) +
              fmt::format("  y.d[i] = x.d[(o * {} + src) * {} + k];\n}}\n",
                          lengthText, innerText);
  Symbols symbols(ctx);
  dispatchLinear(symbols, spec, sizes, symbols.get(total), {in, out});
  return success();
}

/// NonZero of a function argument: its elements are gpu.extracts.
LogicalResult lowerNonZero(Operation *op, LoweringContext &ctx) {
  Value data = op->getOperand(0);
  auto dataType = cast<RankedTensorType>(data.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!isa<BlockArgument>(data) || !dataType.hasStaticShape() ||
      !dataType.getElementType().isInteger() || dataType.getRank() == 0 ||
      dataType.getNumElements() > kMaxShapeValueElements)
    return ctx.emitError()
           << "needs its input to be an integer or bool input of the function "
              "of static shape and at most "
           << kMaxShapeValueElements
           << " elements (known on the host); data computed by kernels needs "
              "a read-back of the count, which the Vulkan runtime does not do "
              "yet";
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
  if (count.isStatic() && count.constant == 0)
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

const KernelGenerator generators[] = {
    {"onnx.Compress", lowerCompress, /*dynamicDims=*/true},
    {"onnx.NonZero", lowerNonZero, /*dynamicDims=*/true},
};

} // namespace

ArrayRef<KernelGenerator> getCompressGenerators() { return generators; }

} // namespace onyx::lowering

//===- WorkgroupReduce.cpp - Rows reduced by cooperating invocations ------===//

#include "lowering/WorkgroupReduce.h"

#include "lowering/Glsl.h"

#include "dialect/onnx/Tensor.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace onyx::lowering {

bool RowSpace::isStatic() const {
  auto isStatic = [](Size s) { return s.isStatic(); };
  return llvm::all_of(rowSizes, isStatic) &&
         llvm::all_of(elementSizes, isStatic) &&
         llvm::all_of(rowStrides, isStatic) &&
         llvm::all_of(elementStrides, isStatic);
}

RowSpace getRowSpace(LoweringContext &ctx, ArrayRef<Size> dims,
                     const llvm::SmallBitVector &reduced) {
  RowSpace space;
  SmallVector<Size> strides = getStrides(ctx, dims);
  // Walk inside out so that a dimension merges into the one inside it.
  std::optional<bool> innerKind;
  bool innermostKept = false;
  for (size_t d = dims.size(); d-- > 0;) {
    if (dims[d].isStatic() && dims[d].constant == 1)
      continue;
    bool isReduced = reduced[d];
    SmallVector<Size> &sizes = isReduced ? space.elementSizes : space.rowSizes;
    SmallVector<Size> &dimStrides =
        isReduced ? space.elementStrides : space.rowStrides;
    if (innerKind == isReduced) {
      sizes.back() = ctx.mul(sizes.back(), dims[d]);
    } else {
      sizes.push_back(dims[d]);
      dimStrides.push_back(strides[d]);
    }
    if (!innerKind)
      innermostKept = !isReduced;
    innerKind = isReduced;
  }
  if (innermostKept)
    space.interleave = space.rowSizes.front();
  std::reverse(space.rowSizes.begin(), space.rowSizes.end());
  std::reverse(space.rowStrides.begin(), space.rowStrides.end());
  std::reverse(space.elementSizes.begin(), space.elementSizes.end());
  std::reverse(space.elementStrides.begin(), space.elementStrides.end());
  space.numRows = getNumElements(ctx, space.rowSizes);
  space.rowLength = getNumElements(ctx, space.elementSizes);
  return space;
}

RowSpace getRowSpace(LoweringContext &ctx, ArrayRef<Size> dims,
                     ArrayRef<Size> reduced) {
  RowSpace space;
  SmallVector<Size> strides = getStrides(ctx, dims);
  // Every dimension is both a row and an element dimension: the one of the
  // two it is not has size 1 at run time, so its coordinate is always 0.
  for (auto [d, dim] : llvm::enumerate(dims)) {
    if (dim.isStatic() && dim.constant == 1)
      continue;
    space.rowSizes.push_back(ctx.select(reduced[d], 1, dim));
    space.rowStrides.push_back(strides[d]);
    space.elementSizes.push_back(ctx.select(reduced[d], dim, 1));
    space.elementStrides.push_back(strides[d]);
  }
  if (!space.rowSizes.empty())
    space.interleave = space.rowSizes.back();
  space.numRows = getNumElements(ctx, space.rowSizes);
  space.rowLength = getNumElements(ctx, space.elementSizes);
  return space;
}

/// The smallest power of 2 at least `n`, at most 2^30 (more than any
/// workgroup, and no overflow).
static uint32_t powerOf2Ceil(int64_t n) {
  return n <= 1
             ? 1u
             : uint32_t(std::bit_ceil(uint64_t(std::min<int64_t>(n, 1 << 30))));
}

/// What the layout assumes of a size known only at run time: more than a
/// workgroup takes.
static int64_t estimate(Size size) {
  return size.isStatic() ? size.constant : int64_t(1) << 20;
}

/// The layout of `numRows` rows of `rowLength` elements, at most `maxSize`
/// invocations.
static RowLayout chooseLayout(const RowSpace &space, int64_t rowLength,
                              int64_t numRows, uint32_t maxSize) {
  RowLayout layout;
  int64_t interleave = estimate(space.interleave);
  layout.interleaved = interleave > 1;
  // Each invocation folds a few elements in registers before the tree: a
  // deeper tree costs a barrier per level.
  constexpr int64_t kElementsPerInvocation = 4;
  uint32_t depth = powerOf2Ceil((rowLength + kElementsPerInvocation - 1) /
                                kElementsPerInvocation);
  if (layout.interleaved) {
    // 32 adjacent rows make a step of the workgroup read whole cache lines.
    layout.lanes = std::min({powerOf2Ceil(interleave), 32u, maxSize});
    layout.depth = std::min(depth, maxSize / layout.lanes);
  } else {
    layout.depth = std::min(depth, maxSize);
  }
  // Short rows leave room for more rows per workgroup.
  layout.lanes = std::max(
      layout.lanes, std::min(maxSize / layout.depth, powerOf2Ceil(numRows)));
  return layout;
}

RowLayout chooseRowLayout(const gpu::TargetDesc &target, const RowSpace &space,
                          unsigned sharedBytesPerInvocation, bool allowChunks) {
  // 256 invocations keep several workgroups resident per multiprocessor;
  // more only lengthen the tree.
  uint32_t maxSize = std::min({256u, target.maxComputeWorkGroupInvocations,
                               target.maxComputeWorkGroupSize[0]});
  if (sharedBytesPerInvocation)
    maxSize = std::min(maxSize, target.maxComputeSharedMemorySize /
                                    sharedBytesPerInvocation);
  maxSize = std::bit_floor(std::max(maxSize, 1u));

  int64_t numRows = estimate(space.numRows);
  int64_t rowLength = estimate(space.rowLength);
  RowLayout layout = chooseLayout(space, rowLength, numRows, maxSize);
  layout.chunkLength = space.rowLength;
  if (!space.isStatic())
    return layout;
  // Fewer workgroups than this leave a large GPU mostly idle (a Hopper GPU
  // holds 8 of 256 invocations on each of its 132 multiprocessors); chunks
  // of at least 16 elements per invocation keep the second pass small.
  constexpr uint64_t kMinWorkgroups = 1024;
  uint64_t numWorkgroups = (numRows + layout.lanes - 1) / layout.lanes;
  const int64_t minChunkLength = 16 * int64_t(layout.depth);
  if (!allowChunks || numWorkgroups >= kMinWorkgroups ||
      rowLength < 2 * minChunkLength)
    return layout;
  int64_t chunks =
      std::min<int64_t>(rowLength / minChunkLength,
                        (kMinWorkgroups + numWorkgroups - 1) / numWorkgroups);
  int64_t length = (rowLength + chunks - 1) / chunks;
  layout = chooseLayout(space, length, numRows * chunks, maxSize);
  layout.chunks = chunks;
  layout.chunkLength = length;
  return layout;
}

Size getNumWorkgroups(LoweringContext &ctx, const RowSpace &space,
                      const RowLayout &layout, bool needsElements) {
  Size groups =
      ctx.ceilDiv(ctx.mul(space.numRows, layout.chunks), int64_t(layout.lanes));
  if (needsElements && !space.rowLength.isStatic())
    groups = ctx.mul(groups, ctx.arith("gpu.mini", space.rowLength, 1));
  return groups;
}

/// The input offset of flat index `var` over dimensions `dims` (outermost
/// first) with input strides `strides`.
static std::string offsetExpr(LoweringContext &ctx, KernelSizes &sizes,
                              ArrayRef<Size> dims, ArrayRef<Size> strides,
                              StringRef var) {
  std::string expr;
  Size inner = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    std::string coord = var.str();
    if (!inner.isStatic() || inner.constant != 1)
      coord = fmt::format("({} / {})", coord, sizes.get(inner));
    // The outermost coordinate needs no modulo: the index is in range.
    if (d != 0)
      coord = fmt::format("({} % {})", coord, sizes.get(dims[d]));
    std::string term =
        strides[d].isStatic() && strides[d].constant == 1
            ? coord
            : fmt::format("{} * {}", coord, sizes.get(strides[d]));
    expr = expr.empty() ? term : term + " + " + expr;
    if (d != 0)
      inner = ctx.mul(inner, dims[d]);
  }
  return expr.empty() ? "0u" : expr;
}

std::string rowDeclarations(KernelSizes &sizes, const RowSpace &space,
                            const RowLayout &layout) {
  // A size known at run time is a macro: GLSL constants must be known when
  // the shader compiles.
  auto size = [&](StringRef name, Size value) {
    if (value.isStatic())
      return fmt::format("const uint {} = {}u;\n", name.str(), value.constant);
    return fmt::format("#define {} {}\n", name.str(), sizes.get(value));
  };
  LoweringContext &ctx = sizes.getContext();
  // One statement each: the push-constant slots follow this order.
  std::string code = size("ROWS", space.numRows);
  code += size("LENGTH", space.rowLength);
  code += fmt::format("const uint LANES = {}u;\n"
                      "const uint DEPTH = {}u;\n"
                      "const uint CHUNKS = {}u;\n",
                      layout.lanes, layout.depth, layout.chunks);
  code += size("CHUNK_LENGTH", layout.chunkLength);
  std::string rowOffset =
      offsetExpr(ctx, sizes, space.rowSizes, space.rowStrides, "row");
  std::string elementOffset =
      offsetExpr(ctx, sizes, space.elementSizes, space.elementStrides, "i");
  return code +
         fmt::format(
             "// Invocation lane * LANE_STRIDE + slot * SLOT_STRIDE works on "
             "row\n"
             "// `lane` of the workgroup.\n"
             "const uint LANE_STRIDE = {}u;\n"
             "const uint SLOT_STRIDE = {}u;\n"
             "uint rowOffset(uint row) {{ return {}; }}\n"
             "uint elementOffset(uint i) {{ return {}; }}\n",
             layout.interleaved ? 1 : layout.depth,
             layout.interleaved ? layout.lanes : 1, rowOffset, elementOffset);
}

KernelSpec makeRowKernel(StringRef name, const RowLayout &layout,
                         const KernelSizes &sizes, const std::string &rows,
                         Type inType, Type outType) {
  KernelSpec spec;
  spec.name = name.str();
  spec.workgroupSize = {layout.size(), 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Write};
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() +
              glsl::buffer(0, gpu::Access::Read, inType, "x") +
              glsl::buffer(1, gpu::Access::Write, outType, "y") + rows;
  return spec;
}

void dispatchRows(LoweringContext &ctx, KernelSpec &spec,
                  const KernelSizes &sizes, Size workgroups,
                  ValueRange bindings) {
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  if (workgroups.isStatic() && push.empty())
    ctx.dispatch(kernel, {uint64_t(workgroups.constant), 1, 1}, bindings);
  else
    ctx.dispatch(kernel, {workgroups, 1, 1}, bindings, push);
}

std::string rowPrologue() {
  return "  uint lane = (gl_LocalInvocationID.x / LANE_STRIDE) % LANES;\n"
         "  uint slot = (gl_LocalInvocationID.x / SLOT_STRIDE) % DEPTH;\n"
         "  uint row = gl_WorkGroupID.x * LANES + lane;\n"
         "  bool inRange = row < ROWS * CHUNKS;\n"
         "  uint base = inRange ? rowOffset(row % ROWS) : 0u;\n"
         "  uint begin = (row / ROWS) * CHUNK_LENGTH;\n"
         "  uint end = min(begin + CHUNK_LENGTH, LENGTH);\n";
}

std::string forEachElement(StringRef body) {
  return "  if (inRange) {\n"
         "    for (uint i = begin + slot; i < end; i += DEPTH) {\n"
         "      uint at = base + elementOffset(i);\n" +
         body.str() +
         "    }\n"
         "  }\n";
}

RowValues getRowValues(const RowLayout &layout, StringRef type,
                       StringRef load) {
  RowValues values{type.str(), load.str(), 0};
  if (!layout.chunkLength.isStatic())
    return values;
  int64_t perInvocation =
      (layout.chunkLength.constant + layout.depth - 1) / layout.depth;
  if (perInvocation <= kMaxCachedElements)
    values.cached = perInvocation;
  return values;
}

std::string loadRowValues(const RowValues &values) {
  if (!values.cached)
    return {};
  // A loop of constant trip count over a local array: unrolled, the array
  // lives in registers.
  return fmt::format("  {0} xs[{1}];\n"
                     "  for (uint k = 0u; k < {1}u; ++k) {{\n"
                     "    uint i = begin + slot + k * DEPTH;\n"
                     "    if (inRange && i < end) {{\n"
                     "      uint at = base + elementOffset(i);\n"
                     "      xs[k] = {2};\n"
                     "    }}\n"
                     "  }}\n",
                     values.type, values.cached, values.load);
}

std::string forEachValue(const RowValues &values, StringRef body) {
  if (!values.cached)
    return forEachElement(
        fmt::format("      {} xv = {};\n", values.type, values.load) +
        body.str());
  return fmt::format("  for (uint k = 0u; k < {}u; ++k) {{\n"
                     "    uint i = begin + slot + k * DEPTH;\n"
                     "    if (inRange && i < end) {{\n"
                     "      uint at = base + elementOffset(i);\n"
                     "      {} xv = xs[k];\n",
                     values.cached, values.type) +
         body.str() +
         "    }\n"
         "  }\n";
}

std::string sharedArray(const RowLayout &layout, StringRef type,
                        StringRef name) {
  return fmt::format("shared {} {}[{}];\n", type.str(), name.str(),
                     layout.size());
}

std::string reduceAcrossRow(const RowLayout &layout, ArrayRef<Partial> partials,
                            StringRef combine) {
  if (layout.depth == 1)
    return {};
  std::string code;
  for (const Partial &p : partials)
    code += fmt::format("  {}[gl_LocalInvocationID.x] = {};\n", p.shared,
                        p.variable);
  code += fmt::format(
      "  barrier();\n"
      "  for (uint stride = DEPTH / 2u; stride > 0u; stride >>= 1u) {{\n"
      "    if (slot < stride)\n"
      "      {}(gl_LocalInvocationID.x, gl_LocalInvocationID.x + stride * "
      "SLOT_STRIDE);\n"
      "    barrier();\n"
      "  }}\n",
      combine.str());
  for (const Partial &p : partials)
    code +=
        fmt::format("  {} = {}[lane * LANE_STRIDE];\n", p.variable, p.shared);
  // The arrays are free again only once every invocation has read them.
  code += "  barrier();\n";
  return code;
}

unsigned getSharedBytes(Type elementType) {
  std::string type = glsl::computeType(elementType);
  return type == "double" || type == "int64_t" || type == "uint64_t" ? 8 : 4;
}

bool reportUnsupported(LoweringContext &ctx, Type elementType) {
  if (glsl::isSupported(elementType))
    return false;
  ctx.emitError() << "element type " << elementType
                  << " is not supported by GPU kernels";
  return true;
}

bool reportNoInt64Indices(LoweringContext &ctx) {
  if (ctx.getTarget().features.contains(gpu::Feature::Int64))
    return false;
  ctx.emitError() << "needs the target feature int64 for its indices";
  return true;
}

} // namespace onyx::lowering

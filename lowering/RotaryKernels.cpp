//===- RotaryKernels.cpp - RotaryEmbedding --------------------------------===//
//
// One invocation per output element: it finds its head, position and pair,
// reads the pair's two inputs and the position's cos and sin, and writes
// its half of the rotation (elements past rotary_embedding_dim are
// copied). With position_ids the cache row is the position's (read as
// ivec2 for i64, so no int64 feature is needed); an id outside the cache
// writes zeros rather than read outside it, where the reference evaluator
// reports an error.
//
//===----------------------------------------------------------------------===//

#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"
#include "lowering/KernelSizes.h"
#include "lowering/WorkgroupReduce.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering {

static LogicalResult lowerRotary(Operation *op, LoweringContext &ctx) {
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  Type et = type.getElementType();
  if (reportUnsupported(ctx, et))
    return failure();
  SmallVector<Size> dims = ctx.getDims(op->getOperand(0));
  if (dims.size() != size_t(type.getRank()))
    return failure();
  bool is4d = dims.size() == 4;
  onnx::OpAttrs attrs(op);
  // Batch and seq may be known only at run time; the head size picks the
  // pairs and must be known.
  Size seq = dims[is4d ? 2 : 1];
  Size heads = is4d ? dims[1] : Size(attrs.getInt("num_heads"));
  Size hidden = dims[is4d ? 3 : 2];
  if (!hidden.isStatic() || !heads.isStatic())
    return ctx.emitError() << "needs the number of heads and the head size "
                              "known when it is compiled";
  int64_t headSize = is4d ? hidden.constant : hidden.constant / heads.constant;
  int64_t rotaryDim = attrs.getInt("rotary_embedding_dim");
  if (!rotaryDim)
    rotaryDim = headSize;
  int64_t half = rotaryDim / 2;
  bool interleaved = attrs.getInt("interleaved") != 0;
  bool hasPositions =
      op->getNumOperands() > 3 && !onnx::isNoValue(op->getOperand(3));
  unsigned numBindings = 4 + hasPositions;
  if (numBindings > ctx.getTarget().maxPerStageDescriptorStorageBuffers)
    return ctx.emitError()
           << "needs " << numBindings
           << " storage buffers in one kernel, more than the "
              "target's "
           << ctx.getTarget().maxPerStageDescriptorStorageBuffers;

  Value out = ctx.allocate(type, dims);
  ctx.setResult(op->getResult(0), out);
  Size total = getNumElements(ctx, dims);
  if (total.isStatic() && total.constant == 0)
    return success();
  SmallVector<Value> views;
  for (unsigned i = 0; i < 3u + hasPositions; ++i) {
    views.push_back(ctx.getView(op->getOperand(i)));
    if (!views.back())
      return failure();
  }
  views.push_back(out);

  KernelSizes sizes(ctx);
  auto uintLiteral = [&](Size size) { return sizes.get(size); };
  // The dynamic sizes, first, in a fixed order (their push-constant slots).
  std::string totalSize = sizes.get(total);
  std::string seqSize = sizes.get(seq);
  std::string ct = glsl::computeType(et);
  KernelSpec spec;
  spec.name = "rotary_embedding";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings = {gpu::Access::Read, gpu::Access::Read, gpu::Access::Read};
  std::string decls = glsl::buffer(0, gpu::Access::Read, et, "x") +
                      glsl::buffer(1, gpu::Access::Read, et, "cosCache") +
                      glsl::buffer(2, gpu::Access::Read, et, "sinCache");
  std::string row = "bt";
  if (hasPositions) {
    Type idType =
        cast<RankedTensorType>(op->getOperand(3).getType()).getElementType();
    SmallVector<Size> cacheDims = ctx.getDims(op->getOperand(1));
    if (cacheDims.empty())
      return failure();
    Size maxPosition = cacheDims[0];
    decls += datamovement::indexBuffer(3, idType, "positions");
    spec.bindings.push_back(gpu::Access::Read);
    row = datamovement::readIndex(idType, "positions", "bt", "p") +
          fmt::format("  if (!pFits || p < 0 || p >= {}) {{\n"
                      "    {}\n"
                      "    return;\n"
                      "  }}\n",
                      maxPosition.isStatic()
                          ? std::to_string(maxPosition.constant)
                          : "int(" + sizes.get(maxPosition) + ")",
                      glsl::store(et, "y", "i", glsl::literal(et, 0))) +
          "  uint row = uint(p);\n";
  } else {
    row = "  uint row = bt;\n";
  }
  decls += glsl::buffer(numBindings - 1, gpu::Access::Write, et, "y");
  spec.bindings.push_back(gpu::Access::Write);

  // Where element i sits: head h at position t of batch b, element d.
  std::string locate =
      is4d ? fmt::format("  uint t = (i / {0}) % {1};\n"
                         "  uint b = i / ({0} * {1} * {2});\n",
                         uintLiteral(headSize), seqSize, uintLiteral(heads))
           : fmt::format("  uint t = (i / ({0} * {1})) % {2};\n"
                         "  uint b = i / ({0} * {1} * {2});\n",
                         uintLiteral(headSize), uintLiteral(heads), seqSize);
  std::string pair = interleaved
                         ? "  uint k = d / 2u;\n"
                           "  bool first = d % 2u == 0u;\n"
                           "  uint ia = base + 2u * k, ib = ia + 1u;\n"
                         : fmt::format("  uint k = d % {0};\n"
                                       "  bool first = d < {0};\n"
                                       "  uint ia = base + k, ib = ia + {0};\n",
                                       uintLiteral(half));
  std::string body =
      "void main() {\n"
      "  uint i = gl_GlobalInvocationID.x;\n" +
      fmt::format("  if (i >= {}) return;\n", totalSize) +
      fmt::format("  uint d = i % {};\n", uintLiteral(headSize)) +
      fmt::format("  if (d >= {}) {{\n    {}\n    return;\n  }}\n",
                  uintLiteral(rotaryDim),
                  glsl::store(et, "y", "i", glsl::load(et, "x", "i"))) +
      locate + fmt::format("  uint bt = b * {} + t;\n", seqSize) + row +
      "  uint base = i - d;\n" + pair +
      fmt::format("  {0} a = {1};\n"
                  "  {0} bv = {2};\n"
                  "  {0} c = {3};\n"
                  "  {0} s = {4};\n",
                  ct, glsl::load(et, "x", "ia"), glsl::load(et, "x", "ib"),
                  glsl::load(et, "cosCache",
                             fmt::format("row * {} + k", uintLiteral(half))),
                  glsl::load(et, "sinCache",
                             fmt::format("row * {} + k", uintLiteral(half)))) +
      "  " +
      glsl::store(et, "y", "i", "first ? a * c - bv * s : bv * c + a * s") +
      "\n}\n";
  spec.glsl =
      glsl::header(spec.workgroupSize) + sizes.declaration() + decls + body;
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  if (total.isStatic())
    ctx.dispatch(
        kernel,
        {uint32_t(glsl::ceilDiv(total.constant, spec.workgroupSize[0])), 1, 1},
        views);
  else
    ctx.dispatch(kernel,
                 {ctx.ceilDiv(total, int64_t(spec.workgroupSize[0])), 1, 1},
                 views, push);
  return success();
}

static const KernelGenerator rotaryGenerators[] = {
    {"onnx.RotaryEmbedding", lowerRotary, /*dynamicDims=*/true},
};

ArrayRef<KernelGenerator> getRotaryGenerators() { return rotaryGenerators; }

} // namespace onyx::lowering

//===- DepthSpace.cpp - onnx.DepthToSpace and onnx.SpaceToDepth -----------===//
//
// DepthToSpace (mode DCR, the default, or CRD) turns N x C x H x W into
// N x C/(b*b) x H*b x W*b; SpaceToDepth the other way, N x C*b*b x H/b x W/b.
// Both only move elements, so any element type works; shape inference keeps
// `?` where the input has it.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/DepthSpace.h"

#include "ir/Operation.h"

namespace onyx::onnx {

DepthSpaceKind getDepthSpaceKind(Operation *op) {
  if (isOp(op, "onnx.SpaceToDepth"))
    return DepthSpaceKind::SpaceToDepth;
  return OpAttrs(op).getString("mode") == "CRD"
             ? DepthSpaceKind::DepthToSpaceCRD
             : DepthSpaceKind::DepthToSpaceDCR;
}

namespace {

const StringRef depthToSpaceModes[] = {"DCR", "CRD"};
const ValueSpec depthSpaceOperands[] = {{"input"}};
const ValueSpec depthSpaceResults[] = {{"output"}};
const AttrSpec depthToSpaceAttrs[] = {
    requiredAttr("blocksize", AttrType::Int),
    stringAttr("mode", "DCR", depthToSpaceModes)};
const AttrSpec spaceToDepthAttrs[] = {requiredAttr("blocksize", AttrType::Int)};

LogicalResult inferDepthSpace(InferState &s) {
  if (failed(s.checkRank(0, 4)))
    return failure();
  int64_t b = s.getAttrs().getInt("blocksize");
  if (b < 1)
    return s.emitAttrError("blocksize") << "must be positive, got " << b;
  bool toSpace = s.getDef().schema.name == "onnx.DepthToSpace";
  SmallVector<int64_t> shape(s.getShape(0));
  auto scale = [&](int64_t &dim, bool multiply, StringRef what) {
    if (ShapedType::isDynamic(dim))
      return success();
    if (multiply) {
      dim *= b;
      return success();
    }
    int64_t divisor = what == "channels" ? b * b : b;
    if (dim % divisor != 0)
      return LogicalResult(s.emitOperandError(0)
                           << "has " << dim << " " << what
                           << ", not a multiple of " << divisor);
    dim /= divisor;
    return success();
  };
  if (toSpace) {
    if (failed(scale(shape[1], false, "channels")) ||
        failed(scale(shape[2], true, "rows")) ||
        failed(scale(shape[3], true, "columns")))
      return failure();
  } else {
    if (!ShapedType::isDynamic(shape[1]))
      shape[1] *= b * b;
    if (failed(scale(shape[2], false, "rows")) ||
        failed(scale(shape[3], false, "columns")))
      return failure();
  }
  s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult evalDepthSpace(EvalState &s) {
  const Tensor &in = s.input(0);
  ArrayRef<int64_t> is = in.getShape();
  int64_t b = s.getAttrs().getInt("blocksize");
  DepthSpaceKind kind = getDepthSpaceKind(s.getOp());
  SmallVector<int64_t> os(is);
  // Inference checked the dims it knew; these are the run's.
  auto check = [&](int64_t dim, int64_t divisor, StringRef what) {
    if (dim % divisor == 0)
      return success();
    return LogicalResult(s.emitError()
                         << "operand 'input' has " << dim << " " << what
                         << ", not a multiple of " << divisor);
  };
  if (kind == DepthSpaceKind::SpaceToDepth
          ? failed(check(is[2], b, "rows")) ||
                failed(check(is[3], b, "columns"))
          : failed(check(is[1], b * b, "channels")))
    return failure();
  if (kind == DepthSpaceKind::SpaceToDepth) {
    os[1] *= b * b;
    os[2] /= b;
    os[3] /= b;
  } else {
    os[1] /= b * b;
    os[2] *= b;
    os[3] *= b;
  }
  Tensor out(in.getElementType(), os);
  size_t bytes = getByteSize(in.getElementType());
  ArrayRef<char> src = in.getBytes();
  MutableArrayRef<char> dst = out.getMutableBytes();
  int64_t o = 0;
  for (int64_t n = 0; n < os[0]; ++n)
    for (int64_t c = 0; c < os[1]; ++c)
      for (int64_t y = 0; y < os[2]; ++y)
        for (int64_t x = 0; x < os[3]; ++x, ++o) {
          DepthSpaceSource from = sourceOf(kind, b, is[1], c, y, x);
          int64_t i =
              ((n * is[1] + from.channel) * is[2] + from.y) * is[3] + from.x;
          std::copy_n(src.data() + i * bytes, bytes, dst.data() + o * bytes);
        }
  s.addOutput(std::move(out));
  return success();
}

const OpDef depthSpaceDefs[] = {
    {{"onnx.DepthToSpace", depthSpaceOperands, depthSpaceResults,
      depthToSpaceAttrs, OpTrait::Pure},
     inferDepthSpace,
     evalDepthSpace},
    {{"onnx.SpaceToDepth", depthSpaceOperands, depthSpaceResults,
      spaceToDepthAttrs, OpTrait::Pure},
     inferDepthSpace,
     evalDepthSpace},
};

} // namespace

void appendDepthSpaceOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : depthSpaceDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

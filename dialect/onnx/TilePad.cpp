//===- TilePad.cpp - onnx.Tile and onnx.Pad -------------------------------===//
//
// Tile repeats its input `repeats[d]` times along each dimension. Pad adds
// (or, with negative amounts, removes) elements at both ends of each axis:
// `pads` lists all begin amounts, then all end amounts, for the dimensions
// in `axes` (all by default); new elements are `constant_value` (mode
// constant), the mirror image without the edge (reflect), the edge
// (edge), or the wrapped-around input (wrap).
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"
#include "dialect/onnx/SlicePad.h"

#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

LogicalResult checkIndexVector(InferState &s, unsigned i) {
  if (s.getRank(i) != 1 || s.getElementKind(i) != ElementType::I64)
    return s.emitOperandError(i)
           << "must be a 1-D tensor of i64, got " << s.getType(i);
  return success();
}

/// Copies the element at `source(outIndex)` into each position of `out`.
template <typename F>
void gatherElements(const Tensor &in, Tensor &out, F source) {
  size_t size = getByteSize(in.getElementType());
  ArrayRef<int64_t> shape = out.getShape();
  SmallVector<int64_t> inStrides = getStrides(in.getShape());
  SmallVector<int64_t> index(shape.size(), 0);
  const char *src = in.getBytes().data();
  char *dst = out.getMutableBytes().data();
  for (int64_t i = 0, e = out.getNumElements(); i < e; ++i) {
    int64_t offset = 0;
    bool valid = true;
    for (size_t d = 0; d < shape.size() && valid; ++d) {
      int64_t j = source(d, index[d]);
      valid = j >= 0;
      offset += j * inStrides[d];
    }
    if (valid)
      std::memcpy(dst + i * size, src + offset * size, size);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

//===----------------------------------------------------------------------===//
// Tile
//===----------------------------------------------------------------------===//

const ValueSpec tileOperands[] = {{"input"}, {"repeats"}};
const ValueSpec tileResults[] = {{"output"}};

LogicalResult inferTile(InferState &s) {
  if (failed(checkIndexVector(s, 1)))
    return failure();
  SmallVector<int64_t> shape(s.getShape(0));
  std::optional<KnownInts> repeats = s.getKnownInts(1);
  if (repeats && repeats->size() != shape.size())
    return s.emitOperandError(1)
           << "must have one entry per dimension of " << s.getType(0);
  for (size_t d = 0; d < shape.size(); ++d) {
    std::optional<int64_t> r = repeats ? (*repeats)[d] : std::nullopt;
    if (r && *r < 0)
      return s.emitOperandError(1) << "has a negative repeat count";
    // An empty dimension stays empty however often it is repeated.
    if (shape[d] == 0)
      continue;
    if (!r || ShapedType::isDynamic(shape[d]))
      shape[d] = r && *r == 0 ? 0 : ShapedType::kDynamic;
    else if (llvm::MulOverflow(shape[d], *r, shape[d]))
      return s.emitOperandError(1)
             << "makes dimension " << int64_t(d) << " overflow 64 bits";
  }
  s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult evalTile(EvalState &s) {
  const Tensor &in = s.input(0);
  SmallVector<int64_t> repeats = s.input(1).toInts();
  if (int64_t(repeats.size()) != in.getRank())
    return s.emitError() << "operand 'repeats' has " << int64_t(repeats.size())
                         << " entries for an input of rank " << in.getRank();
  SmallVector<int64_t> shape(in.getShape());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (repeats[d] < 0)
      return s.emitError() << "operand 'repeats' has a negative repeat count "
                           << repeats[d];
    if (llvm::MulOverflow(shape[d], repeats[d], shape[d]))
      return s.emitError() << "operand 'repeats' makes dimension " << int64_t(d)
                           << " overflow 64 bits";
  }
  if (failed(s.checkResultSize(0, shape, in.getElementType())))
    return failure();
  Tensor out(in.getElementType(), shape);
  gatherElements(in, out,
                 [&](size_t d, int64_t i) { return i % in.getShape()[d]; });
  s.addOutput(std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// Pad
//===----------------------------------------------------------------------===//

const ValueSpec padOperands[] = {{"data"},
                                 {"pads"},
                                 {"constant_value", Presence::Optional},
                                 {"axes", Presence::Optional}};
const ValueSpec padResults[] = {{"output"}};
const StringRef padModes[] = {"constant", "reflect", "edge", "wrap"};
const AttrSpec padAttrs[] = {stringAttr("mode", "constant", padModes)};

LogicalResult inferPad(InferState &s) {
  if (failed(checkIndexVector(s, 1)))
    return failure();
  if (s.hasOperand(2) &&
      (failed(s.checkSameElementType(0, 2)) || s.getRank(2) > 1 ||
       s.getType(2).getNumElements() != 1))
    return s.emitOperandError(2) << "must be a scalar of the data's type";
  int64_t rank = s.getRank(0);
  std::optional<SmallVector<int64_t>> axes;
  if (s.hasOperand(3)) {
    axes = s.getConstantInts(3);
    if (!axes) {
      // Which dimensions are padded is known at run time.
      s.addResult(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                  s.getElementType(0));
      return success();
    }
  }
  std::optional<KnownInts> pads = s.getKnownInts(1);
  if (!pads) {
    s.addResult(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                s.getElementType(0));
    return success();
  }
  FailureOr<SmallVector<std::optional<int64_t>>> all =
      expandPads(ArrayRef<std::optional<int64_t>>(*pads),
                 axes ? std::optional(ArrayRef(*axes)) : std::nullopt, rank,
                 [&] { return s.emitError(); });
  if (failed(all))
    return failure();
  SmallVector<int64_t> shape(s.getShape(0));
  for (int64_t d = 0; d < rank; ++d) {
    std::optional<int64_t> begin = (*all)[d], end = (*all)[rank + d];
    if (ShapedType::isDynamic(shape[d]))
      continue;
    if (!begin || !end) {
      shape[d] = ShapedType::kDynamic;
      continue;
    }
    if (llvm::AddOverflow(shape[d], *begin, shape[d]) ||
        llvm::AddOverflow(shape[d], *end, shape[d]))
      return s.emitOperandError(1)
             << "makes dimension " << d << " overflow 64 bits";
    if (shape[d] < 0)
      return s.emitOperandError(1)
             << "removes more than dimension " << d << " has";
  }
  s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult evalPad(EvalState &s) {
  const Tensor &in = s.input(0);
  int64_t rank = in.getRank();
  SmallVector<int64_t> axes;
  if (s.hasInput(3))
    axes = s.input(3).toInts();
  SmallVector<int64_t> padValues = s.input(1).toInts();
  FailureOr<SmallVector<int64_t>> pads =
      expandPads(ArrayRef(padValues),
                 s.hasInput(3) ? std::optional(ArrayRef(axes)) : std::nullopt,
                 rank, [&] { return s.emitError(); });
  if (failed(pads))
    return failure();
  StringRef mode = s.getAttrs().getString("mode");
  ArrayRef<int64_t> inShape = in.getShape();
  SmallVector<int64_t> shape(inShape);
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::AddOverflow(shape[d], (*pads)[d], shape[d]) ||
        llvm::AddOverflow(shape[d], (*pads)[rank + d], shape[d]))
      return s.emitError() << "pads make dimension " << d
                           << " overflow 64 bits";
    if (shape[d] < 0)
      return s.emitError() << "pads remove more than the input has";
    if (mode != "constant" && inShape[d] == 0 && shape[d] > 0)
      return s.emitError() << "cannot pad an empty dimension in mode " << mode;
    if (mode == "reflect" && inShape[d] == 1 &&
        ((*pads)[d] > 0 || (*pads)[rank + d] > 0))
      return s.emitError() << "cannot reflect a dimension of size 1";
  }
  if (failed(s.checkResultSize(0, shape, in.getElementType())))
    return failure();
  Tensor out(in.getElementType(), shape);
  if (mode == "constant" && s.hasInput(2)) {
    // Fill with the constant first; positions inside the input are copied
    // over it.
    Tensor fill = broadcastTo(s.input(2).reshape({}), shape);
    out = std::move(fill);
  }
  gatherElements(in, out, [&](size_t d, int64_t i) -> int64_t {
    int64_t n = inShape[d];
    int64_t j = i - (*pads)[d];
    if (j >= 0 && j < n)
      return j;
    if (mode == "constant")
      return -1;
    if (mode == "edge")
      return j < 0 ? 0 : n - 1;
    if (mode == "wrap")
      return ((j % n) + n) % n;
    // Reflect: mirror without repeating the edge, with period 2 (n - 1).
    int64_t period = 2 * (n - 1);
    int64_t k = ((j % period) + period) % period;
    return k < n ? k : period - k;
  });
  s.addOutput(std::move(out));
  return success();
}

const OpDef tilePadDefs[] = {
    {{"onnx.Tile", tileOperands, tileResults, {}, OpTrait::Pure},
     inferTile,
     evalTile},
    {{"onnx.Pad", padOperands, padResults, padAttrs, OpTrait::Pure},
     inferPad,
     evalPad},
};

} // namespace

void appendTilePadOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : tilePadDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

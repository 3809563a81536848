//===- Pool.cpp - Pooling: MaxPool, AveragePool and their global forms ----===//
//
// MaxPool and AveragePool slide a window (SlidingWindow.h) over the spatial
// dimensions; padded positions never win a max, and count towards an
// average only with count_include_pad (and then only the declared padding,
// not the extra positions ceil_mode adds at the end). MaxPool's optional
// Indices result holds the flat index of each maximum in the input
// (row-major, or column-major over the spatial dimensions with
// storage_order = 1). The global forms pool each whole channel.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/SlidingWindow.h"

#include "ir/Operation.h"

#include <limits>

namespace onyx::onnx {

namespace {

const ValueSpec poolOperands[] = {{"X"}};
const ValueSpec poolResults[] = {{"Y"}};
const ValueSpec maxPoolResults[] = {{"Y"}, {"Indices", Presence::Optional}};

const AttrSpec maxPoolAttrs[] = {
    stringAttr("auto_pad", "NOTSET", autoPadValues),
    intAttr("ceil_mode", 0),
    optionalAttr("dilations", AttrType::Ints),
    requiredAttr("kernel_shape", AttrType::Ints),
    optionalAttr("pads", AttrType::Ints),
    intAttr("storage_order", 0),
    optionalAttr("strides", AttrType::Ints),
};
const AttrSpec averagePoolAttrs[] = {
    stringAttr("auto_pad", "NOTSET", autoPadValues),
    intAttr("ceil_mode", 0),
    intAttr("count_include_pad", 0),
    optionalAttr("dilations", AttrType::Ints),
    requiredAttr("kernel_shape", AttrType::Ints),
    optionalAttr("pads", AttrType::Ints),
    optionalAttr("strides", AttrType::Ints),
};

bool isMaxPool(const OpSchema &schema) { return schema.name == "onnx.MaxPool"; }

LogicalResult inferPool(InferState &s) {
  bool isMax = isMaxPool(s.getDef().schema);
  if (failed(isMax ? s.checkNumeric(0) : s.checkFloat(0)))
    return failure();
  if (failed(s.checkMinRank(0, 3, "N x C x spatial")))
    return failure();
  int64_t rank = s.getRank(0);
  SmallVector<int64_t> kernel = *s.getAttrs().getInts("kernel_shape");
  if (int64_t(kernel.size()) != rank - 2)
    return s.emitAttrError("kernel_shape")
           << "must have " << rank - 2 << " values, got "
           << uint64_t(kernel.size());
  FailureOr<WindowGeometry> g =
      computeWindowGeometry(s.getAttrs(), s.getShape(0).drop_front(2), kernel,
                            true, [&] { return s.emitError(); });
  if (failed(g))
    return failure();
  if (isMax && s.getAttrs().getInt("storage_order") > 1)
    return s.emitAttrError("storage_order") << "must be 0 or 1";
  SmallVector<int64_t> shape = {s.getShape(0)[0], s.getShape(0)[1]};
  shape.append(g->output.begin(), g->output.end());
  s.addResult(shape, s.getElementType(0));
  if (isMax)
    s.addResult(shape, IntegerType::get(s.getContext(), 64));
  return success();
}

LogicalResult evalPool(EvalState &s) {
  ArrayRef<int64_t> xs = s.input(0).getShape();
  const OpAttrs &attrs = s.getAttrs();
  bool isMax = isMaxPool(attrs.getSchema());
  SmallVector<int64_t> kernel = *attrs.getInts("kernel_shape");
  ArrayRef<int64_t> inSizes = xs.drop_front(2);
  FailureOr<WindowGeometry> g = computeWindowGeometry(
      attrs, inSizes, kernel, true, [&] { return s.emitError(); });
  if (failed(g))
    return failure();
  size_t spatial = inSizes.size();
  int64_t planes = xs[0] * xs[1];
  int64_t inPlane = getNumElements(inSizes);
  bool includePad = !isMax && attrs.getInt("count_include_pad");
  bool columnMajor = isMax && attrs.getInt("storage_order") == 1;
  SmallVector<int64_t> outShape = {xs[0], xs[1]};
  outShape.append(g->output.begin(), g->output.end());

  F64Evaluation f(s, outShape);
  Tensor indices(ElementType::I64, outShape);
  MutableArrayRef<int64_t> iv = indices.getMutableValues<int64_t>();
  SmallVector<int64_t> rowStrides = getStrides(inSizes);
  // Column-major strides over the spatial dimensions, for storage_order 1.
  SmallVector<int64_t> colStrides(spatial, 1);
  for (size_t d = 1; d < spatial; ++d)
    colStrides[d] = colStrides[d - 1] * inSizes[d - 1];

  int64_t outPlane = getNumElements(g->output);
  int64_t kernelSize = getNumElements(kernel);
  SmallVector<int64_t> pos(spatial), k(spatial);
  for (int64_t plane = 0; plane < planes; ++plane) {
    for (int64_t o = 0; o < outPlane; ++o) {
      for (size_t d = spatial, rest = o; d-- > 0;) {
        pos[d] = rest % g->output[d];
        rest /= g->output[d];
      }
      double best = -std::numeric_limits<double>::infinity(), sum = 0;
      int64_t bestIndex = 0, count = 0;
      for (int64_t kk = 0; kk < kernelSize; ++kk) {
        for (size_t d = spatial, rest = kk; d-- > 0;) {
          k[d] = rest % kernel[d];
          rest /= kernel[d];
        }
        bool inInput = true, inPadding = true;
        int64_t rowIndex = 0, colIndex = 0;
        for (size_t d = 0; d < spatial; ++d) {
          int64_t i =
              pos[d] * g->strides[d] - g->pads[d] + k[d] * g->dilations[d];
          inInput &= i >= 0 && i < inSizes[d];
          inPadding &=
              i >= -g->pads[d] && i < inSizes[d] + g->pads[spatial + d];
          rowIndex += i * rowStrides[d];
          colIndex += i * colStrides[d];
        }
        if (!inInput) {
          count += includePad && inPadding;
          continue;
        }
        double v = f.x[plane * inPlane + rowIndex];
        ++count;
        sum += v;
        if (v > best || (v != v && best == best)) {
          best = v;
          bestIndex = plane * inPlane + (columnMajor ? colIndex : rowIndex);
        }
      }
      f.y[plane * outPlane + o] = isMax ? best : sum / double(count);
      iv[plane * outPlane + o] = bestIndex;
    }
  }
  f.addOutput();
  if (isMax)
    s.addOutput(std::move(indices));
  return success();
}

LogicalResult inferGlobalPool(InferState &s) {
  if (failed(s.checkFloat(0)))
    return failure();
  if (failed(s.checkMinRank(0, 3, "N x C x spatial")))
    return failure();
  SmallVector<int64_t> shape(s.getShape(0));
  std::fill(shape.begin() + 2, shape.end(), 1);
  s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult evalGlobalPool(EvalState &s) {
  bool isMax = s.getAttrs().getSchema().name == "onnx.GlobalMaxPool";
  SmallVector<int64_t> shape(s.input(0).getShape());
  int64_t planes = shape[0] * shape[1];
  int64_t plane = getNumElements(ArrayRef(shape).drop_front(2));
  std::fill(shape.begin() + 2, shape.end(), 1);
  F64Evaluation f(s, shape);
  for (int64_t p = 0; p < planes; ++p) {
    ArrayRef<double> values = f.x.slice(p * plane, plane);
    double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
    for (double v : values)
      acc = isMax ? (v > acc || v != v ? v : acc) : acc + v;
    f.y[p] = isMax ? acc : acc / double(plane);
  }
  f.addOutput();
  return success();
}

const OpDef poolDefs[] = {
    {{"onnx.MaxPool", poolOperands, maxPoolResults, maxPoolAttrs,
      OpTrait::Pure},
     inferPool,
     evalPool},
    {{"onnx.AveragePool", poolOperands, poolResults, averagePoolAttrs,
      OpTrait::Pure},
     inferPool,
     evalPool},
    {{"onnx.GlobalAveragePool", poolOperands, poolResults, {}, OpTrait::Pure},
     inferGlobalPool,
     evalGlobalPool},
    {{"onnx.GlobalMaxPool", poolOperands, poolResults, {}, OpTrait::Pure},
     inferGlobalPool,
     evalGlobalPool},
};

} // namespace

void appendPoolOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : poolDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx
